/* kvmodel.c: the request stream and the LRU tiers of workload=kvcache (see
 * kvmodel.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "os/outfile.h"
#include "ml/kvcache/kvmodel.h"
#include "ml/kvcache/kvextra.h"
#include "ml/kvcache/kvtrace.h"

static double uni(struct sb_kv_model *m)
{
	return (double)(sb_rng_next(&m->rng) >> 11) * 0x1.0p-53;
}

/* normal(mean, sd) rounded and clamped to [lo, hi] */
static unsigned draw_len(struct sb_kv_model *m, unsigned mean, unsigned sd, unsigned lo, unsigned hi)
{
	double v = mean;
	if (sd) {
		double u1 = uni(m), u2 = uni(m);
		v += sd * sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * M_PI * u2);
	}
	v = floor(v + 0.5);
	return v < lo ? lo : v > hi ? hi : (unsigned)v;
}

static int grow(void **p, uint64_t *cap, uint64_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	uint64_t n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* ---- the two LRU lists: head = most recently used, tail = least ---- */

static void mem_unlink(struct sb_kv_model *m, uint32_t i)
{
	struct sb_kv_blk *b = &m->b[i];
	if (b->mprev != SB_KV_NIL) m->b[b->mprev].mnext = b->mnext; else m->mhead = b->mnext;
	if (b->mnext != SB_KV_NIL) m->b[b->mnext].mprev = b->mprev; else m->mtail = b->mprev;
	b->inmem = false;
	m->nmem--;
}

static void mem_push(struct sb_kv_model *m, uint32_t i)
{
	struct sb_kv_blk *b = &m->b[i];
	b->mprev = SB_KV_NIL;
	b->mnext = m->mhead;
	if (m->mhead != SB_KV_NIL) m->b[m->mhead].mprev = i; else m->mtail = i;
	m->mhead = i;
	b->inmem = true;
	m->nmem++;
}

static void disk_unlink(struct sb_kv_model *m, uint32_t i)
{
	struct sb_kv_blk *b = &m->b[i];
	if (b->dprev != SB_KV_NIL) m->b[b->dprev].dnext = b->dnext; else m->dhead = b->dnext;
	if (b->dnext != SB_KV_NIL) m->b[b->dnext].dprev = b->dprev; else m->dtail = b->dprev;
	m->freeslot[m->nfree++] = (uint64_t)b->slot; /* capfree >= next_slot */
	b->slot = -1;
	m->ndisk--;
}

static void disk_touch(struct sb_kv_model *m, uint32_t i)
{
	struct sb_kv_blk *b = &m->b[i];
	if (m->dhead == i)
		return;
	if (b->dprev != SB_KV_NIL) m->b[b->dprev].dnext = b->dnext;
	if (b->dnext != SB_KV_NIL) m->b[b->dnext].dprev = b->dprev; else m->dtail = b->dprev;
	b->dprev = SB_KV_NIL;
	b->dnext = m->dhead;
	m->b[m->dhead].dprev = i;
	m->dhead = i;
}

static int push_slot(uint64_t **v, uint64_t *n, uint64_t *cap, uint64_t slot)
{
	if (grow((void **)v, cap, *n + 1, sizeof(**v)))
		return -ENOMEM;
	(*v)[(*n)++] = slot;
	return 0;
}

/* block i onto disk (written); nothing when there is no disk tier */
static int to_disk(struct sb_kv_model *m, uint32_t i, struct sb_kv_req *r)
{
	if (!m->cfg.disk_blocks)
		return 0;
	if (m->ndisk == m->cfg.disk_blocks) {
		disk_unlink(m, m->dtail);
		r->disk_evictions++;
	}
	if (!m->nfree && grow((void **)&m->freeslot, &m->capfree, m->next_slot + 1, sizeof(uint64_t)))
		return -ENOMEM; /* room for every slot in use to be freed */
	uint64_t slot = m->nfree ? m->freeslot[--m->nfree] : m->next_slot++;
	struct sb_kv_blk *b = &m->b[i];
	b->slot = (int64_t)slot;
	b->dprev = SB_KV_NIL;
	b->dnext = m->dhead;
	if (m->dhead != SB_KV_NIL) m->b[m->dhead].dprev = i; else m->dtail = i;
	m->dhead = i;
	m->ndisk++;
	return push_slot(&r->wr, &r->nwr, &r->cap_wr, slot);
}

/* block i into memory, evicting the least recently used to disk */
static int to_mem(struct sb_kv_model *m, uint32_t i, struct sb_kv_req *r)
{
	if (!m->cfg.mem_blocks)
		return m->b[i].slot < 0 ? to_disk(m, i, r) : 0;
	if (m->nmem == m->cfg.mem_blocks) {
		uint32_t v = m->mtail;
		mem_unlink(m, v);
		if (m->b[v].slot < 0) {
			r->evict_writes++;
			if (to_disk(m, v, r))
				return -ENOMEM;
		}
	}
	mem_push(m, i);
	return 0;
}

static void drop(struct sb_kv_model *m, uint32_t i)
{
	if (m->b[i].inmem)
		mem_unlink(m, i);
	if (m->b[i].slot >= 0)
		disk_unlink(m, i);
}

static int new_block(struct sb_kv_model *m, uint32_t *out)
{
	uint64_t cap = m->capb;
	if (m->nb == SB_KV_NIL - 1 || grow((void **)&m->b, &cap, (uint64_t)m->nb + 1, sizeof(*m->b)))
		return -ENOMEM;
	m->capb = (uint32_t)(cap > SB_KV_NIL - 1 ? SB_KV_NIL - 1 : cap);
	m->b[m->nb] = (struct sb_kv_blk){ SB_KV_NIL, SB_KV_NIL, SB_KV_NIL, SB_KV_NIL, -1, false };
	*out = m->nb++;
	return 0;
}

/* the continued conversation's prefix: hits, reads, drops after a loss */
static int lookup(struct sb_kv_model *m, struct sb_kv_conv *c, struct sb_kv_req *r)
{
	uint32_t k = 0;
	for (; k < c->n; k++) {
		uint32_t i = c->blk[k];
		struct sb_kv_blk *b = &m->b[i];
		if (b->inmem) {
			mem_unlink(m, i);
			mem_push(m, i);
			r->mem_hits++;
		} else if (b->slot >= 0) {
			r->disk_hits++;
			disk_touch(m, i);
			if (push_slot(&r->rd, &r->nrd, &r->cap_rd, (uint64_t)b->slot) ||
			    push_slot(&r->promo, &r->npromo, &r->cap_promo, i))
				return -ENOMEM;
		} else {
			break;
		}
	}
	r->looked_up += c->n;
	r->misses += c->n - k;
	r->hit = k == c->n;
	for (uint32_t x = k; x < c->n; x++)
		drop(m, c->blk[x]);
	/* what was read from disk is now in memory: promoted after the walk, so
	 * that the evictions it causes never touch a block the walk has yet
	 * to read (its slot would be read before the write that fills it) */
	for (uint64_t x = 0; m->cfg.mem_blocks && x < r->npromo; x++)
		if (!m->b[r->promo[x]].inmem && to_mem(m, (uint32_t)r->promo[x], r))
			return -ENOMEM;
	c->n = k;
	r->cached_tokens = (uint64_t)k * m->cfg.block_tokens;
	return 0;
}

/* ---- shared prefixes and RAG chunks (the official prefix_cache.py, rag.py) ---- */

static double uni_ctx(void *m)
{
	return uni(m);
}

static void sysprompt(struct sb_kv_model *m, struct sb_kv_req *r)
{
	r->prefix_tokens = 0;
	if (m->cfg.sysprompt_prob <= 0)
		return;
	double u = uni(m);
	uint32_t n = sb_kv_sysprompt(m->cfg.sysprompt_prob, u,
				     u < m->cfg.sysprompt_prob ? sb_rng_next(&m->rng) : 0, r->prompt);
	if (u >= m->cfg.sysprompt_prob) {
		m->x.prefix_misses++;
		return;
	}
	r->prompt -= n;
	r->prefix_tokens = n;
	m->x.prefix_hits++;
	m->x.prefix_tokens_saved += n;
}

/* the documents, chunk by chunk into the tiers as new blocks */
static int rag_ingest(struct sb_kv_model *m, struct sb_kv_req *r)
{
	const struct sb_kv_cfg *g = &m->cfg;
	uint64_t cap = 0;
	if (grow((void **)&m->rag_cdoc, &cap, g->rag_docs + 1, sizeof(uint64_t)))
		return -ENOMEM;
	for (unsigned d = 0; d < g->rag_docs; d++) {
		m->rag_cdoc[d] = m->nchunk;
		uint64_t tok = g->rag_doc_min + sb_rng_next(&m->rng) % (g->rag_doc_max - g->rag_doc_min + 1);
		for (uint64_t at = 0; at < tok; at += g->rag_chunk_tokens) {
			uint64_t ct = tok - at < g->rag_chunk_tokens ? tok - at : g->rag_chunk_tokens;
			uint32_t nb = (uint32_t)((ct + g->block_tokens - 1) / g->block_tokens);
			if (grow((void **)&m->chunk, &m->capchunk, m->nchunk + 1, sizeof(*m->chunk)))
				return -ENOMEM;
			struct sb_kv_conv *c = &m->chunk[m->nchunk++];
			*c = (struct sb_kv_conv){ .tokens = ct, .blk = malloc(nb * sizeof(uint32_t)), .cap = nb };
			for (uint32_t b = 0; c->blk && b < nb; b++)
				if (new_block(m, &c->blk[c->n]) || to_mem(m, c->blk[c->n++], r))
					return -ENOMEM;
			if (!c->blk)
				return -ENOMEM;
			r->blocks_new += nb;
			m->x.rag_chunks++;
		}
	}
	m->rag_cdoc[g->rag_docs] = m->nchunk;
	m->x.rag_docs = g->rag_docs;
	return 0;
}

/* a RAG read: the chunks' blocks found in memory, read from disk, or lost */
static int rag_read(struct sb_kv_model *m, struct sb_kv_req *r)
{
	const struct sb_kv_cfg *g = &m->cfg;
	r->rag_chunks = 0;
	if (!g->rag_docs || r->index == 0 || uni(m) >= g->rag_prob)
		return 0;
	uint64_t d = sb_rng_next(&m->rng) % g->rag_docs, c0 = m->rag_cdoc[d];
	uint32_t pick[64], k = sb_kv_rag_pick(uni_ctx, m, (uint32_t)(m->rag_cdoc[d + 1] - c0),
					      g->rag_top_k < 64 ? g->rag_top_k : 64, pick);
	m->x.rag_retrievals++;
	for (uint32_t j = 0; j < k; j++) {
		const struct sb_kv_conv *c = &m->chunk[c0 + pick[j]];
		for (uint32_t b = 0; b < c->n; b++) {
			uint32_t i = c->blk[b];
			if (m->b[i].inmem) {
				mem_unlink(m, i);
				mem_push(m, i);
				m->x.rag_mem_hits++;
			} else if (m->b[i].slot >= 0) {
				disk_touch(m, i);
				m->x.rag_disk_hits++;
				if (push_slot(&r->rd, &r->nrd, &r->cap_rd, (uint64_t)m->b[i].slot))
					return -ENOMEM;
			} else {
				m->x.rag_misses++;
			}
		}
	}
	r->rag_chunks = k;
	m->x.rag_chunks_read += k;
	return 0;
}

const struct sb_kv_extra *sb_kv_extra_stats(const struct sb_kv_model *m)
{
	return &m->x;
}

void sb_kv_extra_undo(struct sb_kv_model *m, const struct sb_kv_extra *b, const struct sb_kv_extra *a)
{
	struct sb_kv_extra *x = &m->x;
	x->prefix_hits -= a->prefix_hits - b->prefix_hits;
	x->prefix_misses -= a->prefix_misses - b->prefix_misses;
	x->prefix_tokens_saved -= a->prefix_tokens_saved - b->prefix_tokens_saved;
	x->rag_retrievals -= a->rag_retrievals - b->rag_retrievals;
	x->rag_chunks_read -= a->rag_chunks_read - b->rag_chunks_read;
	x->rag_mem_hits -= a->rag_mem_hits - b->rag_mem_hits;
	x->rag_disk_hits -= a->rag_disk_hits - b->rag_disk_hits;
	x->rag_misses -= a->rag_misses - b->rag_misses;
}

/* the trace's next request: its numbers, and which conversation it goes
 * on (m->nconv: a new one) */
static int from_trace(struct sb_kv_model *m, struct sb_kv_req *r, uint64_t *ci)
{
	const struct sb_kv_trace_req *q = sb_kv_trace_next(m->cfg.trace, &m->tpos);
	if (!q)
		return -ENODATA;
	r->arrival_s = m->cfg.trace_timed ? q->arrival_s : 0;
	r->prompt = q->prompt;
	r->output = q->output;
	r->trace_conv = q->conv;
	r->turn = q->turn;
	*ci = m->tconv[q->conv];
	r->reused = *ci != UINT64_MAX; /* a later turn of a conversation seen before */
	if (!r->reused)
		*ci = m->tconv[q->conv] = m->nconv;
	return 0;
}

bool sb_kv_trace_done(const struct sb_kv_model *m)
{
	return m->cfg.trace && m->tpos >= m->cfg.trace->n;
}

bool sb_kv_open_loop(const struct sb_kv_model *m)
{
	return m->cfg.trace ? m->cfg.trace_timed : m->cfg.arrival_rate > 0;
}

int sb_kv_next(struct sb_kv_model *m, struct sb_kv_req *r)
{
	const struct sb_kv_cfg *g = &m->cfg;
	r->index = m->next_index++;
	r->nrd = r->nwr = r->npromo = 0;
	r->mem_hits = r->disk_hits = r->misses = r->looked_up = r->blocks_new = 0;
	r->evict_writes = r->disk_evictions = 0;
	r->cached_tokens = 0;
	r->hit = false;
	uint64_t ci;
	if (g->trace) {
		int e = from_trace(m, r, &ci);
		if (e)
			return e;
	} else {
		if (g->arrival_rate > 0)
			m->t += -log(1.0 - uni(m)) / g->arrival_rate;
		r->arrival_s = m->t;
		r->reused = uni(m) < g->reuse;
		r->prompt = draw_len(m, g->prompt_mean, g->prompt_sd, g->prompt_min, g->prompt_max);
		r->output = draw_len(m, g->output_mean, g->output_sd, g->output_min, g->output_max);
		ci = r->reused && m->nconv ? sb_rng_next(&m->rng) % m->nconv : m->nconv;
		r->trace_conv = (uint32_t)ci;
		r->turn = 0;
	}
	if (ci == m->nconv) {
		if (grow((void **)&m->conv, &m->capconv, m->nconv + 1, sizeof(*m->conv)))
			return -ENOMEM;
		m->conv[m->nconv++] = (struct sb_kv_conv){ 0 };
	}
	struct sb_kv_conv *c = &m->conv[ci];
	sysprompt(m, r);
	if ((r->index == 0 && g->rag_docs && rag_ingest(m, r)) || (r->reused && lookup(m, c, r)) ||
	    rag_read(m, r))
		return -ENOMEM;
	uint64_t before = c->tokens;
	c->tokens += r->prompt + r->output;
	r->computed_tokens = before + r->prompt - r->cached_tokens;
	uint64_t want = c->tokens / g->block_tokens;
	uint64_t ccap = c->cap;
	if (grow((void **)&c->blk, &ccap, want, sizeof(*c->blk)))
		return -ENOMEM;
	c->cap = (uint32_t)ccap;
	while (c->n < want) {
		uint32_t i;
		if (new_block(m, &i) || to_mem(m, i, r))
			return -ENOMEM;
		c->blk[c->n++] = i;
		r->blocks_new++;
	}
	if (g->log)
		fprintf(g->log, "%" PRIu64 " %.6f %u %u %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64
			" %" PRIu32 " %" PRIu32 "\n", r->index, r->arrival_s, r->prompt, r->output,
			r->trace_conv, r->turn, r->cached_tokens, r->nrd, r->prefix_tokens, r->rag_chunks);
	return 0;
}

int sb_kv_model_init(struct sb_kv_model *m, const struct sb_kv_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (!m->cfg.block_tokens)
		m->cfg.block_tokens = 1;
	sb_rng_seed(&m->rng, cfg->seed ^ 0x6b76636163686500ull /* "kvcache" */);
	m->mhead = m->mtail = m->dhead = m->dtail = SB_KV_NIL;
	if (cfg->disk_blocks > (UINT64_C(1) << 32))
		m->cfg.disk_blocks = UINT64_C(1) << 32; /* more than blocks can exist */
	if (cfg->mem_blocks > (UINT64_C(1) << 32))
		m->cfg.mem_blocks = UINT64_C(1) << 32;
	if (cfg->trace) {
		m->tconv = malloc((cfg->trace->nconv + 1) * sizeof(*m->tconv));
		if (!m->tconv)
			return -ENOMEM;
		memset(m->tconv, 0xff, (cfg->trace->nconv + 1) * sizeof(*m->tconv));
	}
	if (cfg->log)
		fprintf(cfg->log, "# index arrival_s prompt_tokens output_tokens conversation turn "
			"cached_tokens disk_reads prefix_tokens rag_chunks\n");
	return 0;
}

void sb_kv_model_free(struct sb_kv_model *m)
{
	for (uint64_t i = 0; i < m->nconv; i++)
		free(m->conv[i].blk);
	free(m->conv);
	free(m->b);
	free(m->freeslot);
	free(m->tconv);
	for (uint64_t i = 0; i < m->nchunk; i++)
		free(m->chunk[i].blk);
	free(m->chunk);
	free(m->rag_cdoc);
	if (m->cfg.trace) {
		sb_kv_trace_free(m->cfg.trace);
		free(m->cfg.trace);
	}
	if (m->cfg.logf) { /* renamed into place whole, or the old file left as it was */
		char path[4096];
		snprintf(path, sizeof(path), "%s", m->cfg.logf->path);
		int e = sb_outfile_commit(m->cfg.logf);
		if (e)
			sb_err(path, "kv_request_log: writing the request log failed: %s (a file that "
			       "was there is left as it was): free space there, or log elsewhere",
			       strerror(-e));
		free(m->cfg.logf);
	}
	memset(m, 0, sizeof(*m));
}

void sb_kv_req_free(struct sb_kv_req *r)
{
	free(r->rd);
	free(r->wr);
	free(r->promo);
	r->rd = r->wr = r->promo = NULL;
	r->cap_rd = r->cap_wr = r->cap_promo = 0;
}
