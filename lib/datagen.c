/* datagen.c: fast pseudo-random contents and the content recipe (see
 * datagen.h).  The block generator runs 8 xoshiro256++ lanes side by side
 * in GCC vector types (two 4 x 64-bit vectors: AVX2 where the CPU has it,
 * chosen at load time through target_clones, SSE2 pairs otherwise). */
#include <endian.h>
#include <string.h>

#include "lib/datagen.h"

typedef uint64_t sb_v4 __attribute__((vector_size(32)));

#define LANES 8
#define STEPS (SB_DG_BLOCK / (LANES * 8))

static inline uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t sb_dg_mix(uint64_t a, uint64_t b)
{
	uint64_t x = b * 0xd6e8feb86659fd93ull;
	x ^= a;
	return splitmix(&x);
}

#define ROTL(x, k) (((x) << (k)) | ((x) >> (64 - (k))))

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define SB_DG_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SB_DG_CLONES
#endif

SB_DG_CLONES
static void gen_block(const uint64_t seed[LANES * 4], unsigned char *out)
{
	sb_v4 a0, a1, a2, a3, b0, b1, b2, b3;
	memcpy(&a0, seed + 0, 32); memcpy(&a1, seed + 4, 32);
	memcpy(&a2, seed + 8, 32); memcpy(&a3, seed + 12, 32);
	memcpy(&b0, seed + 16, 32); memcpy(&b1, seed + 20, 32);
	memcpy(&b2, seed + 24, 32); memcpy(&b3, seed + 28, 32);
	for (unsigned i = 0; i < STEPS; i++) {
		sb_v4 sa = a0 + a3, sb = b0 + b3;
		sb_v4 ra = ROTL(sa, 23) + a0, rb = ROTL(sb, 23) + b0;
		memcpy(out, &ra, 32);
		memcpy(out + 32, &rb, 32);
		out += 64;
		sb_v4 ta = a1 << 17, tb = b1 << 17;
		a2 ^= a0; b2 ^= b0;
		a3 ^= a1; b3 ^= b1;
		a1 ^= a2; b1 ^= b2;
		a0 ^= a3; b0 ^= b3;
		a2 ^= ta; b2 ^= tb;
		a3 = ROTL(a3, 45); b3 = ROTL(b3, 45);
	}
}

void sb_dg_block(uint64_t key, uint64_t block, void *out)
{
	uint64_t seed[LANES * 4];
	uint64_t x = key ^ (block * 0xa0761d6478bd642full);
	for (unsigned i = 0; i < LANES * 4; i++)
		seed[i] = splitmix(&x);
	gen_block(seed, out);
}

void sb_dg_random(uint64_t key, uint64_t pos, void *out, size_t len)
{
	unsigned char *o = out, tmp[SB_DG_BLOCK] __attribute__((aligned(64)));
	while (len) {
		uint64_t blk = pos / SB_DG_BLOCK;
		size_t in = (size_t)(pos % SB_DG_BLOCK), n = SB_DG_BLOCK - in;
		if (n > len)
			n = len;
		if (n == SB_DG_BLOCK) {
			sb_dg_block(key, blk, o);
		} else {
			sb_dg_block(key, blk, tmp);
			memcpy(o, tmp + in, n);
		}
		o += n;
		pos += n;
		len -= n;
	}
}

/* a block's random words as torch.rand's values (in place) */
static void to_values(unsigned char *blk, enum sb_dg_values values)
{
	if (values == SB_DG_F32_U01) {
		for (unsigned i = 0; i < SB_DG_BLOCK; i += 4) {
			uint32_t w;
			memcpy(&w, blk + i, 4);
			float f = (float)(w >> 8) * 0x1p-24f; /* exact: 24 bits */
			memcpy(blk + i, &f, 4);
		}
		return;
	}
	for (unsigned i = 0; i < SB_DG_BLOCK; i += 2) { /* fp16: k * 2^-11 */
		unsigned k = (unsigned)(blk[i + 1] >> 5) << 8 | blk[i];
		uint16_t h = 0;
		if (k) {
			unsigned e = 31 - (unsigned)__builtin_clz(k); /* 2^e <= k */
			h = (uint16_t)((e + 4) << 10 | ((k << (10 - e)) & 0x3ff));
		}
		blk[i] = (unsigned char)h;
		blk[i + 1] = (unsigned char)(h >> 8);
	}
}

void sb_dg_random_values(uint64_t key, uint64_t pos, void *out, size_t len,
			 enum sb_dg_values values)
{
	unsigned char *o = out, tmp[SB_DG_BLOCK] __attribute__((aligned(64)));
	if (values == SB_DG_BYTES) {
		sb_dg_random(key, pos, out, len);
		return;
	}
	while (len) {
		uint64_t blk = pos / SB_DG_BLOCK;
		size_t in = (size_t)(pos % SB_DG_BLOCK), n = SB_DG_BLOCK - in;
		if (n > len)
			n = len;
		if (n == SB_DG_BLOCK) {
			sb_dg_block(key, blk, o);
			to_values(o, values);
		} else {
			sb_dg_block(key, blk, tmp);
			to_values(tmp, values);
			memcpy(o, tmp + in, n);
		}
		o += n;
		pos += n;
		len -= n;
	}
}

SB_DG_CLONES
void sb_dg_xor(void *buf, size_t len, uint64_t w)
{
	unsigned char *p = buf;
	sb_v4 k = { w, w, w, w };
	size_t i = 0;
	for (; i + 32 <= len; i += 32) {
		sb_v4 v;
		memcpy(&v, p + i, 32);
		v ^= k;
		memcpy(p + i, &v, 32);
	}
	for (; i < len; i++)
		p[i] ^= (unsigned char)(w >> (8 * (i % 8)));
}

/* the bytes of little-endian v that fall before n, stored at s + at */
static void put_clipped(unsigned char *s, size_t n, size_t at, uint64_t v)
{
	for (unsigned k = 0; k < 8 && at + k < n; k++)
		s[at + k] = (unsigned char)(v >> (8 * k));
}

void sb_dg_scramble(void *buf, size_t len, uint64_t offset, unsigned slot, uint64_t a,
		    uint64_t b)
{
	unsigned char *p = buf;
	size_t at = (size_t)(slot % 6) * 8, i = 0;
	uint64_t la = htole64(a), lb = htole64(b);
	for (; i + 512 <= len; i += 512, offset += 512) {
		uint64_t lo = htole64(offset);
		memcpy(p + i + at, &lo, 8);
		memcpy(p + i + 48, &la, 8);
		memcpy(p + i + 56, &lb, 8);
	}
	if (i < len) {
		put_clipped(p + i, len - i, at, offset);
		put_clipped(p + i, len - i, 48, a);
		put_clipped(p + i, len - i, 56, b);
	}
}

uint64_t sb_dg_peer_key(uint64_t gkey, unsigned i)
{
	return sb_dg_mix(gkey ^ 0x676c6f62616cull /* "global" */, i);
}

void sb_dg_init(struct sb_dg *g)
{
	if (g->peers && g->mode == SB_DG_WORKING_SET)
		g->key = sb_dg_peer_key(g->gkey, g->peer);
	else
		g->peers = 0; /* fio: dedupe_global needs dedupe_mode=working_set */
	g->stamp_key = sb_dg_mix(g->key, 0x5354414d50ull /* "STAMP" */);
	if (!g->unit)
		g->unit = SB_DG_BLOCK;
	if (!g->ws_units)
		g->ws_units = 1;
}

#define DEDUPE_SALT 0x64656475706500ull /* "dedupe" */

/* dedupe_global: a duplicate takes set entry w, unit w / peers of stream
 * w % peers; when that unit is itself a duplicate in its stream (decided
 * with this recipe's share), it takes an entry below w, so the walk ends */
static uint64_t origin_global(const struct sb_dg *g, uint64_t u, uint64_t *key)
{
	uint64_t k = g->key, lim = g->ws_units;
	while (lim) {
		uint64_t h = sb_dg_mix(k ^ DEDUPE_SALT, u);
		if (h % 100000 >= (uint64_t)g->dedupe_pct * 1000)
			break; /* unique in its stream */
		uint64_t w = sb_dg_mix(h, 1) % lim;
		k = sb_dg_peer_key(g->gkey, (unsigned)(w % g->peers));
		u = w / g->peers;
		lim = g->dedupe_pct >= 100 ? 0 : w; /* 100%: the entry's own bytes */
	}
	*key = k;
	return u;
}

uint64_t sb_dg_origin(const struct sb_dg *g, uint64_t u, uint64_t *key)
{
	if (g->peers && g->dedupe_pct)
		return origin_global(g, u, key);
	*key = g->key;
	return sb_dg_source(g, u);
}

uint64_t sb_dg_source(const struct sb_dg *g, uint64_t u)
{
	if (!g->dedupe_pct)
		return u;
	if (g->dedupe_pct >= 100 && g->mode == SB_DG_REPEAT)
		return 0; /* every unit repeats the first */
	uint64_t salt = g->key ^ DEDUPE_SALT;
	while (u) {
		uint64_t h = sb_dg_mix(salt, u);
		if (h % 100000 >= (uint64_t)g->dedupe_pct * 1000)
			return u; /* unique */
		if (g->mode == SB_DG_REPEAT) {
			u--;
		} else {
			uint64_t w = g->ws_units < u ? g->ws_units : u;
			u = sb_dg_mix(h, 1) % w;
		}
	}
	return 0;
}

/* dst[i] = pat[(x0 + i) % patlen] (zeroes without a pattern) */
static void filler(const struct sb_dg *g, uint64_t x0, unsigned char *dst, size_t len)
{
	if (!g->pat || !g->patlen) {
		memset(dst, 0, len);
		return;
	}
	size_t m = len < g->patlen ? len : g->patlen;
	for (size_t i = 0; i < m; i++)
		dst[i] = g->pat[(x0 + i) % g->patlen];
	while (m < len) { /* periodic: copy what is there, doubling */
		size_t c = len - m < m ? len - m : m;
		memcpy(dst + m, dst, c);
		m += c;
	}
}

static uint64_t blocks_per_unit(const struct sb_dg *g)
{
	return (g->unit + SB_DG_BLOCK - 1) / SB_DG_BLOCK;
}

/* bytes [q, q + n) of unit u (its source s of stream key) into dst */
static void fill_unit(const struct sb_dg *g, uint64_t key, uint64_t s, uint64_t q,
		      unsigned char *dst, size_t n)
{
	uint64_t c = g->chunk && g->chunk < g->unit ? g->chunk : g->unit;
	uint64_t rlen = c - c * g->compress_pct / 100;
	if (rlen) {
		sb_dg_random_values(sb_dg_mix(key, s), q, dst, n, g->values);
		for (uint64_t b = q / SB_DG_BLOCK * SB_DG_BLOCK; g->stamp && b < q + n; b += SB_DG_BLOCK) {
			uint64_t st = (s * blocks_per_unit(g) + b / SB_DG_BLOCK) ^ g->stamp_key;
			unsigned char w[8];
			for (unsigned i = 0; i < 8; i++)
				w[i] = (unsigned char)(st >> (8 * i));
			for (unsigned i = 0; i < 8; i++)
				if (b + i >= q && b + i < q + n && b + i < g->unit)
					dst[b + i - q] = w[i];
		}
	}
	if (rlen == c)
		return;
	for (uint64_t cs = q / c * c; cs < q + n; cs += c) {
		uint64_t from = cs + rlen, to = cs + c < g->unit ? cs + c : g->unit;
		if (from < q)
			from = q;
		if (to > q + n)
			to = q + n;
		if (from < to)
			filler(g, from, dst + (from - q), (size_t)(to - from));
	}
}

void sb_dg_fill(const struct sb_dg *g, uint64_t pos, void *buf, size_t len)
{
	unsigned char *o = buf;
	while (len) {
		uint64_t u = pos / g->unit, q = pos % g->unit;
		size_t n = g->unit - q < len ? (size_t)(g->unit - q) : len;
		uint64_t key = g->key, s = g->peers ? sb_dg_origin(g, u, &key) : sb_dg_source(g, u);
		fill_unit(g, key, s, q, o, n);
		o += n;
		pos += n;
		len -= n;
	}
}

uint64_t sb_dg_stamp(const struct sb_dg *g, const void *p, uint64_t limit)
{
	const unsigned char *b = p;
	uint64_t st = 0;
	for (unsigned i = 0; i < 8; i++)
		st |= (uint64_t)b[i] << (8 * i);
	uint64_t n = st ^ g->stamp_key, bpu = blocks_per_unit(g);
	uint64_t pos = n / bpu * g->unit + n % bpu * SB_DG_BLOCK;
	if (n % bpu * SB_DG_BLOCK >= g->unit || n / bpu > limit / g->unit || pos >= limit)
		return UINT64_MAX;
	return pos;
}
