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
	return pthread_cond_init(&c->cond, NULL) ? -ENOMEM : 0;
}

void sb_kvt_set_lock(struct sb_kvt *c, pthread_mutex_t *lock)
{
	c->lock = lock;
}

void sb_kvt_free(struct sb_kvt *c)
{
	free(c->e);
	pthread_cond_destroy(&c->cond);
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
	e->pin = 0;
	e->busy = false;
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

/* the I/O, with the lock dropped: the callbacks get a copy of the entry
 * (c->e may move meanwhile); the caller pinned it or made it busy */
enum { IO_READ, IO_WRITE, IO_DROP };
static int io_call(struct sb_kvt *c, int op, uint32_t id, int t, struct sb_kvt_time *tm)
{
	struct sb_kvt_entry e = c->e[id];
	int err;
	if (c->lock)
		pthread_mutex_unlock(c->lock);
	if (op == IO_READ)
		err = c->io.read(c->io.ctx, id, &e, t, tm);
	else if (op == IO_WRITE)
		err = c->io.write(c->io.ctx, id, &e, t, tm);
	else
		err = c->io.drop(c->io.ctx, id, &e, t);
	if (c->lock)
		pthread_mutex_lock(c->lock);
	return err;
}

/* wait until no one writes, moves or deletes entry id (and, excl, reads it) */
static void wait_idle(struct sb_kvt *c, uint32_t id, bool excl)
{
	while (c->lock && (c->e[id].busy || (excl && c->e[id].pin)))
		pthread_cond_wait(&c->cond, c->lock);
}

static void set_busy(struct sb_kvt *c, uint32_t id, bool on)
{
	c->e[id].busy = on;
	if (!on && c->lock)
		pthread_cond_broadcast(&c->cond);
}

/* the least recently used entry of t that no one reads */
static uint32_t victim(const struct sb_kvt *c, int t)
{
	uint32_t v = c->tail[t];
	while (v != SB_KVT_NIL && c->e[v].pin)
		v = c->e[v].prev;
	return v;
}

static bool ensure(struct sb_kvt *c, int t, uint64_t need, unsigned depth, int *err);

static void demoted(struct sb_kvt *c, uint32_t id, int n)
{
	struct sb_kvt_entry *e = &c->e[id];
	c->st.evictions++;
	if (n == SB_KVT_CPU)
		c->st.offloads_cpu++;
	else if (n == SB_KVT_NVME) {
		c->st.offloads_storage++;
		uint64_t bpt = c->bytes_per_token / c->tp;
		if (bpt)
			c->st.storage_tokens += (double)(e->bytes / bpt);
	}
}

/* _demote_entry: v (busy, out of t's list, n's room taken) is read from t,
 * written to n, deleted from t */
static int demote(struct sb_kvt *c, uint32_t v, int t, int n)
{
	struct sb_kvt_time rt, wt;
	uint64_t bytes = c->e[v].bytes;
	int err = io_call(c, IO_READ, v, t, &rt);
	if (!err)
		err = io_call(c, IO_WRITE, v, n, &wt);
	if (!err)
		err = io_call(c, IO_DROP, v, t, NULL);
	c->moving[t]--;
	c->moving[n]--;
	if (err) { /* back where it was */
		c->used[n] = c->used[n] > bytes ? c->used[n] - bytes : 0;
		push_mru(c, v, t);
	} else {
		c->used[t] = c->used[t] > bytes ? c->used[t] - bytes : 0;
		push_mru(c, v, n);
		demoted(c, v, n);
	}
	set_busy(c, v, false);
	return err;
}

/* evict v, t's LRU entry no one reads: delete it from the last tier, else
 * demote it */
static bool evict_one(struct sb_kvt *c, uint32_t v, int t, int next, unsigned depth, int *err)
{
	struct sb_kvt_entry *e = &c->e[v];
	uint64_t bytes = e->bytes;
	unlink_lru(c, v);
	set_busy(c, v, true);
	if (next < 0) {
		e->tier = -1;
		c->used[t] = c->used[t] > bytes ? c->used[t] - bytes : 0;
		c->st.evictions++;
		*err = io_call(c, IO_DROP, v, t, NULL);
		set_busy(c, v, false);
		return !*err;
	}
	c->moving[t]++;
	if (!ensure(c, next, bytes, depth + 1, err)) {
		c->moving[t]--;
		push_mru(c, v, t);
		set_busy(c, v, false);
		return false;
	}
	c->moving[next]++;
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
		uint32_t v = victim(c, t);
		if (v == SB_KVT_NIL) {
			if (c->tail[t] != SB_KVT_NIL || c->moving[t])
				return false; /* all being read, written or moved */
			c->used[t] = 0; /* nothing left: recount */
			if (last || (double)need <= eff) {
				c->used[t] += need;
				return true;
			}
			return false;
		}
		if (n == 0 && !last && (double)c->used[t] < limit * 0.2 && (double)need > target * 0.5)
			return false;
		if (!evict_one(c, v, t, next, depth, err))
			return false;
	}
}

static void written(struct sb_kvt *c, const struct sb_kvt_entry *e, int t, const struct sb_kvt_time *tm)
{
	c->st.wr_bytes[t] += e->bytes;
	sb_kvt_acc_add(&c->st.wr[t], tm->total);
	if (t == SB_KVT_CPU)
		c->st.offloads_cpu++;
	if (t == SB_KVT_NVME) {
		c->st.offloads_storage++;
		sb_kvt_acc_add(&c->st.wr_dev, tm->device);
		sb_kvt_acc_add(&c->st.wr_host, tm->host);
		c->st.storage_tokens += (double)e->tokens;
	}
}

int sb_kvt_alloc(struct sb_kvt *c, uint32_t id, bool prefill, uint64_t *ns)
{
	struct sb_kvt_time tm = { 0, 0, 0 };
	int err = 0, t;
	*ns = 0;
	wait_idle(c, id, true);
	if (c->e[id].tier >= 0)
		return 0;
	uint64_t bytes = c->e[id].bytes;
	c->st.prefill_writes += prefill;
	c->st.write_ops++;
	c->st.write_bytes += bytes;
	set_busy(c, id, true); /* no one else writes it while room is made */
	for (t = 0; t < SB_KVT_N; t++)
		if (c->has[t] && (ensure(c, t, bytes, 0, &err) || err))
			break;
	if (!err && t == SB_KVT_N) { /* all full: forced to NVMe */
		t = SB_KVT_NVME;
		c->used[t] += bytes;
	}
	if (!err) {
		c->moving[t]++;
		err = io_call(c, IO_WRITE, id, t, &tm);
		c->moving[t]--;
		if (err)
			c->used[t] -= bytes;
		else
			push_mru(c, id, t);
	}
	set_busy(c, id, false);
	if (err)
		return err;
	written(c, &c->e[id], t, &tm);
	*ns = tm.total;
	return 0;
}

int sb_kvt_access(struct sb_kvt *c, uint32_t id, bool decode, enum sb_kvt_kind kind, uint64_t *ns)
{
	struct sb_kvt_time tm = { 0, 0, 0 };
	*ns = 0;
	wait_idle(c, id, false);
	struct sb_kvt_entry *e = &c->e[id];
	if (e->tier < 0) {
		c->st.misses++;
		return 0;
	}
	int t = e->tier;
	c->st.hits++;
	if (kind == SB_KVT_MULTI_TURN)
		c->st.multi_turn_hits++;
	else if (kind == SB_KVT_SYSTEM)
		c->st.system_hits++;
	else
		c->st.user_hits++;
	c->st.rd_bytes[t] += e->bytes;
	c->st.decode_reads += decode;
	c->st.read_ops++;
	c->st.read_bytes += e->bytes;
	e->pin++; /* stays in t: evictions pass it by */
	int err = io_call(c, IO_READ, id, t, &tm);
	e = &c->e[id];
	if (--e->pin == 0 && c->lock)
		pthread_cond_broadcast(&c->cond);
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
