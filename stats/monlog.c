/* monlog.c: the fio log files during a run (see stats/iolog.h): per tick,
 * drain each thread's per-I/O ring, or write one averaged entry per
 * direction when a log_avg_msec window has passed; at the end, the last
 * entries and the last partial window.  Runs on the stats thread. */
#include <string.h>

#include "stats/monitor.h"

/* one averaged window (lprev -> now) of thread mt ending at end_ns, its
 * entries stamped label_ns: the log_avg_msec grid point it closes (fio's
 * 500, 1000, ... ms), whenever the tick that reads it comes */
static void window(struct sb_monitor *m, struct sb_mon_thread *mt, uint64_t end_ns,
		   uint64_t label_ns)
{
	const struct sb_tview *t = mt->t;
	struct sb_iolog_files *lf = &mt->lf;
	uint64_t t0 = atomic_load_explicit(t->count_start_ns, memory_order_relaxed);
	uint64_t dur = end_ns > mt->log_last_ns ? end_ns - mt->log_last_ns : 0;
	sb_iolog_set_epoch(lf, t0);
	uint64_t t_ms = (label_ns > t0 ? (label_ns - t0 + 500000) / 1000000 : 0) + lf->epoch_ms;
	if (!dur)
		return;
	sb_ilat_snapshot(t->ilat, m->cur, false);
	uint64_t all = 0;
	for (int d = 0; d < SB_DDIR_N; d++)
		all += m->cur->d[d].ios - mt->lprev.d[d].ios;
	if (!all && dur < 1000000)
		return;   /* a last sliver without I/O says nothing */
	for (int d = 0; d < SB_DDIR_N; d++) {
		const struct sb_ilat_snap_dir *c = &m->cur->d[d], *p = &mt->lprev.d[d];
		uint64_t ios = c->ios - p->ios, bytes = c->bytes - p->bytes;
		bool does = sb_spec_does(t->spec, (enum sb_ddir)d);
		if (lf->f[SB_LOG_BW] && does)
			sb_iolog_linep(lf, lf->f[SB_LOG_BW], t_ms,
				      (uint64_t)((double)bytes * 1e9 / 1024.0 / (double)dur + 0.5),
				      (unsigned)d, 0, 0, lf->log_offset);
		if (lf->f[SB_LOG_IOPS] && does)
			sb_iolog_linep(lf, lf->f[SB_LOG_IOPS], t_ms,
				      (uint64_t)((double)ios * 1e9 / (double)dur + 0.5), (unsigned)d, 0,
				      0, lf->log_offset);
		if (!ios)
			continue;
		const uint64_t *mx = lf->wmax[d]; /* log_max_value: the window's maxima */
		if (lf->f[SB_LOG_CLAT])
			sb_iolog_linep(lf, lf->f[SB_LOG_CLAT], t_ms,
				      lf->maxv ? mx[0] : (c->clat_sum - p->clat_sum) / ios,
				      (unsigned)d, 0, 0, lf->log_offset);
		if (lf->f[SB_LOG_SLAT] && lf->slat)
			sb_iolog_linep(lf, lf->f[SB_LOG_SLAT], t_ms,
				      lf->maxv ? mx[1] : (c->slat_sum - p->slat_sum) / ios,
				      (unsigned)d, 0, 0, lf->log_offset);
		if (lf->f[SB_LOG_LAT])
			sb_iolog_linep(lf, lf->f[SB_LOG_LAT], t_ms,
				      lf->maxv ? mx[2] : (c->lat_sum - p->lat_sum) / ios,
				      (unsigned)d, 0, 0, lf->log_offset);
	}
	memset(lf->wmax, 0, sizeof(lf->wmax));
	memcpy(&mt->lprev, m->cur, sizeof(mt->lprev));
	mt->log_last_ns = end_ns;
}

static void averaged(struct sb_monitor *m, struct sb_mon_thread *mt, int ph, uint64_t now,
		     bool final)
{
	const struct sb_tview *t = mt->t;
	uint64_t avg = (uint64_t)t->spec->log_avg_msec * 1000000ull;
	if (!mt->log_started) {
		mt->log_started = true;
		mt->log_last_ns = atomic_load_explicit(t->count_start_ns, memory_order_relaxed);
		mt->log_next_ns = mt->log_last_ns + avg;
	}
	if (mt->log_final)
		return;
	if (ph == SB_PH_DONE || final) {
		while (mt->log_next_ns < *t->end_ns) { /* windows the last ticks missed */
			window(m, mt, mt->log_next_ns, mt->log_next_ns);
			mt->log_next_ns += avg;
		}
		uint64_t end = *t->end_ns > mt->log_last_ns ? *t->end_ns : now;
		window(m, mt, end, end);
		mt->log_final = true;
		return;
	}
	if (now >= mt->log_next_ns) {
		/* a tick that missed whole windows closes them all at once:
		 * the stamp is the latest grid point passed */
		uint64_t label = mt->log_next_ns;
		while (label + avg <= now)
			label += avg;
		window(m, mt, now, label);
		mt->log_next_ns = label + avg;
	}
}

void sb_monitor_logs(struct sb_monitor *m, uint64_t now, bool final)
{
	for (unsigned i = 0; i < m->nth; i++) {
		struct sb_mon_thread *mt = &m->mt[i];
		const struct sb_tview *t = mt->t;
		if (mt->hist)
			sb_histlog_tick(m, mt, now, final);
		if (!mt->has_logs)
			continue;
		int ph = atomic_load_explicit(t->phase, memory_order_acquire);
		uint64_t cs = atomic_load_explicit(t->count_start_ns, memory_order_relaxed);
		if (ph < SB_PH_RUN || !cs)
			continue;
		if (t->logring) /* per-I/O entries, and write_iolog's */
			sb_iolog_drain(t->logring, &mt->lf, cs);
		if (!t->logring || mt->lf.avg)
			averaged(m, mt, ph, now, final);
	}
}
