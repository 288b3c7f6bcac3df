/* sweep.c: the sweep part of the reports.  Normal output: one row per point
 * and direction (the swept values as columns, bandwidth mean/min/max over
 * the repetitions, GiB/s as DeepSpeed computes it, IOPS, clat p50/p99),
 * sorted by sweep_metric, then the best point per direction printed as a
 * job-file fragment.  JSON: "sweep" with every point (values, summary, each
 * repetition's timings and summary, and its fio-style job objects, each
 * merged over the repetitions) and "best". */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/sweep.h"
#include "output/json_job.h"
#include "parse/sweep.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

static const char *const dir_names[SB_DDIR_N] = { "read", "write", "trim" };
static const char *const metric_names[] = { "bw", "iops", "clat_p99" };

static const char *metric_name(unsigned m)
{
	return m < sizeof(metric_names) / sizeof(metric_names[0]) ? metric_names[m] : "bw";
}

static const struct sb_sweep_results *g_sort_sr; /* qsort has no context argument */

static int by_score(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double si = g_sort_sr->points[i].score, sj = g_sort_sr->points[j].score;
	if (si != sj)
		return si > sj ? -1 : 1;
	return i < j ? -1 : i > j;
}

void sb_sweep_order(const struct sb_sweep_results *sr, size_t *order)
{
	for (size_t i = 0; i < sr->ndone; i++)
		order[i] = i;
	g_sort_sr = sr;
	qsort(order, sr->ndone, sizeof(*order), by_score);
	g_sort_sr = NULL;
}

static char *fmt_lat(char *buf, size_t len, double ns)
{
	if (ns < 1000.0)
		snprintf(buf, len, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
	return buf;
}

static const char *point_value(const struct sb_sweep *def, size_t index, unsigned d)
{
	const char *v = def->points[index].values ? def->points[index].values[d] : NULL;
	return v ? v : "?";
}

/* column widths of the swept values */
static void value_widths(const struct sb_sweep_results *sr, int *w)
{
	const struct sb_sweep *def = sr->def;
	for (unsigned d = 0; d < def->ndims; d++) {
		w[d] = (int)strlen(def->dims[d].name);
		for (size_t i = 0; i < sr->ndone; i++) {
			int n = (int)strlen(point_value(def, sr->points[i].index, d));
			w[d] = n > w[d] ? n : w[d];
		}
	}
}

static void table_header(FILE *f, const struct sb_sweep_results *sr, const int *w)
{
	fprintf(f, "%6s", "point");
	for (unsigned d = 0; d < sr->def->ndims; d++)
		fprintf(f, "  %-*s", w[d], sr->def->dims[d].name);
	fprintf(f, "  %-5s  %10s  %10s  %10s  %7s  %10s  %9s  %9s\n", "dir", "MiB/s", "min", "max",
		"GiB/s", "IOPS", "clat p50", "clat p99");
}

static void table_row(FILE *f, const struct sb_sweep_results *sr, const int *w,
		      const struct sb_sweep_point_result *p, int d, bool first)
{
	const struct sb_sweep_dirsum *ds = &p->dir[d];
	char num[16], p50[16], p99[16];
	snprintf(num, sizeof(num), "%zu%s", p->index + 1, p->error ? "!" : "");
	fprintf(f, "%6s", first ? num : "");
	for (unsigned k = 0; k < sr->def->ndims; k++)
		fprintf(f, "  %-*s", w[k], first ? point_value(sr->def, p->index, k) : "");
	fprintf(f, "  %-5s  %10.1f  %10.1f  %10.1f  %7.3f  %10.0f  %9s  %9s\n", dir_names[d],
		ds->bw_mean / MIB, ds->bw_min / MIB, ds->bw_max / MIB, ds->bw_mean / GIB,
		ds->iops_mean, fmt_lat(p50, sizeof(p50), (double)ds->clat_p50_ns),
		fmt_lat(p99, sizeof(p99), (double)ds->clat_p99_ns));
}

/* one option of the fragment as a job file reads it back: a bare key
 * (stonewall) bare, a value holding a comment character quoted */
static void frag_line(FILE *f, const struct sb_opt_echo *o)
{
	if (!*o->value)
		fprintf(f, "%s\n", o->key);
	else
		fprintf(f, strpbrk(o->value, ";#") ? "%s=\"%s\"\n" : "%s=%s\n", o->key, o->value);
}

static void best_block(FILE *f, const struct sb_sweep_results *sr, int d)
{
	const struct sb_sweep_point_result *p = &sr->points[sr->best[d]];
	const struct sb_sweep_dirsum *ds = &p->dir[d];
	char p99[16];
	fprintf(f, "\nBest %s (by %s): point %zu, %.1f MiB/s (%.3f GiB/s), %.0f IOPS, clat p99 %s\n",
		dir_names[d], metric_name(sr->metric), p->index + 1, ds->bw_mean / MIB,
		ds->bw_mean / GIB, ds->iops_mean, fmt_lat(p99, sizeof(p99), (double)ds->clat_p99_ns));
	fprintf(f, "; paste into a job file:\n");
	const struct sb_joblist *pj = &sr->def->points[p->index].jl;
	if (!pj->njobs) { /* no job list kept: the swept values alone */
		fprintf(f, "[best-%s]\n", dir_names[d]);
		for (unsigned k = 0; k < sr->def->ndims; k++)
			fprintf(f, "%s=%s\n", sr->def->dims[k].name, point_value(sr->def, p->index, k));
		return;
	}
	/* the point's own job file: its [global] options and each job's, the
	 * swept values in place, so the paste runs the same I/O (the swept
	 * values alone would leave out a [global]'s direct=1) */
	if (pj->nglobal)
		fputs("[global]\n", f);
	for (unsigned k = 0; k < pj->nglobal; k++)
		frag_line(f, &pj->global_opts[k]);
	for (size_t j = 0; j < pj->njobs; j++) {
		const struct sb_jobspec *s = &pj->jobs[j];
		if (j && !strcmp(s->name, pj->jobs[j - 1].name))
			continue; /* numjobs' copies share the section */
		fprintf(f, "%s[best-%s%s%s]\n", pj->nglobal || j ? "\n" : "", dir_names[d],
			pj->njobs > 1 ? "-" : "", pj->njobs > 1 ? s->name : "");
		for (unsigned k = 0; k < s->nopts; k++)
			frag_line(f, &s->opts[k]);
	}
}

static void normal_intro(FILE *f, const struct sb_sweep_results *sr)
{
	const struct sb_sweep *def = sr->def;
	unsigned reps = sr->ndone ? sr->points[0].nreps : 0;
	fprintf(f, "\nSweep: %zu of %zu points", sr->ndone, def->npoints);
	if (sr->nskipped)
		fprintf(f, ", %zu skipped", sr->nskipped);
	fputs(" (", f);
	for (unsigned d = 0; d < def->ndims; d++)
		fprintf(f, "%s%s", d ? " x " : "", def->dims[d].name);
	fprintf(f, "), %u repetition%s each, sorted by %s (best first)\n", reps, reps == 1 ? "" : "s",
		metric_name(sr->metric));
	if (sr->interrupted)
		fprintf(f, "Sweep interrupted: %zu of %zu points finished; the best so far is below.\n",
			sr->ndone, def->npoints);
	if (sr->caches > 0)
		fputs("Page cache dropped before each repetition (direct-I/O points: before their "
		      "first).\n", f);
	else if (sr->caches < 0)
		fputs("Page cache NOT dropped (no permission): results may be cached.\n", f);
}

/* the skipped points, one line per reason: how many, which (the first 12) */
static void normal_skipped(FILE *f, const struct sb_sweep_results *sr)
{
	for (size_t i = 0; i < sr->nskipped; i++) {
		const char *why = sr->skipped[i].why;
		size_t n = 0, shown = 0;
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(sr->skipped[k].why, why);
		if (seen)
			continue;
		for (size_t k = i; k < sr->nskipped; k++)
			n += !strcmp(sr->skipped[k].why, why);
		fprintf(f, "Skipped %zu point%s (not run, no I/O): %s\n  points", n, n == 1 ? "" : "s",
			why);
		for (size_t k = i; k < sr->nskipped && shown < 12; k++)
			if (!strcmp(sr->skipped[k].why, why))
				fprintf(f, "%s %zu", shown++ ? "," : "", sr->skipped[k].index + 1);
		fputs(n > shown ? ", ...\n" : "\n", f);
	}
}

void sb_normal_sweep(FILE *f, const struct sb_results *r)
{
	const struct sb_sweep_results *sr = r->sweep;
	int w[64];
	size_t *order = calloc(sr->ndone ? sr->ndone : 1, sizeof(*order));
	if (!order)
		return;
	normal_intro(f, sr);
	value_widths(sr, w);
	table_header(f, sr, w);
	sb_sweep_order(sr, order);
	for (size_t i = 0; i < sr->ndone; i++) {
		const struct sb_sweep_point_result *p = &sr->points[order[i]];
		bool first = true;
		for (int d = 0; d < SB_DDIR_N; d++) {
			if (p->dirs & (1u << d)) {
				table_row(f, sr, w, p, d, first);
				first = false;
			}
		}
	}
	for (size_t i = 0; i < sr->ndone; i++) {
		if (sr->points[i].error) {
			fputs("(! = the point had I/O errors: not a candidate for best)\n", f);
			break;
		}
	}
	normal_skipped(f, sr);
	for (int d = 0; d < SB_DDIR_N; d++)
		if (sr->best[d] >= 0)
			best_block(f, sr, d);
	free(order);
}

/* ---- JSON */

static void json_values(struct sb_jw *w, const struct sb_sweep *def, size_t index)
{
	sb_jw_obj_begin(w, "values");
	for (unsigned d = 0; d < def->ndims; d++)
		sb_jw_str(w, def->dims[d].name, point_value(def, index, d));
	sb_jw_obj_end(w);
}

int sb_json_sweep_jobs(struct sb_jw *w, const struct sb_results *r, bool plus)
{
	const struct sb_sweep_results *sr = r->sweep;
	int rc = 0;
	for (size_t i = 0; sr && i < sr->ndone; i++) {
		const struct sb_sweep_point_result *p = &sr->points[i];
		char vals[512];
		size_t n = 0;
		vals[0] = 0;
		for (unsigned d = 0; d < sr->def->ndims && n < sizeof(vals); d++)
			n += (size_t)snprintf(vals + n, sizeof(vals) - n, "%s%s=%s", d ? " " : "",
					      sr->def->dims[d].name, point_value(sr->def, p->index, d));
		for (size_t j = 0; j < p->merged.njobs; j++)
			if (sb_json_job_at(w, &p->merged, &p->merged.jobs[j], plus, p->index + 1, vals) && !rc)
				rc = -ENOMEM;
	}
	return rc;
}

static void json_dirsum(struct sb_jw *w, const char *key, const struct sb_sweep_dirsum *ds)
{
	sb_jw_obj_begin(w, key);
	sb_jw_u64(w, "io_bytes", ds->io_bytes);
	sb_jw_dbl(w, "bw_bytes", ds->bw_mean);
	sb_jw_dbl(w, "bw_bytes_min", ds->bw_min);
	sb_jw_dbl(w, "bw_bytes_max", ds->bw_max);
	sb_jw_dbl(w, "gbps", ds->bw_mean / GIB);
	sb_jw_dbl(w, "gbps_min", ds->bw_min / GIB);
	sb_jw_dbl(w, "gbps_max", ds->bw_max / GIB);
	sb_jw_dbl(w, "iops", ds->iops_mean);
	sb_jw_dbl(w, "iops_min", ds->iops_min);
	sb_jw_dbl(w, "iops_max", ds->iops_max);
	sb_jw_dbl(w, "clat_ns_mean", ds->clat_mean_ns);
	sb_jw_u64(w, "clat_ns_p50", ds->clat_p50_ns);
	sb_jw_u64(w, "clat_ns_p99", ds->clat_p99_ns);
	sb_jw_obj_end(w);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void json_repdir(struct sb_jw *w, const char *key, const struct sb_sweep_repdir *rd)
{
	sb_jw_obj_begin(w, key);
	sb_jw_u64(w, "io_bytes", rd->io_bytes);
	sb_jw_dbl(w, "bw_bytes", rd->bw);
	sb_jw_dbl(w, "gbps", rd->bw / GIB);
	sb_jw_dbl(w, "iops", rd->iops);
	sb_jw_dbl(w, "clat_ns_mean", rd->clat_mean_ns);
	sb_jw_u64(w, "clat_ns_p50", rd->clat_p50_ns);
	sb_jw_u64(w, "clat_ns_p99", rd->clat_p99_ns);
	sb_jw_u64(w, "clat_ns_p99_9", rd->clat_p99_9_ns);
	sb_jw_u64(w, "runtime_ms", rd->runtime_ms);
	sb_jw_obj_end(w);
}

/* per repetition: timings and the summary of each direction; then the
 * point's jobs, each merged over the repetitions */
static void json_runs(struct sb_jw *w, const struct sb_sweep_point_result *p, bool plus)
{
	sb_jw_arr_begin(w, "runs");
	for (unsigned k = 0; k < p->nreps; k++) {
		const struct sb_sweep_rep *rep = &p->reps[k];
		sb_jw_obj_begin(w, NULL);
		sb_jw_dbl(w, "wall_ms", ms(rep->wall_ns));
		sb_jw_dbl(w, "io_ms", ms(rep->io_ns));
		sb_jw_dbl(w, "sync_ms", ms(rep->sync_ns));
		sb_jw_i64(w, "error", rep->error);
		for (int d = 0; d < SB_DDIR_N; d++)
			if (rep->dirs & (1u << d))
				json_repdir(w, dir_names[d], &rep->dir[d]);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_arr_begin(w, "jobs");
	for (size_t j = 0; j < p->merged.njobs; j++)
		sb_json_job(w, &p->merged, &p->merged.jobs[j], plus);
	sb_jw_arr_end(w);
}

static void json_point(struct sb_jw *w, const struct sb_sweep_results *sr,
		       const struct sb_sweep_point_result *p, bool plus)
{
	sb_jw_obj_begin(w, NULL);
	sb_jw_u64(w, "point", p->index + 1);
	json_values(w, sr->def, p->index);
	sb_jw_u64(w, "repetitions", p->nreps);
	sb_jw_i64(w, "error", p->error);
	sb_jw_dbl(w, "score", isfinite(p->score) ? p->score : 0.0);
	sb_jw_dbl(w, "wall_ms", ms(p->wall_ns));
	sb_jw_dbl(w, "io_ms", ms(p->io_ns));
	sb_jw_dbl(w, "sync_ms", ms(p->sync_ns));
	sb_jw_dbl(w, "overhead_ms", p->wall_ns > p->io_ns ? ms(p->wall_ns - p->io_ns) : 0.0);
	for (int d = 0; d < SB_DDIR_N; d++)
		if (p->dirs & (1u << d))
			json_dirsum(w, dir_names[d], &p->dir[d]);
	json_runs(w, p, plus);
	sb_jw_obj_end(w);
}

static void json_best(struct sb_jw *w, const struct sb_sweep_results *sr)
{
	sb_jw_obj_begin(w, "best");
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (sr->best[d] < 0)
			continue;
		const struct sb_sweep_point_result *p = &sr->points[sr->best[d]];
		sb_jw_obj_begin(w, dir_names[d]);
		sb_jw_u64(w, "point", p->index + 1);
		json_values(w, sr->def, p->index);
		sb_jw_dbl(w, "bw_bytes", p->dir[d].bw_mean);
		sb_jw_dbl(w, "gbps", p->dir[d].bw_mean / GIB);
		sb_jw_dbl(w, "iops", p->dir[d].iops_mean);
		sb_jw_u64(w, "clat_ns_p50", p->dir[d].clat_p50_ns);
		sb_jw_u64(w, "clat_ns_p99", p->dir[d].clat_p99_ns);
		sb_jw_obj_end(w);
	}
	sb_jw_obj_end(w);
}

void sb_json_sweep(struct sb_jw *w, const struct sb_results *r, bool plus)
{
	const struct sb_sweep_results *sr = r->sweep;
	const struct sb_sweep *def = sr->def;
	sb_jw_obj_begin(w, "sweep");
	sb_jw_str(w, "metric", metric_name(sr->metric));
	sb_jw_arr_begin(w, "options");
	for (unsigned d = 0; d < def->ndims; d++) {
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "name", def->dims[d].name);
		sb_jw_arr_begin(w, "values");
		for (unsigned v = 0; v < def->dims[d].nvalues; v++)
			sb_jw_str(w, NULL, def->dims[d].values[v]);
		sb_jw_arr_end(w);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_u64(w, "total_points", def->npoints);
	sb_jw_u64(w, "finished_points", sr->ndone);
	sb_jw_bool(w, "interrupted", sr->interrupted);
	sb_jw_str(w, "caches", sr->caches > 0 ? "dropped" : sr->caches < 0 ? "not permitted"
								    : "kept");
	sb_jw_arr_begin(w, "points");
	for (size_t i = 0; i < sr->ndone; i++)
		json_point(w, sr, &sr->points[i], plus);
	sb_jw_arr_end(w);
	sb_jw_u64(w, "skipped_points", sr->nskipped);
	sb_jw_arr_begin(w, "skipped");
	for (size_t i = 0; i < sr->nskipped; i++) {
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "point", sr->skipped[i].index + 1);
		json_values(w, def, sr->skipped[i].index);
		sb_jw_bool(w, "skipped", true);
		sb_jw_str(w, "reason", sr->skipped[i].why);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	json_best(w, sr);
	sb_jw_obj_end(w);
}
