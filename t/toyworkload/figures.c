/* figures.c: the toy workload's result and how the writers print it. */
#include <inttypes.h>
#include <stdlib.h>

#include "ml/toy/toy.h"
#include "output/jsonw.h"
#include "stats/results.h"

struct toy_result {
	struct sb_wl_result head;
	unsigned rounds, files;
	uint64_t bytes;
	char label[64];
};

static void json(struct sb_jw *w, const struct sb_wl_result *r)
{
	const struct toy_result *t = (const struct toy_result *)r;
	sb_jw_obj_begin(w, "toy");
	sb_jw_u64(w, "rounds", t->rounds);
	sb_jw_u64(w, "files", t->files);
	sb_jw_u64(w, "bytes", t->bytes);
	sb_jw_str(w, "label", t->label);
	sb_jw_obj_end(w);
}

static void normal(FILE *f, const struct sb_wl_result *r)
{
	const struct toy_result *t = (const struct toy_result *)r;
	fprintf(f, "  toy          : %s: %u rounds of %u files, %" PRIu64 " bytes\n", t->label,
		t->rounds, t->files, t->bytes);
}

static void release(struct sb_wl_result *r)
{
	free(r);
}

static const struct sb_wl_figures toy_figures = { .json = json, .normal = normal, .release = release };

struct sb_wl_result *sb_toy_result_new(void)
{
	struct toy_result *t = calloc(1, sizeof(*t));
	if (t)
		t->head.fig = &toy_figures;
	return t ? &t->head : NULL;
}

void sb_toy_result_label(struct sb_wl_result *r, const char *label)
{
	struct toy_result *t = (struct toy_result *)r;
	snprintf(t->label, sizeof(t->label), "%s", label ? label : "");
}

void sb_toy_result_count(struct sb_wl_result *r, unsigned files, uint64_t bytes)
{
	struct toy_result *t = (struct toy_result *)r;
	t->rounds++;
	t->files = files;
	t->bytes += bytes;
}
