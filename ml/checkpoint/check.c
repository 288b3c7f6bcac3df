/* check.c: workload=checkpoint's checks at parse time (the workload
 * table hands them to parse/ as its check; see parse/workloads.h).
 * Resolves model= into spec.shape (explicit options win), fills ranks=,
 * and refuses what cannot run: unknown models (with the list and a "did you
 * mean"), shapes that overflow, ranks that do not match tp*pp*dp, more reads
 * than writes; then the tiers (checktier.c), and checkpoint_verify without
 * reads or with ioengine=null.  Every error names file:line, the value and
 * the fix. */
#include <errno.h>
#include "config.h"
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "parse/catalog.h"
#include "parse/jobparse.h"
#include "parse/mlshape.h"
#include "ml/checkpoint/ckpt.h"
#include "ml/checkpoint/opts.h"
#include "ml/checkpoint/opts.h"

#define SB_ML_MAX_RANKS 65536u /* the bound of ranks= in its rows (opts.c) */

static unsigned resolve_model(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	struct sb_ml_shape m;
	char where[SB_WHERE_MAX];
	const struct sb_model_preset *p = sb_model_preset_find(s->ml_model);
	if (s->ml_model) {
		if (!p) {
			sb_job_unknown_name(c, SB_OPT(ml_model), s->ml_model, SB_OPT(ml_model)->name,
				    sb_model_preset_names);
			return 1;
		}
		sb_ml_shape_from_preset(p, &m);
	} else {
		const struct sb_option *need[] = { SB_OPT(shape.hidden), SB_OPT(shape.ffn), SB_OPT(shape.layers),
						   SB_OPT(shape.heads), SB_OPT(shape.kv_heads) };
		for (unsigned i = 0; i < 5; i++) {
			if (sb_job_isset(c, need[i]))
				continue;
			sb_err(sb_job_where(c, NULL, where, sizeof(where)),
			       "job '%s': workload=checkpoint needs model= (llama3-8b, llama3-70b, "
			       "llama3-405b or llama3-1t) or an explicit shape; %s= is missing (give "
			       "hidden, ffn, layers, heads, kv_heads, and optionally vocab, tp, pp, dp, "
			       "zero_stage)", s->name, need[i]->name);
			return 1;
		}
		memset(&m, 0, sizeof(m));
		m.vocab = SB_MODEL_DEFAULT_VOCAB;
		m.tp = m.pp = m.dp = 1;
	}
	sb_job_default_u(c, SB_OPT(shape.hidden), &s->shape.hidden, m.hidden);
	sb_job_default_u(c, SB_OPT(shape.ffn), &s->shape.ffn, m.ffn);
	sb_job_default_u(c, SB_OPT(shape.layers), &s->shape.layers, m.layers);
	sb_job_default_u(c, SB_OPT(shape.heads), &s->shape.heads, m.heads);
	sb_job_default_u(c, SB_OPT(shape.kv_heads), &s->shape.kv_heads, m.kv_heads);
	sb_job_default_u(c, SB_OPT(shape.vocab), &s->shape.vocab, m.vocab);
	sb_job_default_u(c, SB_OPT(shape.tp), &s->shape.tp, m.tp);
	sb_job_default_u(c, SB_OPT(shape.pp), &s->shape.pp, m.pp);
	/* DLIO's data parallelism is comm_size / (tp * pp), mlpstorage's yaml
	 * names none: model= with more ranks= than the table's and no dp= runs
	 * dp = ranks / (tp*pp) (fewer: mlpstorage's subset mode, dlio.py:264) */
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	if (p && !sb_job_isset(c, SB_OPT(shape.dp)) && sb_job_isset(c, SB_CKPT_OPT(ranks)) && !o->subset &&
	    o->ranks >= p->closed_ranks && s->shape.tp && s->shape.pp &&
	    o->ranks % (s->shape.tp * s->shape.pp) == 0)
		m.dp = o->ranks / (s->shape.tp * s->shape.pp);
	sb_job_default_u(c, SB_OPT(shape.dp), &s->shape.dp, m.dp);
	sb_job_default_u(c, SB_OPT(shape.zero_stage), &s->shape.zero_stage, m.zero_stage);
	/* model='s row, whatever options change its shape: mlpstorage runs
	 * --model with --param overrides of the yaml, which the results tree
	 * records (tools/mlpsdlio.c), and the rules judge the change (rules.c) */
	s->ml_preset = p;
	return 0;
}

/* checkpoint_verify=1 needs something read back from storage */
static unsigned check_verify(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	const struct sb_option *v = SB_CKPT_OPT(checkpoint_verify);
	char where[SB_WHERE_MAX];
	if (!o->checkpoint_verify)
		return 0;
	if (!o->num_checkpoints_read) {
		const char *r = SB_CKPT_OPT(num_checkpoints_read)->name;
		sb_err(sb_job_where(c, v, where, sizeof(where)),
		       "%s=1 checks what is read back, but job '%s' has %s=0 (it only writes): set "
		       "%s=1 or more, or drop %s", v->name, s->name, r, r, v->name);
		return 1;
	}
	if (!strcmp(s->ioengine, "null")) {
		sb_err(sb_job_where(c, v, where, sizeof(where)),
		       "%s=1 checks data read from storage, but job '%s' has %s=null, which reads "
		       "nothing: pick a real engine (e.g. psync) or drop %s", v->name, s->name,
		       SB_OPT(ioengine)->name, v->name);
		return 1;
	}
	return 0;
}

static unsigned check_ckpt(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	struct sb_ckpt_opts *o = sb_ckpt_opts_mut(s);
	const struct sb_ml_shape *m = &s->shape;
	char where[SB_WHERE_MAX], err[384];
	if (resolve_model(c))
		return 1;
	if (sb_ml_shape_check(m, err, sizeof(err))) {
		const struct sb_option *at = s->ml_model ? SB_OPT(ml_model) : SB_OPT(shape.hidden);
		if (!strncmp(err, "tp=", 3)) /* tp*pp*dp: the last of them given */
			at = sb_job_isset(c, SB_OPT(shape.dp)) ? SB_OPT(shape.dp) : sb_job_isset(c, SB_OPT(shape.pp)) ?
			     SB_OPT(shape.pp) : SB_OPT(shape.tp);
		sb_err(sb_job_where(c, at, where, sizeof(where)),
		       "job '%s': model shape: %s", s->name, err);
		return 1;
	}
	if (!sb_job_isset(c, SB_CKPT_OPT(ranks)) && sb_ml_world(m) > SB_ML_MAX_RANKS) {
		sb_err(sb_job_where(c, s->ml_model ? SB_OPT(ml_model) : SB_OPT(shape.tp), where, sizeof(where)),
		       "job '%s': ranks= defaults to tp*pp*dp = %u*%u*%u = %u, more than the %u rank "
		       "threads storbench runs: set subset and ranks= (at most %u) to write that "
		       "fraction of the checkpoint, or lower tp=, pp= or dp=", s->name, m->tp, m->pp,
		       m->dp, sb_ml_world(m), SB_ML_MAX_RANKS, SB_ML_MAX_RANKS);
		return 1;
	}
	if (!sb_job_isset(c, SB_CKPT_OPT(ranks)))
		o->ranks = sb_ml_world(m);
	if (sb_ml_check_ranks(m, o->ranks, o->subset, err, sizeof(err))) {
		sb_err(sb_job_where(c, SB_CKPT_OPT(ranks), where, sizeof(where)), "job '%s': %s", s->name, err);
		return 1;
	}
	if (!(o->checkpoint_scale > 0)) {
		sb_err(sb_job_where(c, SB_CKPT_OPT(checkpoint_scale), where, sizeof(where)),
		       "checkpoint_scale=%g: expected a factor above 0 and at most 1, e.g. 0.001",
		       o->checkpoint_scale);
		return 1;
	}
	/* num_checkpoints_write=0: a read-only run (MLPerf's procedure) reads
	 * what an earlier run left with keep_checkpoints=1 */
	if (!o->num_checkpoints_write && !o->num_checkpoints_read) {
		sb_err(sb_job_where(c, SB_CKPT_OPT(num_checkpoints_write), where, sizeof(where)),
		       "num_checkpoints_write=0 and num_checkpoints_read=0: a checkpoint job writes or "
		       "reads at least 1 checkpoint: set either (10 in MLPerf)");
		return 1;
	}
	if (o->num_checkpoints_write && o->num_checkpoints_read > o->num_checkpoints_write) {
		sb_err(sb_job_where(c, SB_CKPT_OPT(num_checkpoints_read), where, sizeof(where)),
		       "num_checkpoints_read=%u is more than the %u checkpoints written "
		       "(num_checkpoints_write): read at most %u, or write more",
		       o->num_checkpoints_read, o->num_checkpoints_write, o->num_checkpoints_write);
		return 1;
	}
	/* the official reference (DLIO) saves torch.rand tensors */
	sb_job_default_u(c, SB_CKPT_OPT(checkpoint_content), &o->checkpoint_content,
			 s->rules == SB_RULES_MLPERF ? SB_CKPT_CONTENT_DLIO : SB_CKPT_CONTENT_UNIQUE);
	/* torch.save's requests are of any length and offset: O_DIRECT refuses them */
	if (o->checkpoint_io == SB_CKPT_IO_TORCH && s->direct) {
		sb_err(sb_job_where(c, SB_CKPT_OPT(checkpoint_io), where, sizeof(where)),
		       "%s=torch issues torch.save's unaligned writes, which %s=1 (O_DIRECT) refuses: "
		       "remove %s=1, or set %s=bs", SB_CKPT_OPT(checkpoint_io)->name, SB_OPT(direct)->name,
		       SB_OPT(direct)->name, SB_CKPT_OPT(checkpoint_io)->name);
		return 1;
	}
	return sb_ml_check_tier(c);
}

unsigned sb_ml_check_ckpt(struct sb_jobctx *c)
{
	unsigned n = check_ckpt(c);
	return n + check_verify(c); /* reported too when the others found an error */
}

const struct sb_option *sb_ml_ckpt_writes(const struct sb_jobspec *s, const char **why,
					  const char **fix)
{
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	if (!o || !o->num_checkpoints_write)
		return NULL; /* a read-only run reads what an earlier one kept */
	*why = "writes checkpoints";
	*fix = "set num_checkpoints_write=0 to read existing ones";
	return SB_CKPT_OPT(num_checkpoints_write);
}

const struct sb_option *sb_ml_ckpt_gpu_mem(const struct sb_jobspec *s)
{
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	return o && o->checkpoint_source == SB_ML_MEM_GPU ? SB_CKPT_OPT(checkpoint_source) : NULL;
}
