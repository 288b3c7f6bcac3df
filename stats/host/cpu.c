/* cpu.c: CPU utilization from the per-CPU lines of /proc/stat - per
 * sample each CPU's busy %, the average, minimum and maximum across CPUs,
 * and the psutil-style end-of-run summary (definitions in stats/host.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/host/priv.h"

#define STAT_BUF (256 * 1024)

/* Calls fn for every "cpuN" line of /proc/stat text. */
static unsigned for_each_cpu(char *text, void (*fn)(void *, unsigned, uint64_t, uint64_t), void *arg)
{
	unsigned n = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		unsigned idx;
		unsigned long long v[8] = { 0 };
		if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9' &&
		    sscanf(line + 3, "%u %llu %llu %llu %llu %llu %llu %llu %llu", &idx,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 5) {
			/* user nice system idle iowait irq softirq steal;
			 * guest and guest_nice are already in user and nice */
			uint64_t total = 0;
			for (int i = 0; i < 8; i++)
				total += v[i];
			fn(arg, idx, total - v[3] - v[4], total);
			n++;
		}
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

static ssize_t read_stat(const struct sb_host *h, char **text)
{
	char path[PATH_MAX];
	int err = sb_host_path(h, "proc/stat", path, sizeof(path));
	if (err)
		return err;
	*text = malloc(STAT_BUF);
	if (!*text)
		return -ENOMEM;
	ssize_t r = sb_host_read_file(path, *text, STAT_BUF);
	if (r < 0) {
		free(*text);
		*text = NULL;
	}
	return r;
}

static void max_index(void *arg, unsigned idx, uint64_t busy, uint64_t total)
{
	unsigned *m = arg;
	(void)busy; (void)total;
	if (idx + 1 > *m)
		*m = idx + 1;
}

static void store_base(void *arg, unsigned idx, uint64_t busy, uint64_t total)
{
	struct host_cpu *c = arg;
	if (idx < c->nidx) {
		c->busy[idx] = busy;
		c->total[idx] = total;
		c->seen[idx] = 1;
	}
}

static void cpu_open(struct sb_host *h)
{
	struct host_cpu *c = &h->cpu;
	char *text = NULL;
	ssize_t r = read_stat(h, &text);
	if (r < 0) {
		sb_host_set_errno(&h->st[SB_HOST_CPU], "proc/stat", (int)r);
		return;
	}
	unsigned nidx = 0;
	char *copy = strdup(text);
	c->ncpus = copy ? for_each_cpu(copy, max_index, &nidx) : 0;
	free(copy);
	if (!c->ncpus) {
		free(text);
		sb_host_set_absent(&h->st[SB_HOST_CPU], "proc/stat: no per-CPU lines");
		return;
	}
	c->nidx = nidx;
	c->busy = calloc(nidx, sizeof(*c->busy));
	c->total = calloc(nidx, sizeof(*c->total));
	c->seen = calloc(nidx, 1);
	c->cur = calloc(nidx, sizeof(*c->cur));
	if (!c->busy || !c->total || !c->seen || !c->cur) {
		free(text);
		sb_host_set_absent(&h->st[SB_HOST_CPU], "out of memory");
		return;
	}
	for_each_cpu(text, store_base, c);
	free(text);
	h->st[SB_HOST_CPU].present = true;
	h->st[SB_HOST_CPU].reason[0] = 0;
}

struct cpu_acc {
	struct host_cpu *c;
	unsigned n;
	double sum, min, max;
};

static void add_delta(void *arg, unsigned idx, uint64_t busy, uint64_t total)
{
	struct cpu_acc *a = arg;
	struct host_cpu *c = a->c;
	if (idx >= c->nidx)
		return;   /* a CPU brought online after open */
	if (c->seen[idx] && total > c->total[idx] && busy >= c->busy[idx]) {
		double u = 100.0 * (double)(busy - c->busy[idx]) / (double)(total - c->total[idx]);
		if (u > 100.0)
			u = 100.0;
		c->cur[idx] = (float)u;
		a->sum += u;
		a->min = a->n && a->min < u ? a->min : u;
		a->max = a->n && a->max > u ? a->max : u;
		a->n++;
	}
	c->busy[idx] = busy;
	c->total[idx] = total;
	c->seen[idx] = 1;
}

static void cpu_sample(struct sb_host *h, double dt_s, struct sb_host_sample *s)
{
	struct host_cpu *c = &h->cpu;
	struct cpu_acc a = { c, 0, 0, 0, 0 };
	char *text = NULL;
	for (unsigned i = 0; i < c->nidx; i++)
		c->cur[i] = NAN;   /* a CPU without a reading this interval */
	if (read_stat(h, &text) < 0)
		return;
	for_each_cpu(text, add_delta, &a);
	free(text);
	if (!a.n)
		return;   /* no CPU ticked in this interval: not a sample */
	double avg = a.sum / a.n;
	s->cpu_avg = avg;
	s->cpu_min = a.min;
	s->cpu_max = a.max;
	c->nsamples++;
	c->over20 += avg > 20.0;
	c->over40 += avg > 40.0;
	c->over80 += avg > 80.0;
	c->at100 += avg >= 99.5;
	c->wsum += avg * dt_s;
	c->wtime += dt_s;
	if (c->nsamples == 1 || avg > c->max_avg)
		c->max_avg = avg;
	if (c->nsamples == 1 || a.min > c->max_min)
		c->max_min = a.min;
	if (c->nsamples == 1 || a.max > c->max_max)
		c->max_max = a.max;
}

static void cpu_summary(const struct sb_host *h, double run_s, struct sb_host_cpu_sum *o)
{
	const struct host_cpu *c = &h->cpu;
	double n = c->nsamples ? (double)c->nsamples : 1.0;
	o->ncpus = c->ncpus;
	o->cpu_avg_utilization_pct = c->wtime > 0 ? c->wsum / c->wtime : 0;
	o->cpu_avg_utilization_over20_pct = 100.0 * c->over20 / n;
	o->cpu_avg_utilization_over40_pct = 100.0 * c->over40 / n;
	o->cpu_avg_utilization_over80_pct = 100.0 * c->over80 / n;
	o->cpu_avg_utilization_at100_pct = 100.0 * c->at100 / n;
	o->max_t_cpu_pct_per_cpu_avg = c->max_avg;
	o->max_t_cpu_pct_per_cpu_min = c->max_min;
	o->max_t_cpu_pct_per_cpu_max = c->max_max;
	double cpu_h = c->ncpus * run_s / 3600.0;
	o->node_cpu_hours = cpu_h * o->cpu_avg_utilization_pct / 100.0;
	/* the busy share's rounding can make it 100.0000001%: never below 0 */
	o->node_unused_cpu_hours = cpu_h > o->node_cpu_hours ? cpu_h - o->node_cpu_hours : 0;
}

static void cpu_close(struct sb_host *h)
{
	free(h->cpu.busy);
	free(h->cpu.total);
	free(h->cpu.seen);
	free(h->cpu.cur);
}

/* ---- the collector (stats/host/collector.h) ---- */

static int cpu_open_op(struct sb_host *h, const struct sb_host_config *cfg)
{
	(void)cfg;
	cpu_open(h);
	return 0;
}

static void cpu_summary_op(const struct sb_host *h, double run_s, void *sum)
{
	struct sb_host_cpu_sum *o = sum;
	o->st = h->st[SB_HOST_CPU];
	if (o->st.present)
		cpu_summary(h, run_s, o);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define F(key, kind) { #key, kind, offsetof(struct sb_host_cpu_sum, key), 0, false, NULL, NULL }
static const struct sb_host_field cpu_fields[] = {
	F(ncpus, SB_HK_UINT),
	F(cpu_avg_utilization_pct, SB_HK_DBL),
	F(cpu_avg_utilization_over20_pct, SB_HK_DBL),
	F(cpu_avg_utilization_over40_pct, SB_HK_DBL),
	F(cpu_avg_utilization_over80_pct, SB_HK_DBL),
	F(cpu_avg_utilization_at100_pct, SB_HK_DBL),
	F(max_t_cpu_pct_per_cpu_avg, SB_HK_DBL),
	F(max_t_cpu_pct_per_cpu_min, SB_HK_DBL),
	F(max_t_cpu_pct_per_cpu_max, SB_HK_DBL),
	F(node_cpu_hours, SB_HK_DBL),
	F(node_unused_cpu_hours, SB_HK_DBL),
	{ .kind = SB_HK_END },
};
#undef F

static const struct sb_host_line cpu_lines[] = {
	{ .text = "cpu ({ncpus}): avg={cpu_avg_utilization_pct:.1}%, max avg={max_t_cpu_pct_per_cpu_avg:.1}%, "
	  "max min={max_t_cpu_pct_per_cpu_min:.1}%, max max={max_t_cpu_pct_per_cpu_max:.1}%, "
	  "samples avg>80%={cpu_avg_utilization_over80_pct:.1}%, used={node_cpu_hours:.4} cpu-h, "
	  "unused={node_unused_cpu_hours:.4} cpu-h" },
	{ 0 },
};

/* its series columns */
static const struct sb_host_col cpu_cols[] = {
	SB_HOST_COL(cpu_avg, SB_HK_DBL, SB_HM_WMEAN),
	SB_HOST_COL(cpu_min, SB_HK_DBL, SB_HM_WMEAN),
	SB_HOST_COL(cpu_max, SB_HK_DBL, SB_HM_WMEAN),
	{ .kind = SB_HK_END },
};

const struct sb_host_collector sb_host_cpu_collector = {
	.name = "cpu",
	.src = SB_HOST_CPU,
	.open = cpu_open_op,
	.sample = cpu_sample,
	.summary = cpu_summary_op,
	.sum_size = sizeof(struct sb_host_cpu_sum),
	.fields = cpu_fields,
	.lines = cpu_lines,
	.cols = cpu_cols,
	.close = cpu_close,
};
