/* tstats.h: the statistics of one I/O thread.  Single writer: the I/O thread.
 * The live counters are relaxed atomics so the stats thread can sample them
 * while the run goes on; everything else is read only after the thread has
 * been joined. */
#ifndef SB_TSTATS_H
#define SB_TSTATS_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/ddir.h"
#include "stats/hist.h"
#include "stats/stat.h"

/* fio's depth buckets: iodepth_level 1,2,4,8,16,32,>=64;
 * submit/complete 0,4,8,16,32,64,>=64 (I/Os per submit or reap call) */
#define SB_DEPTH_BUCKETS 7

/* The first error of a thread, as raw facts.  The I/O thread only stores
 * them (no formatting on the I/O path); the path is copied in after the I/O
 * loop (sb_ioloop_error_path) and sb_tstats_error_text makes the text that
 * stderr, the normal output and JSON's "error_message" show. */
#define SB_ERRPATH_MAX 1024
struct sb_errinfo {
	const char *op;                 /* static text: "read", "write", "fsync", "create", ... */
	bool at;                        /* offset and len apply (an I/O) */
	bool eof;                       /* the read ended at the end of the file, not an errno */
	unsigned file;                  /* index in the thread's files; UINT_MAX: none */
	uint64_t offset, len;           /* bytes */
	char path[SB_ERRPATH_MAX];      /* the file (or folder); "" when unknown */
	char detail[256];               /* the engine's words on it (an S3 error's
					 * code and message); "" none */
};

#define SB_ERRDUMP_MAX 8

/* fio's per-priority latency (stat.c clat_prio): the latency of a
 * direction's I/Os by the priority they carried, (class << 13) | level.
 * The figure is clat, or lat with lat_percentiles (as fio).  Reads and
 * writes; at most SB_PRIO_MAX priorities a direction (a merge that meets
 * more sets prio_over and the output shows none). */
#define SB_PRIO_MAX 8
#define SB_PRIO_DIRS 2
struct sb_prio_lat {
	uint16_t ioprio;
	struct sb_stat s;            /* ns */
	struct sb_shist h;           /* kept; a running thread counts into live_h->prio_h */
};
#define SB_ENG_CTR_MAX 16 /* engine counters a job keeps */

struct sb_tstats {
	/* live: written with relaxed stores by the I/O thread */
	_Atomic uint64_t live_bytes[SB_DDIR_N];
	_Atomic uint64_t live_ios[SB_DDIR_N];

	/* per direction, counted after ramp_time */
	uint64_t io_bytes[SB_DDIR_N];
	uint64_t total_ios[SB_DDIR_N];
	uint64_t short_ios[SB_DDIR_N];
	uint64_t drop_ios[SB_DDIR_N];
	struct sb_stat slat[SB_DDIR_N], clat[SB_DDIR_N], lat[SB_DDIR_N];
	/* the kept latency histograms (sparse, owned: sb_tstats_release); a
	 * running thread counts into live_h and they stay empty */
	struct sb_shist slat_h[SB_DDIR_N], clat_h[SB_DDIR_N], lat_h[SB_DDIR_N];
	struct sb_stat sync_lat;       /* fsync/fdatasync latency, ns */
	struct sb_shist sync_h;        /* the same, for fio's sync percentiles */
	uint64_t iodepth_level[SB_DEPTH_BUCKETS];
	uint64_t iodepth_submit[SB_DEPTH_BUCKETS];
	uint64_t iodepth_complete[SB_DEPTH_BUCKETS];

	/* bandwidth (KiB/s) and IOPS samples, taken by the stats thread every
	 * 500 ms (fio's bw_avg/iops_avg default); only it writes these */
	struct sb_stat bw_samples[SB_DDIR_N];
	struct sb_stat iops_samples[SB_DDIR_N];

	/* set by the I/O thread before it exits */
	uint64_t runtime_ns[SB_DDIR_N]; /* time spent doing each direction's workload */
	uint64_t job_runtime_ns;
	uint64_t usr_us, sys_us;        /* getrusage(RUSAGE_THREAD) */
	uint64_t ctx, majf, minf;
	int error;                      /* first errno seen, 0 = none */
	struct sb_errinfo err;          /* what failed, where (valid when error) */
	/* I/O errors continue_on_error / ignore_error let pass (fio's
	 * total_err, first_error), and the first SB_ERRDUMP_MAX of them for
	 * error_dump (path filled in after the I/O loop) */
	uint64_t total_err;
	int first_error;
	unsigned ndump;
	struct sb_errdump {
		int error;
		unsigned char ddir;
		unsigned file;
		uint64_t offset, len;
		char path[256];
	} dump[SB_ERRDUMP_MAX];
	/* a running thread's dense histograms (sb_tstats_init_live),
	 * what the I/O path counts into; NULL in the results model */
	struct sb_thist *live_h;
	/* iomem=cudamalloc's copies between the pinned
	 * host buffers and GPU memory (run/gpu.c), counted after ramp_time:
	 * read: host to GPU after the read completed; write: GPU to host
	 * before it is submitted.  Bytes, and each copy's time in ns (apart
	 * from clat, which does not include it) */
	uint64_t gpu_bytes[SB_DDIR_N];
	struct sb_stat gpu_copy[SB_DDIR_N];
	struct sb_shist gpu_copy_h[SB_DDIR_N];
	/* of the copies' time, ns during which other I/Os of the same thread
	 * were in flight (iodepth > 1: the copy overlapped storage I/O) */
	uint64_t gpu_overlap_ns[SB_DDIR_N];
	/* ioengine=libcufile: "p2p" (GPUDirect through nvidia-fs), "compat"
	 * (cuFile's compatibility mode, POSIX I/O inside cuFile) or "posix"
	 * (cuda_io=posix); "" for other engines */
	char gds_mode[8];
	/* the engine's own counters (ioengine=s3 and http: requests by HTTP
	 * status class, retries, ...), counted by the I/O thread from its
	 * start, ramp time included; names: the engine's (NULL: none) */
	const char *const *eng_names;
	unsigned eng_n;
	uint64_t eng_ctr[SB_ENG_CTR_MAX];
	/* the engine's time to first byte (s3, http: each answered GET or
	 * PUT, engine.h struct sb_engine_sink), ns, after ramp_time */
	struct sb_stat ttfb[SB_DDIR_N];
	struct sb_shist ttfb_h[SB_DDIR_N];
	/* per priority (fio's clat_prio): a thread with cmdprio_* counts each
	 * I/O into its priority's entry (prio_live); one without has none and a
	 * merge takes its clat (lat: prio_lat) as the entry of its own
	 * priority, ioprio (prioclass/prio; 0 none) */
	uint16_t ioprio;
	bool prio_lat, prio_live;
	bool prio_over[SB_PRIO_DIRS];
	unsigned nprio[SB_PRIO_DIRS];
	struct sb_prio_lat prio[SB_PRIO_DIRS][SB_PRIO_MAX];
};

/* The dense per-thread histograms: about 200 KB, touched only where used. */
struct sb_thist {
	struct sb_hist slat_h[SB_DDIR_N], clat_h[SB_DDIR_N], lat_h[SB_DDIR_N];
	struct sb_hist sync_h;
	struct sb_hist gpu_copy_h[SB_DDIR_N]; /* iomem=cudamalloc copies (run/gpu.c) */
	struct sb_hist ttfb_h[SB_DDIR_N];     /* the engine's time to first byte */
	struct sb_hist prio_h[SB_PRIO_DIRS][SB_PRIO_MAX]; /* sb_tstats.prio's */
};

void sb_tstats_init(struct sb_tstats *t);
/* sb_tstats_init and the dense histograms of a running thread: 0 or -ENOMEM */
int sb_tstats_init_live(struct sb_tstats *t);
/* Release what t owns (its histograms); t is then as after sb_tstats_init. */
void sb_tstats_release(struct sb_tstats *t);
/* *dst = a deep copy of src's kept figures (src's live histograms are not
 * copied): 0 or -ENOMEM (dst then owns nothing). */
int sb_tstats_copy(struct sb_tstats *dst, const struct sb_tstats *src);
/* "write /data/f at offset 4096 (4096 bytes): No space left on device";
 * "" when st has no error.  Returns buf. */
char *sb_tstats_error_text(const struct sb_tstats *st, char *buf, size_t len);
/* Record error e (errno) as st's first error, unless it has one: op is a
 * static text, path is copied (NULL: none).  Not for the per-I/O path. */
void sb_tstats_set_error(struct sb_tstats *st, int e, const char *op, const char *path);
/* dst += src: counters add, stats and histograms merge (src's live dense
 * histograms when it has them, else its kept ones, into dst's kept ones).
 * 0 or -ENOMEM (a histogram could not grow: it stays as it was). */
int sb_tstats_merge(struct sb_tstats *dst, const struct sb_tstats *src);
/* The entry of priority ioprio in direction d (< SB_PRIO_DIRS), added
 * if new: its index, or -1 when d has SB_PRIO_MAX already. */
int sb_tstats_prio_slot(struct sb_tstats *t, int d, uint16_t ioprio);
/* dst's priorities of direction dd += src's of sd, by priority (fio stat.c
 * sum_thread_stats); a thread that kept none counts as one priority, its
 * own, with its clat (lat with prio_lat).  0 or -ENOMEM. */
int sb_tstats_merge_prios(struct sb_tstats *dst, int dd, const struct sb_tstats *src, int sd);
/* On the I/O path of a thread with prio_live: v (ns) into the entry of
 * ioprio (0: the thread's own), which sb_tstats_prio_slot made at setup. */
static inline void sb_tstats_prio_add(struct sb_tstats *t, int d, uint16_t ioprio, uint64_t v)
{
	if (!ioprio)
		ioprio = t->ioprio;
	for (unsigned i = 0; i < t->nprio[d]; i++)
		if (t->prio[d][i].ioprio == ioprio) {
			sb_stat_add(&t->prio[d][i].s, v);
			sb_hist_add(&t->live_h->prio_h[d][i], v);
			return;
		}
}
/* index into the depth buckets */
unsigned sb_depth_level_bucket(unsigned depth);   /* 1,2,4,8,16,32,>=64 */
unsigned sb_depth_batch_bucket(unsigned n);       /* 0,4,8,16,32,64,>=64 */
#endif
