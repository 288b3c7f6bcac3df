/* test_compare.c: the side-by-side comparison of jobs that differ in one
 * option (output/compare.c) and its normal and JSON forms.  The run below is
 * jobs/engine-compare.ini: 4k random reads and 128k sequential writes on
 * psync (iodepth=1), libaio, io_uring and mmap (iodepth=16 from [global]),
 * one stonewalled job each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_driver.h"
#include "harness.h"
#include "output/compare.h"
#include "output/output.h"
#include "parse/parse.h"
#include "test_output_json.h"

#define MAXJ 8
#define MS 1000   /* runtime of every job, ms */
#define MAXR 12   /* jobs of the random lists */

struct run {
	struct sb_results r;
	struct sb_jobspec spec[MAXJ];
};

/* a spec as the parser resolves it (defaults filled in) */
static void spec_init(struct sb_jobspec *s, const char *name, unsigned rw, uint64_t bs,
		      const char *engine, unsigned iodepth)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->ioengine, sizeof(s->ioengine), "%s", engine);
	s->rw = rw;
	for (int d = 0; d < SB_DDIR_N; d++)
		s->bs[d] = s->bs_min[d] = s->bs_max[d] = bs;
	s->iodepth = iodepth;
	s->iodepth_batch_complete_min = 1;
	s->iodepth_batch_complete_max = 1; /* fio's rule: iodepth_batch_complete_min */
	s->nrfiles = s->numjobs = s->loops = s->thinktime_blocks = 1;
	s->rwmixread = 50;
	s->randrepeat = true;
	s->randseed = 0x89;
	spec_eopt_set(s, "sqthread_poll_cpu", -1);
	s->size = 256ull << 20;
	s->runtime_us = 3000000;
	s->time_based = true;
	s->unlink = true;
	s->group_reporting = true;
	s->clat_percentiles = true;
	s->kb_base = 1024;
	s->unit_base = 0;
	s->stonewall = true;
	sb_spec_derive(s); /* as the parser does: engine_sync from the engine list */
}

static struct run *run_new(void)
{
	struct run *run = calloc(1, sizeof(*run));
	CU_ASSERT_FATAL(run != NULL);
	run->r.version = "storbench-0.1.0";
	run->r.jobs = calloc(MAXJ, sizeof(*run->r.jobs));
	CU_ASSERT_FATAL(run->r.jobs != NULL);
	return run;
}

static void add_io(struct sb_job_result *j, int d, uint64_t ios, uint64_t clat_ns)
{
	for (uint64_t k = 0; k < ios; k++) {
		sb_stat_add(&j->st.clat[d], clat_ns);
		sb_shist_add(&j->st.clat_h[d], clat_ns);
	}
	j->st.total_ios[d] += ios;
	j->st.io_bytes[d] += ios * j->spec->bs[d];
	j->runtime_ms[d] = j->job_runtime_ms = MS;
}

/* the next job: ios I/Os of direction d at clat_ns each over MS ms */
static struct sb_job_result *add_job(struct run *run, int d, uint64_t ios, uint64_t clat_ns)
{
	size_t i = run->r.njobs++;
	struct sb_job_result *j = &run->r.jobs[i];
	snprintf(j->name, sizeof(j->name), "%s", run->spec[i].name);
	j->spec = &run->spec[i];
	j->groupid = (unsigned)i;   /* stonewall: a group each */
	j->nthreads = 1;
	sb_tstats_init(&j->st);
	add_io(j, d, ios, clat_ns);
	return j;
}

static void run_free(struct run *run)
{
	sb_results_free(&run->r);
	free(run);
}

static const char *const engines[] = { "psync", "libaio", "io_uring", "mmap" };

static struct run *engine_compare(void)
{
	static const uint64_t rr_ios[] = { 10000, 20000, 25000, 5000 };
	static const uint64_t sw_ios[] = { 800, 1000, 1200, 400 };
	struct run *run = run_new();
	char name[64];
	for (int e = 0; e < 4; e++) {
		snprintf(name, sizeof(name), "randread-4k-%s", engines[e]);
		spec_init(&run->spec[e], name, SB_RW_READ | SB_RW_RANDOM, 4096, engines[e],
			  e == 0 ? 1 : 16);
		struct sb_job_result *j = add_job(run, SB_DDIR_READ, rr_ios[e], 40000 + 10000 * (uint64_t)e);
		j->usr_cpu = 2.0 + e;
		j->sys_cpu = 30.0 + e;
		j->st.usr_us = 100000;
		j->st.sys_us = 300000;
	}
	for (int e = 0; e < 4; e++) {
		snprintf(name, sizeof(name), "seqwrite-128k-%s", engines[e]);
		spec_init(&run->spec[4 + e], name, SB_RW_WRITE, 131072, engines[e], e == 0 ? 1 : 16);
		add_job(run, SB_DDIR_WRITE, sw_ios[e], 500000);
	}
	return run;
}

static void test_diff_rules(void)
{
	struct sb_jobspec a, b;
	const char *opt;
	char v[64];

	spec_init(&a, "a", SB_RW_READ | SB_RW_RANDOM, 4096, "psync", 1);
	spec_init(&b, "b", SB_RW_READ | SB_RW_RANDOM, 4096, "libaio", 16);
	/* iodepth means nothing to psync: the engine is the only difference */
	CU_ASSERT_EQUAL(sb_cmp_diff(&a, &b, &opt), 1);
	CU_ASSERT_STRING_EQUAL(opt, "ioengine");
	/* two async engines at different depths: two options */
	spec_init(&a, "a", SB_RW_READ | SB_RW_RANDOM, 4096, "io_uring", 32);
	CU_ASSERT_EQUAL(sb_cmp_diff(&a, &b, NULL), 2);
	/* depth alone on one async engine: one option (iodepth_batch_complete_max
	 * defaults to iodepth_batch_complete_min, not to iodepth) */
	spec_init(&a, "a", SB_RW_READ | SB_RW_RANDOM, 4096, "libaio", 1);
	CU_ASSERT_EQUAL(sb_cmp_diff(&a, &b, &opt), 1);
	CU_ASSERT_STRING_EQUAL(opt, "iodepth");
	/* depth on a synchronous engine: no difference at all */
	spec_init(&a, "a", SB_RW_READ | SB_RW_RANDOM, 4096, "psync", 1);
	spec_init(&b, "b", SB_RW_READ | SB_RW_RANDOM, 4096, "psync", 16);
	CU_ASSERT_EQUAL(sb_cmp_diff(&a, &b, &opt), 0);
	CU_ASSERT_PTR_NULL(opt);
	/* a job's identity and ordering are not options */
	b = a;
	snprintf(b.name, sizeof(b.name), "other");
	b.description = "another job";
	b.stonewall = false;
	b.new_group = true;
	b.wait_for = "a";
	b.groupid = 7;
	b.line = 99;
	CU_ASSERT_EQUAL(sb_cmp_diff(&a, &b, NULL), 0);
	/* bs with its resolved range is one option, and so is direct */
	b.bs[0] = b.bs_min[0] = b.bs_max[0] = 8192;
	CU_ASSERT_EQUAL(sb_cmp_diff(&a, &b, &opt), 1);
	CU_ASSERT_STRING_EQUAL(opt, "bs");
	b.direct = true;
	CU_ASSERT_EQUAL(sb_cmp_diff(&a, &b, NULL), 2);
	/* values in job-file syntax */
	CU_ASSERT_STRING_EQUAL(sb_cmp_value(&a, "bs", v, sizeof(v)), "4k");
	CU_ASSERT_STRING_EQUAL(sb_cmp_value(&b, "bs", v, sizeof(v)), "8k,4k,4k");
	CU_ASSERT_STRING_EQUAL(sb_cmp_value(&a, "rw", v, sizeof(v)), "randread");
	CU_ASSERT_STRING_EQUAL(sb_cmp_value(&a, "runtime", v, sizeof(v)), "3s");
	CU_ASSERT_STRING_EQUAL(sb_cmp_value(&a, "size", v, sizeof(v)), "256m");
	CU_ASSERT_STRING_EQUAL(sb_cmp_value(&a, "nosuch", v, sizeof(v)), "");
}

static void test_engine_sets(void)
{
	struct run *run = engine_compare();
	struct sb_cmp c;
	CU_ASSERT_EQUAL_FATAL(sb_cmp_build(&run->r, &c), 0);
	CU_ASSERT_EQUAL_FATAL(c.nsets, 2);
	for (size_t s = 0; s < 2; s++) {
		CU_ASSERT_STRING_EQUAL(c.sets[s].option, "ioengine");
		CU_ASSERT_EQUAL_FATAL(c.sets[s].nrows, 4);
		for (size_t k = 0; k < 4; k++) {
			CU_ASSERT_STRING_EQUAL(c.sets[s].rows[k].value, engines[k]);
			CU_ASSERT_PTR_EQUAL(c.sets[s].rows[k].job, &run->r.jobs[4 * s + k]);
		}
	}
	/* random reads by IOPS, sequential writes by bandwidth */
	const struct sb_cmp_set *rr = &c.sets[0], *sw = &c.sets[1];
	CU_ASSERT_STRING_EQUAL(rr->metric, "iops");
	CU_ASSERT_STRING_EQUAL(sw->metric, "bw");
	CU_ASSERT_DOUBLE_EQUAL(rr->rows[0].iops, 10000.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(rr->rows[0].ratio, 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rr->rows[1].ratio, 2.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rr->rows[2].ratio, 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rr->rows[3].ratio, 0.5, 1e-12);
	CU_ASSERT_EQUAL(sw->rows[1].bw_bytes, 1000ull * 131072);
	CU_ASSERT_DOUBLE_EQUAL(sw->rows[1].ratio, 1.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sw->rows[2].ratio, 1.5, 1e-12);
	/* 400 ms of CPU over 20000 I/Os; percentages as the job reported them */
	CU_ASSERT_DOUBLE_EQUAL(rr->rows[1].cpu_us_per_io, 20.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(rr->rows[1].usr_cpu, 3.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rr->rows[1].sys_cpu, 31.0, 1e-12);
	CU_ASSERT_EQUAL(rr->rows[2].clat_p50_ns, sb_hist_bucket_value(sb_hist_index(60000)));
	CU_ASSERT_EQUAL(rr->rows[2].clat_p99_9_ns, sb_hist_bucket_value(sb_hist_index(60000)));
	sb_cmp_free(&c);
	run_free(run);
}

static size_t nsets(struct run *run)
{
	struct sb_cmp c;
	CU_ASSERT_EQUAL(sb_cmp_build(&run->r, &c), 0);
	size_t n = c.nsets;
	sb_cmp_free(&c);
	return n;
}

static void test_no_sets(void)
{
	struct run *run = run_new();
	/* one job */
	spec_init(&run->spec[0], "a", SB_RW_READ, 4096, "libaio", 16);
	add_job(run, SB_DDIR_READ, 100, 1000);
	CU_ASSERT_EQUAL(nsets(run), 0);
	/* engine and block size both differ */
	spec_init(&run->spec[1], "b", SB_RW_READ, 8192, "io_uring", 16);
	add_job(run, SB_DDIR_READ, 100, 1000);
	CU_ASSERT_EQUAL(nsets(run), 0);
	/* the same job twice: nothing differs */
	run->spec[1] = run->spec[0];
	CU_ASSERT_EQUAL(nsets(run), 0);
	run_free(run);
}

/* psync(1) and libaio(16) differ by engine, psync and io_uring(32) too, but
 * libaio and io_uring differ by engine and depth: io_uring stays out. */
static void test_pairwise(void)
{
	struct run *run = run_new();
	struct sb_cmp c;
	spec_init(&run->spec[0], "p", SB_RW_READ | SB_RW_RANDOM, 4096, "psync", 1);
	spec_init(&run->spec[1], "l", SB_RW_READ | SB_RW_RANDOM, 4096, "libaio", 16);
	spec_init(&run->spec[2], "u", SB_RW_READ | SB_RW_RANDOM, 4096, "io_uring", 32);
	/* differs from l by bs: may not join the engine set */
	spec_init(&run->spec[3], "l8", SB_RW_READ | SB_RW_RANDOM, 8192, "libaio", 16);
	for (int i = 0; i < 4; i++)
		add_job(run, SB_DDIR_READ, 1000, 1000);
	CU_ASSERT_EQUAL_FATAL(sb_cmp_build(&run->r, &c), 0);
	CU_ASSERT_EQUAL_FATAL(c.nsets, 1);
	CU_ASSERT_EQUAL_FATAL(c.sets[0].nrows, 2);
	CU_ASSERT_STRING_EQUAL(c.sets[0].rows[0].job->name, "p");
	CU_ASSERT_STRING_EQUAL(c.sets[0].rows[1].job->name, "l");
	sb_cmp_free(&c);
	run_free(run);
}

/* mixed reads and writes: percentiles over both directions, CPU per I/O
 * over both, and a zero baseline gives ratio 0, not a division by zero */
static void test_mixed_rows(void)
{
	struct run *run = run_new();
	struct sb_cmp c;
	spec_init(&run->spec[0], "d1", SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM, 4096, "libaio", 1);
	spec_init(&run->spec[1], "d32", SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM, 4096, "libaio", 32);
	struct sb_job_result *j = add_job(run, SB_DDIR_READ, 100, 10000);
	add_io(j, SB_DDIR_WRITE, 100, 100000);
	j->st.usr_us = 500;
	j->st.sys_us = 1500;
	add_job(run, SB_DDIR_READ, 0, 0);
	CU_ASSERT_EQUAL_FATAL(sb_cmp_build(&run->r, &c), 0);
	CU_ASSERT_EQUAL_FATAL(c.nsets, 1);
	const struct sb_cmp_row *row = &c.sets[0].rows[0];
	CU_ASSERT_STRING_EQUAL(c.sets[0].option, "iodepth");
	CU_ASSERT_STRING_EQUAL(row->value, "1");
	CU_ASSERT_STRING_EQUAL(c.sets[0].rows[1].value, "32");
	CU_ASSERT_DOUBLE_EQUAL(row->iops, 200.0, 1e-9);
	CU_ASSERT_EQUAL(row->clat_p50_ns, sb_hist_bucket_value(sb_hist_index(10000)));
	CU_ASSERT_EQUAL(row->clat_p99_ns, sb_hist_bucket_value(sb_hist_index(100000)));
	CU_ASSERT_DOUBLE_EQUAL(row->cpu_us_per_io, 10.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(c.sets[0].rows[1].ratio, 0.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c.sets[0].rows[1].cpu_us_per_io, 0.0, 1e-12);
	sb_cmp_free(&c);
	run_free(run);
}

static void test_normal_table(void)
{
	struct run *run = engine_compare();
	char *out = sb_tj_render(&run->r, SB_FMT_NORMAL);
	const char *last_job = strstr(out, "seqwrite-128k-mmap: (groupid=7");
	const char *t1 = strstr(out, "\nComparison by ioengine (ratio: IOPS relative to the first row):\n");
	const char *t2 = strstr(out, "\nComparison by ioengine (ratio: bandwidth relative to the first row):\n");
	CU_ASSERT_FATAL(last_job && t1 && t2);
	/* the tables end the report, in job order */
	CU_ASSERT_TRUE(last_job < t1 && t1 < t2);
	CU_ASSERT_PTR_NOT_NULL(strstr(t1, "  ioengine     IOPS           BW  clat p50       p99     p99.9     usr     sys  CPU us/IO  ratio  job\n"));
	/* io_uring: 25k IOPS, 97.7 MiB/s, 60 us, 4% + 32%, 400 ms / 25000 I/Os */
	CU_ASSERT_PTR_NOT_NULL(strstr(t1, "  io_uring    25.0k"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t1, "97.7MiB/s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t1, "   4.0%   32.0%      16.00   2.50  randread-4k-io_uring\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t2, "  libaio"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t2, "125MiB/s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t2, "  1.25  seqwrite-128k-libaio\n"));
	/* latencies scale: 60.0us from the 60 us bucket, 500 us writes */
	CU_ASSERT_PTR_NOT_NULL(strstr(t1, "us"));
	CU_ASSERT_PTR_NULL(strstr(out, "Comparison by iodepth"));
	free(out);
	run_free(run);
}

static void test_json_comparisons(void)
{
	struct run *run = engine_compare();
	char *doc = sb_tj_render(&run->r, SB_FMT_JSON);
	char path[96];
	CU_ASSERT_FATAL(sb_tj_valid(doc));
	/* after fio's keys: "disk_util" stays where fio has it */
	CU_ASSERT_TRUE(strstr(doc, "\"disk_util\"") < strstr(doc, "\"comparisons\""));
	CU_ASSERT_TRUE(sb_tj_str_is(doc, "comparisons/0/option", "ioengine"));
	CU_ASSERT_TRUE(sb_tj_str_is(doc, "comparisons/0/metric", "iops"));
	CU_ASSERT_TRUE(sb_tj_str_is(doc, "comparisons/1/metric", "bw"));
	for (int k = 0; k < 4; k++) {
		snprintf(path, sizeof(path), "comparisons/0/rows/%d/value", k);
		CU_ASSERT_TRUE(sb_tj_str_is(doc, path, engines[k]));
	}
	CU_ASSERT_TRUE(sb_tj_str_is(doc, "comparisons/0/rows/2/jobname", "randread-4k-io_uring"));
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "comparisons/0/rows/2/iops"), 25000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "comparisons/0/rows/2/bw_bytes"), 25000.0 * 4096, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "comparisons/0/rows/2/clat_p50_ns"),
			       (double)sb_hist_bucket_value(sb_hist_index(60000)), 1e-6);
	CU_ASSERT_PTR_NOT_NULL(sb_tj_get(doc, "comparisons/0/rows/2/clat_p99_ns"));
	CU_ASSERT_PTR_NOT_NULL(sb_tj_get(doc, "comparisons/0/rows/2/clat_p99_9_ns"));
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "comparisons/0/rows/2/usr_cpu"), 4.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "comparisons/0/rows/2/sys_cpu"), 32.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "comparisons/0/rows/2/cpu_us_per_io"), 16.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "comparisons/0/rows/2/ratio"), 2.5, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "comparisons/1/rows/3/ratio"), 0.5, 1e-6);
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "comparisons/2"));
	free(doc);
	/* nothing to compare: the key is there, the array empty */
	run->r.njobs = 1;
	doc = sb_tj_render(&run->r, SB_FMT_JSON);
	CU_ASSERT_FATAL(sb_tj_valid(doc));
	const char *arr = sb_tj_get(doc, "comparisons");
	CU_ASSERT_TRUE(arr && arr[0] == '[');
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "comparisons/0"));
	free(doc);
	run->r.njobs = 8;
	run_free(run);
}

/* ---- the grouping against its definition, and its cost */

/* compare.h's rule as written, pair by pair (what sb_cmp_build did before it
 * grouped jobs by hashes): sets[] gets each set's members, -1 ended; the
 * option of set k in opts[k].  Returns the number of sets. */
static const char *ref_one(const struct sb_jobspec *a, const struct sb_jobspec *b)
{
	const char *o;
	return sb_cmp_diff(a, b, &o) == 1 ? o : NULL;
}

static size_t ref_sets(const struct sb_jobspec *sp, size_t n, int sets[][MAXR + 1],
		       const char **opts)
{
	char used[MAXR] = { 0 };
	size_t ns = 0;
	for (size_t i = 0; i < n; i++) {
		size_t mem[MAXR], m = 0;
		const char *opt = NULL;
		if (used[i])
			continue;
		mem[m++] = i;
		for (size_t k = i + 1; k < n; k++) {
			const char *o = used[k] ? NULL : ref_one(&sp[i], &sp[k]);
			bool ok = o && (!opt || o == opt);
			for (size_t x = 1; ok && x < m; x++)
				ok = ref_one(&sp[mem[x]], &sp[k]) == o;
			if (ok) {
				opt = o;
				mem[m++] = k;
			}
		}
		if (m < 2)
			continue;
		for (size_t x = 0; x < m; x++) {
			used[mem[x]] = 1;
			sets[ns][x] = (int)mem[x];
		}
		sets[ns][m] = -1;
		opts[ns++] = opt;
	}
	return ns;
}

/* random job lists from a small space (so that many pairs differ in one
 * option, many in none, some engines synchronous): the sets and their order
 * are the rule's */
static void test_grouping_matches_rule(void)
{
	static const char *const eng[] = { "psync", "libaio", "io_uring", "null" };
	static const unsigned depth[] = { 1, 16, 32 };
	static const uint64_t bsz[] = { 4096, 8192 };
	static struct sb_jobspec sp[MAXR];
	static struct sb_job_result jobs[MAXR];
	static int want[MAXR][MAXR + 1];
	const char *wopt[MAXR];
	uint64_t seed = 0x5eed;
	for (int trial = 0; trial < 3000; trial++) {
		struct sb_results r = { .jobs = jobs };
		size_t n = 2 + (size_t)(trial % (MAXR - 1));
		for (size_t j = 0; j < n; j++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			unsigned x = (unsigned)(seed >> 33);
			spec_init(&sp[j], "j", SB_RW_READ | (x & 1 ? SB_RW_RANDOM : 0), bsz[(x >> 1) & 1],
				  eng[(x >> 2) & 3], depth[(x >> 4) % 3]);
			sp[j].direct = (x >> 6) % 4 == 0;
			memset(&jobs[j], 0, sizeof(jobs[j]));
			jobs[j].spec = (x >> 8) % 16 ? &sp[j] : NULL; /* now and then no spec */
		}
		r.njobs = n;
		/* the reference skips jobs without a spec the same way */
		static struct sb_jobspec live[MAXR];
		size_t idx[MAXR], nl = 0;
		for (size_t j = 0; j < n; j++)
			if (jobs[j].spec) {
				idx[nl] = j;
				live[nl++] = sp[j];
			}
		size_t ns = ref_sets(live, nl, want, wopt);
		struct sb_cmp c;
		CU_ASSERT_EQUAL_FATAL(sb_cmp_build(&r, &c), 0);
		CU_ASSERT_EQUAL_FATAL(c.nsets, ns);
		for (size_t k = 0; k < ns; k++) {
			CU_ASSERT_STRING_EQUAL(c.sets[k].option, wopt[k]);
			size_t m = 0;
			while (want[k][m] >= 0)
				m++;
			CU_ASSERT_EQUAL_FATAL(c.sets[k].nrows, m);
			for (size_t x = 0; x < m; x++)
				CU_ASSERT_PTR_EQUAL(c.sets[k].rows[x].job, &jobs[idx[want[k][x]]]);
		}
		sb_cmp_free(&c);
	}
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Grouping the jobs for the report must scale: numjobs=4096 must report in
 * seconds, which comparing every pair of jobs (~110 option formats a pair)
 * cannot do (over 30 s).  Here 7680 jobs: four
 * jobs of numjobs=1536 that differ in the engine, and one more of 1536.
 * Pair by pair that is 2.9e7 pairs: the pairwise code took 92 s for 5120 of
 * these jobs (1.3e7 pairs) on a loaded 2-core VM, so a minute at least on
 * any machine here.  Grouped, it is 7680 x 55 formats and a sort: 0.2 s,
 * 0.4 s under ASan on that VM.  The bound of 10 s leaves a loaded machine and a
 * sanitizer build a wide margin and cannot be met by anything quadratic.  (A
 * count of comparisons would need a hook in the code; the sets' shape is
 * checked too.)  The results array is 1.4 GB of zero pages: only the pages
 * of the spec pointers are touched. */
static void test_grouping_scales(void)
{
	enum { PER = 1536, NJ = 5 * PER };
	struct sb_jobspec *sp = calloc(5, sizeof(*sp));
	struct sb_results r = { .njobs = NJ };
	/* large and zero-filled: only the pages of the spec pointers are touched */
	r.jobs = calloc(NJ, sizeof(*r.jobs));
	CU_ASSERT_FATAL(sp && r.jobs);
	for (int e = 0; e < 4; e++)
		spec_init(&sp[e], "e", SB_RW_READ | SB_RW_RANDOM, 4096, engines[e], 16);
	spec_init(&sp[4], "other", SB_RW_WRITE, 65536, "libaio", 4);
	for (size_t j = 0; j < NJ; j++)
		r.jobs[j].spec = &sp[j / PER];
	struct sb_cmp c;
	double t0 = now_s();
	CU_ASSERT_EQUAL_FATAL(sb_cmp_build(&r, &c), 0);
	double dt = now_s() - t0;
	CU_ASSERT(dt < 10.0);
	if (dt >= 10.0)
		fprintf(stderr, "\n  sb_cmp_build of %d jobs took %.1f s\n", NJ, dt);
	/* the k-th clone of each engine's job forms set k */
	CU_ASSERT_EQUAL_FATAL(c.nsets, PER);
	for (size_t k = 0; k < PER; k += 307) {
		CU_ASSERT_STRING_EQUAL(c.sets[k].option, "ioengine");
		CU_ASSERT_EQUAL_FATAL(c.sets[k].nrows, 4);
		for (size_t e = 0; e < 4; e++)
			CU_ASSERT_PTR_EQUAL(c.sets[k].rows[e].job, &r.jobs[e * PER + k]);
	}
	sb_cmp_free(&c);
	free(r.jobs);
	free(sp);
}

/* the options compared are the table's rows that change what the I/O does:
 * the I/O options, the buffer-contents options and the rest listed below
 * (ML, log and identity options are not compared) */
static void test_compared_options(void)
{
	static const char *const want[] = {
		"filename", "directory", "nrfiles", "filesize", "size", "io_size", "offset", "rw",
		"rwmixread", "bs", "blockalign", "numjobs", "thread", "ioengine", "iodepth",
		"iodepth_batch_submit", "iodepth_batch_complete_min", "iodepth_batch_complete_max",
		"direct", "fsync", "fdatasync", "end_fsync",
		/* per-I/O priorities of libaio and io_uring */
		"cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit",
		"userspace_reap", "fixedbufs",
		"registerfiles", "sqthread_poll", "sqthread_poll_cpu", "hipri", "nonvectored", "cuda_io", "stat_type",
		/* the object-storage engines' (engines/s3.c) */
		"http_host", "http_user", "http_pass", "http_s3_keyid", "http_s3_key", "http_s3_security_token",
		"http_s3_region", "http_s3_storage_class", "http_swift_auth_token", "s3_bucket", "https",
		"http_mode", "http_object_mode", "http_verbose", "s3_object_size", "s3_path_style",
		"s3_sign_payload", "s3_retries", "s3_multipart_size",
		/* cpuio's (engines/cpuio.c) */
		"cpuload", "cpuchunks", "cpumode", "exit_on_io_done",
		/* exec's (engines/exec.c) */
		"program", "arguments", "grace_time", "std_redirect", "runtime",
		"time_based", "ramp_time", "startdelay", "loops", "group_reporting", "randrepeat",
		"randseed", "norandommap", "random_distribution", "rate", "rate_iops", "thinktime",
		"thinktime_spin", "thinktime_blocks", "unlink", "fallocate", "allow_mounted_write",
		"percentile_list", "clat_percentiles", "lat_percentiles", "kb_base", "unit_base",
		/* what is written changes what storage does with it */
		"scramble_buffers", "scramble_whole_buffers", "refill_buffers", "zero_buffers", "buffer_pattern",
		"buffer_compress_percentage", "buffer_compress_chunk", "dedupe_percentage",
		"dedupe_mode", "dedupe_working_set_percentage",
		/* verify=: what is written and read back */
		"verify", "do_verify", "verify_only", "verify_interval", "verify_offset",
		"verify_pattern", "verify_backlog", "verify_backlog_batch",
		/* a replayed log is the I/O */
		"read_iolog", "replay_no_stall", "replay_time_scale", "replay_redirect", "replay_align",
		"replay_scale", "replay_skip",
		/* what changes how the job runs or what it measures */
		"continue_on_error", "ignore_error", "flow", "flow_id", "flow_sleep", "rate_min",
		"rate_iops_min", "rate_cycle", "rate_process", "steadystate", "steadystate_duration",
		"steadystate_ramp_time", "gtod_reduce", "disable_lat", "disable_clat", "disable_slat",
		"disable_bw_measurement", "slat_percentiles",
		/* where the job runs and what it does to its files */
		"cpus_allowed", "cpumask", "cpus_allowed_policy", "numa_cpu_nodes", "numa_mem_policy",
		"iomem", "gpu_dev_id", "gpu_dev_ids", "iomem_align", "nice", "prio", "prioclass", "fadvise_hint",
		"pre_read", "fsync_on_close", "write_hint", "file_service_type",
		"file_append", "overwrite", "create_only", "max_latency", "atomic", "lockfile",
		"ioscheduler", "opendir", "openfiles", "sync_file_range",
		/* where the I/O goes */
		"offset_increment", "offset_align", "number_ios", "rw_sequencer", "allrandrepeat",
		"random_generator", "percentage_random",
		/* think time and the sample windows */
		"thinktime_blocks_type", "thinktime_iotime", "rate_ignore_thinktime", "bwavgtime",
		"iopsavgtime",
		/* fio's other I/O and file options */
		"iodepth_low", "sync", "bs_unaligned", "create_fsync", "create_on_open", "lockmem",
		"hugepage-size", "cgroup", "cgroup_weight", "trim_percentage", "trim_verify_zero",
		"trim_backlog", "trim_backlog_batch",
		/* fill the file system, serialize overlapping I/Os */
		"fill_device", "serialize_overlap",
		/* what is written; an accepted stats switch */
		"dedupe_global", "block_error_percentiles",
		/* the queue-depth search */
		"latency_target", "latency_window", "latency_percentile", "latency_run",
		/* files removed between loops */
		"unlink_each_loop",
		/* zones */
		"zonemode", "zonesize", "zonerange", "zoneskip", "zonecapacity", "read_beyond_wp",
		"max_open_zones", "job_max_open_zones", "ignore_zone_limits", "zone_reset_threshold",
		"zone_reset_frequency",
	};
	unsigned n = sizeof(want) / sizeof(want[0]), qd = 0;
	CU_ASSERT_EQUAL(sb_cmp_nopts(), n);
	for (unsigned i = 0; i < n; i++) {
		unsigned k = 0;
		while (k < sb_cmp_nopts() && strcmp(sb_cmp_opt_name(k), want[i]))
			k++;
		CU_ASSERT(k < sb_cmp_nopts());
		qd += k < sb_cmp_nopts() && sb_cmp_opt_qdepth(k);
	}
	CU_ASSERT_EQUAL(qd, 4); /* iodepth and the three batch options */
	CU_ASSERT_STRING_EQUAL(sb_cmp_opt_name(sb_cmp_opt_engine()), "ioengine");
	CU_ASSERT_PTR_NULL(sb_cmp_opt_name(sb_cmp_nopts()));
}

static CU_TestInfo tests[] = {
	{ "diff rules", test_diff_rules },
	{ "engine-compare sets and ratios", test_engine_sets },
	{ "no sets", test_no_sets },
	{ "pairwise membership", test_pairwise },
	{ "mixed directions and zero baseline", test_mixed_rows },
	{ "normal table", test_normal_table },
	{ "json comparisons", test_json_comparisons },
	{ "grouping matches the pairwise rule", test_grouping_matches_rule },
	{ "grouping of 7680 jobs is not quadratic", test_grouping_scales },
	{ "compared options are the table's", test_compared_options },
	CU_TEST_INFO_NULL,
};
SB_SUITE(compare, tests)
