/* vblock.h: the verify= block format: how a verify interval is filled on a
 * write and how one read back is checked and, when it is wrong, classified
 * (stats/verify.h kinds).  Pure functions over a buffer: no I/O, no
 * allocation, no formatting on success.
 *
 * An interval of L bytes (verify_interval, default the write block size),
 * integers little-endian:
 *   [0, H)      header, H = sb_vhdr_len(type) (64, or 128 for md5/sha*):
 *               (time: when the write was prepared; a run that checks its own
 *               writes refuses a block stamped before the run began)
 *               0 u32 magic "SBV1"   4 u8 type   5 u8 0   6 u16 H
 *               8 u32 L   12 u16 job   14 u16 thread   16 u64 offset
 *               24 u64 generation   32 u64 seed   40 u64 time (ns, realtime)
 *               48 digest (sb_csum of [0,48) then [H,L): the data and the
 *                  trailer), zero padding, H-8 u64 hcheck (a hash of [0,48))
 *   [H, L-32)   data: wyrand bytes from the seed (or verify_pattern)
 *   [L-32, L)   trailer: u32 magic "SBVT", u32 tcheck, u64 offset,
 *               u64 generation, u64 hcheck (the header's)
 * verify_offset moves the header: it is swapped with the bytes at that
 * offset before the write and back before the check.  verify=pattern has
 * no header or trailer: the interval is the pattern repeated. */
#ifndef SB_VBLOCK_H
#define SB_VBLOCK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/csum.h"
#include "stats/verify.h"

#define SB_VMAGIC 0x31564253u  /* "SBV1" */
#define SB_VTMAGIC 0x54564253u /* "SBVT" */

/* how a job's intervals look */
struct sb_vfmt {
	unsigned type;              /* enum sb_vtype */
	unsigned hdr;               /* header bytes (0: pattern) */
	uint64_t len;               /* interval bytes */
	uint64_t voff;              /* verify_offset */
	const uint8_t *pat;         /* verify_pattern bytes, NULL: random data */
	unsigned patlen;
	int patoff;                 /* where %o goes in the pattern, -1: nowhere */
	bool check_seed;            /* verify_header_seed */
	struct sb_csum *cs;         /* the thread's checksum state */
};

/* what identifies one written interval */
struct sb_vid {
	uint64_t offset, gen, seed;
	unsigned job, thread;
	/* checks only: the block must have been written at or after this time
	 * (ns, realtime; 0: any).  A run checking what it wrote gives its own
	 * start: a block with the same offset, generation and seed left by an
	 * earlier run of the same job (a write the device dropped) is then
	 * stale, not good */
	uint64_t min_time;
	/* checks only: the block may be any writer's (a read job checking what
	 * another job or run left, no saved state naming the block): job,
	 * thread, generation and seed are not compared; the offset is */
	bool any_writer;
	/* checks only: the block may be any job's of this run or another (a
	 * verify_only job with no saved state checks the blocks its workload
	 * would write, whoever wrote them: fio 3.33 verify.c verify_header
	 * compares no job); thread, generation and seed are compared */
	bool any_job;
};

/* the data seed of generation gen at offset, from a thread's base seed */
uint64_t sb_vblock_seed(uint64_t base, uint64_t gen, uint64_t offset);
/* fill one interval (f->len bytes at buf) for id, stamped with time_ns */
void sb_vblock_fill(const struct sb_vfmt *f, uint8_t *buf, const struct sb_vid *id,
		    uint64_t time_ns);
/* Check one interval read back where want says (want->gen 0: any
 * generation; want->seed checked when f->check_seed and want->gen).  Returns
 * true when it is good; else *kind and the expected/found texts (n bytes
 * each).  buf may be modified (verify_offset is swapped back). */
bool sb_vblock_check(const struct sb_vfmt *f, uint8_t *buf, const struct sb_vid *want,
		     enum sb_verify_kind *kind, char *expected, char *found, size_t n);
#endif
