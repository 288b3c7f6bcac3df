/* jobspec.h: one job as the parser hands it on.  Plain data, immutable after
 * parsing; nothing downstream re-reads job-file text.  Every field is filled
 * from the option table in parse/options.c (defaults included), so run/, ml/ and sweep/ never
 * has to guess a default.  Units are in the field names. */
#ifndef SB_JOBSPEC_H
#define SB_JOBSPEC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/ddir.h"

#define SB_NAME_MAX 128
#define SB_PCTL_MAX 64     /* percentile_list entries (fio's limit is 20) */
#define SB_BSSPLIT_MAX 64
#define SB_ENGINE_NAME_MAX 32
#define SB_ENGINE_OPTS_MAX 128 /* bytes of all engines' options structs together */
#define SB_OPT_MAX 192     /* upper bound on option-table rows (parse/options.h) */

/* rw= as flags: read=R, write=W, randread=R|RANDOM, rw=R|W, randrw=R|W|RANDOM */
#define SB_RW_READ 0x1u
#define SB_RW_WRITE 0x2u
#define SB_RW_TRIM 0x4u
#define SB_RW_RANDOM 0x8u

enum sb_dist {
	SB_DIST_RANDOM = 0, /* uniform */
	SB_DIST_ZIPF,       /* zipf:theta */
	SB_DIST_PARETO,     /* pareto:h */
	SB_DIST_NORMAL,     /* normal:sigma (percent of the range) */
	SB_DIST_ZONED,      /* zoned:ACCESS/SIZE%:...: zones in jobspec.zones */
	SB_DIST_ZONED_ABS,  /* zoned_abs:ACCESS/BYTES:... */
};

/* rw_sequencer=: what rw=randread:N does between two random offsets */
enum sb_rwseq { SB_RWSEQ_SEQUENTIAL = 0, SB_RWSEQ_IDENTICAL };
/* random_generator=: tausworthe and tausworthe64 both name storbench's own
 * generator (run/rng.h); lfsr a maximal-length LFSR (run/lfsr.h) */
enum sb_randgen { SB_RANDGEN_TAUS = 0, SB_RANDGEN_LFSR, SB_RANDGEN_TAUS64 };

#define SB_ZONES_MAX 256   /* zones of random_distribution=zoned per direction (fio's limit) */
/* one zone of random_distribution=zoned/zoned_abs */
struct sb_zone {
	double access_pct;  /* share of the direction's random I/Os, 0..100 */
	double size_pct;    /* zoned: share of the region, 0..100 */
	uint64_t size;      /* zoned_abs: bytes */
};

enum sb_fallocate {
	SB_FALLOC_NONE = 0,
	SB_FALLOC_POSIX,    /* posix_fallocate() (fio's default "native" on Linux maps here) */
	SB_FALLOC_KEEP,     /* fallocate(FALLOC_FL_KEEP_SIZE) */
	SB_FALLOC_TRUNCATE, /* ftruncate() only */
};

/* sweep_metric=: how sweep points are ranked (higher bw/iops, lower p99) */
enum sb_sweep_metric {
	SB_SWEEP_METRIC_BW = 0,
	SB_SWEEP_METRIC_IOPS,
	SB_SWEEP_METRIC_CLAT_P99,
};

struct sb_model_preset; /* parse/catalog.h */
struct sb_train_preset;

struct sb_bssplit {
	uint64_t bs;  /* bytes */
	double pct;   /* share of I/Os, 0..100; entries of one direction sum to 100 */
};

/* An option as the user wrote it, for the JSON "job options" echo. */
struct sb_opt_echo {
	char *key;
	char *value;
};

#define SB_BUFPAT_MAX 512      /* bytes of a decoded buffer_pattern */
#define SB_BUFPAT_OFS_MAX 16   /* %o in one buffer_pattern */

struct sb_jobspec {
	char name[SB_NAME_MAX];
	char *description;          /* may be NULL */
	const char *file;           /* job file that defined the section ("<cmdline>" for --name jobs) */
	unsigned line;              /* line of its [section] header */

	/* files */
	char *filename;             /* raw value, ':'-separated list; NULL: generated names */
	char *directory;            /* NULL: current directory */
	unsigned nrfiles;           /* files per job (default 1) */
	uint64_t filesize_min;      /* bytes; 0 = size / nrfiles */
	uint64_t filesize_max;      /* bytes; equal to filesize_min unless a range was given */
	uint64_t size;              /* bytes of all the job's files together; 0 = existing size */
	uint64_t io_size;           /* bytes to transfer; 0 = size */
	uint64_t offset;            /* bytes; start of the I/O region in each file */

	/* pattern */
	unsigned rw;                /* SB_RW_* */
	unsigned rwmixread;         /* percent of reads in mixed workloads (default 50) */
	uint64_t bs[SB_DDIR_N];     /* bytes per I/O when no bsrange/bssplit */
	uint64_t bs_min[SB_DDIR_N]; /* bsrange lower bound (== bs when unset) */
	uint64_t bs_max[SB_DDIR_N]; /* bsrange upper bound (== bs when unset) */
	struct sb_bssplit bssplit[SB_DDIR_N][SB_BSSPLIT_MAX];
	unsigned bssplit_n[SB_DDIR_N];
	uint64_t blockalign[SB_DDIR_N]; /* bytes; 0 = bs_min */

	/* concurrency and engine */
	unsigned numjobs;           /* clones of this job (default 1) */
	bool thread;                /* accepted for fio compatibility: jobs always run as threads */
	char ioengine[SB_ENGINE_NAME_MAX];
	unsigned iodepth;           /* I/Os in flight (default 1) */
	unsigned iodepth_batch_submit;       /* I/Os per submit call; 0 = iodepth (fio) */
	unsigned iodepth_batch_complete_min; /* default 1 */
	unsigned iodepth_batch_complete_max; /* default iodepth_batch_complete_min (fio) */
	bool direct;                /* O_DIRECT; buffered=0 sets it */
	unsigned fsync;             /* fsync after every N writes; 0 = never */
	unsigned fdatasync;         /* fdatasync after every N writes; 0 = never */
	bool end_fsync;             /* fsync each file when the job ends */
	/* engine-specific options (fixedbufs, hipri, ...): each engine's own
	 * options struct, at the offset the parser gave that engine
	 * (sb_spec_engine_opts); declared by the engine's option rows */
	_Alignas(8) unsigned char engine_opts[SB_ENGINE_OPTS_MAX];

	/* time and repetition */
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

	/* randomness */
	bool randrepeat;            /* same seed every run (default 1) */
	uint64_t randseed;
	bool norandommap;           /* off: random I/O touches each block once per pass */
	enum sb_dist random_distribution;
	double dist_param;          /* theta, h or sigma; 0 for random */

	/* rate and think time */
	uint64_t rate[SB_DDIR_N];      /* bytes/s cap per direction; 0 = none */
	uint64_t rate_iops[SB_DDIR_N]; /* I/Os per second cap per direction; 0 = none */
	uint64_t thinktime_us;         /* pause after each I/O (after thinktime_blocks) */
	uint64_t thinktime_spin_us;    /* of which spent spinning instead of sleeping */
	unsigned thinktime_blocks;     /* I/Os between pauses (default 1) */

	/* file life cycle and safety */
	bool unlink;                /* remove files storbench created when the job ends */
	enum sb_fallocate fallocate;
	bool allow_mounted_write;

	/* statistics and units */
	double percentile_list[SB_PCTL_MAX];
	unsigned percentile_n;
	bool clat_percentiles;      /* default 1 */
	bool lat_percentiles;       /* default 0 */
	unsigned kb_base;           /* 1024 (default) or 1000 */
	unsigned unit_base;         /* fio: 0 = auto (bytes), 8 = bytes, 1 = bits */

	/* "job options" echo in JSON: the options this section set itself */
	struct sb_opt_echo *opts;
	unsigned nopts;

	/* ML workloads (ml/).  The parser resolves model= and
	 * train_model= into the shape fields below, so core reads only these. */
	unsigned workload;          /* enum sb_workload */
	unsigned rules;             /* enum sb_rules: rule report after the run */
	bool drop_caches;           /* sync + drop the page cache when permitted (default 1) */
	/* checkpoint */
	char *ml_model;             /* model=: built-in LLM name; NULL: explicit shape */
	unsigned ml_hidden, ml_ffn, ml_layers, ml_heads, ml_kv_heads, ml_vocab;
	unsigned ml_tp, ml_pp, ml_dp, ml_zero_stage;
	/* resolved by the parser: model='s catalog row when the job runs its
	 * shape unchanged (MLPerf's named model); NULL: a custom shape */
	const struct sb_model_preset *ml_preset;
	unsigned ranks;             /* emulated ranks (threads); resolved: tp*pp*dp when unset */
	bool subset;                /* ranks < tp*pp*dp write their fraction (MLPerf subset) */
	double checkpoint_scale;    /* multiplies every checkpoint file size (default 1) */
	unsigned num_checkpoints_write, num_checkpoints_read;
	uint64_t time_between_checkpoints_us;
	bool checkpoint_fsync;      /* fsync each file after writing it (default 1) */
	char *checkpoint_folder;    /* NULL: <directory>/checkpoints */
	bool keep_checkpoints;      /* keep the checkpoint files storbench wrote */
	/* train */
	char *train_model;          /* unet3d|resnet50|cosmoflow: DLIO shape defaults */
	const struct sb_train_preset *train_preset; /* resolved: its catalog row; NULL: custom */
	unsigned dataset_files, samples_per_file, subfolders;
	double record_length, record_length_stdev; /* bytes per sample */
	char *data_dir;             /* NULL: <directory>/data */
	unsigned epochs, batch_size, read_threads, prefetch, accelerators;
	unsigned shuffle;           /* SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE */
	uint64_t ml_seed;           /* shuffle seed (DLIO's 123) */
	uint64_t computation_time_us, computation_time_stdev_us; /* per step */
	double au_target_pct;       /* resolved: train_model's threshold, else 90 */
	double train_scale;         /* applied by the parser to record_length(_stdev) and
				     * computation_time(_stdev); default 1 */
	/* appended: time series, fio log files, host counters */
	uint64_t stats_interval_us; /* time-series and host sample period (default 1 s);
				     * a run uses the smallest of its jobs */
	char *write_bw_log;         /* fio: NAME -> NAME_bw.N.log; NULL = none */
	char *write_iops_log;       /* NAME -> NAME_iops.N.log */
	char *write_lat_log;        /* NAME -> NAME_clat/_slat/_lat.N.log */
	unsigned log_avg_msec;      /* 0: one log entry per I/O; N: N-ms averages */
	bool log_offset;            /* add the offset column to per-I/O entries */
	char *host_counters;        /* "cpu,mem,disk,net,ib,rapl,perf,gpu", "all", "none" */
	char *perf_events;          /* libpfm4 names, ',' or ':' separated; NULL = default */

	/* appended: sweeps (parse/sweep.h, sweep/sweep.c); drop_caches above
	 * also applies before each sweep repetition */
	unsigned sweep_metric;      /* enum sb_sweep_metric: ranking of sweep points */

	/* appended: buffer contents (run/contents.c) and ML verification */
	bool scramble_buffers;      /* XOR each written buffer with a fresh word (default) */
	bool refill_buffers;        /* fresh random data before every write */
	bool zero_buffers;          /* zeroes */
	char *buffer_pattern;       /* fio's pattern syntax; NULL = none */
	unsigned buffer_compress_percentage; /* 0-100: filler share of each chunk */
	uint64_t buffer_compress_chunk;      /* bytes; 0 = the block size */
	unsigned dedupe_percentage; /* 0-100: duplicate buffers */
	unsigned dedupe_mode;       /* 0 repeat, 1 working_set (enum sb_dg_dedupe) */
	unsigned dedupe_working_set_percentage; /* of the job's size */
	bool checkpoint_verify;     /* workload=checkpoint: check what is read back */
	bool dataset_verify;        /* workload=train: check what training reads */
	/* derived (parse/check_buf.c): buffer_pattern as bytes, and where %o
	 * (the I/O's offset, 8 bytes little-endian) goes in them */
	unsigned char bufpat[SB_BUFPAT_MAX];
	unsigned bufpat_len;
	unsigned bufpat_nofs;
	unsigned short bufpat_ofs[SB_BUFPAT_OFS_MAX];

	/* appended: DERIVED by the parser's fix-up pass (sb_spec_derive,
	 * parse/derive.c); no option sets them, and nothing downstream works
	 * them out again.  The same pass resolves bs_min/bs_max above (each
	 * direction's smallest and largest block size, whether bs, bsrange or
	 * bssplit gave them) and iodepth_batch_complete_max (fio's default:
	 * iodepth_batch_complete_min, at least 1; never 0 after parsing). */
	uint64_t bs_lo;             /* derived: smallest block size of the directions the job
				     * does (4096 when none): the unit of its offsets */
	uint64_t bs_hi;             /* derived: largest I/O the job can issue (4096 when none):
				     * the size of each I/O buffer */
	bool engine_sync;           /* derived: ioengine completes every I/O at queue time
				     * (psync, sync, mmap, null): queue-depth options do nothing */
	unsigned iodepth_eff;       /* derived: I/Os in flight: 1 with a synchronous engine,
				     * else iodepth (at least 1) */

	/* appended: where each option was set, by option-table index (file
	 * NULL: the default), so that checks after parsing (run/files.c) name
	 * file:line; read it with sb_spec_where() */
	struct sb_optloc {
		const char *file;   /* points into sb_joblist.paths */
		unsigned line;      /* 0: the command line */
	} loc[SB_OPT_MAX];

	/* appended (issue 16): sizes, offsets and randomness as fio has them */
	double size_pct;            /* size=N%: percent of each file's size; 0: size is bytes */
	double io_size_pct;         /* io_size=N%: percent of the I/O region; 0: io_size is bytes */
	double offset_pct;          /* offset=N%: percent of each file's size, aligned up to
				     * offset_align (or the smallest block size); 0: bytes */
	uint64_t offset_increment;  /* bytes added to offset per numjobs thread (0, 1, ...) */
	double offset_increment_pct; /* offset_increment=N%: percent of the file's size */
	uint64_t offset_align;      /* bytes; 0: percentage offsets align to the smallest bs */
	uint64_t number_ios;        /* stop a thread after this many I/Os; 0: no limit */
	int64_t rw_seq_add;         /* rw=read:N: bytes skipped after each sequential I/O */
	unsigned rw_seq_nr;         /* rw=randread:N: I/Os per random offset (default 1) */
	unsigned rw_sequencer;      /* enum sb_rwseq */
	unsigned random_generator;  /* enum sb_randgen */
	uint64_t percentage_random[SB_DDIR_N]; /* % of a random job's I/Os at random offsets */
	bool allrandrepeat;         /* every generator repeatable (implies randrepeat) */
	unsigned zone_n[SB_DDIR_N]; /* zones of random_distribution=zoned(_abs) per direction */
	struct sb_zone zones[SB_DDIR_N][SB_ZONES_MAX];
};

/* "file:line" where option o of s was set, else the job's [section]
 * "file:line" (or "<cmdline>"); written to buf, which is returned.
 * Defined in parse/optset.c. */
struct sb_option; /* a row of the option table: SB_OPT(field), parse/options.h */
const char *sb_spec_where(const struct sb_jobspec *s, const struct sb_option *o, char *buf,
			  unsigned len);

enum sb_workload { SB_WL_IO = 0, SB_WL_CHECKPOINT = 1, SB_WL_TRAIN = 2 };
enum sb_rules { SB_RULES_NONE = 0, SB_RULES_MLPERF = 1 };
#define SB_SHUFFLE_FILE 0x1u
#define SB_SHUFFLE_SAMPLE 0x2u

struct sb_sweep; /* parse/sweep.h */

/* The parsed job files: all jobs in file order, plus the [global] options as
 * written (JSON "global options"). */
struct sb_joblist {
	struct sb_jobspec *jobs;
	size_t njobs;
	struct sb_opt_echo *global_opts;
	unsigned nglobal;
	/* appended by the parser: owned copies of the job-file names that
	 * jobs[].file points into (freed by sb_joblist_free) */
	char **paths;
	unsigned npaths;
	/* appended: --datagen: create the training datasets of workload=train
	 * jobs and run nothing else */
	bool datagen_only;
	/* appended: the job file's sweep.* lists expanded into points (NULL: no
	 * sweep); jobs[] above are then the first point's jobs */
	struct sb_sweep *sweep;
};

static inline bool sb_spec_does(const struct sb_jobspec *s, enum sb_ddir d)
{
	if (d == SB_DDIR_READ)
		return s->rw & SB_RW_READ;
	if (d == SB_DDIR_WRITE)
		return s->rw & SB_RW_WRITE;
	return s->rw & SB_RW_TRIM;
}
#endif
