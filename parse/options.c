/* options.c: THE option table (see options.h) and lookups by name, alias
 * and edit distance.  Names, meanings and defaults follow fio so fio job files
 * run unchanged.  Setting values lives in optset.c, help/printing in help.c. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/options.h"
#include "parse/value.h"
#include "lib/csum.h"

#define OFF(f) offsetof(struct sb_jobspec, f)
#define SEC SB_US_PER_SEC

static const struct sb_opt_enum rw_vals[] = {
	{ .name = "read", .val = SB_RW_READ, .help = "sequential reads" },
	{ .name = "write", .val = SB_RW_WRITE, .help = "sequential writes" },
	{ .name = "trim", .val = SB_RW_TRIM, .help = "sequential trims: BLKDISCARD on a block device, fallocate(PUNCH_HOLE) on a file" },
	{ .name = "randread", .val = SB_RW_READ | SB_RW_RANDOM, .help = "random reads" },
	{ .name = "randwrite", .val = SB_RW_WRITE | SB_RW_RANDOM, .help = "random writes" },
	{ .name = "randtrim", .val = SB_RW_TRIM | SB_RW_RANDOM, .help = "random trims (as trim, at random offsets)" },
	{ .name = "rw", .val = SB_RW_READ | SB_RW_WRITE, .help = "sequential mixed reads and writes" },
	{ .name = "readwrite", .val = SB_RW_READ | SB_RW_WRITE, .help = "same as rw", .alias = true },
	{ .name = "randrw", .val = SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM, .help = "random mixed reads and writes" },
	{ .name = NULL },
};

static const struct sb_opt_enum rwseq_vals[] = {
	{ .name = "sequential", .val = SB_RWSEQ_SEQUENTIAL, .help = "continue sequentially from the random offset" },
	{ .name = "identical", .val = SB_RWSEQ_IDENTICAL, .help = "repeat the random offset" },
	{ .name = NULL },
};

static const struct sb_opt_enum randgen_vals[] = {
	{ .name = "tausworthe", .val = SB_RANDGEN_TAUS, .help = "storbench's generator (xoshiro256**; fio: 2^88-cycle tausworthe)" },
	{ .name = "lfsr", .val = SB_RANDGEN_LFSR, .help = "maximal-length LFSR: every block once per pass, no random map" },
	{ .name = "tausworthe64", .val = SB_RANDGEN_TAUS64, .help = "storbench's generator (xoshiro256**; fio: 64-bit tausworthe)" },
	{ .name = NULL },
};

static const struct sb_opt_enum falloc_vals[] = {
	{ .name = "none", .val = SB_FALLOC_NONE, .help = "do not pre-allocate" },
	{ .name = "native", .val = SB_FALLOC_POSIX, .help = "the platform's call (posix_fallocate on Linux)", .alias = true },
	{ .name = "posix", .val = SB_FALLOC_POSIX, .help = "posix_fallocate()" },
	{ .name = "keep", .val = SB_FALLOC_KEEP, .help = "fallocate() with FALLOC_FL_KEEP_SIZE" },
	{ .name = "truncate", .val = SB_FALLOC_TRUNCATE, .help = "extend with ftruncate() only" },
	{ .name = "0", .val = SB_FALLOC_NONE, .help = "same as none", .alias = true },
	{ .name = "1", .val = SB_FALLOC_POSIX, .help = "same as posix", .alias = true },
	{ .name = NULL },
};

static const struct sb_opt_enum kb_vals[] = {
	{ .name = "1024", .val = 1024, .help = "k/m/g = powers of 1024, ki/mi/gi = powers of 1000 (fio's default)" },
	{ .name = "1000", .val = 1000, .help = "k/m/g = powers of 1000, ki/mi/gi = powers of 1024" },
	{ .name = NULL },
};

static const struct sb_opt_enum unit_vals[] = {
	{ .name = "0", .val = 0, .help = "auto" },
	{ .name = "8", .val = 8, .help = "bytes" },
	{ .name = "1", .val = 1, .help = "bits" },
	{ .name = NULL },
};

static const struct sb_opt_enum metric_vals[] = {
	{ .name = "bw", .val = SB_SWEEP_METRIC_BW, .help = "highest bandwidth" },
	{ .name = "iops", .val = SB_SWEEP_METRIC_IOPS, .help = "highest IOPS" },
	{ .name = "clat_p99", .val = SB_SWEEP_METRIC_CLAT_P99, .help = "lowest 99th-percentile completion latency" },
	{ .name = NULL },
};

static const struct sb_opt_enum dedupe_vals[] = {
	{ .name = "repeat", .val = 0, .help = "a duplicate repeats the latest unique buffer" },
	{ .name = "working_set", .val = 1, .help = "a duplicate repeats a buffer of the working set" },
	{ .name = NULL },
};

/* verify=: fio's names (crc32c-intel is fio's alias of crc32c) */
static const struct sb_opt_enum verify_vals[] = {
	{ .name = "0", .val = SB_VT_NONE, .help = "no verification" },
	{ .name = "none", .val = SB_VT_NONE, .help = "same as 0", .alias = true },
	{ .name = "crc32c", .val = SB_VT_CRC32C, .help = "CRC-32C per block (ISA-L)" },
	{ .name = "crc32c-intel", .val = SB_VT_CRC32C, .help = "same as crc32c", .alias = true },
	{ .name = "crc64", .val = SB_VT_CRC64, .help = "CRC-64/XZ per block (ISA-L)" },
	{ .name = "xxhash", .val = SB_VT_XXHASH, .help = "XXH3 64-bit hash per block (libxxhash)" },
	{ .name = "md5", .val = SB_VT_MD5, .help = "MD5 per block (OpenSSL)" },
	{ .name = "sha1", .val = SB_VT_SHA1, .help = "SHA-1 per block (OpenSSL)" },
	{ .name = "sha256", .val = SB_VT_SHA256, .help = "SHA-256 per block (OpenSSL)" },
	{ .name = "sha512", .val = SB_VT_SHA512, .help = "SHA-512 per block (OpenSSL)" },
	{ .name = "pattern", .val = SB_VT_PATTERN, .help = "blocks filled with verify_pattern, compared byte for byte" },
	{ .name = "meta", .val = SB_VT_META, .help = "header only (offset, generation, seed), no data checksum" },
	{ .name = "null", .val = SB_VT_NULL, .help = "pretend to verify: read back, check nothing" },
	{ .name = NULL },
};

static const struct sb_opt_enum workload_vals[] = {
	{ .name = "io", .val = SB_WL_IO, .help = "fio-style I/O jobs (rw=, bs=, size=...)" },
	{ .name = "checkpoint", .val = SB_WL_CHECKPOINT, .help = "LLM checkpoint save and restore (DLIO / MLPerf Storage)" },
	{ .name = "train", .val = SB_WL_TRAIN, .help = "DLIO-style training reads feeding emulated accelerators" },
	{ .name = NULL },
};

static const struct sb_opt_enum rules_vals[] = {
	{ .name = "none", .val = SB_RULES_NONE, .help = "no rule report" },
	{ .name = "mlperf", .val = SB_RULES_MLPERF, .help = "MLPerf Storage rule checks and a CLOSED/OPEN/INVALID verdict" },
	{ .name = NULL },
};

static const struct sb_opt_enum shuffle_vals[] = {
	{ .name = "none", .val = 0, .help = "read files and samples in order" },
	{ .name = "file", .val = SB_SHUFFLE_FILE, .help = "shuffle the file order every epoch" },
	{ .name = "sample", .val = SB_SHUFFLE_SAMPLE, .help = "shuffle the sample order every epoch" },
	{ .name = "both", .val = SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, .help = "shuffle files and samples" },
	{ .name = "0", .val = 0, .help = "same as none", .alias = true },
	{ .name = "1", .val = SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, .help = "same as both", .alias = true },
	{ .name = "0,0", .val = 0, .help = "FILE,SAMPLE flags: none", .alias = true },
	{ .name = "1,0", .val = SB_SHUFFLE_FILE, .help = "FILE,SAMPLE flags: files only", .alias = true },
	{ .name = "0,1", .val = SB_SHUFFLE_SAMPLE, .help = "FILE,SAMPLE flags: samples only", .alias = true },
	{ .name = "1,1", .val = SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, .help = "FILE,SAMPLE flags: both", .alias = true },
	{ .name = NULL },
};

static const struct sb_opt_enum coe_vals[] = {
	{ .name = "none", .val = 0, .help = "end the job at the first error" },
	{ .name = "read", .val = SB_COE_READ, .help = "continue after read errors" },
	{ .name = "write", .val = SB_COE_WRITE, .help = "continue after write errors" },
	{ .name = "io", .val = SB_COE_READ | SB_COE_WRITE, .help = "continue after any I/O error" },
	{ .name = "verify", .val = SB_COE_VERIFY, .help = "continue after verify errors" },
	{ .name = "all", .val = SB_COE_READ | SB_COE_WRITE | SB_COE_VERIFY, .help = "continue after I/O and verify errors" },
	{ .name = "0", .val = 0, .help = "same as none", .alias = true },
	{ .name = "1", .val = SB_COE_READ | SB_COE_WRITE | SB_COE_VERIFY, .help = "same as all", .alias = true },
	{ .name = NULL },
};

static const struct sb_opt_enum rateproc_vals[] = {
	{ .name = "linear", .val = SB_RATE_PROC_LINEAR, .help = "evenly spaced I/Os" },
	{ .name = "poisson", .val = SB_RATE_PROC_POISSON, .help = "exponentially distributed gaps (a Poisson process) with the same mean rate" },
	{ .name = NULL },
};

static const struct sb_opt_enum submit_vals[] = {
	{ .name = "inline", .val = 0, .help = "the job's thread submits and reaps its own I/O" },
	{ .name = "offload", .val = 1, .help = "fio's submission worker threads: not supported (refused)" },
	{ .name = NULL },
};

static const struct sb_opt_enum clock_vals[] = {
	{ .name = "clock_gettime", .val = 0, .help = "clock_gettime(CLOCK_MONOTONIC): what storbench always uses" },
	{ .name = "gettimeofday", .val = 1, .help = "accepted; storbench still uses clock_gettime(CLOCK_MONOTONIC)" },
	{ .name = "cpu", .val = 2, .help = "accepted; storbench still uses clock_gettime(CLOCK_MONOTONIC)" },
	{ .name = NULL },
};

/* issue 16 (place): placement, priorities and file options */
static const struct sb_opt_enum cpupol_vals[] = {
	{ .name = "shared", .val = SB_CPUPOL_SHARED, .help = "every thread of the job may run on all the allowed CPUs" },
	{ .name = "split", .val = SB_CPUPOL_SPLIT, .help = "thread N of the job runs on the Nth allowed CPU (wrapping around)" },
	{ .name = NULL },
};

static const struct sb_opt_enum iomem_vals[] = {
	{ .name = "malloc", .val = SB_IOMEM_MALLOC, .help = "aligned heap memory (posix_memalign)" },
	{ .name = "shm", .val = SB_IOMEM_SHM, .help = "a System V shared memory segment (shmget)" },
	{ .name = "shmhuge", .val = SB_IOMEM_SHMHUGE, .help = "like shm, with huge pages (SHM_HUGETLB)" },
	{ .name = "mmap", .val = SB_IOMEM_MMAP, .help = "private anonymous mmap" },
	{ .name = "mmaphuge", .val = SB_IOMEM_MMAPHUGE, .help = "anonymous mmap with huge pages (MAP_HUGETLB)" },
	{ .name = "mmapshared", .val = SB_IOMEM_MMAPSHARED, .help = "shared anonymous mmap" },
	{ .name = "cudamalloc", .val = SB_IOMEM_CUDA, .help = "GPU memory: refused (storbench has no CUDA I/O path)" },
	{ .name = NULL },
};

static const struct sb_opt_enum fadv_vals[] = {
	{ .name = "0", .val = SB_FADV_NONE, .help = "no fadvise" },
	{ .name = "1", .val = SB_FADV_AUTO, .help = "POSIX_FADV_SEQUENTIAL or _RANDOM as the job's rw= is" },
	{ .name = "random", .val = SB_FADV_RANDOM, .help = "POSIX_FADV_RANDOM" },
	{ .name = "sequential", .val = SB_FADV_SEQUENTIAL, .help = "POSIX_FADV_SEQUENTIAL" },
	{ .name = NULL },
};

static const struct sb_opt_enum lockfile_vals[] = {
	{ .name = "none", .val = 0, .help = "no locking (fio's default)" },
	{ .name = "exclusive", .val = 1, .help = "refused: storbench does not serialize I/O to a shared file" },
	{ .name = "readwrite", .val = 2, .help = "refused: storbench does not serialize I/O to a shared file" },
	{ .name = NULL },
};

static const struct sb_opt_enum whint_vals[] = {
	{ .name = "unset", .val = SB_WHINT_UNSET, .help = "leave the file's hint alone (default)" },
	{ .name = "none", .val = SB_WHINT_NONE, .help = "RWH_WRITE_LIFE_NONE" },
	{ .name = "short", .val = SB_WHINT_SHORT, .help = "RWH_WRITE_LIFE_SHORT" },
	{ .name = "medium", .val = SB_WHINT_MEDIUM, .help = "RWH_WRITE_LIFE_MEDIUM" },
	{ .name = "long", .val = SB_WHINT_LONG, .help = "RWH_WRITE_LIFE_LONG" },
	{ .name = "extreme", .val = SB_WHINT_EXTREME, .help = "RWH_WRITE_LIFE_EXTREME" },
	{ .name = NULL },
};

#define PCTL_DEFAULT "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"
#define C_DESC SB_CAT_DESC
#define C_FILE SB_CAT_FILE
#define C_IO SB_CAT_IO
#define C_BS SB_CAT_BS
#define C_ENG SB_CAT_ENG
#define C_TIME SB_CAT_TIME
#define C_GRP SB_CAT_GRP
#define C_RAND SB_CAT_RAND
#define C_RATE SB_CAT_RATE
#define C_STAT SB_CAT_STAT
#define C_SAFE SB_CAT_SAFE
#define C_ML SB_CAT_ML
#define C_CKPT SB_CAT_CKPT
#define C_TRAIN SB_CAT_TRAIN
#define C_LOG SB_CAT_LOG
#define C_SWEEP SB_CAT_SWEEP

static const char *const cat_names[SB_CAT_N] = {
	[SB_CAT_DESC] = "Job description",
	[SB_CAT_FILE] = "Files and sizes",
	[SB_CAT_IO] = "I/O pattern",
	[SB_CAT_BS] = "Block size",
	[SB_CAT_ENG] = "I/O engine",
	[SB_CAT_TIME] = "Time and repetition",
	[SB_CAT_GRP] = "Threads, groups and ordering",
	[SB_CAT_RAND] = "Randomness",
	[SB_CAT_RATE] = "Rate and think time",
	[SB_CAT_STAT] = "Statistics and units",
	[SB_CAT_SAFE] = "File life cycle and safety",
	[SB_CAT_ML] = "ML workloads",
	[SB_CAT_CKPT] = "Checkpoint workload",
	[SB_CAT_TRAIN] = "Training workload",
	[SB_CAT_LOG] = "Time series, logs and host counters",
	[SB_CAT_SWEEP] = "Sweeps",
	[SB_CAT_VERIFY] = "Data verification",
};

static const struct sb_option table[] = {
	{ .name = "description", .type = SB_OT_STR, .off = OFF(description),
	  .flags = SB_OF_IDENTITY, .category = C_DESC, .help = "free-text description of the job" },
	{ .name = "name", .type = SB_OT_NAME, .off = OFF(name), .flags = SB_OF_IDENTITY,
	  .category = C_DESC, .help = "job name (overrides the [section] name)" },
	{ .name = "filename", .type = SB_OT_STR, .off = OFF(filename), .category = C_FILE,
	  .help = "file or device to use; several separated by ':'" },
	{ .name = "directory", .type = SB_OT_STR, .off = OFF(directory), .category = C_FILE,
	  .help = "directory for generated file names" },
	{ .name = "nrfiles", .alias = { "nr_files" }, .type = SB_OT_UINT, .off = OFF(nrfiles), .def = "1", .min = 1,
	  .max = 1 << 20, .category = C_FILE, .help = "number of files per job" },
	{ .name = "filesize", .type = SB_OT_SIZE_RANGE, .off = OFF(filesize_min),
	  .off2 = OFF(filesize_max), .min = 1, .unit = "bytes", .category = C_FILE,
	  .help = "size of each file, or a LOW-HIGH range (default size/nrfiles)" },
	{ .name = "size", .type = SB_OT_SIZE, .off = OFF(size), .off2 = OFF(size_pct), .min = 1,
	  .unit = "bytes or %", .flags = SB_OF_PCT, .category = C_FILE,
	  .help = "total bytes of the job's files, or N% of each existing file (default: the existing size)" },
	{ .name = "io_size", .alias = { "io_limit" }, .type = SB_OT_SIZE, .off = OFF(io_size),
	  .off2 = OFF(io_size_pct), .min = 1, .unit = "bytes or %", .flags = SB_OF_PCT,
	  .category = C_FILE, .help = "bytes to transfer, or N% of the I/O region (default: size)" },
	{ .name = "offset", .alias = { "fileoffset" }, .type = SB_OT_SIZE, .off = OFF(offset),
	  .off2 = OFF(offset_pct), .def = "0", .unit = "bytes or %", .flags = SB_OF_PCT,
	  .category = C_FILE,
	  .help = "start of the I/O region in each file; N% of the file's size is aligned up to offset_align" },
	/* issue 16: sizes and offsets */
	{ .name = "offset_increment", .type = SB_OT_SIZE, .off = OFF(offset_increment),
	  .off2 = OFF(offset_increment_pct), .def = "0", .unit = "bytes or %", .flags = SB_OF_PCT,
	  .category = C_FILE,
	  .help = "added to offset once per numjobs thread (thread N starts at offset + N * this)" },
	{ .name = "offset_align", .type = SB_OT_SIZE, .off = OFF(offset_align), .def = "0",
	  .unit = "bytes", .category = C_FILE,
	  .help = "alignment of percentage offsets (0: the smallest block size)" },
	{ .name = "number_ios", .type = SB_OT_U64, .off = OFF(number_ios), .def = "0",
	  .max = INT64_MAX, .unit = "I/Os", .category = C_FILE,
	  .help = "stop each thread after this many I/Os (0: no limit); never extends the I/O" },

	{ .name = "rw", .alias = { "readwrite" }, .type = SB_OT_ENUM, .off = OFF(rw), .def = "read",
	  .enums = rw_vals, .category = C_IO,
	  .help = "I/O pattern; :N after it skips N bytes after each sequential I/O (read:4k) or "
		  "takes a new random offset every N I/Os (randread:8)" },
	{ .name = "rwmixread", .type = SB_OT_UINT, .off = OFF(rwmixread), .def = "50", .max = 100,
	  .unit = "%", .category = C_IO, .help = "percentage of reads in a mixed workload" },
	{ .name = "rwmixwrite", .type = SB_OT_UINT, .off = OFF(rwmixread), .max = 100, .unit = "%",
	  .flags = SB_OF_INVERSE, .category = C_IO,
	  .help = "percentage of writes in a mixed workload (100 - rwmixread)" },
	/* issue 16 */
	{ .name = "rw_sequencer", .type = SB_OT_ENUM, .off = OFF(rw_sequencer), .def = "sequential",
	  .enums = rwseq_vals, .category = C_IO,
	  .help = "what the I/Os between two random offsets of rw=randread:N do" },

	{ .name = "bs", .alias = { "blocksize" }, .type = SB_OT_SIZE_SPLIT, .off = OFF(bs),
	  .def = "4k", .min = 1, .unit = "bytes", .category = C_BS,
	  .help = "block size per I/O: READ[,WRITE[,TRIM]]" },
	{ .name = "bsrange", .alias = { "blocksize_range" }, .type = SB_OT_RANGE_SPLIT,
	  .off = OFF(bs_min), .off2 = OFF(bs_max), .min = 1, .unit = "bytes", .flags = SB_OF_INBS,
	  .category = C_BS,
	  .help = "range of block sizes LOW-HIGH per direction, e.g. 1k-4k,2k-8k" },
	{ .name = "bssplit", .type = SB_OT_BSSPLIT, .off = OFF(bssplit), .off2 = OFF(bssplit_n),
	  .flags = SB_OF_INBS, .category = C_BS,
	  .help = "weighted block sizes BS/PCT:BS/PCT per direction, e.g. 4k/50:64k/50" },
	{ .name = "blockalign", .alias = { "ba" }, .type = SB_OT_SIZE_SPLIT, .off = OFF(blockalign),
	  .unit = "bytes", .category = C_BS,
	  .help = "alignment of random offsets (default: the minimum block size)" },

	{ .name = "ioengine", .type = SB_OT_ENGINE, .off = OFF(ioengine), .def = "psync",
	  .category = C_ENG, .help = "I/O engine" },
	{ .name = "iodepth", .type = SB_OT_UINT, .off = OFF(iodepth), .def = "1", .min = 1,
	  .max = 65536, .flags = SB_OF_QDEPTH, .category = C_ENG,
	  .help = "I/Os kept in flight (async engines)" },
	{ .name = "iodepth_batch_submit", .alias = { "iodepth_batch" }, .type = SB_OT_UINT,
	  .off = OFF(iodepth_batch_submit), .def = "1", .max = 65536, .flags = SB_OF_QDEPTH,
	  .category = C_ENG, .help = "I/Os to submit at once (0: iodepth)" },
	{ .name = "iodepth_batch_complete_min", .alias = { "iodepth_batch_complete" },
	  .type = SB_OT_UINT, .off = OFF(iodepth_batch_complete_min), .def = "1", .max = 65536,
	  .flags = SB_OF_QDEPTH, .category = C_ENG,
	  .help = "fewest completions to wait for (0: poll)" },
	{ .name = "iodepth_batch_complete_max", .type = SB_OT_UINT,
	  .off = OFF(iodepth_batch_complete_max), .max = 65536, .flags = SB_OF_QDEPTH,
	  .category = C_ENG,
	  .help = "most completions to reap at once (default: iodepth_batch_complete_min)" },
	{ .name = "direct", .type = SB_OT_BOOL, .off = OFF(direct), .def = "0", .category = C_ENG,
	  .help = "use O_DIRECT (non-buffered) I/O" },
	{ .name = "buffered", .type = SB_OT_BOOL, .off = OFF(direct), .flags = SB_OF_INVERSE,
	  .category = C_ENG, .help = "use buffered I/O (the opposite of direct)" },
	{ .name = "fsync", .type = SB_OT_UINT, .off = OFF(fsync), .def = "0", .max = UINT32_MAX,
	  .category = C_ENG, .help = "fsync after every N writes (0: never)" },
	{ .name = "fdatasync", .type = SB_OT_UINT, .off = OFF(fdatasync), .def = "0",
	  .max = UINT32_MAX, .category = C_ENG,
	  .help = "fdatasync after every N writes (0: never)" },
	{ .name = "ioscheduler", .type = SB_OT_STR, .off = OFF(ioscheduler), .category = C_ENG,
	  .help = "switch the disk under the job's files to this I/O scheduler for the run (root)" },
	{ .name = "sync_file_range", .type = SB_OT_STR, .off = OFF(sync_file_range),
	  .category = C_ENG,
	  .help = "sync_file_range() the range written, every N writes: FLAGS:N, FLAGS a ','-list of wait_before, write, wait_after" },
	{ .name = "atomic", .type = SB_OT_BOOL, .off = OFF(atomic), .def = "0", .category = C_ENG,
	  .help = "fio's atomic I/O: implies direct=1 (Linux has no O_ATOMIC, as with fio)" },
	{ .name = "end_fsync", .type = SB_OT_BOOL, .off = OFF(end_fsync), .def = "0",
	  .category = C_ENG, .help = "fsync each file when the job ends" },

	{ .name = "runtime", .alias = { "timeout" }, .type = SB_OT_TIME, .off = OFF(runtime_us),
	  .def = "0", .unit_us = SEC, .unit = "s", .category = C_TIME,
	  .help = "stop after this long (0: no limit)" },
	{ .name = "time_based", .type = SB_OT_BOOL, .off = OFF(time_based), .def = "0",
	  .category = C_TIME, .help = "repeat the workload until runtime has passed" },
	{ .name = "ramp_time", .type = SB_OT_TIME, .off = OFF(ramp_time_us), .def = "0",
	  .unit_us = SEC, .unit = "s", .category = C_TIME,
	  .help = "run this long before counting results" },
	{ .name = "startdelay", .type = SB_OT_TIME, .off = OFF(startdelay_us), .def = "0",
	  .unit_us = SEC, .unit = "s", .category = C_TIME,
	  .help = "wait this long before starting the job" },
	{ .name = "loops", .type = SB_OT_UINT, .off = OFF(loops), .def = "1", .min = 1,
	  .max = UINT32_MAX, .category = C_TIME, .help = "repeat the workload this many times" },

	{ .name = "numjobs", .type = SB_OT_UINT, .off = OFF(numjobs), .def = "1", .min = 1,
	  .max = 4096, .category = C_GRP, .help = "clones of this job running in parallel" },
	{ .name = "thread", .type = SB_OT_BOOL, .off = OFF(thread), .def = "0", .category = C_GRP,
	  .help = "accepted for fio compatibility: jobs always run as threads" },
	{ .name = "stonewall", .alias = { "wait_for_previous" }, .type = SB_OT_BOOL,
	  .off = OFF(stonewall), .def = "0", .flags = SB_OF_IDENTITY, .category = C_GRP,
	  .help = "wait for earlier jobs to finish first; starts a new group" },
	{ .name = "new_group", .type = SB_OT_BOOL, .off = OFF(new_group), .def = "0",
	  .flags = SB_OF_IDENTITY, .category = C_GRP, .help = "start a new reporting group" },
	{ .name = "wait_for", .type = SB_OT_STR, .off = OFF(wait_for), .flags = SB_OF_IDENTITY,
	  .category = C_GRP, .help = "start after the named earlier job has finished" },
	{ .name = "group_reporting", .type = SB_OT_BOOL, .off = OFF(group_reporting), .def = "0",
	  .category = C_GRP, .help = "report a group's jobs as one" },

	/* issue 16 (place): CPU and memory placement, priorities (run/place.c) */
	{ .name = "cpus_allowed", .type = SB_OT_STR, .off = OFF(cpus_allowed), .category = C_GRP,
	  .help = "CPUs the job's threads may run on: a list such as 0-3,6" },
	{ .name = "cpumask", .type = SB_OT_U64, .off = OFF(cpumask), .def = "0", .max = INT64_MAX,
	  .category = C_GRP,
	  .help = "CPUs the job may run on as a bit mask (bit N: CPU N; 0: no pinning)" },
	{ .name = "cpus_allowed_policy", .type = SB_OT_ENUM, .off = OFF(cpus_allowed_policy),
	  .def = "shared", .enums = cpupol_vals, .category = C_GRP,
	  .help = "how the job's threads share cpus_allowed/cpumask: shared or split" },
	{ .name = "numa_cpu_nodes", .type = SB_OT_STR, .off = OFF(numa_cpu_nodes), .category = C_GRP,
	  .help = "run the job's threads on the CPUs of these NUMA nodes: a list such as 0-1,3, or all" },
	{ .name = "numa_mem_policy", .type = SB_OT_STR, .off = OFF(numa_mem_policy),
	  .category = C_GRP,
	  .help = "NUMA policy of the I/O buffers: default, prefer:N, bind:LIST, interleave:LIST or local" },
	{ .name = "iomem", .alias = { "mem" }, .type = SB_OT_ENUM, .off = OFF(iomem),
	  .def = "malloc", .enums = iomem_vals, .category = C_GRP,
	  .help = "how I/O buffers are allocated" },
	{ .name = "iomem_align", .alias = { "mem_align" }, .type = SB_OT_SIZE,
	  .off = OFF(iomem_align), .def = "0", .unit = "bytes", .category = C_GRP,
	  .help = "I/O buffers start at this alignment (a power of 2; 0: the page)" },
	{ .name = "nice", .type = SB_OT_INT, .off = OFF(nice), .def = "0", .min = -20, .max = 19,
	  .category = C_GRP, .help = "CPU nice value of the job's threads (0: unchanged)" },
	{ .name = "prio", .type = SB_OT_UINT, .off = OFF(prio), .max = 7, .category = C_GRP,
	  .help = "I/O priority level of the job's threads, 0 (highest) to 7 (ioprio_set)" },
	{ .name = "prioclass", .type = SB_OT_UINT, .off = OFF(prioclass), .max = 3,
	  .category = C_GRP,
	  .help = "I/O priority class of the job's threads: 1 realtime, 2 best-effort, 3 idle" },

	{ .name = "randrepeat", .type = SB_OT_BOOL,
	  .off = OFF(randrepeat), .def = "1", .category = C_RAND,
	  .help = "same random offsets and buffer contents on every run" },
	{ .name = "randseed", .type = SB_OT_U64, .off = OFF(randseed), .def = "0x89",
	  .max = INT64_MAX, .category = C_RAND, .help = "seed of the random generators" },
	{ .name = "norandommap", .type = SB_OT_BOOL, .off = OFF(norandommap), .def = "0",
	  .category = C_RAND, .help = "random offsets may repeat within a pass" },
	{ .name = "random_distribution", .type = SB_OT_DIST, .off = OFF(random_distribution),
	  .off2 = OFF(dist_param), .def = "random", .category = C_RAND,
	  .help = "random, zipf[:theta], pareto[:h], normal[:sigma], zoned:ACCESS/SIZE%:... or "
		  "zoned_abs:ACCESS/BYTES:... (zones per direction separated by ',')" },
	/* issue 16: randomness */
	{ .name = "allrandrepeat", .type = SB_OT_BOOL, .off = OFF(allrandrepeat), .def = "0",
	  .category = C_RAND, .help = "seed every generator repeatably (overrides randrepeat=0)" },
	{ .name = "random_generator", .type = SB_OT_ENUM, .off = OFF(random_generator),
	  .def = "tausworthe", .enums = randgen_vals, .category = C_RAND,
	  .help = "generator of random offsets; lfsr visits each block once per pass without a map" },
	{ .name = "percentage_random", .type = SB_OT_INT_SPLIT, .off = OFF(percentage_random),
	  .def = "100", .max = 100, .unit = "%", .category = C_RAND,
	  .help = "share of a random job's I/Os at random offsets, READ[,WRITE[,TRIM]]; the rest continue sequentially" },

	{ .name = "rate", .type = SB_OT_SIZE_SPLIT, .off = OFF(rate), .unit = "bytes/s",
	  .category = C_RATE, .help = "bandwidth cap READ[,WRITE[,TRIM]] (0: none)" },
	{ .name = "rate_iops", .type = SB_OT_INT_SPLIT, .off = OFF(rate_iops), .unit = "IOPS",
	  .category = C_RATE, .help = "I/Os-per-second cap READ[,WRITE[,TRIM]] (0: none)" },
	{ .name = "max_latency", .type = SB_OT_TIME, .off = OFF(max_latency_us), .def = "0",
	  .unit_us = 1, .unit = "us", .category = C_RATE,
	  .help = "end the job with ETIMEDOUT when an I/O takes longer than this (0: no limit)" },
	{ .name = "thinktime", .type = SB_OT_TIME, .off = OFF(thinktime_us), .def = "0",
	  .unit_us = 1, .unit = "us", .category = C_RATE,
	  .help = "pause after each thinktime_blocks I/Os" },
	{ .name = "thinktime_spin", .type = SB_OT_TIME, .off = OFF(thinktime_spin_us), .def = "0",
	  .unit_us = 1, .unit = "us", .category = C_RATE,
	  .help = "part of thinktime spent spinning instead of sleeping" },
	{ .name = "thinktime_blocks", .type = SB_OT_UINT, .off = OFF(thinktime_blocks), .def = "1",
	  .min = 1, .max = UINT32_MAX, .category = C_RATE,
	  .help = "I/Os between thinktime pauses" },

	{ .name = "unlink", .type = SB_OT_BOOL, .off = OFF(unlink), .def = "0", .category = C_SAFE,
	  .help = "remove the files storbench created when the job ends" },
	{ .name = "fallocate", .type = SB_OT_ENUM, .off = OFF(fallocate), .def = "native",
	  .enums = falloc_vals, .category = C_SAFE,
	  .help = "how to pre-allocate files being laid out" },
	{ .name = "allow_mounted_write", .type = SB_OT_BOOL, .off = OFF(allow_mounted_write),
	  .def = "0", .category = C_SAFE, .help = "allow writes to a mounted block device" },

	/* issue 16 (place): file options (run/files.c) */
	{ .name = "invalidate", .type = SB_OT_BOOL, .off = OFF(no_invalidate), .def = "1",
	  .flags = SB_OF_INVERSE, .category = C_SAFE, .help = "drop the files' page cache before the job (buffered I/O)" },
	{ .name = "fadvise_hint", .type = SB_OT_ENUM, .off = OFF(fadvise_hint), .def = "1",
	  .enums = fadv_vals, .category = C_SAFE, .help = "posix_fadvise() the access pattern" },
	{ .name = "pre_read", .type = SB_OT_BOOL, .off = OFF(pre_read), .def = "0",
	  .category = C_SAFE,
	  .help = "read the I/O region into the page cache before the job (buffered reads)" },
	{ .name = "fsync_on_close", .type = SB_OT_BOOL, .off = OFF(fsync_on_close), .def = "0",
	  .category = C_SAFE, .help = "fsync each file the job writes when it closes it" },
	{ .name = "allow_file_create", .type = SB_OT_BOOL, .off = OFF(no_file_create),
	  .def = "1", .flags = SB_OF_INVERSE, .category = C_SAFE,
	  .help = "create missing files (0: a missing file is an error)" },
	{ .name = "write_hint", .type = SB_OT_ENUM, .off = OFF(write_hint), .def = "unset",
	  .enums = whint_vals, .category = C_SAFE,
	  .help = "expected lifetime of the data written (fcntl F_SET_RW_HINT)" },
	{ .name = "filename_format", .type = SB_OT_STR, .off = OFF(filename_format),
	  .flags = SB_OF_IDENTITY, .category = C_FILE,
	  .help = "generated file names: $jobname, $jobnum, $filenum, $clientuid (default $jobname.$jobnum.$filenum)" },
	{ .name = "unique_filename", .type = SB_OT_BOOL, .off = OFF(no_unique_filename),
	  .def = "1", .flags = SB_OF_INVERSE | SB_OF_IDENTITY, .category = C_FILE,
	  .help = "fio's client/server name prefix; a local run's names do not change" },
	{ .name = "file_service_type", .type = SB_OT_STR, .off = OFF(file_service_type),
	  .category = C_FILE,
	  .help = "how the next file is picked: roundrobin[:N], random[:N], sequential, zipf[:theta], pareto[:h], normal|gauss[:sigma%] (default roundrobin)" },
	{ .name = "opendir", .type = SB_OT_STR, .off = OFF(opendir), .category = C_FILE,
	  .help = "use every regular file under this directory (recursively, in name order) at its size" },
	{ .name = "openfiles", .type = SB_OT_UINT, .off = OFF(openfiles), .def = "0",
	  .max = 1 << 20, .category = C_FILE,
	  .help = "files open at once (default: all); storbench keeps all of a job's files open" },
	{ .name = "lockfile", .type = SB_OT_ENUM, .off = OFF(lockfile), .def = "none",
	  .enums = lockfile_vals, .category = C_FILE,
	  .help = "lock the file around each I/O: only none (jobs sharing a file do not take turns)" },
	{ .name = "file_append", .type = SB_OT_BOOL, .off = OFF(file_append), .def = "0",
	  .category = C_FILE, .help = "do the I/O past the file's current end (offset counts from there)" },
	{ .name = "overwrite", .type = SB_OT_BOOL, .off = OFF(overwrite), .def = "0",
	  .category = C_SAFE, .help = "lay files out with data first, so writes overwrite blocks" },
	{ .name = "create_only", .type = SB_OT_BOOL, .off = OFF(create_only), .def = "0",
	  .category = C_SAFE, .help = "lay the job's files out and do no I/O" },
	{ .name = "stats", .type = SB_OT_BOOL, .off = OFF(no_stats), .def = "1",
	  .flags = SB_OF_INVERSE | SB_OF_IDENTITY, .category = C_STAT,
	  .help = "collect statistics for this job (0: it is reported with zeroes, as fio)" },

	{ .name = "percentile_list", .alias = { "percentiles" }, .type = SB_OT_PCTL_LIST,
	  .off = OFF(percentile_list), .off2 = OFF(percentile_n), .def = PCTL_DEFAULT, .unit = "%",
	  .category = C_STAT, .help = "latency percentiles to report, ':'-separated" },
	{ .name = "clat_percentiles", .type = SB_OT_BOOL, .off = OFF(clat_percentiles), .def = "1",
	  .category = C_STAT, .help = "report completion-latency percentiles" },
	{ .name = "lat_percentiles", .type = SB_OT_BOOL, .off = OFF(lat_percentiles), .def = "0",
	  .category = C_STAT, .help = "report total-latency percentiles" },
	{ .name = "kb_base", .type = SB_OT_ENUM, .off = OFF(kb_base), .def = "1024",
	  .enums = kb_vals, .category = C_STAT,
	  .help = "meaning of k/m/g in sizes (applies to the whole section)" },
	{ .name = "unit_base", .type = SB_OT_ENUM, .off = OFF(unit_base), .def = "0",
	  .enums = unit_vals, .category = C_STAT,
	  .help = "report bandwidth in bytes (8) or bits (1); 0: auto" },
	{ .name = "workload", .type = SB_OT_ENUM, .off = OFF(workload), .def = "io",
	  .enums = workload_vals, .flags = SB_OF_ML, .category = C_ML,
	  .help = "what the job does: fio-style io, LLM checkpoint, or training reads" },
	{ .name = "rules", .type = SB_OT_ENUM, .off = OFF(rules), .def = "none",
	  .enums = rules_vals, .flags = SB_OF_ML, .category = C_ML,
	  .help = "check the run against benchmark rules and print a verdict" },
	{ .name = "drop_caches", .type = SB_OT_BOOL, .off = OFF(drop_caches), .def = "1",
	  .flags = SB_OF_ML, .category = C_ML,
	  .help = "sync and drop the page cache between phases and sweep runs (when permitted)" },
	{ .name = "model", .type = SB_OT_STR, .off = OFF(ml_model), .flags = SB_OF_ML,
	  .category = C_CKPT,
	  .help = "built-in LLM: llama3-8b, llama3-70b, llama3-405b or llama3-1t" },
	{ .name = "hidden", .type = SB_OT_UINT, .off = OFF(ml_hidden), .max = 1 << 24,
	  .flags = SB_OF_ML, .category = C_CKPT, .help = "model shape: hidden size" },
	{ .name = "ffn", .type = SB_OT_UINT, .off = OFF(ml_ffn), .max = 1 << 26, .flags = SB_OF_ML,
	  .category = C_CKPT, .help = "model shape: feed-forward size" },
	{ .name = "layers", .type = SB_OT_UINT, .off = OFF(ml_layers), .max = 1 << 16,
	  .flags = SB_OF_ML, .category = C_CKPT, .help = "model shape: transformer layers" },
	{ .name = "heads", .type = SB_OT_UINT, .off = OFF(ml_heads), .max = 1 << 16,
	  .flags = SB_OF_ML, .category = C_CKPT, .help = "model shape: attention heads" },
	{ .name = "kv_heads", .type = SB_OT_UINT, .off = OFF(ml_kv_heads), .max = 1 << 16,
	  .flags = SB_OF_ML, .category = C_CKPT, .help = "model shape: key/value heads" },
	{ .name = "vocab", .type = SB_OT_UINT, .off = OFF(ml_vocab), .max = 1 << 26,
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "model shape: vocabulary size (default 128256)" },
	{ .name = "tp", .type = SB_OT_UINT, .off = OFF(ml_tp), .max = 1 << 16, .flags = SB_OF_ML,
	  .category = C_CKPT, .help = "tensor parallelism" },
	{ .name = "pp", .type = SB_OT_UINT, .off = OFF(ml_pp), .max = 1 << 16, .flags = SB_OF_ML,
	  .category = C_CKPT, .help = "pipeline parallelism" },
	{ .name = "dp", .type = SB_OT_UINT, .off = OFF(ml_dp), .max = 1 << 20, .flags = SB_OF_ML,
	  .category = C_CKPT, .help = "data parallelism" },
	{ .name = "zero_stage", .type = SB_OT_UINT, .off = OFF(ml_zero_stage), .max = 3,
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "DeepSpeed ZeRO stage 0-3 (decides who writes which file)" },
	{ .name = "ranks", .type = SB_OT_UINT, .off = OFF(ranks), .max = 65536, .flags = SB_OF_ML,
	  .category = C_CKPT, .help = "emulated ranks, run as threads (default tp*pp*dp)" },
	{ .name = "subset", .type = SB_OT_BOOL, .off = OFF(subset), .def = "0", .flags = SB_OF_ML,
	  .category = C_CKPT,
	  .help = "fewer ranks than tp*pp*dp each write their fraction (MLPerf subset mode)" },
	{ .name = "checkpoint_scale", .type = SB_OT_FLOAT, .off = OFF(checkpoint_scale), .def = "1",
	  .max = 1, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "multiply every checkpoint file size by this, e.g. 0.001" },
	{ .name = "num_checkpoints_write", .type = SB_OT_UINT, .off = OFF(num_checkpoints_write),
	  .def = "10", .max = 100000, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "checkpoints to write" },
	{ .name = "num_checkpoints_read", .type = SB_OT_UINT, .off = OFF(num_checkpoints_read),
	  .def = "10", .max = 100000, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "checkpoints to read back after the writes" },
	{ .name = "time_between_checkpoints", .type = SB_OT_TIME,
	  .off = OFF(time_between_checkpoints_us), .def = "0", .unit_us = SEC, .unit = "s",
	  .flags = SB_OF_ML, .category = C_CKPT, .help = "pause between two checkpoint writes" },
	{ .name = "checkpoint_fsync", .type = SB_OT_BOOL, .off = OFF(checkpoint_fsync), .def = "1",
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "fsync each checkpoint file after writing it" },
	{ .name = "checkpoint_folder", .type = SB_OT_STR, .off = OFF(checkpoint_folder),
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "where checkpoints go (default: <directory>/checkpoints)" },
	{ .name = "keep_checkpoints", .type = SB_OT_BOOL, .off = OFF(keep_checkpoints), .def = "0",
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "keep the checkpoint files at the end (default: remove what storbench wrote)" },
	{ .name = "train_model", .type = SB_OT_STR, .off = OFF(train_model), .flags = SB_OF_ML,
	  .category = C_TRAIN,
	  .help = "DLIO workload giving the defaults: unet3d, resnet50 or cosmoflow" },
	{ .name = "dataset_files", .type = SB_OT_UINT, .off = OFF(dataset_files), .max = 1 << 30,
	  .flags = SB_OF_ML, .category = C_TRAIN, .help = "files in the training dataset" },
	{ .name = "samples_per_file", .type = SB_OT_UINT, .off = OFF(samples_per_file),
	  .max = 1 << 30, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "samples in each dataset file (default 1)" },
	{ .name = "record_length", .type = SB_OT_FLOAT, .off = OFF(record_length), .unit = "bytes",
	  .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "bytes per sample (may be fractional, as DLIO's resnet50)" },
	{ .name = "record_length_stdev", .type = SB_OT_FLOAT, .off = OFF(record_length_stdev),
	  .unit = "bytes", .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "standard deviation of the sample size (0: all equal)" },
	{ .name = "data_dir", .type = SB_OT_STR, .off = OFF(data_dir), .flags = SB_OF_ML,
	  .category = C_TRAIN, .help = "dataset directory (default: <directory>/data)" },
	{ .name = "subfolders", .type = SB_OT_UINT, .off = OFF(subfolders), .def = "0",
	  .max = 1 << 20, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "spread the dataset files over this many subfolders (0: none)" },
	{ .name = "epochs", .type = SB_OT_UINT, .off = OFF(epochs), .max = 100000,
	  .flags = SB_OF_ML, .category = C_TRAIN, .help = "passes over the dataset (default 1)" },
	{ .name = "batch_size", .type = SB_OT_UINT, .off = OFF(batch_size), .max = 1 << 24,
	  .flags = SB_OF_ML, .category = C_TRAIN, .help = "samples per step (default 1)" },
	{ .name = "read_threads", .type = SB_OT_UINT, .off = OFF(read_threads), .max = 4096,
	  .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "reader threads fetching batches (0: the accelerator reads; default 1)" },
	{ .name = "prefetch", .type = SB_OT_UINT, .off = OFF(prefetch), .def = "2", .max = 4096,
	  .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "batches each reader may hold ready ahead of the accelerators" },
	{ .name = "accelerators", .type = SB_OT_UINT, .off = OFF(accelerators), .def = "1",
	  .min = 1, .max = 4096, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "emulated accelerators consuming batches" },
	{ .name = "shuffle", .type = SB_OT_ENUM, .off = OFF(shuffle), .def = "none",
	  .enums = shuffle_vals, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "shuffle files and/or samples each epoch (none|file|sample|both, or FILE,SAMPLE flags)" },
	{ .name = "seed", .type = SB_OT_U64, .off = OFF(ml_seed), .def = "123", .max = INT64_MAX,
	  .flags = SB_OF_ML, .category = C_TRAIN, .help = "shuffle seed (changes with the epoch)" },
	{ .name = "computation_time", .type = SB_OT_TIME, .off = OFF(computation_time_us),
	  .unit_us = SEC, .unit = "s", .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "accelerator time per step (default 0)" },
	{ .name = "computation_time_stdev", .type = SB_OT_TIME,
	  .off = OFF(computation_time_stdev_us), .def = "0", .unit_us = SEC, .unit = "s",
	  .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "standard deviation of the time per step" },
	{ .name = "au_target", .type = SB_OT_FLOAT, .off = OFF(au_target_pct), .max = 100,
	  .unit = "%", .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "accelerator utilization to reach (default: the train_model's, else 90)" },
	{ .name = "train_scale", .type = SB_OT_FLOAT, .off = OFF(train_scale), .def = "1", .max = 1,
	  .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "shrink sample sizes and computation times by this factor (same MB/s per accelerator)" },

	{ .name = "stats_interval", .type = SB_OT_TIME, .off = OFF(stats_interval_us), .def = "1",
	  .unit_us = SEC, .unit = "s", .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "time-series and host-counter sample period (the run uses its jobs' smallest)" },
	{ .name = "write_bw_log", .type = SB_OT_STR, .off = OFF(write_bw_log),
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "write bandwidth log NAME_bw.N.log (fio format, KiB/s)" },
	{ .name = "write_iops_log", .type = SB_OT_STR, .off = OFF(write_iops_log),
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "write IOPS log NAME_iops.N.log (fio format)" },
	{ .name = "write_lat_log", .type = SB_OT_STR, .off = OFF(write_lat_log),
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "write latency logs NAME_clat/_slat/_lat.N.log (fio format, ns)" },
	{ .name = "log_avg_msec", .type = SB_OT_UINT, .off = OFF(log_avg_msec), .def = "0",
	  .max = 86400000, .unit = "ms", .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "average log entries over this many ms (0: one entry per I/O)" },
	{ .name = "log_offset", .type = SB_OT_BOOL, .off = OFF(log_offset), .def = "0",
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "add each I/O's offset to per-I/O log entries" },
	{ .name = "host_counters", .type = SB_OT_STR, .off = OFF(host_counters), .def = "all",
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "host counters to sample: a comma list of host sources (cpu, mem, disk, ...: all of them in HOWTO section 5), all or none" },
	{ .name = "perf_events", .type = SB_OT_STR, .off = OFF(perf_events),
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "libpfm4 event names for host_counters=perf (default cycles,instructions,cache-misses,context-switches,page-faults)" },
	/* job hooks and fio I/O logs (parse/check_replay.c, run/replay.c, run/exec.c) */
	{ .name = "exec_prerun", .type = SB_OT_STR, .off = OFF(exec_prerun),
	  .flags = SB_OF_IDENTITY, .category = C_GRP,
	  .help = "shell command run before the job, output in JOBNAME.prerun.txt (only with --allow-exec)" },
	{ .name = "exec_postrun", .type = SB_OT_STR, .off = OFF(exec_postrun),
	  .flags = SB_OF_IDENTITY, .category = C_GRP,
	  .help = "shell command run after the job, output in JOBNAME.postrun.txt (only with --allow-exec)" },
	{ .name = "write_iolog", .type = SB_OT_STR, .off = OFF(write_iolog),
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "write the job's I/Os to this file in fio's iolog v3 format (times in us), for read_iolog" },
	{ .name = "read_iolog", .type = SB_OT_STR, .off = OFF(read_iolog), .category = C_IO,
	  .help = "replay the I/Os of this fio iolog (v2 or v3) instead of generating them" },
	{ .name = "read_iolog_chunked", .type = SB_OT_BOOL, .off = OFF(read_iolog_chunked),
	  .def = "0", .flags = SB_OF_IDENTITY, .category = C_IO,
	  .help = "accepted for fio; storbench always loads the whole log before the job starts" },
	{ .name = "replay_no_stall", .type = SB_OT_BOOL, .off = OFF(replay_no_stall), .def = "0",
	  .category = C_IO, .help = "replay as fast as possible, ignoring the log's timing (order kept)" },
	{ .name = "replay_time_scale", .type = SB_OT_UINT, .off = OFF(replay_time_scale),
	  .def = "100", .min = 1, .max = 1000000, .unit = "%", .category = C_IO,
	  .help = "replay at this percentage of the logged I/O rate (200: twice as fast)" },
	{ .name = "replay_redirect", .type = SB_OT_STR, .off = OFF(replay_redirect),
	  .category = C_IO, .help = "replay every logged I/O onto this one file or device" },
	{ .name = "replay_align", .type = SB_OT_SIZE, .off = OFF(replay_align), .def = "0",
	  .unit = "bytes", .category = C_IO,
	  .help = "round the log's offsets down to this power of 2 (0: as logged)" },
	{ .name = "replay_scale", .type = SB_OT_U64, .off = OFF(replay_scale), .def = "1", .min = 1,
	  .max = INT64_MAX, .category = C_IO, .help = "divide the log's offsets by this factor" },
	{ .name = "replay_skip", .type = SB_OT_STR, .off = OFF(replay_skip), .category = C_IO,
	  .help = "entries of the log not replayed: a comma list of read, write, trim, sync" },
	/* buffer contents (run/contents.c, lib/datagen.h) and ML data verification */
	{ .name = "scramble_buffers", .type = SB_OT_BOOL, .off = OFF(scramble_buffers), .def = "1",
	  .category = C_IO,
	  .help = "make every written buffer unique and incompressible (XOR with a fresh 64-bit word per write)" },
	{ .name = "refill_buffers", .type = SB_OT_BOOL, .off = OFF(refill_buffers), .def = "0",
	  .category = C_IO, .help = "fill write buffers with fresh random data before every write" },
	{ .name = "zero_buffers", .type = SB_OT_BOOL, .off = OFF(zero_buffers), .def = "0",
	  .category = C_IO, .help = "write zeroes instead of random data" },
	{ .name = "buffer_pattern", .type = SB_OT_STR, .off = OFF(buffer_pattern), .category = C_IO,
	  .help = "fill write buffers with this pattern: 0xHEX, decimal, \"string\", %o (the I/O's offset), concatenated" },
	{ .name = "buffer_compress_percentage", .type = SB_OT_UINT,
	  .off = OFF(buffer_compress_percentage), .def = "0", .max = 100, .unit = "%",
	  .category = C_IO,
	  .help = "share of each chunk that is filler (zeroes or buffer_pattern): how much it compresses" },
	{ .name = "buffer_compress_chunk", .type = SB_OT_SIZE, .off = OFF(buffer_compress_chunk),
	  .def = "512", .unit = "bytes", .category = C_IO,
	  .help = "size of each random+filler region for buffer_compress_percentage (0: the block size)" },
	{ .name = "dedupe_percentage", .type = SB_OT_UINT, .off = OFF(dedupe_percentage), .def = "0",
	  .max = 100, .unit = "%", .category = C_IO,
	  .help = "share of written buffers that duplicate an earlier one" },
	{ .name = "dedupe_mode", .type = SB_OT_ENUM, .off = OFF(dedupe_mode), .def = "repeat",
	  .enums = dedupe_vals, .category = C_IO,
	  .help = "where duplicate buffers come from: repeat or working_set" },
	{ .name = "dedupe_working_set_percentage", .type = SB_OT_UINT,
	  .off = OFF(dedupe_working_set_percentage), .def = "5", .max = 100, .unit = "%",
	  .category = C_IO,
	  .help = "dedupe_mode=working_set: the working set, as a share of the job's size" },
	{ .name = "checkpoint_verify", .type = SB_OT_BOOL, .off = OFF(checkpoint_verify), .def = "0",
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "check every byte read back from a checkpoint against what was written" },
	{ .name = "dataset_verify", .type = SB_OT_BOOL, .off = OFF(dataset_verify), .def = "0",
	  .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "check every byte a training read returns against the generated dataset" },
	{ .name = "sweep_metric", .type = SB_OT_ENUM, .off = OFF(sweep_metric), .def = "bw",
	  .enums = metric_vals, .flags = SB_OF_IDENTITY, .category = C_SWEEP,
	  .help = "how sweep.* points are ranked: bw, iops or clat_p99" },

	/* verify= (run/verify.c), fio's names, defaults and meanings */
	{ .name = "verify", .type = SB_OT_ENUM, .off = OFF(verify), .def = "0",
	  .enums = verify_vals, .category = SB_CAT_VERIFY,
	  .help = "check written data: a header with a checksum of the given type per block" },
	{ .name = "do_verify", .type = SB_OT_BOOL, .off = OFF(do_verify), .def = "1",
	  .category = SB_CAT_VERIFY, .help = "read back and check after the write phase (with verify=)" },
	{ .name = "verify_only", .type = SB_OT_BOOL, .off = OFF(verify_only), .def = "0",
	  .category = SB_CAT_VERIFY,
	  .help = "write nothing: check what an earlier run of the same job wrote" },
	{ .name = "verify_interval", .type = SB_OT_SIZE, .off = OFF(verify_interval), .def = "0",
	  .unit = "bytes", .category = SB_CAT_VERIFY,
	  .help = "bytes covered by each header (0: the write block size)" },
	{ .name = "verify_offset", .type = SB_OT_SIZE, .off = OFF(verify_offset), .def = "0",
	  .unit = "bytes", .category = SB_CAT_VERIFY,
	  .help = "put the header at this offset in the block instead of its start" },
	{ .name = "verify_pattern", .type = SB_OT_STR, .off = OFF(verify_pattern),
	  .category = SB_CAT_VERIFY,
	  .help = "data pattern: 0xHEX, a number, \"text\", %o (block offset); sets verify=pattern if unset" },
	{ .name = "verify_fatal", .type = SB_OT_BOOL, .off = OFF(verify_fatal), .def = "0",
	  .flags = SB_OF_IDENTITY,
	  .category = SB_CAT_VERIFY, .help = "stop the job at the first verify failure" },
	{ .name = "verify_dump", .type = SB_OT_BOOL, .off = OFF(verify_dump), .def = "0",
	  .flags = SB_OF_IDENTITY,
	  .category = SB_CAT_VERIFY,
	  .help = "write a failed block as FILE.OFFSET.received and .expected beside the file" },
	{ .name = "verify_backlog", .type = SB_OT_U64, .off = OFF(verify_backlog), .def = "0",
	  .max = UINT32_MAX, .unit = "blocks", .category = SB_CAT_VERIFY,
	  .help = "check the blocks written so far after every N writes (0: after the write phase)" },
	{ .name = "verify_backlog_batch", .type = SB_OT_U64, .off = OFF(verify_backlog_batch),
	  .max = UINT32_MAX, .def = "0", .unit = "blocks", .category = SB_CAT_VERIFY,
	  .help = "blocks checked at each backlog point (0: verify_backlog)" },
	{ .name = "verify_async", .type = SB_OT_UINT, .off = OFF(verify_async), .def = "0",
	  .max = 1024, .flags = SB_OF_IDENTITY,
	  .category = SB_CAT_VERIFY,
	  .help = "accepted for fio compatibility: checks run on the job's own threads" },
	{ .name = "verify_state_save", .type = SB_OT_BOOL, .off = OFF(verify_state_save), .def = "1",
	  .flags = SB_OF_IDENTITY,
	  .category = SB_CAT_VERIFY,
	  .help = "save what was written (local-JOB-THREAD-verify.state beside the files) after the write phase" },
	{ .name = "verify_state_load", .type = SB_OT_BOOL, .off = OFF(verify_state_load), .def = "0",
	  .flags = SB_OF_IDENTITY,
	  .category = SB_CAT_VERIFY,
	  .help = "with verify_only: check exactly what the saved state says was written" },
	{ .name = "verify_header_seed", .type = SB_OT_BOOL, .off = OFF(verify_header_seed),
	  .def = "1", .flags = SB_OF_IDENTITY,
	  .category = SB_CAT_VERIFY,
	  .help = "a header's data seed must be the one this job would write" },
	{ .name = "experimental_verify", .type = SB_OT_BOOL, .off = OFF(experimental_verify),
	  .def = "0", .flags = SB_OF_IDENTITY,
	  .category = SB_CAT_VERIFY,
	  .help = "accepted for fio compatibility: the verify phase always checks each block's last write" },

	/* flow and control, stats and clocks, logs (issue 16: fio's meanings) */
	{ .name = "continue_on_error", .type = SB_OT_ENUM, .off = OFF(continue_on_error),
	  .def = "none", .enums = coe_vals, .category = C_TIME,
	  .help = "I/O errors that do not end the job: none, read, write, io, verify or all" },
	{ .name = "ignore_error", .type = SB_OT_STR, .off = OFF(ignore_error), .category = C_TIME,
	  .help = "errors that never end the job: READ[,WRITE[,VERIFY]] lists of errno names or numbers joined by ':'" },
	{ .name = "error_dump", .type = SB_OT_BOOL, .off = OFF(error_dump), .def = "0",
	  .flags = SB_OF_IDENTITY, .category = C_TIME, .help = "print every error that continue_on_error or ignore_error lets pass" },
	{ .name = "exitall", .type = SB_OT_BOOL, .off = OFF(exitall), .def = "0", .flags = SB_OF_IDENTITY, .category = C_GRP,
	  .help = "when this job ends, stop every other job" },
	{ .name = "exitall_on_error", .type = SB_OT_BOOL, .off = OFF(exitall_on_error), .def = "0",
	  .flags = SB_OF_IDENTITY, .category = C_GRP, .help = "when this job ends with an error, stop every other job" },
	{ .name = "flow", .type = SB_OT_UINT, .off = OFF(flow), .def = "0", .max = 1000,
	  .category = C_RATE,
	  .help = "weight of the job's share of its flow_id group's I/Os (0: no flow control)" },
	{ .name = "flow_id", .type = SB_OT_UINT, .off = OFF(flow_id), .def = "0",
	  .max = UINT32_MAX, .category = C_RATE, .help = "jobs with the same flow_id share one flow" },
	{ .name = "flow_sleep", .type = SB_OT_TIME, .off = OFF(flow_sleep_us), .def = "0",
	  .unit_us = 1, .unit = "us", .category = C_RATE,
	  .help = "pause when the job is ahead of its flow share (0: yield and retry)" },
	{ .name = "rate_min", .alias = { "ratemin" }, .type = SB_OT_SIZE_SPLIT, .off = OFF(rate_min),
	  .unit = "bytes/s", .category = C_RATE,
	  .help = "fail the job when its bandwidth over a rate_cycle falls below this READ[,WRITE[,TRIM]]" },
	{ .name = "rate_iops_min", .type = SB_OT_INT_SPLIT, .off = OFF(rate_iops_min),
	  .unit = "IOPS", .category = C_RATE,
	  .help = "fail the job when its IOPS over a rate_cycle fall below this READ[,WRITE[,TRIM]]" },
	{ .name = "rate_cycle", .alias = { "ratecycle" }, .type = SB_OT_UINT, .off = OFF(ratecycle_ms),
	  .def = "1000", .min = 1, .max = UINT32_MAX, .unit = "ms", .category = C_RATE,
	  .help = "period over which rate_min and rate_iops_min are checked" },
	{ .name = "rate_process", .type = SB_OT_ENUM, .off = OFF(rate_process), .def = "linear",
	  .enums = rateproc_vals, .category = C_RATE, .help = "how rate-limited I/Os are spaced" },
	{ .name = "steadystate", .alias = { "ss" }, .type = SB_OT_STR, .off = OFF(steadystate),
	  .def = "iops_slope:0.01%", .category = C_TIME,
	  .help = "end the job at steady state: iops, bw, iops_slope or bw_slope:LIMIT (a value, or N% of the mean)" },
	{ .name = "steadystate_duration", .alias = { "ss_dur" }, .type = SB_OT_TIME,
	  .off = OFF(ss_dur_us), .def = "0", .unit_us = SEC, .unit = "s", .category = C_TIME,
	  .help = "window (whole seconds) that must meet steadystate (0: no steady-state check)" },
	{ .name = "steadystate_ramp_time", .alias = { "ss_ramp" }, .type = SB_OT_TIME,
	  .off = OFF(ss_ramp_us), .def = "0", .unit_us = SEC, .unit = "s", .category = C_TIME,
	  .help = "time before steady-state samples are taken" },
	{ .name = "io_submit_mode", .type = SB_OT_ENUM, .off = OFF(io_submit_mode), .def = "inline",
	  .enums = submit_vals, .flags = SB_OF_IDENTITY, .category = C_GRP,
	  .help = "inline: the job's thread submits its I/O (offload is refused)" },
	{ .name = "gtod_reduce", .type = SB_OT_BOOL, .off = OFF(gtod_reduce), .def = "0",
	  .category = C_STAT,
	  .help = "no latency or bandwidth statistics: disable_lat, disable_clat, disable_slat and disable_bw_measurement together, and fewer clock reads" },
	{ .name = "clocksource", .type = SB_OT_ENUM, .off = OFF(clocksource), .def = "clock_gettime",
	  .enums = clock_vals, .flags = SB_OF_IDENTITY, .category = C_STAT,
	  .help = "accepted for fio compatibility: storbench always times with clock_gettime(CLOCK_MONOTONIC)" },
	{ .name = "disable_lat", .type = SB_OT_BOOL, .off = OFF(disable_lat), .def = "0",
	  .category = C_STAT, .help = "no total-latency (lat) statistics" },
	{ .name = "disable_clat", .type = SB_OT_BOOL, .off = OFF(disable_clat), .def = "0",
	  .category = C_STAT, .help = "no completion-latency (clat) statistics" },
	{ .name = "disable_slat", .type = SB_OT_BOOL, .off = OFF(disable_slat), .def = "0",
	  .category = C_STAT, .help = "no submission-latency (slat) statistics" },
	{ .name = "disable_bw_measurement", .alias = { "disable_bw" }, .type = SB_OT_BOOL,
	  .off = OFF(disable_bw), .def = "0", .category = C_STAT,
	  .help = "no bandwidth and IOPS samples (bw_min, bw_max, ... stay 0)" },
	{ .name = "slat_percentiles", .type = SB_OT_BOOL, .off = OFF(slat_percentiles), .def = "0",
	  .category = C_STAT, .help = "report submission-latency percentiles" },
	{ .name = "significant_figures", .type = SB_OT_UINT, .off = OFF(significant_figures),
	  .def = "4", .min = 1, .max = 10, .flags = SB_OF_IDENTITY, .category = C_STAT,
	  .help = "normal output: significant figures of rates and latencies" },
	{ .name = "write_hist_log", .type = SB_OT_STR, .off = OFF(write_hist_log),
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "write completion-latency histogram log NAME_clat_hist.N.log (fio format)" },
	{ .name = "log_hist_msec", .type = SB_OT_UINT, .off = OFF(log_hist_msec), .def = "0",
	  .max = 86400000, .unit = "ms", .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "period of the histogram log (0: no entries, an empty file, as in fio)" },
	{ .name = "log_hist_coarseness", .type = SB_OT_UINT, .off = OFF(log_hist_coarseness),
	  .def = "0", .max = 6, .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "histogram log columns: fio's 1856 latency bins summed 2^N at a time (0-6)" },
	{ .name = "log_unix_epoch", .type = SB_OT_BOOL, .off = OFF(log_unix_epoch), .def = "0",
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "log timestamps in ms since the Unix epoch instead of since the job started" },
	{ .name = "log_compression", .type = SB_OT_SIZE, .off = OFF(log_compression), .def = "0",
	  .unit = "bytes", .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "accepted: fio compresses logs held in memory; storbench streams them to disk, plain text as fio writes them (0: off)" },
	{ .name = "per_job_logs", .type = SB_OT_BOOL, .off = OFF(per_job_logs), .def = "1",
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "one log per thread NAME_bw.N.log (0: NAME_bw.log, appended to by every thread)" },
};

#define NOPT (sizeof(table) / sizeof(table[0]))
_Static_assert(NOPT <= SB_OPT_MAX, "raise SB_OPT_MAX");

/* The engines' option rows (parse/engines.c) come after the last table row
 * of their category. */
unsigned sb_options_count(void)
{
	unsigned nerows, at;
	sb_parse_engine_rows(&nerows, &at);
	return NOPT + nerows;
}

const struct sb_option *sb_option_at(unsigned i)
{
	unsigned nerows, at;
	const struct sb_option *erows = sb_parse_engine_rows(&nerows, &at);
	if (i < at)
		return i < NOPT ? &table[i] : NULL;
	if (i < at + nerows)
		return &erows[i - at];
	return i < NOPT + nerows ? &table[i - nerows] : NULL;
}

unsigned sb_option_index(const struct sb_option *o)
{
	unsigned nerows, at;
	const struct sb_option *erows = sb_parse_engine_rows(&nerows, &at);
	if (o >= erows && o < erows + nerows)
		return at + (unsigned)(o - erows);
	unsigned i = (unsigned)(o - table);
	return i < at ? i : i + nerows;
}

const struct sb_option *sb_option_find(const char *name)
{
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		if (!strcasecmp(o->name, name))
			return o;
		for (unsigned a = 0; o->alias[a]; a++)
			if (!strcasecmp(o->alias[a], name))
				return o;
	}
	return NULL;
}

/* Levenshtein distance, case-insensitive, for names up to 63 characters */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned row[64], la = (unsigned)strlen(a), lb = (unsigned)strlen(b);
	if (la > 63 || lb > 63)
		return 64;
	for (unsigned j = 0; j <= lb; j++)
		row[j] = j;
	for (unsigned i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned cost = (a[i - 1] | 32) != (b[j - 1] | 32);
			unsigned best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

unsigned sb_option_distance(const char *a, const char *b)
{
	return edit_distance(a, b);
}

const char *sb_option_suggest(const char *name)
{
	const char *best = NULL;
	size_t len = strlen(name);
	unsigned bestd = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		for (int a = -1; a < 3; a++) {
			const char *n = a < 0 ? o->name : o->alias[a];
			if (!n)
				break;
			unsigned d = edit_distance(name, n);
			if (d <= bestd && (!best || d < bestd)) {
				best = n;
				bestd = d;
			}
		}
	}
	return best;
}

const struct sb_option *sb_option_of(size_t off, unsigned inverse)
{
	for (unsigned i = 0; i < sb_options_count(); i++) { /* the engines' rows too */
		const struct sb_option *o = sb_option_at(i);
		if (o->off == off && (o->flags & SB_OF_INVERSE) == inverse)
			return o;
	}
	fprintf(stderr, "storbench: bug: no option row at offset %zu of struct sb_jobspec\n", off);
	abort();
}

const char *sb_opt_cat_name(enum sb_opt_cat c)
{
	return (unsigned)c < SB_CAT_N ? cat_names[c] : "?";
}

bool sb_option_fio_only(const char *name)
{
	for (unsigned i = 0; sb_fio_only_names[i]; i++)
		if (!strcasecmp(sb_fio_only_names[i], name))
			return true;
	return false;
}

const char *sb_opt_type_name(enum sb_opt_type t)
{
	static const char *const names[] = {
		[SB_OT_STR] = "string", [SB_OT_NAME] = "string", [SB_OT_ENGINE] = "engine",
		[SB_OT_SIZE] = "size", [SB_OT_SIZE_RANGE] = "size range",
		[SB_OT_SIZE_SPLIT] = "size split", [SB_OT_INT_SPLIT] = "int split",
		[SB_OT_RANGE_SPLIT] = "range split", [SB_OT_BSSPLIT] = "bssplit",
		[SB_OT_TIME] = "time", [SB_OT_UINT] = "int", [SB_OT_INT] = "int", [SB_OT_U64] = "int",
		[SB_OT_BOOL] = "bool", [SB_OT_ENUM] = "enum", [SB_OT_PCTL_LIST] = "float list",
		[SB_OT_DIST] = "distribution", [SB_OT_FLOAT] = "float",
	};
	return names[t];
}
