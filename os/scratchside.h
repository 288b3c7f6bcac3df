/* scratchside.h: the fallback mark, for file systems that keep no user
 * extended attributes (ramfs, NFSv3, vfat, tmpfs before Linux 6.6, ...).
 * The folder's record file .storbench-owner lists, one line each, the
 * entries storbench made in that folder with their marks:
 *   "storbench-owner 1" on the first line, then
 *   "NAME btime=S.N MARK" (NAME with bytes <= ' ', '%' and 0x7f written
 *   %XX; btime: the entry's birth time, 0.0 where the file system keeps
 *   none; MARK: the text of the user.storbench mark, os/scratch.h).
 * A record counts only for an entry of that name that is still the inode
 * the mark names, born at that time, and owned by the record file's owner
 * (or the record file is root's).  A run drops the record of what it
 * removes; the record file goes when it holds no record.  Every change is
 * made under flock(LOCK_EX) of the record file.  Only os/scratch.c and
 * run/cleanup.c use this. */
#ifndef SB_OS_SCRATCHSIDE_H
#define SB_OS_SCRATCHSIDE_H
#include <stdbool.h>
#include <stddef.h>

#define SB_SCRATCH_SIDE ".storbench-owner"

/* record mark (the mark's text) for path (just made; not followed) in its
 * folder's record file, made if need be.  0 or -errno. */
int sb_scratch_side_put(const char *path, const char *mark);
/* 1 and the recorded mark text of path, 0 when there is no record that
 * counts for it, -errno when the record file cannot be read */
int sb_scratch_side_get(const char *path, char *mark, size_t len);
/* path's record says state=kept.  0, -ENOENT (no record) or -errno */
int sb_scratch_side_keep(const char *path);
/* drop path's records that name inode (dev, ino) (the record file goes
 * when it held the last): called once the entry is removed.  0, -ENOENT
 * (no record) or -errno */
int sb_scratch_side_drop(const char *path, unsigned long long dev, unsigned long long ino);
/* drop the records of dir's entries that are gone or another inode now;
 * true when the record file is still there afterwards */
bool sb_scratch_side_prune(const char *dir);
/* dir's .storbench-owner is a record file (not a user's file of that name) */
bool sb_scratch_side_is(const char *dir);
#endif
