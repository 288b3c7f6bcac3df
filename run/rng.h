/* rng.h: the per-thread pseudo-random generator of the I/O path:
 * xoshiro256** (Blackman & Vigna), seeded through splitmix64.  A few ns per
 * number, no state shared between threads. */
#ifndef SB_RNG_H
#define SB_RNG_H
#include <stdint.h>

struct sb_rng {
	uint64_t s[4];
};

static inline uint64_t sb_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void sb_rng_seed(struct sb_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = sb_splitmix64(&seed);
}

static inline uint64_t sb_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t sb_rng_next(struct sb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = sb_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sb_rng_rotl(s[3], 45);
	return out;
}

/* uniform in [0, n) (Lemire's multiply-shift; bias below 2^-64 * n) */
static inline uint64_t sb_rng_below(struct sb_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)sb_rng_next(r) * n) >> 64);
}

/* uniform double in [0, 1) */
static inline double sb_rng_unit(struct sb_rng *r)
{
	return (double)(sb_rng_next(r) >> 11) * 0x1.0p-53;
}
#endif
