/* lfsr.h: random_generator=lfsr: a maximal-length Galois linear feedback
 * shift register over [0, n).  A register of w bits (the fewest with
 * 2^w - 1 >= n) steps through every non-zero w-bit value exactly once per
 * period; values above n are skipped, so each of [0, n) comes exactly once
 * in n outputs, without a map.  The feedback polynomials are the maximal-
 * length taps of Xilinx application note XAPP052 (and, for 2..24 bits,
 * checked exhaustively by t/unit/test_iogen.c).  Not fio's code or sequence. */
#ifndef SB_LFSR_H
#define SB_LFSR_H
#include <stdint.h>

struct sb_lfsr {
	uint64_t state, start;  /* current and first state (non-zero) */
	uint64_t mask;          /* feedback taps */
	uint64_t n;             /* outputs are in [0, n) */
};

/* Taps (bit numbers from 1) of a maximal-length register of w bits, w = 2..64 */
static const unsigned char sb_lfsr_taps[65][6] = {
	[2] = { 2, 1 }, [3] = { 3, 2 }, [4] = { 4, 3 }, [5] = { 5, 3 }, [6] = { 6, 5 },
	[7] = { 7, 6 }, [8] = { 8, 6, 5, 4 }, [9] = { 9, 5 }, [10] = { 10, 7 }, [11] = { 11, 9 },
	[12] = { 12, 6, 4, 1 }, [13] = { 13, 4, 3, 1 }, [14] = { 14, 5, 3, 1 }, [15] = { 15, 14 },
	[16] = { 16, 15, 13, 4 }, [17] = { 17, 14 }, [18] = { 18, 11 }, [19] = { 19, 6, 2, 1 },
	[20] = { 20, 17 }, [21] = { 21, 19 }, [22] = { 22, 21 }, [23] = { 23, 18 },
	[24] = { 24, 23, 22, 17 }, [25] = { 25, 22 }, [26] = { 26, 6, 2, 1 }, [27] = { 27, 5, 2, 1 },
	[28] = { 28, 25 }, [29] = { 29, 27 }, [30] = { 30, 6, 4, 1 }, [31] = { 31, 28 },
	[32] = { 32, 22, 2, 1 }, [33] = { 33, 20 }, [34] = { 34, 27, 2, 1 }, [35] = { 35, 33 },
	[36] = { 36, 25 }, [37] = { 37, 5, 4, 3, 2, 1 }, [38] = { 38, 6, 5, 1 }, [39] = { 39, 35 },
	[40] = { 40, 38, 21, 19 }, [41] = { 41, 38 }, [42] = { 42, 41, 20, 19 },
	[43] = { 43, 42, 38, 37 }, [44] = { 44, 43, 18, 17 }, [45] = { 45, 44, 42, 41 },
	[46] = { 46, 45, 26, 25 }, [47] = { 47, 42 }, [48] = { 48, 47, 21, 20 }, [49] = { 49, 40 },
	[50] = { 50, 49, 24, 23 }, [51] = { 51, 50, 36, 35 }, [52] = { 52, 49 },
	[53] = { 53, 52, 38, 37 }, [54] = { 54, 53, 18, 17 }, [55] = { 55, 31 },
	[56] = { 56, 55, 35, 34 }, [57] = { 57, 50 }, [58] = { 58, 39 }, [59] = { 59, 58, 38, 37 },
	[60] = { 60, 59 }, [61] = { 61, 60, 46, 45 }, [62] = { 62, 61, 6, 5 }, [63] = { 63, 62 },
	[64] = { 64, 63, 61, 60 },
};

/* The feedback mask of a w-bit register (2 <= w <= 64). */
static inline uint64_t sb_lfsr_mask(unsigned w)
{
	uint64_t m = 0;
	for (unsigned i = 0; i < 6 && sb_lfsr_taps[w][i]; i++)
		m |= 1ull << (sb_lfsr_taps[w][i] - 1);
	return m;
}

/* A register over [0, n) (n >= 1) starting at a state taken from seed. */
static inline void sb_lfsr_init(struct sb_lfsr *l, uint64_t n, uint64_t seed)
{
	unsigned w = 2;
	while (w < 64 && ((1ull << w) - 1) < n)
		w++;
	uint64_t period = w == 64 ? ~0ull : (1ull << w) - 1;
	l->n = n;
	l->mask = sb_lfsr_mask(w);
	l->start = l->state = seed % period + 1;
}

/* The next value in [0, n): one step, plus one per value skipped above n */
static inline uint64_t sb_lfsr_next(struct sb_lfsr *l)
{
	for (;;) {
		uint64_t s = l->state;
		s = (s >> 1) ^ ((0 - (s & 1)) & l->mask);
		l->state = s;
		if (s - 1 < l->n)
			return s - 1;
	}
}
#endif
