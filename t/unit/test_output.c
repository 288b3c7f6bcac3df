/* test_output.c: the writers of sb_results.  JSON must be one valid document
 * with fio's keys and the numbers put in; terse must keep fio's v3 field
 * count and positions; normal output must scale units as fio users read
 * them.  A small validating JSON parser (test_output_json.c) checks the JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_output_json.h"
#include "output/output.h"
#include "output/units.h"
#include "parse/parse.h"

/* ---- the results model under test ---- */

static struct sb_opt_echo job_opts[] = { { "rw", "randrw" }, { "bs", "4k" } };
static struct sb_opt_echo glob_opts[] = { { "ioengine", "psync" }, { "size", "32m" } };
static const double pctl[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

struct fixture {
	struct sb_results r;
	struct sb_jobspec spec[2];
	struct sb_joblist jl;
};

static void fill_spec(struct sb_jobspec *s, const char *name, unsigned rw)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->rw = rw;
	s->iodepth = 1;
	s->clat_percentiles = true;
	s->kb_base = 1024;
	s->unit_base = 0;
	memcpy(s->percentile_list, pctl, sizeof(pctl));
	s->percentile_n = sizeof(pctl) / sizeof(pctl[0]);
}

static void add_io(struct sb_tstats *st, int d, uint64_t clat, uint64_t bs)
{
	sb_stat_add(&st->clat[d], clat);
	sb_shist_add(&st->clat_h[d], clat);
	sb_stat_add(&st->lat[d], clat + 80);
	sb_shist_add(&st->lat_h[d], clat + 80);
	st->io_bytes[d] += bs;
	st->total_ios[d]++;
	st->iodepth_level[0]++;
}

/* job 0: randrw like the fio sample (20932 reads at 29-39 us and one at
 * 1.232 ms, 8936 writes at 3.4-6.4 us, 1001 ms); job 1: reads only */
static void fill_job0(struct sb_job_result *j)
{
	struct sb_tstats *st = &j->st;
	snprintf(j->name, sizeof(j->name), "randrw-4k");
	j->nthreads = 1;
	for (uint64_t k = 0; k < 20931; k++)
		add_io(st, SB_DDIR_READ, 29000 + (k * 7919) % 10000, 4096);
	add_io(st, SB_DDIR_READ, 1232000, 4096);
	for (uint64_t k = 0; k < 8936; k++)
		add_io(st, SB_DDIR_WRITE, 3400 + (k * 31) % 3000, 4096);
	j->runtime_ms[SB_DDIR_READ] = j->runtime_ms[SB_DDIR_WRITE] = 1001;
	sb_stat_add(&st->bw_samples[SB_DDIR_READ], 85920);
	sb_stat_add(&st->iops_samples[SB_DDIR_READ], 21480);
	st->iodepth_submit[1] = st->iodepth_complete[1] = 29868;
	st->ctx = 21031;
	st->minf = 12;
	j->job_runtime_ms = 1001;
	j->elapsed_s = 2;
	j->usr_cpu = 3.0;
	j->sys_cpu = 48.7;
}

static void fill_job1(struct sb_job_result *j)
{
	snprintf(j->name, sizeof(j->name), "seqread");
	j->nthreads = 1;
	for (uint64_t k = 0; k < 1000; k++)
		add_io(&j->st, SB_DDIR_READ, 200000 + k * 100, 131072);
	j->runtime_ms[SB_DDIR_READ] = 500;
	j->job_runtime_ms = 500;
}

static struct fixture *make_fixture(void)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	CU_ASSERT_FATAL(fx != NULL);
	struct sb_results *r = &fx->r;
	fill_spec(&fx->spec[0], "randrw-4k", SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM);
	fx->spec[0].opts = job_opts;
	fx->spec[0].nopts = 2;
	fill_spec(&fx->spec[1], "seqread", SB_RW_READ);
	fx->jl = (struct sb_joblist){ .jobs = fx->spec, .njobs = 2, .global_opts = glob_opts, .nglobal = 2 };
	r->version = "storbench-0.1.0";
	r->timestamp = 1795320804;
	r->timestamp_ms = 1795320804699ull;
	r->joblist = &fx->jl;
	r->njobs = 2;
	r->jobs = calloc(2, sizeof(*r->jobs));
	r->ngroups = 1;
	r->groups = calloc(1, sizeof(*r->groups));
	r->ndisks = 1;
	r->disks = calloc(1, sizeof(*r->disks));
	CU_ASSERT_FATAL(r->jobs && r->groups && r->disks);
	for (int i = 0; i < 2; i++) {
		sb_tstats_init(&r->jobs[i].st);
		r->jobs[i].spec = &fx->spec[i];
	}
	fill_job0(&r->jobs[0]);
	fill_job1(&r->jobs[1]);
	struct sb_group_result *g = &r->groups[0];
	g->kb_base = 1024;
	g->unit_base = 0;
	g->dir[SB_DDIR_READ] = (struct sb_group_dir){ 85737472, 85651820, 85651820, 85651820, 1001, 1001 };
	g->dir[SB_DDIR_WRITE] = (struct sb_group_dir){ 36601856, 36565290, 36565290, 36565290, 1001, 1001 };
	struct sb_disk_util *du = &r->disks[0];
	snprintf(du->name, sizeof(du->name), "vda");
	du->read_ios = 18476;
	du->write_ios = 6367;
	du->in_queue = 4466;
	du->util = 66.47;
	return fx;
}

static void free_fixture(struct fixture *fx)
{
	sb_results_free(&fx->r);
	free(fx);
}

/* ---- format selection ---- */

static void test_parse_formats(void)
{
	unsigned m = 0;
	CU_ASSERT_EQUAL(sb_output_parse_formats("normal", &m), 0);
	CU_ASSERT_EQUAL(m, SB_FMT_NORMAL);
	CU_ASSERT_EQUAL(sb_output_parse_formats("json,terse", &m), 0);
	CU_ASSERT_EQUAL(m, SB_FMT_JSON | SB_FMT_TERSE);
	CU_ASSERT_EQUAL(sb_output_parse_formats("json+", &m), 0);
	CU_ASSERT_EQUAL(m, SB_FMT_JSONPLUS);
	CU_ASSERT_EQUAL(sb_output_parse_formats(" normal , json+ ", &m), 0);
	CU_ASSERT_EQUAL(m, SB_FMT_NORMAL | SB_FMT_JSONPLUS);
	m = 77;
	CU_ASSERT_EQUAL(sb_output_parse_formats("xml", &m), -EINVAL);
	CU_ASSERT_EQUAL(sb_output_parse_formats("json,,normal", &m), -EINVAL);
	CU_ASSERT_EQUAL(sb_output_parse_formats("jsonx", &m), -EINVAL);
	CU_ASSERT_EQUAL(sb_output_parse_formats("", &m), -EINVAL);
	CU_ASSERT_EQUAL(m, 77); /* untouched on error */
}

/* one table of formats; the parser, the error message's list and
 * --help name the same formats */
static void test_format_table(void)
{
	char list[128];
	unsigned n = 0, m;
	const char *help = NULL;
	for (unsigned i = 0; i < sb_cli_nflags; i++)
		if (!strcmp(sb_cli_flags[i].name, "--output-format"))
			help = sb_cli_flags[i].help;
	CU_ASSERT_PTR_NOT_NULL_FATAL(help);
	for (; sb_output_format_name(n); n++) {
		CU_ASSERT_EQUAL(sb_output_parse_formats(sb_output_format_name(n), &m), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(help, sb_output_format_name(n)));
	}
	CU_ASSERT_EQUAL(n, 4);
	sb_output_format_list(list, sizeof(list), ", ", " or ");
	CU_ASSERT_STRING_EQUAL(list, "normal, terse, json or json+");
	CU_ASSERT_PTR_NOT_NULL(strstr(help, list)); /* --help's sentence is the same list */
	sb_output_format_list(list, 8, ", ", " or ");
	CU_ASSERT_STRING_EQUAL(list, "normal,"); /* cut, still terminated */
}

/* ---- units ---- */

static void test_units(void)
{
	char b[32];
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_scaled(b, sizeof(b), 20911.09, 1000, 4), "20.9k");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_scaled(b, sizeof(b), 8927.07, 1000, 4), "8927");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_scaled(b, sizeof(b), 123456, 1000, 4), "123k");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_scaled(b, sizeof(b), 1234567, 1000, 4), "1235k");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_scaled(b, sizeof(b), 99999, 1000, 4), "100k");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_scaled(b, sizeof(b), 9999900, 1000, 4), "10.0M");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_bw(b, sizeof(b), 85651820, 1024, 0), "81.7MiB/s");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_bw(b, sizeof(b), 85651820, 1000, 0), "85.7MB/s");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_bw(b, sizeof(b), 85651820, 1024, 1), "653Mibit/s");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_bw(b, sizeof(b), 999, 1024, 0), "999B/s");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_bw(b, sizeof(b), 1.5e12, 1024, 0), "1397GiB/s");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_size(b, sizeof(b), 85737472, 1024), "81.8MiB");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_size(b, sizeof(b), 10000, 1024), "9.77KiB");
	/* the host summary's fixed decimals: no "-0" */
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_fixed(b, sizeof(b), 4, -1e-12), "0.0000");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_fixed(b, sizeof(b), 0, -0.2), "0");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_fixed(b, sizeof(b), 2, -0.0), "0.00");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_fixed(b, sizeof(b), 2, -0.006), "-0.01");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_fixed(b, sizeof(b), 1, -10.04), "-10.0");
	CU_ASSERT_STRING_EQUAL(sb_out_fmt_fixed(b, sizeof(b), 1, 99.75), "99.8");
	CU_ASSERT_STRING_EQUAL(sb_lat_unit_pick(3437, 38954, 2504, 1).name, "nsec");
	CU_ASSERT_STRING_EQUAL(sb_lat_unit_pick(29000, 1232000, 11710, 1).name, "usec");
	CU_ASSERT_STRING_EQUAL(sb_lat_unit_pick(5000000, 900000000, 2e6, 1).name, "msec");
}

/* ---- JSON ---- */

static void test_json_values(void)
{
	struct fixture *fx = make_fixture();
	char *doc = sb_tj_render(&fx->r, SB_FMT_JSON);
	CU_ASSERT_FATAL(sb_tj_valid(doc));
	static const char head[] = "{\n  \"fio version\" : \"fio-3.33\",\n"
				   "  \"storbench version\" : \"storbench-0.1.0\",\n";
	CU_ASSERT(!strncmp(doc, head, strlen(head)));
	CU_ASSERT_EQUAL(sb_tj_num(doc, "timestamp"), 1795320804);
	CU_ASSERT(sb_tj_str_is(doc, "global options/ioengine", "psync"));
	CU_ASSERT(sb_tj_str_is(doc, "jobs/0/jobname", "randrw-4k"));
	CU_ASSERT(sb_tj_str_is(doc, "jobs/0/job options/rw", "randrw"));
	CU_ASSERT(sb_tj_str_is(doc, "jobs/1/jobname", "seqread"));
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/io_bytes"), 85737472);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/io_kbytes"), 83728);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/bw_bytes"), 85651820);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/bw"), 85651820 / 1024);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "jobs/0/read/iops"), 20932000.0 / 1001, 1e-5);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/runtime"), 1001);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/total_ios"), 20932);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/write/bw"), 36601856ull * 1000 / 1001 / 1024);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/trim/iops"), 0);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/clat_ns/min"), 29000);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/clat_ns/max"), 1232000);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/clat_ns/N"), 20932);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/slat_ns/N"), 0);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/slat_ns/min"), 0);
	/* percentiles come from the histogram, and match the data */
	const struct sb_shist *h = &fx->r.jobs[0].st.clat_h[SB_DDIR_READ];
	double p99 = sb_tj_num(doc, "jobs/0/read/clat_ns/percentile/99.000000");
	CU_ASSERT_EQUAL(p99, sb_shist_percentile(h, 99.0));
	CU_ASSERT(fabs(p99 - 38900) / 38900 < 0.01);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/clat_ns/percentile/50.000000"), sb_shist_percentile(h, 50.0));
	CU_ASSERT_PTR_NOT_NULL(sb_tj_get(doc, "jobs/0/read/clat_ns/percentile/99.990000"));
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "jobs/0/read/lat_ns/percentile")); /* lat_percentiles=0 */
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "jobs/0/trim/clat_ns/percentile")); /* no samples */
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "jobs/0/read/clat_ns/bins"));
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/bw_min"), 85920);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/bw_agg"), 100.0);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/read/iops_samples"), 1);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/sync/total_ios"), 0);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/ctx"), 21031);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "jobs/0/sys_cpu"), 48.7, 1e-6);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/iodepth_level/1"), 100.0);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/iodepth_level/>=64"), 0.0);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/iodepth_submit/4"), 100.0);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/latency_depth"), 1);
	CU_ASSERT(sb_tj_str_is(doc, "disk_util/0/name", "vda"));
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "disk_util/0/util"), 66.47, 1e-6);
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "interrupted"));
	free(doc);
	free_fixture(fx);
}

/* latency_ns/us/ms: percent of all I/Os by total latency, fio's edges */
static void test_json_latency_buckets(void)
{
	struct fixture *fx = make_fixture();
	char *doc = sb_tj_render(&fx->r, SB_FMT_JSON);
	static const char *const names[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
					     "1000", "2000", ">=2000" };
	static const char *const groups[] = { "latency_ns", "latency_us", "latency_ms" };
	char path[64];
	double sum = 0;
	for (int g = 0; g < 3; g++)
		for (int i = 0; i < (g == 2 ? 12 : 10); i++) {
			snprintf(path, sizeof(path), "jobs/0/%s/%s", groups[g], names[i]);
			sum += sb_tj_num(doc, path);
		}
	CU_ASSERT_DOUBLE_EQUAL(sum, 100.0, 1e-3);
	/* 20931 reads at 29-39 us: [20, 50) us; one read at 1.23 ms: [1, 2) ms */
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "jobs/0/latency_us/50"), 100.0 * 20931 / 29868, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "jobs/0/latency_ms/2"), 100.0 / 29868, 1e-4);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/latency_ns/1000"), 0.0);
	/* 8936 writes at 3.48-6.48 us: [2, 4) and [4, 10) us */
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "jobs/0/latency_us/4") + sb_tj_num(doc, "jobs/0/latency_us/10"),
			       100.0 * 8936 / 29868, 1e-4);
	CU_ASSERT(sb_tj_num(doc, "jobs/0/latency_us/4") > 0);
	free(doc);
	free_fixture(fx);
}

static void test_json_plus_bins(void)
{
	struct fixture *fx = make_fixture();
	char *doc = sb_tj_render(&fx->r, SB_FMT_JSON | SB_FMT_JSONPLUS);
	CU_ASSERT_FATAL(sb_tj_valid(doc));
	/* one document even when both are asked for */
	CU_ASSERT_PTR_NULL(strstr(strstr(doc, "\"storbench version\"") + 1, "\"storbench version\""));
	const char *bins = sb_tj_get(doc, "jobs/0/read/clat_ns/bins");
	CU_ASSERT_FATAL(bins != NULL);
	/* the counts add up to N */
	const char *end = sb_tj_end(bins);
	double total = 0;
	for (const char *p = bins; p && p < end; p++) {
		if (*p == ':')
			total += strtod(p + 1, NULL);
	}
	CU_ASSERT_EQUAL(total, 20932);
	uint64_t v = sb_hist_bucket_value(sb_hist_index(1232000));
	char path[96];
	snprintf(path, sizeof(path), "jobs/0/read/clat_ns/bins/%llu", (unsigned long long)v);
	CU_ASSERT_EQUAL(sb_tj_num(doc, path), 1);
	CU_ASSERT_PTR_NOT_NULL(sb_tj_get(doc, "jobs/0/write/lat_ns/bins"));
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "jobs/0/trim/clat_ns/bins"));
	free(doc);
	free_fixture(fx);
}

static void test_json_escaping_and_edges(void)
{
	struct fixture *fx = make_fixture();
	snprintf(fx->r.jobs[0].name, SB_NAME_MAX, "a\"b\\c\nd\te\x01" "f\xff" "g\xc3\xa9");
	fx->r.interrupted = true;
	char *doc = sb_tj_render(&fx->r, SB_FMT_JSON);
	CU_ASSERT(sb_tj_valid(doc));
	CU_ASSERT_PTR_NOT_NULL(strstr(doc, "\"jobname\" : \"a\\\"b\\\\c\\nd\\te\\u0001f\\ufffdg\xc3\xa9\""));
	CU_ASSERT_EQUAL(strncmp(sb_tj_get(doc, "interrupted"), "true", 4), 0);
	free(doc);
	free_fixture(fx);

	/* nothing ran: still one valid document */
	struct sb_results empty = { 0 };
	doc = sb_tj_render(&empty, SB_FMT_JSON);
	CU_ASSERT(sb_tj_valid(doc));
	CU_ASSERT_PTR_NOT_NULL(sb_tj_get(doc, "jobs"));
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "jobs/0"));
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "global options")); /* none: no key, as fio */
	free(doc);
}

/* ---- terse ---- */

#define MAX_FIELDS 200

/* split the first line into fields (in place); returns the count */
static int split_terse(char *line, char **field)
{
	int n = 0;
	char *nl = strchr(line, '\n');
	if (nl)
		*nl = 0;
	for (char *p = line; n < MAX_FIELDS;) {
		field[n++] = p;
		char *semi = strchr(p, ';');
		if (!semi)
			break;
		*semi = 0;
		p = semi + 1;
	}
	return n;
}

static void test_terse_field_counts(void)
{
	struct fixture *fx = make_fixture();
	char *field[MAX_FIELDS];
	struct sb_disk_util disks[2];
	struct sb_disk_util *orig = fx->r.disks;
	memcpy(&disks[0], orig, sizeof(disks[0]));
	memcpy(&disks[1], orig, sizeof(disks[1]));
	snprintf(disks[1].name, sizeof(disks[1].name), "nvme0n1");

	for (size_t nd = 0; nd <= 2; nd++) {
		fx->r.disks = nd ? disks : NULL;
		fx->r.ndisks = nd;
		char *out = sb_tj_render(&fx->r, SB_FMT_TERSE);
		/* one line per job */
		char *second = strchr(out, '\n');
		CU_ASSERT_FATAL(second != NULL);
		CU_ASSERT(!strncmp(second + 1, "3;storbench-0.1.0;seqread;", 26));
		CU_ASSERT_EQUAL(split_terse(out, field), 121 + 9 * (int)nd);
		if (nd == 2) {
			CU_ASSERT_STRING_EQUAL(field[121], "vda");
			CU_ASSERT_STRING_EQUAL(field[122], "18476");
			CU_ASSERT_STRING_EQUAL(field[129], "66.47%");
			CU_ASSERT_STRING_EQUAL(field[130], "nvme0n1");
		}
		free(out);
	}
	fx->r.disks = orig;
	fx->r.ndisks = 1;
	/* a description is one more field at the end, as in fio */
	fx->spec[0].description = (char *)"nightly run";
	char *out = sb_tj_render(&fx->r, SB_FMT_TERSE);
	CU_ASSERT_EQUAL(split_terse(out, field), 131);
	CU_ASSERT_STRING_EQUAL(field[130], "nightly run");
	free(out);
	free_fixture(fx);
}

/* field numbers below are fio's 1-based ones; field[k - 1] */
static void test_terse_positions(void)
{
	struct fixture *fx = make_fixture();
	char *field[MAX_FIELDS];
	char want[64];
	const struct sb_tstats *st = &fx->r.jobs[0].st;
	char *out = sb_tj_render(&fx->r, SB_FMT_TERSE);
	CU_ASSERT_FATAL(split_terse(out, field) == 130);
	CU_ASSERT_STRING_EQUAL(field[0], "3");
	CU_ASSERT_STRING_EQUAL(field[1], "storbench-0.1.0");
	CU_ASSERT_STRING_EQUAL(field[2], "randrw-4k");
	CU_ASSERT_STRING_EQUAL(field[5], "83728");             /* 6: read KiB */
	CU_ASSERT_STRING_EQUAL(field[6], "83644");             /* 7: read KiB/s */
	CU_ASSERT_STRING_EQUAL(field[7], "20911");             /* 8: read IOPS */
	CU_ASSERT_STRING_EQUAL(field[8], "1001");              /* 9: read runtime ms */
	CU_ASSERT_STRING_EQUAL(field[9], "0");                 /* 10: slat min */
	CU_ASSERT_STRING_EQUAL(field[13], "29");               /* 14: clat min, us */
	CU_ASSERT_STRING_EQUAL(field[14], "1232");             /* 15: clat max, us */
	snprintf(want, sizeof(want), "99.000000%%=%llu",
		 (unsigned long long)sb_shist_percentile(&st->clat_h[0], 99) / 1000);
	CU_ASSERT_STRING_EQUAL(field[29], want);               /* 30: 13th percentile */
	CU_ASSERT_STRING_EQUAL(field[17], "1.000000%=29");     /* 18: first percentile */
	CU_ASSERT_STRING_EQUAL(field[34], "0%=0");             /* 35-37: unused slots */
	CU_ASSERT_STRING_EQUAL(field[36], "0%=0");
	CU_ASSERT_STRING_EQUAL(field[37], "29");               /* 38: lat min */
	CU_ASSERT_STRING_EQUAL(field[41], "85920");            /* 42: bw min */
	CU_ASSERT_STRING_EQUAL(field[43], "100.000000%");      /* 44: bw agg */
	CU_ASSERT_STRING_EQUAL(field[46], "35744");            /* 47: write KiB */
	snprintf(want, sizeof(want), "%llu", 36601856ull * 1000 / 1001 / 1024);
	CU_ASSERT_STRING_EQUAL(field[47], want);               /* 48: write KiB/s */
	CU_ASSERT_STRING_EQUAL(field[48], "8927");             /* 49: write IOPS */
	CU_ASSERT_STRING_EQUAL(field[54], "3");                /* 55: write clat min, us */
	CU_ASSERT_STRING_EQUAL(field[87], "3.000000%");        /* 88: usr cpu */
	CU_ASSERT_STRING_EQUAL(field[88], "48.700000%");       /* 89: sys cpu */
	CU_ASSERT_STRING_EQUAL(field[89], "21031");            /* 90: ctx */
	CU_ASSERT_STRING_EQUAL(field[91], "12");               /* 92: minf */
	CU_ASSERT_STRING_EQUAL(field[92], "100.0%");           /* 93: depth 1 */
	CU_ASSERT_STRING_EQUAL(field[98], "0.0%");             /* 99: depth >=64 */
	snprintf(want, sizeof(want), "%.2f%%", 100.0 * 20931 / 29868);
	CU_ASSERT_STRING_EQUAL(field[103], want);              /* 104: lat [20,50) us */
	CU_ASSERT_STRING_EQUAL(field[109], "0.00%");           /* 110: lat [1,2) ms */
	CU_ASSERT_STRING_EQUAL(field[120], "0.00%");           /* 121: lat >= 2 s */
	CU_ASSERT_STRING_EQUAL(field[121], "vda");             /* 122: disk name */
	free(out);
	free_fixture(fx);
}

/* ---- normal ---- */

static void test_normal_text(void)
{
	struct fixture *fx = make_fixture();
	char *out = sb_tj_render(&fx->r, SB_FMT_NORMAL);
	static const char *const want[] = {
		"randrw-4k: (groupid=0, jobs=1): err= 0: ",
		"  read: IOPS=20.9k, BW=81.7MiB/s (85.7MB/s)(81.8MiB/1001msec)\n",
		"    clat (usec): min=29, max=1232, avg=",
		"     lat (usec): min=29, max=1232, avg=",
		/* percentile units follow the percentiles (all below 100 us here) */
		"    clat percentiles (nsec):\n     |  1.00th=[29056],  5.00th=[",
		"   bw (  KiB/s): min=85920, max=85920, per=100.00%, avg=85920.00, stdev= 0.00, samples=1\n",
		"   iops        : min=21480, max=21480, avg=21480.00, stdev= 0.00, samples=1\n",
		"  write: IOPS=8927, BW=34.9MiB/s (36.6MB/s)(34.9MiB/1001msec)\n",
		"    clat (nsec): min=3400, max=6399, avg=",
		"    clat percentiles (nsec):\n",
		"  lat (usec)   : 4=",
		"  lat (msec)   : 2=0.01%\n",
		"  cpu          : usr=3.00%, sys=48.70%, ctx=21031, majf=0, minf=12\n",
		"  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%\n",
		"     submit    : 0=0.0%, 4=100.0%, 8=0.0%",
		"     issued rwts: total=20932,8936,0,0 short=0,0,0,0 dropped=0,0,0,0\n",
		"seqread: (groupid=0, jobs=1)",
		"  read: IOPS=2000, BW=250MiB/s (262MB/s)(125MiB/500msec)\n",
		"    clat percentiles (usec):\n     |  1.00th=[  201],  5.00th=[  205],",
		"\nRun status group 0 (all jobs):\n",
		"   READ: bw=81.7MiB/s (85.7MB/s), 81.7MiB/s-81.7MiB/s (85.7MB/s-85.7MB/s), "
		"io=81.8MiB (85.7MB), run=1001-1001msec\n",
		"  WRITE: bw=34.9MiB/s (36.6MB/s)",
		"\nDisk stats (read/write):\n  vda: ios=18476/6367, merge=0/0, ticks=0/0, in_queue=4466, "
		"util=66.47%\n",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (!strstr(out, want[i])) {
			fprintf(stderr, "\nmissing in normal output: [%s]\n%s", want[i], out);
			CU_FAIL("normal output lacks an expected line");
		}
	}
	CU_ASSERT_PTR_NULL(strstr(out, "trim:"));       /* no trims, no trim block */
	CU_ASSERT_PTR_NULL(strstr(out, "slat"));        /* no slat samples */
	CU_ASSERT_PTR_NULL(strstr(out, "interrupted")); /* a complete run */
	free(out);
	free_fixture(fx);
}

static void test_normal_bases(void)
{
	struct fixture *fx = make_fixture();
	fx->r.groups[0].kb_base = 1000;
	char *out = sb_tj_render(&fx->r, SB_FMT_NORMAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "  read: IOPS=20.9k, BW=85.7MB/s (81.7MiB/s)(85.7MB/1001msec)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "   READ: bw=85.7MB/s (81.7MiB/s)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "   bw (   kB/s): min=87982,"));
	free(out);
	fx->r.groups[0].kb_base = 1024;
	fx->r.groups[0].unit_base = 1;
	fx->r.interrupted = true;
	out = sb_tj_render(&fx->r, SB_FMT_NORMAL);
	CU_ASSERT(!strncmp(out, "Run interrupted", 15));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "  read: IOPS=20.9k, BW=653Mibit/s (685Mbit/s)(81.8MiB/1001msec)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "   bw (Kibit/s): min=687360,"));
	free(out);
	free_fixture(fx);
}

/* the verify result: counts by kind, the first failures kept up to the cap,
 * threads merged, and both writers */
static void test_verify_result(void)
{
	struct sb_verify_result *a = sb_verify_result_new("crc32c"), *b = sb_verify_result_new("crc32c");
	CU_ASSERT_FATAL(a && b);
	a->blocks = 10;
	a->bytes = 10 * 4096;
	CU_ASSERT_EQUAL(sb_verify_nfail(a), 0);
	CU_ASSERT_EQUAL(sb_verify_record(a, SB_VFY_MISPLACED, "/d/f", 8192, 4096, 0, "offset 8192", "offset 4096"), 0);
	for (unsigned i = 0; i < SB_VERIFY_FIRST_MAX + 3; i++)
		sb_verify_record(b, SB_VFY_CORRUPT, "/d/g", 4096ull * i, 4096, 1, "crc32c 0x1", "crc32c 0x2");
	CU_ASSERT_EQUAL(b->nfirst, SB_VERIFY_FIRST_MAX);
	CU_ASSERT_EQUAL(sb_verify_nfail(b), SB_VERIFY_FIRST_MAX + 3);
	CU_ASSERT_EQUAL(sb_verify_merge(a, b), 0);
	CU_ASSERT_EQUAL(a->failures[SB_VFY_MISPLACED], 1);
	CU_ASSERT_EQUAL(a->failures[SB_VFY_CORRUPT], SB_VERIFY_FIRST_MAX + 3);
	CU_ASSERT_EQUAL(a->nfirst, SB_VERIFY_FIRST_MAX);
	CU_ASSERT_STRING_EQUAL(a->first[0].file, "/d/f");   /* its own first stays first */
	CU_ASSERT_EQUAL(a->first[1].offset, 0);
	CU_ASSERT_EQUAL(sb_verify_record(a, (enum sb_verify_kind)SB_VFY_KIND_N, "x", 0, 0, 0, NULL, NULL), -EINVAL);
	sb_verify_result_free(b);

	struct fixture *fx = make_fixture();
	fx->r.jobs[0].verify = a; /* owned by the results now */
	char *doc = sb_tj_render(&fx->r, SB_FMT_JSON);
	CU_ASSERT(sb_tj_valid(doc));
	CU_ASSERT(sb_tj_str_is(doc, "jobs/0/verify/type", "crc32c"));
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/verify/blocks_checked"), 10);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/verify/failures"), SB_VERIFY_FIRST_MAX + 4);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/verify/misplaced"), 1);
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/verify/never_written"), 0);
	CU_ASSERT(sb_tj_str_is(doc, "jobs/0/verify/first_failures/0/kind", "misplaced"));
	CU_ASSERT_EQUAL(sb_tj_num(doc, "jobs/0/verify/first_failures/0/offset"), 8192);
	CU_ASSERT(sb_tj_str_is(doc, "jobs/0/verify/first_failures/1/expected", "crc32c 0x1"));
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "jobs/1/verify"));   /* a job that does not verify */
	free(doc);
	char *out = sb_tj_render(&fx->r, SB_FMT_NORMAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "  verify       : crc32c, 10 blocks (0.0MiB) checked, 20 failures\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "     failures  : bit_corruption=19, misplaced=1, stale=0, torn=0, never_written=0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "     misplaced      /d/f at offset 8192 (4096 bytes, thread 0): expected offset 8192, found offset 4096\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "     ... and 4 more\n"));
	free(out);
	free_fixture(fx);
}

/* every selected format, in the order normal, terse, json */
static void test_write_order(void)
{
	struct fixture *fx = make_fixture();
	char *out = sb_tj_render(&fx->r, SB_FMT_JSON | SB_FMT_NORMAL | SB_FMT_TERSE);
	char *n = strstr(out, "randrw-4k: (groupid=0");
	char *t = strstr(out, "3;storbench-0.1.0;randrw-4k;");
	char *j = strstr(out, "{\n  \"fio version\"");
	CU_ASSERT_FATAL(n && t && j);
	CU_ASSERT(n < t && t < j);
	CU_ASSERT(sb_tj_valid(j));
	free(out);
	free_fixture(fx);
}

static CU_TestInfo tests[] = {
	{ "parse formats", test_parse_formats },
	{ "format table", test_format_table },
	{ "units", test_units },
	{ "json values", test_json_values },
	{ "json latency buckets", test_json_latency_buckets },
	{ "json+ bins", test_json_plus_bins },
	{ "json escaping and empty results", test_json_escaping_and_edges },
	{ "terse field counts", test_terse_field_counts },
	{ "terse field positions", test_terse_positions },
	{ "normal text", test_normal_text },
	{ "normal kb_base and unit_base", test_normal_bases },
	{ "write order", test_write_order },
	{ "verify result", test_verify_result },
	CU_TEST_INFO_NULL,
};
SB_SUITE(output, tests)
