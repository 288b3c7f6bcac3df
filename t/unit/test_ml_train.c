/* test_ml_train.c: training-read model (ml/train/train.c) and AU formulas
 * (ml/train/au.c): layout, sizes, shuffles, batch plan, DLIO's AU on a
 * hand-computed timeline, the predictor and the pipeline simulator. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ml/train/au.h"
#include "ml/train/train.h"
#include "harness.h"

static void test_workloads(void)
{
	struct sb_ml_workload w;
	size_t n = 0;
	for (const char *const *p = sb_ml_workload_names(); *p; p++, n++)
		CU_ASSERT_EQUAL(sb_ml_workload_find(*p, &w), 0);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(sb_ml_workload_find("bert", &w), -ENOENT);
	CU_ASSERT_EQUAL_FATAL(sb_ml_workload_find("unet3d", &w), 0);
	CU_ASSERT_EQUAL(w.ds.files, 168);
	CU_ASSERT_EQUAL(w.batch_size, 7);
	CU_ASSERT_DOUBLE_EQUAL(w.compute_h100_s, 0.323, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(w.au_required_pct, 90.0, 1e-12);
	CU_ASSERT_EQUAL_FATAL(sb_ml_workload_find("cosmoflow", &w), 0);
	CU_ASSERT_DOUBLE_EQUAL(w.au_required_pct, 70.0, 1e-12);
	CU_ASSERT_EQUAL(sb_ml_steps_per_epoch(168, 1, 7, 1), 24);
	CU_ASSERT_EQUAL(sb_ml_steps_per_epoch(1024, 1251, 400, 8), 400);
}

static void test_file_names(void)
{
	struct sb_ml_workload w;
	char buf[128];
	sb_ml_workload_find("unet3d", &w);
	CU_ASSERT_EQUAL(sb_ml_file_name(&w.ds, 7, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "train/img_007_of_168.npz");
	w.ds.subfolders = 12;
	sb_ml_file_name(&w.ds, 31, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "train/07/img_031_of_168.npz");
	w.ds.subfolders = 1;
	sb_ml_file_name(&w.ds, 167, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "train/img_167_of_168.npz");
	CU_ASSERT_EQUAL(sb_ml_file_name(&w.ds, 7, buf, 10), -ENAMETOOLONG);
}

static void test_sizes_fixed(void)
{
	struct sb_ml_workload w;
	sb_ml_workload_find("resnet50", &w);
	/* DLIO: int(sqrt(114660.07))^2 = 338^2 (config.py:312, data_generator.py:58) */
	CU_ASSERT_EQUAL(sb_ml_sample_bytes(&w.ds, 0), 114244);
	CU_ASSERT_EQUAL(sb_ml_file_bytes(&w.ds, 99), 114244ull * 1251);
	w.ds.files = 3;
	CU_ASSERT_EQUAL(sb_ml_dataset_bytes(&w.ds), 3ull * 114244 * 1251);
}

/* DLIO's size law: two N(sqrt(L), stdev/2/sqrt(L)) dimensions per file:
 * mean ~ L, spread ~ stdev / sqrt(2); deterministic per (seed, file). */
static void test_sizes_stdev(void)
{
	struct sb_ml_workload w;
	double sum = 0, sq = 0, mean, sd;
	const unsigned n = 20000;
	sb_ml_workload_find("unet3d", &w);
	w.ds.files = n;
	for (unsigned i = 0; i < n; i++) {
		double b = (double)sb_ml_file_bytes(&w.ds, i);
		sum += b;
		sq += b * b;
	}
	mean = sum / n;
	sd = sqrt(sq / n - mean * mean);
	CU_ASSERT_DOUBLE_EQUAL(mean / w.ds.record_length, 1.0, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(sd / (w.ds.record_stdev / sqrt(2.0)), 1.0, 0.05);
	CU_ASSERT_EQUAL(sb_ml_file_bytes(&w.ds, 5), sb_ml_file_bytes(&w.ds, 5));
	uint64_t a = sb_ml_file_bytes(&w.ds, 5);
	w.ds.seed++;
	CU_ASSERT_NOT_EQUAL(sb_ml_file_bytes(&w.ds, 5), a);
}

static int is_perm(const uint32_t *v, size_t n)
{
	char *seen = calloc(n, 1);
	int ok = 1;
	for (size_t i = 0; i < n; i++) {
		if (v[i] >= n || seen[v[i]])
			ok = 0;
		else
			seen[v[i]] = 1;
	}
	free(seen);
	return ok;
}

static void test_shuffle(void)
{
	enum { N = 1000 };
	uint32_t a[N], b[N], c[N];
	size_t fixed = 0;
	for (uint32_t i = 0; i < N; i++)
		a[i] = b[i] = c[i] = i;
	sb_ml_shuffle_u32(a, N, 42);
	sb_ml_shuffle_u32(b, N, 42);
	sb_ml_shuffle_u32(c, N, 43);
	CU_ASSERT(is_perm(a, N));
	CU_ASSERT(is_perm(c, N));
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(a, c, sizeof(a)), 0);
	for (uint32_t i = 0; i < N; i++)
		fixed += a[i] == i;
	CU_ASSERT(fixed < 10); /* a real shuffle, about 1 fixed point expected */
}

static struct sb_ml_plan_cfg plan_cfg(unsigned rank)
{
	struct sb_ml_plan_cfg c = { .files = 10, .samples_per_file = 3, .batch_size = 4,
				    .read_threads = 3, .rank = rank, .ranks = 2, .epoch = 1,
				    .seed = SB_ML_SHUFFLE_SEED, .file_shuffle = true,
				    .sample_shuffle = true, .seed_change_epoch = true,
				    .drop_last = true };
	return c;
}

static void test_plan_cover(void)
{
	uint32_t hits[30] = { 0 };
	for (unsigned r = 0; r < 2; r++) {
		struct sb_ml_plan_cfg c = plan_cfg(r);
		struct sb_ml_plan p;
		CU_ASSERT_EQUAL_FATAL(sb_ml_plan_build(&c, &p), 0);
		CU_ASSERT_EQUAL(p.nsamples, 15);
		CU_ASSERT(is_perm(p.file_order, 10));
		CU_ASSERT_EQUAL(p.nbatches, 3); /* min(15/4, 30/4/2) */
		for (size_t i = 0; i < p.nsamples; i++) {
			CU_ASSERT(p.samples[i] >= 15 * r && p.samples[i] < 15 * (r + 1));
			hits[p.samples[i]]++;
		}
		for (size_t b = 0; b < p.nbatches; b++) {
			CU_ASSERT_EQUAL(sb_ml_plan_batch_len(&p, b), 4);
			CU_ASSERT_EQUAL(sb_ml_plan_batch_reader(&p, b), b % 3);
			for (size_t i = 0; i < 4; i++) {
				uint32_t file, in;
				uint64_t g = p.samples[b * 4 + i];
				sb_ml_plan_sample(&p, b, i, &file, &in);
				CU_ASSERT_EQUAL(file, p.file_order[g / 3]);
				CU_ASSERT_EQUAL(in, g % 3);
			}
		}
		CU_ASSERT_EQUAL(sb_ml_plan_batch_len(&p, 3), 0);
		sb_ml_plan_free(&p);
	}
	for (int i = 0; i < 30; i++)
		CU_ASSERT_EQUAL(hits[i], 1);
}

static void test_plan_epochs(void)
{
	struct sb_ml_plan_cfg c = plan_cfg(0);
	struct sb_ml_plan p1, p1b, p2, p3, p4;
	sb_ml_plan_build(&c, &p1);
	sb_ml_plan_build(&c, &p1b);
	c.epoch = 2;
	sb_ml_plan_build(&c, &p2);
	c.seed_change_epoch = false;
	sb_ml_plan_build(&c, &p3);
	c.epoch = 1;
	sb_ml_plan_build(&c, &p4);
	CU_ASSERT_EQUAL(memcmp(p1.samples, p1b.samples, 15 * sizeof(uint64_t)), 0);
	CU_ASSERT_EQUAL(memcmp(p1.file_order, p1b.file_order, 10 * sizeof(uint32_t)), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(p1.samples, p2.samples, 15 * sizeof(uint64_t)), 0);
	/* without seed_change_epoch every epoch is the same order */
	CU_ASSERT_EQUAL(memcmp(p4.samples, p3.samples, 15 * sizeof(uint64_t)), 0);
	CU_ASSERT_EQUAL(memcmp(p4.file_order, p3.file_order, 10 * sizeof(uint32_t)), 0);
	sb_ml_plan_free(&p4);
	sb_ml_plan_free(&p1);
	sb_ml_plan_free(&p1b);
	sb_ml_plan_free(&p2);
	sb_ml_plan_free(&p3);
}

/* read_order=dlio (dlio_benchmark 392621b): the PyTorch loader reads the
 * rank's ids ascending whatever the shuffles (torch_data_loader.py:95-107);
 * the TF reader: files rank, rank + ranks, ... of the sorted list
 * (tf_reader.py:84-88), read_threads files interleaved */
static void test_plan_dlio(void)
{
	struct sb_ml_plan_cfg c = plan_cfg(1); /* 10 files x 3, 2 ranks, batch 4, 3 readers */
	struct sb_ml_plan p, q;
	uint32_t file, in;
	c.dlio = true;
	CU_ASSERT_EQUAL_FATAL(sb_ml_plan_build(&c, &p), 0);
	for (size_t i = 0; i < p.nsamples; i++)
		CU_ASSERT_EQUAL(p.samples[i], 15 + i);
	sb_ml_plan_stream_sample(&p, 0, 0, &file, &in);
	CU_ASSERT(file == 5 && in == 0);
	sb_ml_plan_free(&p);
	c.tfrecord = true;
	c.file_shuffle = false;
	CU_ASSERT_EQUAL_FATAL(sb_ml_plan_build(&c, &p), 0);
	/* files 1, 3, 5 interleaved (3 readers), then 7, 9: record by record */
	const uint32_t want[][2] = { { 1, 0 }, { 3, 0 }, { 5, 0 }, { 1, 1 }, { 3, 1 }, { 5, 1 },
				     { 1, 2 }, { 3, 2 }, { 5, 2 }, { 7, 0 }, { 9, 0 }, { 7, 1 } };
	CU_ASSERT_EQUAL(p.nsamples, 15);
	CU_ASSERT_EQUAL(p.nbatches, 3);
	for (size_t k = 0; k < 12; k++) {
		sb_ml_plan_stream_sample(&p, k / 4, k % 4, &file, &in);
		CU_ASSERT(file == want[k][0] && in == want[k][1]);
	}
	sb_ml_plan_free(&p);
	c.file_shuffle = true; /* TF sorts the list again: epoch 2 reads as epoch 1 */
	CU_ASSERT_EQUAL_FATAL(sb_ml_plan_build(&c, &p), 0);
	c.epoch = 2;
	CU_ASSERT_EQUAL_FATAL(sb_ml_plan_build(&c, &q), 0);
	CU_ASSERT_EQUAL(memcmp(p.samples, q.samples, 15 * sizeof(uint64_t)), 0);
	sb_ml_plan_free(&p);
	sb_ml_plan_free(&q);
}

/* read_order=dlio for a TFRecord workload: tf_reader.py:84 lists the files
 * with list_files(shuffle=False), whose MatchingFiles op sorts the names
 * (tensorflow matching_files_op.cc), so DLIO's numpy shuffle of the list
 * (config.py:459-466) is undone: rank 1 of 2 reads sorted positions 1, 3,
 * 5, ... whatever file_shuffle says; with subfolders the sorted paths run
 * subfolder by subfolder (file i in train/<i % subfolders>/) */
static void test_plan_dlio_tf_sorted(void)
{
	struct sb_ml_plan_cfg c = plan_cfg(1); /* 10 files x 3, 2 ranks, batch 4, 3 readers */
	struct sb_ml_plan p;
	uint32_t file, in;
	/* no subfolders: files 1, 3, 5 interleaved, then 7, 9 */
	const uint32_t flat[] = { 1, 3, 5, 1, 3, 5, 1, 3, 5, 7, 9, 7 };
	/* 2 subfolders: sorted [0 2 4 6 8 | 1 3 5 7 9], positions 1, 3, 5, 7, 9 */
	const uint32_t sf2[] = { 2, 6, 1, 2, 6, 1, 2, 6, 1, 5, 9, 5 };
	/* 3 subfolders: [0 3 6 9 | 1 4 7 | 2 5 8], positions 1, 3, 5, 7, 9 */
	const uint32_t sf3[] = { 3, 9, 4, 3, 9, 4, 3, 9, 4, 2, 8, 2 };
	const uint32_t want_in[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 1 };
	const uint32_t *want[] = { flat, flat, sf2, sf3 };
	const unsigned sf[] = { 0, 1, 2, 3 };
	c.dlio = c.tfrecord = c.seed_change_epoch = true;
	c.seed = SB_ML_SHUFFLE_SEED;
	for (unsigned shuf = 0; shuf < 2; shuf++)
		for (unsigned t = 0; t < 4; t++) {
			c.file_shuffle = shuf;
			c.subfolders = sf[t];
			for (c.epoch = 1; c.epoch <= 2; c.epoch++) {
				CU_ASSERT_EQUAL_FATAL(sb_ml_plan_build(&c, &p), 0);
				for (size_t k = 0; k < 12; k++) {
					sb_ml_plan_stream_sample(&p, k / 4, k % 4, &file, &in);
					CU_ASSERT_EQUAL(file, want[t][k]);
					CU_ASSERT_EQUAL(in, want_in[k]);
				}
				sb_ml_plan_free(&p);
			}
		}
}

static void test_plan_no_shuffle_partial(void)
{
	struct sb_ml_plan_cfg c = plan_cfg(1);
	struct sb_ml_plan p;
	uint32_t file, in;
	c.file_shuffle = c.sample_shuffle = false;
	c.drop_last = false;
	CU_ASSERT_EQUAL_FATAL(sb_ml_plan_build(&c, &p), 0);
	CU_ASSERT_EQUAL(p.nbatches, 4);
	CU_ASSERT_EQUAL(sb_ml_plan_batch_len(&p, 3), 3);
	sb_ml_plan_sample(&p, 0, 0, &file, &in); /* sample 15 = file 5, index 0 */
	CU_ASSERT(file == 5 && in == 0);
	sb_ml_plan_sample(&p, 3, 2, &file, &in); /* sample 29 = file 9, index 2 */
	CU_ASSERT(file == 9 && in == 2);
	sb_ml_plan_free(&p);
	c.rank = 2;
	CU_ASSERT_EQUAL(sb_ml_plan_build(&c, &p), -EINVAL);
}

/* Step 0 loads for 5 s (excluded), then three steps of 1 s compute with
 * 0.5, 0 and 1 s of waiting: wall of counted steps 10.5 - 6 = 4.5 s,
 * compute 3 s: AU 66.67%, 3 steps * batch 2 / 4.5 s. */
static void test_au_timeline(void)
{
	const struct sb_ml_step st[] = {
		{ 0, 5, 6 }, { 6, 6.5, 7.5 }, { 7.5, 7.5, 8.5 }, { 8.5, 9.5, 10.5 },
	};
	struct sb_ml_au a;
	CU_ASSERT_EQUAL(sb_ml_au_block(st, 4, 0, 10.5, 1, 0, 2, &a), 0);
	CU_ASSERT_DOUBLE_EQUAL(a.au_pct, 100.0 * 3 / 4.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(a.wall_s, 4.5, 1e-12);
	/* DLIO: (4 steps - 2) * batch 2 / 4.5 s (statscounter.py:412) */
	CU_ASSERT_DOUBLE_EQUAL(a.samples_per_s, 4 / 4.5, 1e-12);
	CU_ASSERT_EQUAL(a.counted, 3);
	/* first step counted: 4 s of compute in 10.5 s */
	sb_ml_au_block(st, 4, 0, 10.5, 0, 0, 2, &a);
	CU_ASSERT_DOUBLE_EQUAL(a.au_pct, 100.0 * 4 / 10.5, 1e-9);
	/* last step excluded too: 2 s of compute in 10.5 - 6 - 2 s */
	sb_ml_au_block(st, 4, 0, 10.5, 1, 1, 2, &a);
	CU_ASSERT_DOUBLE_EQUAL(a.au_pct, 80.0, 1e-9);
	CU_ASSERT_EQUAL(sb_ml_au_block(st, 1, 0, 6, 1, 0, 2, &a), -ERANGE);
	CU_ASSERT_DOUBLE_EQUAL(a.au_pct, 0, 0);
}

static void test_au_combine(void)
{
	struct sb_ml_au r[2] = { { .au_pct = 80, .samples_per_s = 10 },
				 { .au_pct = 60, .samples_per_s = 20 } };
	struct sb_ml_train_metrics m, ep[2], mean;
	sb_ml_au_combine(r, 2, 1048576.0 / 2, &m);
	CU_ASSERT_DOUBLE_EQUAL(m.au_pct, 70, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(m.samples_per_s, 30, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(m.mb_per_s, 15, 1e-12);
	ep[0] = m;
	ep[1] = (struct sb_ml_train_metrics){ 90, 10, 5 };
	sb_ml_au_epochs_mean(ep, 2, &mean);
	CU_ASSERT_DOUBLE_EQUAL(mean.au_pct, 80, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(mean.mb_per_s, 10, 1e-12);
}

static void test_au_predict(void)
{
	struct sb_ml_au_model m = { .compute_s = 0.2, .read_s = 1, .readers = 4, .prefetch = 2 };
	CU_ASSERT_DOUBLE_EQUAL(sb_ml_au_predict(&m), 80, 1e-9);
	m.compute_s = 1;
	CU_ASSERT_DOUBLE_EQUAL(sb_ml_au_predict(&m), 100, 1e-9);
	m.consumers = 8; /* 4 readers for 8 accelerators: 2 s per batch */
	CU_ASSERT_DOUBLE_EQUAL(sb_ml_au_predict(&m), 50, 1e-9);
	/* 100 MB batches over 200 MB/s: 0.5 s per batch whatever the readers */
	m = (struct sb_ml_au_model){ .compute_s = 0.25, .read_s = 0.01, .readers = 8,
				     .prefetch = 2, .batch_bytes = 1e8, .rate_Bps = 2e8 };
	CU_ASSERT_DOUBLE_EQUAL(sb_ml_au_predict(&m), 50, 1e-9);
	m = (struct sb_ml_au_model){ .compute_s = 1, .read_s = 1, .readers = 1, .prefetch = 0 };
	CU_ASSERT_DOUBLE_EQUAL(sb_ml_au_predict(&m), 50, 1e-9);
}

/* The simulator runs the pipeline step by step; DLIO's formula on its
 * timeline must land within 2 points of the analytic steady state. */
static void test_au_simulated_vs_predicted(void)
{
	const struct sb_ml_au_model cases[] = {
		{ .compute_s = 0.2, .read_s = 1, .readers = 4, .prefetch = 2 },
		{ .compute_s = 0.3, .read_s = 1, .readers = 4, .prefetch = 1 },
		{ .compute_s = 0.1, .read_s = 1, .readers = 8, .prefetch = 2 },
		{ .compute_s = 1, .read_s = 1, .readers = 1, .prefetch = 0 },
		{ .compute_s = 0.01, .read_s = 0, .readers = 4, .prefetch = 2 },
		{ .compute_s = 0.125, .read_s = 0.01, .readers = 4, .prefetch = 2,
		  .batch_bytes = 1e8, .rate_Bps = 4e8 },
	};
	enum { N = 400 };
	struct sb_ml_step *st = calloc(N, sizeof(*st));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sb_ml_au a;
		CU_ASSERT_EQUAL_FATAL(sb_ml_au_simulate(&cases[i], st, N), 0);
		CU_ASSERT_EQUAL_FATAL(sb_ml_au_block(st, N, 0, st[N - 1].compute_end, 1, 0, 1, &a), 0);
		CU_ASSERT_DOUBLE_EQUAL(a.au_pct, sb_ml_au_predict(&cases[i]), 2.0);
	}
	/* the first step's wait is what exclusion removes: slow start, full AU */
	struct sb_ml_au_model slow = { .compute_s = 1, .read_s = 3, .readers = 4, .prefetch = 2 };
	struct sb_ml_au a0, a1;
	sb_ml_au_simulate(&slow, st, 10);
	sb_ml_au_block(st, 10, 0, st[9].compute_end, 0, 0, 1, &a0);
	sb_ml_au_block(st, 10, 0, st[9].compute_end, 1, 0, 1, &a1);
	CU_ASSERT(a0.au_pct < 80);
	CU_ASSERT(a1.au_pct > a0.au_pct);
	free(st);
}

static CU_TestInfo tests[] = {
	{ "dlio TFRecord order: TF's sorted list", test_plan_dlio_tf_sorted },
	{ "built-in workloads", test_workloads },
	{ "file names", test_file_names },
	{ "fixed sizes", test_sizes_fixed },
	{ "sizes with stdev", test_sizes_stdev },
	{ "shuffle is a seeded permutation", test_shuffle },
	{ "plan covers every sample once", test_plan_cover },
	{ "plan per epoch and seed", test_plan_epochs },
	{ "plan without shuffle, partial batch", test_plan_no_shuffle_partial },
	{ "plan in DLIO's order", test_plan_dlio },
	{ "AU on a hand-computed timeline", test_au_timeline },
	{ "AU across ranks and epochs", test_au_combine },
	{ "AU predictor", test_au_predict },
	{ "AU simulated vs predicted", test_au_simulated_vs_predicted },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ml_train, tests)
