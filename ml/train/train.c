/* ml/train/train.c: DLIO training workloads: dataset shapes, layout, per-file
 * sizes, deterministic shuffles and the per-epoch batch plan (ml_train.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ml/train/train.h"
#include "parse/catalog.h"
#include "parse/jobspec.h" /* SB_SHUFFLE_* */

/* The presets are parse/catalog.c's table. */
const char *const *sb_ml_workload_names(void)
{
	return sb_train_preset_names;
}

int sb_ml_workload_find(const char *name, struct sb_ml_workload *out)
{
	const struct sb_train_preset *p = sb_train_preset_find(name);
	if (!p)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", p->name);
	snprintf(out->ds.format, sizeof(out->ds.format), "%s", p->format);
	snprintf(out->ds.prefix, sizeof(out->ds.prefix), "%s", p->prefix);
	out->ds.files = p->files;
	out->ds.samples_per_file = p->samples_per_file;
	out->ds.record_length = p->record_length;
	out->ds.record_stdev = p->record_stdev;
	out->ds.seed = SB_ML_DATAGEN_SEED;
	out->batch_size = p->batch_size;
	out->read_threads = p->read_threads;
	out->epochs = p->epochs;
	out->compute_a100_s = p->compute_a100_s;
	out->compute_h100_s = p->compute_h100_s;
	out->au_required_pct = p->au_required_pct;
	out->file_shuffle = p->shuffle & SB_SHUFFLE_FILE;
	out->sample_shuffle = p->shuffle & SB_SHUFFLE_SAMPLE;
	out->ckpt_after_epoch = p->ckpt_after_epoch;
	return 0;
}

/* ---- PRNG ---- */

void sb_ml_rng_seed(struct sb_ml_rng *r, uint64_t seed)
{
	sb_rng_seed(&r->g, seed);
}

uint64_t sb_ml_rng_next(struct sb_ml_rng *r)
{
	return sb_rng_next(&r->g);
}

uint64_t sb_ml_rng_below(struct sb_ml_rng *r, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
	do
		x = sb_ml_rng_next(r);
	while (x >= limit);
	return x % n;
}

static double rng_unit(struct sb_ml_rng *r) /* (0, 1] */
{
	return ((double)(sb_ml_rng_next(r) >> 11) + 1.0) * 0x1.0p-53;
}

double sb_ml_rng_normal(struct sb_ml_rng *r) /* Box-Muller */
{
	double u = rng_unit(r), v = rng_unit(r);
	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* Marsaglia and Tsang (2000); shape < 1 by Gamma(shape + 1) * U^(1/shape) */
double sb_ml_rng_gamma(struct sb_ml_rng *r, double shape)
{
	double boost = 1.0;
	if (shape < 1.0) {
		boost = pow(rng_unit(r), 1.0 / shape);
		shape += 1.0;
	}
	double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
	for (;;) {
		double x = sb_ml_rng_normal(r), v = 1.0 + c * x;
		if (v <= 0)
			continue;
		v = v * v * v;
		double u = rng_unit(r);
		if (u < 1.0 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
			return boost * d * v;
	}
}

double sb_ml_compute_draw(const struct sb_ml_compute *c, struct sb_ml_rng *r)
{
	double t;
	switch (c->type) {
	case SB_CTIME_UNIFORM:
		t = c->min + (c->max - c->min) * (rng_unit(r) - 0x1.0p-53);
		break;
	case SB_CTIME_GAMMA:
		t = c->shape > 0 ? sb_ml_rng_gamma(r, c->shape) * c->scale : 0;
		break;
	default:
		t = c->mean + (c->stdev > 0 ? c->stdev * sb_ml_rng_normal(r) : 0);
		break;
	}
	return fabs(t);
}

void sb_ml_shuffle_u32(uint32_t *v, size_t n, uint64_t seed)
{
	struct sb_ml_rng r;
	sb_ml_rng_seed(&r, seed);
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)sb_ml_rng_below(&r, i);
		uint32_t t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

void sb_ml_shuffle_u64(uint64_t *v, size_t n, uint64_t seed)
{
	struct sb_ml_rng r;
	sb_ml_rng_seed(&r, seed);
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)sb_ml_rng_below(&r, i);
		uint64_t t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* ---- layout and sizes ---- */

uint64_t sb_ml_dlio_dim(double record_length)
{
	double d = record_length > 1 ? floor(sqrt(record_length)) : 1;
	return d < 1 ? 1 : (uint64_t)d;
}

void sb_ml_sample_dims(const struct sb_ml_dataset *ds, unsigned file, uint64_t *d1, uint64_t *d2)
{
	struct sb_ml_rng r;
	double d, sd, a, b;
	if (!(ds->record_stdev > 0)) {
		*d1 = *d2 = sb_ml_dlio_dim(ds->record_length);
		return;
	}
	sb_ml_rng_seed(&r, ds->seed * 0x100000001b3ull ^ ((uint64_t)file + 1));
	d = sqrt(ds->record_length);
	sd = ds->record_stdev / 2.0 / d;
	d = (double)sb_ml_dlio_dim(ds->record_length); /* DLIO draws around its integer dimension */
	a = floor(d + sd * sb_ml_rng_normal(&r));
	b = floor(d + sd * sb_ml_rng_normal(&r));
	*d1 = (uint64_t)(a < 1 ? 1 : a);
	*d2 = (uint64_t)(b < 1 ? 1 : b);
}

uint64_t sb_ml_sample_bytes(const struct sb_ml_dataset *ds, unsigned file)
{
	uint64_t a, b;
	sb_ml_sample_dims(ds, file, &a, &b);
	return a * b;
}

double sb_ml_sample_bytes_max(const struct sb_ml_dataset *ds)
{
	return sb_ml_record_bytes_max(ds->record_length, ds->record_stdev);
}

uint64_t sb_ml_file_bytes(const struct sb_ml_dataset *ds, unsigned file)
{
	return sb_ml_sample_bytes(ds, file) * ds->samples_per_file;
}

uint64_t sb_ml_dataset_bytes(const struct sb_ml_dataset *ds)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < ds->files; i++)
		sum += sb_ml_file_bytes(ds, i);
	return sum;
}

static int digits(unsigned n)
{
	int d = 1;
	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

int sb_ml_file_name(const struct sb_ml_dataset *ds, unsigned file, char *buf, size_t len)
{
	int n;
	const char *top = ds->split[0] ? ds->split : "train";
	if (ds->subfolders > 1)
		n = snprintf(buf, len, "%s/%0*u/%s_%0*u_of_%u.%s", top, digits(ds->subfolders),
			     file % ds->subfolders, ds->prefix, digits(ds->files), file,
			     ds->files, ds->format);
	else
		n = snprintf(buf, len, "%s/%s_%0*u_of_%u.%s", top, ds->prefix, digits(ds->files),
			     file, ds->files, ds->format);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* ---- epoch plan ---- */

/* Distinct streams for the two shuffles of one epoch. */
static uint64_t epoch_seed(const struct sb_ml_plan_cfg *c, uint64_t stream)
{
	uint64_t s = c->seed + (c->seed_change_epoch ? c->epoch : 0);
	return s * 0x9e3779b97f4a7c15ull + stream;
}

static int plan_check(const struct sb_ml_plan_cfg *c)
{
	uint64_t total = (uint64_t)c->files * c->samples_per_file;
	if (!c->files || !c->samples_per_file || !c->batch_size || !c->ranks ||
	    c->rank >= c->ranks || total < c->ranks)
		return -EINVAL;
	return 0;
}

/* DLIO's TF reader: this rank's files (positions rank, rank + ranks, ...
 * of the sorted list), read_threads of them interleaved record by record;
 * samples[] holds file * spf + record in that order, file_order is the
 * identity.  tf_reader.py:84 lists the files with
 * tf.data.Dataset.list_files(file_list, shuffle=False), whose MatchingFiles
 * op sorts every name it matched (tensorflow matching_files_op.cc: std::sort
 * of the output), so the numpy shuffle DLIO gives file_list_train
 * (config.py:459-466) never reaches the reader: the paths in byte order, the
 * file indices ascending (their names are zero-padded alike), or with
 * subfolders train/<i % subfolders>/... subfolder by subfolder */
static int tf_stream(const struct sb_ml_plan_cfg *c, struct sb_ml_plan *p)
{
	uint32_t *list = malloc(c->files * sizeof(*list));
	unsigned spf = c->samples_per_file, cyc = c->read_threads ? c->read_threads : 1;
	unsigned sf = c->subfolders > 1 ? c->subfolders : 1, at = 0;
	if (!list)
		return -ENOMEM;
	for (unsigned k = 0; k < sf; k++)
		for (unsigned i = k; i < c->files; i += sf)
			list[at++] = i;
	/* fewer files than ranks: DLIO does not shard (tf_reader.py:87) */
	unsigned step = c->files >= c->ranks ? c->ranks : 1, first = c->files >= c->ranks ? c->rank : 0;
	size_t mine = first < c->files ? (c->files - first + step - 1) / step : 0, n = 0;
	uint64_t *v = realloc(p->samples, (mine * spf > 0 ? mine * spf : 1) * sizeof(*v));
	if (!v) {
		free(list);
		return -ENOMEM;
	}
	p->samples = v;
	for (size_t g0 = 0; g0 < mine; g0 += cyc) { /* equal record counts: group by group */
		size_t gn = mine - g0 < cyc ? mine - g0 : cyc;
		for (unsigned r = 0; r < spf; r++)
			for (size_t k = 0; k < gn; k++)
				v[n++] = (uint64_t)list[first + (g0 + k) * step] * spf + r;
	}
	p->nsamples = n;
	p->first = 0;
	free(list);
	return 0;
}

int sb_ml_plan_build(const struct sb_ml_plan_cfg *c, struct sb_ml_plan *p)
{
	uint64_t total = (uint64_t)c->files * c->samples_per_file, spp, start, end;
	size_t full, steps;
	memset(p, 0, sizeof(*p));
	if (plan_check(c))
		return -EINVAL;
	spp = (total + c->ranks - 1) / c->ranks;
	start = spp * c->rank;
	end = start + spp < total ? start + spp : total;
	p->nsamples = start < end ? (size_t)(end - start) : 0;
	p->first = start;
	p->file_order = malloc(c->files * sizeof(*p->file_order));
	p->samples = malloc((p->nsamples ? p->nsamples : 1) * sizeof(*p->samples));
	if (!p->file_order || !p->samples) {
		sb_ml_plan_free(p);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < c->files; i++)
		p->file_order[i] = i;
	for (size_t i = 0; i < p->nsamples; i++)
		p->samples[i] = start + i;
	if (c->dlio && c->tfrecord) {
		int e = tf_stream(c, p);
		if (e) {
			sb_ml_plan_free(p);
			return e;
		}
	} else if (!c->dlio) {
		if (c->file_shuffle)
			sb_ml_shuffle_u32(p->file_order, c->files, epoch_seed(c, 1));
		if (c->sample_shuffle)
			sb_ml_shuffle_u64(p->samples, p->nsamples, epoch_seed(c, 2));
	}
	p->stream_is_samples = c->dlio;
	full = p->nsamples / c->batch_size;
	steps = sb_ml_steps_per_epoch(c->files, c->samples_per_file, c->batch_size, c->ranks);
	if (c->drop_last)
		p->nbatches = full < steps ? full : steps;
	else
		p->nbatches = (p->nsamples + c->batch_size - 1) / c->batch_size;
	p->batch_size = c->batch_size;
	p->read_threads = c->read_threads;
	p->samples_per_file = c->samples_per_file;
	return 0;
}

void sb_ml_plan_free(struct sb_ml_plan *p)
{
	free(p->file_order);
	free(p->samples);
	memset(p, 0, sizeof(*p));
}

size_t sb_ml_plan_batch_len(const struct sb_ml_plan *p, size_t b)
{
	size_t first = b * p->batch_size;
	if (b >= p->nbatches || first >= p->nsamples)
		return 0;
	return p->nsamples - first < p->batch_size ? p->nsamples - first : p->batch_size;
}

void sb_ml_plan_stream_sample(const struct sb_ml_plan *p, size_t b, size_t i,
			      uint32_t *file, uint32_t *in_file)
{
	if (p->stream_is_samples) {
		sb_ml_plan_sample(p, b, i, file, in_file);
		return;
	}
	uint64_t g = p->first + b * p->batch_size + i;
	*file = p->file_order[g / p->samples_per_file];
	*in_file = (uint32_t)(g % p->samples_per_file);
}

unsigned sb_ml_plan_batch_reader(const struct sb_ml_plan *p, size_t b)
{
	return p->read_threads ? (unsigned)(b % p->read_threads) : 0;
}

void sb_ml_plan_sample(const struct sb_ml_plan *p, size_t b, size_t i,
		       uint32_t *file, uint32_t *in_file)
{
	uint64_t g = p->samples[b * p->batch_size + i];
	*file = p->file_order[g / p->samples_per_file];
	*in_file = (uint32_t)(g % p->samples_per_file);
}
