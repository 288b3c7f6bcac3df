/* resfile.h: the results file of a run (--output=FILE, else stdout).  It is
 * checked and opened before the run (an unwritable one is a bad command
 * line, found before any I/O).  A regular file is written whole or not at
 * all (os/outfile.h: a temporary beside it, renamed over it once complete),
 * so a full file system or a failed run never leaves a truncated results
 * file in place of the previous one.  A FIFO is opened only when the
 * results are written (opening it blocks until a reader comes, and the
 * jobs must not wait for that), or when interim results start to stream
 * into it; a block device is refused.  Life cycle: open, then either write
 * or drop. */
#ifndef SB_OUTPUT_RESFILE_H
#define SB_OUTPUT_RESFILE_H
#include <stdbool.h>
#include <stdio.h>

#include "os/outfile.h"
#include "stats/results.h"

struct sb_resfile {
	FILE *f;            /* stdout, /dev/null (not rank 0) or af.f; NULL: not open */
	struct sb_outfile af; /* --output=FILE */
	const char *path;   /* --output's FILE; NULL: stdout */
	const char *fifo;   /* FILE is a FIFO, opened at the end */
	bool used;          /* interim results already went there */
};

/* path: --output's FILE or NULL (stdout); writer: false for MPI ranks other
 * than 0 (they write to /dev/null).  0, or -errno with the reason reported. */
int sb_resfile_open(struct sb_resfile *o, const char *path, bool writer);
/* interim results start now: open a FIFO (it waits for a reader) and mark
 * the file used.  0 or -errno, reported; -EINTR: a signal ended the wait
 * for the FIFO's reader (exit 130). */
int sb_resfile_stream(struct sb_resfile *o);
/* the run could not start: leave nothing behind (a file that was there
 * stays as it was); interim results already written are kept */
void sb_resfile_drop(struct sb_resfile *o);
/* write res in the formats (output.h's SB_FMT_* mask) and close: 0, or
 * -errno with the file and the reason reported (-EINTR: as for
 * sb_resfile_stream) */
int sb_resfile_write(struct sb_resfile *o, const struct sb_results *res, unsigned formats);
#endif
