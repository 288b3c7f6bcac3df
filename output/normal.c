/* normal.c: the human-readable report, laid out like fio's: one block per job
 * (IOPS and bandwidth first, then latencies, percentiles, samples, latency
 * distribution, CPU and I/O depths), the run status of each group, and the
 * disk statistics, the host counters and, when jobs differ in one option, a
 * side-by-side comparison table per set of such jobs.  Units scale with the
 * numbers (KiB/MiB/GiB, nsec/usec/msec); kb_base=1000 puts SI units first,
 * unit_base=1 shows bits. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output/compare.h"
#include "output/derive.h"
#include "output/host.h"
#include "output/output.h"
#include "output/sweep.h"
#include "output/sysinv.h"
#include "output/units.h"
#include "output/verify.h"
#include "parse/workloads.h"
#include "stats/mixed.h"

#define PCTL_PER_LINE 4
#define LAT_PER_LINE 5

struct fmt_ctx {
	unsigned base, alt;  /* primary and secondary unit base: 1024/1000 */
	int bits;
};

static void lat_line(FILE *f, const char *name, const struct sb_stat *s)
{
	char mn[32], mx[32];
	double dev = sb_stat_stddev(s);
	struct sb_lat_unit u = sb_lat_unit_pick(s->min, s->max, dev, 1);
	sb_out_fmt_scaled(mn, sizeof(mn), (double)s->min / u.div, 1000, 6);
	sb_out_fmt_scaled(mx, sizeof(mx), (double)s->max / u.div, 1000, 6);
	fprintf(f, "%s (%s): min=%s, max=%s, avg=%5.2f, stdev=%5.2f\n", name, u.name, mn, mx,
		s->mean / u.div, dev / u.div);
}

static void pctl_table(FILE *f, const char *name, const struct sb_job_result *j,
		       const struct sb_shist *h)
{
	const double *list;
	unsigned n = sb_out_pctl(j, &list);
	uint64_t lo = UINT64_MAX, hi = 0, v[SB_PCTL_MAX];
	if (n > SB_PCTL_MAX)
		n = SB_PCTL_MAX;
	for (unsigned i = 0; i < n; i++) {
		v[i] = sb_shist_percentile(h, list[i]);
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	struct sb_lat_unit u = sb_lat_unit_pick(lo, hi, 0.0, 0);
	fprintf(f, "%s percentiles (%s):\n", name, u.name);
	for (unsigned i = 0; i < n; i++) {
		if (i % PCTL_PER_LINE == 0)
			fputs("     |", f);
		fprintf(f, " %5.2fth=[%5" PRIu64 "]%s", list[i], (uint64_t)((double)v[i] / u.div),
			i + 1 < n ? "," : "");
		if (i % PCTL_PER_LINE == PCTL_PER_LINE - 1 || i + 1 == n)
			fputc('\n', f);
	}
}

static void samples_lines(FILE *f, const struct sb_job_result *j, const struct sb_group_result *g,
			  int d, const struct fmt_ctx *c)
{
	const struct sb_stat *bw = &j->st.bw_samples[d], *io = &j->st.iops_samples[d];
	if (bw->n) {
		double k = (double)c->base, mul = c->bits ? 8.0 : 1.0;
		double mn = (double)bw->min * mul, mx = (double)bw->max * mul;
		double mean = bw->mean * mul, dev = sb_stat_stddev(bw) * mul;
		const char *unit = c->bits ? (c->base == 1024 ? "Kibit" : "kbit")
					   : (c->base == 1024 ? "KiB" : "kB");
		if (c->base == 1000) { /* samples are KiB/s */
			mn *= 1.024, mx *= 1.024, mean *= 1.024, dev *= 1.024;
		}
		if (mean > k * k) {
			mn /= k, mx /= k, mean /= k, dev /= k;
			unit = c->bits ? (c->base == 1024 ? "Mibit" : "Mbit")
				       : (c->base == 1024 ? "MiB" : "MB");
		}
		fprintf(f, "   bw (%5s/s): min=%5.0f, max=%5.0f, per=%3.2f%%, avg=%5.2f, "
			   "stdev=%5.2f, samples=%" PRIu64 "\n",
			unit, mn, mx, sb_out_bw_agg_pct(j, g, d), mean, dev, bw->n);
	}
	if (io->n)
		fprintf(f, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.2f, "
			   "stdev=%5.2f, samples=%" PRIu64 "\n",
			io->min, io->max, io->mean, sb_stat_stddev(io), io->n);
}

/* direction d of j as "name: IOPS=..." and its latency and sample lines */
static void ddir_block(FILE *f, const char *name, const struct sb_results *r,
		       const struct sb_job_result *j, int d, const struct fmt_ctx *c)
{
	const struct sb_tstats *st = &j->st;
	double bw = (double)sb_out_bw_bytes(j, d);
	char iops[32], b1[32], b2[32], io[32];
	int clat_p = j->spec ? j->spec->clat_percentiles : 1;
	int lat_p = j->spec ? j->spec->lat_percentiles : 0;
	int slat_p = j->spec ? j->spec->slat_percentiles : 0;
	unsigned sig = j->spec && j->spec->significant_figures ? j->spec->significant_figures : 4;

	sb_out_fmt_scaled(iops, sizeof(iops), sb_out_iops(j, d), 1000, sig);
	sb_out_fmt_bw_sig(b1, sizeof(b1), bw, c->base, c->bits, sig);
	sb_out_fmt_bw_sig(b2, sizeof(b2), bw, c->alt, c->bits, sig);
	sb_out_fmt_size_sig(io, sizeof(io), (double)st->io_bytes[d], c->base, sig);
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n", name, iops, b1,
		b2, io, j->runtime_ms[d]);
	if (st->slat[d].n)
		lat_line(f, "    slat", &st->slat[d]);
	if (st->clat[d].n)
		lat_line(f, "    clat", &st->clat[d]);
	if (st->lat[d].n)
		lat_line(f, "     lat", &st->lat[d]);
	bool prios = sb_out_prios_shown(st, d);
	const char *ptype = lat_p ? "lat" : "clat";
	char pname[96];
	for (unsigned i = 0; prios && i < st->nprio[d]; i++) { /* fio 3.33 stat.c:590-604 */
		const struct sb_prio_lat *e = &st->prio[d][i];
		snprintf(pname, sizeof(pname), "    %s prio %u/%u", ptype, e->ioprio >> 13u,
			 e->ioprio & 7u);
		if (e->s.n)
			lat_line(f, pname, &e->s);
	}
	if (slat_p && st->slat[d].n)
		pctl_table(f, "    slat", j, &st->slat_h[d]);
	if (clat_p && st->clat[d].n)
		pctl_table(f, "    clat", j, &st->clat_h[d]);
	if (lat_p && st->lat[d].n)
		pctl_table(f, "     lat", j, &st->lat_h[d]);
	uint64_t all = lat_p ? st->lat[d].n : st->clat[d].n;
	for (unsigned i = 0; prios && (clat_p || lat_p) && i < st->nprio[d]; i++) {
		const struct sb_prio_lat *e = &st->prio[d][i]; /* fio 3.33 stat.c:620-650 */
		if (!e->s.n)
			continue;
		snprintf(pname, sizeof(pname), "    %s prio %u/%u (%.2f%% of IOs)", ptype,
			 e->ioprio >> 13u, e->ioprio & 7u,
			 all ? 100.0 * (double)e->s.n / (double)all : 0.0);
		pctl_table(f, pname, j, &e->h);
	}
	samples_lines(f, j, sb_out_group(r, j->groupid), d, c);
}

static void lat_dist_row(FILE *f, const char *unit, const double *pct, unsigned n)
{
	unsigned shown = 0;
	for (unsigned i = 0; i < n; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (shown % LAT_PER_LINE == 0)
			fprintf(f, "%s  lat (%s)   : ", shown ? "\n" : "", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s=%.2f%%", sb_lat_edge_names[i], pct[i] < 0.01 ? 0.01 : pct[i]);
		shown++;
	}
	if (shown)
		fputc('\n', f);
}

static void dist_row(FILE *f, const char *label, const char *const *names, const uint64_t *counts)
{
	double pct[SB_DEPTH_BUCKETS];
	sb_out_depthdist(counts, pct);
	fputs(label, f);
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++)
		fprintf(f, "%s%s=%.1f%%", i ? ", " : "", names[i], pct[i]);
	fputc('\n', f);
}

/* libcufile's path to GPU memory, and iomem=cudamalloc's copies
 * (time apart from clat) */
static void gpu_lines(FILE *f, const struct sb_job_result *j)
{
	const struct sb_tstats *st = &j->st;
	if (st->gds_mode[0])
		fprintf(f, "  gpu          : gds_mode=%s\n", st->gds_mode);
	if (st->eng_names) { /* the engine's counters (s3, http) */
		fprintf(f, "  engine       :");
		for (unsigned i = 0; i < st->eng_n; i++)
			fprintf(f, "%s %s=%" PRIu64, i ? "," : "", st->eng_names[i], st->eng_ctr[i]);
		fprintf(f, "\n");
	}
	if (st->ttfb[SB_DDIR_READ].n)
		lat_line(f, "  ttfb (reads)", &st->ttfb[SB_DDIR_READ]);
	if (st->ttfb[SB_DDIR_WRITE].n)
		lat_line(f, "  ttfb (writes)", &st->ttfb[SB_DDIR_WRITE]);
	if (st->gpu_copy[SB_DDIR_READ].n)
		lat_line(f, "  gpu copy H2D (after reads)", &st->gpu_copy[SB_DDIR_READ]);
	if (st->gpu_copy[SB_DDIR_WRITE].n)
		lat_line(f, "  gpu copy D2H (before writes)", &st->gpu_copy[SB_DDIR_WRITE]);
}

static void job_tail(FILE *f, const struct sb_job_result *j)
{
	const struct sb_tstats *st = &j->st;
	struct sb_latdist ld;

	sb_out_latdist(st, &ld);
	lat_dist_row(f, "nsec", ld.ns, SB_LAT_NS_N);
	lat_dist_row(f, "usec", ld.us, SB_LAT_US_N);
	lat_dist_row(f, "msec", ld.ms, SB_LAT_MS_N);
	if (st->sync_lat.n) { /* fio's sync block */
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		lat_line(f, "    sync", &st->sync_lat);
		pctl_table(f, "    sync", j, &st->sync_h);
	}
	fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64
		   ", minf=%" PRIu64 "\n",
		j->usr_cpu, j->sys_cpu, st->ctx, st->majf, st->minf);
	gpu_lines(f, j);
	/* I/Os that no depth was recorded for (an ML workload counts its I/O
	 * at the end of the job, kvcache's mlperf profile issues it itself):
	 * no row of 0% in every column, which would say the queue was empty;
	 * a plain job without I/O keeps them, as in fio */
	uint64_t deep = 0, ios = st->total_ios[0] + st->total_ios[1] + st->total_ios[2];
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++)
		deep += st->iodepth_level[i];
	if (deep || (!ios && !j->wl)) {
		dist_row(f, "  IO depths    : ", sb_depth_level_names, st->iodepth_level);
		dist_row(f, "     submit    : ", sb_depth_batch_names, st->iodepth_submit);
		dist_row(f, "     complete  : ", sb_depth_batch_names, st->iodepth_complete);
	}
	fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		   " short=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 dropped=%" PRIu64 ",%" PRIu64
		   ",%" PRIu64 ",0\n",
		st->total_ios[0], st->total_ios[1], st->total_ios[2], st->sync_lat.n,
		st->short_ios[0], st->short_ios[1], st->short_ios[2], st->drop_ios[0],
		st->drop_ios[1], st->drop_ios[2]);
	if (j->spec && (j->spec->continue_on_error || j->spec->ignore_error))
		fprintf(f, "     errors    : total=%" PRIu64 ", first_error=%d/<%s>\n", st->total_err,
			st->first_error, strerror(st->first_error));
	if (j->latency_depth && j->spec) /* fio: latency_target's (ns), window (us), the depth found */
		fprintf(f, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, depth=%u\n",
			j->spec->latency_target_us * 1000, j->spec->latency_window_us,
			j->spec->latency_percentile, j->latency_depth);
	else
		fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, depth=%u\n",
			j->spec ? j->spec->iodepth : 1);
	if (j->ss) { /* fio: "steadystate  : attained=yes, bw=..., iops=..., iops mean dev=0.050%" */
		const struct sb_steady *ss = j->ss;
		char b1[32], b2[32];
		sb_out_fmt_bw(b1, sizeof(b1), ss->bw_mean, 1024, 0);
		sb_out_fmt_bw(b2, sizeof(b2), ss->bw_mean, 1000, 0);
		bool iops = ss->kind == SB_SS_IOPS || ss->kind == SB_SS_IOPS_SLOPE;
		bool slope = ss->kind == SB_SS_IOPS_SLOPE || ss->kind == SB_SS_BW_SLOPE;
		fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%" PRIu64 ", %s %s=%.3f%s\n",
			ss->attained ? "yes" : "no", b1, b2, (uint64_t)ss->iops_mean,
			iops ? "iops" : "bw", slope ? "slope" : "mean dev", ss->criterion,
			ss->pct ? "%" : "");
	}
}

/* unified_rw_reporting: "mixed:" and its lines; fio 3.33 prints
 * "mixed: IOPS=0, BW=0 (0)(0B/...)" in the first line under =both, storbench
 * the merged figures */
static int mixed_block(FILE *f, const struct sb_results *r, const struct sb_job_result *j,
		       const struct fmt_ctx *c)
{
	struct sb_out_mixed mx;
	int rc = sb_out_mixed_open(&mx, r, j);
	if (rc)
		return rc;
	if (mx.job->st.total_ios[SB_DDIR_READ] || mx.job->st.io_bytes[SB_DDIR_READ])
		ddir_block(f, "mixed", &mx.res, mx.job, SB_DDIR_READ, c);
	/* fio: under =mixed the issued counts are the merged ones too */
	if (sb_out_unified_job(j) == SB_UNIFIED_MIXED) {
		mx.job->ss = j->ss;   /* borrowed for its line */
		job_tail(f, mx.job);
	}
	sb_out_mixed_close(&mx);
	return 0;
}

static int job_block(FILE *f, const struct sb_results *r, const struct sb_job_result *j)
{
	unsigned unified = sb_out_unified_job(j);
	int rc = 0;
	const struct sb_group_result *g = sb_out_group(r, j->groupid);
	struct fmt_ctx c;
	char tbuf[64];
	struct tm tm;

	c.base = sb_out_kb_base(j, g);
	c.alt = c.base == 1024 ? 1000 : 1024;
	c.bits = sb_out_bits(j, g);
	if (!localtime_r(&r->timestamp, &tm) ||
	    !strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", &tm))
		tbuf[0] = 0;
	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d", j->name, j->groupid,
		j->nthreads ? j->nthreads : 1, j->error);
	if (j->error) { /* fio: err=28 (file:..., error=No space left on device) */
		char text[SB_ERRPATH_MAX + 256];
		fprintf(f, " (%s)", sb_tstats_error_text(&j->st, text, sizeof(text)));
	}
	fprintf(f, ": %s\n", tbuf);
	if (j->spec && j->spec->description && j->spec->description[0])
		fprintf(f, "  Description  : [%s]\n", j->spec->description);
	for (int d = 0; d < SB_DDIR_N && unified != SB_UNIFIED_MIXED; d++)
		if ((j->st.total_ios[d] || j->st.io_bytes[d]) && j->runtime_ms[d]) /* fio 3.33 stat.c
			* show_ddir_status: a direction that took no time (verify_only's dry run) is not shown */
			ddir_block(f, sb_ddir_names[d], r, j, d, &c);
	if (unified != SB_UNIFIED_NONE)
		rc = mixed_block(f, r, j, &c);
	if (unified != SB_UNIFIED_MIXED)
		job_tail(f, j);
	if (j->verify)
		sb_normal_verify(f, j->verify);
	if (j->wl && j->wl->fig->normal)
		j->wl->fig->normal(f, j->wl);
	return rc;
}

/* the "READ:", "WRITE:", "TRIM:" lines of g, or from..to-1 of them */
static void group_lines(FILE *f, const struct sb_group_result *g, int from, int to,
			const char *const *up)
{
	unsigned base = g->kb_base == 1000 ? 1000 : 1024, alt = base == 1024 ? 1000 : 1024;
	int bits = g->unit_base == 1;

	for (int d = from; d < to; d++) {
		const struct sb_group_dir *gd = &g->dir[d];
		char a1[32], a2[32], mn1[32], mx1[32], mn2[32], mx2[32], io1[32], io2[32];
		if (!gd->max_run_ms) /* fio 3.33 stat.c show_group_stats: no time, no line */
			continue;
		unsigned sig = g->sig_figs ? g->sig_figs : 4;
		sb_out_fmt_bw_sig(a1, sizeof(a1), (double)gd->agg_bw, base, bits, sig);
		sb_out_fmt_bw_sig(a2, sizeof(a2), (double)gd->agg_bw, alt, bits, sig);
		sb_out_fmt_bw_sig(mn1, sizeof(mn1), (double)gd->min_bw, base, bits, sig);
		sb_out_fmt_bw_sig(mx1, sizeof(mx1), (double)gd->max_bw, base, bits, sig);
		sb_out_fmt_bw_sig(mn2, sizeof(mn2), (double)gd->min_bw, alt, bits, sig);
		sb_out_fmt_bw_sig(mx2, sizeof(mx2), (double)gd->max_bw, alt, bits, sig);
		sb_out_fmt_size_sig(io1, sizeof(io1), (double)gd->io_bytes, base, sig);
		sb_out_fmt_size_sig(io2, sizeof(io2), (double)gd->io_bytes, alt, sig);
		fprintf(f, "%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64
			   "msec\n",
			up[d], a1, a2, mn1, mx1, mn2, mx2, io1, io2, gd->min_run_ms, gd->max_run_ms);
	}
}

/* unified_rw_reporting: "MIXED:" alone (=mixed) or after the others (=both) */
static void group_block(FILE *f, const struct sb_results *r, const struct sb_group_result *g)
{
	static const char *const up[SB_DDIR_N] = { "READ", "WRITE", "TRIM" };
	static const char *const mixed[1] = { "MIXED" };
	unsigned unified = sb_out_unified_group(r, g->groupid);
	struct sb_group_result gm;

	fprintf(f, "\nRun status group %u (all jobs):\n", g->groupid);
	if (unified != SB_UNIFIED_MIXED)
		group_lines(f, g, 0, SB_DDIR_N, up);
	if (unified != SB_UNIFIED_NONE && !sb_group_mixed(r, g->groupid, unified, &gm))
		group_lines(f, &gm, SB_DDIR_READ, SB_DDIR_READ + 1, mixed);
}

static void disk_block(FILE *f, const struct sb_results *r)
{
	if (!r->ndisks)
		return;
	fputs("\nDisk stats (read/write):\n", f);
	for (size_t i = 0; i < r->ndisks; i++) {
		const struct sb_disk_util *du = &r->disks[i];
		fprintf(f, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
			   ", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%.2f%%\n",
			du->name, du->read_ios, du->write_ios, du->read_merges, du->write_merges,
			du->read_ticks, du->write_ticks, du->in_queue, du->util);
	}
}

/* "35.1us": latency with its unit, 3-4 significant digits */
static char *fmt_ns(char *buf, size_t len, uint64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double v = (double)ns;
	unsigned u = 0;
	while (v >= 1000.0 && u < 3) {
		v /= 1000.0;
		u++;
	}
	snprintf(buf, len, "%.*f%s", u == 0 || v >= 100.0 ? 0 : v >= 10.0 ? 1 : 2, v, unit[u]);
	return buf;
}

static void cmp_row(FILE *f, const struct sb_results *r, const struct sb_cmp_row *row, int w)
{
	const struct sb_job_result *j = row->job;
	const struct sb_group_result *g = sb_out_group(r, j->groupid);
	char iops[32], bw[32], p50[32], p99[32], p999[32];

	sb_out_fmt_scaled(iops, sizeof(iops), row->iops, 1000, 4);
	sb_out_fmt_bw(bw, sizeof(bw), (double)row->bw_bytes, sb_out_kb_base(j, g), sb_out_bits(j, g));
	fprintf(f, "  %-*s %8s %12s %9s %9s %9s %6.1f%% %6.1f%% %10.2f %6.2f  %s\n", w, row->value,
		iops, bw, fmt_ns(p50, sizeof(p50), row->clat_p50_ns),
		fmt_ns(p99, sizeof(p99), row->clat_p99_ns),
		fmt_ns(p999, sizeof(p999), row->clat_p99_9_ns), row->usr_cpu, row->sys_cpu,
		row->cpu_us_per_io, row->ratio, j->name);
}

static void cmp_table(FILE *f, const struct sb_results *r, const struct sb_cmp_set *s)
{
	int w = (int)strlen(s->option);
	for (size_t i = 0; i < s->nrows; i++)
		if ((int)strlen(s->rows[i].value) > w)
			w = (int)strlen(s->rows[i].value);
	fprintf(f, "\nComparison by %s (ratio: %s relative to the first row):\n", s->option,
		strcmp(s->metric, "iops") ? "bandwidth" : "IOPS");
	fprintf(f, "  %-*s %8s %12s %9s %9s %9s %7s %7s %10s %6s  %s\n", w, s->option, "IOPS", "BW",
		"clat p50", "p99", "p99.9", "usr", "sys", "CPU us/IO", "ratio", "job");
	for (size_t i = 0; i < s->nrows; i++)
		cmp_row(f, r, &s->rows[i], w);
}

static int cmp_block(FILE *f, const struct sb_results *r)
{
	struct sb_cmp c;
	int rc = sb_cmp_build(r, &c);
	for (size_t i = 0; i < c.nsets; i++)
		cmp_table(f, r, &c.sets[i]);
	sb_cmp_free(&c);
	return rc;
}

/* fio's name for the rw= value (ddir_str) */
static const char *rw_name(unsigned rw)
{
	bool rnd = rw & SB_RW_RANDOM;
	switch (rw & (SB_RW_READ | SB_RW_WRITE | SB_RW_TRIM)) {
	case SB_RW_READ: return rnd ? "randread" : "read";
	case SB_RW_WRITE: return rnd ? "randwrite" : "write";
	case SB_RW_READ | SB_RW_WRITE: return rnd ? "randrw" : "rw";
	case SB_RW_TRIM: return rnd ? "randtrim" : "trim";
	case SB_RW_TRIM | SB_RW_WRITE: return rnd ? "randtrimwrite" : "trimwrite";
	default: return "none";
	}
}

/* The lines fio prints before a run, one per job section ("..." under it
 * for numjobs > 1), then the version and how many workers start:
 *   a: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=null, iodepth=1
 *   storbench-0.1.0
 *   Starting 3 processes
 * storbench runs every job as threads; "processes" follows fio's thread=0
 * wording so that what a script matches stays the same. */
static void header_block(FILE *f, const struct sb_results *r)
{
	const struct sb_joblist *jl = r->joblist;
	unsigned nthr = 0, nproc = 0;
	for (size_t i = 0; i < jl->njobs; i++) {
		const struct sb_jobspec *s = &jl->jobs[i];
		unsigned base = s->kb_base == 1000 ? 1000 : 1024;
		char b[SB_DDIR_N][2][32];
		for (int d = 0; d < SB_DDIR_N; d++) {
			sb_out_fmt_size(b[d][0], sizeof(b[d][0]), (double)s->bs_min[d], base);
			sb_out_fmt_size(b[d][1], sizeof(b[d][1]), (double)s->bs_max[d], base);
		}
		const struct sb_parse_workload *wl = sb_parse_workload_find(s->workload);
		if (wl) /* checkpoint, train, kvcache: their own I/O, not rw= and bs= */
			fprintf(f, "%s: (g=%u): workload=%s, ioengine=%s\n", s->name, s->groupid,
				wl->name, s->ioengine);
		else
			fprintf(f, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
				"iodepth=%u\n", s->name, s->groupid, rw_name(s->rw), b[0][0], b[0][1],
				b[1][0], b[1][1], b[2][0], b[2][1], s->ioengine, s->iodepth);
		if (s->numjobs > 1)
			fputs("...\n", f);
		*(s->thread ? &nthr : &nproc) += s->numjobs ? s->numjobs : 1;
	}
	fprintf(f, "%s\nStarting ", r->version ? r->version : "storbench");
	if (nthr)
		fprintf(f, "%u thread%s%s", nthr, nthr > 1 ? "s" : "", nproc ? " and " : "");
	if (nproc)
		fprintf(f, "%u process%s", nproc, nproc > 1 ? "es" : "");
	fputs("\n\n", f);
}

int sb_write_normal(FILE *f, const struct sb_results *r)
{
	if (r->interrupted)
		fputs("Run interrupted: the results below are partial.\n\n", f);
	if (r->mpi.ranks) /* MPI: the jobs below are merged over the ranks */
		fprintf(f, "MPI: %u ranks on %u host(s) (at most %u per host), merged; start skew %.3f ms, "
			"end skew %.3f ms\n\n", r->mpi.ranks, r->mpi.hosts, r->mpi.ranks_per_host,
			(double)r->mpi.start_skew_ns / 1e6, (double)r->mpi.end_skew_ns / 1e6);
	if (r->joblist && r->joblist->njobs && !r->sweep)
		header_block(f, r);
	int jrc = 0;
	for (size_t i = 0; i < r->njobs; i++)
		if (job_block(f, r, &r->jobs[i]) && !jrc)
			jrc = -ENOMEM;
	for (size_t i = 0; i < r->ngroups; i++)
		group_block(f, r, &r->groups[i]);
	disk_block(f, r);
	if (r->host) {
		fputc('\n', f);
		sb_out_host_normal(f, r->host);   /* output/host.c */
		if (r->nperf_per_io) {
			fputs("    perf per I/O:", f);
			for (unsigned i = 0; i < r->nperf_per_io; i++)
				fprintf(f, " %s=%.3f", r->perf_per_io[i].event, r->perf_per_io[i].per_io);
			fputc('\n', f);
		}
	}
	int rc = cmp_block(f, r);
	if (r->sweep) /* output/sweep.c */
		sb_normal_sweep(f, r);
	sb_normal_sysinv(f, r->sys ? r->sys : r->sweep ? r->sweep->sys : NULL);   /* output/sysinv.c */
	return ferror(f) ? -EIO : rc ? rc : jrc;
}
