/* lib/nprand.h: numpy's legacy global generator (np.random.seed with an
 * integer, np.random.shuffle: RandomState over MT19937), bit for bit, so a
 * permutation DLIO draws from it can be reproduced.  Sources (numpy 1.24):
 * numpy/random/src/mt19937/mt19937.c mt19937_seed (Knuth's init: key[0] =
 * seed, key[i] = 1812433253 * (key[i-1] ^ key[i-1] >> 30) + i) and
 * mt19937_gen/mt19937_next32 (the reference genrand_int32 with tempering),
 * numpy/random/src/distributions/distributions.c random_interval (the
 * smallest all-ones mask >= max, redraw while above max; 32-bit draws when
 * max fits), numpy/random/mtrand.pyx RandomState.shuffle (for i from n-1
 * down to 1: j = random_interval(i), swap x[i], x[j]; the same for a list
 * and a 1-d array) and _legacy_seeding (an int seed in [0, 2^32) goes to
 * mt19937_seed). */
#ifndef SB_LIB_NPRAND_H
#define SB_LIB_NPRAND_H
#include <stddef.h>
#include <stdint.h>

#define SB_NP_MT_N 624

struct sb_np_mt {
	uint32_t key[SB_NP_MT_N];
	int pos;
};

/* np.random.seed(seed) */
void sb_np_mt_seed(struct sb_np_mt *m, uint32_t seed);
/* the generator's next 32-bit output (genrand_int32) */
uint32_t sb_np_mt_next32(struct sb_np_mt *m);
/* random_interval(max): uniform in [0, max] */
uint64_t sb_np_interval(struct sb_np_mt *m, uint64_t max);
/* np.random.seed(seed); np.random.shuffle(v) for v[0..n) */
void sb_np_shuffle_u32(uint32_t *v, size_t n, uint32_t seed);

#endif
