/* inputs.h: the files a run reads that a user named (job files and their
 * includes, traces, iologs, verify state, report/compare/validate inputs).
 * The one reader (os/infile.c) records each file it opens here, and option
 * checks record input paths the run will open later; the one writer gate
 * (os/outfile.c) refuses to write over any of them.  Files are known by
 * device and inode, never by name, so another spelling, a hard link or a
 * symlink to an input is still that input.  Process-wide, thread-safe. */
#ifndef SB_OS_INPUTS_H
#define SB_OS_INPUTS_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Record the file open on fd (named path, what: the option or role that
 * named it, e.g. "job file", "kv_trace", for messages) as an input.
 * 0 or -errno (fstat failed). */
int sb_inputs_add_fd(int fd, const char *path, const char *what);
/* Record path (followed if a symlink) as an input; a path that does not
 * exist is not recorded (nothing there to overwrite).  0, -ENOENT, -errno. */
int sb_inputs_add_path(const char *path, const char *what);
/* Is (dev, ino) an input of this run?  If so and path/what are given, the
 * name and role it was recorded under are copied there (for the refusal). */
bool sb_inputs_find(dev_t dev, ino_t ino, char *path, size_t plen, char *what, size_t wlen);
/* Forget every input (tests; a new run in the same process). */
void sb_inputs_clear(void);
#endif
