/* test_kvqueue.c: CUnit suite "kvqueue": kv_profile=mlperf's user model
 * (ml/kvcache/mlqueue.c) against the official benchmark's
 * (mlcommons/storage kv_cache_benchmark/kv_cache): a user issues on its
 * think timer whether or not its earlier requests were served
 * (benchmark.py:429-489), so several of its requests can be queued; a
 * turn joins its conversation when issued (conversation.py:79-96); step 2
 * reads every turn of the conversation but the request's own
 * (conversation.py:105-111), and a turn queued but not yet written misses
 * (cache.py:776-779); the queue serves the highest QoS class, then the
 * earliest (benchmark.py:426); at most 1000 conversations live, the least
 * recently used evicted (conversation.py:49-76, 113-123); a conversation
 * ends at 50 turns (conversation.py:50, benchmark.py:444-450).  No clock:
 * times are given. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ml/kvcache/mlperf.h"
#include "ml/kvcache/opts.h"

static int f_write(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t)
{
	(void)ctx, (void)id, (void)e, (void)tier;
	t->total = t->device = t->host = 0;
	return 0;
}

static int f_read(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t)
{
	(void)ctx, (void)id, (void)e, (void)tier;
	t->total = t->device = t->host = 0;
	return 0;
}

static int f_drop(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier)
{
	(void)ctx, (void)id, (void)e, (void)tier;
	return 0;
}

static const struct sb_kvt_io fio_ = { NULL, f_write, f_read, f_drop };

#define MS 1000000ull

/* n users, each of class qos[i] and think time think_ms[i] (0: back to back) */
static struct sb_kv_ml *mk(unsigned n, const unsigned *qos, const unsigned *think_ms, struct sb_kv_opts *o)
{
	struct sb_kv_ml *ml = calloc(1, sizeof(*ml));
	memset(o, 0, sizeof(*o));
	o->prompt_tokens_min = o->output_tokens_min = 1;
	o->prompt_tokens_max = o->output_tokens_max = 1u << 30;
	sb_rng_seed(&ml->rng, 7);
	ml->nusers = n;
	ml->u = calloc(n, sizeof(*ml->u));
	for (unsigned i = 0; i < n; i++) {
		ml->u[i].qos = qos[i];
		ml->u[i].ctx = 64;
		ml->u[i].gen = 8;
		ml->u[i].think_us = 1000ull * think_ms[i];
		ml->u[i].arrive_ns = think_ms[i] * MS;
	}
	sb_kvt_init(&ml->c, 0, 0, 1ull << 40, 16, 1, &fio_);
	return ml;
}

static void rm(struct sb_kv_ml *ml)
{
	sb_kv_mq_free(&ml->q);
	sb_kv_convs_free(&ml->convs);
	sb_kvt_free(&ml->c);
	free(ml->u);
	free(ml);
}

/* a user with think time keeps issuing while nothing is served: every
 * request due by now is queued, each stamped with its own due time, its
 * turns in the conversation in issue order before any is written */
static void test_timer_issues_while_queued(void)
{
	struct sb_kv_opts o;
	const unsigned q[] = { SB_KV_QOS_BATCH }, th[] = { 50 };
	struct sb_kv_ml *ml = mk(1, q, th, &o);
	uint64_t wake;
	CU_ASSERT_EQUAL(sb_kv_ml_issue(&o, ml, 49 * MS, UINT64_MAX, &wake), 0);
	CU_ASSERT_EQUAL(ml->q.n, 0);
	CU_ASSERT_EQUAL(wake, 50 * MS);
	/* one second later, nothing served: 50 ms x U(0.8, 1.2) apart -> 17 to 25 */
	CU_ASSERT_EQUAL(sb_kv_ml_issue(&o, ml, 1000 * MS, UINT64_MAX, &wake), 0);
	CU_ASSERT(ml->q.n >= 17 && ml->q.n <= 25);
	CU_ASSERT_EQUAL(ml->u[0].queued, ml->q.n);
	CU_ASSERT(wake > 1000 * MS && wake <= 1060 * MS);
	uint64_t prev = 0, turns = 0;
	for (uint32_t c = 0; c < ml->convs.n; c++)
		turns += ml->convs.c[c].n;
	CU_ASSERT_EQUAL(turns, ml->q.n);
	CU_ASSERT(ml->convs.n >= 1 && ml->convs.n < ml->q.n); /* continued with p 0.8 */
	size_t n = ml->q.n;
	struct sb_kv_mreq r;
	for (size_t i = 0; sb_kv_mq_pop(&ml->q, &r); i++) { /* one class: in issue order */
		CU_ASSERT(i == 0 || r.arrive - prev >= 40 * MS);
		CU_ASSERT(i == 0 || r.arrive - prev <= 60 * MS);
		CU_ASSERT_EQUAL(ml->convs.c[r.conv].turn[r.turn], r.id);
		CU_ASSERT(r.ctx >= 16 && r.ctx <= 64);
		CU_ASSERT_EQUAL(ml->c.e[r.id].tier, -1); /* not written until served */
		prev = r.arrive;
		n--;
	}
	CU_ASSERT_EQUAL(n, 0);
	/* the run's end: nothing due at or after it is issued */
	CU_ASSERT_EQUAL(sb_kv_ml_issue(&o, ml, 5000 * MS, 1000 * MS, &wake), 0);
	CU_ASSERT_EQUAL(ml->q.n, 0);
	CU_ASSERT_EQUAL(wake, UINT64_MAX);
	rm(ml);
}

/* back to back (no think time): one request at a time */
static void test_back_to_back_one_at_a_time(void)
{
	struct sb_kv_opts o;
	const unsigned q[] = { SB_KV_QOS_BATCH }, th[] = { 0 };
	struct sb_kv_ml *ml = mk(1, q, th, &o);
	uint64_t wake;
	CU_ASSERT_EQUAL(sb_kv_ml_issue(&o, ml, 1000 * MS, UINT64_MAX, &wake), 0);
	CU_ASSERT_EQUAL(ml->q.n, 1);
	CU_ASSERT_EQUAL(sb_kv_ml_issue(&o, ml, 2000 * MS, UINT64_MAX, &wake), 0);
	CU_ASSERT_EQUAL(ml->q.n, 1);
	rm(ml);
}

/* the priority queue: the highest class first, then the earliest, then
 * the first issued */
static void test_priority_order(void)
{
	struct sb_kv_mq q = { 0 };
	struct sb_kv_mreq r[] = {
		{ .qos = SB_KV_QOS_BATCH, .arrive = 1, .id = 0 },
		{ .qos = SB_KV_QOS_RESPONSIVE, .arrive = 5, .id = 1 },
		{ .qos = SB_KV_QOS_INTERACTIVE, .arrive = 9, .id = 2 },
		{ .qos = SB_KV_QOS_RESPONSIVE, .arrive = 3, .id = 3 },
		{ .qos = SB_KV_QOS_RESPONSIVE, .arrive = 3, .id = 4 },
		{ .qos = SB_KV_QOS_BATCH, .arrive = 0, .id = 5 },
	};
	const uint32_t want[] = { 2, 3, 4, 1, 5, 0 };
	for (unsigned i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(sb_kv_mq_push(&q, &r[i]), 0);
	for (unsigned i = 0; i < 6; i++) {
		struct sb_kv_mreq out;
		CU_ASSERT_FATAL(sb_kv_mq_pop(&q, &out));
		CU_ASSERT_EQUAL(out.id, want[i]);
	}
	struct sb_kv_mreq out;
	CU_ASSERT(!sb_kv_mq_pop(&q, &out));
	/* many, pushed and popped interleaved: always the least (class, arrival, issue) */
	uint64_t x = 1;
	for (unsigned i = 0; i < 5000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		struct sb_kv_mreq m = { .qos = (unsigned)(x >> 62) % 3, .arrive = (x >> 20) % 50, .id = i };
		CU_ASSERT_EQUAL(sb_kv_mq_push(&q, &m), 0);
		if (i % 3 == 2) {
			struct sb_kv_mreq a;
			CU_ASSERT(sb_kv_mq_pop(&q, &a));
			for (size_t k = 0; k < q.n; k++)
				CU_ASSERT(q.r[k].qos > a.qos || (q.r[k].qos == a.qos && (q.r[k].arrive > a.arrive ||
					  (q.r[k].arrive == a.arrive && q.r[k].seq > a.seq))));
		}
	}
	struct sb_kv_mreq prev = { 0 };
	for (bool first = true; sb_kv_mq_pop(&q, &out); first = false) {
		CU_ASSERT(first || out.qos > prev.qos || (out.qos == prev.qos && (out.arrive > prev.arrive ||
			  (out.arrive == prev.arrive && out.seq > prev.seq))));
		prev = out;
	}
	sb_kv_mq_free(&q);
}

/* step 2: every turn but its own, later (queued) ones included; the
 * written ones hit, the queued ones miss; the first turn reads nothing */
static void test_queued_turns_miss(void)
{
	struct sb_kv_opts o;
	const unsigned q[] = { SB_KV_QOS_BATCH }, th[] = { 50 };
	struct sb_kv_ml *ml = mk(1, q, th, &o);
	struct sb_kv_user *u = &ml->u[0];
	struct sb_kv_mreq r[4];
	uint64_t ns;
	for (unsigned i = 0; i < 4; i++) {
		r[i].id = sb_kvt_new(&ml->c, 8);
		CU_ASSERT_EQUAL(sb_kv_ml_conv_turn(ml, u, false, 50, &r[i]), 0);
		CU_ASSERT_EQUAL(r[i].turn, i);
		CU_ASSERT_EQUAL(r[i].conv, r[0].conv);
	}
	CU_ASSERT_EQUAL(sb_kv_ml_turn_reads(ml, &r[0], &ns), 0); /* turn 1: no step 2 */
	CU_ASSERT_EQUAL(ml->mt_hits + ml->mt_misses, 0);
	CU_ASSERT_EQUAL(sb_kvt_alloc(&ml->c, r[0].id, true, &ns), 0); /* served: written */
	CU_ASSERT_EQUAL(sb_kv_ml_turn_reads(ml, &r[1], &ns), 0);
	CU_ASSERT_EQUAL(ml->mt_hits, 1);   /* turn 0 */
	CU_ASSERT_EQUAL(ml->mt_misses, 2); /* turns 2 and 3: queued, not written */
	CU_ASSERT_EQUAL(ml->c.st.misses, 2);
	CU_ASSERT_EQUAL(sb_kvt_alloc(&ml->c, r[1].id, true, &ns), 0);
	ml->mt_hits = ml->mt_misses = 0;
	CU_ASSERT_EQUAL(sb_kv_ml_turn_reads(ml, &r[3], &ns), 0); /* the last reads 0, 1, 2 */
	CU_ASSERT_EQUAL(ml->mt_hits, 2);
	CU_ASSERT_EQUAL(ml->mt_misses, 1);
	/* a fresh conversation: its first turn reads nothing of the old one */
	struct sb_kv_mreq n = { .id = sb_kvt_new(&ml->c, 8) };
	CU_ASSERT_EQUAL(sb_kv_ml_conv_turn(ml, u, true, 50, &n), 0);
	CU_ASSERT_NOT_EQUAL(n.conv, r[0].conv);
	CU_ASSERT_EQUAL(n.turn, 0);
	rm(ml);
}

/* 50 turns end a conversation; the 1001st live conversation evicts the
 * least recently used, whose queued turns then read nothing */
static void test_turn_and_conversation_caps(void)
{
	struct sb_kv_opts o;
	const unsigned q[] = { SB_KV_QOS_BATCH, SB_KV_QOS_BATCH }, th[] = { 50, 50 };
	struct sb_kv_ml *ml = mk(2, q, th, &o);
	struct sb_kv_mreq r, first[2];
	uint64_t ns;
	for (unsigned i = 0; i < 51; i++) {
		r.id = sb_kvt_new(&ml->c, 8);
		CU_ASSERT_EQUAL(sb_kv_ml_conv_turn(ml, &ml->u[0], false, 50, &r), 0);
		if (i < 2)
			first[i] = r;
		CU_ASSERT_EQUAL(r.conv, i < 50 ? first[0].conv : first[0].conv + 1);
	}
	/* user 1's conversation is the least recently used once user 0 moves on */
	r.id = sb_kvt_new(&ml->c, 8);
	CU_ASSERT_EQUAL(sb_kv_ml_conv_turn(ml, &ml->u[1], false, 50, &r), 0);
	struct sb_kv_mreq r1 = r;
	r.id = sb_kvt_new(&ml->c, 8);
	CU_ASSERT_EQUAL(sb_kv_ml_conv_turn(ml, &ml->u[1], false, 50, &r), 0);
	struct sb_kv_mreq r1b = r;
	for (unsigned i = 0; i < SB_KV_MAX_CONVS; i++) {
		r.id = sb_kvt_new(&ml->c, 8);
		CU_ASSERT_EQUAL(sb_kv_ml_conv_turn(ml, &ml->u[0], true, 50, &r), 0);
	}
	CU_ASSERT_EQUAL(ml->convs.nlive, SB_KV_MAX_CONVS);
	CU_ASSERT(ml->convs.c[first[0].conv].dead);   /* the 50-turn one, oldest */
	CU_ASSERT(ml->convs.c[r1.conv].dead);         /* then user 1's */
	CU_ASSERT_EQUAL(sb_kvt_alloc(&ml->c, r1.id, true, &ns), 0);
	CU_ASSERT_EQUAL(sb_kv_ml_turn_reads(ml, &r1b, &ns), 0); /* evicted: no step 2 */
	CU_ASSERT_EQUAL(ml->mt_hits + ml->mt_misses, 0);
	/* user 1 goes on in a new conversation */
	r.id = sb_kvt_new(&ml->c, 8);
	CU_ASSERT_EQUAL(sb_kv_ml_conv_turn(ml, &ml->u[1], false, 50, &r), 0);
	CU_ASSERT_NOT_EQUAL(r.conv, r1.conv);
	CU_ASSERT_EQUAL(r.turn, 0);
	rm(ml);
}

static CU_TestInfo tests[] = {
	{ "a user issues on its timer while its requests wait: several queued", test_timer_issues_while_queued },
	{ "no think time: one request at a time", test_back_to_back_one_at_a_time },
	{ "the queue: highest class, then earliest, then first issued", test_priority_order },
	{ "step 2 reads every turn but its own; queued turns miss", test_queued_turns_miss },
	{ "50 turns a conversation; 1000 live, the LRU one evicted", test_turn_and_conversation_caps },
	CU_TEST_INFO_NULL,
};
SB_SUITE(kvqueue, tests)
