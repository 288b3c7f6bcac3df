/* content.c: ML file contents and their verification (see content.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ml/content.h"
#include "run/contents.h"

void sb_ml_content_recipe(const struct sb_jobspec *s, uint64_t key, uint64_t unit, uint64_t size,
			  struct sb_dg *g)
{
	sb_contents_recipe(s, key, unit ? unit : s->bs_hi, size, g);
}

static void ml_prep(struct sb_thread *t, struct sb_io_u *io)
{
	struct sb_ml_content *mc = t->content;
	sb_dg_fill(&mc->g, io->offset, io->buf, io->len);
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* is found (n bytes at a 4 KiB boundary) a block of alternative a? */
static bool match_alt(struct sb_ml_content *mc, const struct sb_ml_alt *a, const unsigned char *found,
		      size_t n, uint64_t *pos)
{
	struct sb_dg g;
	sb_ml_content_recipe(mc->spec, a->key, mc->unit, a->size, &g);
	g.values = mc->values;
	*pos = sb_dg_stamp(&g, found, a->size);
	if (*pos == UINT64_MAX || *pos + n > a->size)
		return false;
	sb_dg_fill(&g, *pos, mc->other, n);
	return memcmp(mc->other, found, n) == 0;
}

static void classify(struct sb_thread *t, uint64_t off, const unsigned char *exp,
		     const unsigned char *found, size_t n)
{
	struct sb_ml_content *mc = t->content;
	char e[SB_VERIFY_TEXT_MAX], f[SB_VERIFY_TEXT_MAX];
	enum sb_verify_kind kind = SB_VFY_CORRUPT;
	snprintf(e, sizeof(e), "the generated block at offset %" PRIu64, off);
	if (all_zero(found, n)) {
		kind = SB_VFY_NEVER_WRITTEN;
		snprintf(f, sizeof(f), "%zu zero bytes", n);
	} else {
		if (off % SB_DG_BLOCK == 0 && n >= 8 && mc->classified < SB_ML_CLASSIFY_MAX) {
			mc->classified++;
			struct sb_dg self = mc->g;
			struct sb_ml_alt a = { .key = self.key, .size = mc->size };
			snprintf(a.what, sizeof(a.what), "this file");
			uint64_t pos;
			for (unsigned i = 0;; i++) {
				if (i && (!mc->alt || !mc->alt(mc->alt_ctx, i - 1, &a)))
					break;
				if (!match_alt(mc, &a, found, n, &pos))
					continue;
				kind = a.stale && pos == off ? SB_VFY_STALE : SB_VFY_MISPLACED;
				snprintf(f, sizeof(f), "the block of %s at offset %" PRIu64, a.what, pos);
				break;
			}
		}
		if (kind == SB_VFY_CORRUPT) {
			size_t i = 0, nd = 0;
			while (exp[i] == found[i])
				i++;
			for (size_t k = i; k < n; k++)
				nd += exp[k] != found[k];
			snprintf(f, sizeof(f), "%zu byte(s) differ, first at offset %" PRIu64
				 ": 0x%02x (expected 0x%02x)", nd, off + i, found[i], exp[i]);
		}
	}
	(void)sb_verify_record(t->verify, kind, mc->path, off, n, mc->rank, e, f);
}

static bool ml_check(struct sb_thread *t, const struct sb_io_u *io)
{
	struct sb_ml_content *mc = t->content;
	size_t n = io->result > 0 ? (size_t)io->result : 0;
	if (!n)
		return true;
	sb_dg_fill(&mc->g, io->offset, mc->scratch, n);
	const unsigned char *got = io->buf;
	uint64_t first = io->offset / SB_DG_BLOCK, last = (io->offset + n - 1) / SB_DG_BLOCK;
	t->verify->blocks += last - first + 1;
	t->verify->bytes += n;
	if (memcmp(mc->scratch, got, n) == 0)
		return true;
	/* per 4 KiB block of the file */
	for (uint64_t o = io->offset; o < io->offset + n;) {
		uint64_t end = (o / SB_DG_BLOCK + 1) * SB_DG_BLOCK;
		if (end > io->offset + n)
			end = io->offset + n;
		size_t k = (size_t)(o - io->offset), len = (size_t)(end - o);
		if (memcmp(mc->scratch + k, got + k, len))
			classify(t, o, mc->scratch + k, got + k, len);
		o = end;
	}
	return true;
}

int sb_ml_content_setup(struct sb_thread *t, unsigned rank, uint64_t unit, bool write, bool verify,
			sb_ml_alt_fn alt, void *alt_ctx)
{
	struct sb_ml_content *mc = calloc(1, sizeof(*mc));
	if (!mc)
		return -ENOMEM;
	mc->spec = t->spec;
	mc->rank = rank;
	mc->alt = alt;
	mc->alt_ctx = alt_ctx;
	mc->path = "";
	mc->unit = unit ? unit : t->spec->bs_hi;
	sb_ml_content_recipe(t->spec, 0, mc->unit, 0, &mc->g);
	t->content = mc;
	t->content_free = sb_ml_content_release;
	if (write)
		t->io_prep = ml_prep;
	if (verify) {
		mc->scratch = malloc(t->etd.buf_per_io);
		mc->other = malloc(SB_DG_BLOCK);
		t->verify = sb_verify_result_new("contents");
		if (!mc->scratch || !mc->other || !t->verify)
			return -ENOMEM;
		t->io_check = ml_check;
	}
	return 0;
}

void sb_ml_content_file(struct sb_thread *t, uint64_t key, uint64_t size, const char *path)
{
	struct sb_ml_content *mc = t->content;
	if (!mc)
		return;
	sb_ml_content_recipe(mc->spec, key, mc->unit, size, &mc->g);
	mc->g.values = mc->values;
	mc->size = size;
	mc->path = path;
}

void sb_ml_content_values(struct sb_thread *t, enum sb_dg_values values)
{
	struct sb_ml_content *mc = t->content;
	if (mc)
		mc->values = values;
}

void sb_ml_content_release(struct sb_thread *t)
{
	struct sb_ml_content *mc = t->content;
	if (!mc || (t->io_prep != ml_prep && t->io_check != ml_check))
		return;
	free(mc->scratch);
	free(mc->other);
	free(mc);
	t->content = NULL;
	t->content_free = NULL;
	t->io_prep = NULL;
	t->io_check = NULL;
}
