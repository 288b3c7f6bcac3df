/* test_core_async.c: the core's submit/reap loop against a fake queueing
 * engine (what libaio and io_uring plug into): depth, batching, BUSY,
 * inline completions, slat/clat, and I/O errors stopping the job. */
#include <stdio.h>
#include <string.h>

#include "run/run.h"
#include "run/thread.h"
#include "harness.h"
#include "parse/parse.h"

struct sb_jobspec sb_test_default_spec(void);

#define FMAX 64
static struct {
	struct sb_io_u *queued[FMAX], *inflight[FMAX], *done[FMAX];
	unsigned nq, nin, ndone;
	unsigned calls, busy_given, inline_done, max_depth, bad_min, ios;
	unsigned fail_at;  /* 1-based io number that fails with EIO; 0 = none */
} fk;

static enum sb_q_status fk_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	fk.calls++;
	if (fk.calls % 5 == 0 && fk.nq + fk.nin > 0) {
		fk.busy_given++;
		return SB_Q_BUSY;
	}
	if (fk.nq + fk.nin >= td->iodepth)
		return SB_Q_BUSY;
	fk.ios++;
	io->result = fk.ios == fk.fail_at ? -5 : (int64_t)io->len;
	if (fk.calls % 11 == 0) {
		fk.inline_done++;
		return SB_Q_COMPLETED;
	}
	fk.queued[fk.nq++] = io;
	return SB_Q_QUEUED;
}

static int fk_commit(struct sb_engine_td *td)
{
	(void)td;
	for (unsigned i = 0; i < fk.nq; i++)
		fk.inflight[fk.nin++] = fk.queued[i];
	fk.nq = 0;
	if (fk.nin > fk.max_depth)
		fk.max_depth = fk.nin;
	return 0;
}

static int fk_getevents(struct sb_engine_td *td, unsigned min, unsigned max, const struct timespec *t)
{
	(void)td;
	(void)t;
	if (min > fk.nin || max < min)
		fk.bad_min++;
	unsigned n = fk.nin < max ? fk.nin : max;
	if (n < min)
		n = min > fk.nin ? fk.nin : min;
	for (unsigned i = 0; i < n; i++)
		fk.done[i] = fk.inflight[i];
	memmove(fk.inflight, fk.inflight + n, (fk.nin - n) * sizeof(fk.inflight[0]));
	fk.nin -= n;
	fk.ndone = n;
	return (int)n;
}

static struct sb_io_u *fk_event(struct sb_engine_td *td, unsigned i)
{
	(void)td;
	return fk.done[i];
}

static const struct sb_engine_ops fake_ops = {
	.name = "fake", .flags = SB_ENGINE_NODISKIO,
	.queue = fk_queue, .commit = fk_commit, .getevents = fk_getevents, .event = fk_event,
};

static void run_fake(struct sb_jobspec *s, struct sb_thread *t)
{
	static unsigned left[1];
	static struct sb_runsync sy = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, left };
	static struct sb_file tmpl;
	struct sb_jobfiles jf = { .nthreads = 1, .nfiles = 1, .tmpl = &tmpl };
	memset(&fk, 0, sizeof(fk));
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.path = (char *)"fake";
	tmpl.fd = -1;
	tmpl.region_len = tmpl.size = s->size;
	memset(t, 0, sizeof(*t));
	t->spec = s;
	t->ops = &fake_ops;
	t->sync = &sy;
	t->wait_job = -1;
	left[0] = 1;
	sb_stop_clear();
	snprintf(s->ioengine, sizeof(s->ioengine), "%s", fake_ops.name); /* asynchronous, unlike the default psync */
	sb_spec_derive(s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_thread_setup(t, &jf), 0);
	sb_thread_main(t);
}

static void test_async_loop(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_thread t;
	s.rw = SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM;
	s.size = 8 << 20;
	s.iodepth = 8;
	s.iodepth_batch_submit = 4;
	s.iodepth_batch_complete_min = 2;
	s.iodepth_batch_complete_max = 8;
	s.fsync = 16;
	run_fake(&s, &t);
	const struct sb_tstats *st = t.st;
	uint64_t ios = st->total_ios[0] + st->total_ios[1];
	CU_ASSERT_EQUAL(st->error, 0);
	CU_ASSERT_EQUAL(st->io_bytes[0] + st->io_bytes[1], 8 << 20);
	CU_ASSERT_EQUAL(ios, 2048);
	CU_ASSERT_EQUAL(st->slat[0].n + st->slat[1].n, ios);
	CU_ASSERT_EQUAL(st->clat[0].n + st->clat[1].n, ios);
	CU_ASSERT_EQUAL(st->live_h->lat_h[0].n + st->live_h->lat_h[1].n, ios); /* a thread counts into its dense histograms */
	CU_ASSERT_TRUE(st->lat[0].max >= st->clat[0].max);
	CU_ASSERT_TRUE(st->sync_lat.n >= st->total_ios[1] / 16 - 1);
	CU_ASSERT_TRUE(fk.busy_given > 0 && fk.inline_done > 0);
	CU_ASSERT_TRUE(fk.max_depth <= 8 && fk.max_depth >= 4);
	CU_ASSERT_EQUAL(fk.bad_min, 0);
	CU_ASSERT_EQUAL(fk.nin + fk.nq, 0); /* nothing left in flight */
	CU_ASSERT_TRUE(st->iodepth_level[sb_depth_level_bucket(fk.max_depth)] > 0); /* deepest seen */
	CU_ASSERT_TRUE(st->iodepth_submit[1] > 0);      /* batches of 1-4 */
	CU_ASSERT_EQUAL(st->iodepth_complete[0], 0);    /* no empty reaps counted */
	sb_thread_teardown(&t);
}

static void test_async_io_error_stops_job(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_thread t;
	s.rw = SB_RW_WRITE;
	s.size = 8 << 20;
	s.iodepth = 4;
	strcpy(s.name, "errjob");
	fk.fail_at = 0;
	run_fake(&s, &t); /* fk is reset inside: set fail_at through a second run */
	sb_thread_teardown(&t);
	memset(&t, 0, sizeof(t));
	s.iodepth_batch_complete_max = 4;
	/* run again with a failure at the 100th I/O */
	{
		static unsigned left[1] = { 1 };
		static struct sb_runsync sy = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, left };
		static struct sb_file tmpl;
		struct sb_jobfiles jf = { .nthreads = 1, .nfiles = 1, .tmpl = &tmpl };
		memset(&fk, 0, sizeof(fk));
		fk.fail_at = 100;
		tmpl.path = (char *)"fake";
		tmpl.fd = -1;
		tmpl.region_len = tmpl.size = s.size;
		t.spec = &s;
		t.ops = &fake_ops;
		t.sync = &sy;
		t.wait_job = -1;
		snprintf(s.ioengine, sizeof(s.ioengine), "%s", fake_ops.name);
		sb_spec_derive(&s); /* as the parser does */
		CU_ASSERT_EQUAL_FATAL(sb_thread_setup(&t, &jf), 0);
		sb_thread_main(&t);
	}
	CU_ASSERT_EQUAL(t.st->error, 5);
	{ /* raw facts in the thread, described afterwards */
		char text[SB_ERRPATH_MAX + 256];
		CU_ASSERT_STRING_EQUAL(t.st->err.op, "write");
		CU_ASSERT_TRUE(t.st->err.at);
		CU_ASSERT_EQUAL(t.st->err.offset % 4096, 0);
		CU_ASSERT_STRING_EQUAL(t.st->err.path, "fake");
		sb_tstats_error_text(t.st, text, sizeof(text));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "write fake at offset "));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "(4096 bytes): Input/output error"));
	}
	CU_ASSERT_TRUE(fk.ios < 110); /* stopped at the error, drained the rest */
	CU_ASSERT_EQUAL(fk.nin + fk.nq, 0);
	sb_thread_teardown(&t);
}

static CU_TestInfo tests[] = {
	{ "submit/reap loop with a queueing engine", test_async_loop },
	{ "an I/O error stops the job and names it", test_async_io_error_stops_job },
	CU_TEST_INFO_NULL,
};
SB_SUITE(core_async, tests)
