/* zbd.h: zonemode=zbd, fio 3.33's zoned block device mode
 * (zbd.c): every file is cut in zones of zonesize bytes (a zoned block
 * device: its own zones, BLKREPORTZONE), each with a write pointer kept in
 * memory; writes go at a zone's write pointer only, reads below it (unless
 * read_beyond_wp), a full zone is reset (a write on a device: BLKRESETZONE)
 * before it is written again, zone_reset_threshold/frequency reset zones
 * early, max_open_zones/job_max_open_zones limit the zones written at once.
 * A file's zones are shared by the jobs of a run that use it (fio shares
 * them by file name), so a later job reads what an earlier one wrote.
 * A trim of a sequential zone resets it (fio zbd_do_io_u_trim, zbd.c:2092),
 * the engine's trim then empties it on a regular file; trims of a zoned
 * device are refused (its sequential zones take resets, not discards).
 * Set up by sb_iogen_init (off the per-I/O path); sb_zbd_next is on it:
 * no allocation, the device's lock (jobs running side by side share its
 * write pointers: fio locks each zone), a system call only for a zone reset
 * on a device. */
#ifndef SB_RUN_ZBD_H
#define SB_RUN_ZBD_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "os/blkzoned.h"

struct sb_iogen;

struct sb_zbd_zone {
	uint64_t start, wp, cap;      /* bytes, absolute; cap: writable bytes from start */
	bool seq;                     /* has a write pointer (a conventional zone: false) */
	bool open, reset;
	unsigned cond;                /* enum sb_zcond */
};

/* one file's zones, shared by the jobs of a run (run/zbd.c's registry) */
struct sb_zbd_dev {
	char *path;
	unsigned refs;
	enum sb_zmodel model;         /* NONE: emulated zones (a regular file) */
	int fd;                       /* a zoned device: opened for resets when first needed */
	uint64_t zone_size;
	uint32_t nr;                  /* zones; z[nr] is a sentinel whose start is the end */
	struct sb_zbd_zone *z;
	uint32_t *open, nopen;        /* indexes of the open zones (max_open entries) */
	unsigned max_open;            /* 0: no limit, zones not tracked (as fio) */
	uint64_t swd, wp_swd;         /* bytes below the write pointers */
	uint32_t write_cnt;           /* writes left before a threshold reset */
	pthread_mutex_t lock;         /* the jobs that share it, around sb_zbd_next */
};

/* one job's view of one file */
struct sb_zbd_file {
	struct sb_zbd_dev *d;
	uint64_t off, io_size;        /* fio's file_offset and io_size (absolute) */
	uint64_t start0;              /* the region's start: zoneskip wraps there */
	uint64_t real;                /* the file's size */
	uint32_t min_zone, max_zone;
	uint64_t last_pos[3];         /* per direction, absolute (fio's last_pos) */
};

struct sb_zbd {
	struct sb_zbd_file *f;
	unsigned nfiles;
	unsigned job_open;            /* zones this job opened (fio td->num_open_zones) */
	uint64_t zone_bytes;          /* fio td->zone_bytes (zoneskip) */
	uint64_t resets;              /* zone resets this job did */
	uint64_t pass_ios;            /* I/Os placed in this pass */
};

/* set up g->zbd for g's files (regions aligned to zones as fio aligns them;
 * g->loop_budget follows): 0, -ENOMEM, or -EINVAL with the error printed */
int sb_zbd_setup(struct sb_iogen *g);
void sb_zbd_free(struct sb_iogen *g);
/* the direction of a mixed job's next I/O: a write while nothing can be
 * read (fio zbd_adjust_ddir) */
int sb_zbd_ddir(struct sb_iogen *g, unsigned file, int d);
/* the next I/O of direction d on file: *len in (and, for a random job,
 * *off: the random offset drawn, absolute), *off and *len out (absolute); bytes skipped (zoneskip, a zone's capacity reached) do not
 * count, as fio's io_skip_bytes counts nothing.  false: no I/O
 * can be done (fio's io_u_eof: the loop ends) */
bool sb_zbd_next(struct sb_iogen *g, unsigned file, int d, uint64_t *len, uint64_t *off);
/* reset the written zones of zf's range (fio zbd_reset_zones) */
struct sb_zbd_file;
void sb_zbd_reset_range(struct sb_iogen *g, struct sb_zbd_file *zf);
/* a new run: forget the zones of the files of an earlier one */
void sb_zbd_run_start(void);
/* the next loop of a writing job (fio zbd_file_reset) */
void sb_zbd_loop(struct sb_iogen *g);
#endif
