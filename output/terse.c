/* terse.c: fio's terse format, version 3: one ';'-separated line per job
 * with 121 fields (read and write status, CPU, I/O depths, latency
 * distribution), 9 more per disk, then the description when the job has one.
 * unified_rw_reporting: mixed writes the merged direction in place of read
 * and write (80 fields), both after them (162), as fio 3.33 does.
 * Field 2 names storbench's version instead of fio's.  Latencies are in
 * microseconds, bandwidth in KiB/s, as fio writes them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "output/derive.h"
#include "output/output.h"

#define TERSE_PCTL_SLOTS 20  /* completion latency percentiles, fixed count */

static void terse_lat(FILE *f, const struct sb_stat *s)
{
	if (!s->n) {
		fputs(";0;0;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", s->min / 1000, s->max / 1000, s->mean / 1000.0,
		sb_stat_stddev(s) / 1000.0);
}

/* clat percentiles (or total-latency ones with lat_percentiles), in us */
static void terse_pctl(FILE *f, const struct sb_job_result *j, int d)
{
	const struct sb_shist *h = NULL;
	const struct sb_stat *s = NULL;
	const double *list;
	unsigned n = sb_out_pctl(j, &list);
	int lat = j->spec ? j->spec->lat_percentiles : 0;
	int clat = j->spec ? j->spec->clat_percentiles : 1;

	if (lat) {
		h = &j->st.lat_h[d];
		s = &j->st.lat[d];
	} else if (clat) {
		h = &j->st.clat_h[d];
		s = &j->st.clat[d];
	}
	if (!h || !s->n)
		n = 0;
	for (unsigned i = 0; i < TERSE_PCTL_SLOTS; i++) {
		if (i >= n)
			fputs(";0%=0", f);
		else
			fprintf(f, ";%f%%=%" PRIu64, list[i], sb_shist_percentile(h, list[i]) / 1000);
	}
}

static void terse_ddir(FILE *f, const struct sb_results *r, const struct sb_job_result *j, int d)
{
	const struct sb_tstats *st = &j->st;
	const struct sb_stat *bw = &st->bw_samples[d];

	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, st->io_bytes[d] >> 10,
		sb_out_bw_bytes(j, d) / 1024, (uint64_t)sb_out_iops(j, d), j->runtime_ms[d]);
	terse_lat(f, &st->slat[d]);
	terse_lat(f, &st->clat[d]);
	terse_pctl(f, j, d);
	terse_lat(f, &st->lat[d]);
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", sb_stat_min(bw), bw->max,
		sb_out_bw_agg_pct(j, sb_out_group(r, j->groupid), d), bw->n ? bw->mean : 0.0,
		sb_stat_stddev(bw));
}

static void terse_dists(FILE *f, const struct sb_tstats *st)
{
	double pct[SB_DEPTH_BUCKETS];
	struct sb_latdist ld;

	sb_out_depthdist(st->iodepth_level, pct);
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++)
		fprintf(f, ";%3.1f%%", pct[i]);
	sb_out_latdist(st, &ld);
	/* the "<=2 us" field holds everything below 2 us, nanoseconds included */
	for (int i = 0; i < SB_LAT_NS_N; i++)
		ld.us[0] += ld.ns[i];
	for (int i = 0; i < SB_LAT_US_N; i++)
		fprintf(f, ";%3.2f%%", ld.us[i]);
	for (int i = 0; i < SB_LAT_MS_N; i++)
		fprintf(f, ";%3.2f%%", ld.ms[i]);
}

static int terse_job(FILE *f, const struct sb_results *r, const struct sb_job_result *j)
{
	const struct sb_tstats *st = &j->st;
	unsigned unified = sb_out_unified_job(j);

	fprintf(f, "3;%s;%s;%u;%d", r->version ? r->version : "storbench-" SB_VERSION, j->name,
		j->groupid, j->error);
	if (unified != SB_UNIFIED_MIXED) {
		terse_ddir(f, r, j, SB_DDIR_READ);
		terse_ddir(f, r, j, SB_DDIR_WRITE);
	}
	if (unified != SB_UNIFIED_NONE) { /* fio 3.33: mixed alone (80 fields) or after write (162) */
		struct sb_out_mixed mx;
		if (sb_out_mixed_open(&mx, r, j)) {
			fputc('\n', f);
			return -ENOMEM;
		}
		terse_ddir(f, &mx.res, mx.job, SB_DDIR_READ);
		sb_out_mixed_close(&mx);
	}
	fprintf(f, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64, j->usr_cpu, j->sys_cpu, st->ctx,
		st->majf, st->minf);
	terse_dists(f, st);
	for (size_t i = 0; i < r->ndisks; i++) {
		const struct sb_disk_util *du = &r->disks[i];
		fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			   ";%" PRIu64 ";%3.2f%%",
			du->name, du->read_ios, du->write_ios, du->read_merges, du->write_merges,
			du->read_ticks, du->write_ticks, du->in_queue, du->util);
	}
	if (j->spec && j->spec->description && j->spec->description[0])
		fprintf(f, ";%s", j->spec->description);
	fputc('\n', f);
	return 0;
}

/* A sweep has no top-level jobs: every finished point writes its jobs'
 * lines (each job merged over the point's repetitions), in run order
 * (HOWTO.md section 10). */
int sb_write_terse(FILE *f, const struct sb_results *r)
{
	int rc = 0;
	for (size_t i = 0; i < r->njobs; i++)
		if (terse_job(f, r, &r->jobs[i]) && !rc)
			rc = -ENOMEM;
	for (size_t p = 0; r->sweep && p < r->sweep->ndone; p++)
		if (sb_write_terse(f, &r->sweep->points[p].merged) && !rc)
			rc = -ENOMEM;
	return ferror(f) ? -EIO : rc;
}
