/* inifile.c: a job file into memory for the ini pre-pass (ini.c): regular
 * files only, bounded, and where a NUL byte sits (ini.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/inputs.h"
#include "parse/ini.h"

/* what a file that is not a regular file is, for messages */
static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO (named pipe)";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* A job file into memory: regular files only (a FIFO or a device could be
 * endless), at most room bytes (what is left of SB_JOBFILE_MAX).  NULL with
 * the reason in why on failure; *len is the byte count (the text may hold
 * NUL bytes: see sb_ini_nul_line). */
char *sb_ini_read_whole(const char *path, size_t room, size_t *len, char *why, size_t wlen)
{
	struct stat st;
	char *buf = NULL;
	size_t cap = 0;
	int fd = -1;
	*len = 0;
	/* stat first: a device or FIFO is refused without opening it */
	if (stat(path, &st) || (S_ISREG(st.st_mode) &&
	    ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0 || fstat(fd, &st)))) {
		snprintf(why, wlen, "%s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, wlen, "it is %s, not a regular file: a job file must be a regular file",
			 file_kind(st.st_mode));
		goto fail;
	}
	(void)sb_inputs_add_fd(fd, path, "job file"); /* no output ever replaces it */
	for (;;) {
		if (*len > room || (uint64_t)st.st_size > room) {
			snprintf(why, wlen, "too big: a job file and everything it includes may hold at "
				 "most %u MiB together (is this the right file?)", SB_JOBFILE_MAX >> 20);
			goto fail;
		}
		if (cap - *len < 4096) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 8192);
			if (!nb) {
				snprintf(why, wlen, "%s", strerror(ENOMEM));
				goto fail;
			}
			buf = nb;
		}
		ssize_t r = read(fd, buf + *len, cap - *len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, wlen, "%s", strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		*len += (size_t)r;
	}
	close(fd);
	buf[*len] = '\0';
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* the line (1-based; "\n", "\r\n" and a lone "\r" end a line) of the first
 * NUL byte in text[0..len), or 0 when there is none */
unsigned sb_ini_nul_line(const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);
	unsigned line = 1;
	if (!nul)
		return 0;
	for (const char *p = text; p < nul; p++) /* p[1] is at most the NUL */
		if (*p == '\n' || (*p == '\r' && p[1] != '\n'))
			line++;
	return line;
}

