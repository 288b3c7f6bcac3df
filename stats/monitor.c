/* monitor.c: the run's stats-thread work (see monitor.h): set-up, the tick,
 * per-job time series at every stats_interval boundary, host counter
 * samples, and handing it all to the results at the end.  Log files are in
 * monlog.c, the progress line and interim snapshots in progress.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/aggbw.h"
#include "stats/monitor.h"
#include "stats/statsthread.h"
#include "lib/log.h"
#include "lib/stop.h"

static int add_series(struct sb_monitor *m, const struct sb_jobspec *spec, unsigned from,
		      unsigned to)
{
	struct sb_mon_series *s = &m->ser[m->nser];
	s->from = from;
	s->to = to;
	s->spec = spec;
	for (unsigned k = from; k < to; k++)
		m->mt[k].series = m->nser;
	m->nser++;
	return sb_tseries_init(&s->ts, 0);
}

/* the results' job list, in collect.c's order: threads merge into one
 * series by sb_results_joins; a job without threads gets one of its own */
static int plan_series(struct sb_monitor *m, const struct sb_joblist *jl)
{
	int e = 0;
	bool prev = false;
	unsigned prev_group = 0;
	m->ser = calloc(jl->njobs + m->nth + 1, sizeof(*m->ser));
	if (!m->ser)
		return -ENOMEM;
	for (size_t j = 0; j < jl->njobs && !e; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		unsigned from = 0, to;
		while (from < m->nth && m->th[from].job != j)
			from++;
		for (to = from; to < m->nth && m->th[to].job == j; to++)
			;
		if (from == to) {
			e = add_series(m, s, from, to);
			prev = false;
			continue;
		}
		for (unsigned i = from; i < to && !e; i++) {
			if (m->nser && sb_results_joins(s, prev, prev_group)) {
				m->ser[m->nser - 1].to = i + 1;
				m->mt[i].series = m->nser - 1;
			} else {
				e = add_series(m, s, i, i + 1);
			}
			prev = true;
			prev_group = s->groupid;
		}
	}
	return e;
}

static int plan_host(struct sb_monitor *m, const struct sb_joblist *jl, const char (*disks)[64],
		     unsigned ndisks, const char *fs_path)
{
	unsigned which = 0;
	uint64_t iv = UINT64_MAX;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		unsigned mask = 0;
		if (sb_host_parse_mask(s->host_counters ? s->host_counters : "all", &mask))
			return -EINVAL;
		which |= mask;
		if (s->stats_interval_us < iv)
			iv = s->stats_interval_us;
		if (!m->perf_list[0] && s->perf_events && *s->perf_events) {
			snprintf(m->perf_list, sizeof(m->perf_list), "%s", s->perf_events);
			if (!strchr(m->perf_list, ',')) /* ':' separates unless ',' does */
				for (char *p = m->perf_list; *p; p++)
					*p = *p == ':' ? ',' : *p;
		}
	}
	if (iv == UINT64_MAX)
		iv = 1000000;
	if (iv < SB_MON_MIN_INTERVAL_MS * 1000ull)
		iv = SB_MON_MIN_INTERVAL_MS * 1000ull;
	m->interval_ns = iv * 1000;
	for (unsigned i = 0; i < ndisks && i < SB_HOST_MAX_DISKS; i++) {
		snprintf(m->disk_names[i], sizeof(m->disk_names[i]), "%s", disks[i]);
		m->disk_ptr[i] = m->disk_names[i];
	}
	snprintf(m->fs_path, sizeof(m->fs_path), "%s", fs_path && *fs_path ? fs_path : ".");
	m->hcfg = (struct sb_host_config){
		.root = "/",
		.which = which,
		.disks = m->disk_ptr,
		.ndisks = ndisks < SB_HOST_MAX_DISKS ? ndisks : SB_HOST_MAX_DISKS,
		.fs_path = m->fs_path,
		.perf_events = m->perf_list[0] ? m->perf_list : NULL,
	};
	return 0;
}

void sb_monitor_thread_started(void *arg, int os_tid)
{
	struct sb_monitor *m = arg;
	pthread_mutex_lock(&m->host_mu);
	if (m->host)
		sb_host_perf_add_tid(m->host, os_tid);
	pthread_mutex_unlock(&m->host_mu);
}

static unsigned tick_ms_for(const struct sb_monitor *m, const struct sb_joblist *jl)
{
	uint64_t t = m->interval_ns / 1000000;
	for (size_t j = 0; j < jl->njobs; j++)
		if (jl->jobs[j].log_avg_msec && jl->jobs[j].log_avg_msec < t)
			t = jl->jobs[j].log_avg_msec;
	for (size_t j = 0; j < jl->njobs; j++)
		if (jl->jobs[j].write_hist_log && jl->jobs[j].log_hist_msec &&
		    jl->jobs[j].log_hist_msec < t)
			t = jl->jobs[j].log_hist_msec;
	if (t > SB_STATS_TICK_MS)
		t = SB_STATS_TICK_MS;
	return t ? (unsigned)t : 1;
}

static int open_logs(struct sb_monitor *m)
{
	for (unsigned i = 0; i < m->nth; i++) {
		struct sb_mon_thread *mt = &m->mt[i];
		const struct sb_jobspec *s = mt->t->spec;
		bool io = s->write_iolog && *s->write_iolog;
		if (s->write_hist_log && *s->write_hist_log) {
			unsigned no = i + 1, first = i;
			while (!s->per_job_logs && first > 0 && m->mt[first - 1].t->spec == s)
				first--;
			int e = sb_histlog_open(mt, s->per_job_logs ? no : first == i ? 1 : 2);
			if (e)
				return e;
		}
		bool any = (s->write_bw_log && *s->write_bw_log) ||
			   (s->write_iops_log && *s->write_iops_log) ||
			   (s->write_lat_log && *s->write_lat_log) || io;
		if (!any)
			continue;
		unsigned first = i; /* per_job_logs=0: the job's first thread opens */
		while (!s->per_job_logs && first > 0 && m->mt[first - 1].t->spec == s)
			first--;
		if (first < i) {
			sb_iolog_share(&mt->lf, &m->mt[first].lf);
		} else {
			int e = sb_iolog_open(&mt->lf, s->write_bw_log, s->write_iops_log,
					      s->write_lat_log, s->per_job_logs ? i + 1 : 0,
					      s->log_offset, !mt->t->sync_engine,
					      sb_iolog_fz(s->log_compression, s->log_store_compressed) ?
					      (size_t)s->log_compression : 0);
			mt->lf.avg = s->log_avg_msec != 0;
			mt->lf.maxv = mt->lf.avg && s->log_max_value; /* fed by the ring */
			if (!e && io)
				e = sb_iolog_open_io(&mt->lf, s->write_iolog, mt->t->paths, mt->t->npaths);
			if (e) {
				sb_iolog_close(&mt->lf);
				return e;
			}
			mt->lf.unix_epoch = s->log_unix_epoch || s->log_alternate_epoch;
			mt->lf.epoch_clock = (int)s->log_alternate_epoch_clock_id;
			sb_iolog_set_prio(&mt->lf, s->log_prio,
					  s->ioprio_on ? (int)(s->prioclass << 13 | s->prio) : 0);
		}
		mt->has_logs = true;
	}
	return 0;
}

int sb_monitor_init(struct sb_monitor *m, const struct sb_joblist *jl, struct sb_tview *th,
		    unsigned n, const char (*disks)[64], unsigned ndisks, const char *fs_path,
		    const struct sb_mon_opts *o)
{
	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->host_mu, NULL);
	pthread_mutex_init(&m->log_mu, NULL);
	sb_iolog_wake_init(&m->lw);
	m->th = th;
	m->nth = n;
	if (o)
		m->opts = *o;
	m->mt = calloc(n ? n : 1, sizeof(*m->mt));
	m->hacc = calloc(SB_DDIR_N, sizeof(*m->hacc));
	m->cur = calloc(1, sizeof(*m->cur));
	if (!m->mt || !m->hacc || !m->cur)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		m->mt[i].t = &th[i];
	int e = plan_series(m, jl);
	if (!e)
		e = plan_host(m, jl, disks, ndisks, fs_path);
	if (!e)
		e = open_logs(m);
	if (!e && m->opts.bw_log) /* --bandwidth-log: fio's agg-*_bw.log */
		e = sb_aggbw_open(m);
	m->tick_ms = tick_ms_for(m, jl);
	if (m->opts.progress < 0)
		m->progress = isatty(2) != 0;
	else
		m->progress = m->opts.progress > 0;
	return e;
}

void sb_monitor_start(struct sb_monitor *m, uint64_t t0_ns)
{
	m->t0_ns = t0_ns;
	m->next_ns = t0_ns + m->interval_ns;
	m->prog_ns = (m->opts.progress_interval_ms ? m->opts.progress_interval_ms : 1000) * 1000000ull;
	m->next_prog_ns = t0_ns + m->prog_ns;
	m->next_prog_nl_ns = t0_ns + m->opts.progress_newline_ms * 1000000ull;
	m->prog_last_ns = t0_ns;
	m->next_interim_ns = t0_ns + m->opts.status_interval_ms * 1000000ull;
	if (m->hcfg.which) {
		m->hcfg.start_ns = t0_ns;
		pthread_mutex_lock(&m->host_mu);
		m->host = sb_host_open(&m->hcfg);
		pthread_mutex_unlock(&m->host_mu);
	}
	sb_monitor_writer_start(m);
}

/* One time-series boundary for series s at now. */
static void series_sample(struct sb_monitor *m, struct sb_mon_series *s, uint64_t now)
{
	bool any = false, all_done = true;
	uint64_t first = UINT64_MAX, end = 0;
	if (s->done)
		return;
	for (unsigned i = s->from; i < s->to; i++) {
		const struct sb_tview *t = &m->th[i];
		int ph = atomic_load_explicit(t->phase, memory_order_acquire);
		uint64_t cs = atomic_load_explicit(t->count_start_ns, memory_order_relaxed);
		all_done &= ph == SB_PH_DONE;
		if (ph >= SB_PH_RUN && cs) {
			any = true;
			first = cs < first ? cs : first;
		}
		if (ph == SB_PH_DONE && *t->end_ns > end)
			end = *t->end_ns;
	}
	if (!s->started) {
		if (!any) {
			s->done = all_done;
			return;
		}
		s->started = true;
		s->start_ns = s->last_ns = first;
	}
	if (!all_done || end <= s->last_ns)
		end = now;
	struct sb_ts_sample smp;
	memset(&smp, 0, sizeof(smp));
	memset(m->hacc, 0, SB_DDIR_N * sizeof(*m->hacc));
	for (unsigned i = s->from; i < s->to; i++) {
		struct sb_mon_thread *mt = &m->mt[i];
		sb_ilat_snapshot(mt->t->ilat, m->cur, true);
		sb_ts_accumulate(&smp, m->hacc, m->cur, &mt->prev);
		if (!m->finishing) /* 14 KB a thread: nothing follows the last sample */
			mt->prev = *m->cur;
	}
	sb_ts_finish(&smp, m->hacc);
	smp.t_ms = (end - m->t0_ns) / 1000000;
	smp.dur_ns = end > s->last_ns ? end - s->last_ns : 0;
	uint64_t ios = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		ios += smp.d[d].ios;
		if (smp.d[d].clat_max_ns > s->max_ns[d])
			s->max_ns[d] = smp.d[d].clat_max_ns;
	}
	/* a last sliver shorter than a millisecond joins the sample before */
	if (smp.dur_ns >= 1000000)
		sb_tseries_add(&s->ts, &smp);
	else if (ios)
		sb_tseries_extend(&s->ts, &smp);
	s->last_ns = end;
	s->done = all_done;
}

static void boundary(struct sb_monitor *m, uint64_t now)
{
	for (unsigned i = 0; i < m->nser; i++)
		series_sample(m, &m->ser[i], now);
	if (m->host) {
		pthread_mutex_lock(&m->host_mu);
		sb_host_sample(m->host, now);
		pthread_mutex_unlock(&m->host_mu);
	}
}

void sb_monitor_tick(void *arg, uint64_t now)
{
	struct sb_monitor *m = arg;
	if (now >= m->next_ns) { /* before the logs: draining them can take a while */
		boundary(m, now);
		m->next_ns += m->interval_ns;
		if (m->next_ns <= now)
			m->next_ns = now + m->interval_ns;
	}
	if (sb_status_take()) /* SIGUSR1: the status now, the run goes on */
		sb_monitor_interim(m, now, true);
	if (m->opts.status_interval_ms && now >= m->next_interim_ns) {
		sb_monitor_interim(m, now, false);
		m->next_interim_ns += m->opts.status_interval_ms * 1000000ull;
		if (m->next_interim_ns <= now)
			m->next_interim_ns = now + m->opts.status_interval_ms * 1000000ull;
	}
	sb_monitor_logs(m, now, false);
	if (m->aggbw)
		sb_aggbw_tick(m, now);
	if (m->progress && now >= m->next_prog_ns) {
		sb_monitor_progress(m, now, false);
		m->next_prog_ns += m->prog_ns;
	}
}

/* perf event totals per counted I/O of the run */
static void perf_per_io(struct sb_results *res)
{
	struct sb_host_summary *sum = malloc(sizeof(*sum));
	if (!sum)
		return;
	sb_host_summary(res->host, sum);
	const struct sb_host_perf_sum *perf = sb_host_sum_perf(sum);
	for (unsigned i = 0; i < perf->nevents && res->nperf_per_io < SB_RESULTS_PERF_MAX; i++) {
		const struct sb_host_perf_event *ev = &perf->ev[i];
		if (!ev->st.present || !res->total_ios)
			continue;
		struct sb_perf_per_io *p = &res->perf_per_io[res->nperf_per_io++];
		snprintf(p->event, sizeof(p->event), "%s", ev->name);
		p->count = ev->count;
		p->per_io = (double)ev->count / (double)res->total_ios;
	}
	free(sum);
}

int sb_monitor_finish(struct sb_monitor *m, uint64_t now, struct sb_results *res)
{
	sb_monitor_writer_stop(m); /* the threads were joined: nothing more comes */
	sb_monitor_logs(m, now, true);
	int rc = 0;
	for (unsigned i = 0; i < m->nth; i++) {
		if (m->mt[i].hist && sb_histlog_close(&m->mt[i]) && !rc)
			rc = -EIO; /* the file and the reason were reported */
		if (m->mt[i].has_logs && sb_iolog_close(&m->mt[i].lf) && !rc)
			rc = -EIO; /* the file and the reason were reported */
	}
	if (sb_aggbw_close(m, true) && !rc)
		rc = -EIO; /* reported */
	m->finishing = true;
	boundary(m, now);
	if (m->progress)
		sb_monitor_progress(m, now, true);
	res->stats_interval_ms = m->interval_ns / 1000000;
	for (unsigned i = 0; i < m->nser && m->nser == res->njobs; i++)
		res->jobs[i].ts = sb_tseries_take(&m->ser[i].ts, &res->jobs[i].nts);
	for (size_t i = 0; i < res->njobs; i++)
		for (int d = 0; d < SB_DDIR_N; d++)
			res->total_ios += res->jobs[i].st.total_ios[d];
	pthread_mutex_lock(&m->host_mu);
	res->host = m->host;
	m->host = NULL;
	pthread_mutex_unlock(&m->host_mu);
	if (res->host)
		perf_per_io(res);
	res->interim = m->interim;
	res->ninterim = m->ninterim;
	m->interim = NULL;
	m->ninterim = 0;
	return rc;
}

void sb_monitor_free(struct sb_monitor *m)
{
	sb_monitor_writer_stop(m);
	sb_aggbw_close(m, false); /* a run that did not finish: nothing left */
	for (unsigned i = 0; m->mt && i < m->nth; i++) {
		if (m->mt[i].has_logs)
			sb_iolog_close(&m->mt[i].lf);
		sb_histlog_close(&m->mt[i]);
	}
	for (unsigned i = 0; m->ser && i < m->nser; i++)
		sb_tseries_free(&m->ser[i].ts);
	for (size_t i = 0; i < m->ninterim; i++)
		free(m->interim[i].jobs);
	free(m->interim);
	sb_host_close(m->host);
	free(m->mt);
	free(m->ser);
	free(m->hacc);
	free(m->cur);
	pthread_mutex_destroy(&m->host_mu);
	pthread_mutex_destroy(&m->log_mu);
	sb_iolog_wake_destroy(&m->lw);
	memset(m, 0, sizeof(*m));
}
