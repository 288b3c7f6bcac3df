/* test_engines.c: the engine conformance suite.  Every engine in sb_engines[]
 * is driven through engine_driver.c the way run/ drives it, and must: write
 * data that reads back byte-identical through every other engine, at iodepth
 * 1 and 16, buffered (tmpfs) and O_DIRECT (ext4 under /tmp); return short
 * reads at end of file; report an error injected in the middle of a queue on
 * that io unit alone, without hanging; and (async engines) really hold
 * iodepth=32 requests in flight; and serve phases that each run on a new
 * thread with a new instance (as the ML workloads do).  (Engine options: test_engine_options.c.)
 * Engines whose .queue is NULL (local placeholders) are skipped, with a note.
 * Engines flagged SB_ENGINE_NODATA (an I/O changes allocation or size, no
 * data moves) skip the data checks and must instead: leave the bytes and
 * size of a file the run did not create as they were, whatever they are
 * asked (or refuse it at open); complete every request once, with its full
 * length or -errno; and do what their I/O means on a file the run made. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "engine_driver.h"
#include "harness.h"

#define BS 4096u
#define NBLK 64u

static bool data_engine(const struct sb_engine_ops *e)
{
	static char noted[16];
	if (!e->queue) {
		unsigned i = 0;
		while (sb_engines[i] && sb_engines[i] != e)
			i++;
		if (i < sizeof(noted) && !noted[i]++)
			printf("\n  engines: '%s' has no queue() in this build (placeholder): skipped\n", e->name);
		return false;
	}
	/* libcufile's data lands in GPU memory, not in io->buf, and needs
	 * libcuda.so.1 + libcufile.so.0: t/integration/test_gpu.py runs it
	 * against t/gpu's stubs */
	if (!strcmp(e->name, "libcufile"))
		return false;
	return !(e->flags & (SB_ENGINE_NODISKIO | SB_ENGINE_NODATA));
}

/* engines that touch files but move no data (falloc, ftruncate) */
static bool nodata_engine(const struct sb_engine_ops *e)
{
	return e->queue && (e->flags & SB_ENGINE_NODATA) && !(e->flags & SB_ENGINE_NODISKIO);
}

static bool async_engine(const struct sb_engine_ops *e)
{
	return data_engine(e) && !(e->flags & SB_ENGINE_SYNC) && e->getevents;
}

/* n requests of one direction over blocks visited in a stride order. */
static void fill_reqs(struct drv_req *q, unsigned n, int ddir, unsigned char *data, unsigned stride)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned blk = (i * stride) % n;
		q[i] = (struct drv_req){ .ddir = ddir, .off = (uint64_t)blk * BS, .len = BS,
					 .data = data + (size_t)blk * BS };
	}
}

/* Write NBLK blocks (with an fsync in the middle) through w. */
static void write_through(const struct sb_engine_ops *w, const char *path, bool direct,
			  unsigned char *src)
{
	struct drv d;
	struct drv_req q[NBLK + 1];
	drv_prepare(&d, w, 16);
	d.spec.direct = direct;
	fill_reqs(q, NBLK, SB_DDIR_WRITE, src, 7);
	memmove(&q[NBLK / 2 + 1], &q[NBLK / 2], (NBLK / 2) * sizeof(q[0]));
	q[NBLK / 2] = (struct drv_req){ .ddir = SB_DDIR_SYNC };
	CU_ASSERT_EQUAL_FATAL(drv_make_file(path, NBLK * BS), 0);
	CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 1), 0);
	CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, path, O_RDWR, NBLK * BS), 0);
	CU_ASSERT_EQUAL(drv_run(&d, q, NBLK + 1), 0);
	for (unsigned i = 0; i <= NBLK; i++)
		CU_ASSERT_EQUAL(q[i].result, q[i].ddir == SB_DDIR_SYNC ? 0 : (int64_t)BS);
	drv_finish(&d);
}

static void read_through(const struct sb_engine_ops *r, const char *path, bool direct,
			 unsigned depth, const unsigned char *want, const char *wname)
{
	struct drv d;
	struct drv_req q[NBLK];
	unsigned char *got = calloc(NBLK, BS);
	CU_ASSERT_FATAL(got != NULL);
	drv_prepare(&d, r, depth);
	d.spec.direct = direct;
	fill_reqs(q, NBLK, SB_DDIR_READ, got, 5);
	CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 1), 0);
	CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, path, O_RDONLY, NBLK * BS), 0);
	CU_ASSERT_EQUAL(drv_run(&d, q, NBLK), 0);
	for (unsigned i = 0; i < NBLK; i++)
		CU_ASSERT_EQUAL(q[i].result, (int64_t)BS);
	if (memcmp(got, want, (size_t)NBLK * BS)) {
		printf("\n  written by %s, read by %s (depth %u, direct %d): data differs\n",
		       wname, r->name, depth, direct);
		CU_FAIL("data read back differs from data written");
	}
	drv_finish(&d);
	free(got);
}

static void roundtrip_in(const char *dir, bool direct)
{
	unsigned char *src = malloc((size_t)NBLK * BS);
	char path[PATH_MAX];
	CU_ASSERT_FATAL(src != NULL);
	for (unsigned w = 0; sb_engines[w]; w++) {
		if (!data_engine(sb_engines[w]))
			continue;
		for (unsigned b = 0; b < NBLK; b++)
			drv_pattern(src + (size_t)b * BS, BS, w, b);
		snprintf(path, sizeof(path), "%s/rt-%s", dir, sb_engines[w]->name);
		write_through(sb_engines[w], path, direct, src);
		for (unsigned r = 0; sb_engines[r]; r++) {
			if (!data_engine(sb_engines[r]))
				continue;
			read_through(sb_engines[r], path, direct, 1, src, sb_engines[w]->name);
			read_through(sb_engines[r], path, direct, 16, src, sb_engines[w]->name);
		}
		unlink(path);
	}
	free(src);
}

static void test_roundtrip_buffered_tmpfs(void)
{
	roundtrip_in(drv_shm_dir(), false);
	drv_shm_dir_remove();
}

static void test_roundtrip_direct_disk(void)
{
	const char *dir = sb_test_tmpdir();
	if (!drv_direct_ok(dir)) {
		printf("\n  engines: %s has no O_DIRECT: direct round trip skipped\n", dir);
		return;
	}
	roundtrip_in(dir, true);
}

/* Reads that cross end of file return the bytes there are. */
static void short_read_in(const char *dir, bool direct)
{
	char path[PATH_MAX];
	unsigned char src[10000], got[2][BS];
	snprintf(path, sizeof(path), "%s/eof", dir);
	drv_pattern(src, sizeof(src), 99, 0);
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(pwrite(fd, src, sizeof(src), 0) == (ssize_t)sizeof(src));
	close(fd);
	for (unsigned e = 0; sb_engines[e]; e++) {
		struct drv d;
		struct drv_req q[2] = {
			{ .ddir = SB_DDIR_READ, .off = 2 * BS, .len = BS, .data = got[0] },
			{ .ddir = SB_DDIR_READ, .off = 3 * BS, .len = BS, .data = got[1] },
		};
		if (!data_engine(sb_engines[e]))
			continue;
		drv_prepare(&d, sb_engines[e], 2);
		d.spec.direct = direct;
		CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 1), 0);
		CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, path, O_RDONLY, 4 * BS), 0);
		CU_ASSERT_EQUAL(drv_run(&d, q, 2), 0);
		CU_ASSERT_EQUAL(q[0].result, (int64_t)(sizeof(src) - 2 * BS));
		CU_ASSERT_EQUAL(q[1].result, 0);
		CU_ASSERT(memcmp(got[0], src + 2 * BS, sizeof(src) - 2 * BS) == 0);
		drv_finish(&d);
	}
	unlink(path);
}

static void test_short_read_at_eof(void)
{
	short_read_in(drv_shm_dir(), false);
	if (drv_direct_ok(sb_test_tmpdir()))
		short_read_in(sb_test_tmpdir(), true);
	drv_shm_dir_remove();
}

/* 16 writes in flight, the 8th to a file opened read-only: that one fails
 * with EBADF, the 15 others land, and the run ends. */
static void error_mid_queue_in(const char *dir, bool direct)
{
	char pa[PATH_MAX], pb[PATH_MAX];
	unsigned char *src = malloc(16 * BS), *chk = malloc(BS);
	CU_ASSERT_FATAL(src && chk);
	snprintf(pa, sizeof(pa), "%s/err-a", dir);
	snprintf(pb, sizeof(pb), "%s/err-b", dir);
	for (unsigned e = 0; sb_engines[e]; e++) {
		struct drv d;
		struct drv_req q[16];
		if (!data_engine(sb_engines[e]))
			continue;
		for (unsigned b = 0; b < 16; b++)
			drv_pattern(src + b * BS, BS, e + 40, b);
		CU_ASSERT_EQUAL_FATAL(drv_make_file(pa, 16 * BS), 0);
		CU_ASSERT_EQUAL_FATAL(drv_make_file(pb, 16 * BS), 0);
		fill_reqs(q, 16, SB_DDIR_WRITE, src, 1);
		q[7].file = 1;
		drv_prepare(&d, sb_engines[e], 16);
		d.spec.direct = direct;
		d.spec.iodepth_batch_submit = 16;
		CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 2), 0);
		CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, pa, O_RDWR, 16 * BS), 0);
		CU_ASSERT_EQUAL_FATAL(drv_open(&d, 1, pb, O_RDONLY, 16 * BS), 0);
		CU_ASSERT_EQUAL(drv_run(&d, q, 16), 0);
		drv_finish(&d);
		int fd = open(pa, O_RDONLY);
		for (unsigned b = 0; b < 16; b++) {
			CU_ASSERT_EQUAL(q[b].result, b == 7 ? -EBADF : (int64_t)BS);
			CU_ASSERT(pread(fd, chk, BS, b * BS) == BS);
			if (b != 7 && memcmp(chk, src + b * BS, BS))
				CU_FAIL("a write next to the failed one did not land");
		}
		close(fd);
	}
	unlink(pa);
	unlink(pb);
	free(src);
	free(chk);
}

static void test_error_mid_queue(void)
{
	error_mid_queue_in(drv_shm_dir(), false);
	if (drv_direct_ok(sb_test_tmpdir()))
		error_mid_queue_in(sb_test_tmpdir(), true);
	drv_shm_dir_remove();
}

/* A read at an offset the kernel cannot represent (>= 2^63: EINVAL from every
 * read path, and from mmap's range check) in the middle of 8 in flight: that
 * unit fails with EINVAL, the others read their block.  (Misaligned O_DIRECT
 * is no longer a deterministic error: ext4 on Linux 6.x falls back to
 * buffered I/O for it.) */
static void bad_offset_in(const char *dir, bool direct)
{
	char path[PATH_MAX];
	unsigned char *got = malloc(8 * BS);
	CU_ASSERT_FATAL(got != NULL);
	snprintf(path, sizeof(path), "%s/badoff", dir);
	CU_ASSERT_EQUAL_FATAL(drv_make_file(path, 8 * BS), 0);
	for (unsigned e = 0; sb_engines[e]; e++) {
		struct drv d;
		struct drv_req q[8];
		if (!data_engine(sb_engines[e]))
			continue;
		fill_reqs(q, 8, SB_DDIR_READ, got, 3);
		q[3].off = 1ull << 63;
		drv_prepare(&d, sb_engines[e], 8);
		d.spec.direct = direct;
		d.spec.iodepth_batch_submit = 8;
		CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 1), 0);
		CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, path, O_RDONLY, 8 * BS), 0);
		CU_ASSERT_EQUAL(drv_run(&d, q, 8), 0);
		for (unsigned i = 0; i < 8; i++) {
			if (q[i].result != (i == 3 ? -EINVAL : (int64_t)BS))
				printf("\n  %s: request %u (offset %llu) gave %lld\n", sb_engines[e]->name, i,
				       (unsigned long long)q[i].off, (long long)q[i].result);
			CU_ASSERT_EQUAL(q[i].result, i == 3 ? -EINVAL : (int64_t)BS);
		}
		drv_finish(&d);
	}
	unlink(path);
	free(got);
}

static void test_bad_offset_mid_queue(void)
{
	bad_offset_in(drv_shm_dir(), false);
	if (drv_direct_ok(sb_test_tmpdir()))
		bad_offset_in(sb_test_tmpdir(), true);
	drv_shm_dir_remove();
}

/* iodepth=32: all 32 queue() calls are taken (QUEUED: none completes inline,
 * none is refused as BUSY), one commit sends them, and getevents hands each
 * io unit back exactly once. */
static void depth32_in(const struct sb_engine_ops *e, const char *path, bool direct, bool ureap)
{
	struct drv d;
	unsigned seen[32] = { 0 }, got = 0;
	drv_prepare(&d, e, 32);
	d.spec.direct = direct;
	spec_eopt_set(&d.spec, "userspace_reap", ureap);  /* libaio only */
	CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 1), 0);
	CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, path, O_RDONLY, 32 * BS), 0);
	for (unsigned i = 0; i < 32; i++) {
		struct sb_io_u *io = &d.td.ios[i];
		*io = (struct sb_io_u){ .ddir = SB_DDIR_READ, .file = &d.files[0], .buf = io->buf,
					.len = BS, .offset = (uint64_t)((i * 11) % 32) * BS, .index = i,
					.engine_priv = io->engine_priv };
		CU_ASSERT_EQUAL(e->queue(&d.td, io), SB_Q_QUEUED);
	}
	CU_ASSERT_EQUAL(e->commit ? e->commit(&d.td) : 0, 0);
	for (unsigned tries = 0; got < 32 && tries < 2000; tries++) {
		struct timespec ts = { 1, 0 };
		int n = e->getevents(&d.td, ureap ? 0 : 1, 32, &ts);
		CU_ASSERT_FATAL(n >= 0 && got + (unsigned)n <= 32);
		for (int k = 0; k < n; k++) {
			struct sb_io_u *io = e->event(&d.td, (unsigned)k);
			CU_ASSERT_FATAL(io && io->index < 32);
			seen[io->index]++;
			CU_ASSERT_EQUAL(io->result, (int64_t)BS);
		}
		got += (unsigned)n;
	}
	CU_ASSERT_EQUAL(got, 32);
	for (unsigned i = 0; i < 32; i++)
		CU_ASSERT_EQUAL(seen[i], 1);
	drv_finish(&d);
}

static void test_depth32_in_flight(void)
{
	char path[PATH_MAX];
	bool dio = drv_direct_ok(sb_test_tmpdir());
	for (unsigned e = 0; sb_engines[e]; e++) {
		const struct sb_engine_ops *ops = sb_engines[e];
		if (!async_engine(ops))
			continue;
		snprintf(path, sizeof(path), "%s/depth", drv_shm_dir());
		CU_ASSERT_EQUAL_FATAL(drv_make_file(path, 32 * BS), 0);
		depth32_in(ops, path, false, false);
		unlink(path);
		if (dio) {
			snprintf(path, sizeof(path), "%s/depth", sb_test_tmpdir());
			CU_ASSERT_EQUAL_FATAL(drv_make_file(path, 32 * BS), 0);
			depth32_in(ops, path, true, false);
			if (!strcmp(ops->name, "libaio"))
				depth32_in(ops, path, true, true);
			unlink(path);
		}
	}
	drv_shm_dir_remove();
}

/* Phases on new threads, as the ML workloads run them (engine.h: one
 * driving thread per instance).  Each phase's instance is set up on the main
 * thread, driven by a thread of its own (which enables an io_uring ring) and
 * released on the main thread again. */
struct phase_arg {
	struct drv *d;
	struct drv_req *q;
	unsigned n;
	int rc;
};

static void *phase_main(void *arg)
{
	struct phase_arg *a = arg;
	a->rc = drv_run(a->d, a->q, a->n);
	return NULL;
}

static int run_on_thread(struct drv *d, struct drv_req *q, unsigned n)
{
	struct phase_arg a = { d, q, n, -1 };
	pthread_t t;
	if (pthread_create(&t, NULL, phase_main, &a))
		return -EAGAIN;
	pthread_join(t, NULL);
	return a.rc;
}

static void test_phases_on_new_threads(void)
{
	char path[PATH_MAX];
	unsigned char *src = malloc((size_t)NBLK * BS), *got = malloc((size_t)NBLK * BS);
	struct drv_req q[NBLK];
	CU_ASSERT_FATAL(src && got);
	for (unsigned b = 0; b < NBLK; b++)
		drv_pattern(src + (size_t)b * BS, BS, 99, b);
	for (unsigned e = 0; sb_engines[e]; e++) {
		const struct sb_engine_ops *ops = sb_engines[e];
		if (!data_engine(ops))
			continue;
		snprintf(path, sizeof(path), "%s/phases-%s", drv_shm_dir(), ops->name);
		CU_ASSERT_EQUAL_FATAL(drv_make_file(path, NBLK * BS), 0);
		for (unsigned phase = 0; phase < 3; phase++) {
			struct drv d;
			bool wr = phase == 0;
			memset(got, 0, (size_t)NBLK * BS);
			drv_prepare(&d, ops, 8);
			fill_reqs(q, NBLK, wr ? SB_DDIR_WRITE : SB_DDIR_READ, wr ? src : got, 3);
			CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 1), 0);
			CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, path, wr ? O_RDWR : O_RDONLY, NBLK * BS), 0);
			CU_ASSERT_EQUAL(run_on_thread(&d, q, NBLK), 0);
			for (unsigned i = 0; i < NBLK; i++)
				CU_ASSERT_EQUAL(q[i].result, (int64_t)BS);
			if (!wr && memcmp(got, src, (size_t)NBLK * BS)) {
				printf("\n  %s, phase %u on a new thread: data differs\n", ops->name, phase);
				CU_FAIL("data read back differs");
			}
			drv_finish(&d);
		}
		unlink(path);
	}
	drv_shm_dir_remove();
	free(src);
	free(got);
}

/* A file the run did not make (the user's): whatever a NODATA engine is
 * asked to do, its bytes and size stay as they were (or open refuses it). */
static void test_nodata_spares_user_file(void)
{
	char path[PATH_MAX];
	unsigned char *src = malloc((size_t)NBLK * BS), *got = malloc((size_t)NBLK * BS);
	CU_ASSERT_FATAL(src && got);
	for (unsigned b = 0; b < NBLK; b++)
		drv_pattern(src + (size_t)b * BS, BS, 7, b);
	static const int dirs[] = { SB_DDIR_WRITE, SB_DDIR_TRIM, SB_DDIR_READ, SB_DDIR_SYNC };
	for (unsigned e = 0; sb_engines[e]; e++) {
		const struct sb_engine_ops *ops = sb_engines[e];
		if (!nodata_engine(ops))
			continue;
		for (unsigned di = 0; di < sizeof(dirs) / sizeof(dirs[0]); di++) {
			struct drv d;
			struct drv_req q[NBLK];
			snprintf(path, sizeof(path), "%s/user-%s", sb_test_tmpdir(), ops->name);
			int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
			CU_ASSERT_FATAL(fd >= 0);
			CU_ASSERT_FATAL(write(fd, src, (size_t)NBLK * BS) == (ssize_t)NBLK * BS);
			close(fd);
			drv_prepare(&d, ops, 1);
			d.user[0] = true;
			for (unsigned i = 0; i < NBLK; i++) /* offsets from the end down: a truncate cuts */
				q[i] = (struct drv_req){ .ddir = dirs[di], .off = (uint64_t)(NBLK - 1 - i) * BS,
							 .len = dirs[di] == SB_DDIR_SYNC ? 0 : BS, .data = got };
			CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 1), 0);
			if (drv_open(&d, 0, path, O_RDWR, NBLK * BS) == 0) {
				CU_ASSERT_EQUAL(drv_run(&d, q, NBLK), 0);
				for (unsigned i = 0; i < NBLK; i++)
					CU_ASSERT(q[i].result < 0 || q[i].result == (int64_t)q[i].len);
			}
			drv_finish(&d);
			struct stat st;
			CU_ASSERT_EQUAL(stat(path, &st), 0);
			CU_ASSERT_EQUAL(st.st_size, (off_t)NBLK * BS);
			fd = open(path, O_RDONLY);
			CU_ASSERT_FATAL(fd >= 0);
			CU_ASSERT_EQUAL(pread(fd, got, (size_t)NBLK * BS, 0), (ssize_t)NBLK * BS);
			close(fd);
			if (memcmp(got, src, (size_t)NBLK * BS)) {
				printf("\n  %s (ddir %d) changed a file the run did not create\n", ops->name, dirs[di]);
				CU_FAIL("a NODATA engine destroyed the user's data");
			}
			unlink(path);
		}
	}
	free(src);
	free(got);
}

static off_t run_one(const struct sb_engine_ops *ops, const char *path, int ddir, uint64_t off,
		     uint64_t len, int64_t *result, blkcnt_t *blocks)
{
	struct drv d;
	struct drv_req q = { .ddir = ddir, .off = off, .len = len };
	unsigned char *buf = calloc(1, len ? len : 1);
	struct stat st;
	q.data = buf;
	drv_prepare(&d, ops, 1);
	CU_ASSERT_EQUAL_FATAL(drv_init(&d, len ? len : BS, 1), 0);
	CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, path, O_RDWR, NBLK * BS), 0);
	CU_ASSERT_EQUAL(drv_run(&d, &q, 1), 0);
	drv_finish(&d);
	free(buf);
	*result = q.result;
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
	*blocks = st.st_blocks;
	return st.st_size;
}

/* On a file the run made: falloc write allocates and extends to off+len,
 * read allocates keeping the size, trim punches; ftruncate write sets the
 * size to the offset and a read fails with EINVAL (fio 3.33's
 * engines/falloc.c and engines/ftruncate.c). */
static void test_nodata_semantics(void)
{
	char path[PATH_MAX];
	int64_t res;
	blkcnt_t blk;
	const struct sb_engine_ops *fa = sb_engine_find("falloc"), *ft = sb_engine_find("ftruncate");
	CU_ASSERT_FATAL(fa && ft && nodata_engine(fa) && nodata_engine(ft));
	snprintf(path, sizeof(path), "%s/nodata", sb_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(drv_make_file(path, 0), 0);
	CU_ASSERT_EQUAL(run_one(fa, path, SB_DDIR_WRITE, 8 * BS, 4 * BS, &res, &blk), 12 * BS);
	CU_ASSERT_EQUAL(res, 4 * BS);
	CU_ASSERT(blk * 512 >= 4 * BS);
	blkcnt_t had = blk;
	CU_ASSERT_EQUAL(run_one(fa, path, SB_DDIR_READ, 12 * BS, 4 * BS, &res, &blk), 12 * BS);
	CU_ASSERT_EQUAL(res, 4 * BS);
	CU_ASSERT(blk >= had + 4 * BS / 512);
	had = blk;
	CU_ASSERT_EQUAL(run_one(fa, path, SB_DDIR_TRIM, 8 * BS, 4 * BS, &res, &blk), 12 * BS);
	if (res != -EOPNOTSUPP) {
		CU_ASSERT_EQUAL(res, 4 * BS);
		CU_ASSERT(blk <= had - 4 * BS / 512);
	}
	CU_ASSERT_EQUAL(run_one(ft, path, SB_DDIR_WRITE, 5 * BS, BS, &res, &blk), 5 * BS);
	CU_ASSERT_EQUAL(res, BS);
	CU_ASSERT_EQUAL(run_one(ft, path, SB_DDIR_WRITE, 9 * BS, BS, &res, &blk), 9 * BS);
	CU_ASSERT_EQUAL(run_one(ft, path, SB_DDIR_READ, BS, BS, &res, &blk), 9 * BS);
	CU_ASSERT_EQUAL(res, -EINVAL);
	unlink(path);
}

static CU_TestInfo tests[] = {
	{ "roundtrip_buffered_tmpfs", test_roundtrip_buffered_tmpfs },
	{ "roundtrip_direct_disk", test_roundtrip_direct_disk },
	{ "short_read_at_eof", test_short_read_at_eof },
	{ "error_mid_queue", test_error_mid_queue },
	{ "bad_offset_mid_queue", test_bad_offset_mid_queue },
	{ "depth32_in_flight", test_depth32_in_flight },
	{ "phases_on_new_threads", test_phases_on_new_threads },
	{ "nodata_spares_user_file", test_nodata_spares_user_file },
	{ "nodata_semantics", test_nodata_semantics },
	CU_TEST_INFO_NULL,
};
SB_SUITE(engines, tests)
