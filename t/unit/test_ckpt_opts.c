/* test_ckpt_opts.c: workload=checkpoint's options in its own struct
 * (ml/checkpoint/opts.h): every row of its own lands in the spec's wl_opts
 * area and is found by SB_CKPT_OPT, the shared rows (SB_OF_SPEC) stay in
 * struct sb_jobspec; values and defaults reach the struct, the text one is
 * copied and freed with the spec; each own option is refused on a job of
 * every other workload with file:line, the shared ones are not (train);
 * the --readonly and GPU-memory hooks and checkpoint_verify's checks. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "ml/checkpoint/ckpt.h"
#include "ml/checkpoint/opts.h"
#include "ml/registry.h"
#include "parse/jobspec.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/workloads.h"

static char logbuf[8192];

static int parse(const char *text, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	logbuf[0] = '\0';
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("ck.ini", text, jl);
	sb_log_capture(NULL, 0);
	return rc;
}

static const struct sb_parse_workload *ckpt_wl(void)
{
	return sb_parse_workload_find(sb_workload_id(&sb_workload_checkpoint));
}

/* every row: its own in the struct (and in the wl_opts area as the parser
 * holds it), the shared ones at their spec offset, outside that area */
static void test_rows_placed(void)
{
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	const struct sb_parse_workload *w = ckpt_wl();
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->opts_size, sizeof(struct sb_ckpt_opts));
	CU_ASSERT_EQUAL_FATAL(w->nrows, sb_ckpt_rows_n);
	size_t area = offsetof(struct sb_jobspec, wl_opts), own = 0, shared = 0;
	for (unsigned k = 0; k < sb_ckpt_rows_n; k++) {
		const struct sb_option *o = &sb_ckpt_rows[k], *p = &w->rows[k];
		CU_ASSERT_PTR_EQUAL(sb_option_find(o->name), p); /* the table holds the copy */
		if (o->flags & SB_OF_SPEC) {
			shared++;
			CU_ASSERT_EQUAL(p->off, o->off);
			CU_ASSERT(o->off < area || o->off >= area + SB_SPEC_WLOPTS_MAX);
			CU_ASSERT(o->off < sizeof(struct sb_jobspec));
			continue;
		}
		own++;
		CU_ASSERT(o->off < sizeof(struct sb_ckpt_opts));
		CU_ASSERT(p->off >= area && p->off < area + SB_SPEC_WLOPTS_MAX);
		CU_ASSERT_PTR_EQUAL(sb_ckpt_opt(o->off), p);
	}
	CU_ASSERT(own > 0 && shared > 0);
	/* each field of the struct has its row, by that field's name */
	static const struct {
		size_t off;
		const char *name;
	} fields[] = {
#define F(f, n) { offsetof(struct sb_ckpt_opts, f), n }
		F(ranks, "ranks"), F(subset, "subset"), F(checkpoint_scale, "checkpoint_scale"),
		F(num_checkpoints_write, "num_checkpoints_write"),
		F(num_checkpoints_read, "num_checkpoints_read"),
		F(time_between_checkpoints_us, "time_between_checkpoints"),
		F(checkpoint_rank_sync, "checkpoint_rank_sync"), F(checkpoint_io, "checkpoint_io"),
		F(checkpoint_source, "checkpoint_source"), F(checkpoint_content, "checkpoint_content"),
		F(checkpoint_verify, "checkpoint_verify"),
		F(checkpoint_cache_folder, "checkpoint_cache_folder"),
		F(checkpoint_flush, "checkpoint_flush"), F(flush_threads, "flush_threads"),
		F(flush_bs, "flush_bs"), F(cache_keep, "cache_keep"),
		F(checkpoint_redundancy, "checkpoint_redundancy"), F(set_size, "set_size"),
#undef F
	};
	CU_ASSERT_EQUAL(own, sizeof(fields) / sizeof(fields[0]));
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		CU_ASSERT_STRING_EQUAL(sb_ckpt_opt(fields[i].off)->name, fields[i].name);
	/* the shared ones stay in the spec */
	CU_ASSERT_PTR_EQUAL(sb_option_find("model"), SB_OPT(ml_model));
	CU_ASSERT_PTR_EQUAL(sb_option_find("checkpoint_folder"), SB_OPT(checkpoint_folder));
	CU_ASSERT_PTR_EQUAL(sb_option_find("keep_checkpoints"), SB_OPT(keep_checkpoints));
	CU_ASSERT_PTR_EQUAL(sb_option_find("checkpoint_fsync"), SB_OPT(checkpoint_fsync));
	CU_ASSERT_PTR_EQUAL(sb_option_find("results_dir"), SB_OPT(results_dir));
}

/* a row flagged SB_OF_SPEC must lie inside struct sb_jobspec */
static void test_spec_row_bounds(void)
{
	struct sb_option rows[] = {
		{ .name = "tck_own", .type = SB_OT_UINT, .off = 0, .def = "1", .category = SB_CAT_ML },
		{ .name = "tck_shared", .type = SB_OT_UINT, .off = sizeof(struct sb_jobspec),
		  .flags = SB_OF_SPEC, .category = SB_CAT_ML },
	};
	struct sb_parse_workload w = { .id = 9, .name = "tck", .rows = rows, .nrows = 2,
				       .opts_size = sizeof(unsigned) };
	CU_ASSERT_EQUAL(sb_parse_set_workloads(&w, 1), -EINVAL);
	rows[1].off = offsetof(struct sb_jobspec, iodepth);
	CU_ASSERT_EQUAL(sb_parse_set_workloads(&w, 1), 0);
	const struct sb_parse_workload *p = sb_parse_workload_find(9);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->rows[1].off, offsetof(struct sb_jobspec, iodepth)); /* not moved */
	CU_ASSERT_EQUAL(p->rows[0].off, offsetof(struct sb_jobspec, wl_opts)); /* moved */
	CU_ASSERT_EQUAL(sb_workloads_hand_down(), 0);
}

static void test_values(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	CU_ASSERT_EQUAL_FATAL(parse("[c]\nworkload=checkpoint\nioengine=psync\nmodel=llama3-70b\ndp=2\n"
				    "subset=1\nranks=4\ncheckpoint_scale=0.25\n"
				    "num_checkpoints_write=3\nnum_checkpoints_read=2\n"
				    "time_between_checkpoints=2\ncheckpoint_rank_sync=1\n"
				    "checkpoint_io=torch\ncheckpoint_content=dlio\ncheckpoint_verify=1\n"
				    "checkpoint_cache_folder=/tmp/tck cache\ncheckpoint_flush=sync\n"
				    "flush_threads=3\nflush_bs=2m\ncache_keep=2\n"
				    "checkpoint_redundancy=xor\nset_size=2\n", &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 1u);
	const struct sb_ckpt_opts *o = sb_ckpt_opts(&jl.jobs[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT(o->subset);
	CU_ASSERT_EQUAL(o->ranks, 4u);
	CU_ASSERT_DOUBLE_EQUAL(o->checkpoint_scale, 0.25, 1e-12);
	CU_ASSERT_EQUAL(o->num_checkpoints_write, 3u);
	CU_ASSERT_EQUAL(o->num_checkpoints_read, 2u);
	CU_ASSERT_EQUAL(o->time_between_checkpoints_us, 2000000u);
	CU_ASSERT(o->checkpoint_rank_sync && o->checkpoint_verify);
	CU_ASSERT_EQUAL(o->checkpoint_io, SB_CKPT_IO_TORCH);
	CU_ASSERT_EQUAL(o->checkpoint_content, SB_CKPT_CONTENT_DLIO);
	CU_ASSERT_EQUAL(o->checkpoint_source, SB_ML_MEM_HOST);
	CU_ASSERT_STRING_EQUAL(o->checkpoint_cache_folder, "/tmp/tck cache");
	CU_ASSERT_EQUAL(o->checkpoint_flush, SB_CKPT_FLUSH_SYNC);
	CU_ASSERT_EQUAL(o->flush_threads, 3u);
	CU_ASSERT_EQUAL(o->flush_bs, 2u << 20);
	CU_ASSERT_EQUAL(o->cache_keep, 2u);
	CU_ASSERT_EQUAL(o->checkpoint_redundancy, SB_CKPT_RED_XOR);
	CU_ASSERT_EQUAL(o->set_size, 2u);
	/* the copy owns its own text */
	struct sb_jobspec *copy = malloc(sizeof(*copy));
	CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
	CU_ASSERT_EQUAL_FATAL(sb_spec_copy(copy, &jl.jobs[0]), 0);
	const struct sb_ckpt_opts *oc = sb_ckpt_opts(copy);
	CU_ASSERT_PTR_NOT_NULL_FATAL(oc);
	CU_ASSERT_PTR_NOT_EQUAL(oc->checkpoint_cache_folder, o->checkpoint_cache_folder);
	CU_ASSERT_STRING_EQUAL(oc->checkpoint_cache_folder, "/tmp/tck cache");
	CU_ASSERT_EQUAL(oc->flush_bs, 2u << 20);
	sb_spec_release(copy);
	free(copy);
	CU_ASSERT_STRING_EQUAL(o->checkpoint_cache_folder, "/tmp/tck cache");
	sb_joblist_free(&jl);
}

static void test_defaults(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	CU_ASSERT_EQUAL_FATAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\n", &jl), 0);
	const struct sb_ckpt_opts *o = sb_ckpt_opts(&jl.jobs[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(o->ranks, 8u); /* resolved by the check: tp*pp*dp */
	CU_ASSERT_FALSE(o->subset);
	CU_ASSERT_DOUBLE_EQUAL(o->checkpoint_scale, 1, 1e-12);
	CU_ASSERT_EQUAL(o->num_checkpoints_write, 10u);
	CU_ASSERT_EQUAL(o->num_checkpoints_read, 10u);
	CU_ASSERT_EQUAL(o->time_between_checkpoints_us, 0u);
	CU_ASSERT_EQUAL(o->checkpoint_io, SB_CKPT_IO_BS);
	CU_ASSERT_EQUAL(o->checkpoint_content, SB_CKPT_CONTENT_UNIQUE);
	CU_ASSERT_PTR_NULL(o->checkpoint_cache_folder);
	CU_ASSERT_EQUAL(o->checkpoint_flush, SB_CKPT_FLUSH_ASYNC);
	CU_ASSERT_EQUAL(o->flush_threads, 1u);
	CU_ASSERT_EQUAL(o->flush_bs, 1u << 20);
	CU_ASSERT_EQUAL(o->cache_keep, 1u);
	CU_ASSERT_EQUAL(o->checkpoint_redundancy, SB_CKPT_RED_SINGLE);
	CU_ASSERT_EQUAL(o->set_size, 8u);
	CU_ASSERT(jl.jobs[0].checkpoint_fsync); /* shared: in the spec */
	sb_joblist_free(&jl);
	/* rules=mlperf resolves checkpoint_content to DLIO's */
	CU_ASSERT_EQUAL_FATAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\nrules=mlperf\n", &jl), 0);
	CU_ASSERT_EQUAL(sb_ckpt_opts(&jl.jobs[0])->checkpoint_content, SB_CKPT_CONTENT_DLIO);
	/* not a checkpoint job: no struct */
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL_FATAL(parse("[i]\nsize=1m\n", &jl), 0);
	CU_ASSERT_PTR_NULL(sb_ckpt_opts(&jl.jobs[0]));
	sb_joblist_free(&jl);
}

/* a value the row takes */
static const char *a_value(const struct sb_option *o)
{
	if (o->type == SB_OT_STR)
		return "/tmp/tck";
	if (o->type == SB_OT_ENUM)
		return o->enums[o->enums[1].name ? 1 : 0].name;
	if (o->type == SB_OT_BOOL)
		return "1";
	return o->type == SB_OT_FLOAT ? "0.5" : "2";
}

/* each own option on a job of every other workload: refused at its line;
 * the shared checkpoint_folder on a train job: not refused as misplaced */
static void test_refused_elsewhere(void)
{
	static const char *const others[] = { "io", "train", "kvcache" };
	struct sb_joblist jl;
	char text[512], want[256];
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	for (unsigned k = 0; k < sb_ckpt_rows_n; k++) {
		const struct sb_option *o = &sb_ckpt_rows[k];
		if (o->flags & SB_OF_SPEC)
			continue;
		for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
			const char *v = a_value(o);
			snprintf(text, sizeof(text), "[x]\nworkload=%s\nioengine=null\n%s=%s\n", others[i],
				 o->name, v);
			CU_ASSERT_NOT_EQUAL(parse(text, &jl), 0);
			snprintf(want, sizeof(want), "ck.ini:4: %s=%s applies to workload=checkpoint, but "
				 "job 'x' has workload=%s: add workload=checkpoint to the job or remove %s=",
				 o->name, v, others[i], o->name);
			if (!strstr(logbuf, want))
				fprintf(stderr, "\n  missing: %s\n  log: %s", want, logbuf);
			CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, want));
			sb_joblist_free(&jl);
		}
	}
	parse("[t]\nworkload=train\ncheckpoint_folder=/tmp/tck\n", &jl);
	CU_ASSERT_PTR_NULL(strstr(logbuf, "checkpoint_folder=/tmp/tck applies to"));
	sb_joblist_free(&jl);
}

/* --readonly: a checkpoint job that writes is refused at
 * num_checkpoints_write, a read-only one is not */
static void test_readonly(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	CU_ASSERT_EQUAL_FATAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\nnum_checkpoints_write=3\n"
				    "num_checkpoints_read=0\n", &jl), 0);
	sb_log_capture(logbuf, sizeof(logbuf));
	CU_ASSERT_EQUAL(sb_joblist_check_readonly(&jl), -EINVAL);
	sb_log_capture(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ck.ini:4: num_checkpoints_write=3: job 'c' writes "
				      "checkpoints, and --readonly refuses any write: set "
				      "num_checkpoints_write=0 to read existing ones, or drop --readonly"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL_FATAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\nnum_checkpoints_write=0\n",
				    &jl), 0);
	logbuf[0] = '\0';
	sb_log_capture(logbuf, sizeof(logbuf));
	CU_ASSERT_EQUAL(sb_joblist_check_readonly(&jl), 0);
	sb_log_capture(NULL, 0);
	CU_ASSERT_STRING_EQUAL(logbuf, "");
	sb_joblist_free(&jl);
}

/* checkpoint_source=gpu is the option that puts the job's data in GPU memory */
static void test_gpu_mem(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	const struct sb_parse_workload *w = ckpt_wl();
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w->gpu_mem);
	CU_ASSERT_EQUAL_FATAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\n", &jl), 0);
	CU_ASSERT_PTR_NULL(w->gpu_mem(&jl.jobs[0]));
	struct sb_ckpt_opts *o = sb_ckpt_opts_mut(&jl.jobs[0]);
	o->checkpoint_source = SB_ML_MEM_GPU;
	CU_ASSERT_PTR_EQUAL(w->gpu_mem(&jl.jobs[0]), sb_option_find("checkpoint_source"));
	sb_joblist_free(&jl);
}

/* checkpoint_verify needs reads, and an engine that reads: each refused at
 * its line, after (not instead of) the job's other errors */
static void test_verify(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	CU_ASSERT_NOT_EQUAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\nnum_checkpoints_read=0\n"
				  "checkpoint_verify=1\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ck.ini:5: checkpoint_verify=1 checks what is read back, "
				      "but job 'c' has num_checkpoints_read=0"));
	sb_joblist_free(&jl);
	CU_ASSERT_NOT_EQUAL(parse("[c]\nworkload=checkpoint\nioengine=null\nmodel=llama3-8b\n"
				  "num_checkpoints_write=2\nnum_checkpoints_read=3\ncheckpoint_verify=1\n",
				  &jl), 0);
	const char *more = strstr(logbuf, "ck.ini:6: num_checkpoints_read=3 is more than");
	const char *null = strstr(logbuf, "ck.ini:7: checkpoint_verify=1 checks data read from "
				  "storage, but job 'c' has ioengine=null");
	CU_ASSERT_PTR_NOT_NULL(more);
	CU_ASSERT_PTR_NOT_NULL(null);
	CU_ASSERT(more && null && more < null);
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[c]\nworkload=checkpoint\nioengine=psync\nmodel=llama3-8b\n"
			      "checkpoint_verify=1\n", &jl), 0);
	sb_joblist_free(&jl);
}

static CU_TestInfo tests[] = {
	{ "rows placed", test_rows_placed },
	{ "shared row bounds", test_spec_row_bounds },
	{ "values", test_values },
	{ "defaults", test_defaults },
	{ "refused elsewhere", test_refused_elsewhere },
	{ "readonly", test_readonly },
	{ "gpu memory", test_gpu_mem },
	{ "verify", test_verify },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ckpt_opts, tests)
