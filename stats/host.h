/* host.h: host counters sampled by the stats thread beside the I/O - CPU,
 * memory, disks, network, InfiniBand, RAPL energy, perf events and NVIDIA
 * GPUs.  Every collector reads /proc and /sys below a root directory ("/" in
 * production, a fixture tree under t/fixtures in tests).  A source that does
 * not exist here (missing file, no permission, unsupported event, no driver)
 * is reported ABSENT with a reason: never as zero and never as an error.
 *
 * Use (one thread, the stats thread):
 *     h = sb_host_open(&cfg);               baseline read at cfg.start_ns
 *     sb_host_sample(h, now) every interval  one series sample per call
 *     sb_host_summary(h, &sum)               end-of-run figures
 *     sb_host_series(h, out, sum.nseries)    the series
 *     sb_host_close(h)
 * The collectors are stats/host/<name>.c behind stats/host/collector.h; the
 * writers (output/host.c) read only the summary and the series.
 *
 * Units: MB are decimal (1e6 bytes) as in the psutil-based monitors these
 * names come from; byte counts are bytes; percentages are 0..100. */
#ifndef SB_HOST_H
#define SB_HOST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "stats/results.h"

/* The collectors, one row each: X(ENUM, name) for stats/host/<name>.c,
 * which defines sb_host_<name>_collector (stats/host/collector.h).  The
 * order is that of the output.  This list makes enum sb_host_src, the
 * table sb_host_collectors (stats/host.c) and the collectors' declarations
 * (stats/host/collector.h): adding a collector is its file and its row. */
#define SB_HOST_COLLECTORS(X) \
	X(CPU, cpu) \
	X(MEM, mem) \
	X(DISK, disk) \
	X(NET, net) \
	X(IB, ib) \
	X(RAPL, rapl) \
	X(PERF, perf) \
	X(GPU, gpu) \
	X(PSI, psi) \
	/* one row per collector, each ending in a backslash, above this line */

enum sb_host_src {
#define SB_HOST_ENUM_(u, l) SB_HOST_##u,
	SB_HOST_COLLECTORS(SB_HOST_ENUM_)
#undef SB_HOST_ENUM_
	SB_HOST_NSRC
};
#define SB_HOST_ALL ((1u << SB_HOST_NSRC) - 1)

/* fixed capacities of the summary */
#define SB_HOST_MAX_DISKS 16
#define SB_HOST_MAX_IB 16          /* InfiniBand ports */
#define SB_HOST_MAX_RAPL 16        /* RAPL domains */
#define SB_HOST_MAX_PERF 16        /* perf events */
#define SB_HOST_MAX_TIDS 256       /* threads counted by perf */
#define SB_HOST_MAX_GPUS 16
/* Stored series samples.  Past the cap, neighbours are merged pairwise and
 * every later stored sample covers twice as many intervals, so memory stays
 * bounded and the whole run stays covered (at 1 s: 2048 s at full
 * resolution, then 2 s, 4 s, ... per sample). */
#define SB_HOST_SERIES_CAP 2048
#define SB_HOST_NAME_MAX 64
#define SB_HOST_REASON_MAX 160
#define SB_HOST_PERF_DEFAULT "cycles,instructions,cache-misses,context-switches,page-faults"

struct sb_host_config {
	const char *root;          /* "/" when NULL */
	unsigned which;            /* mask of 1u << SB_HOST_*; 0 = none */
	const char *const *disks;  /* block device names as in /proc/diskstats */
	unsigned ndisks;
	const char *fs_path;       /* statvfs target (real path, not under root) */
	const char *perf_events;   /* libpfm4 names, comma-separated; NULL = default */
	const pid_t *tids;         /* threads to count perf events on */
	unsigned ntids;
	const char *nvml_lib;      /* NULL = "libnvidia-ml.so.1" */
	unsigned series_cap;       /* 0 = SB_HOST_SERIES_CAP; else even, >= 2 */
	uint64_t start_ns;         /* baseline time, 0 = now (CLOCK_MONOTONIC) */
};

/* Whether a source (or one device, domain, event) was measured. */
struct sb_host_status {
	bool present;
	char reason[SB_HOST_REASON_MAX]; /* why absent; "" when present */
};

/* CPU (from /proc/stat ticks; per CPU util = 100 * busy/total over one
 * interval, busy = total - idle - iowait, total = user + nice + system +
 * idle + iowait + irq + softirq + steal; guest time is inside user/nice).
 * A sample's average, min and max are taken across the CPUs.
 *   cpu_avg_utilization_pct: busy ticks / total ticks of all CPUs over the
 *       run, i.e. the interval-length-weighted mean of the sample averages.
 *   cpu_avg_utilization_overN_pct: percent of samples whose average is > N.
 *   cpu_avg_utilization_at100_pct: percent of samples whose average is
 *       >= 99.5 (shows as 100).
 *   max_t_cpu_pct_per_cpu_avg/min/max: the largest, over the samples, of
 *       the sample's average / minimum / maximum across CPUs.
 *   node_cpu_hours: ncpus * wall hours * cpu_avg_utilization_pct / 100,
 *       the CPU time the whole node used during the run (not only storbench).
 *   node_unused_cpu_hours: ncpus * wall hours - node_cpu_hours. */
struct sb_host_cpu_sum {
	struct sb_host_status st;
	unsigned ncpus;
	double cpu_avg_utilization_pct;
	double cpu_avg_utilization_over20_pct;
	double cpu_avg_utilization_over40_pct;
	double cpu_avg_utilization_over80_pct;
	double cpu_avg_utilization_at100_pct;
	double max_t_cpu_pct_per_cpu_avg;
	double max_t_cpu_pct_per_cpu_min;
	double max_t_cpu_pct_per_cpu_max;
	double node_cpu_hours;
	double node_unused_cpu_hours;
};

/* max_t_mem_percent: max over samples of 100*(MemTotal-MemAvailable)/MemTotal;
 * peaks of Dirty and Writeback over the samples (and the baseline). */
struct sb_host_mem_sum {
	struct sb_host_status st;
	uint64_t mem_total_bytes;
	double max_t_mem_percent;
	uint64_t peak_dirty_bytes;
	uint64_t peak_writeback_bytes;
};

/* Disks: fio's disk_util deltas per device over the run (util = io_ticks
 * delta / wall ms * 100, capped at 100), totals = sectors * 512 / 1e6 summed
 * over the present devices; max_t_disk_usage_percent = max over samples of
 * 100 * (f_blocks - f_bfree) / (f_blocks - f_bfree + f_bavail), as df. */
struct sb_host_disk_sum {
	struct sb_host_status st;     /* absent when no device was found */
	struct sb_host_status total_st; /* absent when no device was measured */
	unsigned ndisks;
	struct sb_disk_util disk[SB_HOST_MAX_DISKS];
	struct sb_host_status disk_st[SB_HOST_MAX_DISKS];
	double total_disk_io_read_mb;
	double total_disk_io_write_mb;
	struct sb_host_status fs_st;  /* statvfs of fs_path */
	double max_t_disk_usage_percent;
};

/* /proc/net/dev byte deltas over the run; "lo" is loopback, every other
 * interface is external. */
struct sb_host_net_sum {
	struct sb_host_status st;
	double total_net_io_lo_sent_mb;
	double total_net_io_lo_recv_mb;
	double total_net_io_ext_sent_mb;
	double total_net_io_ext_recv_mb;
};

/* InfiniBand port counters; port_{xmit,rcv}_data count 4-byte words. */
struct sb_host_ib_port {
	char name[SB_HOST_NAME_MAX];  /* "mlx5_0:1" */
	uint64_t xmit_bytes, rcv_bytes, xmit_packets, rcv_packets;
};
struct sb_host_ib_sum {
	struct sb_host_status st;
	unsigned nports;
	struct sb_host_ib_port port[SB_HOST_MAX_IB];
	double total_ib_xmit_mb, total_ib_rcv_mb;
};

/* RAPL energy per domain (package-N, core, uncore, dram; sub-domains are
 * named "package-N:core"), counter wraps at max_energy_range_uj handled per
 * sample (one wrap per interval at most). */
struct sb_host_rapl_domain {
	char name[SB_HOST_NAME_MAX];
	double joules;
	double mean_watts;            /* joules / run seconds */
};
struct sb_host_rapl_sum {
	struct sb_host_status st;
	unsigned ndomains;
	struct sb_host_rapl_domain dom[SB_HOST_MAX_RAPL];
};

/* perf events summed over the counted threads (scaled when multiplexed). */
struct sb_host_perf_event {
	char name[SB_HOST_NAME_MAX];  /* as given (libpfm4 name) */
	struct sb_host_status st;
	uint64_t count;
	bool user_only;               /* kernel side not permitted: user-space count */
};
struct sb_host_perf_sum {
	struct sb_host_status st;     /* absent: no libpfm4, or no event opened */
	unsigned nevents;
	unsigned nthreads;
	struct sb_host_perf_event ev[SB_HOST_MAX_PERF];
};

/* NVML, per device, over the samples */
struct sb_host_gpu_dev {
	char name[SB_HOST_NAME_MAX];
	double mean_util_pct, max_util_pct;
	uint64_t peak_mem_used_bytes;
	double mean_pcie_tx_mbps, mean_pcie_rx_mbps; /* MB/s (1e6) */
	uint64_t pcie_tx_bytes, pcie_rx_bytes;      /* the rates times the intervals */
	double mean_power_w;
};
struct sb_host_gpu_sum {
	struct sb_host_status st;
	unsigned ngpus;
	struct sb_host_gpu_dev gpu[SB_HOST_MAX_GPUS];
};

/* How a collector's figures are written (output/host.c reads only these):
 * the collector describes its summary struct with fields (the JSON object,
 * in order) and lines (normal output), and output/host.c writes every
 * collector the same way. */
enum sb_host_kind {
	SB_HK_END,       /* ends a field array */
	SB_HK_U64,       /* uint64_t: JSON integer */
	SB_HK_UINT,      /* unsigned: JSON integer */
	SB_HK_DBL,       /* double: JSON %f; null when not finite */
	SB_HK_STR,       /* char[]: JSON string */
	SB_HK_FLAG,      /* bool: JSON true, only when set; in text its .text when set */
	SB_HK_LIST,      /* per-device list (.list): JSON array of objects; in text its count */
};
/* SB_HOST_AT(type, member): where a status of the summary (or element) is;
 * 0 means none */
#define SB_HOST_AT(type, member) (offsetof(type, member) + 1)
struct sb_host_list;
struct sb_host_field {
	const char *key;              /* JSON key; {key} in a line's template */
	enum sb_host_kind kind;
	size_t off;                   /* offsetof in the summary (or element) */
	size_t gate;                  /* SB_HOST_AT of a status: written only while it is present */
	bool absent_key;              /* gate absent: "<key>_absent": reason instead */
	const char *text;             /* FLAG: its text in normal output */
	const struct sb_host_list *list; /* LIST */
};
/* A per-device list: count and elements in the summary; each element's
 * first field is its name, written even when the element is absent. */
struct sb_host_list {
	size_t count_off;             /* unsigned: elements in use */
	size_t elem_off, elem_size;   /* the first element, the stride */
	size_t st_at, st_size;        /* SB_HOST_AT of the first element's status and the
	                               * stride of the statuses; 0: always present */
	bool when_absent;             /* written when the source is absent, too (count > 0) */
	const struct sb_host_field *fields;
};
/* One line (or one line per element) of normal output, indented by four
 * spaces.  Templates: literal text, {key} (U64/UINT/STR/FLAG as is, a LIST
 * as its count), {key:.N} (a DBL with N decimals), {key:M} (a DBL of MB,
 * 10^6 bytes, as "X.XXMiB (Y.YYMB)", the run status's way), {key:B} (U64 bytes as
 * B/KiB/MiB/GiB/TiB), {#} (the element's index), {reason} (an element's
 * absent reason). */
struct sb_host_line {
	const char *text;             /* the line, or the text before inline elements */
	const char *list;             /* key of a LIST: .each per element */
	const char *each;             /* element template (own line unless .inline_) */
	const char *absent;           /* element template when the element is absent */
	bool inline_;                 /* elements appended to .text on one line */
	size_t gate;                  /* SB_HOST_AT of a status: only while present */
};

struct sb_host_summary {
	double run_s;                 /* from start_ns to the last sample */
	unsigned nsamples;            /* sb_host_sample calls */
	unsigned which;               /* requested sources: 1u << SB_HOST_* */
	unsigned nseries;             /* stored series samples (sb_host_series) */
	unsigned series_intervals_per_sample; /* sampling intervals per stored sample */
	/* each collector's own summary struct (the ones above for the first
	 * eight; valid until the next sb_host_summary or sb_host_close) */
	const void *part[SB_HOST_NSRC];
};
static inline const struct sb_host_cpu_sum *sb_host_sum_cpu(const struct sb_host_summary *s) { return s->part[SB_HOST_CPU]; }
static inline const struct sb_host_mem_sum *sb_host_sum_mem(const struct sb_host_summary *s) { return s->part[SB_HOST_MEM]; }
static inline const struct sb_host_disk_sum *sb_host_sum_disk(const struct sb_host_summary *s) { return s->part[SB_HOST_DISK]; }
static inline const struct sb_host_net_sum *sb_host_sum_net(const struct sb_host_summary *s) { return s->part[SB_HOST_NET]; }
static inline const struct sb_host_ib_sum *sb_host_sum_ib(const struct sb_host_summary *s) { return s->part[SB_HOST_IB]; }
static inline const struct sb_host_rapl_sum *sb_host_sum_rapl(const struct sb_host_summary *s) { return s->part[SB_HOST_RAPL]; }
static inline const struct sb_host_perf_sum *sb_host_sum_perf(const struct sb_host_summary *s) { return s->part[SB_HOST_PERF]; }
static inline const struct sb_host_gpu_sum *sb_host_sum_gpu(const struct sb_host_summary *s) { return s->part[SB_HOST_GPU]; }

/* What output/host.c needs to write source s: its fields and lines */
const struct sb_host_field *sb_host_fields(enum sb_host_src s);
const struct sb_host_line *sb_host_lines(enum sb_host_src s);

/* One series sample: the interval that ends at t_ms (ms since start).  When
 * samples are merged, each column merges as its collector says (struct
 * sb_host_col): percentages and rates are interval-weighted means, byte
 * counts add, memory and filesystem figures keep the peak.  Columns of
 * absent sources are 0 and are not emitted.  The first eight collectors'
 * columns are named fields; a later collector's columns are its slots
 * (sb_host_slot0: its first one), so that adding one touches no header. */
#define SB_HOST_SLOTS 8
union sb_host_val {
	double d;
	uint64_t u;
};
struct sb_host_sample {
	uint64_t t_ms;
	uint64_t dur_ms;              /* length of the covered interval */
	double cpu_avg, cpu_min, cpu_max;
	double mem_pct;
	uint64_t dirty_bytes, writeback_bytes;
	uint64_t disk_read_bytes, disk_write_bytes;
	double disk_util_pct;         /* busiest device */
	double fs_used_pct;
	uint64_t net_lo_sent, net_lo_recv, net_ext_sent, net_ext_recv;
	uint64_t ib_xmit_bytes, ib_rcv_bytes;
	double rapl_watts;            /* package + dram domains */
	double gpu_util_pct;          /* mean over devices */
	uint64_t gpu_mem_used_bytes;  /* sum over devices */
	double gpu_power_w;           /* sum over devices */
	double gpu_pcie_tx_mbps, gpu_pcie_rx_mbps; /* sum over devices, MB/s (1e6) */
	union sb_host_val slot[SB_HOST_SLOTS]; /* later collectors' columns */
};

/* A series column: its JSON key, its kind (SB_HK_U64 or SB_HK_DBL; a
 * SB_HK_END row ends the array), how neighbours merge, and where it is:
 * offsetof in struct sb_host_sample, or (slot) the index among the
 * collector's own slots. */
enum sb_host_merge { SB_HM_WMEAN, SB_HM_MAX, SB_HM_SUM };
struct sb_host_col {
	const char *key;
	enum sb_host_kind kind;
	enum sb_host_merge merge;
	size_t off;
	bool slot;
};
#define SB_HOST_COL(key, kind, merge) { #key, kind, merge, offsetof(struct sb_host_sample, key), false }
#define SB_HOST_SLOT_COL(key, kind, merge, k) { key, kind, merge, k, true }
const struct sb_host_col *sb_host_cols(enum sb_host_src s);
/* the first slot of source s's columns (slots are given out in table order) */
unsigned sb_host_slot0(enum sb_host_src s);
/* a column's value in sample x (of source s) */
static inline union sb_host_val *sb_host_col_at(const struct sb_host_sample *x, enum sb_host_src s,
						 const struct sb_host_col *c)
{
	if (c->slot)
		return (union sb_host_val *)&x->slot[sb_host_slot0(s) + c->off];
	return (union sb_host_val *)((char *)x + c->off);
}

struct sb_host;

/* "cpu,mem,disk,net,ib,rapl,perf,gpu", "all" or "none" -> mask.
 * -EINVAL on an unknown name (names the bad one through sb_err). */
int sb_host_parse_mask(const char *s, unsigned *mask);
const char *sb_host_src_name(enum sb_host_src s);

/* Opens the requested collectors and reads the baseline.  NULL only when
 * memory runs out; missing sources are marked absent, not fatal. */
struct sb_host *sb_host_open(const struct sb_host_config *cfg);
/* Counts perf events on one more thread from now on (after open).
 * 0, or -ENOSPC past SB_HOST_MAX_TIDS; events that cannot be opened on it
 * are marked absent. */
int sb_host_perf_add_tid(struct sb_host *h, pid_t tid);
/* Reads every present source and stores one series sample covering the
 * interval since the previous call (or start).  0, or -ENOMEM. */
int sb_host_sample(struct sb_host *h, uint64_t now_ns);
void sb_host_summary(const struct sb_host *h, struct sb_host_summary *out);
bool sb_host_present(const struct sb_host *h, enum sb_host_src s);
/* whether a source was measured, and why not ("not requested ..." too) */
const struct sb_host_status *sb_host_status(const struct sb_host *h, enum sb_host_src s);
/* The stored series: n samples (the last one may cover fewer intervals
 * than the others while resolution is halved). */
unsigned sb_host_series(const struct sb_host *h, struct sb_host_sample *out, unsigned max);
/* The per-CPU utilization beside the series: sb_host_series_ncpus values
 * per sample (one per CPU index of /proc/stat's cpuN lines; 0 when the cpu
 * source is absent), each the CPU's busy % over the sample's interval
 * (merged samples: the interval-weighted mean), NaN for a CPU without a
 * reading in it (offline).  sb_host_series_cpus copies the samples, in the
 * order of sb_host_series, into out[max * ncpus]; returns their number. */
unsigned sb_host_series_ncpus(const struct sb_host *h);
unsigned sb_host_series_cpus(const struct sb_host *h, float *out, unsigned max);
void sb_host_close(struct sb_host *h);

/* Block devices holding path: stat st_dev -> /sys/dev/block/MAJ:MIN below
 * root, partition -> its disk, dm/md -> the disks of its slaves.  Names are
 * appended to names[*n] (skipping ones already there).  0, -ENODEV when
 * st_dev is not a block device (tmpfs, overlay), or a negative errno. */
int sb_host_path_disks(const char *root, const char *path,
		       char names[][SB_HOST_NAME_MAX], unsigned max, unsigned *n);
int sb_host_dev_disks(const char *root, unsigned major, unsigned minor,
		      char names[][SB_HOST_NAME_MAX], unsigned max, unsigned *n);

#endif
