/* debug.h: --debug=CATEGORY[,CATEGORY...], fio's debug categories (fio
 * 3.33 debug.h enum debug_flags, init.c debug_levels[]).  A message is one
 * line on the debug stream (standard output, or --output's file once the
 * run opens it, as fio's log_info), "%-8s %-5d " category and thread id
 * before the text, as fio's dprint prints it.  Callers test sb_dbg_on()
 * before doing any work for a message; the per-I/O path tests nothing (the
 * I/O categories go through a separate code path chosen at setup). */
#ifndef SB_LIB_DEBUG_H
#define SB_LIB_DEBUG_H
#include <stdbool.h>
#include <stdio.h>

enum sb_dbg_cat {
	SB_DBG_PROCESS, SB_DBG_FILE, SB_DBG_IO, SB_DBG_MEM, SB_DBG_BLKTRACE, SB_DBG_VERIFY,
	SB_DBG_RANDOM, SB_DBG_PARSE, SB_DBG_DISKUTIL, SB_DBG_JOB, SB_DBG_MUTEX, SB_DBG_PROFILE,
	SB_DBG_TIME, SB_DBG_NET, SB_DBG_RATE, SB_DBG_COMPRESS, SB_DBG_STEADYSTATE,
	SB_DBG_HELPERTHREAD, SB_DBG_ZBD, SB_DBG_NR
};

extern unsigned sb_debug_mask;

static inline bool sb_dbg_on(enum sb_dbg_cat c)
{
	return __builtin_expect(sb_debug_mask >> c & 1u, 0);
}

/* --debug's value: a comma list of categories or "all"; "?" lists them on
 * out (fio's "fio: dumping debug options:..." line) and returns 1 (exit
 * 0).  0 when set (each category named on out: "set debug option NAME"),
 * -EINVAL for an unknown name (reported, with the list). */
int sb_debug_parse(const char *val, FILE *out);
/* the comma list of the categories, "all" last */
void sb_debug_names(char *buf, unsigned len);
/* where the messages go from now on (NULL: standard output) */
void sb_debug_stream(FILE *f);
/* one message of category c (a newline is added when fmt has none) */
void sb_dbg(enum sb_dbg_cat c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
