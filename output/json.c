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
#include "output/json_job.h"
#include "output/jsonw.h"
#include "output/output.h"
#include "output/sweep.h"
#include "output/sysinv.h"
#include "output/timeseries.h"
#include "output/verify.h"

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

/* the I/O path's clock and its drift guard (HOWTO: Clock) */
static void json_clock(struct sb_jw *w, const struct sb_clock_result *c)
{
	sb_jw_obj_begin(w, "clock");
	sb_jw_str(w, "source", c->source);
	sb_jw_str(w, "reason", c->reason);
	sb_jw_bool(w, "tsc_fallback", c->tsc_fallback);
	if (!strcmp(c->source, "tsc")) {
		sb_jw_u64(w, "drift_checks", c->checks);
		sb_jw_i64(w, "max_drift_ns", c->max_drift_ns);
		sb_jw_u64(w, "drift_tolerance_ns", c->tol_ns);
		sb_jw_u64(w, "drift_tolerance_ppm", c->tol_ppm);
	}
	if (c->tsc_fallback) {
		sb_jw_i64(w, "fallback_drift_ns", c->fallback_drift_ns);
		sb_jw_u64(w, "fallback_ms", c->fallback_ms);
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
	/* fio's first key, for the scripts and tools that read it: the fio
	 * release whose JSON layout this follows (fio 3.33), as a version a
	 * script can compare; storbench's own version is the next key */
	sb_jw_str(&w, "fio version", "fio-3.33");
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
	sb_json_opts(&w, "global options", jl ? jl->global_opts : NULL, jl ? jl->nglobal : 0);
	sb_jw_arr_begin(&w, "jobs");
	int jrc = 0;
	for (size_t i = 0; i < r->njobs; i++)
		if (sb_json_job(&w, r, &r->jobs[i], plus) && !jrc)
			jrc = -ENOMEM;
	if (r->sweep && sb_json_sweep_jobs(&w, r, plus) && !jrc)
		jrc = -ENOMEM;
	sb_jw_arr_end(&w);
	if (!r->no_disk_util) { /* disk_util=0: fio writes no key */
		sb_jw_arr_begin(&w, "disk_util");
		for (size_t i = 0; i < r->ndisks; i++)
			json_disk(&w, &r->disks[i]);
		sb_jw_arr_end(&w);
	}
	sb_json_sysinv(&w, r->sys ? r->sys : r->sweep ? r->sweep->sys : NULL);   /* output/sysinv.c */
	if (r->clock.source)
		json_clock(&w, &r->clock);
	if (r->host)
		json_host(&w, r, r->host);
	int rc = json_comparisons(&w, r);
	sb_json_interim(&w, r);
	if (r->sweep) /* output/sweep.c */
		sb_json_sweep(&w, r, plus);
	sb_jw_obj_end(&w);
	return ferror(f) ? -EIO : rc ? rc : jrc;
}
