/* vstate.h: the verify write tracker (one generation per interval of each
 * file's I/O region) and its state file, verify_state_save/_load, so a
 * later verify_only run checks exactly what an earlier, possibly
 * interrupted, run wrote.  The file is text (HOWTO.md "verify state"):
 *   storbench-verify-state 1
 *   job NAME thread N type TYPE interval BYTES seed 0xHEX gen LAST files N
 *       index J start NS   (the job's place in its run; the run's start, ns
 *       since the epoch: no block of it is stamped earlier; absent in
 *       files of older storbench, read as 0: unknown)
 *   file INDEX START NSLOTS PATH
 *   SLOT COUNT GEN STEP      slots SLOT.. SLOT+COUNT-1 hold GEN, GEN+STEP, ..
 *   end
 * (runs of written slots only; a sequential pass is one line per file). */
#ifndef SB_RUN_VSTATE_H
#define SB_RUN_VSTATE_H
#include <stdint.h>

struct sb_vtrack {
	uint32_t *gen;       /* per slot: generation last written, 0 = never (bits
			      * 0-30; bit 31 is run/verify.c's "checked" mark) */
	uint64_t nslots;
	uint64_t start;      /* region start, bytes */
};

struct sb_vstate_id {
	const char *job;
	unsigned thread;
	const char *type;
	uint64_t interval, seed, gen;
	unsigned index;      /* the writing job's index (its blocks' header "job") */
	uint64_t start;      /* the writing run's start (realtime ns) */
};

/* A read job's knowledge of what the writers' saved states say its region
 * should hold (verify on a read job, HOWTO "verify on read jobs"): per
 * slot the newest state (by start) that wrote it.  gen NULL: no state
 * names the file. */
struct sb_vwriter {
	uint64_t seed, start;
	unsigned index, thread;
};
#define SB_VKNOWN_MAX 255
struct sb_vknown {
	uint32_t *gen;       /* per slot: generation, 0 = no state wrote it */
	uint8_t *who;        /* per slot: its writer, an index into w */
	uint64_t nslots, start;
	struct sb_vwriter w[SB_VKNOWN_MAX];
	unsigned nw;
};

/* <dir of path0, or "." for a device>/local-JOB-THREAD-verify.state (fio's
 * name) into buf; under --aux-path's folder when one is set */
void sb_vstate_path(char *buf, unsigned len, const char *path0, const char *job, unsigned thread);
/* --aux-path=DIR: the verify state files go there (fio 3.33 backend.c:2220,
 * "AUX/local-..."); NULL: beside each job's first file.  Call before the run. */
void sb_vstate_aux_path(const char *dir);
/* 0 or -errno */
int sb_vstate_save(const char *file, const struct sb_vstate_id *id, const struct sb_vtrack *tr,
		   char *const *paths, unsigned nfiles);
/* Fill tr (allocated like the run's) from file, which must name the same
 * job, thread, type, interval and files; *gen = its last generation,
 * *seed = its seed.  0, or -errno with the reason in why. */
int sb_vstate_load(const char *file, const struct sb_vstate_id *id, struct sb_vtrack *tr,
		   unsigned nfiles, uint64_t *gen, uint64_t *seed, char *why, unsigned whylen);
/* the start recorded in file when it was saved by id's job, thread, type,
 * interval and seed; 0 when absent, unreadable or another job's */
uint64_t sb_vstate_start(const char *file, const struct sb_vstate_id *id);
/* Every storbench state file in the directory of path (other files, fio's
 * binary states among them, are passed over) saved with verify=type and
 * interval that names path (same device and inode) is applied to k, whose
 * nslots and start the caller set, oldest first.  0 (k->gen NULL when
 * none applies) or -ENOMEM. */
int sb_vstate_known(const char *path, const char *type, uint64_t interval, struct sb_vknown *k);
void sb_vstate_known_free(struct sb_vknown *k);
#endif
