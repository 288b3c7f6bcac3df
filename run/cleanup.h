/* cleanup.h: `storbench --cleanup DIR`: remove what killed storbench runs
 * left under DIR (files and folders carrying the user.storbench mark whose
 * creator is no longer running), and nothing else. */
#ifndef SB_CLEANUP_H
#define SB_CLEANUP_H
#include <stdbool.h>
#include <stdio.h>

/* Walks DIR (never following a symlink, never leaving DIR), says on out
 * what it removed (or, with dry_run, would remove) and what it skipped and
 * why.  Returns 0, -ENOTDIR/-ENOENT when DIR is not a directory, or -EIO
 * when something could not be removed (each said on stderr). */
int sb_cleanup_dir(const char *dir, bool dry_run, FILE *out);
/* --cleanup s3://BUCKET[/PREFIX] (run/cleanup_s3.c; sb_cleanup_dir hands
 * such a DIR here): the objects under
 * PREFIX marked by a storbench run that is no longer running are deleted,
 * nothing else.  The endpoint and keys as ioengine=s3 finds them without
 * options (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ~/.aws/credentials).
 * 0, -EINVAL (no bucket, no endpoint or keys, the listing refused: said),
 * -EIO (an object could not be removed), -EINTR (stopped). */
int sb_cleanup_s3(const char *url, bool dry_run, FILE *out);
#endif
