/* test_options.c: CUnit suite "options": the option table (parse/options.c)
 * is complete and consistent, lookups by alias and "did you mean", fio's
 * defaults, inverse options, --cmdhelp, and the Markdown list for HOWTO.md. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/value.h"

static char logbuf[4096];

static void test_table_consistent(void)
{
	CU_ASSERT(sb_options_count() >= 60);
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		CU_ASSERT_PTR_NOT_NULL(o->help);
		CU_ASSERT_STRING_NOT_EQUAL(sb_opt_cat_name(o->category), "?");
		CU_ASSERT(o->help && strlen(o->help) > 5);
		CU_ASSERT_EQUAL(sb_option_index(o), i);
		/* every name and alias finds its own row and is not listed as fio-only */
		CU_ASSERT_PTR_EQUAL(sb_option_find(o->name), o);
		CU_ASSERT_FALSE(sb_option_fio_only(o->name));
		for (unsigned a = 0; o->alias[a]; a++) {
			CU_ASSERT_PTR_EQUAL(sb_option_find(o->alias[a]), o);
			CU_ASSERT_FALSE(sb_option_fio_only(o->alias[a]));
		}
		CU_ASSERT(o->type != SB_OT_ENUM || o->enums != NULL);
	}
	CU_ASSERT_PTR_NULL(sb_option_at(sb_options_count()));
}

/* every option the brief names exists (fio names and aliases) */
static void test_names_and_aliases(void)
{
	static const char *const want[] = {
		"description", "name", "filename", "directory", "nrfiles", "filesize", "size",
		"io_size", "io_limit", "offset", "rw", "readwrite", "rwmixread", "rwmixwrite", "bs",
		"blocksize", "bsrange", "blocksize_range", "bssplit", "blockalign", "ba", "numjobs",
		"thread", "ioengine", "iodepth", "iodepth_batch_submit", "iodepth_batch",
		"iodepth_batch_complete_min", "iodepth_batch_complete", "iodepth_batch_complete_max",
		"direct", "buffered", "fsync", "fdatasync", "end_fsync", "runtime", "timeout",
		"time_based", "ramp_time", "startdelay", "loops", "stonewall", "wait_for_previous",
		"new_group", "wait_for", "group_reporting", "randrepeat", "randseed", "norandommap",
		"random_distribution", "rate", "rate_iops", "thinktime", "thinktime_spin",
		"thinktime_blocks", "unlink", "fallocate", "allow_mounted_write", "percentile_list",
		"percentiles", "clat_percentiles", "lat_percentiles", "kb_base", "unit_base",
		"userspace_reap", "fixedbufs", "registerfiles", "sqthread_poll", "sqthread_poll_cpu",
		"hipri", "nonvectored",
	};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char msg[128];
		snprintf(msg, sizeof(msg), "option '%s' missing from the table", want[i]);
		CU_assertImplementation(sb_option_find(want[i]) != NULL, __LINE__, msg, __FILE__, "",
					CU_FALSE);
	}
	CU_ASSERT_STRING_EQUAL(sb_option_find("blocksize")->name, "bs");
	CU_ASSERT_STRING_EQUAL(sb_option_find("timeout")->name, "runtime");
	CU_ASSERT_STRING_EQUAL(sb_option_find("BS")->name, "bs");
	CU_ASSERT_PTR_NULL(sb_option_find("verify_mode"));
	CU_ASSERT_TRUE(sb_option_fio_only("verify_mode"));
	CU_ASSERT_TRUE(sb_option_fio_only("readfua")); /* a fio option storbench does not implement */
	CU_ASSERT_FALSE(sb_option_fio_only("nosuchthing"));
}

static void test_suggest(void)
{
	CU_ASSERT_STRING_EQUAL(sb_option_suggest("blocksiz"), "blocksize");
	CU_ASSERT_STRING_EQUAL(sb_option_suggest("iodpeth"), "iodepth");
	CU_ASSERT_STRING_EQUAL(sb_option_suggest("runtme"), "runtime");
	CU_ASSERT_STRING_EQUAL(sb_option_suggest("rwmixred"), "rwmixread");
	CU_ASSERT_PTR_NULL(sb_option_suggest("xyzzy"));
	CU_ASSERT_PTR_NULL(sb_option_suggest("completely_unrelated_thing"));
}

static void test_set_and_inverse(void)
{
	struct sb_jobspec s;
	char err[SB_VERR_LEN];
	CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
	CU_ASSERT(!s.direct && s.rwmixread == 50 && s.bs[1] == 4096 && s.iodepth == 1);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("buffered"), &s, "0", false, err), 0);
	CU_ASSERT_TRUE(s.direct);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("buffered"), &s, NULL, true, err), 0);
	CU_ASSERT_FALSE(s.direct);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("rwmixwrite"), &s, "30", false, err), 0);
	CU_ASSERT_EQUAL(s.rwmixread, 70);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("rw"), &s, "RandRW", false, err), 0);
	CU_ASSERT_EQUAL(s.rw, SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("rw"), &s, "randread:x", false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "offset modifier"));
	CU_ASSERT_EQUAL(s.rw, SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM); /* unchanged */
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("fallocate"), &s, "none", false, err), 0);
	CU_ASSERT_EQUAL(s.fallocate, SB_FALLOC_NONE);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("kb_base"), &s, "1000", false, err), 0);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("size"), &s, "1g", false, err), 0);
	CU_ASSERT_EQUAL(s.size, 1000000000ull);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("kb_base"), &s, "512", false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "one of 1024, 1000"));
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("ioengine"), &s, "null", false, err), 0);
	CU_ASSERT_STRING_EQUAL(s.ioengine, "null");
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("filename"), &s, "/dev/a:/dev/b", false, err), 0);
	CU_ASSERT_STRING_EQUAL(s.filename, "/dev/a:/dev/b");
	struct sb_jobspec copy;
	CU_ASSERT_EQUAL_FATAL(sb_spec_copy(&copy, &s), 0);
	CU_ASSERT(copy.filename != s.filename && !strcmp(copy.filename, s.filename));
	sb_spec_release(&copy);
	sb_spec_release(&s);
	CU_ASSERT_PTR_NULL(s.filename);
}

static char *capture(const char *opt, int *rc)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	sb_log_capture(logbuf, sizeof(logbuf));
	*rc = sb_cmdhelp(f, opt);
	sb_log_capture(NULL, 0);
	fclose(f);
	return out;
}

static void test_cmdhelp(void)
{
	int rc;
	char *all = capture(NULL, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	for (unsigned i = 0; i < sb_options_count(); i++) {
		char line[80];
		snprintf(line, sizeof(line), "\n  %s ", sb_option_at(i)->name);
		CU_ASSERT_PTR_NOT_NULL(strstr(all, line));
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(all, "Block size:\n"));
	free(all);

	char *bs = capture("blocksize", &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(bs, "bs (blocksize)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(bs, "type:     size split"));
	CU_ASSERT_PTR_NOT_NULL(strstr(bs, "unit:     bytes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(bs, "default:  4k"));
	CU_ASSERT_PTR_NOT_NULL(strstr(bs, "bounds:   at least 1"));
	free(bs);

	char *rw = capture("rw", &rc);
	CU_ASSERT_PTR_NOT_NULL(strstr(rw, "randrw"));
	CU_ASSERT_PTR_NOT_NULL(strstr(rw, "random mixed reads and writes"));
	free(rw);

	free(capture("iodpeth", &rc));
	CU_ASSERT_EQUAL(rc, -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "unknown option 'iodpeth' (did you mean 'iodepth'?)"));
	free(capture("verify_mode", &rc));
	CU_ASSERT_EQUAL(rc, -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "not supported by storbench"));
}

static void test_markdown(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	sb_options_markdown(f);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "### Block size\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "| `bs` (`blocksize`) | size split | bytes | 4k |"));
	for (unsigned i = 0; i < sb_options_count(); i++) {
		char cell[80];
		snprintf(cell, sizeof(cell), "| `%s`", sb_option_at(i)->name);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, cell));
	}
	free(out);
}

/* SB_OPT(field) finds the row of every field: each (offset, inverse) pair is
 * one row's, so the lookup by offsetof is never ambiguous */
static void test_by_field(void)
{
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		CU_ASSERT_PTR_EQUAL(sb_option_of(o->off, o->flags & SB_OF_INVERSE), o);
	}
	CU_ASSERT_STRING_EQUAL(SB_OPT(bs)->name, "bs");
	CU_ASSERT_STRING_EQUAL(SB_OPT(bs_min)->name, "bsrange");
	CU_ASSERT_STRING_EQUAL(SB_OPT(shape.hidden)->name, "hidden");
	CU_ASSERT_STRING_EQUAL(SB_OPT_INV(rwmixread)->name, "rwmixwrite");
	CU_ASSERT_STRING_EQUAL(SB_OPT_INV(direct)->name, "buffered");
	CU_ASSERT_STRING_EQUAL(SB_OPT(direct)->name, "direct");
}

/* the flags and categories the checks and comparisons rely on */
static void test_flags_and_categories(void)
{
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		bool ml = o->category == SB_CAT_ML || o->category == SB_CAT_CKPT ||
			  o->category == SB_CAT_TRAIN || o->category == SB_CAT_KV;
		CU_ASSERT_EQUAL(ml, (o->flags & SB_OF_ML) != 0);
		CU_ASSERT((o->flags & SB_OF_INBS) == 0 || o->category == SB_CAT_BS);
		for (const struct sb_opt_enum *e = o->enums; e && e->name; e++)
			if (!e->alias) /* a canonical name writes back as itself */
				CU_ASSERT_STRING_EQUAL(sb_option_enum_name(o, e->val), e->name);
	}
	CU_ASSERT(SB_OPT(iodepth)->flags & SB_OF_QDEPTH);
	CU_ASSERT(SB_OPT(iodepth_batch_complete_max)->flags & SB_OF_QDEPTH);
	CU_ASSERT(SB_OPT(wait_for)->flags & SB_OF_IDENTITY);
	CU_ASSERT_FALSE(SB_OPT(bs)->flags & (SB_OF_IDENTITY | SB_OF_INBS));
	CU_ASSERT_EQUAL(SB_OPT(ml_model)->category, SB_CAT_CKPT);
	CU_ASSERT_STRING_EQUAL(sb_opt_cat_name(SB_CAT_CKPT), "Checkpoint workload");
	CU_ASSERT_STRING_EQUAL(sb_opt_cat_name(SB_CAT_N), "?");
}

/* an option's value in job-file syntax: equal settings, equal text */
static void test_text(void)
{
	static const struct {
		const char *opt, *val, *text;
	} cases[] = {
		{ "bs", "4096", "4k" }, { "bs", "4k", "4k" }, { "bs", "4k,8k", "4k,8k,8k" },
		{ "bs", "1536", "1536" }, { "rw", "readwrite", "rw" }, { "rw", "randread", "randread" },
		{ "fallocate", "native", "posix" }, { "fallocate", "1", "posix" },
		{ "runtime", "90", "90s" }, { "runtime", "1500ms", "1500ms" },
		{ "thinktime", "1500", "1500us" }, { "random_distribution", "zipf", "zipf:1.1" },
		{ "random_distribution", "random", "random" }, { "direct", "yes", "1" },
		{ "buffered", "1", "1" }, { "rwmixwrite", "30", "30" }, { "filesize", "1m-2m", "1m-2m" },
		{ "rate_iops", "100,200", "100,200,200" }, { "percentile_list", "99:50", "50:99" },
		{ "filename", "/dev/null", "/dev/null" }, { "kb_base", "1000", "1000" },
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sb_jobspec s;
		char err[SB_VERR_LEN], text[256];
		const struct sb_option *o = sb_option_find(cases[i].opt);
		CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
		CU_ASSERT_EQUAL(sb_option_set(o, &s, cases[i].val, false, err), 0);
		sb_option_text(o, &s, text, sizeof(text));
		if (strcmp(text, cases[i].text))
			fprintf(stderr, "%s=%s: '%s', expected '%s'\n", cases[i].opt, cases[i].val, text,
				cases[i].text);
		CU_ASSERT_STRING_EQUAL(text, cases[i].text);
		sb_spec_release(&s);
	}
	/* bs gives the block-size set: bssplit, else the range, else bs */
	struct sb_jobspec s;
	char err[SB_VERR_LEN], text[256];
	CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
	for (int d = 0; d < SB_DDIR_N; d++)
		s.bs_min[d] = s.bs_max[d] = s.bs[d];
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(bs_min), &s, "4k-16k", false, err), 0);
	sb_option_text(SB_OPT(bs), &s, text, sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "4k-16k");
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(bssplit), &s, "4k/50:64k/50", false, err), 0);
	sb_option_text(SB_OPT(bs), &s, text, sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "4k/50:64k/50");
	sb_spec_release(&s);
}

/* the fix-up pass: block-size bounds and set, fio's batch default */
static void test_derive(void)
{
	struct sb_jobspec s;
	char err[SB_VERR_LEN];
	CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(rw), &s, "randrw", false, err), 0);
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(bs), &s, "8k,4k", false, err), 0);
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(bssplit), &s, ",16k/50:2k/50", false, err), 0);
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(iodepth), &s, "16", false, err), 0);
	sb_spec_derive(&s);
	CU_ASSERT_EQUAL(s.bs_min[SB_DDIR_READ], 8192);
	CU_ASSERT_EQUAL(s.bs_max[SB_DDIR_READ], 8192);
	CU_ASSERT_EQUAL(s.bs_min[SB_DDIR_WRITE], 2048);
	CU_ASSERT_EQUAL(s.bs_max[SB_DDIR_WRITE], 16384);
	CU_ASSERT_EQUAL(s.bs_lo, 2048);
	CU_ASSERT_EQUAL(s.bs_hi, 16384);
	/* fio: iodepth_batch_complete_max follows iodepth_batch_complete_min */
	CU_ASSERT_EQUAL(s.iodepth_batch_complete_max, 1);
	sb_spec_derive(&s); /* idempotent */
	CU_ASSERT_EQUAL(s.bs_lo, 2048);
	CU_ASSERT_EQUAL(s.bs_max[SB_DDIR_WRITE], 16384);
	sb_spec_release(&s);

	/* reads only: the write sizes do not count; an equal-bounds bsrange
	 * still needs room for bs */
	CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(bs), &s, "4k,1m", false, err), 0);
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(bs_min), &s, "2k-2k", false, err), 0);
	CU_ASSERT_EQUAL(sb_option_set(SB_OPT(iodepth_batch_complete_min), &s, "4", false, err), 0);
	sb_spec_derive(&s);
	CU_ASSERT_EQUAL(s.bs_lo, 2048);
	CU_ASSERT_EQUAL(s.bs_hi, 4096);
	CU_ASSERT_EQUAL(s.iodepth_batch_complete_max, 4);
	sb_spec_release(&s);

	/* no direction at all: the 4k fallback */
	memset(&s, 0, sizeof(s));
	sb_spec_derive(&s);
	CU_ASSERT_EQUAL(s.bs_lo, 4096);
	CU_ASSERT_EQUAL(s.bs_hi, 4096);
	CU_ASSERT_EQUAL(s.iodepth_eff, 1); /* iodepth 0: at least 1 */
}

/* the queue depth a job runs at, from the engine's own flag as run/engtable.c
 * hands it to the parser: 1 for a synchronous engine, else iodepth */
static void test_derive_depth(void)
{
	static const char *const name[] = { "psync", "sync", "mmap", "null", "libaio", "io_uring" };
	static const bool sync[] = { true, true, true, true, false, false };
	struct sb_jobspec s;
	char err[SB_VERR_LEN];
	for (unsigned i = 0; i < sizeof(name) / sizeof(name[0]); i++) {
		const struct sb_parse_engine *e = sb_parse_engine_find(name[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_EQUAL(e->sync, sync[i]);
		CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
		snprintf(s.ioengine, sizeof(s.ioengine), "%s", name[i]);
		CU_ASSERT_EQUAL(sb_option_set(SB_OPT(iodepth), &s, "16", false, err), 0);
		sb_spec_derive(&s);
		CU_ASSERT_EQUAL(s.engine_sync, sync[i]);
		CU_ASSERT_EQUAL(s.iodepth_eff, sync[i] ? 1u : 16u);
		sb_spec_release(&s);
	}
}

static CU_TestInfo tests[] = {
	{ "table consistent", test_table_consistent },
	{ "names and aliases", test_names_and_aliases },
	{ "did you mean", test_suggest },
	{ "set, defaults, inverse options", test_set_and_inverse },
	{ "cmdhelp", test_cmdhelp },
	{ "markdown", test_markdown },
	{ "rows by field", test_by_field },
	{ "flags and categories", test_flags_and_categories },
	{ "value as job-file text", test_text },
	{ "fix-up pass", test_derive },
	{ "fix-up pass: queue depth by engine", test_derive_depth },
	CU_TEST_INFO_NULL,
};
SB_SUITE(options, tests)
