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
 *   summary(h, run_s, o)  always, requested or not: copy h->st[src] into its
 *                         part of o, then its figures where it has any.
 *   close(h)              always, whether open ran or not: release what open
 *                         took.  NULL: nothing to release.
 * A source that is not requested is absent "not requested (host_counters)". */
#ifndef SB_HOST_COLLECTOR_H
#define SB_HOST_COLLECTOR_H
#include "stats/host.h"

struct sb_host_collector {
	const char *name;          /* host_counters= name and "host" JSON key */
	enum sb_host_src src;      /* its row in sb_host_collectors, mask bit, h->st index */
	int (*open)(struct sb_host *h, const struct sb_host_config *cfg);
	void (*sample)(struct sb_host *h, double dt_s, struct sb_host_sample *s);
	void (*summary)(const struct sb_host *h, double run_s, struct sb_host_summary *o);
	void (*close)(struct sb_host *h);
};

/* the collectors, indexed by enum sb_host_src (stats/host.c) */
extern const struct sb_host_collector *const sb_host_collectors[SB_HOST_NSRC];

extern const struct sb_host_collector sb_host_cpu_collector;
extern const struct sb_host_collector sb_host_mem_collector;
extern const struct sb_host_collector sb_host_disk_collector;
extern const struct sb_host_collector sb_host_net_collector;
extern const struct sb_host_collector sb_host_ib_collector;
extern const struct sb_host_collector sb_host_rapl_collector;
extern const struct sb_host_collector sb_host_perf_collector;
extern const struct sb_host_collector sb_host_gpu_collector;
#endif
