/* ml/train/train.h: the DLIO training-read model, without I/O.
 *
 * Built-in dataset shapes (unet3d, resnet50, cosmoflow: the MLPerf Storage
 * DLIO configs), the dataset layout (file names, per-file sizes from a seeded
 * generator), the per-epoch shuffle of files and samples, and the batch plan:
 * which samples form which batch of a rank and which reader thread reads it.
 * The AU formula and predictor are in ml_au.h.
 *
 * Layout, as DLIO's generator: <dir>/train/<prefix>_<i>_of_<n>.<format>, i
 * zero-padded to the digits of n (img_007_of_168.npz); with subfolders > 1
 * file i lives in train/<i % subfolders>/ (padded to the digits of subfolders).
 *
 * Sizes: with record_stdev == 0 every sample is d^2 bytes, d =
 * int(sqrt(record_length)) as DLIO's.
 * With a stdev, DLIO draws the two dimensions of a file's records from a
 * normal law N(d, sd), sd = stdev / 2 / sqrt(record_length), truncates
 * each to an integer >= 1, and a sample is dim1 * dim2 bytes; storbench does
 * the same (so the file sizes follow DLIO's distribution: mean ~ record_length,
 * spread ~ stdev / sqrt(2)) from its own PRNG seeded by (seed, file index):
 * each file's size is independent of generation order and ranks, not equal
 * to numpy's values.  A file holds samples_per_file equal-sized samples.
 *
 * Plan, as DLIO's PyTorch loader (drop_last, persistent workers):
 *   total = files * samples_per_file; each rank takes the contiguous global
 *   sample ids [rank*spp, min((rank+1)*spp, total)), spp = ceil(total/ranks);
 *   sample g lives in file file_order[g / spf] at index g % spf.
 *   Per epoch e (1-based), with seed_change_epoch the seed is seed + e:
 *   file_shuffle permutes file_order, sample_shuffle permutes the rank's ids
 *   (Fisher-Yates, xoshiro256** seeded through splitmix64).
 *   Batch b holds ids [b*B, b*B+B) of that order; drop_last keeps
 *   min(floor(total/B/ranks), floor(rank_ids/B)) batches (DLIO's steps per
 *   epoch), else the last partial batch too.  Batch b is read whole by reader
 *   b % read_threads (round-robin, as torch workers).
 *
 * dlio (read_order=dlio, the default), DLIO's order as dlio_benchmark
 * 392621b reads (file:line there):
 *   PyTorch loader (index sampler): the rank's ids ascending every epoch,
 *   whatever the shuffles say: dlio_sampler yields range(start, end)
 *   (torch_data_loader.py:95-107) and the sample map it indexes is keyed
 *   by global id (config.py:449-466), the file shuffle being the iterative
 *   sampler's only (config.py:337-341, 459-466).
 *   TFRecord (TF loader, iterative sampler): the sorted file list (DLIO's
 *   numpy shuffle of it, config.py:459-466, is undone by
 *   list_files(shuffle=False), tf_reader.py:84, whose MatchingFiles op
 *   sorts the names; with subfolders, subfolder by subfolder), rank r
 *   takes list positions r, r+N, ... (Dataset.shard:
 *   tf_reader.py:85-88) and reads read_threads of them at once, one record
 *   of each in turn (num_parallel_reads: an interleave of cycle
 *   read_threads, block 1: tf_reader.py:91-92); the sample shuffle is
 *   tf's in-memory shuffle buffer and moves no read. */
#ifndef SB_ML_TRAIN_H
#define SB_ML_TRAIN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ml/model.h"
#include "run/rng.h"

#define SB_ML_DATAGEN_SEED 10u /* DLIO's generator seed */
#define SB_ML_SHUFFLE_SEED 123u /* DLIO's reader seed */

struct sb_ml_dataset {
	char format[16];          /* file extension: npz, tfrecord */
	char prefix[16];          /* file name prefix: img */
	unsigned files;           /* dataset_files (num_files_train) */
	unsigned samples_per_file;
	double record_length;     /* nominal bytes per sample (may be fractional) */
	double record_stdev;      /* bytes; 0 = every sample the same size */
	unsigned subfolders;      /* 0 or 1: none */
	uint64_t seed;            /* size generator seed */
	char split[8];            /* top folder: "" = train, "valid" (eval) */
	unsigned fmt;             /* enum sb_dsfmt (parse/jobspec.h): what a file holds */
};

/* A built-in training workload (DLIO config). */
struct sb_ml_workload {
	char name[SB_ML_NAME_MAX];
	struct sb_ml_dataset ds;
	unsigned batch_size, read_threads, epochs;
	double compute_a100_s, compute_h100_s; /* computation_time per step */
	double au_required_pct;
	bool file_shuffle, sample_shuffle; /* DLIO reader.file_shuffle / sample_shuffle */
	unsigned ckpt_after_epoch;         /* in-training checkpoint (0: none) */
};

int sb_ml_workload_find(const char *name, struct sb_ml_workload *out);
const char *const *sb_ml_workload_names(void); /* NULL-terminated */

/* A sample's shape (d1 x d2 bytes, DLIO's record dimensions): the two
 * draws with a stdev, else floor(record_length) as its largest divisor
 * d1 <= its square root times the cofactor (a prime length: 1 x n). */
void sb_ml_sample_dims(const struct sb_ml_dataset *ds, unsigned file, uint64_t *d1, uint64_t *d2);
/* DLIO's dimension: int(sqrt(record_length)) (utils/config.py:312), >= 1.
 * DLIO's generators draw a file's two record dimensions around it
 * (data_generator.py:54-58): without a stdev a record is dimension^2
 * bytes (resnet50's 114660.07: 338^2 = 114244; record_length=1000: 961);
 * every format, raw too (its bytes are the others' payload). */
uint64_t sb_ml_dlio_dim(double record_length);
/* Bytes of one sample of file i, and of the whole file's samples (the
 * payload: ml/train/formats.h adds each format's framing). */
uint64_t sb_ml_sample_bytes(const struct sb_ml_dataset *ds, unsigned file);
uint64_t sb_ml_file_bytes(const struct sb_ml_dataset *ds, unsigned file);
/* The largest sample sb_ml_sample_bytes can return for this dataset (its
 * normal draws are bounded: |z| <= 8.58), in bytes, as a double: the
 * validation checks sizes against 2^63 with it before anything is summed. */
double sb_ml_sample_bytes_max(const struct sb_ml_dataset *ds);
/* Sum of all file sizes. */
uint64_t sb_ml_dataset_bytes(const struct sb_ml_dataset *ds);
/* "train/img_007_of_168.npz" (or "train/3/..."): relative to the data dir.
 * 0 or -ENAMETOOLONG. */
int sb_ml_file_name(const struct sb_ml_dataset *ds, unsigned file, char *buf, size_t len);

/* Deterministic PRNG (xoshiro256**, seeded through splitmix64). */
struct sb_ml_rng {
	struct sb_rng g;  /* run/rng.h: the I/O path's generator */
};
void sb_ml_rng_seed(struct sb_ml_rng *r, uint64_t seed);
uint64_t sb_ml_rng_next(struct sb_ml_rng *r);
uint64_t sb_ml_rng_below(struct sb_ml_rng *r, uint64_t n); /* uniform in [0, n), n >= 1 */
double sb_ml_rng_normal(struct sb_ml_rng *r);               /* N(0, 1) */
double sb_ml_rng_gamma(struct sb_ml_rng *r, double shape);  /* Gamma(shape, 1), shape > 0 */

/* A step's computation time, DLIO's computation_time dict: normal (mean,
 * stdev), uniform (min, max) or gamma (shape, scale); seconds.  DLIO takes
 * the absolute value of the draw; so does sb_ml_compute_draw. */
struct sb_ml_compute {
	unsigned type;            /* enum sb_ctime (parse/jobspec.h) */
	double mean, stdev, min, max, shape, scale;
};
double sb_ml_compute_draw(const struct sb_ml_compute *c, struct sb_ml_rng *r);

/* Fisher-Yates shuffles of v[0..n) driven by seed. */
void sb_ml_shuffle_u32(uint32_t *v, size_t n, uint64_t seed);
void sb_ml_shuffle_u64(uint64_t *v, size_t n, uint64_t seed);

struct sb_ml_plan_cfg {
	unsigned files, samples_per_file;
	unsigned batch_size, read_threads; /* read_threads 0: the consumer reads */
	unsigned rank, ranks;
	unsigned epoch;                    /* 1-based, as DLIO */
	uint64_t seed;                     /* SB_ML_SHUFFLE_SEED in DLIO */
	bool file_shuffle, sample_shuffle, seed_change_epoch, drop_last;
	/* dlio: DLIO's I/O order (read_order=dlio); tfrecord: its TF reader's */
	bool dlio, tfrecord;
	unsigned subfolders;               /* > 1: the files' subfolders (TF's sorted paths) */
};

struct sb_ml_plan {
	uint32_t *file_order;   /* position -> file index (files entries) */
	uint64_t *samples;      /* this rank's global sample ids, read order */
	size_t nsamples;
	uint64_t first;         /* this rank's first global sample id */
	size_t nbatches;        /* batches (steps) of this rank this epoch */
	unsigned batch_size, read_threads, samples_per_file;
	bool stream_is_samples;  /* dlio: samples[] is the I/O order */
};

/* sb_ml_steps_per_epoch (DLIO's steps per epoch): parse/mlshape.h */
/* 0, -EINVAL (zero sizes, rank >= ranks, fewer samples than ranks), -ENOMEM. */
int sb_ml_plan_build(const struct sb_ml_plan_cfg *c, struct sb_ml_plan *p);
void sb_ml_plan_free(struct sb_ml_plan *p);
/* Samples in batch b (batch_size, or fewer for a last partial batch). */
size_t sb_ml_plan_batch_len(const struct sb_ml_plan *p, size_t b);
/* The reader thread that reads batch b. */
unsigned sb_ml_plan_batch_reader(const struct sb_ml_plan *p, size_t b);
/* Sample i of batch b: its file and index inside the file. */
void sb_ml_plan_sample(const struct sb_ml_plan *p, size_t b, size_t i,
		       uint32_t *file, uint32_t *in_file);
/* Sample i of batch b in stream order (a TFRecord reader: the rank's ids
 * in order, through file_order; a sample shuffle happens in memory). */
void sb_ml_plan_stream_sample(const struct sb_ml_plan *p, size_t b, size_t i,
			      uint32_t *file, uint32_t *in_file);
#endif
