/* jobfile.c: libFuzzer harness for the job-file parser.  The input is the
 * bytes of a job file: pre-pass (parse/ini.c) -> iniparser -> job list ->
 * validation -> sweep expansion -> the --parse-only printing (to /dev/null).
 * Messages are captured, not printed.  Nothing runs and nothing is written;
 * the input is handed over as a memfd, so the file-reading path (regular
 * files only, the size cap, NUL bytes) is fuzzed too, and "include FILE" may
 * read (only read) other files. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/log.h"
#include "parse/parse.h"
#include "parse/sweep.h"
#include "ml/registry.h"
#include "run/engtable.h"
#include "t/fuzz/fuzz.h"

static char logbuf[1 << 16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	char path[64];
	if (!devnull && (sb_workloads_hand_down() || sb_run_engines_to_parser() || !(devnull = fopen("/dev/null", "w"))))
		return 0;
	int fd = memfd_create("fuzz-jobfile", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	for (size_t off = 0; off < size;) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0) {
			close(fd);
			return 0;
		}
		off += (size_t)w;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	const char *p = path;
	struct sb_joblist jl = { 0 };
	sb_log_capture(logbuf, sizeof(logbuf));
	if (!sb_parse_files(&p, 1, &jl)) {
		sb_joblist_print(devnull, &jl);
		if (jl.sweep)
			sb_sweep_print(devnull, jl.sweep);
		fflush(devnull);
	}
	sb_log_capture(NULL, 0);
	sb_joblist_free(&jl);
	close(fd);
	return 0;
}
