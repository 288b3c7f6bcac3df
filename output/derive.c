/* derive.c: values computed from sb_results the same way for normal, terse
 * and JSON output (see derive.h). */
#include "output/derive.h"

const char *const sb_lat_edge_names[SB_LAT_MS_N] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};
const char *const sb_depth_level_names[SB_DEPTH_BUCKETS] = {
	"1", "2", "4", "8", "16", "32", ">=64",
};
const char *const sb_depth_batch_names[SB_DEPTH_BUCKETS] = {
	"0", "4", "8", "16", "32", "64", ">=64",
};
const char *const sb_ddir_names[SB_DDIR_N] = { "read", "write", "trim" };

static const uint64_t lat_edges[SB_LAT_MS_N] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000, 0 };

static const double default_pctl[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/* I/Os of all directions with total latency below each of limits[0..n)
 * (ascending): one pass over each histogram, not one per limit (the
 * latency distribution is written for every job: numjobs=4096). */
static void counts_below(const struct sb_tstats *st, const uint64_t *limits, unsigned n,
			 double *out)
{
	for (unsigned k = 0; k < n; k++)
		out[k] = 0.0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		const struct sb_shist *h = &st->lat_h[d];
		uint64_t below = 0;
		uint32_t i = 0;
		if (!h->n)
			continue;
		for (unsigned k = 0; k < n; k++) {
			while (i < h->nbins && sb_hist_bucket_value(h->bins[i].i) < limits[k])
				below += h->bins[i++].count;
			out[k] += (double)below;
		}
	}
}

/* out[k]: percent of the I/Os between upper[k-1] (lower for k = 0) and upper[k] */
static void dist_scale(const double *upper, unsigned nb, double lower, double total, double *out)
{
	for (unsigned k = 0; k < nb; k++) {
		out[k] = total > 0 ? 100.0 * (upper[k] - lower) / total : 0.0;
		if (out[k] < 0)
			out[k] = 0;
		lower = upper[k];
	}
}

void sb_out_latdist(const struct sb_tstats *st, struct sb_latdist *out)
{
	/* the ns, us and ms edges, ascending; the last ms bucket is open */
	enum { NL = SB_LAT_NS_N + SB_LAT_US_N + SB_LAT_MS_N - 1 };
	uint64_t limits[NL];
	double below[NL + 1], total = 0.0;
	unsigned n = 0;
	for (unsigned k = 0; k < SB_LAT_NS_N; k++)
		limits[n++] = lat_edges[k];
	for (unsigned k = 0; k < SB_LAT_US_N; k++)
		limits[n++] = lat_edges[k] * 1000;
	for (unsigned k = 0; k < SB_LAT_MS_N - 1; k++)
		limits[n++] = lat_edges[k] * 1000000;
	for (int d = 0; d < SB_DDIR_N; d++)
		total += (double)st->lat_h[d].n;
	counts_below(st, limits, NL, below);
	below[NL] = total;
	dist_scale(below, SB_LAT_NS_N, 0.0, total, out->ns);
	dist_scale(below + SB_LAT_NS_N, SB_LAT_US_N, below[SB_LAT_NS_N - 1], total, out->us);
	dist_scale(below + SB_LAT_NS_N + SB_LAT_US_N, SB_LAT_MS_N,
		   below[SB_LAT_NS_N + SB_LAT_US_N - 1], total, out->ms);
}

void sb_out_depthdist(const uint64_t counts[SB_DEPTH_BUCKETS], double pct[SB_DEPTH_BUCKETS])
{
	uint64_t sum = 0;
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++)
		sum += counts[i];
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++)
		pct[i] = sum ? 100.0 * (double)counts[i] / (double)sum : 0.0;
}

uint64_t sb_out_bw_bytes(const struct sb_job_result *j, int d)
{
	uint64_t ms = j->runtime_ms[d];
	if (!ms)
		return 0;
	return (uint64_t)((double)j->st.io_bytes[d] * 1000.0 / (double)ms);
}

double sb_out_iops(const struct sb_job_result *j, int d)
{
	uint64_t ms = j->runtime_ms[d];
	return ms ? (double)j->st.total_ios[d] * 1000.0 / (double)ms : 0.0;
}

const struct sb_group_result *sb_out_group(const struct sb_results *r, unsigned groupid)
{
	/* groups are numbered 0, 1, ... in order: found at once, not by a
	 * search per job (numjobs=4096 with stonewall: 4096 groups) */
	if (groupid < r->ngroups && r->groups[groupid].groupid == groupid)
		return &r->groups[groupid];
	for (size_t i = 0; i < r->ngroups; i++)
		if (r->groups[i].groupid == groupid)
			return &r->groups[i];
	return NULL;
}

double sb_out_bw_agg_pct(const struct sb_job_result *j, const struct sb_group_result *g, int d)
{
	const struct sb_stat *s = &j->st.bw_samples[d];
	if (!s->n || !g || !g->dir[d].agg_bw)
		return 0.0;
	double pct = s->mean * 100.0 / ((double)g->dir[d].agg_bw / 1024.0);
	return pct > 100.0 ? 100.0 : pct;
}

unsigned sb_out_pctl(const struct sb_job_result *j, const double **list)
{
	if (j->spec && j->spec->percentile_n) {
		*list = j->spec->percentile_list;
		return j->spec->percentile_n;
	}
	*list = default_pctl;
	return sizeof(default_pctl) / sizeof(default_pctl[0]);
}

unsigned sb_out_kb_base(const struct sb_job_result *j, const struct sb_group_result *g)
{
	unsigned kb = g ? g->kb_base : (j && j->spec ? j->spec->kb_base : 1024);
	return kb == 1000 ? 1000 : 1024;
}

int sb_out_bits(const struct sb_job_result *j, const struct sb_group_result *g)
{
	unsigned ub = g ? g->unit_base : (j && j->spec ? j->spec->unit_base : 0);
	return ub == 1; /* fio: unit_base=1 reports bits, 8 (or 0, auto) bytes */
}

bool sb_out_prios_shown(const struct sb_tstats *st, int d)
{
	if (d >= SB_PRIO_DIRS || st->prio_over[d])
		return false;
	unsigned n = 0;
	for (unsigned i = 0; i < st->nprio[d]; i++)
		n += st->prio[d][i].s.n > 0;
	return n >= 2;
}
