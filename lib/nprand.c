/* lib/nprand.c: numpy's legacy MT19937 generator and shuffle (nprand.h). */
#include "lib/nprand.h"

#define MT_M 397
#define UPPER 0x80000000u
#define LOWER 0x7fffffffu
#define MATRIX_A 0x9908b0dfu

void sb_np_mt_seed(struct sb_np_mt *m, uint32_t seed)
{
	for (int i = 0; i < SB_NP_MT_N; i++) {
		m->key[i] = seed;
		seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)i + 1u;
	}
	m->pos = SB_NP_MT_N;
}

/* mt19937_gen: the next 624 words at once */
static void regenerate(struct sb_np_mt *m)
{
	uint32_t y;
	int i;
	for (i = 0; i < SB_NP_MT_N - MT_M; i++) {
		y = (m->key[i] & UPPER) | (m->key[i + 1] & LOWER);
		m->key[i] = m->key[i + MT_M] ^ (y >> 1) ^ (-(y & 1u) & MATRIX_A);
	}
	for (; i < SB_NP_MT_N - 1; i++) {
		y = (m->key[i] & UPPER) | (m->key[i + 1] & LOWER);
		m->key[i] = m->key[i + (MT_M - SB_NP_MT_N)] ^ (y >> 1) ^ (-(y & 1u) & MATRIX_A);
	}
	y = (m->key[SB_NP_MT_N - 1] & UPPER) | (m->key[0] & LOWER);
	m->key[SB_NP_MT_N - 1] = m->key[MT_M - 1] ^ (y >> 1) ^ (-(y & 1u) & MATRIX_A);
	m->pos = 0;
}

uint32_t sb_np_mt_next32(struct sb_np_mt *m)
{
	uint32_t y;
	if (m->pos == SB_NP_MT_N)
		regenerate(m);
	y = m->key[m->pos++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

uint64_t sb_np_interval(struct sb_np_mt *m, uint64_t max)
{
	uint64_t mask = max, v;
	if (max == 0)
		return 0;
	mask |= mask >> 1;
	mask |= mask >> 2;
	mask |= mask >> 4;
	mask |= mask >> 8;
	mask |= mask >> 16;
	mask |= mask >> 32;
	if (max <= 0xffffffffu) {
		while ((v = (sb_np_mt_next32(m) & mask)) > max)
			;
	} else {
		/* mt19937_next64: the high word first */
		do {
			v = (uint64_t)sb_np_mt_next32(m) << 32;
			v |= sb_np_mt_next32(m);
			v &= mask;
		} while (v > max);
	}
	return v;
}

void sb_np_shuffle_u32(uint32_t *v, size_t n, uint32_t seed)
{
	struct sb_np_mt m;
	sb_np_mt_seed(&m, seed);
	for (size_t i = n > 0 ? n - 1 : 0; i >= 1; i--) {
		size_t j = (size_t)sb_np_interval(&m, i);
		uint32_t t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}
