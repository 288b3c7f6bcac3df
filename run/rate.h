/* rate.h: rate= / rate_iops= caps per direction and thinktime.  Waiting is
 * sleeping (clock_nanosleep to an absolute time); only thinktime_spin spins. */
#ifndef SB_RATE_H
#define SB_RATE_H
#include <stdbool.h>
#include <stdint.h>

#include "parse/jobspec.h"

struct sb_rate {
	bool on;
	double ns_per_byte[SB_DDIR_N];
	double ns_per_io[SB_DDIR_N];
	double due[SB_DDIR_N];        /* ns: when the direction may issue next */
	bool poisson;                 /* rate_process=poisson: exponential gaps */
	uint64_t rng;                 /* xorshift state for the gaps */
};

/* rate_process=poisson: the gap times -ln(U), U uniform in (0, 1] (mean 1) */
double sb_rate_exp(struct sb_rate *r);

/* Caps from spec, counted from start_ns. */
void sb_rate_init(struct sb_rate *r, const struct sb_jobspec *s, uint64_t start_ns);

/* When an I/O of direction d may be issued (sync/datasync: now). */
static inline uint64_t sb_rate_due(const struct sb_rate *r, int d)
{
	return d < SB_DDIR_N ? (uint64_t)r->due[d] : 0;
}

/* Account an issued I/O of len bytes. */
static inline void sb_rate_charge(struct sb_rate *r, int d, uint64_t len)
{
	if (d < SB_DDIR_N) {
		double a = (double)len * r->ns_per_byte[d], b = r->ns_per_io[d];
		double gap = a > b ? a : b;
		r->due[d] += r->poisson ? gap * sb_rate_exp(r) : gap;
	}
}

/* fio's direction on a mixed read/write job with caps (io_u.c rate_ddir):
 * the direction d the mix chose when it is due by now, else the other one
 * when that one is due, else whichever is due first.  So rate_iops=3000 on
 * randrw moves 3000 reads and 3000 writes a second whatever rwmixread
 * says, and an uncapped direction (due 0) fills the time the capped one
 * waits. */
static inline int sb_rate_pick(const struct sb_rate *r, int d, uint64_t now_ns)
{
	int o = d == SB_DDIR_READ ? SB_DDIR_WRITE : SB_DDIR_READ;
	double now = (double)now_ns;
	if (r->due[d] <= now)
		return d;
	if (r->due[o] <= now)
		return o;
	return r->due[d] <= r->due[o] ? d : o;
}

/* Sleep until CLOCK_MONOTONIC reaches due_ns, waking every 100 ms to see
 * whether the run is being stopped.  Returns false when it was. */
bool sb_sleep_until(uint64_t due_ns);
/* thinktime after an I/O completed at now_ns: spin thinktime_spin, sleep the
 * rest of thinktime. */
void sb_think(const struct sb_jobspec *s, uint64_t now_ns);
#endif
