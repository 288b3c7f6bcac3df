/* inifile.c: a job file into memory for the ini pre-pass (ini.c), through
 * the one reader (os/infile.c), and where a NUL byte sits (ini.h). */
#include <string.h>

#include "os/infile.h"
#include "parse/ini.h"

/* A job file into memory through the one reader (os/infile.h): regular
 * files only (a FIFO or a device could be endless), at most room bytes
 * (what is left of SB_JOBFILE_MAX), recorded as an input of the run.  NULL
 * with the reason in why on failure; *len is the byte count (the text may
 * hold NUL bytes: see sb_ini_nul_line). */
char *sb_ini_read_whole(const char *path, size_t room, size_t *len, char *why, size_t wlen)
{
	return sb_in_read(path, &sb_in_jobfile, 0, room, len, NULL, why, wlen);
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

