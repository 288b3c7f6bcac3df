/* datagen.h: the data written by storbench: fast pseudo-random bytes, and
 * a recipe (struct sb_dg) that turns a stream key and a byte position into
 * contents with a chosen compressibility (buffer_compress_percentage) and
 * duplicate share (dedupe_percentage), as a pure function of (key,
 * position): what a checkpoint or dataset byte should be can be worked out
 * again when it is read back, without keeping a copy.
 *
 * Random bytes come in 4 KiB blocks, each from 8 independent xoshiro256++
 * lanes (GCC vector extensions) seeded from (key, block) by splitmix64: no
 * state between blocks, no lock, no allocation, no system call.  Every
 * byte is random (no fixed bits): gzip cannot shrink it and no two blocks
 * are equal. */
#ifndef SB_LIB_DATAGEN_H
#define SB_LIB_DATAGEN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_DG_BLOCK 4096u

/* what the random bytes hold: plain random bytes, or little-endian floats
 * uniform in [0, 1) as torch.rand makes them (fp32: k * 2^-24, fp16:
 * k * 2^-11, k a uniform integer below 2^24 / 2^11), which compress a
 * little (gzip -1 about 1.11x / 1.19x) */
enum sb_dg_values { SB_DG_BYTES = 0, SB_DG_F32_U01 = 1, SB_DG_F16_U01 = 2 };

/* the random block number `block` of stream `key`: SB_DG_BLOCK bytes */
void sb_dg_block(uint64_t key, uint64_t block, void *out);
/* len bytes of stream key from byte position pos (any alignment) */
void sb_dg_random(uint64_t key, uint64_t pos, void *out, size_t len);
/* the same as floats in [0, 1) (values != SB_DG_BYTES): each aligned
 * 4-byte (fp32) or 2-byte (fp16) word of the stream is one value */
void sb_dg_random_values(uint64_t key, uint64_t pos, void *out, size_t len,
			 enum sb_dg_values values);
/* XOR every byte of buf with the bytes of w (little-endian, repeating
 * every 8 bytes from buf): a different w makes every block different and
 * leaves nothing an LZ77 window or a block hash can match (scramble_buffers) */
void sb_dg_xor(void *buf, size_t len, uint64_t w);
/* fio's buffer scramble (scramble_buffers=1): buf holds the bytes of a file
 * from offset; in each whole 512-byte sector store the sector's own offset
 * (8 bytes, little-endian) at byte 8 * (slot % 6), then a and b
 * (little-endian) at bytes 48-55 and 56-63: 24 bytes in the sector's first
 * 64-byte line, so one cache line of eight is touched.  A last partial
 * sector gets the stored bytes that fit in it */
void sb_dg_scramble(void *buf, size_t len, uint64_t offset, unsigned slot, uint64_t a,
		    uint64_t b);
/* a 64-bit mix of a and b (splitmix64 finalizer of a ^ mix(b)) */
uint64_t sb_dg_mix(uint64_t a, uint64_t b);

enum sb_dg_dedupe { SB_DG_REPEAT = 0, SB_DG_WORKING_SET = 1 };

/* A content recipe.  Position p of the stream lies in unit p / unit (the
 * job's block size: fio decides compression and dedupe per buffer).  A
 * unit is a duplicate with probability dedupe_pct% (decided by hashing its
 * number): it then holds the bytes of an earlier unit (repeat: the nearest
 * earlier unique one; working_set: one of the first ws_units).  Inside a
 * unit, each chunk (default: the unit) holds (100 - compress_pct)% random
 * bytes followed by filler: pat repeated (NULL: zeroes).  compress_pct=100
 * is all filler (zero_buffers, buffer_pattern).  stamp: the first 8 bytes
 * of each 4 KiB block of a unit's random part are the block's number in
 * the stream XOR stamp_key, so a block found in the wrong place can be told
 * apart (sb_dg_stamp). */
struct sb_dg {
	uint64_t key;
	uint64_t unit;                /* bytes, > 0 */
	unsigned compress_pct;        /* 0-100 */
	uint64_t chunk;               /* bytes; 0: unit */
	unsigned dedupe_pct;          /* 0-100 */
	enum sb_dg_dedupe mode;
	uint64_t ws_units;            /* working_set: units in the set (>= 1) */
	bool stamp;
	uint64_t stamp_key;           /* set by sb_dg_init from key */
	enum sb_dg_values values;     /* the random part's values */
	const unsigned char *pat;     /* filler; NULL: zeroes */
	size_t patlen;
	/* dedupe_global (working_set only; peers 0: off): the working set is
	 * shared by `peers` streams, stream i having key sb_dg_peer_key(gkey,
	 * i) (this one is number `peer`, its key set so by sb_dg_init).  Set
	 * entry w (0 <= w < ws_units) is unit w / peers of stream w % peers, so
	 * a duplicate is a pure function of (gkey, w): any stream, and a
	 * reader, can work it out without a copy (see sb_dg_origin). */
	unsigned peers, peer;
	uint64_t gkey;
};

/* the key of stream i of a dedupe_global pool with seed gkey */
uint64_t sb_dg_peer_key(uint64_t gkey, unsigned i);
/* fill in the derived fields (stamp_key; key when peers) */
void sb_dg_init(struct sb_dg *g);
/* the bytes [pos, pos + len) of g's stream */
void sb_dg_fill(const struct sb_dg *g, uint64_t pos, void *buf, size_t len);
/* the unit whose bytes unit u holds (u itself unless u is a duplicate) */
uint64_t sb_dg_source(const struct sb_dg *g, uint64_t u);
/* the same with dedupe_global: the unit and (*key) the stream key it is
 * from (g->key unless it comes from the shared working set) */
uint64_t sb_dg_origin(const struct sb_dg *g, uint64_t u, uint64_t *key);
/* stamp: the stream position of the 4 KiB block whose first 8 bytes are
 * at p, as g would have stamped it; UINT64_MAX when the stamp names no
 * block of g below limit (bytes) */
uint64_t sb_dg_stamp(const struct sb_dg *g, const void *p, uint64_t limit);
#endif
