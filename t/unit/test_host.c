/* test_host.c: the host collectors (stats/host.c, stats/host/<name>.c) on fixture trees with
 * hand-computed answers, the absent marking, counter wraps, the bounded
 * series, perf on this thread and the real host (their output:
 * test_output_host.c).
 *
 * The fixture run reads t/fixtures/host1 (baseline, t = 1 s), host1b
 * (t = 2 s), host1c (t = 3 s) and host1d (t = 5 s) through one root: a
 * symlink in the scratch directory that is re-pointed between samples, the
 * way /proc changes under a running collector. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "harness.h"
#include "host_fixture.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "stats/host.h"
#include "stats/host/collector.h"

#define S (1000000000ull)
#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

static char link_path[PATH_MAX];

const char *sb_test_host_root_at(const char *name)
{
	char target[PATH_MAX], abs_target[PATH_MAX];
	snprintf(target, sizeof(target), "%s", sb_test_fixture(name));
	if (!realpath(target, abs_target))
		return NULL;
	snprintf(link_path, sizeof(link_path), "%s/root", sb_test_tmpdir());
	unlink(link_path);
	if (symlink(abs_target, link_path) < 0)
		return NULL;
	return link_path;
}

static void test_parse_mask(void)
{
	unsigned m = 123;
	CU_ASSERT_EQUAL(sb_host_parse_mask("cpu,mem,rapl", &m), 0);
	CU_ASSERT_EQUAL(m, (1u << SB_HOST_CPU) | (1u << SB_HOST_MEM) | (1u << SB_HOST_RAPL));
	CU_ASSERT_EQUAL(sb_host_parse_mask("all", &m), 0);
	CU_ASSERT_EQUAL(m, SB_HOST_ALL);
	CU_ASSERT_EQUAL(sb_host_parse_mask("none", &m), 0);
	CU_ASSERT_EQUAL(m, 0u);
	char log[256] = "";
	sb_log_capture(log, sizeof(log));
	CU_ASSERT_EQUAL(sb_host_parse_mask("cpu,gpus", &m), -EINVAL);
	sb_log_capture(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "'gpus'"));
	CU_ASSERT_STRING_EQUAL(sb_host_src_name(SB_HOST_IB), "ib");
}

static const char *const disks[] = { "sda", "nvme0n1", "nosuch" };

/* opens on host1 and samples host1b, host1c, host1d */
struct sb_host *sb_test_host_fixture_run(unsigned cap)
{
	return sb_test_host_fixture_run_which(cap, SB_HOST_ALL & ~(1u << SB_HOST_PERF), 0);
}

struct sb_host *sb_test_host_fixture_run_which(unsigned cap, unsigned which, pid_t tid)
{
	struct sb_host_config cfg = {
		.root = sb_test_host_root_at("host1"),
		.which = which,
		.disks = disks, .ndisks = 3,
		.fs_path = sb_test_tmpdir(),
		.nvml_lib = "libnvidia-ml-not-here.so.1",
		.series_cap = cap,
		.start_ns = 1 * S,
	};
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg.root);
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	if (tid)
		CU_ASSERT_EQUAL(sb_host_perf_add_tid(h, tid), 0);
	sb_test_host_root_at("host1b");
	CU_ASSERT_EQUAL(sb_host_sample(h, 2 * S), 0);
	sb_test_host_root_at("host1c");
	CU_ASSERT_EQUAL(sb_host_sample(h, 3 * S), 0);
	sb_test_host_root_at("host1d");
	CU_ASSERT_EQUAL(sb_host_sample(h, 5 * S), 0);
	return h;
}

/* Per-CPU utilization per interval (busy = total - idle - iowait):
 *   1 s  host1->b: cpu0 10/100, cpu1 50/100, cpu2 90/100, cpu3 100/100
 *        (cpu3's guest +40 is inside user and not counted twice)
 *        -> avg 62.5, min 10, max 100
 *   1 s  b->c: cpu0-2 100/100, cpu3 99/100 -> avg 99.75, min 99, max 100
 *        (99.75 >= 99.5 shows as 100: counted "at 100")
 *   2 s  c->d: every CPU 10/200 -> avg 5, min 5, max 5
 * cpu_avg = (62.5*1 + 99.75*1 + 5*2) / 4 s = 43.0625
 * over20 = over40 = 2 of 3 samples, over80 = at100 = 1 of 3
 * max_t of avg / min / max across CPUs: 99.75 / 99 / 100
 * node_cpu_hours = 4 CPUs * 4 s / 3600 * 0.430625 = 6.89 / 3600,
 * unused = (16 - 6.89) / 3600. */
static void test_cpu(void)
{
	struct sb_host *h = sb_test_host_fixture_run(0);
	struct sb_host_summary s;
	sb_host_summary(h, &s);
	CU_ASSERT_TRUE(sb_host_sum_cpu(&s)->st.present);
	CU_ASSERT_EQUAL(sb_host_sum_cpu(&s)->ncpus, 4);
	CU_ASSERT_EQUAL(s.nsamples, 3);
	NEAR(s.run_s, 4.0);
	NEAR(sb_host_sum_cpu(&s)->cpu_avg_utilization_pct, 43.0625);
	NEAR(sb_host_sum_cpu(&s)->cpu_avg_utilization_over20_pct, 200.0 / 3);
	NEAR(sb_host_sum_cpu(&s)->cpu_avg_utilization_over40_pct, 200.0 / 3);
	NEAR(sb_host_sum_cpu(&s)->cpu_avg_utilization_over80_pct, 100.0 / 3);
	NEAR(sb_host_sum_cpu(&s)->cpu_avg_utilization_at100_pct, 100.0 / 3);
	NEAR(sb_host_sum_cpu(&s)->max_t_cpu_pct_per_cpu_avg, 99.75);
	NEAR(sb_host_sum_cpu(&s)->max_t_cpu_pct_per_cpu_min, 99.0);
	NEAR(sb_host_sum_cpu(&s)->max_t_cpu_pct_per_cpu_max, 100.0);
	NEAR(sb_host_sum_cpu(&s)->node_cpu_hours, 6.89 / 3600);
	NEAR(sb_host_sum_cpu(&s)->node_unused_cpu_hours, 9.11 / 3600);

	struct sb_host_sample ser[8];
	CU_ASSERT_EQUAL_FATAL(sb_host_series(h, ser, 8), 3);
	CU_ASSERT_EQUAL(ser[0].t_ms, 1000);
	CU_ASSERT_EQUAL(ser[2].t_ms, 4000);
	CU_ASSERT_EQUAL(ser[2].dur_ms, 2000);
	NEAR(ser[0].cpu_avg, 62.5);
	NEAR(ser[0].cpu_min, 10.0);
	NEAR(ser[0].cpu_max, 100.0);
	NEAR(ser[1].cpu_min, 99.0);
	NEAR(ser[2].cpu_avg, 5.0);
	sb_host_close(h);
}

/* meminfo (kB): total 16000000; available 12000000 -> 4000000 -> 8000000
 * -> 8000000, so used 25% (baseline, not a sample), 75%, 50%, 50%.
 * Dirty peaks at 409600 kB (host1b), Writeback at 16384 kB (host1c). */
static void test_mem(void)
{
	struct sb_host *h = sb_test_host_fixture_run(0);
	struct sb_host_summary s;
	struct sb_host_sample ser[4];
	sb_host_summary(h, &s);
	CU_ASSERT_TRUE(sb_host_sum_mem(&s)->st.present);
	CU_ASSERT_EQUAL(sb_host_sum_mem(&s)->mem_total_bytes, 16000000ull * 1024);
	NEAR(sb_host_sum_mem(&s)->max_t_mem_percent, 75.0);
	CU_ASSERT_EQUAL(sb_host_sum_mem(&s)->peak_dirty_bytes, 409600ull * 1024);
	CU_ASSERT_EQUAL(sb_host_sum_mem(&s)->peak_writeback_bytes, 16384ull * 1024);
	CU_ASSERT_EQUAL(sb_host_series(h, ser, 4), 3);
	NEAR(ser[1].mem_pct, 50.0);
	CU_ASSERT_EQUAL(ser[0].dirty_bytes, 409600ull * 1024);
	sb_host_close(h);
}

/* diskstats host1 -> host1b (then unchanged), run 4 s:
 *   sda: ios +100/+400, merges +5/+8, ticks +50/+90, in_queue +140,
 *        io_ticks +500 -> util 500/4000 ms = 12.5%; sectors +20000/+40000
 *   nvme0n1: read ios +250000, read sectors +1953125 (exactly 1e9 bytes),
 *        io_ticks +1000 -> util 25%; in the first 1 s sample 100%
 * read MB = (20000 + 1953125) * 512 / 1e6 = 1010.24, write 20.48. */
static void test_disk(void)
{
	struct sb_host *h = sb_test_host_fixture_run(0);
	struct sb_host_summary s;
	sb_host_summary(h, &s);
	const struct sb_host_disk_sum *d = sb_host_sum_disk(&s);
	CU_ASSERT_TRUE(d->st.present);
	CU_ASSERT_EQUAL_FATAL(d->ndisks, 3);
	CU_ASSERT_STRING_EQUAL(d->disk[0].name, "sda");
	CU_ASSERT_EQUAL(d->disk[0].read_ios, 100);
	CU_ASSERT_EQUAL(d->disk[0].write_ios, 400);
	CU_ASSERT_EQUAL(d->disk[0].read_merges, 5);
	CU_ASSERT_EQUAL(d->disk[0].write_merges, 8);
	CU_ASSERT_EQUAL(d->disk[0].read_ticks, 50);
	CU_ASSERT_EQUAL(d->disk[0].write_ticks, 90);
	CU_ASSERT_EQUAL(d->disk[0].in_queue, 140);
	CU_ASSERT_EQUAL(d->disk[0].io_ticks, 500);
	NEAR(d->disk[0].util, 12.5);
	CU_ASSERT_EQUAL(d->disk[1].read_ios, 250000);
	CU_ASSERT_EQUAL(d->disk[1].in_queue, 120000);
	NEAR(d->disk[1].util, 25.0);
	CU_ASSERT_FALSE(d->disk_st[2].present);
	CU_ASSERT_STRING_EQUAL(d->disk_st[2].reason, "nosuch: not in proc/diskstats");
	NEAR(d->total_disk_io_read_mb, 1010.24);
	NEAR(d->total_disk_io_write_mb, 20.48);
	CU_ASSERT_TRUE(d->fs_st.present);
	CU_ASSERT_TRUE(d->max_t_disk_usage_percent > 0 && d->max_t_disk_usage_percent <= 100);

	struct sb_host_sample ser[4];
	CU_ASSERT_EQUAL(sb_host_series(h, ser, 4), 3);
	CU_ASSERT_EQUAL(ser[0].disk_read_bytes, 1010240000ull);
	CU_ASSERT_EQUAL(ser[0].disk_write_bytes, 20480000ull);
	NEAR(ser[0].disk_util_pct, 100.0);
	CU_ASSERT_EQUAL(ser[1].disk_read_bytes, 0);
	NEAR(ser[1].disk_util_pct, 0.0);
	sb_host_close(h);
}

/* net/dev host1 -> host1b: lo +3000000 each way; eth0 rx +12500000,
 * tx +1250000; ib0 (IPoIB, external) rx +250000.
 * InfiniBand: mlx5_0 port 1 xmit_data +2500000 words = 10 MB, rcv_data
 * +250000 words = 1 MB, packets +100/+50; mlx5_1's 32-bit counter drops
 * from 4294967295 to 5 (reset): it adds nothing. */
static void test_net_ib(void)
{
	struct sb_host *h = sb_test_host_fixture_run(0);
	struct sb_host_summary s;
	sb_host_summary(h, &s);
	CU_ASSERT_TRUE(sb_host_sum_net(&s)->st.present);
	NEAR(sb_host_sum_net(&s)->total_net_io_lo_sent_mb, 3.0);
	NEAR(sb_host_sum_net(&s)->total_net_io_lo_recv_mb, 3.0);
	NEAR(sb_host_sum_net(&s)->total_net_io_ext_sent_mb, 1.25);
	NEAR(sb_host_sum_net(&s)->total_net_io_ext_recv_mb, 12.75);
	CU_ASSERT_TRUE(sb_host_sum_ib(&s)->st.present);
	CU_ASSERT_EQUAL_FATAL(sb_host_sum_ib(&s)->nports, 2);
	CU_ASSERT_STRING_EQUAL(sb_host_sum_ib(&s)->port[0].name, "mlx5_0:1");
	CU_ASSERT_EQUAL(sb_host_sum_ib(&s)->port[0].xmit_bytes, 10000000ull);
	CU_ASSERT_EQUAL(sb_host_sum_ib(&s)->port[0].rcv_bytes, 1000000ull);
	CU_ASSERT_EQUAL(sb_host_sum_ib(&s)->port[0].xmit_packets, 100);
	CU_ASSERT_EQUAL(sb_host_sum_ib(&s)->port[0].rcv_packets, 50);
	CU_ASSERT_STRING_EQUAL(sb_host_sum_ib(&s)->port[1].name, "mlx5_1:1");
	CU_ASSERT_EQUAL(sb_host_sum_ib(&s)->port[1].xmit_bytes, 0);
	NEAR(sb_host_sum_ib(&s)->total_ib_xmit_mb, 10.0);
	NEAR(sb_host_sum_ib(&s)->total_ib_rcv_mb, 1.0);
	struct sb_host_sample ser[4];
	CU_ASSERT_EQUAL(sb_host_series(h, ser, 4), 3);
	CU_ASSERT_EQUAL(ser[0].net_ext_recv, 12750000ull);
	CU_ASSERT_EQUAL(ser[0].ib_xmit_bytes, 10000000ull);
	sb_host_close(h);
}

/* RAPL, max_energy_range_uj 262143328850 in every zone:
 *   package-0 262142328850 -> 1000000: wraps, (range - prev) + new =
 *             1000000 + 1000000 uJ = 2 J, 0.5 W over 4 s
 *   core 5000000 -> 6500000 = 1.5 J; dram 1000000 -> 1500000 = 0.5 J
 * first sample (1 s): package + dram = 2.5 W (core is inside package). */
static void test_rapl(void)
{
	struct sb_host *h = sb_test_host_fixture_run(0);
	struct sb_host_summary s;
	sb_host_summary(h, &s);
	CU_ASSERT_TRUE(sb_host_sum_rapl(&s)->st.present);
	CU_ASSERT_EQUAL_FATAL(sb_host_sum_rapl(&s)->ndomains, 3);
	CU_ASSERT_STRING_EQUAL(sb_host_sum_rapl(&s)->dom[0].name, "package-0");
	NEAR(sb_host_sum_rapl(&s)->dom[0].joules, 2.0);
	NEAR(sb_host_sum_rapl(&s)->dom[0].mean_watts, 0.5);
	CU_ASSERT_STRING_EQUAL(sb_host_sum_rapl(&s)->dom[1].name, "package-0:core");
	NEAR(sb_host_sum_rapl(&s)->dom[1].joules, 1.5);
	NEAR(sb_host_sum_rapl(&s)->dom[1].mean_watts, 0.375);
	CU_ASSERT_STRING_EQUAL(sb_host_sum_rapl(&s)->dom[2].name, "package-0:dram");
	NEAR(sb_host_sum_rapl(&s)->dom[2].joules, 0.5);
	struct sb_host_sample ser[4];
	CU_ASSERT_EQUAL(sb_host_series(h, ser, 4), 3);
	NEAR(ser[0].rapl_watts, 2.5);
	NEAR(ser[1].rapl_watts, 0.0);
	/* no driver: GPU absent with dlopen's reason, not zero */
	CU_ASSERT_FALSE(sb_host_sum_gpu(&s)->st.present);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_host_sum_gpu(&s)->st.reason, "libnvidia-ml-not-here.so.1"));
	CU_ASSERT_FALSE(sb_host_present(h, SB_HOST_PERF));
	CU_ASSERT_STRING_EQUAL(sb_host_sum_perf(&s)->st.reason, "not requested (host_counters)");
	sb_host_close(h);
}

static void test_empty_root(void)
{
	struct sb_host_config cfg = {
		.root = sb_test_fixture("empty"), .which = SB_HOST_ALL,
		.disks = disks, .ndisks = 1, .nvml_lib = "libnvidia-ml-not-here.so.1",
		.start_ns = S,
	};
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(sb_host_sample(h, 2 * S), 0);
	struct sb_host_summary s;
	sb_host_summary(h, &s);
	for (unsigned i = 0; i < SB_HOST_NSRC; i++) {
		if (i == SB_HOST_PERF)
			continue;   /* not read through the root */
		CU_ASSERT_FALSE(sb_host_present(h, i));
	}
	CU_ASSERT_STRING_EQUAL(sb_host_sum_cpu(&s)->st.reason, "proc/stat: No such file or directory");
	CU_ASSERT_STRING_EQUAL(sb_host_sum_mem(&s)->st.reason, "proc/meminfo: No such file or directory");
	CU_ASSERT_STRING_EQUAL(sb_host_sum_net(&s)->st.reason, "proc/net/dev: No such file or directory");
	CU_ASSERT_STRING_EQUAL(sb_host_sum_ib(&s)->st.reason, "sys/class/infiniband: No such file or directory");
	CU_ASSERT_STRING_EQUAL(sb_host_sum_rapl(&s)->st.reason, "sys/class/powercap: No such file or directory");
	CU_ASSERT_STRING_EQUAL(sb_host_sum_disk(&s)->st.reason, "proc/diskstats: No such file or directory");
	CU_ASSERT_EQUAL(sb_host_sum_cpu(&s)->ncpus, 0);
	NEAR(sb_host_sum_cpu(&s)->cpu_avg_utilization_pct, 0.0);
	sb_host_close(h);
}

/* cap 4, ten 1 s samples alternating host1 -> host1b (lo +3 MB) and back
 * (counters go down: 0).  s1..s4 fill the store; s5 halves it to
 * [1-2, 3-4] (2 intervals each); s6, s7-8 follow; s10 halves again to
 * [1-4, 5-8] (4 each) and s9-10 is the partial last one:
 *   t_ms 4000 / 8000 / 10000, lo sent 6 / 6 / 3 MB, cpu avg 31.25 */
static void test_downsample(void)
{
	struct sb_host_config cfg = {
		.root = sb_test_host_root_at("host1"),
		.which = (1u << SB_HOST_NET) | (1u << SB_HOST_CPU),
		.series_cap = 4, .start_ns = S,
	};
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	struct sb_host_sample ser[8];
	for (unsigned k = 1; k <= 10; k++) {
		sb_test_host_root_at(k % 2 ? "host1b" : "host1");
		CU_ASSERT_EQUAL(sb_host_sample(h, (1 + k) * S), 0);
		if (k == 4)
			CU_ASSERT_EQUAL(sb_host_series(h, ser, 8), 4);
		if (k == 5) {
			CU_ASSERT_EQUAL_FATAL(sb_host_series(h, ser, 8), 3);
			CU_ASSERT_EQUAL(ser[0].t_ms, 2000);
			CU_ASSERT_EQUAL(ser[0].dur_ms, 2000);
			CU_ASSERT_EQUAL(ser[2].t_ms, 5000);
			CU_ASSERT_EQUAL(ser[2].dur_ms, 1000);
		}
	}
	CU_ASSERT_EQUAL_FATAL(sb_host_series(h, ser, 8), 3);
	CU_ASSERT_EQUAL(ser[0].t_ms, 4000);
	CU_ASSERT_EQUAL(ser[0].dur_ms, 4000);
	CU_ASSERT_EQUAL(ser[1].t_ms, 8000);
	CU_ASSERT_EQUAL(ser[2].t_ms, 10000);
	CU_ASSERT_EQUAL(ser[2].dur_ms, 2000);
	CU_ASSERT_EQUAL(ser[0].net_lo_sent, 6000000ull);
	CU_ASSERT_EQUAL(ser[1].net_lo_sent, 6000000ull);
	CU_ASSERT_EQUAL(ser[2].net_lo_sent, 3000000ull);
	NEAR(ser[0].cpu_avg, 31.25);
	NEAR(ser[2].cpu_avg, 31.25);
	/* the summary is kept at full resolution: 5 intervals of +3 MB */
	struct sb_host_summary s;
	sb_host_summary(h, &s);
	NEAR(sb_host_sum_net(&s)->total_net_io_lo_sent_mb, 15.0);
	CU_ASSERT_EQUAL(s.nsamples, 10);
	sb_host_close(h);
}

/* the block-device tree of host1: sda1/sda2 partitions of sda, dm-0 over
 * sda2 + sdb, md0 over dm-0 + nvme0n1 */
static void test_blkdev(void)
{
	char names[4][SB_HOST_NAME_MAX];
	unsigned n = 0;
	const char *root = sb_test_fixture("host1");
	CU_ASSERT_EQUAL(sb_host_dev_disks(root, 8, 1, names, 4, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(names[0], "sda");
	CU_ASSERT_EQUAL(sb_host_dev_disks(root, 253, 0, names, 4, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 2);   /* sda already listed */
	CU_ASSERT_STRING_EQUAL(names[1], "sdb");
	n = 0;
	CU_ASSERT_EQUAL(sb_host_dev_disks(root, 9, 0, names, 4, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(names[0], "sda");
	CU_ASSERT_STRING_EQUAL(names[1], "sdb");
	CU_ASSERT_STRING_EQUAL(names[2], "nvme0n1");
	n = 0;
	CU_ASSERT_EQUAL(sb_host_dev_disks(root, 259, 0, names, 4, &n), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(sb_host_dev_disks(root, 8, 99, names, 4, &n), -ENODEV);
	CU_ASSERT_EQUAL(sb_host_dev_disks(root, 0, 41, names, 4, &n), -ENODEV);
	CU_ASSERT_EQUAL(n, 1);
	/* a block device node maps through st_rdev (real /sys) */
	struct stat st;
	if (stat("/dev/loop0", &st) == 0 && S_ISBLK(st.st_mode) && access("/sys/dev/block/7:0", F_OK) == 0) {
		n = 0;
		CU_ASSERT_EQUAL(sb_host_path_disks("/", "/dev/loop0", names, 4, &n), 0);
		CU_ASSERT_EQUAL(n, 1);
		CU_ASSERT_STRING_EQUAL(names[0], "loop0");
	}
}

static volatile unsigned long sink;

/* software events count on this thread; hardware ones are counted or
 * absent with a reason (absent on this VM); a bad name is absent */
static void test_perf(void)
{
	pid_t tid = gettid();
	struct sb_host_config cfg = {
		.which = 1u << SB_HOST_PERF,
		.perf_events = "context-switches,page-faults,cycles,no-such-event",
		.tids = &tid, .ntids = 1,
	};
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	for (int i = 0; i < 20; i++)
		usleep(1000);   /* each sleep is a context switch */
	size_t len = 8u << 20;
	char *mem = malloc(len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	for (size_t i = 0; i < len; i += 4096)
		mem[i] = (char)i;   /* first touch of each page faults */
	sink += (unsigned long)mem[4096];
	free(mem);
	struct sb_host_summary s;
	sb_host_summary(h, &s);
#ifdef CONFIG_LIBPFM4
	CU_ASSERT_TRUE(sb_host_present(h, SB_HOST_PERF));
	CU_ASSERT_EQUAL_FATAL(sb_host_sum_perf(&s)->nevents, 4);
	CU_ASSERT_EQUAL(sb_host_sum_perf(&s)->nthreads, 1);
	if (sb_host_sum_perf(&s)->ev[0].st.present) {
		CU_ASSERT_TRUE(sb_host_sum_perf(&s)->ev[0].count >= 20);
	} else {
		/* not root and perf_event_paranoid >= 2: a kernel-side event is
		 * absent, not a user-space 0 */
		CU_ASSERT_NOT_EQUAL(geteuid(), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(sb_host_sum_perf(&s)->ev[0].st.reason, "perf_event_paranoid"));
	}
	CU_ASSERT_TRUE(sb_host_sum_perf(&s)->ev[1].st.present);
	CU_ASSERT_TRUE(sb_host_sum_perf(&s)->ev[1].count >= 1000);   /* 2048 pages touched */
	CU_ASSERT_TRUE(sb_host_sum_perf(&s)->ev[2].st.present ? sb_host_sum_perf(&s)->ev[2].count > 0
					       : strlen(sb_host_sum_perf(&s)->ev[2].st.reason) > 0);
	CU_ASSERT_FALSE(sb_host_sum_perf(&s)->ev[3].st.present);
	CU_ASSERT_STRING_EQUAL(sb_host_sum_perf(&s)->ev[3].st.reason, "libpfm4: event not found");
#else
	CU_ASSERT_STRING_EQUAL(sb_host_sum_perf(&s)->st.reason, "storbench built without libpfm4");
#endif
	sb_host_close(h);
}

/* The real machine (2 CPUs, no RAPL, no InfiniBand, no GPU). */
static void test_real_host(void)
{
	char names[4][SB_HOST_NAME_MAX];
	const char *dn[4];
	unsigned n = 0;
	/* -ENODEV when TMPDIR is on tmpfs or overlay: no block device */
	int err = sb_host_path_disks("/", sb_test_tmpdir(), names, 4, &n);
	CU_ASSERT_TRUE(err == 0 ? n >= 1 : err == -ENODEV);
	for (unsigned i = 0; i < n; i++)
		dn[i] = names[i];
	struct sb_host_config cfg = {
		.root = "/", .which = SB_HOST_ALL & ~(1u << SB_HOST_PERF),
		.fs_path = sb_test_tmpdir(), .disks = dn, .ndisks = n,
	};
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	uint64_t t0 = sb_now_ns();
	while (sb_now_ns() - t0 < 50000000ull)
		sink++;   /* 50 ms of work so CPU ticks pass */
	CU_ASSERT_EQUAL(sb_host_sample(h, sb_now_ns()), 0);
	struct sb_host_summary s;
	sb_host_summary(h, &s);
	CU_ASSERT_TRUE(sb_host_sum_cpu(&s)->st.present);
	CU_ASSERT_TRUE(sb_host_sum_cpu(&s)->ncpus >= 1);
	CU_ASSERT_TRUE(sb_host_sum_mem(&s)->st.present);
	CU_ASSERT_TRUE(sb_host_sum_mem(&s)->max_t_mem_percent > 0 && sb_host_sum_mem(&s)->max_t_mem_percent < 100);
	CU_ASSERT_TRUE(sb_host_sum_net(&s)->st.present);
	CU_ASSERT_TRUE(sb_host_sum_disk(&s)->fs_st.present);
	for (unsigned i = 0; i < n; i++)   /* the mapped names are diskstats names */
		CU_ASSERT_TRUE(sb_host_sum_disk(&s)->disk_st[i].present);
	if (access("/sys/class/powercap", F_OK) != 0)
		CU_ASSERT_FALSE(sb_host_sum_rapl(&s)->st.present);
	if (access("/sys/class/infiniband", F_OK) != 0)
		CU_ASSERT_FALSE(sb_host_sum_ib(&s)->st.present);
	CU_ASSERT_FALSE(sb_host_sum_gpu(&s)->st.present);
	CU_ASSERT_TRUE(strlen(sb_host_sum_gpu(&s)->st.reason) > 0);
	sb_host_close(h);
}

/* The collector table (stats/host/collector.h): a row per source at its
 * own index, named, with the mandatory ops, found by name; on the empty
 * fixture root every collector is absent with a reason (never present,
 * never an error), and not requested says so. */
static void test_collector_table(void)
{
	for (unsigned i = 0; i < SB_HOST_NSRC; i++) {
		const struct sb_host_collector *c = sb_host_collectors[i];
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_EQUAL(c->src, i);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c->name);
		CU_ASSERT_TRUE(c->name[0] != 0 && strlen(c->name) < 16);
		CU_ASSERT_PTR_NOT_NULL(c->open);
		CU_ASSERT_PTR_NOT_NULL(c->summary);
		CU_ASSERT_STRING_EQUAL(sb_host_src_name(i), c->name);
		unsigned m = 0;
		CU_ASSERT_EQUAL(sb_host_parse_mask(c->name, &m), 0);
		CU_ASSERT_EQUAL(m, 1u << i);
		for (unsigned k = 0; k < i; k++)
			CU_ASSERT_STRING_NOT_EQUAL(sb_host_collectors[k]->name, c->name);
	}
	/* the error lists the table's names */
	char log[256] = "";
	unsigned m = 0;
	sb_log_capture(log, sizeof(log));
	CU_ASSERT_EQUAL(sb_host_parse_mask("nosuch", &m), -EINVAL);
	sb_log_capture(NULL, 0);
	char want[256] = "(use ";
	for (unsigned i = 0; i < SB_HOST_NSRC; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s, ", sb_host_collectors[i]->name);
	strcat(want, "all or none)");
	CU_ASSERT_PTR_NOT_NULL(strstr(log, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "(use cpu, mem, disk, net, ib, rapl, perf, gpu, "));

	struct sb_host_config cfg = {
		.root = sb_test_fixture("empty"), .which = SB_HOST_ALL,
		.disks = disks, .ndisks = 3,   /* no fs_path: statvfs is not below the root */
		.nvml_lib = "libnvidia-ml-not-here.so.1", .start_ns = S,
	};
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(sb_host_sample(h, 2 * S), 0);
	for (unsigned i = 0; i < SB_HOST_NSRC; i++) {
		const struct sb_host_status *st = sb_host_status(h, i);
		CU_ASSERT_FALSE(st->present);
		CU_ASSERT_TRUE(strlen(st->reason) > 0);
		CU_ASSERT_PTR_NULL(strstr(st->reason, "not requested"));
	}
	struct sb_host_summary s;
	sb_host_summary(h, &s);
	CU_ASSERT_EQUAL(s.which, SB_HOST_ALL);
	CU_ASSERT_EQUAL(s.nseries, 1);
	/* the summaries carry the same status as the sampler */
	CU_ASSERT_STRING_EQUAL(sb_host_sum_cpu(&s)->st.reason, sb_host_status(h, SB_HOST_CPU)->reason);
	CU_ASSERT_STRING_EQUAL(sb_host_sum_gpu(&s)->st.reason, sb_host_status(h, SB_HOST_GPU)->reason);
	CU_ASSERT_STRING_EQUAL(sb_host_sum_perf(&s)->st.reason, sb_host_status(h, SB_HOST_PERF)->reason);
	sb_host_close(h);

	cfg.which = 0;
	h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	for (unsigned i = 0; i < SB_HOST_NSRC; i++)
		CU_ASSERT_STRING_EQUAL(sb_host_status(h, i)->reason, "not requested (host_counters)");
	sb_host_close(h);
}

static CU_TestInfo tests[] = {
	{ "collector_table", test_collector_table },
	{ "parse_mask", test_parse_mask },
	{ "cpu", test_cpu },
	{ "mem", test_mem },
	{ "disk", test_disk },
	{ "net_ib", test_net_ib },
	{ "rapl_gpu", test_rapl },
	{ "empty_root", test_empty_root },
	{ "downsample", test_downsample },
	{ "blkdev", test_blkdev },
	{ "perf", test_perf },
	{ "real_host", test_real_host },
	CU_TEST_INFO_NULL,
};
SB_SUITE(host, tests)
