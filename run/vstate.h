/* vstate.h: the verify write tracker (one generation per interval of each
 * file's I/O region) and its state file, verify_state_save/_load, so a
 * later verify_only run checks exactly what an earlier, possibly
 * interrupted, run wrote.  The file is text (HOWTO.md "verify state"):
 *   storbench-verify-state 1
 *   job NAME thread N type TYPE interval BYTES seed 0xHEX gen LAST files N
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
};

/* <dir of path0, or "." for a device>/local-JOB-THREAD-verify.state (fio's
 * name) into buf */
void sb_vstate_path(char *buf, unsigned len, const char *path0, const char *job, unsigned thread);
/* 0 or -errno */
int sb_vstate_save(const char *file, const struct sb_vstate_id *id, const struct sb_vtrack *tr,
		   char *const *paths, unsigned nfiles);
/* Fill tr (allocated like the run's) from file, which must name the same
 * job, thread, type, interval and files; *gen = its last generation,
 * *seed = its seed.  0, or -errno with the reason in why. */
int sb_vstate_load(const char *file, const struct sb_vstate_id *id, struct sb_vtrack *tr,
		   unsigned nfiles, uint64_t *gen, uint64_t *seed, char *why, unsigned whylen);
#endif
