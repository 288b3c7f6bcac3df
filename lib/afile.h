/* afile.h: a results or log file written whole or not at all.  A regular
 * file (or a name that does not exist yet) is written to a temporary file
 * beside it (".NAME.XXXXXX", the target's mode) and renamed over the target
 * only when every byte reached the disk (fflush, fsync); a failure removes
 * the temporary and leaves the old file as it was.  Anything else (a
 * character device such as /dev/null or /dev/full, a FIFO) is written
 * directly: there is nothing to rename, but a failed write is still an
 * error.  Directories (-EISDIR) and block devices (-EPERM) are refused
 * (sb_afile_open).  Life cycle: open, write to ->f, then exactly
 * one of commit or abort. */
#ifndef SB_AFILE_H
#define SB_AFILE_H
#include <stdbool.h>
#include <stdio.h>

struct sb_afile {
	FILE *f;      /* where to write; NULL when closed */
	char *path;   /* the target */
	char *tmp;    /* the temporary beside it; NULL: written directly */
	struct sb_afile_io *io; /* under f: the descriptor and the first write
				 * errno (a cookie stream; the struct may move) */
};

/* Open path for writing.  0, or -errno with *why set to a short reason for
 * the message: -EISDIR (a directory), -EPERM (a block device: results are
 * never written over a device), or the errno of the failed call. */
int sb_afile_open(struct sb_afile *a, const char *path, const char **why);
/* Flush, sync, close and rename into place.  0 or -errno (the temporary is
 * removed and the target left as it was). */
int sb_afile_commit(struct sb_afile *a);
/* Close and remove the temporary; the target is left as it was. */
void sb_afile_abort(struct sb_afile *a);
/* The first write error of the stream (an errno), 0: none yet. */
int sb_afile_error(const struct sb_afile *a);
#endif
