/* ml_model.c: LLM checkpoint shapes, per-rank sizes and the DLIO file layout
 * of one checkpoint (see ml_model.h for the formulas). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ml/model.h"
#include "lib/log.h"

#define MODEL_DTYPE_BYTES 2u /* fp16 */
#define OPTIM_DTYPE_BYTES 4u /* fp32 */

/* The MLPerf Storage v2 table (mlcommons/storage configs/dlio/workload). */
static const struct sb_ml_shape builtin[] = {
	{ "llama3-8b", 4096, 14336, 32, 32, 8, 128256, 1, 1, 8, 3, 8, SB_ML_NAMES_DLIO },
	{ "llama3-70b", 8192, 28672, 80, 128, 8, 128256, 8, 1, 8, 3, 64, SB_ML_NAMES_DLIO },
	{ "llama3-405b", 16384, 53248, 126, 128, 8, 128256, 8, 32, 2, 1, 512, SB_ML_NAMES_DLIO },
	{ "llama3-1t", 25872, 98304, 128, 192, 32, 128256, 8, 64, 2, 1, 1024, SB_ML_NAMES_DLIO },
};
#define NBUILTIN (sizeof(builtin) / sizeof(builtin[0]))

static const char *const builtin_names[] = {
	"llama3-8b", "llama3-70b", "llama3-405b", "llama3-1t", NULL,
};

const char *const *sb_ml_model_names(void)
{
	return builtin_names;
}

int sb_ml_model_find(const char *name, struct sb_ml_shape *out)
{
	for (size_t i = 0; name && i < NBUILTIN; i++) {
		if (!strcmp(name, builtin[i].name)) {
			*out = builtin[i];
			return 0;
		}
	}
	return -ENOENT;
}

/* a = a * b, a = a + b with overflow noted in *o (sticky) */
static void mul_to(uint64_t *a, uint64_t b, bool *o)
{
	*o |= __builtin_mul_overflow(*a, b, a);
}

static void add_to(uint64_t *a, uint64_t b, bool *o)
{
	*o |= __builtin_add_overflow(*a, b, a);
}

/* Upper bounds, in 64 bits, of every size the layout computes from s: the
 * parameter count P (each term of a layer's formula is at most P), all
 * ranks' model states (at most 2 * (P + the norms every TP rank repeats)),
 * all ranks' optimizer states (4 * (3P + 15h) per writing rank, at most
 * tp*pp*dp of them) and their sum, one checkpoint.  tp*pp*dp must fit an
 * unsigned (rank numbers).  Returns 0 or -EOVERFLOW with the reason. */
static int shape_fits(const struct sb_ml_shape *s, char *err, size_t errlen)
{
	uint64_t h = s->hidden, kv = (uint64_t)(s->hidden / s->heads) * s->kv_heads;
	uint64_t world = s->tp, layer = kv, t, p, model, optim;
	bool o = false;
	mul_to(&world, s->pp, &o);
	mul_to(&world, s->dp, &o);
	if (o || world > UINT_MAX) {
		snprintf(err, errlen, "tp=%u x pp=%u x dp=%u ranks is more than %u: lower tp=, pp= or dp=",
			 s->tp, s->pp, s->dp, UINT_MAX);
		return -EOVERFLOW;
	}
	/* layer = h + h*(h + 2kv) + h*h + h + 3*ffn*h */
	mul_to(&layer, 2, &o);
	add_to(&layer, h, &o);
	mul_to(&layer, h, &o);
	t = h;
	mul_to(&t, h, &o);
	add_to(&layer, t, &o);
	add_to(&layer, 2 * h, &o);
	t = s->ffn;
	mul_to(&t, h, &o);
	mul_to(&t, 3, &o);
	add_to(&layer, t, &o);
	/* P = 2*vocab*h + layers*layer + h */
	p = s->vocab;
	mul_to(&p, h, &o);
	mul_to(&p, 2, &o);
	mul_to(&layer, s->layers, &o);
	add_to(&p, layer, &o);
	add_to(&p, h, &o);
	/* model <= 2 * (P + tp * h * (2*layers + 1)) */
	model = 2 * (uint64_t)s->layers + 1;
	mul_to(&model, h, &o);
	mul_to(&model, s->tp, &o);
	add_to(&model, p, &o);
	mul_to(&model, MODEL_DTYPE_BYTES, &o);
	/* optim <= 4 * (3P + 15h * world) */
	optim = 15 * h;
	mul_to(&optim, world, &o);
	t = p;
	mul_to(&t, 3, &o);
	add_to(&optim, t, &o);
	mul_to(&optim, OPTIM_DTYPE_BYTES, &o);
	add_to(&model, optim, &o);
	if (o) {
		snprintf(err, errlen, "hidden=%u ffn=%u layers=%u vocab=%u (tp=%u pp=%u dp=%u) make a "
			 "checkpoint of more than 2^64 bytes (16 EiB), which cannot be computed: lower "
			 "hidden=, ffn=, layers= or vocab= (llama3-1t is hidden=25872 ffn=98304 layers=128)",
			 s->hidden, s->ffn, s->layers, s->vocab, s->tp, s->pp, s->dp);
		return -EOVERFLOW;
	}
	return 0;
}

int sb_ml_shape_check(const struct sb_ml_shape *s, char *err, size_t errlen)
{
	const char *bad = NULL;
	if (!s->hidden)
		bad = "hidden";
	else if (!s->ffn)
		bad = "ffn";
	else if (!s->layers)
		bad = "layers";
	else if (!s->heads)
		bad = "heads";
	else if (!s->kv_heads)
		bad = "kv_heads";
	else if (!s->vocab)
		bad = "vocab";
	else if (!s->tp)
		bad = "tp";
	else if (!s->pp)
		bad = "pp";
	else if (!s->dp)
		bad = "dp";
	if (bad) {
		snprintf(err, errlen, "%s must be at least 1", bad);
		return -EINVAL;
	}
	if (s->kv_heads > s->heads) {
		snprintf(err, errlen, "kv_heads=%u exceeds heads=%u", s->kv_heads, s->heads);
		return -EINVAL;
	}
	if (s->heads > s->hidden) {
		snprintf(err, errlen, "heads=%u exceeds hidden=%u", s->heads, s->hidden);
		return -EINVAL;
	}
	if (s->zero_stage > 3) {
		snprintf(err, errlen, "zero_stage=%u: accepted 0, 1, 2, 3", s->zero_stage);
		return -EINVAL;
	}
	return shape_fits(s, err, errlen);
}

unsigned sb_ml_world(const struct sb_ml_shape *s)
{
	return s->tp * s->pp * s->dp;
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

int sb_ml_check_ranks(const struct sb_ml_shape *s, unsigned ranks, bool subset,
		      char *err, size_t errlen)
{
	unsigned world = sb_ml_world(s);
	if (!subset && ranks != world) {
		snprintf(err, errlen,
			 "ranks=%u does not match the model's parallelism tp*pp*dp = %u*%u*%u = %u; "
			 "set ranks=%u, or add subset to write only the fraction %u/%u of the checkpoint",
			 ranks, s->tp, s->pp, s->dp, world, world, ranks, world);
		return -EINVAL;
	}
	if (subset && (ranks == 0 || ranks > world)) {
		snprintf(err, errlen,
			 "ranks=%u with subset must be between 1 and tp*pp*dp = %u*%u*%u = %u; "
			 "set ranks to at most %u",
			 ranks, s->tp, s->pp, s->dp, world, world);
		return -EINVAL;
	}
	return 0;
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
