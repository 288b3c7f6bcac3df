/* iologfmt.h: fio's I/O log ("iolog") text format, versions 2 and 3, read
 * by the parser (parse/check_replay.c: validation, the files a log names)
 * and by the run (run/replay.c: the entries replayed), written by
 * stats/iolog.c (write_iolog).
 *
 *     fio version 3 iolog               fio version 2 iolog
 *     TIME FILE add|open|close          FILE add|open|close
 *     TIME FILE ACTION OFFSET LENGTH    FILE ACTION OFFSET LENGTH
 *
 * ACTION: read, write, trim, sync, datasync, and (version 2 only) wait,
 * whose OFFSET is the time since the start in milliseconds to wait for.
 * TIME (version 3): microseconds since the start of the job.  Names hold
 * no white space.  Pure functions: nothing here prints or allocates. */
#ifndef SB_LIB_IOLOGFMT_H
#define SB_LIB_IOLOGFMT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_IOLOG_V2 "fio version 2 iolog"
#define SB_IOLOG_V3 "fio version 3 iolog"

enum sb_iola {
	SB_IOLA_READ = 0, SB_IOLA_WRITE = 1, SB_IOLA_TRIM = 2, /* = enum sb_ddir */
	SB_IOLA_SYNC = 3, SB_IOLA_DATASYNC = 4,
	SB_IOLA_WAIT, SB_IOLA_ADD, SB_IOLA_OPEN, SB_IOLA_CLOSE,
};

struct sb_iolog_rec {
	uint64_t t_us;        /* version 3 */
	const char *name;     /* points into the line */
	size_t name_len;
	enum sb_iola act;
	uint64_t offset, len; /* I/O actions and wait */
};

/* The format of a log from its first bytes: 2 or 3; -1 for a blktrace
 * binary trace (fio's blktrace replay); 0 for anything else. */
int sb_iologfmt_version(const unsigned char *head, size_t n);
/* One line (without the header).  Returns 1 for a record, 0 for a blank
 * line, -1 with why (a short phrase) for a bad one. */
int sb_iologfmt_parse(const char *line, int version, struct sb_iolog_rec *r, const char **why);
/* The name of an action as the log writes it. */
const char *sb_iologfmt_act_name(enum sb_iola a);
#endif
