/* json.c: the JSON and JSON+ writers.  The layout is fio 3.33's, key for key
 * and in fio's order, so scripts written for fio's JSON read storbench's;
 * storbench's own keys are added beside fio's, never in their place.  JSON+
 * adds the non-empty histogram buckets ("bins": value ns -> count). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output/compare.h"
#include "output/derive.h"
#include "output/host.h"
#include "output/jsonw.h"
#include "output/output.h"
#include "output/sweep.h"
#include "output/sysinv.h"
#include "output/timeseries.h"
#include "output/verify.h"

struct lat_view {
	const struct sb_stat *s;
	const struct sb_shist *h;
	int percentiles;   /* emit "percentile" */
	int plus;          /* emit "bins" */
	const double *pctl;
	unsigned npctl;
};

static void json_lat(struct sb_jw *w, const char *key, const struct lat_view *v)
{
	char k[48];
	sb_jw_obj_begin(w, key);
	sb_jw_u64(w, "min", sb_stat_min(v->s));
	sb_jw_u64(w, "max", v->s->max);
	sb_jw_dbl(w, "mean", v->s->n ? v->s->mean : 0.0);
	sb_jw_dbl(w, "stddev", sb_stat_stddev(v->s));
	sb_jw_u64(w, "N", v->s->n);
	if (v->percentiles && v->s->n) {
		sb_jw_obj_begin(w, "percentile");
		for (unsigned i = 0; i < v->npctl; i++) {
			sb_jw_fmt_f(k, sizeof(k), v->pctl[i]);
			sb_jw_u64(w, k, sb_shist_percentile(v->h, v->pctl[i]));
		}
		sb_jw_obj_end(w);
	}
	if (v->plus && v->h->n) {
		sb_jw_obj_begin(w, "bins");
		for (uint32_t i = 0; i < v->h->nbins; i++) { /* the used buckets, ascending */
			const struct sb_hist_bin *b = &v->h->bins[i];
			snprintf(k, sizeof(k), "%llu", (unsigned long long)sb_hist_bucket_value(b->i));
			sb_jw_u64(w, k, b->count);
		}
		sb_jw_obj_end(w);
	}
	sb_jw_obj_end(w);
}

static void json_samples(struct sb_jw *w, const struct sb_job_result *j,
			 const struct sb_group_result *g, int d)
{
	const struct sb_stat *bw = &j->st.bw_samples[d], *io = &j->st.iops_samples[d];
	sb_jw_u64(w, "bw_min", sb_stat_min(bw));
	sb_jw_u64(w, "bw_max", bw->max);
	sb_jw_dbl(w, "bw_agg", sb_out_bw_agg_pct(j, g, d));
	sb_jw_dbl(w, "bw_mean", bw->n ? bw->mean : 0.0);
	sb_jw_dbl(w, "bw_dev", sb_stat_stddev(bw));
	sb_jw_u64(w, "bw_samples", bw->n);
	sb_jw_u64(w, "iops_min", sb_stat_min(io));
	sb_jw_u64(w, "iops_max", io->max);
	sb_jw_dbl(w, "iops_mean", io->n ? io->mean : 0.0);
	sb_jw_dbl(w, "iops_stddev", sb_stat_stddev(io));
	sb_jw_u64(w, "iops_samples", io->n);
}

/* direction d of j under key name ("read", "write", "trim"; "mixed": d is
 * SB_DDIR_READ of a mixed view, output/mixed.c) */
static void json_ddir(struct sb_jw *w, const char *name, const struct sb_results *r,
		      const struct sb_job_result *j, int d, int plus)
{
	const struct sb_tstats *st = &j->st;
	const struct sb_group_result *g = sb_out_group(r, j->groupid);
	uint64_t bw = sb_out_bw_bytes(j, d);
	struct lat_view v = { .plus = plus };
	v.npctl = sb_out_pctl(j, &v.pctl);

	sb_jw_obj_begin(w, name);
	sb_jw_u64(w, "io_bytes", st->io_bytes[d]);
	sb_jw_u64(w, "io_kbytes", st->io_bytes[d] >> 10);
	sb_jw_u64(w, "bw_bytes", bw);
	sb_jw_u64(w, "bw", bw / 1024);
	sb_jw_dbl(w, "iops", sb_out_iops(j, d));
	sb_jw_u64(w, "runtime", j->runtime_ms[d]);
	sb_jw_u64(w, "total_ios", st->total_ios[d]);
	sb_jw_u64(w, "short_ios", st->short_ios[d]);
	sb_jw_u64(w, "drop_ios", st->drop_ios[d]);
	v.s = &st->slat[d];
	v.h = &st->slat_h[d];
	v.percentiles = j->spec ? j->spec->slat_percentiles : 0;
	json_lat(w, "slat_ns", &v);
	v.s = &st->clat[d];
	v.h = &st->clat_h[d];
	v.percentiles = j->spec ? j->spec->clat_percentiles : 1;
	json_lat(w, "clat_ns", &v);
	v.s = &st->lat[d];
	v.h = &st->lat_h[d];
	v.percentiles = j->spec ? j->spec->lat_percentiles : 0;
	json_lat(w, "lat_ns", &v);
	json_samples(w, j, g, d);
	sb_jw_obj_end(w);
}

/* The options as written.  Bare keys (time_based) are left out, as fio
 * leaves out options given without a value. */
static void json_opts(struct sb_jw *w, const char *key, const struct sb_opt_echo *o, unsigned n)
{
	sb_jw_obj_begin(w, key);
	for (unsigned i = 0; i < n; i++)
		if (o[i].value && *o[i].value)
			sb_jw_str(w, o[i].key, o[i].value);
	sb_jw_obj_end(w);
}

static void json_dist(struct sb_jw *w, const char *key, const char *const *names,
		      const double *pct, unsigned n)
{
	sb_jw_obj_begin(w, key);
	for (unsigned i = 0; i < n; i++)
		sb_jw_dbl(w, names[i], pct[i]);
	sb_jw_obj_end(w);
}

static void json_depths(struct sb_jw *w, const struct sb_tstats *st)
{
	double pct[SB_DEPTH_BUCKETS];
	struct sb_latdist ld;

	sb_out_depthdist(st->iodepth_level, pct);
	json_dist(w, "iodepth_level", sb_depth_level_names, pct, SB_DEPTH_BUCKETS);
	sb_out_depthdist(st->iodepth_submit, pct);
	json_dist(w, "iodepth_submit", sb_depth_batch_names, pct, SB_DEPTH_BUCKETS);
	sb_out_depthdist(st->iodepth_complete, pct);
	json_dist(w, "iodepth_complete", sb_depth_batch_names, pct, SB_DEPTH_BUCKETS);
	sb_out_latdist(st, &ld);
	json_dist(w, "latency_ns", sb_lat_edge_names, ld.ns, SB_LAT_NS_N);
	json_dist(w, "latency_us", sb_lat_edge_names, ld.us, SB_LAT_US_N);
	json_dist(w, "latency_ms", sb_lat_edge_names, ld.ms, SB_LAT_MS_N);
}

/* fio's "steadystate" object: the criterion, whether the last window met
 * it, and that window's samples (bw in bytes/s) */
static void json_steady(struct sb_jw *w, const struct sb_steady *ss)
{
	char buf[96];
	snprintf(buf, sizeof(buf), "%s:%f%s", sb_steady_kind_name(ss->kind), ss->limit,
		 ss->pct ? "%" : "");
	sb_jw_obj_begin(w, "steadystate");
	sb_jw_str(w, "ss", buf);
	sb_jw_u64(w, "duration", ss->dur_s);
	sb_jw_u64(w, "attained", ss->attained);
	snprintf(buf, sizeof(buf), "%f%s", ss->criterion, ss->pct ? "%" : "");
	sb_jw_str(w, "criterion", buf);
	sb_jw_dbl(w, "max_deviation", ss->max_deviation);
	sb_jw_dbl(w, "slope", ss->slope);
	sb_jw_obj_begin(w, "data");
	sb_jw_u64(w, "bw_mean", (uint64_t)ss->bw_mean);
	sb_jw_u64(w, "iops_mean", (uint64_t)ss->iops_mean);
	sb_jw_arr_begin(w, "iops");
	for (unsigned i = 0; i < ss->n; i++)
		sb_jw_u64(w, NULL, sb_steady_iops(ss, i));
	sb_jw_arr_end(w);
	sb_jw_arr_begin(w, "bw");
	for (unsigned i = 0; i < ss->n; i++)
		sb_jw_u64(w, NULL, sb_steady_bw(ss, i));
	sb_jw_arr_end(w);
	sb_jw_obj_end(w);
	sb_jw_obj_end(w);
}

/* unified_rw_reporting=mixed: "mixed" alone in place of read, write, trim
 * and sync; =both: "mixed" after them (fio 3.33's keys and order) */
static int json_mixed(struct sb_jw *w, const struct sb_results *r, const struct sb_job_result *j,
		      int plus)
{
	struct sb_out_mixed mx;
	int rc = sb_out_mixed_open(&mx, r, j);
	if (rc)
		return rc;
	json_ddir(w, "mixed", &mx.res, mx.job, SB_DDIR_READ, plus);
	sb_out_mixed_close(&mx);
	return 0;
}

static int json_job(struct sb_jw *w, const struct sb_results *r, const struct sb_job_result *j,
		    int plus)
{
	unsigned unified = sb_out_unified_job(j);
	int rc = 0;
	const struct sb_tstats *st = &j->st;
	/* fio prints sync percentiles whenever there were syncs */
	struct lat_view sync = { .s = &st->sync_lat, .h = &st->sync_h, .percentiles = 1, .plus = plus };
	sync.npctl = sb_out_pctl(j, &sync.pctl);

	sb_jw_obj_begin(w, NULL);
	sb_jw_str(w, "jobname", j->name);
	sb_jw_u64(w, "groupid", j->groupid);
	/* fio: an error continue_on_error let pass is still the job's error
	 * here (the exit status stays 0) */
	sb_jw_i64(w, "error", j->error ? j->error : st->first_error);
	if (j->error) {
		char text[SB_ERRPATH_MAX + 256], msg[sizeof(text) + SB_NAME_MAX + 2];
		snprintf(msg, sizeof(msg), "%s: %s", j->name, sb_tstats_error_text(st, text, sizeof(text)));
		sb_jw_str(w, "error_message", msg);
	} else {
		sb_jw_str(w, "error_message", "");
	}
	sb_jw_u64(w, "eta", 0);
	sb_jw_u64(w, "elapsed", j->elapsed_s);
	json_opts(w, "job options", j->spec ? j->spec->opts : NULL, j->spec ? j->spec->nopts : 0);
	if (unified != SB_UNIFIED_MIXED) {
		for (int d = 0; d < SB_DDIR_N; d++)
			json_ddir(w, sb_ddir_names[d], r, j, d, plus);
		sb_jw_obj_begin(w, "sync");
		sb_jw_u64(w, "total_ios", st->sync_lat.n);
		json_lat(w, "lat_ns", &sync);
		sb_jw_obj_end(w);
	}
	if (unified != SB_UNIFIED_NONE)
		rc = json_mixed(w, r, j, plus);
	sb_jw_u64(w, "job_runtime", j->job_runtime_ms);
	sb_jw_dbl(w, "usr_cpu", j->usr_cpu);
	sb_jw_dbl(w, "sys_cpu", j->sys_cpu);
	sb_jw_u64(w, "ctx", st->ctx);
	sb_jw_u64(w, "majf", st->majf);
	sb_jw_u64(w, "minf", st->minf);
	json_depths(w, st);
	if (j->spec && (j->spec->continue_on_error || j->spec->ignore_error)) {
		sb_jw_u64(w, "total_err", st->total_err);
		sb_jw_i64(w, "first_error", st->first_error);
	}
	/* fio: the depth found and the target in ns, the window in us; without a
	 * target iodepth, 0, 100, 0 */
	bool lt = j->latency_depth && j->spec;
	sb_jw_u64(w, "latency_depth", lt ? j->latency_depth : j->spec ? j->spec->iodepth : 1);
	sb_jw_u64(w, "latency_target", lt ? j->spec->latency_target_us * 1000 : 0);
	sb_jw_dbl(w, "latency_percentile", lt ? j->spec->latency_percentile : 100.0);
	sb_jw_u64(w, "latency_window", lt ? j->spec->latency_window_us : 0);
	if (j->spec && j->spec->description && j->spec->description[0])
		sb_jw_str(w, "desc", j->spec->description);
	if (j->wl && j->wl->fig->json)
		j->wl->fig->json(w, j->wl); /* the workload's figures */
	if (j->verify)
		sb_json_verify(w, j->verify);
	if (j->ss)
		json_steady(w, j->ss);
	sb_json_timeseries(w, j);
	sb_jw_obj_end(w);
	return rc;
}

static void json_disk(struct sb_jw *w, const struct sb_disk_util *du)
{
	sb_jw_obj_begin(w, NULL);
	sb_jw_str(w, "name", du->name);
	sb_jw_u64(w, "read_ios", du->read_ios);
	sb_jw_u64(w, "write_ios", du->write_ios);
	sb_jw_u64(w, "read_merges", du->read_merges);
	sb_jw_u64(w, "write_merges", du->write_merges);
	sb_jw_u64(w, "read_ticks", du->read_ticks);
	sb_jw_u64(w, "write_ticks", du->write_ticks);
	sb_jw_u64(w, "in_queue", du->in_queue);
	sb_jw_dbl(w, "util", du->util);
	sb_jw_obj_end(w);
}

/* "host": the collectors' summaries and series, then "perf_per_io": each
 * counted perf event divided by the run's I/Os (cycles per I/O, ...) */
static void json_host(struct sb_jw *w, const struct sb_results *r, const struct sb_host *h)
{
	sb_jw_obj_begin(w, "host");
	sb_out_host_json(w, h);   /* output/host.c */
	sb_jw_obj_begin(w, "perf_per_io");
	for (unsigned i = 0; i < r->nperf_per_io; i++)
		sb_jw_dbl(w, r->perf_per_io[i].event, r->perf_per_io[i].per_io);
	sb_jw_obj_end(w);
	sb_jw_obj_end(w);
}

/* ---- "comparisons": jobs that differ in one option (output/compare.h) ---- */

static void json_cmp_row(struct sb_jw *w, const struct sb_cmp_row *row)
{
	sb_jw_obj_begin(w, NULL);
	sb_jw_str(w, "jobname", row->job->name);
	sb_jw_str(w, "value", row->value);
	sb_jw_dbl(w, "iops", row->iops);
	sb_jw_u64(w, "bw_bytes", row->bw_bytes);
	sb_jw_u64(w, "clat_p50_ns", row->clat_p50_ns);
	sb_jw_u64(w, "clat_p99_ns", row->clat_p99_ns);
	sb_jw_u64(w, "clat_p99_9_ns", row->clat_p99_9_ns);
	sb_jw_dbl(w, "usr_cpu", row->usr_cpu);
	sb_jw_dbl(w, "sys_cpu", row->sys_cpu);
	sb_jw_dbl(w, "cpu_us_per_io", row->cpu_us_per_io);
	sb_jw_dbl(w, "ratio", row->ratio);
	sb_jw_obj_end(w);
}

static int json_comparisons(struct sb_jw *w, const struct sb_results *r)
{
	struct sb_cmp c;
	int rc = sb_cmp_build(r, &c);
	sb_jw_arr_begin(w, "comparisons");
	for (size_t i = 0; i < c.nsets; i++) {
		const struct sb_cmp_set *s = &c.sets[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "option", s->option);
		sb_jw_str(w, "metric", s->metric);
		sb_jw_arr_begin(w, "rows");
		for (size_t k = 0; k < s->nrows; k++)
			json_cmp_row(w, &s->rows[k]);
		sb_jw_arr_end(w);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_cmp_free(&c);
	return rc;
}

/* ctime()'s text without its newline */
static void time_text(time_t t, char *buf, size_t len)
{
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, len, "%lld", (long long)t);
}

/* under MPI (several ranks): the run across ranks; times in ns */
static void json_mpi(struct sb_jw *w, const struct sb_mpi_summary *m)
{
	sb_jw_obj_begin(w, "mpi");
	sb_jw_u64(w, "ranks", m->ranks);
	sb_jw_u64(w, "hosts", m->hosts);
	sb_jw_u64(w, "ranks_per_host", m->ranks_per_host);
	sb_jw_u64(w, "start_skew_ns", m->start_skew_ns);
	sb_jw_u64(w, "end_skew_ns", m->end_skew_ns);
	sb_jw_u64(w, "merge_ns", m->merge_ns);
	sb_jw_str(w, "library", m->library);
	sb_jw_obj_end(w);
}

/* under MPI: one host's counters (or the cluster's sum); only what was
 * measured; MB = 1e6 bytes */
static void json_host_digest(struct sb_jw *w, const char *key, const struct sb_host_digest *d)
{
	sb_jw_obj_begin(w, key);
	if (d->rank >= 0) {
		sb_jw_str(w, "host", d->host);
		sb_jw_i64(w, "rank", d->rank);
	}
	sb_jw_dbl(w, "run_s", d->run_s);
	if (d->cpu) {
		sb_jw_u64(w, "ncpus", d->ncpus);
		if (d->rank >= 0)
			sb_jw_dbl(w, "cpu_avg_utilization_pct", d->cpu_util_pct);
		sb_jw_dbl(w, "node_cpu_hours", d->cpu_hours);
	}
	if (d->mem) {
		sb_jw_u64(w, "mem_total_bytes", d->mem_total_bytes);
		sb_jw_dbl(w, "max_t_mem_percent", d->mem_peak_pct);
		sb_jw_u64(w, "mem_peak_bytes", d->mem_peak_bytes);
	}
	if (d->disk) {
		sb_jw_dbl(w, "total_disk_io_read_mb", d->disk_read_mb);
		sb_jw_dbl(w, "total_disk_io_write_mb", d->disk_write_mb);
	}
	if (d->net) {
		sb_jw_dbl(w, "total_net_io_lo_sent_mb", d->net_lo_sent_mb);
		sb_jw_dbl(w, "total_net_io_lo_recv_mb", d->net_lo_recv_mb);
		sb_jw_dbl(w, "total_net_io_ext_sent_mb", d->net_ext_sent_mb);
		sb_jw_dbl(w, "total_net_io_ext_recv_mb", d->net_ext_recv_mb);
	}
	if (d->ib) {
		sb_jw_dbl(w, "total_ib_xmit_mb", d->ib_xmit_mb);
		sb_jw_dbl(w, "total_ib_rcv_mb", d->ib_rcv_mb);
	}
	sb_jw_obj_end(w);
}

int sb_write_json(FILE *f, const struct sb_results *r, bool plus)
{
	struct sb_jw w;
	char tbuf[64];
	const struct sb_joblist *jl = r->joblist;

	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	sb_jw_str(&w, "storbench version", r->version ? r->version : "storbench-" SB_VERSION);
	sb_jw_i64(&w, "timestamp", (int64_t)r->timestamp);
	sb_jw_u64(&w, "timestamp_ms", r->timestamp_ms);
	time_text(r->timestamp, tbuf, sizeof(tbuf));
	sb_jw_str(&w, "time", tbuf);
	if (r->interrupted)
		sb_jw_bool(&w, "interrupted", true);
	if (r->mpi.ranks)
		json_mpi(&w, &r->mpi);
	if (r->nhosts) { /* MPI: host counters once per host, and their sum */
		sb_jw_arr_begin(&w, "hosts");
		for (unsigned i = 0; i < r->nhosts; i++)
			json_host_digest(&w, NULL, &r->hosts[i]);
		sb_jw_arr_end(&w);
		json_host_digest(&w, "cluster", &r->cluster);
	}
	json_opts(&w, "global options", jl ? jl->global_opts : NULL, jl ? jl->nglobal : 0);
	sb_jw_arr_begin(&w, "jobs");
	int jrc = 0;
	for (size_t i = 0; i < r->njobs; i++)
		if (json_job(&w, r, &r->jobs[i], plus) && !jrc)
			jrc = -ENOMEM;
	sb_jw_arr_end(&w);
	if (!r->no_disk_util) { /* disk_util=0: fio writes no key */
		sb_jw_arr_begin(&w, "disk_util");
		for (size_t i = 0; i < r->ndisks; i++)
			json_disk(&w, &r->disks[i]);
		sb_jw_arr_end(&w);
	}
	sb_json_sysinv(&w, r->sys ? r->sys : r->sweep ? r->sweep->sys : NULL);   /* output/sysinv.c */
	if (r->host)
		json_host(&w, r, r->host);
	int rc = json_comparisons(&w, r);
	sb_json_interim(&w, r);
	if (r->sweep) /* output/sweep.c */
		sb_json_sweep(&w, r, plus);
	sb_jw_obj_end(&w);
	return ferror(f) ? -EIO : rc ? rc : jrc;
}

/* one job object, for the sweep's points (output/sweep.c) */
int sb_json_job(struct sb_jw *w, const struct sb_results *r, const struct sb_job_result *j,
		bool plus)
{
	return json_job(w, r, j, plus);
}
