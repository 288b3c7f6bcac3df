/* results.h: the results model.  core/ fills it at the end of a run (or on
 * interrupt); output/ writers only read it.  Units in the field names. */
#ifndef SB_RESULTS_H
#define SB_RESULTS_H
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "parse/jobspec.h"
#include "stats/tstats.h"

struct sb_ml_result; /* stats/mlres.h */

struct sb_job_result {
	char name[SB_NAME_MAX];
	unsigned groupid;
	int error;                   /* errno of the first error, 0 = none */
	char errmsg[256];
	const struct sb_jobspec *spec;
	unsigned nthreads;           /* threads merged into this result (group_reporting) */
	struct sb_tstats st;         /* merged statistics of those threads */
	uint64_t runtime_ms[SB_DDIR_N]; /* fio's per-direction "runtime" */
	uint64_t job_runtime_ms;
	uint64_t elapsed_s;          /* wall seconds from start to end of the job */
	double usr_cpu, sys_cpu;     /* percent of job_runtime */
	struct sb_ml_result *ml;     /* appended: workload=checkpoint|train results, else NULL (owned) */
};

struct sb_group_dir {
	uint64_t io_bytes;
	uint64_t agg_bw;             /* bytes/s: io_bytes / max runtime */
	uint64_t min_bw, max_bw;     /* bytes/s, over the group's jobs */
	uint64_t min_run_ms, max_run_ms;
};

struct sb_group_result {
	unsigned groupid;
	struct sb_group_dir dir[SB_DDIR_N];
	unsigned kb_base;            /* of the group's first job */
	unsigned unit_base;
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

struct sb_host;  /* stats/host.h */

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
	/* host counters of the run (stats/host.h); NULL = none collected.  Not
	 * owned: whoever opened it closes it after the outputs are written. */
	const struct sb_host *host;
};

void sb_results_free(struct sb_results *r);
#endif
