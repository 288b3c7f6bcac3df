/* csv.c: --export=csv:DIR - the jobs' time series, the host series and
 * the latency histograms as CSV files for pandas and spreadsheets, one file
 * per metric, units in the column names (HOWTO.md, "CSV export").  The
 * values are the JSON document's, printed the same way; the folder and the
 * rule about existing files are csvdir.c's. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/csv.h"
#include "output/derive.h"
#include "output/output.h"
#include "output/timeseries.h"
#include "stats/hist.h"
#include "stats/host.h"
#include "stats/tseries.h"

static bool show_dir(const struct sb_jobspec *s, int d)
{
	return d != SB_DDIR_TRIM || (s && sb_spec_does(s, SB_DDIR_TRIM));
}

/* "job2-rand read" -> "job2-rand_read": letters, digits, '-', '_', '.' */
static void file_name(char *buf, size_t len, const char *prefix, const char *job, const char *metric)
{
	int n = snprintf(buf, len, "%s%s.%s.csv", prefix, job, metric);
	for (char *p = buf + strlen(prefix); n > 0 && *p && p < buf + len - 1; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			*p = '_';
}

struct out {
	struct sb_csv_dir *d;
	int rc;
};

static FILE *open_file(struct out *o, const char *name)
{
	FILE *f = o->rc ? NULL : sb_csv_create(o->d, name);
	if (!f && !o->rc)
		o->rc = -EIO;
	return f;
}

static void close_file(struct out *o, const char *name, FILE *f)
{
	int e = sb_csv_close(o->d, name, f);
	if (e && !o->rc)
		o->rc = e;
}

enum ts_metric { TS_BW, TS_IOPS, TS_CLAT };

static void ts_file(struct out *o, const char *prefix, const struct sb_job_result *j, enum ts_metric m)
{
	static const char *const metric[] = { "bw", "iops", "clat" };
	char name[512];
	file_name(name, sizeof(name), prefix, j->name, metric[m]);
	FILE *f = open_file(o, name);
	if (!f)
		return;
	fputs("time_ms,dur_ms", f);
	for (int d = 0; d <= SB_DDIR_N; d++) { /* SB_DDIR_N: "mixed" (unified_rw_reporting) */
		const char *dn = d == SB_DDIR_N ? "mixed" : sb_ddir_names[d];
		if (!sb_out_ts_col(j, d))
			continue;
		if (m == TS_BW)
			fprintf(f, ",%s_bw_KiBps", dn);
		else if (m == TS_IOPS)
			fprintf(f, ",%s_iops", dn);
		else
			fprintf(f, ",%s_clat_mean_ns,%s_clat_p50_ns,%s_clat_p99_ns,%s_clat_max_ns",
				dn, dn, dn, dn);
	}
	fputc('\n', f);
	for (unsigned i = 0; i < j->nts; i++) {
		const struct sb_ts_sample *s0 = &j->ts[i];
		fprintf(f, "%llu,%llu", (unsigned long long)s0->t_ms,
			(unsigned long long)((s0->dur_ns + 500000) / 1000000));
		for (int c = 0; c <= SB_DDIR_N; c++) {
			struct sb_ts_sample mix;
			int d = c;
			if (!sb_out_ts_col(j, c))
				continue;
			const struct sb_ts_sample *s = sb_out_ts_at(s0, &d, &mix);
			if (m == TS_BW)
				fprintf(f, ",%.3f", (double)sb_ts_bw_bytes(s, d) / 1024.0);
			else if (m == TS_IOPS)
				fprintf(f, ",%f", sb_ts_iops(s, d));
			else
				fprintf(f, ",%llu,%llu,%llu,%llu", (unsigned long long)sb_ts_clat_mean_ns(s, d),
					(unsigned long long)s->d[d].clat_p50_ns,
					(unsigned long long)s->d[d].clat_p99_ns,
					(unsigned long long)s->d[d].clat_max_ns);
		}
		fputc('\n', f);
	}
	close_file(o, name, f);
}

/* one latency histogram (slat, clat or lat): the non-empty buckets of any
 * direction; nothing when no direction has a count */
static void hist_file(struct out *o, const char *prefix, const struct sb_job_result *j,
		      const char *kind, const struct sb_shist *h)
{
	char name[512], metric[32];
	bool any = false;
	for (int d = 0; d < SB_DDIR_N; d++)
		any |= show_dir(j->spec, d) && h[d].n;
	if (!any)
		return;
	snprintf(metric, sizeof(metric), "%s_hist", kind);
	file_name(name, sizeof(name), prefix, j->name, metric);
	FILE *f = open_file(o, name);
	if (!f)
		return;
	fputs("low_ns,high_ns,value_ns", f);
	for (int d = 0; d < SB_DDIR_N; d++)
		if (sb_out_ts_col(j, d))
			fprintf(f, ",%s_count", sb_ddir_names[d]);
	if (sb_out_ts_col(j, SB_DDIR_N)) /* unified_rw_reporting: every direction's */
		fputs(",mixed_count", f);
	fputc('\n', f);
	for (unsigned b = 0; b < SB_HIST_NBUCKETS; b++) {
		uint64_t all = 0;
		for (int d = 0; d < SB_DDIR_N; d++)
			all += show_dir(j->spec, d) ? sb_shist_count(&h[d], b) : 0;
		if (!all)
			continue;
		fprintf(f, "%llu,%llu,%llu", (unsigned long long)sb_hist_bucket_low(b),
			(unsigned long long)sb_hist_bucket_high(b),
			(unsigned long long)sb_hist_bucket_value(b));
		for (int d = 0; d < SB_DDIR_N; d++)
			if (sb_out_ts_col(j, d))
				fprintf(f, ",%llu", (unsigned long long)sb_shist_count(&h[d], b));
		if (sb_out_ts_col(j, SB_DDIR_N))
			fprintf(f, ",%llu", (unsigned long long)all);
		fputc('\n', f);
	}
	close_file(o, name, f);
}

static void job_files(struct out *o, const char *prefix, const struct sb_job_result *j)
{
	ts_file(o, prefix, j, TS_BW);
	ts_file(o, prefix, j, TS_IOPS);
	ts_file(o, prefix, j, TS_CLAT);
	hist_file(o, prefix, j, "clat", j->st.clat_h);
	hist_file(o, prefix, j, "slat", j->st.slat_h);
	hist_file(o, prefix, j, "lat", j->st.lat_h);
}

/* A host series column with its unit: the JSON key when it names one
 * (_pct, _bytes, _watts, _w), else the key with the unit of its family. */
const char *sb_csv_host_col(const char *key, char *buf, size_t len)
{
	static const char *const units[] = { "_pct", "_bytes", "_watts", "_w" };
	size_t n = strlen(key);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t u = strlen(units[i]);
		if (n > u && !strcmp(key + n - u, units[i])) {
			snprintf(buf, len, "%s", key);
			return buf;
		}
	}
	snprintf(buf, len, "%s%s", key, !strncmp(key, "cpu_", 4) ? "_pct" :
		 !strncmp(key, "net_", 4) ? "_bytes" : "");
	return buf;
}

static void host_files(struct out *o, const struct sb_host *h)
{
	struct sb_host_summary *s = malloc(sizeof(*s));
	if (!s) {
		o->rc = o->rc ? o->rc : -ENOMEM;
		return;
	}
	sb_host_summary(h, s);
	struct sb_host_sample *ser = s->nseries ? calloc(s->nseries, sizeof(*ser)) : NULL;
	unsigned n = ser ? sb_host_series(h, ser, s->nseries) : 0;
	/* host.cpu.csv also has each CPU's busy %: cpuN_pct, N the CPU index */
	unsigned np = sb_host_present(h, SB_HOST_CPU) ? sb_host_series_ncpus(h) : 0;
	float *pc = np && n ? malloc((size_t)n * np * sizeof(*pc)) : NULL;
	if (!pc || sb_host_series_cpus(h, pc, n) != n)
		np = 0;
	for (unsigned src = 0; src < SB_HOST_NSRC && !o->rc; src++) {
		const struct sb_host_col *cols = sb_host_cols(src);
		char name[128], col[96];
		if (!sb_host_present(h, src) || cols->kind == SB_HK_END)
			continue;
		snprintf(name, sizeof(name), "host.%s.csv", sb_host_src_name(src));
		FILE *f = open_file(o, name);
		if (!f)
			break;
		fputs("time_ms,dur_ms", f);
		for (const struct sb_host_col *c = cols; c->kind != SB_HK_END; c++)
			fprintf(f, ",%s", sb_csv_host_col(c->key, col, sizeof(col)));
		for (unsigned k = 0; src == SB_HOST_CPU && k < np; k++)
			fprintf(f, ",cpu%u_pct", k);
		fputc('\n', f);
		for (unsigned i = 0; i < n; i++) {
			fprintf(f, "%llu,%llu", (unsigned long long)ser[i].t_ms,
				(unsigned long long)ser[i].dur_ms);
			for (const struct sb_host_col *c = cols; c->kind != SB_HK_END; c++) {
				const union sb_host_val *v = sb_host_col_at(&ser[i], src, c);
				if (c->kind != SB_HK_DBL)
					fprintf(f, ",%llu", (unsigned long long)v->u);
				else if (isfinite(v->d))
					fprintf(f, ",%f", v->d);
				else
					fputs(",", f);   /* JSON null: an empty cell (NaN in pandas) */
			}
			for (unsigned k = 0; src == SB_HOST_CPU && k < np; k++) {
				float v = pc[(size_t)i * np + k];
				if (isfinite(v))
					fprintf(f, ",%.2f", (double)v);   /* as the JSON's "cpus" */
				else
					fputs(",", f);
			}
			fputc('\n', f);
		}
		close_file(o, name, f);
	}
	free(pc);
	free(ser);
	free(s);
}

int sb_write_csv(const char *dir, const struct sb_results *r)
{
	struct sb_csv_dir d;
	struct out o = { .d = &d };
	char prefix[64];
	int e = sb_csv_dir_open(&d, dir);
	if (e)
		return e;
	for (size_t i = 0; i < r->njobs; i++) {
		snprintf(prefix, sizeof(prefix), "job%zu-", i + 1);
		job_files(&o, prefix, &r->jobs[i]);
	}
	for (size_t p = 0; r->sweep && p < r->sweep->ndone; p++) {
		const struct sb_sweep_point_result *pr = &r->sweep->points[p];
		for (size_t i = 0; i < pr->merged.njobs; i++) {
			snprintf(prefix, sizeof(prefix), "point%zu-job%zu-", pr->index + 1, i + 1);
			job_files(&o, prefix, &pr->merged.jobs[i]);
		}
	}
	if (r->host)
		host_files(&o, r->host);
	e = sb_csv_dir_close(&d);
	return o.rc ? o.rc : e;
}
