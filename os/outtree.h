/* outtree.h: a results tree (results_dir=, the MLPerf Storage layout)
 * written whole or not at all, through the writer gate (os/outfile.h).
 * Between begin and end every folder and file of the run folder is made
 * new (never over something there) and remembered by identity; a tree that
 * could not be completed (ENOSPC, EIO, a refusal) is removed again, newest
 * first and only what this run made, so `storbench validate` never takes a
 * half-written run folder for a complete one.  One tree at a time; the
 * functions are for the thread that writes the results. */
#ifndef SB_OS_OUTTREE_H
#define SB_OS_OUTTREE_H
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* Make the run folder dir (it must not exist: -EEXIST, nothing printed, so
 * the caller may try another name) and start remembering.  0 or -errno. */
int sb_outtree_begin(const char *dir);
/* A folder inside the tree.  0 or -errno (printed, job: for the message). */
int sb_outtree_mkdir(const char *job, const char *path);
/* A new file inside the tree: a stream to write, or NULL with the reason
 * printed (errno set).  Close it with sb_outtree_close. */
FILE *sb_outtree_file(const char *job, const char *path);
/* Complete the file under its name (fsync, rename): 0 or -errno, printed. */
int sb_outtree_close(const char *job, FILE *f);
/* End the tree: ok, keep it; else remove what it made (files still open
 * are dropped first).  Returns ok ? 0 : the first removal's -errno. */
int sb_outtree_end(bool ok);
#endif
