/* progress.c: what a run shows while it goes on, from the stats thread.
 *
 * The status line (on stderr, only when it is a terminal unless forced, so
 * results on stdout stay clean): elapsed time, percent done, ETA and the
 * read/write bandwidth and IOPS of the last second, rewritten in place with
 * '\r' every second and erased when the run ends.
 *
 * --status-interval snapshots: cumulative figures per job result every N
 * seconds, and one at the next tick after a SIGUSR1 (opts.status) (clat max as of the last time-series boundary).  They are handed
 * at once to main's opts.interim callback (which writes them in normal
 * format), and/or kept for the JSON
 * document's "interim" array (JSON output stays one document).  At most
 * SB_MON_INTERIM_MAX are kept: past it every other one is dropped and the
 * interval doubles. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/monitor.h"

static double thread_done(const struct sb_mon_thread *mt, uint64_t now)
{
	const struct sb_tview *t = mt->t;
	const struct sb_jobspec *s = t->spec;
	int ph = atomic_load_explicit(t->phase, memory_order_acquire);
	if (ph == SB_PH_DONE)
		return 1.0;
	if (ph == SB_PH_IDLE)
		return 0.0;
	double ft = 0.0, fb = 0.0;
	if (s->runtime_us && now > *t->start_ns)
		ft = (double)(now - *t->start_ns) / 1e3 / (double)(s->runtime_us + s->ramp_time_us);
	if (t->expect_bytes && !s->time_based) {
		uint64_t ios, bytes, sum = 0;
		for (int d = 0; d < SB_DDIR_N; d++) {
			sb_ilat_totals(t->ilat, d, &ios, &bytes);
			sum += bytes;
		}
		fb = (double)sum / (double)t->expect_bytes;
	}
	double f = ft > fb ? ft : fb;
	return f > 0.999 ? 0.999 : f;
}

static void fmt_rate(char *buf, size_t len, double v, const char *unit, double base)
{
	static const char *const pfx[] = { "", "K", "M", "G", "T", "P" };
	unsigned i = 0;
	while (v >= base && i < 5) {
		v /= base;
		i++;
	}
	snprintf(buf, len, "%.*f%s%s%s", v < 10 && i ? 1 : 0, v, pfx[i],
		 base == 1024 && i ? "i" : "", unit);
}

static void fmt_dur(char *buf, size_t len, uint64_t s)
{
	if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 "h%02" PRIu64 "m%02" PRIu64 "s", s / 3600, s / 60 % 60, s % 60);
	else if (s >= 60)
		snprintf(buf, len, "%" PRIu64 "m%02" PRIu64 "s", s / 60, s % 60);
	else
		snprintf(buf, len, "%" PRIu64 "s", s);
}

void sb_monitor_progress(struct sb_monitor *m, uint64_t now, bool last)
{
	char line[256], el[32], eta[32], rb[32], wb[32], ri[32], wi[32];
	if (last) {
		if (m->prog_len)
			fprintf(stderr, "\r%*s\r", (int)m->prog_len, "");
		fflush(stderr);
		m->prog_len = 0;
		return;
	}
	uint64_t ios[SB_DDIR_N] = { 0 }, bytes[SB_DDIR_N] = { 0 };
	double done = 0.0;
	for (unsigned i = 0; i < m->nth; i++) {
		for (int d = 0; d < SB_DDIR_N; d++) {
			uint64_t a, b;
			sb_ilat_totals(m->th[i].ilat, d, &a, &b);
			ios[d] += a;
			bytes[d] += b;
		}
		done += thread_done(&m->mt[i], now);
	}
	done = m->nth ? done / m->nth : 1.0;
	double dt = now > m->prog_last_ns ? (double)(now - m->prog_last_ns) / 1e9 : 1.0;
	uint64_t elapsed = (now - m->t0_ns) / 1000000000ull;
	fmt_dur(el, sizeof(el), elapsed);
	if (done > 0.0)
		fmt_dur(eta, sizeof(eta), (uint64_t)((double)(now - m->t0_ns) / 1e9 * (1 - done) / done + 0.5));
	else
		snprintf(eta, sizeof(eta), "?");
	fmt_rate(rb, sizeof(rb), (double)(bytes[0] - m->prog_bytes[0]) / dt, "B/s", 1024);
	fmt_rate(wb, sizeof(wb), (double)(bytes[1] - m->prog_bytes[1]) / dt, "B/s", 1024);
	fmt_rate(ri, sizeof(ri), (double)(ios[0] - m->prog_ios[0]) / dt, "", 1000);
	fmt_rate(wi, sizeof(wi), (double)(ios[1] - m->prog_ios[1]) / dt, "", 1000);
	int n = snprintf(line, sizeof(line), "[%s elapsed] [%.1f%% done] [read %s, %s IOPS] "
			 "[write %s, %s IOPS] [eta %s]", el, 100.0 * done, rb, ri, wb, wi, eta);
	unsigned len = n > 0 ? (unsigned)n : 0;
	fprintf(stderr, "\r%s%*s", line, m->prog_len > len ? (int)(m->prog_len - len) : 0, "");
	if (m->opts.progress_newline_ms && now >= m->next_prog_nl_ns) { /* --eta-newline */
		fputc('\n', stderr);
		len = 0;
		while (m->next_prog_nl_ns <= now)
			m->next_prog_nl_ns += m->opts.progress_newline_ms * 1000000ull;
	}
	fflush(stderr);
	m->prog_len = len;
	m->prog_last_ns = now;
	memcpy(m->prog_ios, ios, sizeof(ios));
	memcpy(m->prog_bytes, bytes, sizeof(bytes));
}

/* series s's cumulative figures now (reads without ending the interval) */
static void interim_job(struct sb_monitor *m, const struct sb_mon_series *s,
			struct sb_interim_job *ij, uint64_t now)
{
	snprintf(ij->name, sizeof(ij->name), "%s", s->spec->name);
	ij->spec = s->spec;
	if (!s->started)
		return;
	uint64_t end = s->done ? s->last_ns : now;
	ij->runtime_ms = (end - s->start_ns) / 1000000;
	memset(m->hacc, 0, SB_DDIR_N * sizeof(*m->hacc));
	for (unsigned i = s->from; i < s->to; i++) {
		const struct sb_ilat_snap *p = m->cur;
		sb_ilat_snapshot(m->th[i].ilat, m->cur, false);
		for (int d = 0; d < SB_DDIR_N; d++) {
			ij->d[d].io_bytes += p->d[d].bytes;
			ij->d[d].total_ios += p->d[d].ios;
			ij->d[d].clat_mean_ns += p->d[d].clat_sum; /* divided below */
			for (unsigned b = 0; b < SB_ILAT_NB; b++)
				m->hacc[d][b] += p->d[d].hist[b];
		}
	}
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_interim_dir *x = &ij->d[d];
		double sec = (double)(end - s->start_ns) / 1e9;
		x->clat_mean_ns = x->total_ios ? x->clat_mean_ns / x->total_ios : 0;
		x->clat_max_ns = s->max_ns[d]; /* as of the last time-series boundary */
		x->clat_p99_ns = sb_ilat_percentile(m->hacc[d], 99.0);
		if (x->clat_p99_ns > x->clat_max_ns) /* the max may be a boundary old */
			x->clat_max_ns = x->clat_p99_ns;
		x->bw_bytes = sec > 0 ? (uint64_t)((double)x->io_bytes / sec + 0.5) : 0;
		x->iops = sec > 0 ? (double)x->total_ios / sec : 0.0;
	}
}

void sb_monitor_interim(struct sb_monitor *m, uint64_t now, bool asked)
{
	void (*out)(void *, const struct sb_interim *) = m->opts.interim;
	void *out_arg = m->opts.interim_arg;
	if (asked && m->opts.status) {
		out = m->opts.status;
		out_arg = m->opts.status_arg;
	}
	struct sb_interim snap = { .t_ms = (now - m->t0_ns) / 1000000, .njobs = m->nser };
	snap.jobs = calloc(m->nser ? m->nser : 1, sizeof(*snap.jobs));
	if (!snap.jobs)
		return;   /* out of memory: this snapshot is skipped */
	for (unsigned i = 0; i < m->nser; i++)
		interim_job(m, &m->ser[i], &snap.jobs[i], now);
	if (out) {
		if (m->progress && m->prog_len) /* the status line is on stderr: clear it */
			sb_monitor_progress(m, now, true);
		out(out_arg, &snap);
	}
	if (!m->opts.interim_json) {
		free(snap.jobs);
		return;
	}
	if (m->ninterim == SB_MON_INTERIM_MAX) { /* bounded: halve, as the series do */
		for (size_t i = 0; i < m->ninterim / 2; i++) {
			free(m->interim[2 * i].jobs);
			m->interim[i] = m->interim[2 * i + 1];
		}
		m->ninterim /= 2;
		m->opts.status_interval_ms *= 2;
	}
	if (m->ninterim == m->interim_cap) {
		size_t cap = m->interim_cap ? 2 * m->interim_cap : 16;
		struct sb_interim *p = realloc(m->interim, cap * sizeof(*p));
		if (!p) {
			free(snap.jobs);
			return;
		}
		m->interim = p;
		m->interim_cap = cap;
	}
	m->interim[m->ninterim++] = snap;
}
