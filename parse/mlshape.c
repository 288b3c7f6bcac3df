/* mlshape.c: the arithmetic the parser validates ML jobs with (see
 * mlshape.h): an LLM shape's sanity and 64-bit overflow checks, tp*pp*dp and
 * the ranks= rule, the largest training sample and DLIO's steps per epoch.
 * Pure functions; ml/ computes the checkpoint layout and datasets from the
 * same definitions. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parse/catalog.h"
#include "parse/mlshape.h"
#include "parse/options.h"

void sb_ml_shape_from_preset(const struct sb_model_preset *p, struct sb_ml_shape *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", p->name);
	out->hidden = p->hidden;
	out->ffn = p->ffn;
	out->layers = p->layers;
	out->heads = p->heads;
	out->kv_heads = p->kv_heads;
	out->vocab = p->vocab;
	out->tp = p->tp;
	out->pp = p->pp;
	out->dp = p->dp;
	out->zero_stage = p->zero_stage;
	out->closed_ranks = p->closed_ranks;
	out->naming = SB_ML_NAMES_DLIO;
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
	mul_to(&model, SB_ML_MODEL_DTYPE_BYTES, &o);
	/* optim <= 4 * (3P + 15h * world) */
	optim = 15 * h;
	mul_to(&optim, world, &o);
	t = p;
	mul_to(&t, 3, &o);
	add_to(&optim, t, &o);
	mul_to(&optim, SB_ML_OPTIM_DTYPE_BYTES, &o);
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
		bad = SB_OPT(shape.hidden)->name;
	else if (!s->ffn)
		bad = SB_OPT(shape.ffn)->name;
	else if (!s->layers)
		bad = SB_OPT(shape.layers)->name;
	else if (!s->heads)
		bad = SB_OPT(shape.heads)->name;
	else if (!s->kv_heads)
		bad = SB_OPT(shape.kv_heads)->name;
	else if (!s->vocab)
		bad = SB_OPT(shape.vocab)->name;
	else if (!s->tp)
		bad = SB_OPT(shape.tp)->name;
	else if (!s->pp)
		bad = SB_OPT(shape.pp)->name;
	else if (!s->dp)
		bad = SB_OPT(shape.dp)->name;
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

double sb_ml_record_bytes_max(double record_length, double record_stdev)
{
	if (!(record_stdev > 0))
		return record_length >= 1 ? floor(record_length) : 1;
	/* |z| <= sqrt(-2 ln 2^-53) = 8.57 (rng_unit is at least 2^-53) */
	double d = sqrt(record_length), side = floor(d + record_stdev / 2.0 / d * 8.58);
	return side < 1 ? 1 : side * side;
}

size_t sb_ml_steps_per_epoch(unsigned files, unsigned spf, unsigned batch, unsigned ranks)
{
	if (!batch || !ranks)
		return 0;
	return (size_t)((uint64_t)files * spf / batch / ranks);
}
