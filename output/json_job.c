/* json_job.c: one job's object of the JSON and JSON+ writers (see
 * json_job.h), fio 3.33's layout key for key, with storbench's keys beside
 * fio's; the document around the jobs is json.c's, a sweep's points
 * sweep.c's. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output/compare.h"
#include "output/derive.h"
#include "output/host.h"
#include "output/json_job.h"
#include "output/jsonw.h"
#include "output/output.h"
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

/* fio's "prios" (stat.c add_ddir_status_json, fio 3.33 stat.c:1497-1528):
 * each priority with samples, its clat (lat with lat_percentiles) under the
 * same key as the direction's, percentiles (and json+ bins) when either
 * clat_percentiles or lat_percentiles is on */
static void json_prios(struct sb_jw *w, const struct sb_job_result *j, int d, struct lat_view *v)
{
	const struct sb_tstats *st = &j->st;
	bool lat = j->spec && j->spec->lat_percentiles;
	int pct = j->spec ? (j->spec->clat_percentiles || j->spec->lat_percentiles) : 1;
	int plus = v->plus;
	sb_jw_arr_begin(w, "prios");
	for (unsigned i = 0; i < st->nprio[d]; i++) {
		const struct sb_prio_lat *e = &st->prio[d][i];
		if (!e->s.n)
			continue;
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "prioclass", e->ioprio >> 13);
		sb_jw_u64(w, "prio", e->ioprio & 7);
		v->s = &e->s;
		v->h = &e->h;
		v->percentiles = pct;
		v->plus = plus && pct;
		json_lat(w, lat ? "lat_ns" : "clat_ns", v);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	v->plus = plus;
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
	if (sb_out_prios_shown(st, d))
		json_prios(w, j, d, &v);
	if (j->spec && (j->spec->iomem == SB_IOMEM_CUDA || st->gpu_copy[SB_DDIR_READ].n || st->gpu_copy[SB_DDIR_WRITE].n)) { /* run/gpu.c's copies */
		sb_jw_u64(w, "gpu_copy_bytes", st->gpu_bytes[d]);
		double copy_ns = st->gpu_copy[d].mean * (double)st->gpu_copy[d].n;
		sb_jw_u64(w, "gpu_copy_overlap_ns", st->gpu_overlap_ns[d]);
		sb_jw_dbl(w, "gpu_copy_overlap_pct", copy_ns > 0 ? (double)st->gpu_overlap_ns[d] / copy_ns * 100.0 : 0.0);
		v.s = &st->gpu_copy[d];
		v.h = &st->gpu_copy_h[d];
		v.percentiles = 1;
		json_lat(w, "gpu_copy_ns", &v);
	}
	if (st->eng_names) { /* the engine's time to first byte (s3, http) */
		v.s = &st->ttfb[d];
		v.h = &st->ttfb_h[d];
		v.percentiles = 1;
		json_lat(w, "ttfb_ns", &v);
	}
	json_samples(w, j, g, d);
	sb_jw_obj_end(w);
}

/* The options as written.  Bare keys (time_based) are left out, as fio
 * leaves out options given without a value. */
void sb_json_opts(struct sb_jw *w, const char *key, const struct sb_opt_echo *o, unsigned n)
{
	if (!n) /* no options at all: no key (fio 3.33 stat.c:1666 json_add_job_opts) */
		return;
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
	/* fio 3.33 stat.c:1902-1910: always ss_dur values, a window not full
	 * yet (ramp not over, or the run shorter) padded with zeros after its
	 * samples (t/steadystate_tests.py divides by their count) */
	unsigned nv = ss->n > ss->dur_s ? ss->n : (unsigned)ss->dur_s;
	sb_jw_arr_begin(w, "iops");
	for (unsigned i = 0; i < nv; i++)
		sb_jw_u64(w, NULL, i < ss->n ? sb_steady_iops(ss, i) : 0);
	sb_jw_arr_end(w);
	sb_jw_arr_begin(w, "bw");
	for (unsigned i = 0; i < nv; i++)
		sb_jw_u64(w, NULL, i < ss->n ? sb_steady_bw(ss, i) : 0);
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

int sb_json_job(struct sb_jw *w, const struct sb_results *r, const struct sb_job_result *j,
		int plus)
{
	return sb_json_job_at(w, r, j, plus, 0, NULL);
}

int sb_json_job_at(struct sb_jw *w, const struct sb_results *r, const struct sb_job_result *j,
		   int plus, size_t point, const char *values)
{
	unsigned unified = sb_out_unified_job(j);
	int rc = 0;
	const struct sb_tstats *st = &j->st;
	/* fio prints sync percentiles whenever there were syncs */
	struct lat_view sync = { .s = &st->sync_lat, .h = &st->sync_h, .percentiles = 1, .plus = plus };
	sync.npctl = sb_out_pctl(j, &sync.pctl);

	sb_jw_obj_begin(w, NULL);
	if (point) { /* a sweep point's job: "NAME (rw=read bs=4k)", its point and values */
		char name[SB_NAME_MAX + 512];
		snprintf(name, sizeof(name), "%s (%s)", j->name, values ? values : "");
		sb_jw_str(w, "jobname", name);
		sb_jw_u64(w, "sweep_point", point);
		sb_jw_str(w, "sweep_values", values ? values : "");
	} else {
		sb_jw_str(w, "jobname", j->name);
	}
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
	sb_json_opts(w, "job options", j->spec ? j->spec->opts : NULL, j->spec ? j->spec->nopts : 0);
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
	if (st->gds_mode[0]) /* ioengine=libcufile: p2p, compat or posix */
		sb_jw_str(w, "gds_mode", st->gds_mode);
	if (st->eng_names) { /* the engine's counters (s3, http) */
		sb_jw_obj_begin(w, "engine");
		for (unsigned i = 0; i < st->eng_n; i++)
			sb_jw_u64(w, st->eng_names[i], st->eng_ctr[i]);
		sb_jw_obj_end(w);
	}
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
