/* ioloop.c: the per-I/O path (see ioloop.h).  Nothing here allocates, locks,
 * formats or makes a system call beyond the I/O itself and the clock: one
 * timestamp when an I/O is queued, one per submitted batch, one per
 * completion batch.  An error is stored as raw facts (struct sb_errinfo) and
 * described after the loop.  A short transfer of any engine is completed
 * here, by queueing its rest again through the engine (run/resid.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "run/ioloop.h"
#include "run/fill.h"
#include "run/flowctl.h"
#include "run/lattgt.h"
#include "run/ioerr.h"
#include "run/resid.h"
#include "lib/timeutil.h"


/* account() with disable_lat/clat/slat (gtod_reduce: all three): the
 * counters, and only the latencies still asked for */
static void __attribute__((noinline)) account_lite(struct sb_thread *t, struct sb_loopstate *ls,
						   const struct sb_io_u *io, bool async)
{
	const struct sb_jobspec *s = t->spec;
	struct sb_tstats *st = t->st;
	int d = io->ddir;
	if (d >= SB_DDIR_N) {
		if (!s->gtod_reduce)
			sb_stat_add(&st->sync_lat, ls->now - io->start_ns);
		return;
	}
	uint64_t bytes = (uint64_t)io->result;
	st->short_ios[d] += bytes < io->len;
	st->io_bytes[d] += bytes;
	st->total_ios[d]++;
	atomic_store_explicit(&st->live_bytes[d], st->io_bytes[d], memory_order_relaxed);
	atomic_store_explicit(&st->live_ios[d], st->total_ios[d], memory_order_relaxed);
	uint64_t lat = 0, slat = 0, clat = 0;
	if (!s->gtod_reduce) {
		lat = ls->now - io->start_ns;
		clat = lat;
		if (async) {
			slat = io->issue_ns - io->start_ns;
			clat = ls->now - io->issue_ns;
		}
		if (async && !s->disable_slat) {
			sb_stat_add(&st->slat[d], slat);
			sb_hist_add(&st->live_h->slat_h[d], slat);
		}
		if (!s->disable_clat) {
			sb_stat_add(&st->clat[d], clat);
			sb_hist_add(&st->live_h->clat_h[d], clat);
		}
		if (!s->disable_lat && (async || s->disable_clat)) {
			sb_stat_add(&st->lat[d], lat);
			sb_hist_add(&st->live_h->lat_h[d], lat);
		}
		if (st->prio_live && d < SB_PRIO_DIRS &&
		    (st->prio_lat ? !s->disable_lat : !s->disable_clat))
			sb_tstats_prio_add(st, d, (uint16_t)io->ioprio, st->prio_lat ? lat : clat);
		if (lat > t->max_lat_ns)
			sb_ioloop_late(t, ls, io, lat);
	}
	SB_ILAT_BUMP(t->ilat->d[d].ios, 1);
	SB_ILAT_BUMP(t->ilat->d[d].bytes, bytes);
	if (t->logring) {
		struct sb_iolog_ent e = { ls->now, io->offset, clat, slat, lat, (uint32_t)bytes,
					  (uint32_t)d, io->file->index, (uint16_t)io->ioprio };
		sb_iolog_push(t->logring, &e);
	}
}

static inline void account(struct sb_thread *t, struct sb_loopstate *ls, struct sb_io_u *io,
			   bool async)
{
	int d = io->ddir;
	struct sb_tstats *st = t->st;
	/* io is whole here (run/resid.h): a write still short made no progress
	 * (its last part moved 0 bytes) or was cut: an error */
	if (__builtin_expect(io->result <= 0 || (d == SB_DDIR_WRITE && (uint64_t)io->result <
						  io->len), 0) && (io->result < 0 || io->len) &&
	    !(io->result == 0 && d == SB_DDIR_READ && t->check_eof)) {
		sb_ioloop_error(t, ls, io);
		return;
	}
	if (t->io_check && (d == SB_DDIR_READ || (d == SB_DDIR_WRITE && t->check_writes)) &&
	    !t->io_check(t, io))
		ls->stop = true;
	if (!ls->counting)
		return;
	if (t->trace) /* write_trace: a fixed-size record, sampled (stats/trace.h) */
		sb_trace_io(t->trace, (unsigned)d, io->file ? io->file->index : UINT_MAX, io->offset,
			    io->len, io->result, io->start_ns, ls->now);
	if (__builtin_expect(t->stats_lite, 0)) {
		account_lite(t, ls, io, async);
		return;
	}
	uint64_t lat = ls->now - io->start_ns;
	if (__builtin_expect(lat > t->max_lat_ns, 0))
		sb_ioloop_late(t, ls, io, lat);
	if (d >= SB_DDIR_N) {
		sb_stat_add(&st->sync_lat, lat);
		sb_hist_add(&st->live_h->sync_h, lat);
		return;
	}
	uint64_t bytes = (uint64_t)io->result;
	st->short_ios[d] += bytes < io->len;
	st->io_bytes[d] += bytes;
	st->total_ios[d]++;
	atomic_store_explicit(&st->live_bytes[d], st->io_bytes[d], memory_order_relaxed);
	atomic_store_explicit(&st->live_ios[d], st->total_ios[d], memory_order_relaxed);
	uint64_t slat = 0, clat = lat;
	if (async) {
		slat = io->issue_ns - io->start_ns;
		clat = ls->now - io->issue_ns;
		sb_stat_add(&st->slat[d], slat);
		sb_hist_add(&st->live_h->slat_h[d], slat);
		sb_stat_add(&st->clat[d], clat);
		sb_hist_add(&st->live_h->clat_h[d], clat);
		sb_stat_add(&st->lat[d], lat);
		sb_hist_add(&st->live_h->lat_h[d], lat);
	} else { /* lat == clat: copied at the end of the thread */
		sb_stat_add(&st->clat[d], lat);
		sb_hist_add(&st->live_h->clat_h[d], lat);
	}
	if (st->prio_live && d < SB_PRIO_DIRS)
		sb_tstats_prio_add(st, d, (uint16_t)io->ioprio, st->prio_lat ? lat : clat);
	sb_ilat_add(t->ilat, d, bytes, clat, slat, lat);
	if (t->logring) {
		struct sb_iolog_ent e = { ls->now, io->offset, clat, slat, lat, (uint32_t)bytes,
					  (uint32_t)d, io->file->index, (uint16_t)io->ioprio };
		sb_iolog_push(t->logring, &e);
	}
}

/* after completions at ls->now: ramp end and think time */
static inline void after_completions(struct sb_thread *t, struct sb_loopstate *ls, unsigned n)
{
	if (!ls->counting && ls->now >= ls->ramp_end)
		sb_ioloop_begin_counting(t, ls, ls->now);
	if (t->spec->thinktime_us)
		sb_think_after(t, ls, n);
	if (__builtin_expect(t->etd.think_ns != 0, 0)) { /* the engine's pause (cpuio) */
		sb_sleep_until(ls->now + t->etd.think_ns);
		t->etd.think_ns = 0;
		ls->now = sb_now_ns();
	}
}

/* the deadline is ls->wake's latest value; sb_ctl_tick sees to the rest
 * (run/flowctl.h) */
static inline bool keep_going(struct sb_thread *t, struct sb_loopstate *ls)
{
	if (__builtin_expect(ls->now >= ls->wake, 0) && !sb_ctl_tick(t, ls))
		return false;
	return !ls->stop && !sb_stopping();
}

/* flow: wait while the thread is ahead of its share */
static bool __attribute__((noinline)) flow_wait(struct sb_thread *t, struct sb_loopstate *ls)
{
	while (!sb_ctl_flow_ok(t)) {
		ls->now = sb_now_ns();
		if (!keep_going(t, ls))
			return false;
	}
	return true;
}

/* a sync engine's io completed short: its rests, queued again until it is
 * whole (run/resid.h); returns the status of the last part */
static enum sb_q_status __attribute__((noinline)) sync_rest(const struct sb_engine_ops *ops,
							    struct sb_engine_td *etd,
							    struct sb_io_u *io)
{
	enum sb_q_status q;
	do
		q = ops->queue(etd, io);
	while (q == SB_Q_COMPLETED && sb_resid_next(io));
	sb_resid_end(io);
	return q;
}

/* wait until direction d may issue; false when the run ends first */
static inline bool rate_wait(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io)
{
	if (!t->rate.on)
		return true;
	if (t->ctl.flow && !flow_wait(t, ls))
		return false;
	uint64_t due = sb_rate_due(&t->rate, io->ddir);
	if (due > ls->deadline) { /* fio: the job waits out its runtime */
		if (ls->deadline > ls->now)
			(void)sb_sleep_until(ls->deadline);
		return false;
	}
	if (due > ls->now && !sb_sleep_until(due))
		return false;
	sb_rate_charge(&t->rate, io->ddir, io->len);
	return true;
}

static void loop_sync(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_io_u *io = &t->etd.ios[0];
	struct sb_tstats *st = t->st;
	const struct sb_engine_ops *ops = t->ops;
	unsigned b1 = t->batch1_bucket, l1 = t->lvl_bucket[1];
	while (keep_going(t, ls) && sb_iogen_next(&t->gen, io)) {
		if (!rate_wait(t, ls, io))
			break;
		if (t->io_prep && io->ddir == SB_DDIR_WRITE)
			t->io_prep(t, io);
		io->start_ns = sb_now_ns();
		enum sb_q_status q = ops->queue(&t->etd, io);
		if (__builtin_expect(q == SB_Q_COMPLETED && sb_resid_next(io), 0))
			q = sync_rest(ops, &t->etd, io);
		ls->now = sb_now_ns();
		if (__builtin_expect(q != SB_Q_COMPLETED, 0)) {
			io->result = -EINVAL; /* a sync engine must complete in queue() */
			sb_ioloop_error(t, ls, io);
			break;
		}
		if (ls->counting) {
			st->iodepth_level[l1]++;
			st->iodepth_submit[b1]++;
			st->iodepth_complete[b1]++;
		}
		account(t, ls, io, false);
		after_completions(t, ls, 1);
	}
}

/* gtod_reduce with a synchronous engine, no rate and no think time: no
 * timestamps per I/O, the clock read every 64 I/Os for the deadline and
 * the controls (fio's gtod_reduce does the same: coarse time, no
 * latencies) */
#define SB_LITE_CLOCK_EVERY 64u
static void loop_sync_lite(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_io_u *io = &t->etd.ios[0];
	struct sb_tstats *st = t->st;
	const struct sb_engine_ops *ops = t->ops;
	unsigned b1 = t->batch1_bucket, l1 = t->lvl_bucket[1], n = 0;
	while (keep_going(t, ls) && sb_iogen_next(&t->gen, io)) {
		if (t->io_prep && io->ddir == SB_DDIR_WRITE)
			t->io_prep(t, io);
		io->start_ns = ls->now;
		enum sb_q_status q = ops->queue(&t->etd, io);
		if (__builtin_expect(q == SB_Q_COMPLETED && sb_resid_next(io), 0))
			q = sync_rest(ops, &t->etd, io);
		if (__builtin_expect(q != SB_Q_COMPLETED, 0)) {
			io->result = -EINVAL;
			sb_ioloop_error(t, ls, io);
			break;
		}
		if (!(++n % SB_LITE_CLOCK_EVERY))
			ls->now = sb_now_ns();
		if (ls->counting) {
			st->iodepth_level[l1]++;
			st->iodepth_submit[b1]++;
			st->iodepth_complete[b1]++;
		}
		account(t, ls, io, false);
		if (!ls->counting && ls->now >= ls->ramp_end)
			sb_ioloop_begin_counting(t, ls, ls->now);
	}
	ls->now = sb_now_ns();
}

/* the async loop's bookkeeping */
struct aq {
	unsigned depth, batch, cmin, cmax;
	unsigned nfree;               /* t->freel[0..nfree) are free */
	unsigned nunc;                /* t->uncommitted[0..nunc) await commit */
	struct sb_io_u *pending;      /* generated, not queued yet */
	bool pending_charged;         /* its rate was charged (BUSY retry) */
	bool more;                    /* the generator may have more */
	unsigned low;                 /* iodepth_low: a full queue drains to this; depth: off */
	bool draining;
	/* serialize_overlap=1: busy[i] while t->etd.ios[i] is queued or in
	 * flight; NULL when off (the only per-I/O cost then is the test) */
	unsigned char *busy;
	/* the rests of short transfers (run/resid.h), to queue again before
	 * anything new: still counted in ls->inflight (t->requeue, nios) */
	struct sb_io_u **req;
	unsigned nreq;
};

/* serialize_overlap: io overlaps a queued or in-flight I/O of its file */
static bool __attribute__((noinline)) overlaps(const struct sb_thread *t, const struct aq *q,
					       const struct sb_io_u *io)
{
	for (unsigned i = 0; i < t->etd.nios; i++) {
		const struct sb_io_u *o = &t->etd.ios[i];
		if (q->busy[i] && o->file == io->file && o->offset < io->offset + io->len &&
		    io->offset < o->offset + o->len)
			return true;
	}
	return false;
}

static void commit_batch(struct sb_thread *t, struct sb_loopstate *ls, struct aq *q)
{
	if (!q->nunc)
		return;
	int r = t->ops->commit ? t->ops->commit(&t->etd) : 0;
	ls->now = sb_now_ns();
	if (r < 0) { /* nothing of the batch is in flight */
		struct sb_io_u *io = t->uncommitted[0];
		io->result = r;
		sb_resid_end(io);
		sb_ioloop_error(t, ls, io);
		for (unsigned i = 0; i < q->nunc; i++) {
			sb_resid_end(t->uncommitted[i]);
			t->freel[q->nfree++] = t->uncommitted[i];
		}
		ls->inflight -= q->nunc;
		q->nunc = 0;
		return;
	}
	for (unsigned i = 0; i < q->nunc; i++)
		t->uncommitted[i]->issue_ns = ls->now;
	if (ls->counting)
		t->st->iodepth_submit[sb_depth_batch_bucket(q->nunc)]++;
	q->nunc = 0;
}

/* the next io unit to queue, or NULL when there is nothing (more) to do now */
static struct sb_io_u *next_io(struct sb_thread *t, struct sb_loopstate *ls, struct aq *q)
{
	struct sb_io_u *io = q->pending;
	if (!keep_going(t, ls)) {
		q->more = false;
		if (io && !sb_stopping() && !t->gen.span) /* a pause: the next loop queues it */
			t->carry = io;
		else if (io)
			t->freel[q->nfree++] = io;
		q->pending = NULL;
		return NULL;
	}
	if (!io) {
		if (!q->more)
			return NULL;
		io = t->freel[--q->nfree];
		if (!sb_iogen_next(&t->gen, io)) {
			q->nfree++;
			q->more = false;
			return NULL;
		}
		q->pending_charged = false;
		if (t->io_prep && io->ddir == SB_DDIR_WRITE)
			t->io_prep(t, io);
	}
	q->pending = NULL;
	if (io->ddir >= SB_DDIR_N && ls->inflight) { /* fsync after the writes before it */
		q->pending = io;
		return NULL;
	}
	if (q->busy && ls->inflight && overlaps(t, q, io)) { /* serialize_overlap: wait */
		q->pending = io;
		return NULL;
	}
	if (!q->pending_charged && !rate_wait(t, ls, io)) {
		t->freel[q->nfree++] = io;
		q->more = false;
		return NULL;
	}
	return io;
}

/* an io unit in flight completed for good: counted, its slot free */
static inline void complete(struct sb_thread *t, struct sb_loopstate *ls, struct aq *q,
			    struct sb_io_u *io)
{
	sb_resid_end(io);
	account(t, ls, io, true);
	t->freel[q->nfree++] = io;
	ls->inflight--;
	if (q->busy)
		q->busy[io - t->etd.ios] = 0;
}

/* the rests of short transfers, queued again through the engine (their
 * slots are in flight, so the engine has room unless others hold it) */
static void __attribute__((noinline)) requeue(struct sb_thread *t, struct sb_loopstate *ls,
					      struct aq *q)
{
	while (q->nreq) {
		struct sb_io_u *io = q->req[q->nreq - 1];
		enum sb_q_status s = t->ops->queue(&t->etd, io);
		if (s == SB_Q_QUEUED) {
			q->nreq--;
			t->uncommitted[q->nunc++] = io;
			if (q->nunc >= q->batch)
				commit_batch(t, ls, q);
			continue;
		}
		if (s == SB_Q_BUSY && ls->inflight > q->nreq)
			return; /* after the next completions */
		if (s == SB_Q_BUSY)
			io->result = -EBUSY; /* nothing in the engine to wait for */
		else if (sb_resid_next(io))
			continue; /* completed in queue(), short again */
		q->nreq--;
		ls->now = sb_now_ns();
		complete(t, ls, q, io);
		after_completions(t, ls, 1);
	}
}

static void fill(struct sb_thread *t, struct sb_loopstate *ls, struct aq *q)
{
	struct sb_tstats *st = t->st;
	if (__builtin_expect(q->nreq, 0))
		requeue(t, ls, q);
	while (ls->inflight < q->depth) {
		struct sb_io_u *io = next_io(t, ls, q);
		if (!io)
			return;
		io->start_ns = sb_now_ns();
		enum sb_q_status s = t->ops->queue(&t->etd, io);
		if (s == SB_Q_BUSY) {
			q->pending = io;
			q->pending_charged = true;
			return;
		}
		if (s == SB_Q_COMPLETED) {
			ls->now = sb_now_ns();
			io->issue_ns = io->start_ns;
			if (ls->counting)
				st->iodepth_level[t->lvl_bucket[ls->inflight + 1]]++;
			if (__builtin_expect(sb_resid_next(io), 0)) { /* its rest: in flight */
				ls->inflight++;
				if (q->busy)
					q->busy[io - t->etd.ios] = 1;
				q->req[q->nreq++] = io;
				continue;
			}
			account(t, ls, io, true);
			t->freel[q->nfree++] = io;
			after_completions(t, ls, 1);
			continue;
		}
		ls->inflight++;
		t->uncommitted[q->nunc++] = io;
		if (q->busy)
			q->busy[io - t->etd.ios] = 1;
		if (ls->counting)
			st->iodepth_level[t->lvl_bucket[ls->inflight]]++;
		if (q->nunc >= q->batch)
			commit_batch(t, ls, q);
	}
}

static void reap(struct sb_thread *t, struct sb_loopstate *ls, struct aq *q)
{
	if (__builtin_expect(q->nreq, 0)) { /* rests first: the drains wait for them too */
		requeue(t, ls, q);
		commit_batch(t, ls, q);
		if (!ls->inflight)
			return;
	}
	unsigned min = q->cmin, max = q->cmax;
	if (min > ls->inflight)
		min = ls->inflight;
	if (!min && (ls->inflight >= q->depth || !q->more || q->pending || q->draining || q->nreq))
		min = 1; /* nothing else to do: wait for one */
	if (max > ls->inflight)
		max = ls->inflight;
	if (max < min)
		max = min;
	int n = t->ops->getevents(&t->etd, min, max, NULL);
	ls->now = sb_now_ns();
	if (n < 0) {
		struct sb_io_u fake = { .ddir = SB_DDIR_READ, .result = n };
		sb_ioloop_error(t, ls, &fake);
		ls->inflight = 0; /* the engine lost them: cleanup() reclaims */
		q->nreq = 0;
		return;
	}
	if (ls->counting && n)
		t->st->iodepth_complete[sb_depth_batch_bucket((unsigned)n)]++;
	unsigned done = 0;
	for (int i = 0; i < n; i++) {
		struct sb_io_u *io = t->ops->event(&t->etd, (unsigned)i);
		if (__builtin_expect(sb_resid_next(io), 0)) {
			q->req[q->nreq++] = io; /* short: its rest goes out first */
			continue;
		}
		complete(t, ls, q, io);
		done++;
	}
	if (done)
		after_completions(t, ls, done);
}

/* latency_target (run/lattgt.h): its depth; after a ramp-down, a drain */
static void __attribute__((noinline)) lat_depth(struct sb_thread *t, struct sb_loopstate *ls,
						struct aq *q)
{
	for (q->draining = true; t->lt.quiesce && ls->inflight && !ls->stop;)
		reap(t, ls, q);
	q->draining = false;
	q->depth = sb_lat_depth(t, ls);
}

static void loop_async(struct sb_thread *t, struct sb_loopstate *ls)
{
	const struct sb_jobspec *s = t->spec;
	struct aq q = {
		.depth = t->etd.iodepth,
		.batch = s->iodepth_batch_submit ? s->iodepth_batch_submit : t->etd.iodepth,
		.cmin = s->iodepth_batch_complete_min,
		.cmax = s->iodepth_batch_complete_max, /* resolved by the parser (fio's rule) */
		.more = true,
		.low = s->iodepth_low && s->iodepth_low < t->etd.iodepth ? s->iodepth_low : t->etd.iodepth,
		.req = t->requeue,
	};
	if (q.batch > q.depth)
		q.batch = q.depth;
	/* every unit is idle here (a loop ends with none in flight): all free
	 * but one made before a pause, which stays out (a verify pass in the
	 * pause must not reuse its buffer) and is queued first when the job's
	 * own loop goes on */
	q.nfree = 0;
	for (unsigned i = 0; i < t->etd.nios; i++)
		if (&t->etd.ios[i] != t->carry)
			t->freel[q.nfree++] = &t->etd.ios[i];
	if (t->carry && !t->gen.span) {
		q.pending = t->carry;
		t->carry = NULL;
	}
	if (s->serialize_overlap && q.depth > 1 && !(q.busy = calloc(t->etd.nios, 1))) {
		sb_tstats_set_error(t->st, ENOMEM, "serialize_overlap", NULL);
		ls->stop = true;
		return;
	}
	for (;;) {
		if (__builtin_expect(t->lt.on, 0))
			lat_depth(t, ls, &q);
		fill(t, ls, &q);
		commit_batch(t, ls, &q);
		if (!ls->inflight) {
			if (q.pending && q.pending_charged && keep_going(t, ls)) {
				/* BUSY with nothing in flight would spin forever */
				q.pending->result = -EBUSY;
				sb_ioloop_error(t, ls, q.pending);
			}
			if (!q.pending || !keep_going(t, ls))
				break;
			continue;
		}
		q.draining = q.low < q.depth && ls->inflight >= q.depth; /* fio's iodepth_low */
		reap(t, ls, &q);
		while (q.draining && ls->inflight > q.low && !ls->stop)
			reap(t, ls, &q);
		q.draining = false;
	}
	for (unsigned i = 0; i < t->etd.nios; i++) /* units the engine lost (reap) */
		sb_resid_end(&t->etd.ios[i]);
	free(q.busy);
}

/* offload's job thread (run/offload.c): the steps above, not inlined there */
bool sb_ioloop_go(struct sb_thread *t, struct sb_loopstate *ls) { return keep_going(t, ls); }
bool sb_ioloop_rate(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io)
{ return rate_wait(t, ls, io); }
void sb_ioloop_done(struct sb_thread *t, struct sb_loopstate *ls, struct sb_io_u *io)
{ account(t, ls, io, true); }
void sb_ioloop_after(struct sb_thread *t, struct sb_loopstate *ls, unsigned n)
{ after_completions(t, ls, n); }

void sb_ioloop_run(struct sb_thread *t, struct sb_loopstate *ls)
{
	const struct sb_jobspec *s = t->spec;
	if ((t->ops->flags & SB_ENGINE_SYNC) && s->gtod_reduce && !t->rate.on && !s->thinktime_us &&
	    !(t->ops->flags & SB_ENGINE_NOIO)) /* cpuio thinks between its I/Os */
		loop_sync_lite(t, ls);
	else if (t->ops->flags & SB_ENGINE_SYNC)
		loop_sync(t, ls);
	else {
		t->inflight = &ls->inflight; /* iomem=cudamalloc: copies overlapping I/O */
		loop_async(t, ls);
		t->inflight = NULL;
	}
}
