/* priv.h: what the host collectors (stats/host/<name>.c) share - the state
 * behind struct sb_host, the collector interface and small helpers for
 * reading files below the root.  Not for use outside stats/host*. */
#ifndef SB_HOST_PRIV_H
#define SB_HOST_PRIV_H
#include <limits.h>

#include "stats/host.h"
#include "stats/host/collector.h"

struct host_cpu {
	unsigned ncpus;               /* cpuN lines at open */
	unsigned nidx;                /* size of the arrays: max N + 1 */
	uint64_t *busy, *total;       /* previous ticks per CPU index */
	unsigned char *seen;          /* index has a previous reading */
	float *cur;                   /* this sample's % per CPU index, NaN: no reading */
	unsigned nsamples;            /* samples with at least one CPU ticking */
	unsigned over20, over40, over80, at100;
	double wsum, wtime;           /* sum of avg * dt, sum of dt (s) */
	double max_avg, max_min, max_max;
};

struct host_mem {
	uint64_t total;
	double max_pct;
	uint64_t peak_dirty, peak_wb;
};

/* one /proc/diskstats line, the fields fio reports */
struct host_dstat {
	uint64_t rd_ios, rd_merges, rd_sect, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sect, wr_ticks;
	uint64_t io_ticks, in_queue;
};
struct host_disk {
	unsigned n;
	char name[SB_HOST_MAX_DISKS][SB_HOST_NAME_MAX];
	struct sb_host_status st[SB_HOST_MAX_DISKS];
	struct host_dstat base[SB_HOST_MAX_DISKS], prev[SB_HOST_MAX_DISKS];
	char fs_path[PATH_MAX];
	struct sb_host_status fs_st;
	double fs_max_pct;
};

#define HOST_NET_MAX 64
struct host_netif {
	char name[32];
	uint64_t rx, tx;
};
struct host_net {
	unsigned n;
	struct host_netif prev[HOST_NET_MAX];
	uint64_t lo_tx, lo_rx, ext_tx, ext_rx; /* totals since open */
};

struct host_ib {
	unsigned n;
	char dir[SB_HOST_MAX_IB][PATH_MAX]; /* .../counters, relative to root */
	struct sb_host_ib_port port[SB_HOST_MAX_IB]; /* totals since open */
	uint64_t prev[SB_HOST_MAX_IB][4]; /* xmit_data, rcv_data, xmit_pk, rcv_pk */
};

struct host_rapl {
	unsigned n;
	char dir[SB_HOST_MAX_RAPL][64];   /* "intel-rapl:0:1" */
	char name[SB_HOST_MAX_RAPL][SB_HOST_NAME_MAX];
	bool in_total[SB_HOST_MAX_RAPL];  /* package or dram: summed in series */
	uint64_t max_range[SB_HOST_MAX_RAPL], prev[SB_HOST_MAX_RAPL];
	uint64_t uj[SB_HOST_MAX_RAPL];    /* accumulated microjoules */
};

struct host_perf_ev;   /* host_perf.c */
struct host_perf {
	unsigned nev, ntids;
	struct host_perf_ev *ev;
};

struct host_gpu_dev {
	void *handle;
	char name[SB_HOST_NAME_MAX];
	unsigned nsamples;
	double util_sum, util_max, tx_sum, rx_sum, power_sum;
	double tx_bytes, rx_bytes;   /* PCIe rates integrated over the intervals */
	uint64_t mem_peak;
};
struct host_nvml;
struct host_gpu {
	void *lib;
	unsigned n;
	struct host_gpu_dev dev[SB_HOST_MAX_GPUS];
	struct host_nvml *api;            /* resolved NVML entry points (host_gpu.c) */
};

struct sb_host {
	char root[PATH_MAX];
	unsigned which;
	struct sb_host_status st[SB_HOST_NSRC];
	uint64_t start_ns, last_ns;
	unsigned nsamples;
	struct host_cpu cpu;
	struct host_mem mem;
	struct host_disk disk;
	struct host_net net;
	struct host_ib ib;
	struct host_rapl rapl;
	struct host_perf perf;
	struct host_gpu gpu;
	void *state[SB_HOST_NSRC];        /* collector.h's state_size */
	void *sum[SB_HOST_NSRC];          /* collector.h's sum_size: the summaries */
	/* series: stored[nser], each covering `stride` sampling intervals;
	 * pend accumulates the next one (npend intervals so far) */
	struct sb_host_sample *ser;
	unsigned nser, cap, stride, npend;
	struct sb_host_sample pend;
	/* per-CPU % beside the series (cpu.cur's nidx values per sample):
	 * pcpu[nser * npcpu] in step with ser, pend_pcpu with pend */
	float *pcpu, *pend_pcpu;
	unsigned npcpu;
};

/* the NVIDIA GPUs NVML lists, into the system inventory (gpu.c) */
struct sb_sysinv;
void sb_host_gpu_inventory(const char *nvml_lib, struct sb_sysinv *inv);

/* helpers (host.c) */
/* root + rel into buf; -ENAMETOOLONG when it does not fit */
int sb_host_path(const struct sb_host *h, const char *rel, char *buf, size_t len);
/* Whole (small) file into buf, NUL-terminated: length or -errno. */
ssize_t sb_host_read_file(const char *path, char *buf, size_t len);
int sb_host_read_u64(const char *path, uint64_t *v);
void sb_host_set_absent(struct sb_host_status *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "path: strerror(-err)" as an absent reason */
void sb_host_set_errno(struct sb_host_status *st, const char *what, int err);
#endif
