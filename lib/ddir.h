/* ddir.h: the data directions of an I/O, shared by the job spec (per-direction
 * arrays) and the engines (io units). */
#ifndef SB_LIB_DDIR_H
#define SB_LIB_DDIR_H

/* Data directions.  READ/WRITE/TRIM index per-direction arrays. */
enum sb_ddir {
	SB_DDIR_READ = 0,
	SB_DDIR_WRITE = 1,
	SB_DDIR_TRIM = 2,
	SB_DDIR_N = 3,        /* number of data directions */
	SB_DDIR_SYNC = 3,     /* fsync, only in io units */
	SB_DDIR_DATASYNC = 4, /* fdatasync, only in io units */
	SB_DDIR_SYNCRANGE = 5, /* sync_file_range of [offset, offset+len), only in io units */
};

/* "read", "write", "trim", "fsync", "fdatasync", "sync_file_range" (lib/ddir.c) */
extern const char *const sb_ddir_name[SB_DDIR_SYNCRANGE + 1];

#endif
