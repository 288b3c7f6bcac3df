/* tools/report_job.c: the per-job and host sections of `storbench report`:
 * bandwidth, IOPS and latency over time (the job's "timeseries"), the
 * latency percentile curve and histogram (json+ "bins", else the
 * percentiles and fio's latency buckets), and the host series (CPU heat
 * strip and average, memory, disk, network, power, GPU) with the host
 * summary figures.  Several results are drawn on the same axes. */
#include "tools/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "mixed": unified_rw_reporting=mixed|both (no time series of its own) */
static const char *const dirs[] = { "read", "write", "trim", "mixed" };

/* one line per (result, series path) into chart c, or measuring the axes
 * first (pass 0); names "LABEL: what" */
struct line_spec {
	const char *path, *what;
	int per_s, dash;
	double scale;
};

static int dir_moved(const struct sb_jval *job, const char *dir)
{
	return sb_jv_num(sb_jv_path(job, dir), 0) > 0;
}

/* a time chart of the per-job series of job index ji over all results */
static void job_chart(struct sb_rep *rp, unsigned ji, const char *title, const char *ylabel,
		      enum sb_axis_kind ykind, const struct line_spec *ls, unsigned nls)
{
	struct sb_axis x = { SB_AXIS_LIN, "time since the job started (s)", 0, 0, 0 };
	struct sb_axis y = { ykind, ylabel, 0, 0, 0 };
	struct sb_chart c;
	int any = 0;
	for (int pass = 0; pass < 2; pass++) {
		unsigned color = 0;
		if (pass == 1) {
			if (!any)
				return;
			sb_chart_begin(&c, rp->o, title, &x, &y);
		}
		for (unsigned ri = 0; ri < rp->n; ri++) {
			const struct sb_jval *job = sb_jv_at(sb_jv_get(rp->r[ri].root, "jobs"), ji);
			const struct sb_jval *ts = sb_jv_get(job, "timeseries");
			double t0 = sb_rep_ts_start(ts);   /* each job on its own time axis */
			for (unsigned d = 0; d < 4; d++) {
				char io[24];
				snprintf(io, sizeof(io), "%s/io_bytes", dirs[d]);
				if (!dir_moved(job, io))
					continue;
				for (unsigned k = 0; k < nls; k++) {
					char path[64], what[96], name[256];
					struct sb_rep_ts s;
					snprintf(path, sizeof(path), "%s/%s", dirs[d], ls[k].path);
					if (!sb_rep_series(ts, path, ls[k].per_s, ls[k].scale, t0, &s))
						continue;
					any = 1;
					if (pass == 0) {
						sb_rep_ts_axes(&s, &x, &y);
					} else {
						snprintf(what, sizeof(what), "%s%s%s", dirs[d], *ls[k].what ? " " : "",
							 ls[k].what);
						sb_rep_ts_draw(&c, &s, color, d == 1 || ls[k].dash,
							       sb_rep_name(rp, ri, what, name, sizeof(name)));
					}
					color++;
					sb_rep_ts_free(&s);
				}
			}
		}
	}
	sb_chart_end(&c);
}

/* ---- latency distribution ---- */

#define NBUCK 120   /* histogram buckets: 10 per decade from 1 ns to 10^12 ns */

/* the histogram of lat (an object with "bins") as % of I/Os per bucket;
 * returns the I/O count */
static double hist(const struct sb_jval *bins, double *pct)
{
	double tot = 0;
	memset(pct, 0, NBUCK * sizeof(double));
	for (const struct sb_jval *b = bins ? bins->child : NULL; b; b = b->next) {
		double ns = strtod(b->key, NULL);
		int k = ns >= 1 ? (int)floor(10 * log10(ns)) : 0;
		k = k < 0 ? 0 : k >= NBUCK ? NBUCK - 1 : k;
		pct[k] += b->num;
		tot += b->num;
	}
	for (int k = 0; tot > 0 && k < NBUCK; k++)
		pct[k] = 100.0 * pct[k] / tot;
	return tot;
}

/* percentile curve: (p, latency us) points from bins or the percentile map */
static size_t pcurve(const struct sb_jval *clat, double *p, double *us, size_t max)
{
	const struct sb_jval *bins = sb_jv_get(clat, "bins");
	size_t n = 0;
	double tot = 0, run = 0;
	for (const struct sb_jval *b = bins ? bins->child : NULL; b; b = b->next)
		tot += b->num;
	if (tot > 0) {
		for (const struct sb_jval *b = bins->child; b && n < max; b = b->next) {
			run += b->num;
			p[n] = 100.0 * run / tot;
			us[n++] = strtod(b->key, NULL) / 1000.0;
		}
		return n;
	}
	const struct sb_jval *pm = sb_jv_get(clat, "percentile");
	for (const struct sb_jval *e = pm ? pm->child : NULL; e && n < max; e = e->next) {
		p[n] = strtod(e->key, NULL);
		us[n++] = e->num / 1000.0;
	}
	return n;
}

/* fio's coarse buckets (latency_ns/us/ms): (upper edge us, % of I/Os) */
static size_t coarse(const struct sb_jval *job, double *x, double *y, size_t max)
{
	static const struct { const char *key; double us; } u[] = {
		{ "latency_ns", 0.001 }, { "latency_us", 1 }, { "latency_ms", 1000 },
	};
	size_t n = 0, first = 0, last = 0;
	int any = 0;
	for (unsigned k = 0; k < 3; k++)
		for (const struct sb_jval *e = sb_jv_get(job, u[k].key) ? sb_jv_get(job, u[k].key)->child : NULL;
		     e && n < max; e = e->next) {
			double edge = strtod(e->key[0] == '>' ? e->key + 2 : e->key, NULL) * u[k].us;
			x[n] = e->key[0] == '>' ? edge * 2 : edge;
			if (e->num > 0) {
				first = any ? first : n;
				last = n;
				any = 1;
			}
			y[n++] = e->num;
		}
	if (!any)
		return 0;
	/* the occupied buckets and one empty neighbour each side */
	first = first ? first - 1 : 0;
	last = last + 1 < n ? last + 1 : last;
	memmove(x, x + first, (last - first + 1) * sizeof(double));
	memmove(y, y + first, (last - first + 1) * sizeof(double));
	return last - first + 1;
}

static void lat_charts(struct sb_rep *rp, unsigned ji)
{
	for (int kind = 0; kind < 2; kind++) {
		struct sb_axis x = { kind ? SB_AXIS_LOG : SB_AXIS_PCT,
				     kind ? "completion latency (us, log)" : "percentile (%, log of 1 - p)", 0, 0, 0 };
		struct sb_axis y = { kind ? SB_AXIS_LIN : SB_AXIS_LOG,
				     kind ? "I/Os (% per 1/10 decade)" : "completion latency (us, log)", 0, 0, 0 };
		struct sb_chart c;
		int any = 0;
		double *px = malloc(4096 * sizeof(double)), *py = malloc(4096 * sizeof(double));
		if (!px || !py) {
			free(px);
			free(py);
			return;
		}
		for (int pass = 0; pass < 2; pass++) {
			unsigned color = 0;
			if (pass == 1 && any)
				sb_chart_begin(&c, rp->o, kind ? "Completion latency histogram"
					       : "Completion latency percentiles", &x, &y);
			if (pass == 1 && !any)
				break;
			for (unsigned ri = 0; ri < rp->n; ri++) {
				const struct sb_jval *job = sb_jv_at(sb_jv_get(rp->r[ri].root, "jobs"), ji);
				int drew_dir = 0;
				for (unsigned d = 0; d < 4; d++) {
					const struct sb_jval *dj = sb_jv_get(job, dirs[d]);
					const struct sb_jval *clat = sb_jv_get(dj, "clat_ns");
					if (sb_jv_num(sb_jv_get(dj, "total_ios"), 0) <= 0)
						continue;
					size_t n = 0;
					if (!kind) {
						n = pcurve(clat, px, py, 4096);
					} else if (sb_jv_get(clat, "bins")) {
						double pct[NBUCK];
						hist(sb_jv_get(clat, "bins"), pct);
						for (int k = 0; k < NBUCK; k++)
							if (pct[k] > 0 || (k && pct[k - 1] > 0) ||
							    (k + 1 < NBUCK && pct[k + 1] > 0)) {
								px[n] = pow(10, (k + 0.5) / 10) / 1000.0;
								py[n++] = pct[k];
							}
					} else if (!drew_dir) {
						n = coarse(job, px, py, 4096);   /* all directions together */
					}
					if (!n)
						continue;
					drew_dir = 1;
					any = 1;
					char name[256];
					for (size_t i = 0; pass == 0 && i < n; i++) {
						sb_axis_add(&x, px[i]);
						sb_axis_add(&y, py[i]);
					}
					if (pass == 1)
						sb_chart_line(&c, px, py, n, color, d == 1,
							      sb_rep_name(rp, ri, dirs[d], name, sizeof(name)));
					color++;
				}
			}
		}
		if (any)
			sb_chart_end(&c);
		free(px);
		free(py);
	}
}

/* clat mean, p50, p99 and max (us) of clat_ns as table cells: "n/a" where
 * the job has no completion latencies (no clat_ns, or N 0: an ML job that
 * times its own operations, as kv_profile=mlperf), never a 0.0 that was not
 * measured; a percentile is a histogram bucket's midpoint (within 0.78%),
 * shown no larger than the max and no smaller than the min it lies between */
static void clat_cells(struct sb_out *o, const struct sb_jval *cl)
{
	const struct sb_jval *n = sb_jv_get(cl, "N");
	if (!cl || (n && n->type == SB_JNUM && n->num <= 0)) {
		sb_out_puts(o, "<td class=\"na\">n/a</td><td class=\"na\">n/a</td>"
			    "<td class=\"na\">n/a</td><td class=\"na\">n/a</td>");
		return;
	}
	double lo = sb_jv_num(sb_jv_get(cl, "min"), 0), hi = sb_jv_num(sb_jv_get(cl, "max"), 0);
	double p[2] = { sb_jv_num(sb_jv_path(cl, "percentile/50.000000"), 0),
			sb_jv_num(sb_jv_path(cl, "percentile/99.000000"), 0) };
	for (int i = 0; i < 2; i++) {
		if (hi > 0 && p[i] > hi)
			p[i] = hi;
		if (p[i] > 0 && p[i] < lo)
			p[i] = lo;
	}
	sb_out_printf(o, "<td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td>",
		      sb_jv_num(sb_jv_get(cl, "mean"), 0) / 1000.0, p[0] / 1000.0, p[1] / 1000.0,
		      hi / 1000.0);
}

static void job_table(struct sb_rep *rp, unsigned ji)
{
	struct sb_out *o = rp->o;
	sb_out_puts(o, "<table class=\"t\"><tr><th>result</th><th>direction</th><th>IOPS</th>"
		    "<th>bandwidth (MiB/s)</th><th>clat mean (us)</th><th>clat p50 (us)</th>"
		    "<th>clat p99 (us)</th><th>clat max (us)</th><th>usr/sys CPU (%)</th></tr>\n");
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *job = sb_jv_at(sb_jv_get(rp->r[ri].root, "jobs"), ji);
		for (unsigned d = 0; job && d < 4; d++) {
			const struct sb_jval *dj = sb_jv_get(job, dirs[d]);
			if (sb_jv_num(sb_jv_get(dj, "io_bytes"), 0) <= 0)
				continue;
			const struct sb_jval *cl = sb_jv_get(dj, "clat_ns");
			sb_out_puts(o, "<tr><td>");
			sb_out_esc(o, rp->r[ri].label);
			sb_out_printf(o, "</td><td>%s</td><td>%.0f</td><td>%.1f</td>", dirs[d],
				      sb_jv_num(sb_jv_get(dj, "iops"), 0),
				      sb_jv_num(sb_jv_get(dj, "bw_bytes"), 0) / 1048576.0);
			clat_cells(o, cl);
			sb_out_printf(o, "<td>%.1f / %.1f</td></tr>\n", sb_jv_num(sb_jv_get(job, "usr_cpu"), 0),
				      sb_jv_num(sb_jv_get(job, "sys_cpu"), 0));
		}
	}
	sb_out_puts(o, "</table>\n");
}

void sb_rep_jobs(struct sb_rep *rp)
{
	size_t nj = 0;
	for (unsigned ri = 0; ri < rp->n; ri++) {
		size_t n = sb_jv_len(sb_jv_get(rp->r[ri].root, "jobs"));
		nj = n > nj ? n : nj;
	}
	static const struct line_spec bw[] = { { "bw_bytes", "", 0, 0, 1.0 / 1048576 } };
	static const struct line_spec iops[] = { { "iops", "", 0, 0, 1 } };
	static const struct line_spec lat[] = {
		{ "clat_p50_ns", "p50", 0, 0, 1e-3 }, { "clat_mean_ns", "mean", 0, 0, 1e-3 },
		{ "clat_p99_ns", "p99", 0, 0, 1e-3 }, { "clat_max_ns", "max", 0, 1, 1e-3 },
	};
	for (unsigned ji = 0; ji < nj; ji++) {
		/* the job's names over the results, each once: "Job 1: a / b" */
		char title[300];
		size_t tl = (size_t)snprintf(title, sizeof(title), "Job %u:", ji + 1);
		unsigned nnames = 0;
		for (unsigned ri = 0; ri < rp->n; ri++) {
			const char *name = sb_jv_str(sb_jv_get(sb_jv_at(sb_jv_get(rp->r[ri].root, "jobs"), ji),
							       "jobname"), NULL);
			int dup = !name;
			for (unsigned rj = 0; rj < ri && !dup; rj++)
				dup = !strcmp(name, sb_jv_str(sb_jv_get(sb_jv_at(sb_jv_get(rp->r[rj].root, "jobs"),
									    ji), "jobname"), ""));
			if (!dup && tl < sizeof(title))
				tl += (size_t)snprintf(title + tl, sizeof(title) - tl, "%s %s",
						       nnames++ ? " /" : "", name);
		}
		sb_rep_section(rp, title);
		job_table(rp, ji);
		job_chart(rp, ji, "Bandwidth over time", "bandwidth (MiB/s)", SB_AXIS_LIN, bw, 1);
		job_chart(rp, ji, "IOPS over time", "IOPS (I/Os per s)", SB_AXIS_LIN, iops, 1);
		job_chart(rp, ji, "Completion latency over time", "latency (us, log)", SB_AXIS_LOG, lat, 4);
		lat_charts(rp, ji);
		sb_rep_section_end(rp);
	}
}

/* ---- host ---- */

static void host_chart(struct sb_rep *rp, const char *title, const char *ylabel,
		       const struct line_spec *ls, unsigned nls)
{
	struct sb_axis x = { SB_AXIS_LIN, "time (s)", 0, 0, 0 }, y = { SB_AXIS_LIN, ylabel, 0, 0, 0 };
	struct sb_chart c;
	int any = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (!any)
				return;
			sb_chart_begin(&c, rp->o, title, &x, &y);
		}
		unsigned color = 0;
		for (unsigned ri = 0; ri < rp->n; ri++) {
			const struct sb_jval *ser = sb_jv_path(rp->r[ri].root, "host/series");
			for (unsigned k = 0; k < nls; k++, color++) {
				struct sb_rep_ts s;
				char name[256];
				if (!sb_rep_series(ser, ls[k].path, ls[k].per_s, ls[k].scale, 0, &s))
					continue;
				any = 1;
				if (pass == 0)
					sb_rep_ts_axes(&s, &x, &y);
				else
					sb_rep_ts_draw(&c, &s, color, ls[k].dash,
						       sb_rep_name(rp, ri, ls[k].what, name, sizeof(name)));
				sb_rep_ts_free(&s);
			}
		}
	}
	sb_chart_end(&c);
}

/* per-CPU heat strip from each sample's "cpus" array (% per CPU), or, for
 * a result without one, the least busy, average and busiest CPU */
static void cpu_strip(struct sb_rep *rp, unsigned ri, const struct sb_jval *ser)
{
	static const char *const mam[] = { "busiest", "average", "least busy" };
	static const char *const keys[] = { "cpu_max", "cpu_avg", "cpu_min" };
	size_t ns = sb_jv_len(ser), nrow = 0;
	for (const struct sb_jval *e = ser ? ser->child : NULL; e; e = e->next) {
		size_t n = sb_jv_len(sb_jv_get(e, "cpus"));
		nrow = n > nrow ? n : nrow;
	}
	int percpu = nrow > 0;
	if (!percpu)
		nrow = sb_jv_get(sb_jv_at(ser, 0), "cpu_avg") ? 3 : 0;
	if (!nrow || !ns || nrow > 4096)
		return;
	unsigned ncol = ns < 340 ? (unsigned)ns : 340;
	float *v = calloc(nrow * ncol, sizeof(float));
	unsigned *cnt = calloc(ncol, sizeof(unsigned));
	if (!v || !cnt) {
		free(v);
		free(cnt);
		return;
	}
	size_t i = 0;
	for (const struct sb_jval *e = ser->child; e; e = e->next, i++) {
		unsigned col = (unsigned)(i * ncol / ns);
		size_t r = 0;
		const struct sb_jval *cpus = sb_jv_get(e, "cpus");
		for (const struct sb_jval *c = cpus ? cpus->child : NULL; percpu && c; c = c->next, r++)
			v[r * ncol + col] += (float)c->num;
		for (r = 0; !percpu && r < 3; r++)
			v[r * ncol + col] += (float)sb_jv_num(sb_jv_get(e, keys[r]), 0);
		cnt[col]++;
	}
	for (size_t r = 0; r < nrow; r++)
		for (unsigned c = 0; c < ncol; c++)
			v[r * ncol + c] = cnt[c] ? v[r * ncol + c] / (float)cnt[c] : 0;
	char title[300];
	if (percpu)
		snprintf(title, sizeof(title), "Per-CPU utilization (%s, %zu CPUs)", rp->r[ri].label, nrow);
	else
		snprintf(title, sizeof(title), "CPU utilization strip (%s: busiest, average and least "
			 "busy CPU; the result has no per-CPU series)", rp->r[ri].label);
	sb_svg_strip(rp->o, title, "cpu", percpu ? NULL : mam, (unsigned)nrow, ncol, v,
		     sb_jv_num(sb_jv_get(ser->child, "t_ms"), 0) / 1000.0,
		     sb_jv_num(sb_jv_get(sb_jv_at(ser, ns - 1), "t_ms"), 0) / 1000.0);
	free(v);
	free(cnt);
}

static void host_summary(struct sb_rep *rp, unsigned ri, const struct sb_jval *host)
{
	struct sb_out *o = rp->o;
	sb_out_puts(o, "<h3>Host summary");
	if (rp->n > 1) {
		sb_out_puts(o, ": ");
		sb_out_esc(o, rp->r[ri].label);
	}
	sb_out_puts(o, "</h3>\n<details><summary>the host's figures, key by key</summary>\n"
		    "<table class=\"kv\">\n");
	for (const struct sb_jval *c = host->child; c; c = c->next) {
		if (!strcmp(c->key, "series") || sb_jv_get(c, "absent"))
			continue;
		sb_out_puts(o, "<tr><th>");
		sb_out_esc(o, c->key);
		sb_out_puts(o, "</th><td>");
		sb_rep_value(o, c, 1);
		sb_out_puts(o, "</td></tr>\n");
	}
	sb_out_puts(o, "</table></details>\n");
}

#define MIB (1.0 / 1048576)   /* the host charts are in MiB, as the rest of the report */

/* a result's host series has a GPU reading */
static int any_gpu(const struct sb_rep *rp)
{
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *ser = sb_jv_path(rp->r[ri].root, "host/series");
		for (const struct sb_jval *e = ser ? ser->child : NULL; e; e = e->next)
			if (sb_jv_get(e, "gpu_util_pct"))
				return 1;
	}
	return 0;
}

void sb_rep_host(struct sb_rep *rp)
{
	int any = 0;
	for (unsigned ri = 0; ri < rp->n; ri++)
		any |= sb_jv_get(rp->r[ri].root, "host") != NULL;
	if (!any)
		return;
	sb_rep_section(rp, "Host");
	static const struct line_spec cpu[] = {
		{ "cpu_avg", "average", 0, 0, 1 }, { "cpu_max", "busiest CPU", 0, 1, 1 },
	};
	static const struct line_spec mem[] = { { "mem_pct", "used", 0, 0, 1 } };
	static const struct line_spec dirty[] = {
		{ "dirty_bytes", "dirty", 0, 0, 1.0 / 1048576 },
		{ "writeback_bytes", "writeback", 0, 1, 1.0 / 1048576 },
	};
	static const struct line_spec disk[] = {
		{ "disk_read_bytes", "read", 1, 0, MIB }, { "disk_write_bytes", "write", 1, 1, MIB },
	};
	static const struct line_spec util[] = { { "disk_util_pct", "busy", 0, 0, 1 } };
	static const struct line_spec net[] = {
		{ "net_ext_sent", "sent", 1, 0, MIB }, { "net_ext_recv", "received", 1, 1, MIB },
		{ "net_lo_sent", "loopback sent", 1, 0, MIB }, { "ib_xmit_bytes", "IB sent", 1, 0, MIB },
		{ "ib_rcv_bytes", "IB received", 1, 1, MIB },
	};
	static const struct line_spec rapl[] = { { "rapl_watts", "RAPL", 0, 0, 1 },
						 { "gpu_power_w", "GPU", 0, 1, 1 } };
	static const struct line_spec pcie[] = { { "gpu_pcie_rx_mbps", "to the GPUs", 0, 0, 1e6 * MIB },
						 { "gpu_pcie_tx_mbps", "from the GPUs", 0, 1, 1e6 * MIB } };
	static const struct line_spec gpu[] = { { "gpu_util_pct", "GPU busy", 0, 0, 1 },
						{ "psi_io_some_pct", "I/O pressure (some)", 0, 1, 1 } };
	for (unsigned ri = 0; ri < rp->n; ri++)
		cpu_strip(rp, ri, sb_jv_path(rp->r[ri].root, "host/series"));
	host_chart(rp, "CPU utilization", "utilization (%)", cpu, 2);
	host_chart(rp, "Memory in use", "memory used (% of MemTotal)", mem, 1);
	host_chart(rp, "Dirty and writeback page cache", "page cache (MiB)", dirty, 2);
	host_chart(rp, "Disk throughput", "throughput (MiB/s)", disk, 2);
	host_chart(rp, "Disk utilization", "busy (% of the interval)", util, 1);
	host_chart(rp, "Network throughput", "throughput (MiB/s)", net, 5);
	host_chart(rp, "Power", "power (W)", rapl, 2);
	host_chart(rp, "GPU PCIe traffic (NVML)", "throughput (MiB/s)", pcie, 2);
	/* a host without a GPU has no GPU line: the chart is the I/O pressure */
	host_chart(rp, any_gpu(rp) ? "GPU and I/O pressure" : "I/O pressure", "(% of the interval)",
		   gpu, 2);
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *h = sb_jv_get(rp->r[ri].root, "host");
		if (h && h->type == SB_JOBJ)
			host_summary(rp, ri, h);
	}
	sb_rep_section_end(rp);
}
