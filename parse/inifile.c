/* inifile.c: a job file into memory for the ini pre-pass (ini.c), through
 * the one reader (os/infile.c), where a NUL byte sits, and the invisible
 * characters a line may hold (ini.h). */
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


/* the invisible characters (UTF-8) that make a job file line mean something
 * other than what it shows: pasted from a web page or a word processor */
static const struct { const char *utf8, *name; } invisible[] = {
	{ "\xef\xbb\xbf", "U+FEFF ZERO WIDTH NO-BREAK SPACE (byte-order mark)" },
	{ "\xe2\x80\x8b", "U+200B ZERO WIDTH SPACE" },
	{ "\xe2\x80\x8c", "U+200C ZERO WIDTH NON-JOINER" },
	{ "\xe2\x80\x8d", "U+200D ZERO WIDTH JOINER" },
	{ "\xe2\x80\x8e", "U+200E LEFT-TO-RIGHT MARK" },
	{ "\xe2\x80\x8f", "U+200F RIGHT-TO-LEFT MARK" },
	{ "\xe2\x80\xaa", "U+202A LEFT-TO-RIGHT EMBEDDING" },
	{ "\xe2\x80\xab", "U+202B RIGHT-TO-LEFT EMBEDDING" },
	{ "\xe2\x80\xac", "U+202C POP DIRECTIONAL FORMATTING" },
	{ "\xe2\x80\xad", "U+202D LEFT-TO-RIGHT OVERRIDE" },
	{ "\xe2\x80\xae", "U+202E RIGHT-TO-LEFT OVERRIDE" },
	{ "\xe2\x81\xa0", "U+2060 WORD JOINER" },
	{ "\xe2\x81\xa6", "U+2066 LEFT-TO-RIGHT ISOLATE" },
	{ "\xe2\x81\xa7", "U+2067 RIGHT-TO-LEFT ISOLATE" },
	{ "\xe2\x81\xa8", "U+2068 FIRST STRONG ISOLATE" },
	{ "\xe2\x81\xa9", "U+2069 POP DIRECTIONAL ISOLATE" },
	{ "\xc2\xa0", "U+00A0 NO-BREAK SPACE" },
	{ "\xc2\xad", "U+00AD SOFT HYPHEN" },
};

const char *sb_ini_invisible(const char *line, size_t *at)
{
	for (const char *p = line; *p; p++) {
		if (!(*p & 0x80))
			continue;
		for (size_t i = 0; i < sizeof(invisible) / sizeof(invisible[0]); i++) {
			size_t n = strlen(invisible[i].utf8);
			if (!strncmp(p, invisible[i].utf8, n)) {
				*at = (size_t)(p - line);
				return invisible[i].name;
			}
		}
	}
	return NULL;
}
