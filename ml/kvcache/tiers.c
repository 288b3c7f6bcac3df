/* tiers.c: kv_profile=mlperf's waterfall LRU cache (see tiers.h).  The
 * thresholds are cache.py's defaults: target_usage_ratio 0.8,
 * large_entry_limit_ratio 0.95, max_recursion_depth 10, the 5% near-empty
 * and the 20%/50% bail-out of _ensure_space_in_tier. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ml/kvcache/tiers.h"

#define TARGET_RATIO 0.8
#define LARGE_RATIO 0.95
#define MAX_DEPTH 10

void sb_kvt_acc_add(struct sb_kvt_acc *a, uint64_t ns)
{
	sb_hist_add(&a->h, ns);
	a->max = a->max > ns ? a->max : ns;
	a->sum += (double)ns;
	a->n++;
}

int sb_kvt_init(struct sb_kvt *c, uint64_t gpu, uint64_t cpu, uint64_t nvme, uint64_t bytes_per_token,
		unsigned tp, const struct sb_kvt_io *io)
{
	memset(c, 0, sizeof(*c));
	c->limit[SB_KVT_GPU] = gpu;
	c->limit[SB_KVT_CPU] = cpu;
	c->limit[SB_KVT_NVME] = nvme;
	c->has[SB_KVT_GPU] = gpu > 0;
	c->has[SB_KVT_CPU] = c->has[SB_KVT_NVME] = true;
	for (int t = 0; t < SB_KVT_N; t++)
		c->head[t] = c->tail[t] = SB_KVT_NIL;
	c->bytes_per_token = bytes_per_token;
	c->tp = tp ? tp : 1;
	c->io = *io;
	return 0;
}

void sb_kvt_free(struct sb_kvt *c)
{
	free(c->e);
	c->e = NULL;
	c->ne = c->cap = 0;
}

void sb_kvt_reset(struct sb_kvt *c)
{
	memset(&c->st, 0, sizeof(c->st));
}

uint32_t sb_kvt_new(struct sb_kvt *c, uint64_t tokens)
{
	if (c->ne == c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 1024;
		struct sb_kvt_entry *e = cap > c->cap ? realloc(c->e, cap * sizeof(*e)) : NULL;
		if (!e)
			return UINT32_MAX;
		c->e = e;
		c->cap = cap;
	}
	struct sb_kvt_entry *e = &c->e[c->ne];
	/* cache.py: each tensor-parallel rank stores its 1/tp share */
	e->bytes = c->bytes_per_token * tokens / c->tp;
	e->tokens = tokens;
	e->tier = -1;
	e->prev = e->next = SB_KVT_NIL;
	return c->ne++;
}

void sb_kvt_resize(struct sb_kvt *c, uint32_t id, uint64_t tokens)
{
	struct sb_kvt_entry *e = &c->e[id];
	if (e->tier < 0) {
		e->bytes = c->bytes_per_token * tokens / c->tp;
		e->tokens = tokens;
	}
}

static void unlink_lru(struct sb_kvt *c, uint32_t id)
{
	struct sb_kvt_entry *e = &c->e[id];
	int t = e->tier;
	if (e->prev != SB_KVT_NIL)
		c->e[e->prev].next = e->next;
	else
		c->head[t] = e->next;
	if (e->next != SB_KVT_NIL)
		c->e[e->next].prev = e->prev;
	else
		c->tail[t] = e->prev;
	e->prev = e->next = SB_KVT_NIL;
	c->entries[t]--;
}

static void push_mru(struct sb_kvt *c, uint32_t id, int t)
{
	struct sb_kvt_entry *e = &c->e[id];
	e->tier = t;
	e->prev = SB_KVT_NIL;
	e->next = c->head[t];
	if (c->head[t] != SB_KVT_NIL)
		c->e[c->head[t]].prev = id;
	c->head[t] = id;
	if (c->tail[t] == SB_KVT_NIL)
		c->tail[t] = id;
	c->entries[t]++;
}

static int next_tier(const struct sb_kvt *c, int t)
{
	for (int n = t + 1; n < SB_KVT_N; n++)
		if (c->has[n])
			return n;
	return -1;
}

static bool ensure(struct sb_kvt *c, int t, uint64_t need, unsigned depth, int *err);

/* _demote_entry: read from t, write to n, delete from t */
static int demote(struct sb_kvt *c, uint32_t id, int t, int n)
{
	struct sb_kvt_entry *e = &c->e[id];
	struct sb_kvt_time rt, wt;
	int err = c->io.read(c->io.ctx, id, e, t, &rt);
	if (!err)
		err = c->io.write(c->io.ctx, id, e, n, &wt);
	if (!err)
		err = c->io.drop(c->io.ctx, id, e, t);
	if (err)
		return err;
	unlink_lru(c, id);
	c->used[t] = c->used[t] > e->bytes ? c->used[t] - e->bytes : 0;
	push_mru(c, id, n);
	c->st.evictions++;
	if (n == SB_KVT_CPU)
		c->st.offloads_cpu++;
	else if (n == SB_KVT_NVME) {
		c->st.offloads_storage++;
		uint64_t bpt = c->bytes_per_token / c->tp;
		if (bpt)
			c->st.storage_tokens += (double)(e->bytes / bpt);
	}
	return 0;
}

/* evict t's LRU entry: delete it from the last tier, else demote it */
static bool evict_one(struct sb_kvt *c, int t, int next, unsigned depth, int *err)
{
	uint32_t v = c->tail[t];
	struct sb_kvt_entry *e = &c->e[v];
	if (next < 0) {
		if ((*err = c->io.drop(c->io.ctx, v, e, t)) != 0)
			return false;
		unlink_lru(c, v);
		e->tier = -1;
		c->used[t] = c->used[t] > e->bytes ? c->used[t] - e->bytes : 0;
		c->st.evictions++;
		return true;
	}
	if (!ensure(c, next, e->bytes, depth + 1, err))
		return false;
	return (*err = demote(c, v, t, next)) == 0;
}

/* _ensure_space_in_tier: true when tier t took need bytes */
static bool ensure(struct sb_kvt *c, int t, uint64_t need, unsigned depth, int *err)
{
	if (depth > MAX_DEPTH)
		return false;
	int next = next_tier(c, t);
	bool last = next < 0;
	double limit = (double)c->limit[t], target = limit * TARGET_RATIO;
	if (!last && (double)need > limit * LARGE_RATIO)
		return false;
	double eff = last ? limit : target;
	for (unsigned n = 0;; n++) {
		if ((double)(c->used[t] + need) <= eff || (double)c->used[t] < limit * 0.05) {
			c->used[t] += need;
			return true;
		}
		if (c->tail[t] == SB_KVT_NIL) {
			c->used[t] = 0; /* nothing left: recount */
			if (last || (double)need <= eff) {
				c->used[t] += need;
				return true;
			}
			return false;
		}
		if (n == 0 && !last && (double)c->used[t] < limit * 0.2 && (double)need > target * 0.5)
			return false;
		if (!evict_one(c, t, next, depth, err))
			return false;
	}
}

int sb_kvt_alloc(struct sb_kvt *c, uint32_t id, bool prefill, uint64_t *ns)
{
	struct sb_kvt_entry *e = &c->e[id];
	struct sb_kvt_time tm = { 0, 0, 0 };
	int err = 0, t;
	*ns = 0;
	if (e->tier >= 0)
		return 0;
	c->st.prefill_writes += prefill;
	c->st.write_ops++;
	c->st.write_bytes += e->bytes;
	for (t = 0; t < SB_KVT_N; t++)
		if (c->has[t] && (ensure(c, t, e->bytes, 0, &err) || err))
			break;
	if (err)
		return err;
	if (t == SB_KVT_N) { /* all full: forced to NVMe */
		t = SB_KVT_NVME;
		c->used[t] += e->bytes;
	}
	if ((err = c->io.write(c->io.ctx, id, e, t, &tm)) != 0) {
		c->used[t] -= e->bytes;
		return err;
	}
	push_mru(c, id, t);
	c->st.wr_bytes[t] += e->bytes;
	sb_kvt_acc_add(&c->st.wr[t], tm.total);
	if (t == SB_KVT_CPU)
		c->st.offloads_cpu++;
	if (t == SB_KVT_NVME) {
		c->st.offloads_storage++;
		sb_kvt_acc_add(&c->st.wr_dev, tm.device);
		sb_kvt_acc_add(&c->st.wr_host, tm.host);
		c->st.storage_tokens += (double)e->tokens;
	}
	*ns = tm.total;
	return 0;
}

int sb_kvt_access(struct sb_kvt *c, uint32_t id, bool decode, enum sb_kvt_kind kind, uint64_t *ns)
{
	struct sb_kvt_entry *e = &c->e[id];
	struct sb_kvt_time tm = { 0, 0, 0 };
	*ns = 0;
	if (e->tier < 0) {
		c->st.misses++;
		return 0;
	}
	int t = e->tier;
	c->st.hits++;
	if (kind == SB_KVT_MULTI_TURN)
		c->st.multi_turn_hits++;
	else
		c->st.user_hits++;
	c->st.rd_bytes[t] += e->bytes;
	c->st.decode_reads += decode;
	c->st.read_ops++;
	c->st.read_bytes += e->bytes;
	int err = c->io.read(c->io.ctx, id, e, t, &tm);
	if (err)
		return err;
	unlink_lru(c, id); /* last_access: now */
	push_mru(c, id, t);
	sb_kvt_acc_add(&c->st.rd[t], tm.total);
	if (t == SB_KVT_NVME) {
		sb_kvt_acc_add(&c->st.rd_dev, tm.device);
		sb_kvt_acc_add(&c->st.rd_host, tm.host);
		/* cache.py divides by the whole model's bytes per token here */
		if (c->bytes_per_token)
			c->st.storage_tokens += (double)e->bytes / (double)c->bytes_per_token;
	}
	*ns = tm.total;
	return 1;
}
