/* steady.c: steady-state judgement over a rolling window (see steady.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/jobspec.h"
#include "stats/steady.h"

int sb_steady_init(struct sb_steady *s, unsigned kind, bool pct, double limit, unsigned dur_s)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->pct = pct;
	s->limit = limit;
	s->dur_s = dur_s ? dur_s : 1;
	s->iops = calloc(s->dur_s, sizeof(*s->iops));
	s->bw = calloc(s->dur_s, sizeof(*s->bw));
	if (!s->iops || !s->bw) {
		sb_steady_free(s);
		return -ENOMEM;
	}
	return 0;
}

void sb_steady_free(struct sb_steady *s)
{
	free(s->iops);
	free(s->bw);
	s->iops = s->bw = NULL;
}

uint64_t sb_steady_iops(const struct sb_steady *s, unsigned i)
{
	return s->iops[(s->head + i) % s->dur_s];
}

uint64_t sb_steady_bw(const struct sb_steady *s, unsigned i)
{
	return s->bw[(s->head + i) % s->dur_s];
}

const char *sb_steady_kind_name(unsigned kind)
{
	switch (kind) {
	case SB_SS_IOPS: return "iops";
	case SB_SS_IOPS_SLOPE: return "iops_slope";
	case SB_SS_BW: return "bw";
	default: return "bw_slope";
	}
}

static void judge(struct sb_steady *s)
{
	bool use_iops = s->kind == SB_SS_IOPS || s->kind == SB_SS_IOPS_SLOPE;
	bool slope = s->kind == SB_SS_IOPS_SLOPE || s->kind == SB_SS_BW_SLOPE;
	double n = (double)s->n, sum = 0, si = 0, sb = 0;
	for (unsigned i = 0; i < s->n; i++) {
		double v = (double)(use_iops ? sb_steady_iops(s, i) : sb_steady_bw(s, i));
		sum += v;
		si += (double)sb_steady_iops(s, i);
		sb += (double)sb_steady_bw(s, i);
	}
	s->iops_mean = si / n;
	s->bw_mean = sb / n;
	double mean = sum / n, value;
	if (slope) { /* least squares over x = 0, 1, ..., n-1 seconds */
		double xm = (n - 1) / 2.0, sxy = 0, sxx = 0;
		for (unsigned i = 0; i < s->n; i++) {
			double v = (double)(use_iops ? sb_steady_iops(s, i) : sb_steady_bw(s, i));
			sxy += ((double)i - xm) * (v - mean);
			sxx += ((double)i - xm) * ((double)i - xm);
		}
		s->slope = sxx > 0 ? sxy / sxx : 0.0;
		value = fabs(s->slope);
	} else {
		double dev = 0;
		for (unsigned i = 0; i < s->n; i++) {
			double v = (double)(use_iops ? sb_steady_iops(s, i) : sb_steady_bw(s, i));
			if (fabs(v - mean) > dev)
				dev = fabs(v - mean);
		}
		s->max_deviation = dev;
		value = dev;
	}
	s->criterion = s->pct ? (mean > 0 ? value / mean * 100.0 : 0.0) : value;
	s->attained = s->n == s->dur_s && s->criterion <= s->limit;
}

bool sb_steady_add(struct sb_steady *s, uint64_t iops, uint64_t bw)
{
	unsigned slot;
	if (s->n < s->dur_s) {
		slot = (s->head + s->n) % s->dur_s;
		s->n++;
	} else {
		slot = s->head;
		s->head = (s->head + 1) % s->dur_s;
	}
	s->iops[slot] = iops;
	s->bw[slot] = bw;
	judge(s);
	return s->attained;
}

struct sb_steady *sb_steady_dup(const struct sb_steady *s)
{
	struct sb_steady *c = malloc(sizeof(*c));
	if (!c || sb_steady_init(c, s->kind, s->pct, s->limit, s->dur_s)) {
		free(c);
		return NULL;
	}
	uint64_t *iops = c->iops, *bw = c->bw;
	*c = *s;
	c->iops = iops;
	c->bw = bw;
	memcpy(c->iops, s->iops, s->dur_s * sizeof(*iops));
	memcpy(c->bw, s->bw, s->dur_s * sizeof(*bw));
	return c;
}
