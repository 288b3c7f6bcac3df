/* figures.c: an ML job's result (ml/result.h) as the writers print it:
 * made here with its figures row (JSON members, normal-output lines, its
 * release); the workload's own part by its folder's figures.c, the MLPerf
 * rule report ("rules" {benchmark, verdict, checks [{name, expected,
 * actual, pass, fails_as, fix}]}) here. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ml/figures.h"
#include "ml/kvcache/result.h"
#include "parse/jobspec.h"

const char *sb_ml_verdict_name(enum sb_ml_verdict v)
{
	return v == SB_ML_CLOSED ? "CLOSED" : v == SB_ML_OPEN ? "OPEN" : "INVALID";
}

const struct sb_ml_rule *sb_ml_rule_get(const struct sb_ml_rule_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->n; i++)
		if (!strcmp(rep->rules[i].name, name))
			return &rep->rules[i];
	return NULL;
}

static void json_rules(struct sb_jw *w, const struct sb_ml_rule_report *r)
{
	sb_jw_obj_begin(w, "rules");
	sb_jw_str(w, "benchmark", "mlperf-storage");
	/* the headline is the official checker's; both by name */
	sb_jw_str(w, "verdict", sb_ml_verdict_name(r->verdict));
	sb_jw_str(w, "checker", sb_ml_verdict_name(r->verdict));
	sb_jw_str(w, "guidelines", sb_ml_verdict_name(r->guidelines));
	sb_jw_arr_begin(w, "checks");
	for (size_t i = 0; i < r->n; i++) {
		const struct sb_ml_rule *c = &r->rules[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "name", c->name);
		sb_jw_str(w, "expected", c->expected);
		sb_jw_str(w, "actual", c->actual);
		sb_jw_bool(w, "pass", c->pass);
		sb_jw_str(w, "fails_as", sb_ml_verdict_name(c->fail_as));
		sb_jw_str(w, "checker_fails_as", sb_ml_verdict_name(c->checker_as));
		sb_jw_str(w, "source", c->cite);
		sb_jw_str(w, "fix", c->fix);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_obj_end(w);
}


static void normal_rules(FILE *f, const struct sb_ml_rule_report *r)
{
	size_t failed = 0;
	for (size_t i = 0; i < r->n; i++)
		failed += !r->rules[i].pass;
	fprintf(f, "  MLPerf Storage rules: %s (%zu of %zu checks passed)", sb_ml_verdict_name(r->verdict),
		r->n - failed, r->n);
	if (r->guidelines != r->verdict)
		fprintf(f, "; checker %s, guidelines %s", sb_ml_verdict_name(r->verdict),
			sb_ml_verdict_name(r->guidelines));
	fputc('\n', f);
	for (size_t i = 0; i < r->n; i++) {
		const struct sb_ml_rule *c = &r->rules[i];
		if (c->pass)
			continue;
		if (c->checker_as == c->fail_as)
			fprintf(f, "    FAIL %-18s expected %s, got %s (%s; %s): %s\n", c->name, c->expected,
				c->actual, sb_ml_verdict_name(c->fail_as), c->cite, c->fix);
		else
			fprintf(f, "    FAIL %-18s expected %s, got %s (checker %s, guidelines %s; %s): %s\n",
				c->name, c->expected, c->actual, sb_ml_verdict_name(c->checker_as),
				sb_ml_verdict_name(c->fail_as), c->cite, c->fix);
	}
}


static void release(struct sb_wl_result *r)
{
	struct sb_ml_result *m = sb_ml_of(r);
	if (!m)
		return;
	free(m->ckpt.write.v);
	free(m->ckpt.read.v);
	free(m->ckpt.write.ranks);
	free(m->ckpt.read.ranks);
	free(m->ckpt.tier.v);
	free(m->train.epochs);
	free(m->train.ckpts);
	free(m->kv);
	free(m);
}

static void json(struct sb_jw *w, const struct sb_wl_result *r)
{
	const struct sb_ml_result *m = sb_ml_of(r);
	if (m->kv)
		sb_ml_kv_json(w, m->kv);
	else if (m->workload == SB_WL_CHECKPOINT)
		sb_ml_ckpt_json(w, &m->ckpt);
	else
		sb_ml_train_json(w, &m->train);
	if (m->has_rules)
		json_rules(w, &m->rules);
}

static void normal(FILE *f, const struct sb_wl_result *r)
{
	const struct sb_ml_result *m = sb_ml_of(r);
	if (m->kv)
		sb_ml_kv_normal(f, m->kv);
	else if (m->workload == SB_WL_CHECKPOINT)
		sb_ml_ckpt_normal(f, &m->ckpt);
	else
		sb_ml_train_normal(f, &m->train);
	if (m->has_rules)
		normal_rules(f, &m->rules);
}

static const struct sb_wl_figures ml_figures = { .json = json, .normal = normal, .release = release };

bool sb_ml_owns(const struct sb_wl_result *r)
{
	return r->fig == &ml_figures;
}

struct sb_ml_result *sb_ml_result_new(unsigned workload)
{
	struct sb_ml_result *m = calloc(1, sizeof(*m));
	if (m) {
		m->head.fig = &ml_figures;
		m->workload = workload;
	}
	return m;
}
