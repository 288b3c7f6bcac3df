/* monitor.h: what the stats thread does for a run beyond fio's bw/iops
 * samples - the per-job time series, host counters, fio log files, the
 * progress line and --status-interval snapshots.  sb_run sets it up before
 * the threads start, hangs sb_monitor_tick on the stats thread's tick, and
 * moves its products into the results at the end.  It sees the I/O threads
 * only through their stats-facing views (stats/tview.h).
 *
 * Threads: sb_monitor_tick runs on the stats thread only; the I/O threads
 * only write their accumulators (stats/ilat.h) and log rings
 * (stats/iolog.h), which the log writer thread (started by
 * sb_monitor_start, stopped by sb_monitor_finish or _free) drains, and register their tid for perf counters through
 * sb_monitor_thread_started (serialized with host sampling by host_mu; never on the per-I/O
 * path). */
#ifndef SB_MONITOR_H
#define SB_MONITOR_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "stats/host.h"
#include "stats/results.h"
#include "stats/tseries.h"
#include "stats/tview.h"

#define SB_MON_MIN_INTERVAL_MS 10   /* smaller stats_interval values are raised */
#define SB_MON_INTERIM_MAX 1024     /* kept --status-interval snapshots (JSON) */

/* What a run shows while it goes on (main's, in struct sb_run_env).
 * Defaults (zero): no interim results, no progress line. */
struct sb_mon_opts {
	unsigned status_interval_ms;  /* --status-interval: interim results; 0 = off */
	/* normal-format interim results: called with each snapshot as it is
	 * taken (on the stats thread); NULL = none */
	void (*interim)(void *arg, const struct sb_interim *snap);
	void *interim_arg;
	bool interim_json;            /* keep interim snapshots in sb_results.interim */
	/* SIGUSR1 (lib/stop.h sb_status_take): a snapshot at the next tick,
	 * handed to this callback (NULL: to interim) and kept with
	 * interim_json; the run goes on */
	void (*status)(void *arg, const struct sb_interim *snap);
	void *status_arg;
	int progress;                 /* status line on stderr: -1 auto (a terminal), 0, 1 */
	unsigned progress_interval_ms; /* --eta-interval: its period; 0 = 1 s */
	unsigned progress_newline_ms;  /* --eta-newline: end the line (start a new one) this
					* often instead of rewriting it; 0 = never */
	bool bw_log;                  /* --bandwidth-log (stats/aggbw.h) */
};

struct sb_mon_thread {
	struct sb_tview *t;
	unsigned series;               /* index of its job result */
	struct sb_ilat_snap prev;      /* at the last time-series boundary */
	struct sb_ilat_snap lprev;     /* at the last log window (log_avg_msec) */
	struct sb_iolog_files lf;
	bool has_logs, log_started, log_final;
	uint64_t log_last_ns, log_next_ns;
	/* write_hist_log (stats/histlog.c) */
	FILE *hist;                    /* NULL: none */
	struct sb_outfile haf;           /* per_job_logs=1: hist's file, written whole
					* or not at all (os/outfile.h) */
	char *hpath;                   /* the log's name, for the messages */
	struct sb_ilat_snap *hprev;    /* at the last histogram line */
	uint64_t *hbins;               /* scratch: fio's bins */
	struct sb_iolog_files hlf;     /* only its epoch fields (log_unix_epoch) */
	uint64_t hist_next_ns;
	bool hist_started, hist_final;
};

struct sb_mon_series {
	unsigned from, to;             /* its threads */
	const struct sb_jobspec *spec;
	struct sb_tseries ts;
	bool started, done;
	uint64_t start_ns, last_ns;
	uint64_t max_ns[SB_DDIR_N];    /* largest interval clat max so far */
};

struct sb_monitor {
	struct sb_tview *th;           /* the I/O threads, as the stats side sees them */
	unsigned nth;
	struct sb_mon_thread *mt;
	struct sb_mon_series *ser;
	unsigned nser;
	uint64_t t0_ns, interval_ns, next_ns;
	unsigned tick_ms;              /* for the stats thread */
	uint64_t (*hacc)[SB_ILAT_NB];  /* SB_DDIR_N rows of scratch */
	struct sb_ilat_snap *cur;      /* scratch */
	struct sb_host_config hcfg;
	const char *disk_ptr[SB_HOST_MAX_DISKS];
	char disk_names[SB_HOST_MAX_DISKS][64];
	char perf_list[512];
	char fs_path[4096];
	struct sb_host *host;
	pthread_mutex_t host_mu;
	struct sb_mon_opts opts;
	bool progress;
	unsigned prog_len;
	uint64_t next_prog_ns, prog_last_ns;
	uint64_t prog_ns, next_prog_nl_ns; /* --eta-interval, --eta-newline (0: never) */
	uint64_t prog_ios[SB_DDIR_N], prog_bytes[SB_DDIR_N];
	uint64_t next_interim_ns;
	struct sb_interim *interim;
	size_t ninterim, interim_cap;
	bool finishing;               /* the last boundary (no later deltas) */
	/* the per-I/O log writer thread (monlog.c), which
	 * drains the rings into the log files; log_mu lets one drainer (it or
	 * the stats thread) at a time at the rings and the log files */
	struct sb_iolog_wake lw;
	pthread_mutex_t log_mu;
	pthread_t writer;
	bool writer_up;
	struct sb_aggbw *aggbw;       /* --bandwidth-log; NULL: off */
};

/* Set up for threads th[0..n) of jl (threads set up, not started): series,
 * log files (created now), host configuration.  disks: the runner's block
 * devices; fs_path: a directory the jobs use.  Errors are reported with
 * sb_err; -errno. */
int sb_monitor_init(struct sb_monitor *m, const struct sb_joblist *jl, struct sb_tview *th,
		    unsigned n, const char (*disks)[64], unsigned ndisks, const char *fs_path,
		    const struct sb_mon_opts *o);
/* The runner's on_start hook of each I/O thread (arg: the monitor): called
 * on the thread as it starts, before any I/O, with its kernel tid (perf
 * counters follow it). */
void sb_monitor_thread_started(void *arg, int os_tid);
/* Time zero of the run: opens the host counters (baseline now). */
void sb_monitor_start(struct sb_monitor *m, uint64_t t0_ns);
/* The stats thread's tick. */
void sb_monitor_tick(void *arg, uint64_t now_ns);
/* After the stats thread stopped and the threads were joined: last samples,
 * log files closed, series, host, perf per-I/O figures and interim snapshots
 * moved into res (whose jobs sb_collect filled).  -EIO if a log write failed. */
int sb_monitor_finish(struct sb_monitor *m, uint64_t now_ns, struct sb_results *res);
void sb_monitor_free(struct sb_monitor *m);

/* Time-series and interim internals shared by monitor.c and progress.c */
/* a snapshot now: asked by SIGUSR1 (opts.status) or --status-interval's */
void sb_monitor_interim(struct sb_monitor *m, uint64_t now_ns, bool asked);
void sb_monitor_progress(struct sb_monitor *m, uint64_t now_ns, bool last);
/* fio log files: per tick (drain rings, averaged windows); final pass at the end */
void sb_monitor_logs(struct sb_monitor *m, uint64_t now_ns, bool final);
/* the log writer thread (monlog.c): started when a thread has a per-I/O
 * ring (without it, the stats thread drains them each tick); stop joins it */
void sb_monitor_writer_start(struct sb_monitor *m);
void sb_monitor_writer_stop(struct sb_monitor *m);
/* write_hist_log (histlog.c): open (thread_no 1-based), a tick, close */
int sb_histlog_open(struct sb_mon_thread *mt, unsigned thread_no);
void sb_histlog_tick(struct sb_monitor *m, struct sb_mon_thread *mt, uint64_t now, bool final);
int sb_histlog_close(struct sb_mon_thread *mt);
#endif
