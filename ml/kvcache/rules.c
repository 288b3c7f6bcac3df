/* rules.c: the MLPerf Storage verdict of a workload=kvcache run (rules=mlperf):
 * the KV-cache benchmark of the MLPerf Storage plan names llama3-8b, 70b and
 * 405b, a cache backend of memory or disk, and at least 60 s of run for
 * CLOSED. */
#include <stdio.h>
#include <string.h>

#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/result.h"
#include "ml/run.h"
#include "parse/catalog.h"
#include "parse/options.h"

#define KV_MIN_RUNTIME_S 60.0

static struct sb_ml_rule *rule(struct sb_ml_rule_report *rep, const char *name, bool pass,
			       const char *expected, const char *actual, const char *fix)
{
	struct sb_ml_rule *r = &rep->rules[rep->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->expected, sizeof(r->expected), "%s", expected);
	snprintf(r->actual, sizeof(r->actual), "%s", actual);
	r->pass = pass;
	r->fail_as = r->checker_as = SB_ML_OPEN;
	if (!pass) {
		snprintf(r->fix, sizeof(r->fix), "%s", fix);
		if (rep->verdict < r->fail_as)
			rep->verdict = rep->guidelines = r->fail_as;
	}
	return r;
}

void sb_kv_rules(struct sb_wl_job *j, const struct sb_kv_result *kv)
{
	struct sb_ml_rule_report *rep = &sb_ml_res(j)->rules;
	const struct sb_jobspec *s = j->spec;
	char act[64], fix[192];
	bool named = s->ml_preset && strcmp(s->ml_preset->name, "llama3-1t") != 0;
	memset(rep, 0, sizeof(*rep));
	snprintf(fix, sizeof(fix), "CLOSED runs llama3-8b, llama3-70b or llama3-405b with its own "
		 "KV shape: set %s= and leave the shape alone", SB_OPT(ml_model)->name);
	rule(rep, SB_OPT(ml_model)->name, named, "llama3-8b|70b|405b", named ? s->ml_model : "custom shape", fix);
	snprintf(act, sizeof(act), "%.1f s", kv->duration_s);
	snprintf(fix, sizeof(fix), "the run lasted under 60 s: set %s=60 or more (with %s=0, or "
		 "enough of them)", SB_OPT(runtime_us)->name, SB_OPT(kv_requests)->name);
	rule(rep, "min_runtime", kv->duration_s >= KV_MIN_RUNTIME_S, ">= 60 s", act, fix);
	const char *backend = kv->memory_blocks && kv->disk_blocks ? "memory+disk"
			      : kv->disk_blocks ? "disk" : kv->memory_blocks ? "memory" : "none";
	bool null = j->nodiskio && kv->disk_blocks;
	snprintf(act, sizeof(act), "%s%s", backend, null ? " (ioengine=null: no disk I/O)" : "");
	snprintf(fix, sizeof(fix), "the cache backend is memory or disk: give %s= or %s= a size "
		 "of at least one block, and a real %s= for the disk tier",
		 SB_OPT(kv_memory_capacity)->name, SB_OPT(kv_disk_capacity)->name,
		 SB_OPT(ioengine)->name);
	rule(rep, "backend", strcmp(backend, "none") && !null, "memory|disk", act, fix);
	sb_ml_res(j)->has_rules = true;
}
