/* collector.h: the host collector interface, shaped like engines/engine.h.
 * A collector is one file stats/host/<name>.c defining one
 * struct sb_host_collector, and one row of sb_host_collectors (stats/host.c);
 * stats/host.c drives the life cycle, nothing else calls a collector.
 *
 * Life cycle, all on one thread (the stats thread):
 *   open(h, cfg)          only when the source is requested (cfg->which):
 *                         read the baseline and mark h->st[src] present, or
 *                         absent with the reason (sb_host_set_absent: missing
 *                         file, no permission, no driver).  0, or a negative
 *                         errno that makes sb_host_open fail (out of memory);
 *                         a source that is not there is never an error.
 *   sample(h, dt_s, s)    every interval, only while h->st[src] is present:
 *                         add the interval's figures (dt_s > 0 seconds) to
 *                         the series sample s.  NULL: no per-interval figures.
 *   summary(h, run_s, sum) always, requested or not: sum is its own summary
 *                         struct (sum_size bytes, zeroed): copy h->st[src]
 *                         into it, then its figures where it has any.
 *   close(h)              always, whether open ran or not: release what open
 *                         took.  NULL: nothing to release.
 * A source that is not requested is absent "not requested (host_counters)".
 *
 * Its figures describe themselves (stats/host.h): fields name the summary
 * struct's members in JSON order with their kinds, lines are its normal
 * output; output/host.c writes every collector from them.  Its state is
 * h->state[src] (state_size bytes, zeroed, allocated once at open; the
 * first eight keep theirs in struct sb_host, priv.h). */
#ifndef SB_HOST_COLLECTOR_H
#define SB_HOST_COLLECTOR_H
#include "stats/host.h"

struct sb_host_collector {
	const char *name;          /* host_counters= name and "host" JSON key */
	enum sb_host_src src;      /* its row in sb_host_collectors, mask bit, h->st index */
	int (*open)(struct sb_host *h, const struct sb_host_config *cfg);
	void (*sample)(struct sb_host *h, double dt_s, struct sb_host_sample *s);
	void (*summary)(const struct sb_host *h, double run_s, void *sum);
	void (*close)(struct sb_host *h);
	size_t sum_size;           /* its summary struct */
	size_t state_size;         /* h->state[src]; 0: none */
	const struct sb_host_field *fields;  /* ends with kind SB_HK_END */
	const struct sb_host_line *lines;    /* ends with a NULL text and list */
	const struct sb_host_col *cols;      /* series columns, end with SB_HK_END; NULL: none */
};

/* the collectors, indexed by enum sb_host_src (stats/host.c) */
extern const struct sb_host_collector *const sb_host_collectors[SB_HOST_NSRC];

#define SB_HOST_DECL_(u, l) extern const struct sb_host_collector sb_host_##l##_collector;
SB_HOST_COLLECTORS(SB_HOST_DECL_)
#undef SB_HOST_DECL_
#endif
