/* engine_driver.h: a tiny stand-in for run/ that drives one engine the way
 * engines/engine.h says run/ will (aligned buffers, init, open_file,
 * queue/commit/getevents/event, close_file, cleanup).  Used by the engine
 * conformance suite in test_engines.c. */
#ifndef SB_T_ENGINE_DRIVER_H
#define SB_T_ENGINE_DRIVER_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"
#include "parse/jobspec.h"

#define DRV_MAX_DEPTH 64
#define DRV_MAX_FILES 2

/* One request of a test workload, and what became of it. */
struct drv_req {
	int ddir;               /* enum sb_ddir */
	unsigned file;          /* index into drv.files */
	uint64_t off, len;
	int64_t result;         /* filled by drv_run */
	unsigned char *data;    /* write source / read destination (len bytes) */
};

struct drv {
	const struct sb_engine_ops *ops;
	struct sb_jobspec spec;        /* zeroed defaults; tests set options before drv_init */
	struct sb_engine_job job;      /* the engine's view of spec, filled by drv_init */
	struct sb_engine_td td;
	struct sb_file files[DRV_MAX_FILES];
	char paths[DRV_MAX_FILES][PATH_MAX];
	bool opened[DRV_MAX_FILES];
	bool user[DRV_MAX_FILES];      /* file i is the user's, not made by the run:
					* sb_file.created false (default: made, true) */
	bool inited;
	struct drv_req *slot[DRV_MAX_DEPTH];  /* request held by io unit i */
	unsigned free_ios[DRV_MAX_DEPTH], nfree;
	unsigned inflight;             /* queued and not yet reaped */
	unsigned max_inflight;
	unsigned busy;                 /* BUSY answers from queue() */
};

/* Zero d and fill the spec with the parser's defaults for depth. */
void drv_prepare(struct drv *d, const struct sb_engine_ops *ops, unsigned depth);
/* Allocate io units and buffers (bs bytes each, 4096-aligned) for nfiles
 * files and call init.  Returns init's result. */
int drv_init(struct drv *d, uint64_t bs, unsigned nfiles);
/* Open path (oflags, plus O_DIRECT when spec.direct) as file i with an I/O
 * region of region_len bytes, then the engine's open_file.  0 or -errno. */
int drv_open(struct drv *d, unsigned i, const char *path, int oflags, uint64_t region_len);
/* Run n requests to completion at spec.iodepth.  0, or -errno when the
 * engine failed or did not finish within 20 s. */
int drv_run(struct drv *d, struct drv_req *q, unsigned n);
/* close_file, close, cleanup, free. */
void drv_finish(struct drv *d);

/* An engine's own option (fixedbufs, hipri, ...) in spec s, set and read
 * through its table row as the parser does (whatever s's ioengine, as a job
 * file may): 0 or -EINVAL when no engine has it or v is out of bounds. */
int spec_eopt_set(struct sb_jobspec *s, const char *name, long long v);
long long spec_eopt_get(const struct sb_jobspec *s, const char *name);

/* Test data: len pseudo-random bytes, distinct per (seed, blk). */
void drv_pattern(unsigned char *p, size_t len, unsigned seed, unsigned blk);
/* Create (or truncate) path with size bytes, as run/ lays files out. */
int drv_make_file(const char *path, uint64_t size);
/* Whether files in dir can be opened O_DIRECT. */
bool drv_direct_ok(const char *dir);
/* A scratch directory on tmpfs (/dev/shm), and its removal when empty. */
const char *drv_shm_dir(void);
void drv_shm_dir_remove(void);
#endif
