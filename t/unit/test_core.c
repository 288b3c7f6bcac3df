/* test_core.c: sb_run on real files: bytes moved, file life cycle and
 * safety (never truncate or unlink what storbench did not create), free
 * space and alignment checks before anything is written, rate limits,
 * interrupts, group reporting. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/files.h"
#include "run/rate.h"
#include "run/run.h"
#include "os/mounts.h"
#include "harness.h"
#include "parse/parse.h"
#include "lib/log.h"
#include "parse/options.h"

struct sb_jobspec sb_test_default_spec(void);

#define MB (1024ull * 1024)

static char pathbuf[4][512];

static const char *tpath(int slot, const char *name)
{
	snprintf(pathbuf[slot], sizeof(pathbuf[slot]), "%s/%s", sb_test_tmpdir(), name);
	return pathbuf[slot];
}

static struct sb_jobspec file_spec(const char *engine, unsigned rw, const char *path, uint64_t size)
{
	struct sb_jobspec s = sb_test_default_spec();
	strcpy(s.ioengine, engine);
	s.rw = rw;
	s.filename = (char *)path;
	s.size = size;
	return s;
}

static int run1(struct sb_jobspec *s, struct sb_results *res)
{
	struct sb_joblist jl = { .jobs = s, .njobs = 1 };
	sb_spec_derive(s); /* as the parser does */
	return sb_run(&jl, NULL, res);
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

static void check_bytes(const char *engine, unsigned rw, int d)
{
	const char *p = tpath(0, "bytes.dat");
	struct sb_jobspec s = file_spec(engine, rw, p, 2 * MB);
	struct sb_results res;
	CU_ASSERT_EQUAL_FATAL(run1(&s, &res), 0);
	CU_ASSERT_EQUAL_FATAL(res.njobs, 1);
	const struct sb_tstats *st = &res.jobs[0].st;
	CU_ASSERT_EQUAL(res.jobs[0].error, 0);
	CU_ASSERT_EQUAL(st->io_bytes[d], 2 * MB);
	CU_ASSERT_EQUAL(st->io_bytes[!d], 0);
	CU_ASSERT_EQUAL(st->total_ios[d], 512);
	CU_ASSERT_EQUAL(st->clat[d].n, 512);
	CU_ASSERT_EQUAL(st->lat[d].n, 512);
	CU_ASSERT_EQUAL(st->lat_h[d].n, 512);
	CU_ASSERT_EQUAL(st->slat[d].n, 0); /* sync engines have no submission latency */
	CU_ASSERT_TRUE(st->clat[d].min > 0 && st->clat[d].max >= st->clat[d].min);
	CU_ASSERT_EQUAL(st->iodepth_level[0], 512);
	CU_ASSERT_FALSE(res.interrupted);
	CU_ASSERT_EQUAL(res.ngroups, 1);
	CU_ASSERT_EQUAL(res.groups[0].dir[d].io_bytes, 2 * MB);
	sb_results_free(&res);
}

static void test_bytes_equal_size(void)
{
	check_bytes("psync", SB_RW_WRITE, SB_DDIR_WRITE);
	check_bytes("psync", SB_RW_READ, SB_DDIR_READ);
	check_bytes("sync", SB_RW_WRITE, SB_DDIR_WRITE);
	check_bytes("sync", SB_RW_READ, SB_DDIR_READ);
	check_bytes("psync", SB_RW_READ | SB_RW_RANDOM, SB_DDIR_READ);
	check_bytes("sync", SB_RW_WRITE | SB_RW_RANDOM, SB_DDIR_WRITE);
	unlink(tpath(0, "bytes.dat"));
}

/* a read job on a new file reads real, non-zero data laid out first */
static void test_read_layout_writes_data(void)
{
	const char *p = tpath(0, "layout.dat");
	struct sb_jobspec s = file_spec("psync", SB_RW_READ, p, 1 * MB);
	struct sb_results res;
	unlink(p);
	CU_ASSERT_EQUAL_FATAL(run1(&s, &res), 0);
	sb_results_free(&res);
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(stat(p, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, (off_t)MB);
	CU_ASSERT_TRUE(st.st_blocks * 512 >= (off_t)MB); /* not sparse */
	char buf[4096];
	int fd = open(p, O_RDONLY);
	CU_ASSERT_EQUAL(pread(fd, buf, sizeof(buf), (off_t)MB - 4096), 4096);
	close(fd);
	unsigned zero = 0;
	for (size_t i = 0; i < sizeof(buf); i++)
		zero += buf[i] == 0;
	CU_ASSERT_TRUE(zero < 64);
	unlink(p);
}

static void test_null_engine(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_results res;
	strcpy(s.ioengine, "null");
	s.rw = SB_RW_READ | SB_RW_RANDOM;
	s.size = 1024 * MB;
	CU_ASSERT_EQUAL_FATAL(run1(&s, &res), 0);
	CU_ASSERT_EQUAL(res.jobs[0].st.io_bytes[SB_DDIR_READ], 1024 * MB);
	CU_ASSERT_EQUAL(res.jobs[0].st.total_ios[SB_DDIR_READ], 262144);
	CU_ASSERT_EQUAL(res.ndisks, 0);
	CU_ASSERT_FALSE(exists("job.0.0"));
	sb_results_free(&res);
}

static void test_unlink_only_created(void)
{
	const char *created = tpath(0, "created.dat"), *mine = tpath(1, "users.dat");
	struct sb_results res;
	unlink(created);
	struct sb_jobspec s = file_spec("psync", SB_RW_WRITE, created, MB);
	s.unlink = true;
	CU_ASSERT_EQUAL_FATAL(run1(&s, &res), 0);
	sb_results_free(&res);
	CU_ASSERT_FALSE(exists(created));

	/* a user's file, bigger than size=: used, never truncated or removed */
	int fd = open(mine, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	CU_ASSERT_EQUAL(ftruncate(fd, (off_t)(3 * MB)), 0);
	close(fd);
	s = file_spec("psync", SB_RW_WRITE, mine, MB);
	s.unlink = true;
	CU_ASSERT_EQUAL_FATAL(run1(&s, &res), 0);
	CU_ASSERT_EQUAL(res.jobs[0].st.io_bytes[SB_DDIR_WRITE], MB);
	sb_results_free(&res);
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(stat(mine, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, (off_t)(3 * MB));

	/* size= unset: the existing file's size is the region */
	s = file_spec("psync", SB_RW_READ, mine, 0);
	CU_ASSERT_EQUAL_FATAL(run1(&s, &res), 0);
	CU_ASSERT_EQUAL(res.jobs[0].st.io_bytes[SB_DDIR_READ], 3 * MB);
	sb_results_free(&res);
	unlink(mine);
}

static void test_free_space_refused(void)
{
	char log[2048];
	const char *p = tpath(0, "huge.dat"), *other = tpath(1, "small.dat");
	struct sb_jobspec s[2];
	struct sb_results res;
	s[0] = file_spec("psync", SB_RW_WRITE, other, MB); /* would be laid out first */
	s[1] = file_spec("psync", SB_RW_READ, p, 1ull << 52);
	struct sb_joblist jl = { .jobs = s, .njobs = 2 };
	sb_spec_derive(&s[0]); /* as the parser does */
	sb_spec_derive(&s[1]);
	sb_log_capture(log, sizeof(log));
	int r = sb_run(&jl, NULL, &res);
	sb_log_capture(NULL, 0);
	CU_ASSERT_EQUAL(r, -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "not enough free space"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, sb_test_tmpdir()));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "4503599628419072")); /* bytes needed, both files */
	CU_ASSERT_FALSE(exists(p));
	CU_ASSERT_FALSE(exists(other));
}

static void test_direct_misaligned_refused(void)
{
	char log[2048];
	const char *p = tpath(0, "direct.dat");
	struct sb_jobspec s = file_spec("psync", SB_RW_WRITE, p, MB);
	struct sb_results res;
	s.direct = true;
	s.bs[SB_DDIR_WRITE] = s.bs_min[SB_DDIR_WRITE] = s.bs_max[SB_DDIR_WRITE] = 1000;
	/* the message names where bs= was set */
	s.file = "unit.ini";
	s.line = 3;
	sb_spec_set_loc(&s, sb_option_index(sb_option_find("bs")), "unit.ini", 7);
	sb_log_capture(log, sizeof(log));
	int r = run1(&s, &res);
	sb_log_capture(NULL, 0);
	CU_ASSERT_EQUAL(r, -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "the direct-I/O alignment of"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "storbench: unit.ini:7: job "));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "bs=1000 is not a multiple of")); /* one direction: not named */
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "or direct=0"));
	CU_ASSERT_FALSE(exists(p));
}

static void test_setup_error_before_io(void)
{
	char log[1024];
	struct sb_jobspec s = file_spec("nosuch", SB_RW_WRITE, tpath(0, "x.dat"), MB);
	struct sb_results res;
	sb_log_capture(log, sizeof(log));
	CU_ASSERT_EQUAL(run1(&s, &res), -EINVAL);
	sb_log_capture(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "ioengine=nosuch"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "psync"));
	CU_ASSERT_FALSE(exists(tpath(0, "x.dat")));
	/* a file where a folder of the path should be (a missing folder is
	 * made, as fio makes it: run/filedirs.c) */
	char in_way[PATH_MAX];
	snprintf(in_way, sizeof(in_way), "%s/sub/x.dat", tpath(0, "afile"));
	FILE *f = fopen(tpath(0, "afile"), "w");
	CU_ASSERT_FATAL(f != NULL);
	fclose(f);
	s = file_spec("psync", SB_RW_WRITE, in_way, MB);
	sb_log_capture(log, sizeof(log));
	CU_ASSERT_EQUAL(run1(&s, &res), -ENOTDIR);
	sb_log_capture(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "afile/sub"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "Not a directory"));
	unlink(tpath(0, "afile"));
}

/* PSI's cumulative "some" CPU stall in microseconds (/proc/pressure/cpu),
 * or -1 without PSI */
static long long cpu_some_us(void)
{
	long long us = -1;
	char line[256];
	FILE *f = fopen("/proc/pressure/cpu", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "some ", 5) && strstr(line, "total="))
			us = atoll(strstr(line, "total=") + 6);
	fclose(f);
	return us;
}

/* how long a thread of ours can have waited for a CPU because of other load
 * since t0/some0 (seconds): the machine's stall time times the CPUs (the
 * system figure averages them), at most the wall time, the wall time
 * without PSI.  Bounds that load moves (a lower bound on a rate, an end
 * time) widen by it: tight on an idle machine, never failing on a busy one. */
static double cpu_lost_s(const struct timespec *t0, long long some0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double wall = (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
	long long some1 = cpu_some_us();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (some0 < 0 || some1 < 0)
		return wall;
	double lost = (double)(some1 - some0) / 1e6 * (double)(ncpu > 0 ? ncpu : 1);
	return lost < wall ? lost : wall;
}

static void test_rate_limit(void)
{
	const char *p = tpath(0, "rate.dat");
	struct sb_jobspec s = file_spec("psync", SB_RW_READ, p, 64 * MB);
	struct sb_results res;
	struct timespec t0;
	s.rate[SB_DDIR_READ] = 20 * MB;
	s.time_based = true;
	s.runtime_us = 1000000;
	long long some0 = cpu_some_us();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL_FATAL(run1(&s, &res), 0);
	double lost = cpu_lost_s(&t0, some0);
	const struct sb_job_result *jr = &res.jobs[0];
	double bw = (double)jr->st.io_bytes[SB_DDIR_READ] * 1000.0 / (double)jr->runtime_ms[SB_DDIR_READ];
	/* never above the cap (a loaded machine only goes slower); below it
	 * only by what the time other load took from us can cost */
	CU_ASSERT_TRUE(bw <= 1.05 * 20 * MB);
	CU_ASSERT_TRUE(jr->st.io_bytes[SB_DDIR_READ] >= 0.95 * 20 * MB * (1.0 - lost));
	CU_ASSERT_TRUE(jr->runtime_ms[SB_DDIR_READ] >= 990);
	CU_ASSERT_TRUE(jr->runtime_ms[SB_DDIR_READ] < 1200 + 1000 * lost);
	CU_ASSERT_TRUE(jr->st.bw_samples[SB_DDIR_READ].n >= 1);
	/* the limiter catches up after a stall (as fio's does: the schedule is
	 * from the job's start), so one 500 ms sample may hold, beyond its
	 * share, what the lost time held back: at most lost / 0.5 of a window
	 * more */
	CU_ASSERT_TRUE(jr->st.bw_samples[SB_DDIR_READ].mean <= 1.1 * 20480.0 * (1.0 + lost / 0.5));
	/* a 500 ms sample loses at most all of the lost time */
	CU_ASSERT_TRUE(jr->st.bw_samples[SB_DDIR_READ].mean >= 0.9 * 20480.0 * (1.0 - lost / 0.5));
	/* sleeping, not spinning: little CPU (load only lowers it) */
	CU_ASSERT_TRUE(jr->usr_cpu + jr->sys_cpu < 50.0);
	sb_results_free(&res);
	unlink(p);
}

/* the rate limiter's schedule, without a clock: the k-th I/O is due at
 * start + k * max(bs / rate, 1 / rate_iops), per direction, never earlier
 * (the cap) and never later (the rate is reached) */
static void test_rate_schedule(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_rate r;
	const uint64_t start = 5000000000ull;
	s.rate[SB_DDIR_READ] = 20 * MB;         /* 4 KiB: 195312.5 ns a block */
	s.rate_iops[SB_DDIR_WRITE] = 1000;      /* 1 ms an I/O */
	s.rate[SB_DDIR_WRITE] = 1 * MB;         /* 64 KiB at 1 MiB/s: 62.5 ms */
	sb_rate_init(&r, &s, start);
	CU_ASSERT_TRUE(r.on);
	CU_ASSERT_EQUAL(sb_rate_due(&r, SB_DDIR_READ), start);
	for (int k = 1; k <= 5120; k++) {
		sb_rate_charge(&r, SB_DDIR_READ, 4096);
		CU_ASSERT_EQUAL(sb_rate_due(&r, SB_DDIR_READ), start + (uint64_t)(k * 195312.5));
	}
	/* 20 MiB charged: due exactly 1 s after the start */
	CU_ASSERT_EQUAL(sb_rate_due(&r, SB_DDIR_READ), start + 1000000000ull);
	sb_rate_charge(&r, SB_DDIR_WRITE, 512);  /* the IOPS cap is the longer gap */
	CU_ASSERT_EQUAL(sb_rate_due(&r, SB_DDIR_WRITE), start + 1000000ull);
	sb_rate_charge(&r, SB_DDIR_WRITE, 65536); /* the bandwidth cap is */
	CU_ASSERT_EQUAL(sb_rate_due(&r, SB_DDIR_WRITE), start + 1000000ull + 62500000ull);
	s = sb_test_default_spec();
	sb_rate_init(&r, &s, start);
	CU_ASSERT_FALSE(r.on);
}

/* a fixture /proc + /sys where loop0 (7:0) is mounted (through a node of
 * another name: only its major:minor says it is loop0), or partitioned */
static const char *mount_fixture(const char *tag, bool mounted, bool partition)
{
	static char root[512];
	char p[1024];
	snprintf(root, sizeof(root), "%s/sysroot-%s", sb_test_tmpdir(), tag);
	sb_test_put(root, "proc/self/mountinfo",
	    mounted ? "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		      "97 22 7:0 / /mnt rw,relatime shared:50 - ext4 /home/u/mydisk rw\n"
		    : "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n");
	sb_test_put(root, "proc/swaps", "Filename Type Size Used Priority\n");
	sb_test_put(root, "sys/class/block/loop0/dev", "7:0\n");
	if (partition)
		sb_test_put(root, "sys/class/block/loop0/loop0p1/partition", "1\n");
	snprintf(p, sizeof(p), "%s/sys/dev/block", root);
	sb_test_put(root, "sys/dev/block/.keep", "");
	snprintf(p, sizeof(p), "%s/sys/dev/block/7:0", root);
	CU_ASSERT_EQUAL(symlink("../../devices/virtual/block/loop0", p), 0);
	return root;
}

static void test_os_bdev_in_use(void)
{
	char why[256];
	const char *root = mount_fixture("os-m", true, false);
	CU_ASSERT_EQUAL(sb_os_bdev_in_use(root, "loop0", why, sizeof(why)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "mounted: device 7:0 (loop0) on /mnt, through /home/u/mydisk"));
	root = mount_fixture("os-p", false, true);
	CU_ASSERT_EQUAL(sb_os_bdev_in_use(root, "loop0", why, sizeof(why)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "partitions"));
	root = mount_fixture("os-free", false, false);
	CU_ASSERT_EQUAL(sb_os_bdev_in_use(root, "loop0", why, sizeof(why)), 0);
	CU_ASSERT_TRUE(sb_os_bdev_in_use(root, "sdq", why, sizeof(why)) < 0); /* unknown: not "free" */
}

/* planning a write to /dev/loop0 under each fixture (plan creates nothing) */
static int plan_loop0(const char *root, bool allow, bool write, char *log, unsigned loglen)
{
	struct sb_jobspec s = file_spec("psync", write ? SB_RW_WRITE : SB_RW_READ, "/dev/loop0", MB);
	struct sb_joblist jl = { .jobs = &s, .njobs = 1 };
	struct sb_layout lay;
	bool nodisk = false;
	const struct sb_run_env env = { .sysroot = root };
	s.allow_mounted_write = allow;
	sb_log_capture(log, loglen);
	int r = sb_files_plan(&jl, &nodisk, &env, &lay);
	sb_log_capture(NULL, 0);
	sb_files_cleanup(&lay, false);
	return r;
}

static void test_mounted_write_refused(void)
{
	char log[2048];
	struct stat st;
	if (stat("/dev/loop0", &st) != 0 || !S_ISBLK(st.st_mode)) {
		fprintf(stderr, "(no /dev/loop0 block device: plan-level check skipped) ");
		return;
	}
	const char *root = mount_fixture("plan-m", true, false);
	CU_ASSERT_EQUAL(plan_loop0(root, false, true, log, sizeof(log)), -EBUSY);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "refusing to write to /dev/loop0: it is mounted"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "allow_mounted_write=1"));
	CU_ASSERT_EQUAL(plan_loop0(root, true, true, log, sizeof(log)), 0);
	CU_ASSERT_EQUAL(plan_loop0(root, false, false, log, sizeof(log)), 0); /* reads are fine */
	root = mount_fixture("plan-p", false, true);
	CU_ASSERT_EQUAL(plan_loop0(root, false, true, log, sizeof(log)), -EBUSY);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "has partitions"));
	/* a root where the device is unknown: refused, not assumed free */
	CU_ASSERT_EQUAL(plan_loop0(sb_test_tmpdir(), false, true, log, sizeof(log)), -EBUSY);
}

struct bg_run {
	struct sb_jobspec s;
	struct sb_results res;
	int rc;
};

static void *bg_main(void *arg)
{
	struct bg_run *b = arg;
	b->rc = run1(&b->s, &b->res);
	return NULL;
}

static void test_interrupt_partial_results(void)
{
	static struct bg_run b;
	pthread_t tid;
	b.s = sb_test_default_spec();
	strcpy(b.s.ioengine, "null");
	b.s.size = 64 * MB;
	b.s.time_based = true;
	b.s.runtime_us = 30000000;
	b.s.numjobs = 2;
	struct timespec t0, t1, nap = { 0, 300000000 };
	long long some0 = cpu_some_us();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&tid, NULL, bg_main, &b), 0);
	nanosleep(&nap, NULL);
	sb_stop_request();
	pthread_join(tid, NULL);
	sb_stop_clear(); /* the request stands until cleared: later tests run again */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double lost = cpu_lost_s(&t0, some0);
	CU_ASSERT_EQUAL(b.rc, 0);
	CU_ASSERT_TRUE(b.res.interrupted);
	/* stops within 3 s of the request, plus what load took from us */
	CU_ASSERT_TRUE(t1.tv_sec - t0.tv_sec < 3 + lost);
	CU_ASSERT_EQUAL_FATAL(b.res.njobs, 2);
	for (int i = 0; i < 2; i++) {
		CU_ASSERT_TRUE(b.res.jobs[i].st.io_bytes[SB_DDIR_READ] > 0);
		/* ran most of the 300 ms before the stop (a late start: load) */
		CU_ASSERT_TRUE(b.res.jobs[i].runtime_ms[SB_DDIR_READ] >= 200 - 1000 * lost);
	}
	sb_results_free(&b.res);
}

static void test_group_reporting(void)
{
	struct sb_jobspec s[2];
	struct sb_results res;
	for (int i = 0; i < 2; i++) {
		s[i] = sb_test_default_spec();
		strcpy(s[i].ioengine, "null");
		s[i].size = 16 * MB;
		s[i].numjobs = 3;
		s[i].groupid = (unsigned)i;
		snprintf(s[i].name, sizeof(s[i].name), "j%d", i);
	}
	s[1].group_reporting = true;
	s[1].rw = SB_RW_WRITE;
	struct sb_joblist jl = { .jobs = s, .njobs = 2 };
	sb_spec_derive(&s[0]); /* as the parser does */
	sb_spec_derive(&s[1]);
	CU_ASSERT_EQUAL_FATAL(sb_run(&jl, NULL, &res), 0);
	CU_ASSERT_EQUAL_FATAL(res.njobs, 4); /* 3 threads of j0, j1 merged */
	CU_ASSERT_EQUAL(res.jobs[0].nthreads, 1);
	CU_ASSERT_EQUAL(res.jobs[0].st.io_bytes[SB_DDIR_READ], 16 * MB);
	CU_ASSERT_STRING_EQUAL(res.jobs[3].name, "j1");
	CU_ASSERT_EQUAL(res.jobs[3].nthreads, 3);
	CU_ASSERT_EQUAL(res.jobs[3].groupid, 1);
	CU_ASSERT_EQUAL(res.jobs[3].st.io_bytes[SB_DDIR_WRITE], 48 * MB);
	CU_ASSERT_EQUAL(res.jobs[3].st.total_ios[SB_DDIR_WRITE], 3 * 4096);
	CU_ASSERT_EQUAL_FATAL(res.ngroups, 2);
	CU_ASSERT_EQUAL(res.groups[0].dir[SB_DDIR_READ].io_bytes, 48 * MB);
	CU_ASSERT_EQUAL(res.groups[1].dir[SB_DDIR_WRITE].io_bytes, 48 * MB);
	CU_ASSERT_EQUAL(res.groups[1].dir[SB_DDIR_READ].io_bytes, 0);
	CU_ASSERT_STRING_EQUAL(res.version, "storbench-" SB_VERSION);
	sb_results_free(&res);
}

/* fio 3.33 on [global] ioengine=null size=16m group_reporting, [a]
 * rw=randread numjobs=2, [b] rw=write bs=8k: one entry "a" (jobs=3) with
 * read 32 MiB and write 16 MiB, job options of b (the last member),
 * job_runtime the members' sum.  A job after them in another group, or one
 * without group_reporting, opens its own entry. */
static void test_group_reporting_sections(void)
{
	struct sb_jobspec s[4];
	struct sb_results res;
	for (int i = 0; i < 4; i++) {
		s[i] = sb_test_default_spec();
		strcpy(s[i].ioengine, "null");
		s[i].size = 16 * MB;
		s[i].group_reporting = true;
		snprintf(s[i].name, sizeof(s[i].name), "%c", 'a' + i);
	}
	s[0].numjobs = 2;
	s[0].rw = SB_RW_READ | SB_RW_RANDOM;
	s[1].rw = SB_RW_WRITE;
	s[2].groupid = 1;             /* stonewall: a new group */
	s[3].groupid = 1;
	s[3].group_reporting = false; /* fio: opens an entry of its own */
	struct sb_joblist jl = { .jobs = s, .njobs = 4 };
	for (int i = 0; i < 4; i++)
		sb_spec_derive(&s[i]);
	CU_ASSERT_EQUAL_FATAL(sb_run(&jl, NULL, &res), 0);
	CU_ASSERT_EQUAL_FATAL(res.njobs, 3);
	CU_ASSERT_STRING_EQUAL(res.jobs[0].name, "a");
	CU_ASSERT_EQUAL(res.jobs[0].nthreads, 3);
	CU_ASSERT_PTR_EQUAL(res.jobs[0].spec, &s[1]);
	CU_ASSERT_EQUAL(res.jobs[0].st.io_bytes[SB_DDIR_READ], 32 * MB);
	CU_ASSERT_EQUAL(res.jobs[0].st.io_bytes[SB_DDIR_WRITE], 16 * MB);
	CU_ASSERT_EQUAL(res.jobs[0].st.total_ios[SB_DDIR_READ], 2 * 4096);
	CU_ASSERT_STRING_EQUAL(res.jobs[1].name, "c");
	CU_ASSERT_EQUAL(res.jobs[1].nthreads, 1);
	CU_ASSERT_STRING_EQUAL(res.jobs[2].name, "d");
	CU_ASSERT_EQUAL_FATAL(res.ngroups, 2);
	CU_ASSERT_EQUAL(res.groups[0].dir[SB_DDIR_READ].io_bytes, 32 * MB);
	sb_results_free(&res);
}

/* job_runtime adds over the members (fio: numjobs=4 runtime=1
 * group_reporting prints job_runtime 4006), the direction's runtime is the
 * longest member's */
static void test_group_runtime_summed(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_results res;
	strcpy(s.ioengine, "null");
	s.size = 64 * MB;
	s.numjobs = 3;
	s.time_based = true;
	s.runtime_us = 300000;
	s.group_reporting = true;
	strcpy(s.name, "t");
	struct sb_joblist jl = { .jobs = &s, .njobs = 1 };
	struct timespec t0;
	sb_spec_derive(&s);
	long long some0 = cpu_some_us();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL_FATAL(sb_run(&jl, NULL, &res), 0);
	double late_ms = 100 + 1000 * cpu_lost_s(&t0, some0); /* ends late only by load */
	CU_ASSERT_EQUAL_FATAL(res.njobs, 1);
	CU_ASSERT_TRUE(res.jobs[0].job_runtime_ms >= 3 * 295);
	CU_ASSERT_TRUE(res.jobs[0].job_runtime_ms <= 3 * (300 + late_ms));
	CU_ASSERT_TRUE(res.jobs[0].runtime_ms[SB_DDIR_READ] >= 295);
	CU_ASSERT_TRUE(res.jobs[0].runtime_ms[SB_DDIR_READ] <= 300 + late_ms);
	sb_results_free(&res);
}

static CU_TestInfo tests[] = {
	{ "bytes moved == size (psync/sync, read/write, seq/rand)", test_bytes_equal_size },
	{ "read jobs lay out real data first", test_read_layout_writes_data },
	{ "null engine: no files, exact bytes", test_null_engine },
	{ "unlink=1 removes only created files; no truncation", test_unlink_only_created },
	{ "free-space check refuses and creates nothing", test_free_space_refused },
	{ "direct=1 with misaligned bs refused", test_direct_misaligned_refused },
	{ "setup errors come back before any I/O", test_setup_error_before_io },
	{ "rate=20m: never above, below only by the CPU time load took", test_rate_limit },
	{ "rate schedule: due times are exactly the caps (no clock)", test_rate_schedule },
	{ "block device in use (fixture /proc, /sys)", test_os_bdev_in_use },
	{ "write to a mounted/partitioned device refused", test_mounted_write_refused },
	{ "stop request: partial results, interrupted", test_interrupt_partial_results },
	{ "numjobs, group_reporting, groups", test_group_reporting },
	{ "group_reporting merges job sections (fio's entries)", test_group_reporting_sections },
	{ "group_reporting: job_runtime summed", test_group_runtime_summed },
	CU_TEST_INFO_NULL,
};
SB_SUITE(core, tests)
