/* ml/model.c: LLM checkpoint shapes, per-rank sizes and the DLIO file layout
 * of one checkpoint (see ml_model.h for the formulas). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ml/model.h"
#include "parse/catalog.h"
#include "lib/log.h"

#define MODEL_DTYPE_BYTES SB_ML_MODEL_DTYPE_BYTES
#define OPTIM_DTYPE_BYTES SB_ML_OPTIM_DTYPE_BYTES

/* The presets are parse/catalog.c's table (MLPerf Storage v2); the shape
 * checks and tp*pp*dp are in parse/mlshape.c. */
const char *const *sb_ml_model_names(void)
{
	return sb_model_preset_names;
}

int sb_ml_model_find(const char *name, struct sb_ml_shape *out)
{
	const struct sb_model_preset *p = sb_model_preset_find(name);
	if (!p)
		return -ENOENT;
	sb_ml_shape_from_preset(p, out);
	return 0;
}

static uint64_t kv_dim(const struct sb_ml_shape *s)
{
	return (uint64_t)(s->hidden / s->heads) * s->kv_heads;
}

/* Parameters of one transformer layer, unsplit. */
static uint64_t layer_params(const struct sb_ml_shape *s)
{
	uint64_t h = s->hidden;
	return h + h * (h + 2 * kv_dim(s)) + h * h + h + 3 * (uint64_t)s->ffn * h;
}

double sb_ml_param_count(const struct sb_ml_shape *s)
{
	uint64_t h = s->hidden, emb = (uint64_t)s->vocab * h;
	return (double)(emb + s->layers * layer_params(s) + h + emb);
}

static uint64_t param_count_u64(const struct sb_ml_shape *s)
{
	uint64_t h = s->hidden, emb = (uint64_t)s->vocab * h;
	return emb + s->layers * layer_params(s) + h + emb;
}

void sb_ml_stage_layers(const struct sb_ml_shape *s, unsigned pp_rank,
			unsigned *first, unsigned *last)
{
	unsigned per = s->layers / s->pp, rem = s->layers % s->pp;
	unsigned start, end;
	if (pp_rank < rem) {
		start = pp_rank * (per + 1) + 1;
		end = start + per;
	} else {
		start = rem * (per + 1) + (pp_rank - rem) * per + 1;
		end = start + per - 1; /* per == 0: empty, fixed below */
	}
	if (pp_rank == s->pp - 1)
		end = s->layers + 2;
	if (pp_rank == 0)
		start = 0;
	*first = start;
	*last = end;
}

uint64_t sb_ml_layer_bytes(const struct sb_ml_shape *s, unsigned layer)
{
	uint64_t h = s->hidden, tp = s->tp;
	uint64_t sf = s->zero_stage == 3 ? s->dp : 1;
	uint64_t n;
	if (layer == 0 || layer == s->layers + 1)
		n = h * s->vocab / tp / sf;
	else if (layer == s->layers + 2)
		n = h / sf;
	else
		n = h / sf + h * (h + 2 * kv_dim(s)) / tp / sf + h * h / tp / sf + h / sf +
		    h * 2 * s->ffn / tp / sf + h * s->ffn / tp / sf;
	return n * MODEL_DTYPE_BYTES;
}

struct rank_pos {
	unsigned mp, dp, pp;
};

static struct rank_pos rank_pos(const struct sb_ml_shape *s, unsigned r)
{
	unsigned mp_world = s->tp * s->pp;
	struct rank_pos p = { r % mp_world, r / mp_world, (r / s->tp) % s->pp };
	return p;
}

/* Does rank r write anything?  ZeRO-0: only the first DP replica. */
static bool rank_writes(const struct sb_ml_shape *s, unsigned r)
{
	return s->zero_stage != 0 || r < s->tp * s->pp;
}

/* Does rank r write model states?  ZeRO-1/2: DP rank 0 only. */
static bool rank_writes_model(const struct sb_ml_shape *s, unsigned r)
{
	if (!rank_writes(s, r))
		return false;
	if (s->zero_stage == 1 || s->zero_stage == 2)
		return rank_pos(s, r).dp == 0;
	return true;
}

uint64_t sb_ml_rank_model_bytes(const struct sb_ml_shape *s, unsigned rank)
{
	unsigned first, last;
	uint64_t sum = 0;
	if (!rank_writes_model(s, rank))
		return 0;
	sb_ml_stage_layers(s, rank_pos(s, rank).pp, &first, &last);
	for (unsigned l = first; l <= last; l++)
		sum += sb_ml_layer_bytes(s, l);
	return sum;
}

uint64_t sb_ml_rank_optim_bytes(const struct sb_ml_shape *s, unsigned rank)
{
	uint64_t div = (uint64_t)s->tp * s->pp, n;
	if (!rank_writes(s, rank))
		return 0;
	if (s->zero_stage > 0)
		div *= s->dp;
	n = param_count_u64(s) / div;
	return OPTIM_DTYPE_BYTES * (3 * n + 15 * (uint64_t)s->hidden);
}

void sb_ml_ckpt_total(const struct sb_ml_shape *s, uint64_t *model, uint64_t *optim)
{
	uint64_t m = 0, o = 0;
	for (unsigned r = 0; r < sb_ml_world(s); r++) {
		m += sb_ml_rank_model_bytes(s, r);
		o += sb_ml_rank_optim_bytes(s, r);
	}
	*model = m;
	*optim = o;
}

int sb_ml_ckpt_folder(unsigned epoch, unsigned step, char *buf, size_t len)
{
	int n = snprintf(buf, len, "global_epoch%u_step%u", epoch, step);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static uint64_t scaled(uint64_t bytes, double scale)
{
	uint64_t b = (uint64_t)((double)bytes / scale);
	return b ? b : 1;
}

struct file_list {
	struct sb_ml_file *v;
	size_t n, cap;
	char folder[48];
	double scale;
};

static int add_file(struct file_list *fl, unsigned rank, enum sb_ml_file_kind kind,
		    int layer, uint64_t bytes, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int add_file(struct file_list *fl, unsigned rank, enum sb_ml_file_kind kind,
		    int layer, uint64_t bytes, const char *fmt, ...)
{
	if (fl->n == fl->cap) {
		size_t cap = fl->cap ? fl->cap * 2 : 64;
		struct sb_ml_file *v = realloc(fl->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		fl->v = v;
		fl->cap = cap;
	}
	struct sb_ml_file *f = &fl->v[fl->n++];
	char base[SB_ML_FILE_NAME_MAX - 48];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(base, sizeof(base), fmt, ap);
	va_end(ap);
	snprintf(f->name, sizeof(f->name), "%s/%s", fl->folder, base);
	f->bytes = scaled(bytes, fl->scale);
	f->rank = rank;
	f->kind = kind;
	f->layer = layer;
	return 0;
}

static int add_model_files(const struct sb_ml_shape *s, unsigned r, struct file_list *fl)
{
	struct rank_pos p = rank_pos(s, r);
	bool ds = s->naming == SB_ML_NAMES_DEEPSPEED;
	unsigned first, last;
	if (!rank_writes_model(s, r))
		return 0;
	if (s->zero_stage == 0 || s->zero_stage == 3)
		return add_file(fl, r, SB_ML_FILE_MODEL, -1, sb_ml_rank_model_bytes(s, r),
				ds ? "zero_pp_rank_%u_mp_rank_%02u_model_states.pt"
				   : "zero_pp_rank_%u_mp_rank_%u_model_states.pt", p.dp, p.mp);
	if (s->pp == 1)
		return add_file(fl, r, SB_ML_FILE_MODEL, -1, sb_ml_rank_model_bytes(s, r),
				ds ? "mp_rank_%02u_model_states.pt" : "model_%u_model_states.pt", p.mp);
	sb_ml_stage_layers(s, p.pp, &first, &last);
	for (unsigned l = first; l <= last; l++) {
		int rc = add_file(fl, r, SB_ML_FILE_MODEL, (int)l, sb_ml_layer_bytes(s, l),
				  ds ? "layer_%02u-model_%02u_model_states.pt"
				     : "layer_%u-model_%u_model_states.pt", l, p.mp);
		if (rc)
			return rc;
	}
	return 0;
}

static int add_rank_files(const struct sb_ml_shape *s, unsigned r, struct file_list *fl)
{
	struct rank_pos p = rank_pos(s, r);
	int rc = add_model_files(s, r, fl);
	if (rc || !rank_writes(s, r))
		return rc;
	return add_file(fl, r, SB_ML_FILE_OPTIM, -1, sb_ml_rank_optim_bytes(s, r),
			s->naming == SB_ML_NAMES_DEEPSPEED
				? "zero_pp_rank_%u_mp_rank_%02u_optim_states.pt"
				: "zero_pp_rank_%u_mp_rank_%u_optim_states.pt", p.dp, p.mp);
}

int sb_ml_ckpt_files(const struct sb_ml_shape *s, unsigned epoch, unsigned step,
		     double scale, unsigned ranks, bool subset,
		     struct sb_ml_file **files, size_t *n)
{
	struct file_list fl = { .scale = scale };
	char err[256];
	int rc;
	*files = NULL;
	*n = 0;
	if ((rc = sb_ml_shape_check(s, err, sizeof(err))) ||
	    (rc = sb_ml_check_ranks(s, ranks, subset, err, sizeof(err)))) {
		sb_err("checkpoint", "%s", err);
		return rc;
	}
	if (!(scale >= 1.0)) {
		sb_err("checkpoint", "checkpoint_scale=%g: must be 1 or more (it divides every file size)", scale);
		return -EINVAL;
	}
	sb_ml_ckpt_folder(epoch, step, fl.folder, sizeof(fl.folder));
	for (unsigned r = 0; r < ranks; r++) {
		if ((rc = add_rank_files(s, r, &fl))) {
			free(fl.v);
			return rc;
		}
	}
	*files = fl.v;
	*n = fl.n;
	return 0;
}

/* file f's tensors, unscaled: a model file holds one tensor per layer it
 * covers, an optimizer file three fp32 groups of n + 5h */
static size_t file_tensors_raw(const struct sb_ml_shape *s, const struct sb_ml_file *f, uint64_t *v)
{
	unsigned first, last;
	size_t n = 0;
	if (f->kind == SB_ML_FILE_OPTIM) {
		uint64_t o = sb_ml_rank_optim_bytes(s, f->rank);
		v[0] = v[1] = o / 3;
		v[2] = o - 2 * (o / 3);
		return 3;
	}
	if (f->layer >= 0) {
		v[0] = sb_ml_layer_bytes(s, (unsigned)f->layer);
		return 1;
	}
	sb_ml_stage_layers(s, rank_pos(s, f->rank).pp, &first, &last);
	for (unsigned l = first; l <= last; l++)
		v[n++] = sb_ml_layer_bytes(s, l);
	return n;
}

int sb_ml_file_tensors(const struct sb_ml_shape *s, const struct sb_ml_file *f,
		       uint64_t **out, size_t *n)
{
	uint64_t *v = malloc(((size_t)s->layers + 3 > 3 ? (size_t)s->layers + 3 : 3) * sizeof(*v));
	*out = NULL;
	*n = 0;
	if (!v)
		return -ENOMEM;
	size_t k = file_tensors_raw(s, f, v);
	uint64_t sum = 0, got = 0;
	for (size_t i = 0; i < k; i++)
		sum += v[i];
	/* scale to the file's bytes, the rounding on the last tensor */
	for (size_t i = 0; i + 1 < k; i++) {
		v[i] = sum ? (uint64_t)((long double)v[i] * f->bytes / sum) : 0;
		got += v[i];
	}
	v[k - 1] = f->bytes > got ? f->bytes - got : 0;
	*out = v;
	*n = k;
	return 0;
}
