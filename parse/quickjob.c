/* quickjob.c: the job storbench runs when it is given none (parse.h). */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/log.h"
#include "parse/parse.h"

/* The built-in quick job: mixed 4k random I/O, then 1M sequential I/O, on a
 * scratch file that cannot collide with a user's file (it must not exist
 * yet), removed afterwards. */
int sb_quick_job_text(char *buf, size_t len)
{
	char name[64];
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "storbench-quick.%ld.%d.tmp", (long)getpid(), i);
		if (access(name, F_OK) != 0 && errno == ENOENT) {
			int n = snprintf(buf, len,
				"[global]\n"
				"description=storbench quick job: 4k random mixed, then 1M sequential\n"
				"ioengine=psync\n"
				"filename=%s\n"
				"size=64m\n"
				"runtime=2500ms\n"
				"time_based\n"
				"unlink=1\n"
				"\n"
				"[quick-rand-4k]\n"
				"rw=randrw\n"
				"rwmixread=70\n"
				"bs=4k\n"
				"\n"
				"[quick-seq-1m]\n"
				"stonewall\n"
				"rw=rw\n"
				"bs=1m\n",
				name);
			return (n > 0 && (size_t)n < len) ? 0 : -ENOSPC;
		}
	}
	sb_err("quick job", "could not find a free scratch file name in the current directory");
	return -EEXIST;
}
