/* steady.h: fio's steady-state detection (steadystate=, ss_dur=, ss_ramp=):
 * one IOPS and one bandwidth sample per second over a rolling window of
 * ss_dur seconds, judged by the largest deviation from the window's mean
 * (iops, bw) or by the slope of a least-squares line (iops_slope,
 * bw_slope), against an absolute limit or a percentage of the mean.  The
 * I/O thread feeds it once a second (off the per-I/O path); the result is
 * what fio's steadystate JSON object shows. */
#ifndef SB_STEADY_H
#define SB_STEADY_H
#include <stdbool.h>
#include <stdint.h>

struct sb_steady {
	/* the criterion (from the job spec) */
	unsigned kind;                /* enum sb_ss_kind (parse/jobspec.h) */
	bool pct;                     /* limit is a percentage of the mean */
	double limit;
	unsigned dur_s;               /* window: samples judged together */
	/* the window: the last dur_s samples, oldest first at head */
	uint64_t *iops, *bw;          /* dur_s each; bw in bytes/s */
	unsigned n, head;
	/* the latest judgement */
	bool attained;
	double criterion, max_deviation, slope;
	double iops_mean, bw_mean;
};

/* 0 or -ENOMEM */
int sb_steady_init(struct sb_steady *s, unsigned kind, bool pct, double limit, unsigned dur_s);
void sb_steady_free(struct sb_steady *s);
/* A copy for the results (malloc'd, with its own window); NULL: no memory */
struct sb_steady *sb_steady_dup(const struct sb_steady *s);
/* One second's sample; returns true when the window now meets the
 * criterion (s->attained). */
bool sb_steady_add(struct sb_steady *s, uint64_t iops, uint64_t bw);
/* Sample i (0 = oldest) of the window */
uint64_t sb_steady_iops(const struct sb_steady *s, unsigned i);
uint64_t sb_steady_bw(const struct sb_steady *s, unsigned i);
/* "iops", "iops_slope", "bw", "bw_slope" */
const char *sb_steady_kind_name(unsigned kind);
#endif
