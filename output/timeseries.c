/* timeseries.c: writers for the per-job time series (JSON "timeseries") and
 * the --status-interval snapshots (JSON "interim", or normal text printed
 * while the run goes on). */
#include <errno.h>
#include <stdio.h>

#include "output/derive.h"
#include "output/output.h"
#include "output/timeseries.h"
#include "output/units.h"
#include "stats/mixed.h"

static bool show_dir(const struct sb_jobspec *s, int d)
{
	return d != SB_DDIR_TRIM || (s && sb_spec_does(s, SB_DDIR_TRIM));
}

bool sb_out_ts_col(const struct sb_job_result *j, int d)
{
	unsigned u = sb_out_unified_job(j);
	if (d == SB_DDIR_N)
		return u != SB_UNIFIED_NONE;
	return u != SB_UNIFIED_MIXED && show_dir(j->spec, d);
}

const struct sb_ts_sample *sb_out_ts_at(const struct sb_ts_sample *s, int *d,
					struct sb_ts_sample *mix)
{
	if (*d != SB_DDIR_N)
		return s;
	sb_ts_mix(mix, s);
	*d = SB_DDIR_READ;
	return mix;
}

void sb_json_timeseries(struct sb_jw *w, const struct sb_job_result *j)
{
	sb_jw_arr_begin(w, "timeseries");
	for (unsigned i = 0; i < j->nts; i++) {
		const struct sb_ts_sample *s0 = &j->ts[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "t_ms", s0->t_ms);
		sb_jw_u64(w, "dur_ms", (s0->dur_ns + 500000) / 1000000);
		for (int c = 0; c <= SB_DDIR_N; c++) {
			struct sb_ts_sample mix;
			int d = c;
			if (!sb_out_ts_col(j, c))
				continue;
			const struct sb_ts_sample *s = sb_out_ts_at(s0, &d, &mix);
			sb_jw_obj_begin(w, c == SB_DDIR_N ? "mixed" : sb_ddir_names[d]);
			sb_jw_u64(w, "bw_bytes", sb_ts_bw_bytes(s, d));
			sb_jw_dbl(w, "iops", sb_ts_iops(s, d));
			sb_jw_u64(w, "clat_mean_ns", sb_ts_clat_mean_ns(s, d));
			sb_jw_u64(w, "clat_max_ns", s->d[d].clat_max_ns);
			sb_jw_u64(w, "clat_p99_ns", s->d[d].clat_p99_ns);
			sb_jw_u64(w, "clat_p50_ns", s->d[d].clat_p50_ns);
			sb_jw_obj_end(w);
		}
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
}

void sb_json_interim(struct sb_jw *w, const struct sb_results *r)
{
	if (!r->ninterim)
		return;
	sb_jw_arr_begin(w, "interim");
	for (size_t i = 0; i < r->ninterim; i++) {
		const struct sb_interim *s = &r->interim[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "t_ms", s->t_ms);
		sb_jw_arr_begin(w, "jobs");
		for (size_t k = 0; k < s->njobs; k++) {
			const struct sb_interim_job *j = &s->jobs[k];
			sb_jw_obj_begin(w, NULL);
			sb_jw_str(w, "jobname", j->name);
			sb_jw_u64(w, "runtime_ms", j->runtime_ms);
			for (int d = 0; d < SB_DDIR_N; d++) {
				const struct sb_interim_dir *x = &j->d[d];
				if (!show_dir(j->spec, d))
					continue;
				sb_jw_obj_begin(w, sb_ddir_names[d]);
				sb_jw_u64(w, "io_bytes", x->io_bytes);
				sb_jw_u64(w, "total_ios", x->total_ios);
				sb_jw_u64(w, "bw_bytes", x->bw_bytes);
				sb_jw_dbl(w, "iops", x->iops);
				sb_jw_u64(w, "clat_mean_ns", x->clat_mean_ns);
				sb_jw_u64(w, "clat_max_ns", x->clat_max_ns);
				sb_jw_u64(w, "clat_p99_ns", x->clat_p99_ns);
				sb_jw_obj_end(w);
			}
			sb_jw_obj_end(w);
		}
		sb_jw_arr_end(w);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
}

static void lat_text(char *buf, size_t len, uint64_t ns)
{
	char v[32];
	if (ns < 10000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 10000000)
		snprintf(buf, len, "%sus", sb_out_fmt_scaled(v, sizeof(v), (double)ns / 1e3, 1000, 4));
	else
		snprintf(buf, len, "%sms", sb_out_fmt_scaled(v, sizeof(v), (double)ns / 1e6, 1000, 4));
}

int sb_write_interim_normal(FILE *f, const struct sb_interim *s)
{
	char iops[32], bw[32], sz[32], mean[32], mx[32], p99[32];
	fprintf(f, "Interim results at %.1fs:\n", (double)s->t_ms / 1e3);
	for (size_t k = 0; k < s->njobs; k++) {
		const struct sb_interim_job *j = &s->jobs[k];
		unsigned base = j->spec && j->spec->kb_base == 1000 ? 1000 : 1024;
		bool any = false;
		for (int d = 0; d < SB_DDIR_N; d++) {
			const struct sb_interim_dir *x = &j->d[d];
			if (!x->total_ios && (!j->spec || !sb_spec_does(j->spec, (enum sb_ddir)d)))
				continue;
			sb_out_fmt_scaled(iops, sizeof(iops), x->iops, 1000, 4);
			sb_out_fmt_bw(bw, sizeof(bw), (double)x->bw_bytes, base, 0);
			sb_out_fmt_size(sz, sizeof(sz), (double)x->io_bytes, base);
			lat_text(mean, sizeof(mean), x->clat_mean_ns);
			lat_text(mx, sizeof(mx), x->clat_max_ns);
			lat_text(p99, sizeof(p99), x->clat_p99_ns);
			fprintf(f, "  %-16s %5s: IOPS=%s, BW=%s, %s in %.1fs; clat avg=%s, p99=%s, max=%s\n",
				any ? "" : j->name, sb_ddir_names[d], iops, bw, sz,
				(double)j->runtime_ms / 1e3, mean, p99, mx);
			any = true;
		}
		if (!any)
			fprintf(f, "  %-16s not started\n", j->name);
	}
	return ferror(f) ? -EIO : 0;
}
