/* test_engine_options.c: the engine options users set in job files, and what
 * users see when the kernel refuses one.  io_uring with fixedbufs,
 * registerfiles, nonvectored and sqthread_poll (alone and combined), libaio
 * with userspace_reap, must move the same bytes as without them; hipri on a
 * file without polled I/O, and an impossible sqthread_poll_cpu, must fail with
 * a message that names the option to drop (direct=1 with a block size the
 * file cannot take directly is refused before the run, not by the engines:
 * test_dio.c).  Also the registry and mmap's handling of a file shorter than
 * its region. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __x86_64__
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#endif

#include "config.h"
#include "engine_driver.h"
#include "harness.h"

#define BS 4096u
#define NBLK 48u

struct eopts {
	const char *label;
	bool fixedbufs, registerfiles, nonvectored, sqthread_poll, userspace_reap;
	int sqthread_poll_cpu;
};

static void eopts_apply(struct drv *d, const struct eopts *o, bool direct)
{
	d->spec.direct = direct;
	spec_eopt_set(&d->spec, "fixedbufs", o->fixedbufs);
	spec_eopt_set(&d->spec, "registerfiles", o->registerfiles);
	spec_eopt_set(&d->spec, "nonvectored", o->nonvectored ? 1 : 0);
	spec_eopt_set(&d->spec, "sqthread_poll", o->sqthread_poll);
	spec_eopt_set(&d->spec, "sqthread_poll_cpu", o->sqthread_poll_cpu);
	spec_eopt_set(&d->spec, "userspace_reap", o->userspace_reap);
	if (o->userspace_reap)
		d->spec.iodepth_batch_complete_min = 0;  /* as fio: reaping from the ring needs min 0 */
	d->spec.iodepth_batch_submit = 4;
}

/* One pass of NBLK requests of ddir through e with options o. */
static void pass(const struct sb_engine_ops *e, const struct eopts *o, const char *path,
		 bool direct, int ddir, unsigned char *data)
{
	struct drv d;
	struct drv_req q[NBLK + 1];
	unsigned n = NBLK;
	for (unsigned i = 0; i < NBLK; i++) {
		unsigned blk = (i * 11) % NBLK;
		q[i] = (struct drv_req){ .ddir = ddir, .off = (uint64_t)blk * BS, .len = BS,
					 .data = data + (size_t)blk * BS };
	}
	if (ddir == SB_DDIR_WRITE)
		q[n++] = (struct drv_req){ .ddir = SB_DDIR_DATASYNC };
	drv_prepare(&d, e, 16);
	eopts_apply(&d, o, direct);
	int r = drv_init(&d, BS, 1);
	if (r)
		printf("\n  %s %s: init: %s (%s)\n", e->name, o->label, strerror(-r), d.td.errmsg);
	CU_ASSERT_EQUAL_FATAL(r, 0);
	r = drv_open(&d, 0, path, ddir == SB_DDIR_WRITE ? O_RDWR : O_RDONLY, NBLK * BS);
	if (r)
		printf("\n  %s %s: open: %s (%s)\n", e->name, o->label, strerror(-r), d.td.errmsg);
	CU_ASSERT_EQUAL_FATAL(r, 0);
	r = drv_run(&d, q, n);
	if (r) /* seen once under ASan in CI: say why next time */
		printf("\n  %s %s: run: %s (%s)\n", e->name, o->label, strerror(-r), d.td.errmsg);
	CU_ASSERT_EQUAL(r, 0);
	for (unsigned i = 0; i < n; i++)
		CU_ASSERT_EQUAL(q[i].result, q[i].ddir == SB_DDIR_DATASYNC ? 0 : (int64_t)BS);
	drv_finish(&d);
}

/* Write through e with options o, check the file with pread, read it back
 * through e with o. */
static void opts_roundtrip(const struct sb_engine_ops *e, const struct eopts *o,
			   const char *dir, bool direct, unsigned seed)
{
	char path[PATH_MAX];
	unsigned char *src = malloc((size_t)NBLK * BS), *got = calloc(NBLK, BS);
	CU_ASSERT_FATAL(src && got);
	for (unsigned b = 0; b < NBLK; b++)
		drv_pattern(src + (size_t)b * BS, BS, seed, b);
	snprintf(path, sizeof(path), "%s/opts-%s", dir, e->name);
	CU_ASSERT_EQUAL_FATAL(drv_make_file(path, NBLK * BS), 0);
	pass(e, o, path, direct, SB_DDIR_WRITE, src);
	int fd = open(path, O_RDONLY);
	CU_ASSERT(pread(fd, got, (size_t)NBLK * BS, 0) == (ssize_t)NBLK * BS);
	close(fd);
	CU_ASSERT(memcmp(got, src, (size_t)NBLK * BS) == 0);
	memset(got, 0, (size_t)NBLK * BS);
	pass(e, o, path, direct, SB_DDIR_READ, got);
	if (memcmp(got, src, (size_t)NBLK * BS)) {
		printf("\n  %s %s direct=%d: data read back differs\n", e->name, o->label, direct);
		CU_FAIL("read back differs");
	}
	unlink(path);
	free(src);
	free(got);
}

static void run_combos(const char *engine, const struct eopts *combos, unsigned n)
{
	const struct sb_engine_ops *e = sb_engine_find(engine);
	if (!e || !e->queue) {
		printf("\n  engine_options: %s not built: skipped\n", engine);
		return;
	}
	bool dio = drv_direct_ok(sb_test_tmpdir());
	for (unsigned i = 0; i < n; i++) {
		opts_roundtrip(e, &combos[i], drv_shm_dir(), false, i + 1);
		if (dio)
			opts_roundtrip(e, &combos[i], sb_test_tmpdir(), true, i + 100);
	}
	drv_shm_dir_remove();
}

static void test_io_uring_options(void)
{
	static const struct eopts combos[] = {
		{ .label = "(defaults: readv/writev)", .sqthread_poll_cpu = -1 },
		{ .label = "fixedbufs=1", .fixedbufs = true, .sqthread_poll_cpu = -1 },
		{ .label = "registerfiles=1", .registerfiles = true, .sqthread_poll_cpu = -1 },
		{ .label = "nonvectored=1", .nonvectored = true, .sqthread_poll_cpu = -1 },
		{ .label = "sqthread_poll=1", .sqthread_poll = true, .sqthread_poll_cpu = -1 },
		{ .label = "sqthread_poll=1 sqthread_poll_cpu=0", .sqthread_poll = true },
		{ .label = "fixedbufs=1 registerfiles=1 sqthread_poll=1", .fixedbufs = true,
		  .registerfiles = true, .sqthread_poll = true, .sqthread_poll_cpu = -1 },
	};
	run_combos("io_uring", combos, sizeof(combos) / sizeof(combos[0]));
}

static void test_libaio_userspace_reap(void)
{
	static const struct eopts combos[] = {
		{ .label = "(io_getevents)", .sqthread_poll_cpu = -1 },
		{ .label = "userspace_reap=1", .userspace_reap = true, .sqthread_poll_cpu = -1 },
	};
	run_combos("libaio", combos, sizeof(combos) / sizeof(combos[0]));
}

/* hipri=1 where polled I/O cannot work fails at open, naming hipri. */
static void hipri_refused(const char *dir, bool direct)
{
	const struct sb_engine_ops *e = sb_engine_find("io_uring");
	char path[PATH_MAX];
	struct drv d;
	snprintf(path, sizeof(path), "%s/hipri", dir);
	CU_ASSERT_EQUAL_FATAL(drv_make_file(path, 16 * BS), 0);
	drv_prepare(&d, e, 4);
	CU_ASSERT_EQUAL_FATAL(spec_eopt_set(&d.spec, "hipri", 1), 0);
	d.spec.direct = direct;
	int r = drv_init(&d, BS, 1);
	if (r == 0)
		r = drv_open(&d, 0, path, O_RDWR, 16 * BS);
	CU_ASSERT(r < 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.td.errmsg, "hipri"));
	if (!strstr(d.td.errmsg, "hipri"))
		printf("\n  hipri (direct=%d): r=%d message: '%s'\n", direct, r, d.td.errmsg);
	drv_finish(&d);
	unlink(path);
}

static void test_io_uring_hipri_refused(void)
{
	if (!sb_engine_find("io_uring") || !sb_engine_find("io_uring")->queue) {
		printf("\n  engine_options: io_uring not built: skipped\n");
		return;
	}
	hipri_refused(drv_shm_dir(), false);   /* buffered: IOPOLL needs O_DIRECT */
	if (drv_direct_ok(drv_shm_dir()))
		hipri_refused(drv_shm_dir(), true);  /* tmpfs: O_DIRECT, but nothing to poll */
	drv_shm_dir_remove();
}

static void test_io_uring_bad_sqpoll_cpu(void)
{
	const struct sb_engine_ops *e = sb_engine_find("io_uring");
	struct drv d;
	if (!e || !e->queue) {
		printf("\n  engine_options: io_uring not built: skipped\n");
		return;
	}
	drv_prepare(&d, e, 4);
	CU_ASSERT_EQUAL_FATAL(spec_eopt_set(&d.spec, "sqthread_poll", 1), 0);
	CU_ASSERT_EQUAL_FATAL(spec_eopt_set(&d.spec, "sqthread_poll_cpu", 4000), 0);  /* no such CPU here */
	CU_ASSERT(drv_init(&d, BS, 1) < 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.td.errmsg, "sqthread_poll"));
	drv_finish(&d);
}

/* A writable file shorter than its I/O region is extended, not SIGBUS'd; a
 * read-only one reads short at its end. */
static void test_mmap_short_file(void)
{
	const struct sb_engine_ops *e = sb_engine_find("mmap");
	char path[PATH_MAX];
	unsigned char src[BS], got[BS];
	struct drv d;
	struct stat st;
	snprintf(path, sizeof(path), "%s/mmap-short", drv_shm_dir());
	CU_ASSERT_EQUAL_FATAL(drv_make_file(path, BS), 0);
	drv_pattern(src, BS, 7, 7);
	struct drv_req q[2] = {
		{ .ddir = SB_DDIR_WRITE, .off = 7 * BS, .len = BS, .data = src },
		{ .ddir = SB_DDIR_SYNC },
	};
	drv_prepare(&d, e, 1);
	CU_ASSERT_EQUAL_FATAL(drv_init(&d, BS, 1), 0);
	CU_ASSERT_EQUAL_FATAL(drv_open(&d, 0, path, O_RDWR, 8 * BS), 0);
	CU_ASSERT_EQUAL(drv_run(&d, q, 2), 0);
	CU_ASSERT_EQUAL(q[0].result, (int64_t)BS);
	CU_ASSERT_EQUAL(q[1].result, 0);
	drv_finish(&d);
	CU_ASSERT(stat(path, &st) == 0 && st.st_size == 8 * BS);
	int fd = open(path, O_RDONLY);
	CU_ASSERT(pread(fd, got, BS, 7 * BS) == BS && memcmp(got, src, BS) == 0);
	close(fd);
	unlink(path);
	drv_shm_dir_remove();
}

#ifdef __x86_64__
/* In a child: make io_uring_setup fail with err (as on a kernel without
 * io_uring, or under a policy forbidding it), then init io_uring; exit 0 when
 * init failed with a message that points to another engine. */
static int child_without_io_uring(int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	struct drv d;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 3;
	drv_prepare(&d, sb_engine_find("io_uring"), 4);
	int r = drv_init(&d, BS, 1);
	bool ok = r == -err && strstr(d.td.errmsg, "use ioengine=libaio or psync");
	if (!ok)
		fprintf(stderr, "io_uring init with setup -> %d: %d '%s'\n", -err, r, d.td.errmsg);
	drv_finish(&d);
	return ok ? 0 : 1;
}
#endif

/* A kernel without io_uring, or one that forbids it: init fails and says
 * which engines to use instead. */
static void test_io_uring_unavailable(void)
{
#ifdef __x86_64__
	const struct sb_engine_ops *e = sb_engine_find("io_uring");
	if (!e || !e->queue) {
		printf("\n  engine_options: io_uring not built: skipped\n");
		return;
	}
	static const int errs[] = { ENOSYS, EPERM };
	for (unsigned i = 0; i < 2; i++) {
		int st = -1;
		fflush(NULL);
		pid_t pid = fork();
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0)
			_exit(child_without_io_uring(errs[i]));
		CU_ASSERT(waitpid(pid, &st, 0) == pid);
		CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
#else
	printf("\n  engine_options: seccomp test is x86_64-only: skipped\n");
#endif
}

static void test_registry(void)
{
	char names[256];
	sb_engine_names(names, sizeof(names));
	CU_ASSERT_PTR_NULL(sb_engine_find("no-such-engine"));
	CU_ASSERT_PTR_NULL(sb_engine_missing_package("no-such-engine"));
	CU_ASSERT_PTR_NOT_NULL(sb_engine_find("mmap"));
	CU_ASSERT_PTR_NOT_NULL(strstr(names, "mmap"));
#ifdef CONFIG_LIBAIO
	CU_ASSERT_PTR_NOT_NULL(sb_engine_find("libaio"));
	CU_ASSERT_PTR_NULL(sb_engine_missing_package("libaio"));
#else
	CU_ASSERT_STRING_EQUAL(sb_engine_missing_package("libaio"), "libaio-dev");
#endif
#ifdef CONFIG_LIBURING
	CU_ASSERT_PTR_NOT_NULL(strstr(names, "io_uring"));
#else
	CU_ASSERT_STRING_EQUAL(sb_engine_missing_package("io_uring"), "liburing-dev");
#endif
	for (unsigned i = 0; sb_engines[i]; i++) {
		const struct sb_engine_ops *e = sb_engines[i];
		if (!e->queue)
			continue;  /* placeholder */
		CU_ASSERT(e->description && strlen(e->description) > 10);
		CU_ASSERT_PTR_NOT_NULL(e->init);
		/* an engine that can leave I/O queued must be able to reap it */
		if (!(e->flags & SB_ENGINE_SYNC))
			CU_ASSERT(e->getevents && e->event);
	}
}

static CU_TestInfo tests[] = {
	{ "io_uring_options", test_io_uring_options },
	{ "libaio_userspace_reap", test_libaio_userspace_reap },
	{ "io_uring_hipri_refused", test_io_uring_hipri_refused },
	{ "io_uring_bad_sqpoll_cpu", test_io_uring_bad_sqpoll_cpu },
	{ "io_uring_unavailable", test_io_uring_unavailable },
	{ "mmap_short_file", test_mmap_short_file },
	{ "registry", test_registry },
	CU_TEST_INFO_NULL,
};
SB_SUITE(engine_options, tests)
