/* conform.c: `storbench --workload-conformance`: the workload table as JSON
 * for the conformance suite (t/integration/test_workloads.py), which runs
 * every workload from what its row says and names none itself. */
#include <errno.h>
#include <stdio.h>

#include "lib/log.h"
#include "ml/registry.h"
#include "output/jsonw.h"
#include "parse/workloads.h"

static void conformance(struct sb_jw *w, const struct sb_wl_conformance *c)
{
	if (!c) {
		sb_jw_null(w, "conformance");
		return;
	}
	sb_jw_obj_begin(w, "conformance");
	const struct { const char *key, *val; } f[] = {
		{ "quick", c->quick }, { "endless", c->endless }, { "keep", c->keep },
		{ "tidy", c->tidy }, { "kept", c->kept }, { "sweep_opt", c->sweep_opt }, { "sweep_a", c->sweep_a },
		{ "sweep_b", c->sweep_b }, { "json_key", c->json_key }, { "normal", c->normal },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i].val)
			sb_jw_str(w, f[i].key, f[i].val);
		else
			sb_jw_null(w, f[i].key);
	}
	sb_jw_obj_end(w);
}

void sb_workloads_conformance_json(FILE *f)
{
	struct sb_jw w;
	const struct sb_workload_ops *const *t = sb_workloads_get();
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	sb_jw_arr_begin(&w, "workloads");
	for (unsigned i = 0; t[i]; i++) {
		sb_jw_obj_begin(&w, NULL);
		sb_jw_str(&w, "name", t[i]->name);
		sb_jw_u64(&w, "id", i);
		sb_jw_bool(&w, "threads", t[i]->flags & SB_WL_THREADS);
		sb_jw_arr_begin(&w, "options");
		for (unsigned k = 0; t[i]->nrows && k < *t[i]->nrows; k++)
			sb_jw_str(&w, NULL, t[i]->rows[k].name);
		sb_jw_arr_end(&w);
		conformance(&w, t[i]->conformance);
		sb_jw_obj_end(&w);
	}
	sb_jw_arr_end(&w);
	sb_jw_obj_end(&w);
	fputc('\n', f);
}

int sb_workloads_doc_only(const char *names)
{
	if (names && !sb_workloads_hand_down_only(names))
		return 0;
	sb_err("--doc-workloads", "'%s': not a list the parser takes; use a comma list of "
	       "workload names", names ? names : "");
	return -EINVAL;
}
