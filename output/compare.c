/* compare.c: the comparison sets of a run and the numbers of their rows
 * (see compare.h), derived once here for the normal and JSON writers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/compare.h"
#include "output/derive.h"

/* the one option a and b differ in, NULL if none or several */
static const char *one_diff(const struct sb_job_result *a, const struct sb_job_result *b)
{
	const char *opt;
	if (!a->spec || !b->spec || sb_cmp_diff(a->spec, b->spec, &opt) != 1)
		return NULL;
	return opt;
}

static int fill_clat(struct sb_cmp_row *row, const struct sb_tstats *st)
{
	const struct sb_hist *h = &st->clat_h[SB_DDIR_READ];
	struct sb_hist *merged = NULL;
	int dirs = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (st->clat_h[d].n) {
			h = &st->clat_h[d];
			dirs++;
		}
	}
	if (dirs > 1) {
		merged = calloc(1, sizeof(*merged));
		if (!merged)
			return -ENOMEM;
		for (int d = 0; d < SB_DDIR_N; d++)
			sb_hist_merge(merged, &st->clat_h[d]);
		h = merged;
	}
	row->clat_p50_ns = sb_hist_percentile(h, 50.0);
	row->clat_p99_ns = sb_hist_percentile(h, 99.0);
	row->clat_p99_9_ns = sb_hist_percentile(h, 99.9);
	free(merged);
	return 0;
}

static int fill_row(struct sb_cmp_row *row, const struct sb_job_result *j, const char *opt)
{
	uint64_t ios = 0;
	row->job = j;
	sb_cmp_value(j->spec, opt, row->value, sizeof(row->value));
	for (int d = 0; d < SB_DDIR_N; d++) {
		row->iops += sb_out_iops(j, d);
		row->bw_bytes += sb_out_bw_bytes(j, d);
		ios += j->st.total_ios[d];
	}
	row->usr_cpu = j->usr_cpu;
	row->sys_cpu = j->sys_cpu;
	/* usr_us/sys_us are summed over the job's threads (rusage) */
	row->cpu_us_per_io = ios ? (double)(j->st.usr_us + j->st.sys_us) / (double)ios : 0.0;
	return fill_clat(row, &j->st);
}

static int add_set(struct sb_cmp *c, const struct sb_results *r, const size_t *members,
		   size_t n, const char *opt)
{
	struct sb_cmp_set *sets = realloc(c->sets, (c->nsets + 1) * sizeof(*sets));
	if (!sets)
		return -ENOMEM;
	c->sets = sets;
	struct sb_cmp_set *s = &sets[c->nsets];
	s->option = opt;
	s->nrows = n;
	s->rows = calloc(n, sizeof(*s->rows));
	if (!s->rows)
		return -ENOMEM;
	c->nsets++;
	const struct sb_jobspec *base = r->jobs[members[0]].spec;
	int by_iops = (base->rw & SB_RW_RANDOM) != 0;
	s->metric = by_iops ? "iops" : "bw";
	for (size_t i = 0; i < n; i++) {
		int rc = fill_row(&s->rows[i], &r->jobs[members[i]], opt);
		if (rc)
			return rc;
	}
	double b = by_iops ? s->rows[0].iops : (double)s->rows[0].bw_bytes;
	for (size_t i = 0; i < n; i++) {
		double v = by_iops ? s->rows[i].iops : (double)s->rows[i].bw_bytes;
		s->rows[i].ratio = b > 0 ? v / b : 0.0;
	}
	return 0;
}

/* Job k joins the set of members[0..n) when it differs from each of them
 * in option *opt alone (any single option while the set has one job). */
static int joins(const struct sb_results *r, const size_t *members, size_t n, size_t k,
		 const char **opt)
{
	const char *o = one_diff(&r->jobs[members[0]], &r->jobs[k]);
	if (!o || (*opt && o != *opt))
		return 0;
	for (size_t m = 1; m < n; m++)
		if (one_diff(&r->jobs[members[m]], &r->jobs[k]) != o)
			return 0;
	*opt = o;
	return 1;
}

int sb_cmp_build(const struct sb_results *r, struct sb_cmp *out)
{
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (r->njobs < 2)
		return 0;
	char *used = calloc(r->njobs, 1);
	size_t *members = calloc(r->njobs, sizeof(*members));
	if (!used || !members) {
		rc = -ENOMEM;
		goto done;
	}
	for (size_t i = 0; i < r->njobs && !rc; i++) {
		const char *opt = NULL;
		size_t n = 0;
		if (used[i] || !r->jobs[i].spec)
			continue;
		members[n++] = i;
		for (size_t k = i + 1; k < r->njobs; k++)
			if (!used[k] && joins(r, members, n, k, &opt))
				members[n++] = k;
		if (n < 2)
			continue;
		for (size_t m = 0; m < n; m++)
			used[members[m]] = 1;
		rc = add_set(out, r, members, n, opt);
	}
done:
	free(used);
	free(members);
	if (rc)
		sb_cmp_free(out);
	return rc;
}

void sb_cmp_free(struct sb_cmp *c)
{
	for (size_t i = 0; i < c->nsets; i++)
		free(c->sets[i].rows);
	free(c->sets);
	c->sets = NULL;
	c->nsets = 0;
}
