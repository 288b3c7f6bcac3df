/* contents.c: the contents of written buffers (see contents.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/contents.h"
#include "parse/workloads.h"

struct sb_contents {
	struct sb_dg g;
	uint64_t key, seq;
};

void sb_contents_recipe(const struct sb_jobspec *s, uint64_t key, uint64_t unit, uint64_t region,
			struct sb_dg *g)
{
	bool filler_only = !s->buffer_compress_percentage && (s->zero_buffers || s->bufpat_len);
	*g = (struct sb_dg){
		.key = key, .unit = unit ? unit : SB_DG_BLOCK,
		.compress_pct = filler_only ? 100 : s->buffer_compress_percentage,
		.chunk = s->buffer_compress_chunk,
		.dedupe_pct = s->dedupe_percentage,
		.mode = s->dedupe_mode ? SB_DG_WORKING_SET : SB_DG_REPEAT,
		.stamp = true,
		.pat = s->bufpat_len ? s->bufpat : NULL, .patlen = s->bufpat_len,
	};
	if (unit)
		g->ws_units = region / unit * s->dedupe_working_set_percentage / 100;
	sb_dg_init(g);
}

static void paste_offsets(const struct sb_jobspec *s, uint64_t offset, unsigned char *b, uint64_t len)
{
	for (uint64_t at = 0; at < len; at += s->bufpat_len)
		for (unsigned k = 0; k < s->bufpat_nofs; k++)
			for (unsigned i = 0; i < 8 && at + s->bufpat_ofs[k] + i < len; i++)
				b[at + s->bufpat_ofs[k] + i] = (unsigned char)(offset >> (8 * i));
}

void sb_contents_pattern(const struct sb_jobspec *s, uint64_t offset, void *buf, uint64_t len)
{
	struct sb_dg g = { .unit = len ? len : 1, .compress_pct = 100, .pat = s->bufpat,
			   .patlen = s->bufpat_len };
	sb_dg_init(&g);
	sb_dg_fill(&g, 0, buf, (size_t)len);
	paste_offsets(s, offset, buf, len);
}

/* scramble_buffers=1, fio's cost: 24 bytes per 512-byte sector.  The
 * write's number n and the word w = mix(key, n), unique to the thread and
 * the write, at bytes 48-63 of each sector make no two sectors of the
 * thread's writes equal; the sector's offset (in one of six 8-byte slots
 * before them, picked by w) tells the sectors of one write apart */
static void prep_scramble(struct sb_thread *t, struct sb_io_u *io)
{
	struct sb_contents *c = t->content;
	uint64_t n = ++c->seq, w = sb_dg_mix(c->key, n);
	sb_dg_scramble(io->buf, io->len, io->offset, (unsigned)(w >> 61), n, w);
}

/* scramble_whole_buffers=1: every byte changes, every 4 KiB block unique */
static void prep_scramble_whole(struct sb_thread *t, struct sb_io_u *io)
{
	struct sb_contents *c = t->content;
	sb_dg_xor(io->buf, io->len, sb_dg_mix(c->key, ++c->seq));
}

static void prep_refill(struct sb_thread *t, struct sb_io_u *io)
{
	struct sb_contents *c = t->content;
	sb_dg_fill(&c->g, c->seq++ * c->g.unit, io->buf, io->len);
}

static void prep_offsets(struct sb_thread *t, struct sb_io_u *io)
{
	paste_offsets(t->spec, io->offset, io->buf, io->len);
}

static bool writes_own(const struct sb_jobspec *s)
{
	/* a verify= job's writes carry verify blocks: run/verify.c owns its hooks */
	return sb_spec_is_io(s) && (s->rw & SB_RW_WRITE) && !s->verify;
}

bool sb_contents_global(const struct sb_jobspec *s)
{
	return s->dedupe_global && s->dedupe_percentage && s->dedupe_mode == SB_DG_WORKING_SET &&
	       writes_own(s);
}

static uint64_t region_bytes(const struct sb_thread *t)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < t->etd.nfiles; i++)
		r += t->files[i].region_len;
	return r ? r : t->spec->size;
}

int sb_contents_setup(struct sb_thread *t)
{
	const struct sb_jobspec *s = t->spec;
	struct sb_engine_td *e = &t->etd;
	/* the job's index too: two jobs with the same options write different
	 * data (as fio's, whose seeds follow the thread number) */
	uint64_t key = sb_dg_mix(sb_iogen_seed(s, t->sub), 0x62756666ull /* "buff" */ + t->job);
	bool gen = s->refill_buffers || s->buffer_compress_percentage || s->dedupe_percentage;
	bool writes = writes_own(s);
	if (s->bufpat_len && !gen) {
		for (uint64_t o = 0; o < e->buf_len; o += e->buf_per_io)
			sb_contents_pattern(s, 0, (char *)e->buf_base + o, e->buf_per_io);
		if (writes && s->bufpat_nofs)
			t->io_prep = prep_offsets;
		return 0;
	}
	if (s->zero_buffers && !gen) {
		memset(e->buf_base, 0, e->buf_len);
		return 0;
	}
	sb_dg_random(key, 0, e->buf_base, e->buf_len);
	if (!writes || (!gen && !s->scramble_buffers && !s->scramble_whole_buffers))
		return 0;
	struct sb_contents *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->key = key;
	uint64_t unit = s->bs_max[SB_DDIR_WRITE] ? s->bs_max[SB_DDIR_WRITE] : s->bs_hi;
	sb_contents_recipe(s, key, unit, region_bytes(t), &c->g);
	c->g.stamp = false;
	if (t->dg_peers) { /* dedupe_global: the stream key from the shared seed */
		c->g.peers = t->dg_peers;
		c->g.peer = t->dg_peer;
		c->g.gkey = sb_dg_mix(s->randseed, 0x676c6f62616cull /* "global" */);
		sb_dg_init(&c->g);
	}
	t->content = c;
	t->io_prep = gen ? prep_refill : s->scramble_whole_buffers ? prep_scramble_whole : prep_scramble;
	return 0;
}

void sb_contents_release(struct sb_thread *t)
{
	bool own = t->io_prep == prep_scramble || t->io_prep == prep_scramble_whole ||
		   t->io_prep == prep_refill;
	if (own)
		free(t->content);
	if (own || t->io_prep == prep_offsets) {
		t->io_prep = NULL;
		t->content = NULL;
	}
}
