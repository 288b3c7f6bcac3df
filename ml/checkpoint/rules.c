/* rules.c: the MLPerf Storage rules of a checkpoint run, as the
 * submission guidelines (2.2) and mlpstorage's config.py state them
 * (sources per rule below), into the shared rule report (ml/rules.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ml/checkpoint/rules.h"
#include "ml/model.h"
#include "parse/options.h"

/* guidelines 2.2.2 / 2.2.5 and config.py LLM_ALLOWED_VALUES ("CLOSED in
 * [8 || TP*PP*DP], OPEN allows a multiple of TP*PP"): the table's rank count,
 * or subset mode with 8 processes of the table's shape (each writes
 * num_gpus/(TP*PP*DP) of the checkpoint); any other count is OPEN. */
static void ckpt_ranks_rule(const struct sb_ml_ckpt_facts *f, unsigned closed,
			    struct sb_ml_rule_report *rep)
{
	bool ok = f->subset ? f->ranks == SB_ML_SUBSET_PROCS && f->world == closed : f->ranks == closed;
	struct sb_ml_rule *r;
	if (f->subset)
		r = sb_ml_rule_add(rep, "ranks", ok, SB_ML_OPEN,
			     "CLOSED subset mode runs %u processes of the table's tp*pp*dp=%u: set "
			     "ranks=%u and keep dp= (or run all %u ranks without subset)",
			     SB_ML_SUBSET_PROCS, closed, SB_ML_SUBSET_PROCS, closed);
	else
		r = sb_ml_rule_add(rep, "ranks", ok, SB_ML_OPEN,
			     "CLOSED runs exactly %u ranks (tp*pp*dp of the table), or subset with "
			     "%u: set ranks=%u and the model's dp", closed, SB_ML_SUBSET_PROCS, closed);
	snprintf(r->expected, sizeof(r->expected), "%u, or %u with subset", closed, SB_ML_SUBSET_PROCS);
	if (f->subset)
		snprintf(r->actual, sizeof(r->actual), "%u (subset of %u)", f->ranks, f->world);
	else
		snprintf(r->actual, sizeof(r->actual), "%u", f->ranks);
	sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 2.2.5 (rules.py:611-614 checks none)");
}

/* guidelines 2.2.5 Table 3: num-checkpoints-write and -read are 10, not
 * changeable in CLOSED nor OPEN, except that a write-only run (reads 0) and a
 * read-only run (writes 0) are the procedure of 2.2.2. */
static void ckpt_count_rules(const struct sb_ml_ckpt_facts *f, struct sb_ml_rule_report *rep)
{
	const unsigned n = SB_ML_CKPT_COUNT;
	bool w_only = f->want_reads == 0, r_only = f->want_writes == 0;
	struct sb_ml_rule *r;
	r = sb_ml_rule_add(rep, "checkpoints_written", r_only ? f->writes == 0 : f->writes == n, SB_ML_INVALID,
		     "MLPerf writes exactly %u checkpoints (or none in a read-only run): set "
		     "num_checkpoints_write=%u", n, n);
	snprintf(r->expected, sizeof(r->expected), r_only ? "0 (read-only run)" : "%u", n);
	snprintf(r->actual, sizeof(r->actual), "%u", f->writes);
	sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 2.2.5 Table 3");
	r = sb_ml_rule_add(rep, "checkpoints_read", w_only ? f->reads == 0 : f->reads == n, SB_ML_INVALID,
		     "MLPerf reads exactly %u checkpoints (or none in a write-only run): set "
		     "num_checkpoints_read=%u", n, n);
	snprintf(r->expected, sizeof(r->expected), w_only ? "0 (write-only run)" : "%u", n);
	snprintf(r->actual, sizeof(r->actual), "%u", f->reads);
	sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 2.2.5 Table 3");
}

int sb_ml_rules_ckpt(const struct sb_ml_ckpt_facts *f, struct sb_ml_rule_report *rep)
{
	struct sb_ml_shape s;
	bool named = f->model && *f->model;
	unsigned closed = f->world;
	struct sb_ml_rule *r;

	memset(rep, 0, sizeof(*rep));
	if (named) {
		if (sb_ml_model_find(f->model, &s))
			return -EINVAL;
		closed = s.closed_ranks;
	}
	/* cli.py validate_args: LLM_MODELS only; a shape with no model= is no
	 * run mlpstorage can make: OPEN in both verdicts */
	r = sb_ml_rule_add(rep, SB_OPT(ml_model)->name, named, SB_ML_OPEN,
		     "CLOSED runs llama3-8b, llama3-70b, llama3-405b or llama3-1t: set model=");
	sb_ml_rule_set(r, "llama3-8b|70b|405b|1t", named ? f->model : "custom shape");
	sb_ml_rule_cite(r, SB_ML_OPEN, "config.py LLM_MODELS; guidelines 2.2.5");
	/* model= with its shape changed (mlpstorage: --param model.num_layers=...
	 * and the like): the guidelines fix the model (2.2.5 Table 3), the
	 * checker's CheckpointingRulesChecker checks the benchmark type only
	 * (rules.py:611-614), which passes */
	r = sb_ml_rule_add(rep, "model_shape", !named || !f->shape_changed, SB_ML_OPEN,
		     "CLOSED runs the model's own shape: remove the options that change it "
		     "(layers, hidden, ffn, heads, kv_heads, vocab, tp, pp, zero_stage)");
	sb_ml_rule_set(r, named ? f->model : "no model", !named ? "custom shape" :
		       f->shape_changed ? "changed" : f->model);
	sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 2.2.5 Table 3 (rules.py:611-614 checks none)");
	ckpt_ranks_rule(f, closed, rep);
	ckpt_count_rules(f, rep);
	/* guidelines 2.2.2 "We enforce fsync"; the yaml's checkpoint.fsync: True */
	r = sb_ml_rule_add(rep, SB_OPT(fsync)->name, f->fsync || !f->want_writes, SB_ML_INVALID,
		     "every checkpoint file must reach stable storage: set checkpoint_fsync=1");
	sb_ml_rule_set(r, f->want_writes ? "on" : "on (no writes)", f->fsync ? "on" : "off");
	sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 2.2.2");
	/* guidelines 2.2.2: write, clear the cache, then read */
	r = sb_ml_rule_add(rep, "caches_dropped", f->caches_dropped || !f->reads, SB_ML_INVALID,
		     "reads may have come from memory: set drop_caches=1, run as root, and keep "
		     "checkpoint_folder off tmpfs");
	sb_ml_rule_set(r, f->reads ? "yes" : "yes (no reads)", f->caches_dropped ? "yes" : "no");
	sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 2.2.2");
	r = sb_ml_rule_add(rep, "checkpoint_scale", f->scale == 1.0, SB_ML_INVALID,
		     "scaled files are not the model's checkpoint: set checkpoint_scale=1");
	SB_ML_RULE_EA(r, "%g", 1.0, "%g", f->scale);
	sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 2.2.1 (rules.py:611-614 checks none)");
	sb_ml_rule_dlio(rep, sb_option_find("checkpoint_content"), f->content_unique, "dlio", "unique");
	sb_ml_rule_io(f->io_known, f->nodiskio, f->io_bytes, rep);
	sb_ml_rules_finish(rep);
	return 0;
}

