/* compare.h: side-by-side comparison of jobs that differ in one option.
 *
 * Two jobs are compared when their resolved job specs differ in exactly one
 * option (ioengine, iodepth, bs, direct, ...).  The job's identity is not an
 * option here: name, description, stonewall, new_group, wait_for and the
 * group id the parser derives from them are ignored.  One rule for options
 * without effect: when either job uses a synchronous engine (the spec's
 * engine_sync, which the parser derives from the engine's own flag: sync,
 * psync, mmap, null today), the queue-depth options iodepth, iodepth_batch_submit and
 * iodepth_batch_complete_min/max are ignored, so "psync with iodepth=1"
 * compares with "libaio with iodepth=16" by ioengine alone.
 *
 * Jobs are grouped in file order: a set holds a first job and every later
 * job that differs from it, and from every member already in the set, in
 * the same single option with a value not yet in the set.  A job belongs to
 * one set at most; sets have two rows or more.  The first row is the
 * baseline of the ratios: IOPS for random workloads, bandwidth otherwise.
 * Private to output/: normal and JSON writers read the same numbers. */
#ifndef SB_OUT_COMPARE_H
#define SB_OUT_COMPARE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/results.h"

#define SB_CMP_VALUE_MAX 256

struct sb_cmp_row {
	const struct sb_job_result *job;
	char value[SB_CMP_VALUE_MAX];  /* the differing option's value in this job */
	double iops;                   /* all directions */
	uint64_t bw_bytes;             /* bytes/s, all directions */
	uint64_t clat_p50_ns, clat_p99_ns, clat_p99_9_ns; /* clat of all directions */
	double usr_cpu, sys_cpu;       /* percent, as in the job's results */
	double cpu_us_per_io;          /* (user + system CPU time) / I/Os of all directions */
	double ratio;                  /* metric / the first row's metric; 0 if that is 0 */
};

struct sb_cmp_set {
	const char *option;            /* the option that differs (static string) */
	const char *metric;            /* "iops" or "bw" */
	size_t nrows;
	struct sb_cmp_row *rows;
};

struct sb_cmp {
	size_t nsets;
	struct sb_cmp_set *sets;
};

/* The comparison sets of a run (none: nsets == 0).  0 or -ENOMEM. */
int sb_cmp_build(const struct sb_results *r, struct sb_cmp *out);
void sb_cmp_free(struct sb_cmp *c);

/* Options in which a and b differ, after the no-effect rule above; *first
 * (if not NULL) gets the name of the first one (NULL when none). */
unsigned sb_cmp_diff(const struct sb_jobspec *a, const struct sb_jobspec *b, const char **first);
/* For grouping jobs without comparing every pair (compare.c): the options
 * compared (the option table's rows without SB_OF_IDENTITY, SB_OF_ML,
 * SB_OF_INVERSE or SB_OF_INBS), by index 0 .. sb_cmp_nopts()-1, in the order sb_cmp_diff checks
 * them; whether option k is a queue-depth option (ignored when either job
 * uses a synchronous engine); and a 64-bit hash of each option's value in
 * job-file syntax, h[sb_cmp_nopts()], with 0 for the queue-depth options of
 * a synchronous engine.  Two jobs differ in option k (before the no-effect
 * rule) when their hashes differ, but for a 64-bit collision. */
unsigned sb_cmp_nopts(void);
const char *sb_cmp_opt_name(unsigned k);
bool sb_cmp_opt_qdepth(unsigned k);
/* the index k of ioengine among the options compared */
unsigned sb_cmp_opt_engine(void);
void sb_cmp_hashes(const struct sb_jobspec *s, uint64_t *h);
/* The value of option name in s, in job-file syntax ("4k", "io_uring",
 * "randread"); "" for an unknown name.  Returns buf. */
char *sb_cmp_value(const struct sb_jobspec *s, const char *name, char *buf, size_t len);
#endif
