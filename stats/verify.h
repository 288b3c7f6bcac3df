/* verify.h: what a verify pass found, the results model's "verify" object.
 * Filled by whoever checks data read back: verify= on I/O jobs
 * (run/), checkpoint_verify and dataset_verify (ml/).  One result per thread
 * (sb_thread.verify, NULL when the job does not verify), merged per job
 * result by run/collect.c, written by output/verify.c; any failure makes
 * the run exit 3.
 *
 * Failure kinds, each telling a different storage fault apart:
 *   bit_corruption  the block's checksum (or contents) does not match
 *   misplaced       a valid block whose header names another offset (or file)
 *   stale           a valid block of an older generation: a lost write
 *   torn            the block's first and second parts disagree
 *   never_written   zeroes (or no header at all) where a block was written
 * Not for the per-I/O path: record only on a failure. */
#ifndef SB_STATS_VERIFY_H
#define SB_STATS_VERIFY_H
#include <stdint.h>

enum sb_verify_kind {
	SB_VFY_CORRUPT, SB_VFY_MISPLACED, SB_VFY_STALE, SB_VFY_TORN, SB_VFY_NEVER_WRITTEN,
	SB_VFY_KIND_N
};

/* the JSON key and normal-output name of a kind ("bit_corruption", ...) */
const char *sb_verify_kind_name(enum sb_verify_kind k);

#define SB_VERIFY_FIRST_MAX 16   /* failures kept in full, per job result */
#define SB_VERIFY_TEXT_MAX 96

struct sb_verify_failure {
	enum sb_verify_kind kind;
	char *file;                       /* owned */
	uint64_t offset, length;          /* bytes, of the block in the file */
	unsigned thread;                  /* the job's thread (numjobs index) or rank */
	char expected[SB_VERIFY_TEXT_MAX]; /* e.g. "crc32c 0x1a2b3c4d, offset 4096, gen 2" */
	char found[SB_VERIFY_TEXT_MAX];
};

struct sb_verify_result {
	char type[16];                    /* "crc32c", "md5", "pattern", "contents", ... */
	uint64_t blocks;                  /* blocks checked */
	uint64_t bytes;                   /* bytes checked */
	uint64_t failures[SB_VFY_KIND_N]; /* by kind */
	unsigned nfirst;                  /* first failures kept (<= SB_VERIFY_FIRST_MAX) */
	struct sb_verify_failure *first;  /* owned, allocated on the first failure */
};

/* a zeroed result of the given type; NULL when out of memory */
struct sb_verify_result *sb_verify_result_new(const char *type);
void sb_verify_result_free(struct sb_verify_result *v);
/* Count one failure; keep it in full while fewer than SB_VERIFY_FIRST_MAX
 * are kept.  expected/found: NULL for "".  Returns 0 or -ENOMEM (counted
 * either way). */
int sb_verify_record(struct sb_verify_result *v, enum sb_verify_kind kind, const char *file,
		     uint64_t offset, uint64_t length, unsigned thread, const char *expected,
		     const char *found);
/* dst += src: counts add, src's kept failures follow dst's up to the cap */
int sb_verify_merge(struct sb_verify_result *dst, const struct sb_verify_result *src);
/* failures of every kind */
uint64_t sb_verify_nfail(const struct sb_verify_result *v);
#endif
