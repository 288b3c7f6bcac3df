/* jobspec.h: one job as the parser hands it on.  Plain data, immutable after
 * parsing; nothing downstream re-reads job-file text.  Every field is filled
 * from the option table in parse/options.c (defaults included), so run/, ml/ and sweep/ never
 * has to guess a default.  Units are in the field names. */
#ifndef SB_JOBSPEC_H
#define SB_JOBSPEC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/ddir.h"
#include "parse/mlshape.h"
#include "parse/specvals.h"
#include "parse/splits.h"

#define SB_NAME_MAX 128
#define SB_PCTL_MAX 64     /* percentile_list entries (fio's limit is 20) */
#define SB_BSSPLIT_MAX 64
#define SB_ENGINE_NAME_MAX 32
#define SB_ENGINE_OPTS_MAX 384 /* bytes of all engines' options structs together */
#define SB_SPEC_WLOPTS_MAX 4096 /* bytes of all workloads' own options structs together */
#define SB_OPT_MAX 512     /* upper bound on option-table rows (parse/options.h) */
#define SB_LOC_FILES 16    /* files (job file, includes) whose lines one spec's loc[] names */
#define SB_IGNERR_MAX 32   /* errnos per direction in ignore_error */

/* rw= as flags: read=R, write=W, randread=R|RANDOM, rw=R|W, randrw=R|W|RANDOM */
#define SB_RW_READ 0x1u
#define SB_RW_WRITE 0x2u
#define SB_RW_TRIM 0x4u
#define SB_RW_RANDOM 0x8u

#define SB_ZONES_MAX 256   /* zones of random_distribution=zoned per direction (fio's limit) */
/* one zone of random_distribution=zoned/zoned_abs */
struct sb_zone {
	double access_pct;  /* share of the direction's random I/Os, 0..100 */
	double size_pct;    /* zoned: share of the region, 0..100 */
	uint64_t size;      /* zoned_abs: bytes */
};

struct sb_model_preset; /* parse/catalog.h */

/* An option as the user wrote it, for the JSON "job options" echo. */
struct sb_opt_echo {
	char *key;
	char *value;
};

#define SB_BUFPAT_MAX 512      /* bytes of a decoded buffer_pattern */
#define SB_BUFPAT_OFS_MAX 16   /* %o in one buffer_pattern */

struct sb_jobspec {
	/* identity: the [section], where it came from, its group */
	char name[SB_NAME_MAX];
	char *description;          /* may be NULL */
	const char *file;           /* job file that defined the section ("<cmdline>" for --name jobs) */
	unsigned line;              /* line of its [section] header */
	/* derived (parse/job.c): the job is the first of a job file after the
	 * first: fio starts a new group there */
	bool file_first;
	unsigned profile;           /* 0: none (fio's tiobench and act are refused) */

	/* the options as written and where each was set */
	/* "job options" echo in JSON: the options this section set itself */
	struct sb_opt_echo *opts;
	unsigned nopts;
	/* where each option was set, by option-table index, so that checks
	 * after parsing (run/files.c) name file:line; set it with
	 * sb_spec_set_loc(), read it with sb_spec_where().  8 bytes an option:
	 * the files are kept once per spec (a sweep expands a spec per point) */
	struct sb_optloc {
		unsigned line;      /* 0: the command line */
		unsigned short file; /* 0: the default (not set); else loc_files[file - 1] */
	} loc[SB_OPT_MAX];
	const char *loc_files[SB_LOC_FILES]; /* point into sb_joblist.paths */

	/* files: which, how many, how big, and the region of each used */
	char *filename;             /* raw value, ':'-separated list; NULL: generated names */
	char *directory;            /* NULL: current directory */
	char *filename_format;      /* fio's $jobname.$jobnum.$filenum pattern; NULL: that */
	bool no_unique_filename;    /* unique_filename=0 (stored inverted); only changes names in
				     * fio's client/server mode */
	char *opendir;              /* the job's files: every regular file under this directory */
	unsigned nrfiles;           /* files per job (default 1) */
	unsigned openfiles;         /* files open at once; 0: all (storbench keeps all open) */
	uint64_t filesize_min;      /* bytes; 0 = size / nrfiles */
	uint64_t filesize_max;      /* bytes; equal to filesize_min unless a range was given */
	uint64_t size;              /* bytes of all the job's files together; 0 = existing size */
	double size_pct;            /* size=N%: percent of each file's size; 0: size is bytes */
	uint64_t io_size;           /* bytes to transfer; 0 = size */
	double io_size_pct;         /* io_size=N%: percent of the I/O region; 0: io_size is bytes */
	uint64_t offset;            /* bytes; start of the I/O region in each file */
	double offset_pct;          /* offset=N%: percent of each file's size, aligned up to
				     * offset_align (or the smallest block size); 0: bytes */
	uint64_t offset_increment;  /* bytes added to offset per numjobs thread (0, 1, ...) */
	double offset_increment_pct; /* offset_increment=N%: percent of the file's size */
	uint64_t offset_align;      /* bytes; 0: percentage offsets align to the smallest bs */
	bool file_append;           /* the region starts at the file's end (+ offset) */
	char *file_service_type;    /* fio's TYPE[:N] text; NULL: roundrobin */
	/* derived from file_service_type (parse/check_place.c) */
	unsigned fsvc;              /* enum sb_fsvc */
	unsigned fsvc_n;            /* I/Os before switching files (random, roundrobin) */
	double fsvc_param;          /* zipf theta, pareto h, normal sigma (percent) */

	/* I/O pattern and block sizes */
	unsigned rw;                /* SB_RW_* */
	unsigned rwmixread;         /* percent of reads in mixed workloads (default 50) */
	int64_t rw_seq_add;         /* rw=read:N: bytes skipped after each sequential I/O */
	unsigned rw_seq_nr;         /* rw=randread:N: I/Os per random offset (default 1) */
	unsigned rw_sequencer;      /* enum sb_rwseq */
	uint64_t number_ios;        /* stop a thread after this many I/Os; 0: no limit */
	uint64_t bs[SB_DDIR_N];     /* bytes per I/O when no bsrange/bssplit */
	uint64_t bs_min[SB_DDIR_N]; /* bsrange lower bound (== bs when unset) */
	uint64_t bs_max[SB_DDIR_N]; /* bsrange upper bound (== bs when unset) */
	struct sb_bssplit bssplit[SB_DDIR_N][SB_BSSPLIT_MAX];
	unsigned bssplit_n[SB_DDIR_N];
	uint64_t blockalign[SB_DDIR_N]; /* bytes; 0 = bs_min */
	bool bs_unaligned;          /* bsrange lengths need not be multiples of the smallest bs */
	/* derived by the parser's fix-up pass (sb_spec_derive, parse/derive.c);
	 * no option sets them, and nothing downstream works them out again.
	 * The same pass resolves bs_min/bs_max above (each direction's smallest
	 * and largest block size, whether bs, bsrange or bssplit gave them) */
	uint64_t bs_lo;             /* derived: smallest block size of the directions the job
				     * does (4096 when none): the unit of its offsets */
	uint64_t bs_hi;             /* derived: largest I/O the job can issue (4096 when none):
				     * the size of each I/O buffer */
	/* fio's zone options (parse/check_zone.c); zonemode=strided runs in
	 * run/iogen.c, zonemode=zbd is refused at run time.  Bytes;
	 * zone_reset_* are fractions 0..1 */
	unsigned zonemode;          /* enum sb_zonemode */
	uint64_t zonesize, zonecapacity, zonerange, zoneskip;
	uint64_t zoneskip_nz;       /* zoneskip=Nz: N zones (then zoneskip = N * zonesize) */
	/* size=, io_size=, offset=, offset_increment= Nz: N zones, made bytes
	 * (N * zonesize) as the job is read (parse/check_zone.c) */
	uint64_t size_nz, io_size_nz, offset_nz, offset_increment_nz;
	bool read_beyond_wp, ignore_zone_limits;
	unsigned max_open_zones, job_max_open_zones;
	double zone_reset_threshold, zone_reset_frequency;

	/* engine, queue depth and syncs */
	unsigned numjobs;           /* clones of this job (default 1) */
	bool thread;                /* accepted for fio compatibility: jobs always run as threads */
	char ioengine[SB_ENGINE_NAME_MAX];
	unsigned iodepth;           /* I/Os in flight (default 1) */
	unsigned iodepth_batch_submit;       /* I/Os per submit call; 0 = iodepth (fio) */
	unsigned iodepth_batch_complete_min; /* default 1 */
	/* default iodepth_batch_complete_min, at least 1 (fio's); never 0 after
	 * parsing (resolved by parse/derive.c) */
	unsigned iodepth_batch_complete_max;
	unsigned iodepth_low;       /* a full queue drains to this before refilling; 0: iodepth */
	unsigned io_submit_mode;    /* 0 inline; 1 offload (run/offload.h) */
	bool serialize_overlap;     /* async engines: an I/O waits for in-flight ones it overlaps */
	bool direct;                /* O_DIRECT; buffered=0 sets it */
	bool atomic;                /* fio's atomic=1: O_DIRECT (Linux has no O_ATOMIC) */
	unsigned sync_mode;         /* enum sb_syncmode: O_SYNC / O_DSYNC on the job's files */
	unsigned fsync;             /* fsync after every N writes; 0 = never */
	unsigned fdatasync;         /* fdatasync after every N writes; 0 = never */
	bool end_fsync;             /* fsync each file when the job ends */
	bool fsync_on_close;        /* fsync each written file when it is closed */
	uint64_t write_barrier;     /* fio's every-Nth-write barrier (sg only): no effect */
	char *sync_file_range;      /* fio's FLAGS:N text; NULL: none */
	/* derived from sync_file_range (parse/check_place.c) */
	unsigned sfr_n;             /* every N writes; 0: never */
	unsigned sfr_flags;         /* SYNC_FILE_RANGE_WAIT_BEFORE 1 | WRITE 2 | WAIT_AFTER 4 */
	/* latency_target's queue-depth search (run/lattgt.c) */
	uint64_t latency_target_us; /* 0: off */
	uint64_t latency_window_us; /* each depth's window; 0: judged at every completion batch */
	double latency_percentile;  /* % of a window's I/Os that must meet the target */
	bool latency_run;           /* keep adjusting for the whole run */
	/* each engine's own options struct (fixedbufs, hipri, ...), at the
	 * offset the parser gave it (sb_spec_engine_opts); declared by the
	 * engines' option rows */
	_Alignas(8) unsigned char engine_opts[SB_ENGINE_OPTS_MAX];
	/* derived by parse/derive.c */
	bool engine_sync;           /* derived: ioengine completes every I/O at queue time
				     * (psync, sync, mmap, null): queue-depth options do nothing */
	unsigned iodepth_eff;       /* derived: I/Os in flight: 1 with a synchronous engine,
				     * else iodepth (at least 1) */

	/* time, repetition, groups and the end of the job */
	uint64_t runtime_us;        /* 0 = no limit */
	bool time_based;            /* repeat the workload until runtime */
	uint64_t ramp_time_us;      /* run but do not count this long first */
	uint64_t startdelay_us;
	unsigned loops;             /* repeat the workload this many times (default 1) */
	bool stonewall;             /* wait for earlier jobs before starting (starts a new group) */
	bool new_group;
	char *wait_for;             /* name of a job to wait for; NULL = none */
	bool group_reporting;
	unsigned groupid;           /* assigned by the parser from stonewall/new_group */
	bool exitall;               /* when this job ends, stop every job */
	bool exitall_on_error;      /* when this job fails, stop every job */
	unsigned exit_what;         /* enum sb_exitwhat: what exitall stops */
	uint64_t max_latency_us;    /* stop the job (ETIMEDOUT) when an I/O takes longer; 0: no limit */

	/* I/O errors that do not end the job (parse/check_flow.c) */
	unsigned continue_on_error; /* SB_COE_* flags: I/O errors that do not end the job */
	char *ignore_error;         /* fio's READ[,WRITE[,VERIFY]] errno lists; NULL = none */
	bool error_dump;            /* print each error as it is ignored */
	/* derived (parse/check_flow.c): ignore_error decoded */
	int ignore_err[3][SB_IGNERR_MAX];  /* errnos per read, write, verify */
	unsigned ignore_err_n[3];

	/* randomness: seeds, generators and distributions */
	bool randrepeat;            /* same seed every run (default 1) */
	bool allrandrepeat;         /* every generator repeatable (implies randrepeat) */
	uint64_t randseed;
	unsigned random_generator;  /* enum sb_randgen */
	bool norandommap;           /* off: random I/O touches each block once per pass */
	uint64_t percentage_random[SB_DDIR_N]; /* % of a random job's I/Os at random offsets */
	enum sb_dist random_distribution;
	double dist_param;          /* theta, h or sigma; 0 for random */
	unsigned zone_n[SB_DDIR_N]; /* zones of random_distribution=zoned(_abs) per direction */
	struct sb_zone *zones[SB_DDIR_N]; /* zone_n[d] each, owned (sb_spec_copy/release);
				     * NULL without zones: out of line, as 3 x 256 zones
				     * inline made every spec (and sweep point) 18 KB larger */

	/* rate, think time and flows (HOWTO "Flow and control") */
	uint64_t rate[SB_DDIR_N];      /* bytes/s cap per direction; 0 = none */
	uint64_t rate_iops[SB_DDIR_N]; /* I/Os per second cap per direction; 0 = none */
	uint64_t rate_min[SB_DDIR_N];      /* bytes/s: the job fails below this */
	uint64_t rate_iops_min[SB_DDIR_N]; /* I/Os per second: the job fails below this */
	unsigned ratecycle_ms;      /* period over which rate_min is averaged (default 1000) */
	unsigned rate_process;      /* SB_RATE_PROC_*: how rated I/Os are spaced */
	bool rate_ignore_thinktime; /* the rate cap catches up after think time */
	uint64_t thinktime_us;         /* pause after each I/O (after thinktime_blocks) */
	uint64_t thinktime_spin_us;    /* of which spent spinning instead of sleeping */
	unsigned thinktime_blocks;     /* I/Os between pauses (default 1) */
	unsigned thinktime_blocks_type; /* 0: thinktime_blocks counts completions, 1: issues */
	uint64_t thinktime_iotime_us; /* think after this much I/O time (0: thinktime_blocks) */
	bool think_time_only;       /* derived (parse/check_stats.c): thinktime_iotime without
				     * thinktime_blocks */
	unsigned flow;              /* weight (0-1000) of the job in its flow_id group; 0 = off */
	unsigned flow_id;           /* jobs with the same id share one flow */
	uint64_t flow_sleep_us;     /* pause when the job is ahead of its share */

	/* buffer contents (run/contents.c, lib/datagen.c) */
	bool scramble_buffers;      /* fio's: stamp each 512-byte sector of a write (default) */
	bool scramble_whole_buffers; /* XOR the whole buffer with a fresh word per write */
	bool refill_buffers;        /* fresh random data before every write */
	bool zero_buffers;          /* zeroes */
	char *buffer_pattern;       /* fio's pattern syntax; NULL = none */
	unsigned buffer_compress_percentage; /* 0-100: filler share of each chunk */
	uint64_t buffer_compress_chunk;      /* bytes; 0 = the block size */
	unsigned dedupe_percentage; /* 0-100: duplicate buffers */
	unsigned dedupe_mode;       /* 0 repeat, 1 working_set (enum sb_dg_dedupe) */
	unsigned dedupe_working_set_percentage; /* of the job's size */
	bool dedupe_global;         /* working set shared by all such jobs' writers */
	/* derived (parse/check_buf.c): buffer_pattern as bytes, and where %o
	 * (the I/O's offset, 8 bytes little-endian) goes in them */
	unsigned char bufpat[SB_BUFPAT_MAX];
	unsigned bufpat_len;
	unsigned bufpat_nofs;
	unsigned short bufpat_ofs[SB_BUFPAT_OFS_MAX];

	/* verify= for I/O jobs and its trims (run/verify.c; HOWTO "Data
	 * verification"), fio's names and meanings */
	unsigned verify;            /* enum sb_vtype (lib/csum.h); 0 = none */
	bool do_verify;             /* read back and check after the write phase */
	bool verify_only;           /* only check what an earlier run wrote */
	uint64_t verify_interval;   /* bytes per header; 0 = the write block size */
	uint64_t verify_offset;     /* bytes: the header is moved there in the block */
	char *verify_pattern;       /* as written (NULL: none); bytes in verify_pat below */
	bool verify_fatal;          /* stop the job at the first failure */
	bool verify_dump;           /* write <file>.<offset>.expected/.received */
	uint64_t verify_backlog;    /* verify after every N blocks written (0: at the end) */
	uint64_t verify_backlog_batch; /* blocks checked per backlog (0: verify_backlog) */
	unsigned verify_async;      /* accepted; checks run on the I/O thread */
	bool verify_state_save, verify_state_load;
	bool verify_header_seed;    /* the header's seed must be the expected one */
	bool experimental_verify;
	unsigned trim_percentage;   /* verify: % of written blocks trimmed (run/verify.c) */
	bool trim_verify_zero;      /* trimmed blocks must read back as zeroes */
	uint64_t trim_backlog;      /* trim the picks every this many writes; 0: never */
	uint64_t trim_backlog_batch; /* picks trimmed each time; 0: trim_backlog */
	/* derived by parse/check_verify.c from verify_pattern */
	unsigned verify_pat_len;    /* bytes of verify_pat (0: no pattern) */
	int verify_pat_off;         /* where %o puts the block offset (8 bytes); -1: none */
	uint8_t verify_pat[64];

	/* file life cycle, page cache and safety (run/files.c) */
	bool unlink;                /* remove files storbench created when the job ends */
	bool unlink_each_loop;      /* remove and re-create the created files between loops */
	enum sb_fallocate fallocate;
	bool no_file_create;        /* allow_file_create=0 (stored inverted): a missing file is an error */
	bool create_on_open;        /* no layout: the job's open creates a missing file */
	bool create_fsync;          /* fsync a file after laying it out (fio's default 1) */
	bool create_serialize;      /* accepted: storbench lays files out one after another */
	bool overwrite;             /* lay the file out with data before writing it */
	bool create_only;           /* lay the files out, then do no I/O */
	bool fill_device;           /* write until ENOSPC/EDQUOT, which ends the job normally (run/fill.c) */
	bool allow_mounted_write;
	bool no_invalidate;         /* invalidate=0: keep the files' page cache (fio's default
				     * invalidate=1 drops it; stored inverted so 0 is fio's default) */
	unsigned fadvise_hint;      /* enum sb_fadv */
	bool pre_read;              /* read the files into the page cache before the job */
	unsigned write_hint;        /* enum sb_whint: fcntl(F_SET_RW_HINT) */
	unsigned lockfile;          /* enum sb_lockfile (run/flock.c) */
	char *ioscheduler;          /* I/O scheduler for the disk under the files; NULL: unchanged */

	/* job hooks and fio I/O logs (parse/check_replay.c, run/replay.c,
	 * run/exec.c) */
	char *exec_prerun;          /* shell command run before the job (needs --allow-exec) */
	char *exec_postrun;         /* shell command run after the job (needs --allow-exec) */
	char *write_iolog;          /* fio iolog v3 written with the job's I/Os; NULL = none */
	char *read_iolog;           /* fio iolog v2/v3 replayed instead of generated I/O */
	bool read_iolog_chunked;    /* accepted (storbench loads the whole log at start) */
	bool replay_no_stall;       /* ignore the log's timing: replay as fast as possible */
	unsigned replay_time_scale; /* percent of the logged I/O rate (100: as logged) */
	char *replay_redirect;      /* send every logged I/O to this file or device */
	uint64_t replay_align;      /* bytes, a power of 2: offsets rounded down to it; 0 = off */
	uint64_t replay_scale;      /* offsets divided by it (1: unchanged) */
	char *replay_skip;          /* "read,write,trim,sync": entries not replayed */
	/* derived (parse/check_replay.c) */
	unsigned replay_skip_mask;  /* replay_skip as 1 << SB_DDIR_* */
	unsigned replay_version;    /* 2 or 3, the read_iolog's format */

	/* placement: CPUs, NUMA, I/O memory, priorities, credentials, cgroups,
	 * GPU (run/place.c, run/cgroup.h, run/gpu.c) */
	char *cpus_allowed;         /* fio's CPU list "0-3,6"; NULL: no pinning */
	uint64_t cpumask;           /* fio's cpumask: bit N = CPU N (CPUs 0-63); 0: none */
	unsigned cpus_allowed_policy; /* enum sb_cpupol */
	char *numa_cpu_nodes;       /* node list "0-1,3" or "all"; NULL: none */
	char *numa_mem_policy;      /* default|prefer:N|bind:L|interleave:L|local; NULL: none */
	/* derived (parse/check_place.c): the CPUs cpus_allowed/cpumask allow,
	 * and numa_mem_policy decoded */
	uint64_t cpuset[16];        /* bit N of word N/64: CPU N (up to 1024 CPUs) */
	bool cpuset_on;
	unsigned mpol_mode;         /* enum sb_mpol */
	uint64_t mpol_nodes;        /* bit N: NUMA node N (nodes 0-63) */
	unsigned iomem;             /* enum sb_iomem: how I/O buffers are allocated */
	uint64_t iomem_align;       /* bytes: buffers start this far past a page boundary's alignment */
	/* iomem=mmap:FILE (mmaphuge, mmapshared): the buffers are a shared
	 * mapping of FILE, which storbench creates and removes (run/place.c);
	 * "" = anonymous memory */
	char iomem_file[256];
	uint64_t hugepage_size;     /* bytes: huge-page iomem kinds round up to this */
	uint64_t lockmem;           /* bytes each job thread mlock()s while it runs; 0: none */
	int nice;                   /* -20..19 (default 0: unchanged) */
	unsigned prio;              /* 0-7; used when set (sb_spec_isset) */
	unsigned prioclass;         /* 0-3; used when set */
	bool ioprio_on;             /* derived (parse/check_place.c): prio or prioclass was set:
				     * ioprio_set() the threads */
	struct sb_cmdprio cmdprio;  /* per-I/O priorities of libaio, io_uring (parse/splits.h) */
	unsigned uid, gid;          /* the job thread's credentials; used when uid_on/gid_on */
	bool uid_on, gid_on;        /* derived (parse/check_io.c): uid=/gid= were set */
	char *cgroup;               /* the job threads' cgroup (run/cgroup.h); NULL: none */
	unsigned cgroup_weight;     /* 100-1000; 0: unset */
	bool cgroup_nodelete;       /* keep the cgroups storbench made */
	/* iomem=cudamalloc's GPU (run/gpu.c): gpu_dev_id, or gpu_dev_ids
	 * "0:1:..." picked round-robin by the thread number (fio's
	 * engines/gpuaccel.c: subjob_number % count); NULL: unset */
	int gpu_dev_id;
	char *gpu_dev_ids;
	/* derived (parse/check_gpu.c): in a sweep, why this point's GPU job
	 * cannot run on this machine (the driver or cuFile library absent);
	 * the sweep skips the point.  "": it runs. */
	char gpu_skip[400];

	/* statistics, percentiles, units and clocks */
	double percentile_list[SB_PCTL_MAX];
	unsigned percentile_n;
	bool clat_percentiles;      /* default 1 */
	bool lat_percentiles;       /* default 0 */
	bool slat_percentiles;      /* report submission-latency percentiles */
	bool block_error_percentiles; /* accepted; records nothing (HOWTO: fio 3.33 aborts) */
	unsigned kb_base;           /* 1024 (default) or 1000 */
	unsigned unit_base;         /* fio: 0 = auto (bytes), 8 = bytes, 1 = bits */
	unsigned significant_figures; /* normal output: digits of latency and rate (default 4) */
	/* fio's unified_rw_reporting; output/ derives the mixed direction at
	 * report time (stats/mixed.h) */
	unsigned unified_rw;        /* enum sb_unified */
	bool no_stats;              /* stats=0 (stored inverted): report the job with zeroes */
	bool disk_util;             /* report disk utilisation (default 1) */
	bool gtod_reduce;           /* disable_lat/clat/slat/bw together */
	bool disable_lat, disable_clat, disable_slat, disable_bw;
	unsigned clocksource;       /* enum sb_clocksrc: the run's clock (the first job's) */
	unsigned gtod_cpu;          /* accepted: fio's time-keeping thread's CPU */
	unsigned bwavgtime_ms;      /* bw sample window of bw_min/max/mean (default 500) */
	unsigned iopsavgtime_ms;    /* iops sample window of iops_min/max/mean (default 500) */
	uint64_t stats_interval_us; /* time-series and host sample period (default 1 s);
				     * a run uses the smallest of its jobs */
	bool mpi_rank_results;      /* each rank also writes its own results (FILE.rankN) */
	char *steadystate;          /* "iops|bw|iops_slope|bw_slope:LIMIT[%]" (decoded to ss_*) */
	uint64_t ss_dur_us;         /* window of steady state; 0 = off */
	uint64_t ss_ramp_us;        /* time before steady state samples count */
	/* derived (parse/check_flow.c): steadystate decoded */
	unsigned ss_kind;           /* SB_SS_*; meaningful when ss_dur_us */
	bool ss_pct;                /* ss_limit is a percentage of the mean */
	double ss_limit;

	/* logs: fio's log files and I/O traces */
	char *write_bw_log;         /* fio: NAME -> NAME_bw.N.log; NULL = none */
	char *write_iops_log;       /* NAME -> NAME_iops.N.log */
	char *write_lat_log;        /* NAME -> NAME_clat/_slat/_lat.N.log */
	char *write_hist_log;       /* NAME -> NAME_clat_hist.N.log; NULL = none */
	unsigned log_avg_msec;      /* 0: one log entry per I/O; N: N-ms averages */
	bool log_max_value;         /* averaged latency logs: the window's maximum, not its mean */
	bool log_offset;            /* add the offset column to per-I/O entries */
	bool log_prio;              /* logs' last column: the I/O's ioprio (fio's 0x%04x) */
	unsigned log_hist_msec;     /* histogram log period (ms) */
	unsigned log_hist_coarseness; /* 0-6: merge 2^N of fio's 1216 bins per column */
	bool log_unix_epoch;        /* log timestamps in ms since the Unix epoch */
	bool log_alternate_epoch;   /* log stamps: ms on log_alternate_epoch_clock_id's line */
	unsigned log_alternate_epoch_clock_id; /* clock_gettime clock id (0: CLOCK_REALTIME) */
	uint64_t log_compression;   /* bytes: zlib-compress logs in chunks this big; 0 = off */
	bool log_store_compressed;  /* accepted: fio keeps compressed logs compressed */
	char *log_compression_cpus; /* accepted: CPUs of fio's log compression threads */
	unsigned log_entries;       /* accepted: fio's initial in-memory log size */
	bool per_job_logs;          /* NAME_bw.N.log per thread (default); 0: NAME_bw.log */
	char *write_trace;          /* DFTracer trace file (stats/trace.h); NULL = none */
	unsigned trace_sample;      /* record one I/O in this many (>= 1) */

	/* host counters sampled every stats_interval_us (stats/host/) */
	char *host_counters;        /* "cpu,mem,disk,net,ib,rapl,perf,gpu", "all", "none" */
	char *perf_events;          /* libpfm4 names, ',' or ':' separated; NULL = default */

	/* sweeps (parse/sweep.h, sweep/sweep.c); drop_caches (below) also
	 * applies before each sweep repetition */
	unsigned sweep_metric;      /* enum sb_sweep_metric: ranking of sweep points */

	/* ML workloads: the fields their workloads share (ml/; their checks
	 * resolve model=); each workload's own options are in its struct */
	unsigned workload;          /* its id: the row's position in main's table (0: io) */
	unsigned rules;             /* enum sb_rules: rule report after the run (every workload) */
	bool drop_caches;           /* sync + drop the page cache when permitted (default 1);
				     * read by checkpoint, and by sweeps */
	/* read by checkpoint, train's in-training checkpoint and kvcache's
	 * model=; checkpoint's own options are in its struct
	 * (ml/checkpoint/opts.h) */
	char *ml_model;             /* model=: built-in LLM name; NULL: explicit shape */
	struct sb_ml_shape shape;   /* model='s, explicit options winning; resolved once by
				     * its check (name, closed_ranks, naming: empty) */
	const struct sb_model_preset *ml_preset; /* model='s row (kvcache: only if its shape is unchanged), else NULL */
	/* read by checkpoint and train's in-training checkpoint */
	bool checkpoint_fsync;      /* fsync each file after writing it (default 1) */
	char *checkpoint_folder;    /* NULL: <directory>/checkpoints */
	bool keep_checkpoints;      /* keep the checkpoint files storbench wrote */
	/* checkpoint and train jobs: mlpstorage's results tree (tools/mlps.c) */
	char *results_dir;          /* the tree goes under it; NULL: none */
	/* each workload's own options struct (ml/checkpoint/opts.h,
	 * ml/train/opts.h, ml/kvcache/opts.h), at the offset the parser gave
	 * it (sb_spec_wl_opts); declared by its option rows */
	_Alignas(8) unsigned char wl_opts[SB_SPEC_WLOPTS_MAX];
};
/* "file:line" where option o of s was set, else the job's [section]
 * "file:line" (or "<cmdline>"); written to buf, which is returned.
 * Defined in parse/optset.c. */
struct sb_option; /* a row of the option table: SB_OPT(field), parse/options.h */
const char *sb_spec_where(const struct sb_jobspec *s, const struct sb_option *o, char *buf,
			  unsigned len);
/* record that option-table row i of s was set at file:line (file NULL: not
 * set); file must outlive s (it points into sb_joblist.paths).  After
 * SB_LOC_FILES distinct files, the place given is the job's own. */
void sb_spec_set_loc(struct sb_jobspec *s, unsigned i, const char *file, unsigned line);

struct sb_sweep; /* parse/sweep.h */

/* The parsed job files: all jobs in file order, plus the [global] options as
 * written (JSON "global options"). */
struct sb_joblist {
	struct sb_jobspec *jobs;
	size_t njobs;
	struct sb_opt_echo *global_opts;
	unsigned nglobal;
	/* owned copies of the job-file names that jobs[].file points into
	 * (freed by sb_joblist_free) */
	char **paths;
	unsigned npaths;
	/* --datagen: create the training datasets of workload=train
	 * jobs and run nothing else */
	bool datagen_only;
	/* the job file's sweep.* lists expanded into points (NULL: no
	 * sweep); jobs[] above are then the first point's jobs */
	struct sb_sweep *sweep;
	/* --section=NAME (sb_parse_request): only job sections of
	 * these names become jobs ([global] sections always apply); 0: all.
	 * Points at the caller's strings, valid while parsing. */
	const char *const *sections;
	unsigned nsections;
};

/* the GPU of thread sub (iomem=cudamalloc): gpu_dev_ids' entry
 * sub % count when set (checked by parse/check_place.c), else gpu_dev_id */
static inline int sb_spec_gpu(const struct sb_jobspec *s, unsigned sub)
{
	if (!s->gpu_dev_ids || !*s->gpu_dev_ids)
		return s->gpu_dev_id;
	unsigned n = 1;
	for (const char *p = s->gpu_dev_ids; *p; p++)
		n += *p == ':';
	const char *p = s->gpu_dev_ids;
	for (unsigned k = sub % n; k; p++)
		k -= *p == ':';
	return atoi(p);
}

static inline bool sb_spec_does(const struct sb_jobspec *s, enum sb_ddir d)
{
	if (d == SB_DDIR_READ)
		return s->rw & SB_RW_READ;
	if (d == SB_DDIR_WRITE)
		return s->rw & SB_RW_WRITE;
	return s->rw & SB_RW_TRIM;
}

/* iomem=mmap*:FILE: thread sub's buffer file (FILE, or FILE.sub when the
 * job has numjobs > 1), as run/place.c creates it */
static inline void sb_iomem_file_path(const struct sb_jobspec *s, unsigned sub, char *buf, size_t len)
{
	if (s->numjobs > 1)
		snprintf(buf, len, "%s.%u", s->iomem_file, sub);
	else
		snprintf(buf, len, "%s", s->iomem_file);
}
#endif
