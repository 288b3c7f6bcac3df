/* mlqueue.c: kv_profile=mlperf's users as the official benchmark runs them
 * (mlcommons/storage kv_cache_benchmark/kv_cache/benchmark.py
 * generate_requests, user_worker, lines 429-489): each user is a timer
 * that, every think_time x U(0.8, 1.2), ends its conversation with
 * probability 0.2 (or at kv_max_turns_per_conv turns: the official
 * conversation.max_turns_per_conv, default 50, conversation.py:50,
 * checked at benchmark.py:444-451), adds the request's turn to its conversation at once
 * (ConversationManager.add_turn, conversation.py:79-96) and puts the
 * request on the priority queue (-priority, enqueue time), whether or not
 * its earlier requests were served.  A user can thus have several requests
 * queued; a queued request's entry is not written until a worker serves
 * it, so another turn that reads it (process_requests step 2 reads every
 * key of its conversation but its own, conversation.py:105-111) misses.
 * Nothing here sleeps: sb_kv_ml_issue issues every request whose time has
 * come when a worker asks, stamped with the time it was due. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/mlperf.h"
#include "ml/kvcache/opts.h"

#define CONTINUE_PROB 0.8       /* benchmark.py:438 random() >= 0.8 ends it */
#define PREFILL_ONLY_TOKENS 10000 /* benchmark.py:471 */

/* queue.PriorityQueue over (-priority, time.time()): the highest class
 * (SB_KV_QOS_* lowest), then the earliest issued; a binary heap */
static bool before(const struct sb_kv_mreq *a, const struct sb_kv_mreq *b)
{
	if (a->qos != b->qos)
		return a->qos < b->qos;
	return a->arrive != b->arrive ? a->arrive < b->arrive : a->seq < b->seq;
}

int sb_kv_mq_push(struct sb_kv_mq *q, struct sb_kv_mreq *r)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64;
		struct sb_kv_mreq *n = realloc(q->r, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		q->r = n;
		q->cap = cap;
	}
	r->seq = q->seq++;
	size_t i = q->n++;
	while (i && before(r, &q->r[(i - 1) / 2])) {
		q->r[i] = q->r[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->r[i] = *r;
	return 0;
}

bool sb_kv_mq_pop(struct sb_kv_mq *q, struct sb_kv_mreq *out)
{
	if (!q->n)
		return false;
	*out = q->r[0];
	struct sb_kv_mreq last = q->r[--q->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && before(&q->r[c + 1], &q->r[c]))
			c++;
		if (!before(&q->r[c], &last))
			break;
		q->r[i] = q->r[c];
		i = c;
	}
	if (q->n)
		q->r[i] = last;
	return true;
}

void sb_kv_mq_free(struct sb_kv_mq *q)
{
	free(q->r);
	memset(q, 0, sizeof(*q));
}

/* ConversationManager._evict_oldest_conversation: the live one with the
 * oldest last access; a request being served keeps reading the turns it
 * was given (get_all_previous_turn_keys returned a list) */
static void evict_oldest(struct sb_kv_mconvs *cs)
{
	uint32_t best = 0;
	for (uint32_t i = 1; i < cs->nlive; i++)
		if (cs->c[cs->live[i]].last < cs->c[cs->live[best]].last)
			best = i;
	cs->c[cs->live[best]].dead = true;
	cs->live[best] = cs->live[--cs->nlive];
}

uint32_t sb_kv_conv_new(struct sb_kv_mconvs *cs)
{
	if (cs->n == cs->cap) {
		uint32_t cap = cs->cap ? cs->cap * 2 : 16;
		struct sb_kv_mconv *n = realloc(cs->c, cap * sizeof(*n));
		if (!n)
			return UINT32_MAX;
		cs->c = n;
		cs->cap = cap;
	}
	if (cs->nlive >= SB_KV_MAX_CONVS)
		evict_oldest(cs);
	memset(&cs->c[cs->n], 0, sizeof(cs->c[cs->n]));
	cs->c[cs->n].last = cs->clock++;
	cs->live[cs->nlive++] = cs->n;
	return cs->n++;
}

int sb_kv_conv_add(struct sb_kv_mconvs *cs, uint32_t conv, uint32_t id, uint32_t *turn)
{
	struct sb_kv_mconv *c = &cs->c[conv];
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 8;
		uint32_t *t = realloc(c->turn, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		c->turn = t;
		c->cap = cap;
	}
	c->last = cs->clock++;
	*turn = c->n;
	c->turn[c->n++] = id;
	return 0;
}

void sb_kv_convs_free(struct sb_kv_mconvs *cs)
{
	for (uint32_t i = 0; i < cs->n; i++)
		free(cs->c[i].turn);
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}

/* think_time x random.uniform(0.8, 1.2) (benchmark.py:434) */
uint64_t sb_kv_ml_think_ns(struct sb_kv_ml *ml, const struct sb_kv_user *u)
{
	return (uint64_t)((double)u->think_us * 1000.0 * (0.8 + 0.4 * sb_rng_unit(&ml->rng)));
}

/* the lengths: randint(max(1, c // 4), c), clamped to the _min/_max options */
static uint64_t draw(struct sb_kv_ml *ml, unsigned mean, unsigned lo, unsigned hi)
{
	uint64_t a = mean / 4 ? mean / 4 : 1, v = a + sb_rng_below(&ml->rng, mean - a + 1);
	return v < lo ? lo : v > hi ? hi : v;
}

/* r's turn in user u's conversation: a new conversation when fresh or
 * when the current one has max_turns turns (0: no cap); -ENOMEM */
int sb_kv_ml_conv_turn(struct sb_kv_ml *ml, struct sb_kv_user *u, bool fresh, uint32_t max_turns,
		       struct sb_kv_mreq *r)
{
	/* an evicted conversation: conversation.py's add_turn would raise
	 * (the user's thread ends there); here the user starts a new one */
	if (u->has_conv && (fresh || ml->convs.c[u->conv].dead ||
			    (max_turns && ml->convs.c[u->conv].n >= max_turns)))
		u->has_conv = false;
	if (!u->has_conv) {
		if ((u->conv = sb_kv_conv_new(&ml->convs)) == UINT32_MAX)
			return -ENOMEM;
		u->has_conv = true;
	}
	r->conv = u->conv;
	return sb_kv_conv_add(&ml->convs, u->conv, r->id, &r->turn);
}

/* one request of synthetic user i, due at `at`, onto the queue */
static int issue_one(const struct sb_kv_opts *o, struct sb_kv_ml *ml, unsigned i, uint64_t at)
{
	struct sb_kv_user *u = &ml->u[i];
	struct sb_kv_mreq r = { .user = i, .qos = u->qos, .arrive = at };
	bool fresh = u->has_conv && sb_rng_unit(&ml->rng) >= CONTINUE_PROB;
	r.ctx = draw(ml, u->ctx, o->prompt_tokens_min, o->prompt_tokens_max);
	r.gen = draw(ml, u->gen, o->output_tokens_min, o->output_tokens_max);
	r.prefill_only = r.ctx >= PREFILL_ONLY_TOKENS;
	if ((r.id = sb_kvt_new(&ml->c, r.ctx)) == UINT32_MAX)
		return -ENOMEM;
	int e = sb_kv_ml_conv_turn(ml, u, fresh, o->kv_max_turns, &r);
	if (!e)
		e = sb_kv_mq_push(&ml->q, &r);
	if (!e)
		u->queued++;
	return e;
}

/* every synthetic user's requests due by now (before end_ns), in time
 * order per user; a user with no think time (back to back) has one
 * request at a time: its next is due when that one ends.  At most
 * SB_KV_MQ_MAX requests wait: past it, the due ones wait for room.
 * *wake: the next one due (UINT64_MAX: none) */
int sb_kv_ml_issue(const struct sb_kv_opts *o, struct sb_kv_ml *ml, uint64_t now, uint64_t end_ns,
		   uint64_t *wake)
{
	*wake = UINT64_MAX;
	for (unsigned i = 0; i < ml->nusers; i++) {
		struct sb_kv_user *u = &ml->u[i];
		for (;;) {
			if (!u->think_us && u->queued)
				break;   /* back to back: one in flight */
			if (ml->q.n >= SB_KV_MQ_MAX)
				return 0; /* a bound on memory: the timers wait */
			if (u->arrive_ns > now || u->arrive_ns >= end_ns) {
				if (u->arrive_ns < end_ns && u->arrive_ns < *wake)
					*wake = u->arrive_ns;
				break;
			}
			int e = issue_one(o, ml, i, u->arrive_ns);
			if (e)
				return e;
			if (!u->think_us)
				break;   /* record() sets its next arrival */
			u->arrive_ns = sb_kv_add_ns(u->arrive_ns, sb_kv_ml_think_ns(ml, u));
		}
	}
	return 0;
}

/* process_requests step 2 (benchmark.py:545-556): a request past its
 * conversation's first turn reads every turn of it but its own, those
 * issued after it included (get_all_previous_turn_keys; none once the
 * conversation is evicted); a turn not yet written misses.  The list is
 * taken as it is now; each entry is fetched again after each read (the
 * lock is dropped around the read: the arrays may move).  Adds the reads'
 * time to *ns; 0 or -errno */
int sb_kv_ml_turn_reads(struct sb_kv_ml *ml, const struct sb_kv_mreq *r, uint64_t *ns)
{
	const struct sb_kv_mconv *cv = &ml->convs.c[r->conv];
	uint32_t n = r->turn && !cv->dead ? cv->n : 0;
	uint64_t t;
	int e = 0;
	for (uint32_t i = 0; i < n && e >= 0; i++) {
		if (i == r->turn)
			continue;
		e = sb_kvt_access(&ml->c, ml->convs.c[r->conv].turn[i], true, SB_KVT_MULTI_TURN, &t);
		*ns += t;
		ml->mt_hits += e > 0;
		ml->mt_misses += e == 0;
	}
	return e < 0 ? e : 0;
}
