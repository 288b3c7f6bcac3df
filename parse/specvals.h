/* specvals.h: the values of the job spec's enumerated options (parse/
 * jobspec.h): what the option rows map names to and the runner reads. */
#ifndef SB_PARSE_SPECVALS_H
#define SB_PARSE_SPECVALS_H

/* unified_rw_reporting=: per direction only, one merged "mixed", or both */
enum sb_unified { SB_UNIFIED_NONE = 0, SB_UNIFIED_MIXED = 1, SB_UNIFIED_BOTH = 2 };
enum sb_syncmode { SB_SYNC_NONE = 0, SB_SYNC_SYNC, SB_SYNC_DSYNC };
enum sb_exitwhat { SB_EXIT_GROUP = 0, SB_EXIT_STONEWALL, SB_EXIT_ALL };

/* file_service_type: SB_FSVC_RR with fsvc_n 1 is the default (and the fast path) */
enum sb_fsvc { SB_FSVC_RR = 0, SB_FSVC_RANDOM, SB_FSVC_SEQ, SB_FSVC_ZIPF, SB_FSVC_PARETO,
	       SB_FSVC_NORMAL };
enum sb_cpupol { SB_CPUPOL_SHARED = 0, SB_CPUPOL_SPLIT };
enum sb_iomem { SB_IOMEM_MALLOC = 0, SB_IOMEM_SHM, SB_IOMEM_SHMHUGE, SB_IOMEM_MMAP,
		SB_IOMEM_MMAPHUGE, SB_IOMEM_MMAPSHARED, SB_IOMEM_CUDA };
enum sb_fadv { SB_FADV_NONE = 0, SB_FADV_AUTO, SB_FADV_RANDOM, SB_FADV_SEQUENTIAL };
enum sb_whint { SB_WHINT_UNSET = 0, SB_WHINT_NONE, SB_WHINT_SHORT, SB_WHINT_MEDIUM,
		SB_WHINT_LONG, SB_WHINT_EXTREME };
/* numa_mem_policy modes (values of the kernel's MPOL_*) */
enum sb_mpol { SB_MPOL_UNSET = 0, SB_MPOL_DEFAULT, SB_MPOL_PREFER, SB_MPOL_BIND,
	       SB_MPOL_INTERLEAVE, SB_MPOL_LOCAL };
/* lockfile= (run/flock.c) */
enum sb_lockfile { SB_LOCK_NONE = 0, SB_LOCK_EXCLUSIVE, SB_LOCK_READWRITE };

/* continue_on_error= flags (fio: none, read, write, io, verify, all) */
#define SB_COE_READ 0x1u
#define SB_COE_WRITE 0x2u
#define SB_COE_VERIFY 0x4u
enum sb_rate_proc { SB_RATE_PROC_LINEAR = 0, SB_RATE_PROC_POISSON = 1 };
/* steadystate= criteria */
enum sb_ss_kind { SB_SS_IOPS = 0, SB_SS_IOPS_SLOPE, SB_SS_BW, SB_SS_BW_SLOPE };

/* clocksource= (run/run.c picks lib/timeutil.h's clock from it) */
enum sb_clocksrc { SB_CLOCK_AUTO = 0, SB_CLOCK_MONO, SB_CLOCK_GTOD, SB_CLOCK_CPU };
enum sb_rules { SB_RULES_NONE = 0, SB_RULES_MLPERF = 1 };
enum sb_accel { SB_ACCEL_H100 = 0, SB_ACCEL_A100 = 1 };
enum sb_ctime { SB_CTIME_NORMAL = 0, SB_CTIME_UNIFORM = 1, SB_CTIME_GAMMA = 2 };
/* dataset_format=: raw random bytes, or DLIO's real file formats */
enum sb_dsfmt { SB_DSFMT_RAW = 0, SB_DSFMT_NPZ, SB_DSFMT_NPY, SB_DSFMT_HDF5, SB_DSFMT_TFRECORD };
enum sb_ckpt_io { SB_CKPT_IO_BS = 0, SB_CKPT_IO_TORCH = 1 };
/* checkpoint_content=: storbench's incompressible bytes, new per checkpoint,
 * or DLIO's torch.rand tensors, the same in every checkpoint */
enum sb_ckpt_content { SB_CKPT_CONTENT_UNIQUE = 0, SB_CKPT_CONTENT_DLIO = 1 };
/* checkpoint_source, train_destination: where the application's data lives */
enum sb_ml_mem { SB_ML_MEM_HOST = 0, SB_ML_MEM_GPU = 1 };
enum sb_ckpt_flush { SB_CKPT_FLUSH_SYNC = 0, SB_CKPT_FLUSH_ASYNC = 1, SB_CKPT_FLUSH_NONE = 2 };
enum sb_ckpt_red { SB_CKPT_RED_SINGLE = 0, SB_CKPT_RED_PARTNER = 1, SB_CKPT_RED_XOR = 2 };
/* zonemode= (parse/check_zone.c, run/iogen.c) */
enum sb_zonemode { SB_ZONE_NONE = 0, SB_ZONE_STRIDED, SB_ZONE_ZBD };
/* read_order=: DLIO's I/O order per reader, or storbench's older one */
enum sb_read_order { SB_ORDER_DLIO = 0, SB_ORDER_RESHUFFLE = 1 };
#define SB_SHUFFLE_FILE 0x1u
#define SB_SHUFFLE_SAMPLE 0x2u
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
#endif
