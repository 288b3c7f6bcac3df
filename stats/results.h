/* results.h: the results model.  run/, ml/ and sweep/ fill it at the end of a run (or on
 * interrupt); output/ writers only read it.  Units in the field names. */
#ifndef SB_RESULTS_H
#define SB_RESULTS_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "parse/jobspec.h"
#include "stats/tseries.h"
#include "stats/steady.h"
#include "stats/verify.h"
#include "stats/tstats.h"

struct sb_jw;
struct sb_wl_result;
/* A workload's own result (checkpoint, train, kvcache: ml/result.h) is
 * opaque here.  Its figures say how the writers print it and how it is
 * freed; the writers know nothing else of it. */
struct sb_wl_figures {
	void (*json)(struct sb_jw *w, const struct sb_wl_result *r); /* members of the job object */
	void (*normal)(FILE *f, const struct sb_wl_result *r);        /* lines of the job section */
	void (*release)(struct sb_wl_result *r);                      /* frees r and all it owns */
};
/* the head of every workload's result: its own struct starts with it */
struct sb_wl_result {
	const struct sb_wl_figures *fig;
};

struct sb_job_result {
	char name[SB_NAME_MAX];
	unsigned groupid;
	int error;                   /* errno of the first error, 0 = none; what and
				      * where: st.err (sb_tstats_error_text) */
	const struct sb_jobspec *spec;
	unsigned nthreads;           /* threads merged into this result (group_reporting) */
	struct sb_tstats st;         /* merged statistics of those threads */
	uint64_t runtime_ms[SB_DDIR_N]; /* fio's per-direction "runtime" */
	uint64_t job_runtime_ms;
	uint64_t elapsed_s;          /* wall seconds from start to end of the job */
	double usr_cpu, sys_cpu;     /* percent of job_runtime */
	struct sb_wl_result *wl;     /* the workload's own result (checkpoint, train,
				      * kvcache), else NULL (owned) */
	/* the job's time series (one sample per stats_interval, see
	 * stats/tseries.h), owned by the results */
	struct sb_ts_sample *ts;
	unsigned nts;
	/* the job's verify result (stats/verify.h), NULL when it does
	 * not verify; owned by the results */
	struct sb_verify_result *verify;
	/* steady state (steadystate= with ss_dur), NULL when off;
	 * owned by the results (stats/steady.h) */
	struct sb_steady *ss;
	/* latency_target's depth found (its first thread's), 0: the
	 * job has no latency_target (run/lattgt.h) */
	unsigned latency_depth;
};

struct sb_group_dir {
	uint64_t io_bytes;
	uint64_t agg_bw;             /* bytes/s: io_bytes / max runtime */
	uint64_t min_bw, max_bw;     /* bytes/s, over the group's jobs */
	uint64_t min_run_ms, max_run_ms;
};

/* after the jobs were added (min_* start at UINT64_MAX): no job leaves 0,
 * and agg_bw is io_bytes over the longest runtime */
static inline void sb_group_dir_finish(struct sb_group_dir *gd)
{
	if (gd->min_bw == UINT64_MAX)
		gd->min_bw = 0;
	if (gd->min_run_ms == UINT64_MAX)
		gd->min_run_ms = 0;
	if (gd->max_run_ms)
		gd->agg_bw = gd->io_bytes * 1000 / gd->max_run_ms;
}

struct sb_group_result {
	unsigned groupid;
	struct sb_group_dir dir[SB_DDIR_N];
	unsigned kb_base;            /* of the group's first job */
	unsigned unit_base;
	unsigned sig_figs;           /* its significant_figures (normal output) */
};

/* /proc/diskstats deltas over the run, fio's disk_util fields */
struct sb_disk_util {
	char name[64];
	uint64_t read_ios, write_ios;
	uint64_t read_merges, write_merges;
	uint64_t read_ticks, write_ticks; /* ms */
	uint64_t in_queue;                /* ms */
	uint64_t io_ticks;                /* ms the device was busy */
	double util;                      /* percent: io_ticks / wall time */
};

struct sb_host;
struct sb_sweep_results;

/* A perf event total divided by the run's I/Os (cycles per I/O,
 * instructions per I/O, ...), for every perf event that was counted. */
#define SB_RESULTS_PERF_MAX 16
struct sb_perf_per_io {
	char event[64];              /* as given in perf_events= */
	uint64_t count;              /* over every I/O thread */
	double per_io;               /* count / total_ios */
};

/* A --status-interval snapshot: cumulative figures of each job result (same
 * order as sb_results.jobs) from its start to t_ms. */
struct sb_interim_dir {
	uint64_t io_bytes, total_ios;
	uint64_t bw_bytes;           /* bytes/s over the job's counted time so far */
	double iops;
	uint64_t clat_mean_ns, clat_max_ns, clat_p99_ns;
};
struct sb_interim_job {
	char name[SB_NAME_MAX];
	const struct sb_jobspec *spec;
	uint64_t runtime_ms;         /* counted time so far */
	struct sb_interim_dir d[SB_DDIR_N];
};
struct sb_interim {
	uint64_t t_ms;               /* since the start of the run */
	struct sb_interim_job *jobs;
	size_t njobs;
};

struct sb_results {
	const char *version;         /* "storbench-X.Y.Z" */
	time_t timestamp;            /* wall clock at the end of the run */
	uint64_t timestamp_ms;
	struct sb_job_result *jobs;
	size_t njobs;
	struct sb_group_result *groups;
	size_t ngroups;
	struct sb_disk_util *disks;
	size_t ndisks;
	const struct sb_joblist *joblist; /* for the global/job options echo */
	bool interrupted;            /* stopped by SIGINT/SIGTERM: partial results */
	bool logs_failed;            /* a log file could not be written (exit 3) */
	/* host counters, time series, interim snapshots */
	const struct sb_host *host;  /* stats/host.h; NULL: none; closed by sb_results_free */
	uint64_t stats_interval_ms;  /* period of the time series and host samples */
	uint64_t total_ios;          /* counted I/Os of every job and direction */
	struct sb_perf_per_io perf_per_io[SB_RESULTS_PERF_MAX]; /* present perf events / I/O */
	unsigned nperf_per_io;
	struct sb_interim *interim;  /* --status-interval snapshots (json), owned */
	size_t ninterim;
	uint64_t log_dropped;        /* per-I/O log entries lost to a full ring */
	/* a sweep's points (sweep/sweep.c); NULL for an ordinary run.
	 * jobs[] is then empty: each point carries its own results. */
	const struct sb_sweep_results *sweep;
	/* every job said disk_util=0: no disk_util block (fio then
	 * leaves out the JSON key, the normal block and the terse fields) */
	bool no_disk_util;
	/* the system inventory (stats/sysinv.h), collected at run
	 * start; NULL: none (a sweep's is sweep->sys); owned */
	struct sb_sysinv *sys;
	/* under MPI (run/ranks.c), the run across ranks; ranks == 0
	 * when there was one rank (no "mpi" object is written) */
	struct sb_mpi_summary {
		unsigned ranks, hosts;
		unsigned ranks_per_host;     /* the most on one host */
		uint64_t start_skew_ns;      /* max - min over ranks of the first group's start */
		uint64_t end_skew_ns;        /* max - min over ranks of the run's end */
		uint64_t merge_ns;           /* the cross-rank merge at rank 0 */
		char library[64];            /* "Open MPI v4.1.4" */
	} mpi;
	uint64_t start_wall_ns, end_wall_ns; /* CLOCK_REALTIME: first group started, run ended */
	/* under MPI, the host counters of every host (one collector
	 * per host: its node-local rank 0) and their sum; nhosts == 0: none */
	struct sb_host_digest *hosts; /* owned */
	unsigned nhosts;
	struct sb_host_digest {
		char host[64];
		int rank;                    /* the rank that collected them */
		unsigned ncpus;
		double run_s;
		double cpu_util_pct;         /* cpu_avg_utilization_pct */
		double cpu_hours;            /* node_cpu_hours */
		uint64_t mem_total_bytes;
		double mem_peak_pct;         /* max_t_mem_percent */
		uint64_t mem_peak_bytes;     /* mem_total_bytes * mem_peak_pct / 100 */
		double disk_read_mb, disk_write_mb;
		double net_lo_sent_mb, net_lo_recv_mb, net_ext_sent_mb, net_ext_recv_mb;
		double ib_xmit_mb, ib_rcv_mb;
		bool cpu, mem, disk, net, ib;  /* which were measured */
	} cluster;                     /* sums (mem_peak_*: the largest host's) */
	/* the I/O path's clock (lib/timeutil.h) and its drift guard;
	 * source NULL: not recorded (no "clock" object is written) */
	struct sb_clock_result {
		const char *source;          /* at the start: "tsc", "clock_gettime", "gettimeofday" */
		const char *reason;          /* why (sb_clock_why_text) */
		bool tsc_fallback;           /* the guard turned the TSC off during the run */
		unsigned checks;             /* guard comparisons */
		int64_t max_drift_ns;        /* largest |TSC - CLOCK_MONOTONIC| seen, signed */
		int64_t fallback_drift_ns;   /* tsc_fallback: the drift that did it */
		uint64_t fallback_ms;        /* tsc_fallback: ms after the run's start */
		uint64_t tol_ns, tol_ppm;    /* the guard's tolerance: tol_ns + tol_ppm of the time */
	} clock;
};

void sb_results_free(struct sb_results *r);

/* Which threads share one entry of jobs[] (fio 3.33 stat.c __show_run_stats):
 * the threads in job file order, each job's in turn; a thread of job s
 * continues the entry of the thread before it (prev: there is one, in group
 * prev_group) when s has group_reporting and is in that same group, and
 * opens a new entry otherwise.  run/collect.c and the monitor's time series
 * both follow it, so series i belongs to jobs[i]. */
static inline bool sb_results_joins(const struct sb_jobspec *s, bool prev, unsigned prev_group)
{
	return prev && s->group_reporting && s->groupid == prev_group;
}

/* ---- sweeps (sweep/sweep.c fills these, output/sweep.c writes them) */

/* one direction of one sweep point, over its repetitions */
struct sb_sweep_dirsum {
	uint64_t io_bytes;                  /* per repetition (mean) */
	double bw_mean, bw_min, bw_max;     /* bytes/s: all jobs' bytes / slowest job's runtime */
	double iops_mean, iops_min, iops_max;
	double clat_mean_ns;
	uint64_t clat_p50_ns, clat_p99_ns;  /* over every repetition's completions */
};

/* one direction of one repetition: what a user compares run by run */
struct sb_sweep_repdir {
	uint64_t io_bytes;                  /* all jobs */
	double bw, iops;                    /* bytes/s, IO/s: all jobs over the slowest one's runtime */
	double clat_mean_ns;
	uint64_t clat_p50_ns, clat_p99_ns, clat_p99_9_ns; /* over all jobs' completions */
	uint64_t runtime_ms;                /* the slowest job's */
};

/* One repetition of a point: one sb_run.  res holds its full results only
 * until the repetition is folded into its point (sb_sweep_fold_rep): the
 * summary below stays, the results are released (res is then empty). */
struct sb_sweep_rep {
	struct sb_results res;
	uint64_t wall_ns;                   /* the sb_run call */
	uint64_t io_ns;                     /* slowest job of each group, summed over groups */
	uint64_t sync_ns;                   /* sync() and the cache drop before it */
	int error;                          /* first job error, 0 = none */
	unsigned dirs;                      /* bit 1 << d: direction d moved data */
	struct sb_sweep_repdir dir[SB_DDIR_N];
};

/* Bounded memory: a finished point keeps its summary,
 * one summary per repetition and its jobs' results merged over the
 * repetitions (counters and histograms added, runtimes summed, each job's
 * time series from the first repetition at most SB_SWEEP_TS_MAX samples),
 * never the repetitions' own results. */
#define SB_SWEEP_TS_MAX 64
struct sb_sweep_point_result {
	size_t index;                       /* into the sweep's points (parse/sweep.h) */
	struct sb_jobspec *specs;           /* the point's jobs as run: loops=1, unlink deferred */
	struct sb_joblist jl;               /* jobs = specs; merged.joblist points here */
	struct sb_results merged;           /* jobs merged over the repetitions, and their groups */
	struct sb_sweep_rep *reps;
	unsigned nreps;
	struct sb_sweep_dirsum dir[SB_DDIR_N];
	unsigned dirs;                      /* bit 1 << d: direction d moved data */
	double score;                       /* by the sweep metric, higher is better */
	int error;                          /* first job error of any repetition, 0 = none */
	uint64_t wall_ns, io_ns, sync_ns;   /* sums over the repetitions */
};

struct sb_sweep_skip {
	size_t index;                       /* into the sweep's points */
	char why[400];                      /* the note: what the machine lacks */
};

struct sb_sweep_results {
	const struct sb_sweep *def;         /* swept options and point values */
	unsigned metric;                    /* enum sb_sweep_metric */
	struct sb_sweep_point_result *points; /* the finished points, in run order */
	size_t ndone;
	long best[SB_DDIR_N];               /* index into points[]; -1: none */
	bool interrupted;
	int caches;                         /* 1 dropped, 0 not asked, -1 asked, not permitted */
	struct sb_sysinv *sys;              /* the first point's system inventory (owned) */
	/* the points not run, in run order: a GPU
	 * point on a machine without the library (parse/check_gpu.c) */
	struct sb_sweep_skip *skipped;
	size_t nskipped;
};
#endif
