/* monlog.c: the fio log files during a run (see stats/iolog.h).  The log
 * writer thread drains the per-I/O rings into the files: every tick, and at
 * once when an I/O thread wakes it (a ring past SB_IOLOG_KICK, or full).
 * The stats thread, per tick, writes one averaged entry per direction when
 * a log_avg_msec window has passed (draining that thread's ring first, for
 * log_max_value's maxima); at the end, the last entries and the last
 * partial window.  log_mu keeps one of them at a time at a ring and its
 * files. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "lib/log.h"

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
	pthread_mutex_lock(&m->log_mu);
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
		/* per-I/O entries, and write_iolog's: the writer's, unless
		 * a window needs them now or there is no writer */
		if (t->logring && (!m->writer_up || mt->lf.avg || final))
			sb_iolog_drain(t->logring, &mt->lf, cs);
		if (!t->logring || mt->lf.avg)
			averaged(m, mt, ph, now, final);
	}
	pthread_mutex_unlock(&m->log_mu);
}

/* one pass of the writer over the rings; true if one is still past the
 * kick mark (another pass at once) */
static bool drain_pass(struct sb_monitor *m)
{
	bool more = false;
	for (unsigned i = 0; i < m->nth; i++) {
		struct sb_mon_thread *mt = &m->mt[i];
		struct sb_iolog_ring *r = mt->t->logring;
		if (!r || !mt->has_logs || !sb_iolog_fill(r))
			continue;
		/* after the head's acquire: the counting start it was pushed in */
		int ph = atomic_load_explicit(mt->t->phase, memory_order_acquire);
		uint64_t cs = atomic_load_explicit(mt->t->count_start_ns, memory_order_relaxed);
		if (ph < SB_PH_RUN || !cs)
			continue;
		pthread_mutex_lock(&m->log_mu);
		sb_iolog_drain(r, &mt->lf, cs);
		pthread_mutex_unlock(&m->log_mu);
		more |= sb_iolog_fill(r) >= SB_IOLOG_KICK;
	}
	return more;
}

static void *writer_main(void *arg)
{
	struct sb_monitor *m = arg;
	struct sb_iolog_wake *w = &m->lw;
	pthread_mutex_lock(&w->mu);
	while (!w->quit) {
		w->kicked = false;
		pthread_mutex_unlock(&w->mu);
		bool more = drain_pass(m);
		pthread_mutex_lock(&w->mu);
		if (more || w->kicked || w->quit)
			continue;
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		uint64_t ns = (uint64_t)ts.tv_nsec + (uint64_t)m->tick_ms * 1000000ull;
		ts.tv_sec += (time_t)(ns / 1000000000ull);
		ts.tv_nsec = (long)(ns % 1000000000ull);
		pthread_cond_timedwait(&w->work, &w->mu, &ts);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

void sb_monitor_writer_start(struct sb_monitor *m)
{
	bool any = false;
	for (unsigned i = 0; i < m->nth; i++)
		any |= m->mt[i].has_logs && m->mt[i].t->logring;
	if (!any || m->writer_up)
		return;
	int e = pthread_create(&m->writer, NULL, writer_main, m);
	if (e) { /* the stats thread drains each tick instead; nothing is lost */
		sb_warn("logs", "no log writer thread (%s): the stats thread writes the per-I/O "
			"logs", strerror(e));
		return;
	}
	m->writer_up = true;
	for (unsigned i = 0; i < m->nth; i++)
		if (m->mt[i].t->logring)
			m->mt[i].t->logring->wake = &m->lw; /* before the I/O threads start */
}

void sb_monitor_writer_stop(struct sb_monitor *m)
{
	if (!m->writer_up)
		return;
	pthread_mutex_lock(&m->lw.mu);
	m->lw.quit = true;
	pthread_cond_signal(&m->lw.work);
	pthread_mutex_unlock(&m->lw.mu);
	pthread_join(m->writer, NULL);
	m->writer_up = false;
	for (unsigned i = 0; i < m->nth; i++)
		if (m->mt[i].t->logring)
			m->mt[i].t->logring->wake = NULL;
}
