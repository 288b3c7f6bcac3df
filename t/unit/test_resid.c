/* test_resid.c: short transfers completed by the I/O loop for every engine
 * (run/resid.h), against a fake engine over an in-memory file that moves
 * fewer bytes than asked on a seeded third of its calls: synchronous
 * (completes in queue()) and queueing (commit/getevents, some completions
 * inline, BUSY now and then, also for a rest).  The rule: every byte of
 * every I/O moved exactly once, at its own offset, from its own place in
 * the buffer; exact byte and I/O counts, no short I/O left; a rest that
 * moves nothing on a write is EIO ("short write"), a rest that fails is
 * that error, both at the whole I/O's offset and length. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/run.h"
#include "run/thread.h"
#include "harness.h"
#include "parse/parse.h"

struct sb_jobspec sb_test_default_spec(void);

#define RSIZE (4u << 20)
#define RMAX 64
static struct {
	unsigned char wcount[RSIZE]; /* how often each byte was written */
	struct sb_io_u *queued[RMAX], *inflight[RMAX], *done[RMAX];
	unsigned nq, nin;
	char *base[RMAX];           /* each unit's buffer when its I/O began */
	uint64_t end[RMAX];         /* and the I/O's end offset */
	uint64_t rnd, calls, parts, shorts, fresh;
	unsigned bad;               /* a rest at the wrong offset, buffer place or length */
	uint64_t zero_at, fail_at;  /* the rest of this fresh I/O moves 0 / fails with EFBIG */
	unsigned char kind[RMAX];   /* each unit's I/O: 1 zero_at's, 2 fail_at's, 0 other */
} rf;

/* one part of io: the bytes it moves (or -errno) */
static int64_t rf_part(struct sb_io_u *io)
{
	unsigned k = io->index;
	if (!io->xfer_done) { /* a fresh I/O */
		rf.base[k] = io->buf;
		rf.end[k] = io->offset + io->len;
		rf.fresh++;
		rf.kind[k] = rf.fresh == rf.zero_at ? 1 : rf.fresh == rf.fail_at ? 2 : 0;
	} else if ((char *)io->buf - rf.base[k] != (ptrdiff_t)io->xfer_done ||
		   io->offset + io->len != rf.end[k] || !io->len) {
		rf.bad++;
	}
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE)
		return 0;
	rf.parts++;
	rf.rnd = rf.rnd * 6364136223846793005ull + 1442695040888963407ull;
	uint64_t r = rf.rnd >> 33, n = io->len;
	bool special = rf.kind[k] != 0;
	if (special && io->xfer_done)
		return rf.kind[k] == 2 ? -EFBIG : 0;
	if (n > 1 && (special || r % 3 == 0)) {
		n = 1 + r % (n - 1);
		rf.shorts++;
	}
	if (io->offset + n > RSIZE)
		return -EINVAL;
	if (io->ddir == SB_DDIR_WRITE)
		for (uint64_t i = 0; i < n; i++)
			rf.wcount[io->offset + i]++;
	return (int64_t)n;
}

static enum sb_q_status rs_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	(void)td;
	io->result = rf_part(io);
	return SB_Q_COMPLETED;
}

static enum sb_q_status ra_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	if (++rf.calls % 5 == 0 && rf.nq + rf.nin > 0)
		return SB_Q_BUSY;
	if (rf.nq + rf.nin >= td->iodepth)
		return SB_Q_BUSY;
	io->result = rf_part(io);
	if (rf.calls % 7 == 0)
		return SB_Q_COMPLETED;
	rf.queued[rf.nq++] = io;
	return SB_Q_QUEUED;
}

static int ra_commit(struct sb_engine_td *td)
{
	(void)td;
	for (unsigned i = 0; i < rf.nq; i++)
		rf.inflight[rf.nin++] = rf.queued[i];
	rf.nq = 0;
	return 0;
}

static int ra_getevents(struct sb_engine_td *td, unsigned min, unsigned max, const struct timespec *t)
{
	(void)td;
	(void)t;
	(void)min;
	unsigned n = rf.nin < max ? rf.nin : max;
	for (unsigned i = 0; i < n; i++)
		rf.done[i] = rf.inflight[i];
	memmove(rf.inflight, rf.inflight + n, (rf.nin - n) * sizeof(rf.inflight[0]));
	rf.nin -= n;
	return (int)n;
}

static struct sb_io_u *ra_event(struct sb_engine_td *td, unsigned i)
{
	(void)td;
	return rf.done[i];
}

static const struct sb_engine_ops sync_ops = {
	.name = "rsync", .flags = SB_ENGINE_NODISKIO | SB_ENGINE_SYNC, .queue = rs_queue,
};
static const struct sb_engine_ops async_ops = {
	.name = "rasync", .flags = SB_ENGINE_NODISKIO,
	.queue = ra_queue, .commit = ra_commit, .getevents = ra_getevents, .event = ra_event,
};

static void run_resid(struct sb_jobspec *s, struct sb_thread *t, const struct sb_engine_ops *ops,
		      uint64_t zero_at, uint64_t fail_at)
{
	static unsigned left[1];
	static struct sb_runsync sy = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, left };
	static struct sb_file tmpl;
	struct sb_jobfiles jf = { .nthreads = 1, .nfiles = 1, .tmpl = &tmpl };
	memset(&rf, 0, sizeof(rf));
	rf.rnd = 42;
	rf.zero_at = zero_at;
	rf.fail_at = fail_at;
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.path = (char *)"fake";
	tmpl.fd = -1;
	tmpl.region_len = tmpl.size = s->size;
	memset(t, 0, sizeof(*t));
	t->spec = s;
	t->ops = ops;
	t->sync = &sy;
	t->wait_job = -1;
	left[0] = 1;
	sb_stop_clear();
	snprintf(s->ioengine, sizeof(s->ioengine), "%s", ops->name);
	sb_spec_derive(s);
	CU_ASSERT_EQUAL_FATAL(sb_thread_setup(t, &jf), 0);
	sb_thread_main(t);
}

/* every engine kind x loop: sequential writes (each byte once), mixed */
static void test_short_completed(void)
{
	const struct sb_engine_ops *ops[] = { &sync_ops, &async_ops };
	for (unsigned e = 0; e < 2; e++) {
		for (unsigned v = 0; v < 4; v++) {
			struct sb_jobspec s = sb_test_default_spec();
			struct sb_thread t;
			s.rw = v & 1 ? SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM : SB_RW_WRITE;
			s.size = RSIZE;
			for (int d = 0; d < SB_DDIR_N; d++)
				s.bs[d] = s.bs_min[d] = s.bs_max[d] = v < 2 ? 4096 : 65536;
			s.iodepth = e ? 8 : 1;
			s.iodepth_batch_submit = e ? 3 : 1;
			s.iodepth_batch_complete_max = e ? 8 : 1;
			s.gtod_reduce = v == 2; /* the sync loop's lite form */
			run_resid(&s, &t, ops[e], 0, 0);
			const struct sb_tstats *st = t.st;
			uint64_t n = RSIZE / s.bs[0];
			CU_ASSERT_EQUAL(st->error, 0);
			CU_ASSERT_EQUAL(rf.bad, 0);
			CU_ASSERT_TRUE(rf.shorts > n / 8); /* a third of the parts, less the 1-byte ones */
			CU_ASSERT_EQUAL(st->io_bytes[0] + st->io_bytes[1], RSIZE);
			CU_ASSERT_EQUAL(st->total_ios[0] + st->total_ios[1], n);
			CU_ASSERT_EQUAL(st->short_ios[0] + st->short_ios[1], 0);
			CU_ASSERT_EQUAL(rf.nin + rf.nq, 0);
			uint64_t once = 0, written = 0;
			for (uint64_t i = 0; i < RSIZE; i++) {
				once += rf.wcount[i] == 1;
				written += rf.wcount[i];
			}
			CU_ASSERT_EQUAL(written, st->io_bytes[1]); /* nothing moved twice */
			if (!(v & 1))
				CU_ASSERT_EQUAL(once, RSIZE);
			sb_thread_teardown(&t);
		}
	}
}

/* the rest of the 40th I/O moves nothing (EIO, "short write") or fails
 * (EFBIG): the job ends with it, named at the whole I/O */
static void test_short_then_zero_or_error(void)
{
	const struct sb_engine_ops *ops[] = { &sync_ops, &async_ops };
	for (unsigned e = 0; e < 2; e++) {
		for (unsigned fail = 0; fail < 2; fail++) {
			struct sb_jobspec s = sb_test_default_spec();
			struct sb_thread t;
			s.rw = SB_RW_WRITE;
			s.size = RSIZE;
			for (int d = 0; d < SB_DDIR_N; d++)
				s.bs[d] = s.bs_min[d] = s.bs_max[d] = 8192;
			s.iodepth = e ? 4 : 1;
			strcpy(s.name, "rjob");
			run_resid(&s, &t, ops[e], fail ? 0 : 40, fail ? 40 : 0);
			const struct sb_tstats *st = t.st;
			CU_ASSERT_EQUAL(st->error, fail ? EFBIG : EIO);
			CU_ASSERT_STRING_EQUAL(st->err.op, fail ? "write" : "short write");
			CU_ASSERT_EQUAL(st->err.offset % 8192, 0);
			CU_ASSERT_EQUAL(st->err.len, 8192);
			CU_ASSERT_EQUAL(rf.bad, 0);
			CU_ASSERT_EQUAL(st->short_ios[1], 0);
			CU_ASSERT_TRUE(st->io_bytes[1] < RSIZE);
			CU_ASSERT_EQUAL(st->io_bytes[1] % 8192, 0); /* the failed I/O not counted */
			CU_ASSERT_EQUAL(rf.nin + rf.nq, 0);
			sb_thread_teardown(&t);
		}
	}
}

static CU_TestInfo tests[] = {
	{ "short transfers completed, sync and queueing engines", test_short_completed },
	{ "a rest that moves nothing or fails ends the job", test_short_then_zero_or_error },
	CU_TEST_INFO_NULL,
};
SB_SUITE(resid, tests)
