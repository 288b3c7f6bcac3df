/* figures.c: an ML job's result (ml/result.h) as the writers print it:
 * made here with its figures row (JSON members, normal-output lines, its
 * release), which prints the workload's own part through its workload's
 * struct sb_ml_figures, then the MLPerf rule report ("rules" {benchmark,
 * verdict, checks [{name, expected, actual, pass, fails_as, fix}]}). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/assert.h"
#include "ml/figures.h"

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
	struct sb_ml_result *m = sb_ml_result_mine(r, NULL);
	if (!m)
		return;
	if (m->own->release)
		m->own->release(m);
	free(m);
}

static void json(struct sb_jw *w, const struct sb_wl_result *r)
{
	const struct sb_ml_result *m = sb_ml_result_mine(r, NULL);
	SB_ASSERT(m); /* these are the figures of ML results only */
	if (m->own->json)
		m->own->json(w, m);
	if (m->has_rules)
		json_rules(w, &m->rules);
}

static void normal(FILE *f, const struct sb_wl_result *r)
{
	const struct sb_ml_result *m = sb_ml_result_mine(r, NULL);
	SB_ASSERT(m);
	if (m->own->normal)
		m->own->normal(f, m);
	if (m->has_rules)
		normal_rules(f, &m->rules);
}

static const struct sb_wl_figures ml_figures = { .json = json, .normal = normal, .release = release };

struct sb_ml_result *sb_ml_result_new(const struct sb_ml_figures *own)
{
	struct sb_ml_result *m = calloc(1, own->size > sizeof(*m) ? own->size : sizeof(*m));
	if (m) {
		m->head.fig = &ml_figures;
		m->own = own;
	}
	return m;
}

struct sb_ml_result *sb_ml_result_mine(const struct sb_wl_result *r, const struct sb_ml_figures *own)
{
	struct sb_ml_result *m = (struct sb_ml_result *)(uintptr_t)r;
	if (!r || r->fig != &ml_figures || (own && m->own != own))
		return NULL;
	return m;
}

const struct sb_ml_result *sb_ml_result_of(const struct sb_job_result *jr)
{
	return jr ? sb_ml_result_mine(jr->wl, NULL) : NULL;
}
