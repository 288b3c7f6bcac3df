/* mlperf.c: kv_profile=mlperf's users and requests (see mlperf.h).  Facts
 * from mlcommons/storage kv_cache_benchmark/kv_cache/benchmark.py:
 * process_requests (multi-turn reloads, the prefill write, the decode read
 * and its re-reads every decode batch of 32 tokens, a context of 10000
 * tokens or more being prefill only, a decode miss writing the entry
 * again), generate_requests (a user continues its conversation with
 * probability 0.8, sleeps think_time x U(0.8, 1.2) before each request,
 * draws the context in [c/4, c] and the output in [g/4, g]); workload.py
 * (generate_mixed_users: the user templates and the QoS mix of 15%
 * interactive, 35% responsive, 50% batch); and
 * _prepopulate_cache_for_decode (users x 10 entries of 2048 tokens). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/timeutil.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/mlperf.h"
#include "ml/kvcache/opts.h"
#include "ml/run.h"
#include "parse/options.h"
#include "run/rate.h"

#define PREFILL_ONLY_TOKENS 10000
#define PREPOP_PER_USER 10
#define PREPOP_TOKENS 2048

/* models.py QOS_PROFILES: p95 target (ms) and priority */
static const double qos_p95_ms[SB_KV_NQOS] = { 50, 100, 1000 };

/* workload.py UserSimulator.DEFAULT_USER_TEMPLATES: chatbot, coding,
 * document: context, generation (tokens) and think time (ms) ranges */
static const unsigned tmpl[3][6] = {
	{ 512, 4096, 50, 200, 100, 500 },
	{ 4096, 25000, 100, 500, 200, 1000 },
	{ 4096, 16384, 200, 800, 300, 1500 },
};

static unsigned between(struct sb_kv_ml *ml, unsigned lo, unsigned hi)
{
	return lo + (unsigned)sb_rng_below(&ml->rng, hi - lo + 1);
}

/* generate_mixed_users: a type, a QoS class (15% interactive, 35%
 * responsive, 50% batch), lengths and think time per user */
static void make_user(const struct sb_kv_opts *o, struct sb_kv_ml *ml, struct sb_kv_user *u)
{
	const unsigned *t = tmpl[sb_rng_below(&ml->rng, 3)];
	double r = sb_rng_unit(&ml->rng);
	u->qos = r < 0.15 ? SB_KV_QOS_INTERACTIVE : r < 0.5 ? SB_KV_QOS_RESPONSIVE : SB_KV_QOS_BATCH;
	u->ctx = o->kv_templates & 1 ? between(ml, t[0], t[1]) : o->prompt_tokens;
	u->gen = o->kv_templates & 2 ? between(ml, t[2], t[3]) : o->output_tokens;
	u->think_us = o->kv_templates & 4 ? 1000ull * between(ml, t[4], t[5]) : o->kv_think_time_us;
}

int sb_kv_ml_prepare(struct sb_wl_job *j, struct sb_kv_job *k)
{
	const struct sb_jobspec *s = j->spec;
	const struct sb_kv_opts *o = k->opts;
	struct sb_kv_ml *ml = calloc(1, sizeof(*ml));
	if (!ml)
		return -ENOMEM;
	k->ml = ml;
	sb_rng_seed(&ml->rng, s->randseed ^ 0x6b76636163686500ull);
	ml->nusers = sb_kv_users(s);
	ml->u = calloc(ml->nusers, sizeof(*ml->u));
	if (!ml->u)
		return -ENOMEM;
	for (unsigned i = 0; i < ml->nusers; i++)
		make_user(o, ml, &ml->u[i]);
	ml->layers = s->shape.layers;
	ml->kv_heads = s->shape.kv_heads;
	ml->head_dim = o->kv_head_dim;
	ml->nodiskio = j->nodiskio;
	ml->objects = j->objects ? j->ops : NULL;
	ml->eopts = sb_spec_engine_opts(s);
	ml->job = s->name;
	struct sb_kvt_io io = sb_kv_ml_io;
	io.ctx = ml;
	uint64_t gpus = o->kv_gpus ? o->kv_gpus : 1;
	int e = sb_kvt_init(&ml->c, o->kv_gpu_mem * gpus, o->kv_memory_capacity, k->tier_bytes,
			    k->bytes_per_token, o->kv_tensor_parallel, &io);
	if (!e)
		e = sb_kv_ml_trace_init(k);
	if (!e)
		e = sb_kv_ml_extra_init(k);
	return e ? e : sb_kv_ml_files_init(ml, k->folder, o->kv_elem_bytes);
}

/* decode-only: entries written before the run, then the counters zeroed */
int sb_kv_ml_begin(struct sb_wl_job *j, struct sb_kv_job *k)
{
	struct sb_kv_ml *ml = k->ml;
	uint64_t now = sb_now_ns(), ns;
	sb_kv_ml_io_thread(&j->workers[0], NULL);
	if (k->opts->kv_decode_only) {
		unsigned n = ml->nusers * PREPOP_PER_USER;
		if (!(ml->prepop = calloc(n, sizeof(*ml->prepop))))
			return -ENOMEM;
		for (unsigned i = 0; i < n; i++) {
			uint32_t id = sb_kvt_new(&ml->c, PREPOP_TOKENS);
			int e = id == UINT32_MAX ? -ENOMEM : sb_kvt_alloc(&ml->c, id, true, &ns);
			if (e)
				return e;
			ml->prepop[ml->nprepop++] = id;
		}
		sb_kvt_reset(&ml->c);
		for (unsigned w = 0; w < j->nworkers; w++) {
			memset(j->workers[w].st->io_bytes, 0, sizeof(j->workers[w].st->io_bytes));
			memset(j->workers[w].st->total_ios, 0, sizeof(j->workers[w].st->total_ios));
		}
		now = sb_now_ns();
	}
	int e = sb_kv_ml_rag_ingest(ml); /* RAG documents, before the clock starts */
	if (e)
		return e;
	now = sb_now_ns();
	for (unsigned i = 0; i < ml->nusers; i++)
		ml->u[i].arrive_ns = sb_kv_add_ns(now, sb_kv_ml_think_ns(ml, &ml->u[i]));
	ml->next_slot_ns = ml->t0_ns = now;
	/* from here the workers run: the I/O without the lock */
	ml->lock = &k->lock;
	sb_kvt_set_lock(&ml->c, &k->lock);
	return 0;
}

static bool more(struct sb_wl_job *j, struct sb_kv_job *k)
{
	const struct sb_jobspec *s = j->spec;
	if (sb_stopping() || k->failed || k->ml->err || k->ml->trace_done)
		return false;
	if (k->opts->kv_requests && k->ml->started >= k->opts->kv_requests)
		return false;
	return sb_now_ns() < sb_kv_end_ns(k, s);
}

/* trace replay: the ready user of the highest QoS, then the earliest; -1
 * and *wake the next arrival when none is ready */
static int pick(struct sb_kv_ml *ml, uint64_t now, uint64_t *wake)
{
	int best = -1;
	*wake = UINT64_MAX;
	for (unsigned i = 0; i < ml->nusers; i++) {
		const struct sb_kv_user *u = &ml->u[i];
		if (u->busy)
			continue;
		if (u->arrive_ns > now) {
			*wake = u->arrive_ns < *wake ? u->arrive_ns : *wake;
			continue;
		}
		if (best < 0 || u->qos < ml->u[best].qos ||
		    (u->qos == ml->u[best].qos && u->arrive_ns < ml->u[best].arrive_ns))
			best = (int)i;
	}
	return best;
}

/* trace replay: the user's next request from the trace (1: it is over) */
static int begin_req(struct sb_kv_ml *ml, unsigned user, struct sb_kv_mreq *r)
{
	struct sb_kv_user *u = &ml->u[user];
	memset(r, 0, sizeof(*r));
	r->user = user;
	r->qos = u->qos;
	r->arrive = u->arrive_ns;
	bool fresh = false;
	int e = ml->hooks.next(ml->hooks.ctx, user, &r->ctx, &r->gen, &r->arrive, &fresh);
	if (e)
		return e;
	r->prefill_only = r->ctx >= PREFILL_ONLY_TOKENS;
	if ((r->id = sb_kvt_new(&ml->c, r->ctx)) == UINT32_MAX)
		return -ENOMEM;
	if ((e = sb_kv_ml_conv_turn(ml, u, fresh || !u->has_conv, 0, r)))
		return e;
	u->busy = true;
	u->queued++;
	return 0;
}

/* process_requests' steps 2, 3 and 5 under the lock; *ns the storage time */
static int cache_ops(const struct sb_kv_opts *o, struct sb_kv_ml *ml, const struct sb_kv_mreq *r, uint64_t *ns)
{
	uint64_t t = 0, ctx = r->ctx;
	enum sb_kvt_kind kind = SB_KVT_USER;
	int e = 0;
	*ns = 0;
	if (ml->hooks.prefix) { /* the prefix's tokens are not written again */
		if ((e = ml->hooks.prefix(ml->hooks.xctx, &ml->c, r->user, &ctx, ns)) < 0)
			return e;
		kind = e > 0 ? SB_KVT_SYSTEM : SB_KVT_USER; /* step 5 reads as cache_type 'system' */
		sb_kvt_resize(&ml->c, r->id, ctx);
		e = 0;
	}
	if (!o->kv_decode_only) {
		e = sb_kv_ml_turn_reads(ml, r, ns); /* step 2 */
		if (e >= 0)
			e = sb_kvt_alloc(&ml->c, r->id, true, &t);
		*ns += t;
	}
	if (e >= 0 && ml->hooks.rag && (e = ml->hooks.rag(ml->hooks.xctx, &ml->c, r->user, &t)) >= 0)
		*ns += t;
	if (e < 0 || o->kv_prefill_only || r->prefill_only)
		return e < 0 ? e : 0;
	uint32_t key = o->kv_decode_only && ml->nprepop ? ml->prepop[sb_rng_below(&ml->rng, ml->nprepop)] : r->id;
	e = sb_kvt_access(&ml->c, key, true, kind, &t);
	*ns += t;
	if (e == 0 && !o->kv_decode_only) {
		e = sb_kvt_alloc(&ml->c, r->id, true, &t);
		*ns += t;
	} else if (e > 0) {
		uint64_t b = o->kv_decode_reread_tokens, n = (r->gen + b - 1) / b;
		for (uint64_t i = 0; i < (n ? n : 1) && e >= 0; i++) {
			e = sb_kvt_access(&ml->c, key, true, kind, &t);
			*ns += t;
		}
	}
	return e < 0 ? e : 0;
}

static void record(struct sb_kv_ml *ml, const struct sb_kv_mreq *r, uint64_t st_ns,
		   uint64_t gen_ns)
{
	struct sb_kv_user *u = &ml->u[r->user];
	uint64_t now = sb_now_ns(), e2e = now - r->arrive;
	ml->completed++;
	ml->tokens_generated += r->gen;
	ml->storage_io_s += (double)st_ns / 1e9;
	ml->generation_s += (double)gen_ns / 1e9;
	sb_kvt_acc_add(&ml->e2e, e2e);
	sb_kvt_acc_add(&ml->storage, st_ns);
	sb_kvt_acc_add(&ml->generation, gen_ns);
	sb_kvt_acc_add(&ml->qos_lat[u->qos], e2e);
	ml->qos_n[u->qos]++;
	ml->qos_viol[u->qos] += (double)e2e / 1e6 > qos_p95_ms[u->qos];
	u->queued--;
	if (ml->hooks.next) { /* trace replay: one request of a user at a time */
		u->busy = false;
		u->arrive_ns = u->think_us ? sb_kv_add_ns(r->arrive, sb_kv_ml_think_ns(ml, u)) : now;
	} else if (!u->think_us) { /* back to back: its next when this one ends */
		u->arrive_ns = now;
	}
}

/* the next request to serve: a trace's (-1: none ready, *wake when; 1:
 * the trace is over) or the queue's (users issue on their timers) */
static int next_req(struct sb_wl_job *j, struct sb_kv_job *k, uint64_t now, uint64_t *wake,
		    struct sb_kv_mreq *r)
{
	struct sb_kv_ml *ml = k->ml;
	if (ml->hooks.next) {
		int user = pick(ml, now, wake);
		if (user < 0 || (k->opts->arrival_rate > 0 && now < ml->next_slot_ns))
			return -1;
		return begin_req(ml, (unsigned)user, r) ? : 0;
	}
	int e = sb_kv_ml_issue(k->opts, ml, now, sb_kv_end_ns(k, j->spec), wake);
	if (e)
		return e;
	if (!ml->q.n || (k->opts->arrival_rate > 0 && now < ml->next_slot_ns))
		return -1;
	sb_kv_mq_pop(&ml->q, r);
	return 0;
}

/* one worker: take the next request, do its cache operations, generate */
static int serve_one(struct sb_wl_job *j, struct sb_kv_job *k)
{
	const struct sb_jobspec *s = j->spec;
	const struct sb_kv_opts *o = k->opts;
	struct sb_kv_ml *ml = k->ml;
	uint64_t now = sb_now_ns(), wake, st_ns;
	struct sb_kv_mreq r;
	int e = next_req(j, k, now, &wake, &r);
	if (e > 0) { /* the trace is over */
		ml->trace_done = true;
		return 0;
	}
	if (e == -1) { /* none ready: sleep until one is (20 ms at most) */
		if (o->arrival_rate > 0 && now < ml->next_slot_ns && ml->next_slot_ns < wake)
			wake = ml->next_slot_ns;
		pthread_mutex_unlock(&k->lock);
		uint64_t until = wake < now + 20000000 ? wake : now + 20000000;
		bool ok = sb_sleep_until(until);
		pthread_mutex_lock(&k->lock);
		return ok ? 0 : -EINTR;
	}
	if (e)
		return e;
	ml->started++;
	if (o->arrival_rate > 0) /* saturates: a rate of 1e-12/s is "never again" */
		ml->next_slot_ns = sb_kv_at_ns(ml->next_slot_ns, 1.0 / o->arrival_rate);
	if (r.arrive > sb_now_ns()) { /* a trace's arrival: wait for it, up to runtime= */
		pthread_mutex_unlock(&k->lock);
		e = sb_kv_wait_arrival(k, s, r.arrive);
		pthread_mutex_lock(&k->lock);
	}
	if (!e)
		e = cache_ops(o, ml, &r, &st_ns);
	uint64_t gen_ns = r.gen * o->decode_time_per_token_us * 1000;
	if (!e) {
		pthread_mutex_unlock(&k->lock);
		e = !gen_ns || sb_sleep_until(sb_kv_add_ns(sb_now_ns(), gen_ns)) ? 0 : -EINTR;
		pthread_mutex_lock(&k->lock);
	}
	if (e) { /* 1: runtime= ended before it arrived; -EINTR: stopped in its
		  * generation: it did not complete, it does not count */
		ml->u[r.user].busy = false;
		ml->u[r.user].queued--;
		return e == 1 ? 0 : e;
	}
	record(ml, &r, st_ns, gen_ns);
	return 0;
}

void *sb_kv_ml_worker(void *arg)
{
	struct sb_kv_worker *kw = arg;
	struct sb_wl_job *j = kw->j;
	struct sb_kv_job *k = j->priv;
	struct sb_thread *t = &j->workers[kw->index];
	struct rusage ru;
	int e = 0;
	unsigned char *rbuf = malloc(SB_KV_ML_BUF); /* its own: reads run in parallel */
	sb_kv_ml_io_thread(t, rbuf);
	sb_ml_cpu_begin(&ru);
	pthread_mutex_lock(&k->lock);
	if (!rbuf)
		e = -ENOMEM;
	while (!e && more(j, k))
		e = serve_one(j, k);
	if (e && e != -EINTR && !k->ml->err)
		k->ml->err = e;
	pthread_mutex_unlock(&k->lock);
	if (e && e != -EINTR) {
		if (!t->st->error)
			sb_ml_fail(t, -e, "KV cache entry I/O failed in", k->folder);
		k->failed = true;
	}
	sb_kv_ml_io_thread(NULL, NULL);
	free(rbuf);
	sb_ml_cpu_end(t, &ru);
	return NULL;
}

void sb_kv_ml_release(struct sb_kv_job *k)
{
	struct sb_kv_ml *ml = k->ml;
	if (!ml)
		return;
	sb_kv_ml_files_remove(ml, k->opts->keep_kvcache);
	sb_kv_mq_free(&ml->q);
	sb_kv_convs_free(&ml->convs);
	free(ml->u);
	free(ml->prepop);
	free(ml->trace_ctx);
	sb_kv_ml_extra_free(ml);
	free(ml->buf);
	free(ml->rbuf);
	sb_kvt_free(&ml->c);
	free(ml);
	k->ml = NULL;
}
