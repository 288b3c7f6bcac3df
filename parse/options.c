/* options.c: THE option table (see options.h) and lookups by name, alias
 * and edit distance.  Names, meanings and defaults follow fio so fio job files
 * run unchanged.  Setting values lives in optset.c, help/printing in help.c. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/options.h"
#include "parse/value.h"

#define OFF(f) offsetof(struct sb_jobspec, f)
#define SEC SB_US_PER_SEC

static const struct sb_opt_enum rw_vals[] = {
	{ "read", SB_RW_READ, "sequential reads" },
	{ "write", SB_RW_WRITE, "sequential writes" },
	{ "trim", SB_RW_TRIM, "sequential trims (not supported yet: refused)" },
	{ "randread", SB_RW_READ | SB_RW_RANDOM, "random reads" },
	{ "randwrite", SB_RW_WRITE | SB_RW_RANDOM, "random writes" },
	{ "randtrim", SB_RW_TRIM | SB_RW_RANDOM, "random trims (not supported yet: refused)" },
	{ "rw", SB_RW_READ | SB_RW_WRITE, "sequential mixed reads and writes" },
	{ "readwrite", SB_RW_READ | SB_RW_WRITE, "same as rw" },
	{ "randrw", SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM, "random mixed reads and writes" },
	{ NULL, 0, NULL },
};

static const struct sb_opt_enum falloc_vals[] = {
	{ "none", SB_FALLOC_NONE, "do not pre-allocate" },
	{ "native", SB_FALLOC_POSIX, "the platform's call (posix_fallocate on Linux)" },
	{ "posix", SB_FALLOC_POSIX, "posix_fallocate()" },
	{ "keep", SB_FALLOC_KEEP, "fallocate() with FALLOC_FL_KEEP_SIZE" },
	{ "truncate", SB_FALLOC_TRUNCATE, "extend with ftruncate() only" },
	{ "0", SB_FALLOC_NONE, "same as none" },
	{ "1", SB_FALLOC_POSIX, "same as posix" },
	{ NULL, 0, NULL },
};

static const struct sb_opt_enum kb_vals[] = {
	{ "1024", 1024, "k/m/g = powers of 1024, ki/mi/gi = powers of 1000 (fio's default)" },
	{ "1000", 1000, "k/m/g = powers of 1000, ki/mi/gi = powers of 1024" },
	{ NULL, 0, NULL },
};

static const struct sb_opt_enum unit_vals[] = {
	{ "0", 0, "auto" },
	{ "8", 8, "bytes" },
	{ "1", 1, "bits" },
	{ NULL, 0, NULL },
};

static const struct sb_opt_enum metric_vals[] = {
	{ "bw", SB_SWEEP_METRIC_BW, "highest bandwidth" },
	{ "iops", SB_SWEEP_METRIC_IOPS, "highest IOPS" },
	{ "clat_p99", SB_SWEEP_METRIC_CLAT_P99, "lowest 99th-percentile completion latency" },
	{ NULL, 0, NULL },
};

static const struct sb_opt_enum workload_vals[] = {
	{ "io", SB_WL_IO, "fio-style I/O jobs (rw=, bs=, size=...)" },
	{ "checkpoint", SB_WL_CHECKPOINT, "LLM checkpoint save and restore (DLIO / MLPerf Storage)" },
	{ "train", SB_WL_TRAIN, "DLIO-style training reads feeding emulated accelerators" },
	{ NULL, 0, NULL },
};

static const struct sb_opt_enum rules_vals[] = {
	{ "none", SB_RULES_NONE, "no rule report" },
	{ "mlperf", SB_RULES_MLPERF, "MLPerf Storage rule checks and a CLOSED/OPEN/INVALID verdict" },
	{ NULL, 0, NULL },
};

static const struct sb_opt_enum shuffle_vals[] = {
	{ "none", 0, "read files and samples in order" },
	{ "file", SB_SHUFFLE_FILE, "shuffle the file order every epoch" },
	{ "sample", SB_SHUFFLE_SAMPLE, "shuffle the sample order every epoch" },
	{ "both", SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, "shuffle files and samples" },
	{ "0", 0, "same as none" },
	{ "1", SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, "same as both" },
	{ "0,0", 0, "FILE,SAMPLE flags: none" },
	{ "1,0", SB_SHUFFLE_FILE, "FILE,SAMPLE flags: files only" },
	{ "0,1", SB_SHUFFLE_SAMPLE, "FILE,SAMPLE flags: samples only" },
	{ "1,1", SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, "FILE,SAMPLE flags: both" },
	{ NULL, 0, NULL },
};

#define PCTL_DEFAULT "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"
#define C_DESC "Job description"
#define C_FILE "Files and sizes"
#define C_IO "I/O pattern"
#define C_BS "Block size"
#define C_ENG "I/O engine"
#define C_TIME "Time and repetition"
#define C_GRP "Threads, groups and ordering"
#define C_RAND "Randomness"
#define C_RATE "Rate and think time"
#define C_STAT "Statistics and units"
#define C_SAFE "File life cycle and safety"
#define C_ML "ML workloads"
#define C_CKPT "Checkpoint workload"
#define C_TRAIN "Training workload"
#define C_LOG "Time series, logs and host counters"
#define C_SWEEP "Sweeps"

static const struct sb_option table[] = {
	{ "description", {0}, SB_OT_STR, OFF(description), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_DESC,
	  "free-text description of the job" },
	{ "name", {0}, SB_OT_NAME, OFF(name), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_DESC,
	  "job name (overrides the [section] name)" },
	{ "filename", {0}, SB_OT_STR, OFF(filename), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_FILE,
	  "file or device to use; several separated by ':'" },
	{ "directory", {0}, SB_OT_STR, OFF(directory), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_FILE,
	  "directory for generated file names" },
	{ "nrfiles", {0}, SB_OT_UINT, OFF(nrfiles), 0, "1", 1, 1 << 20, 0, NULL, NULL, 0, C_FILE,
	  "number of files per job" },
	{ "filesize", {0}, SB_OT_SIZE_RANGE, OFF(filesize_min), OFF(filesize_max), NULL, 1, 0, 0,
	  "bytes", NULL, 0, C_FILE, "size of each file, or a LOW-HIGH range (default size/nrfiles)" },
	{ "size", {0}, SB_OT_SIZE, OFF(size), 0, NULL, 1, 0, 0, "bytes", NULL, 0, C_FILE,
	  "total bytes of the job's files (default: the existing size)" },
	{ "io_size", {"io_limit"}, SB_OT_SIZE, OFF(io_size), 0, NULL, 1, 0, 0, "bytes", NULL, 0, C_FILE,
	  "bytes to transfer (default: size)" },
	{ "offset", {0}, SB_OT_SIZE, OFF(offset), 0, "0", 0, 0, 0, "bytes", NULL, 0, C_FILE,
	  "start of the I/O region in each file" },

	{ "rw", {"readwrite"}, SB_OT_ENUM, OFF(rw), 0, "read", 0, 0, 0, NULL, rw_vals, 0, C_IO,
	  "I/O pattern" },
	{ "rwmixread", {0}, SB_OT_UINT, OFF(rwmixread), 0, "50", 0, 100, 0, "%", NULL, 0, C_IO,
	  "percentage of reads in a mixed workload" },
	{ "rwmixwrite", {0}, SB_OT_UINT, OFF(rwmixread), 0, NULL, 0, 100, 0, "%", NULL, SB_OF_INVERSE,
	  C_IO, "percentage of writes in a mixed workload (100 - rwmixread)" },

	{ "bs", {"blocksize"}, SB_OT_SIZE_SPLIT, OFF(bs), 0, "4k", 1, 0, 0, "bytes", NULL, 0, C_BS,
	  "block size per I/O: READ[,WRITE[,TRIM]]" },
	{ "bsrange", {"blocksize_range"}, SB_OT_RANGE_SPLIT, OFF(bs_min), OFF(bs_max), NULL, 1, 0, 0,
	  "bytes", NULL, 0, C_BS, "range of block sizes LOW-HIGH per direction, e.g. 1k-4k,2k-8k" },
	{ "bssplit", {0}, SB_OT_BSSPLIT, OFF(bssplit), OFF(bssplit_n), NULL, 0, 0, 0, NULL, NULL, 0,
	  C_BS, "weighted block sizes BS/PCT:BS/PCT per direction, e.g. 4k/50:64k/50" },
	{ "blockalign", {"ba"}, SB_OT_SIZE_SPLIT, OFF(blockalign), 0, NULL, 0, 0, 0, "bytes", NULL, 0,
	  C_BS, "alignment of random offsets (default: the minimum block size)" },

	{ "ioengine", {0}, SB_OT_ENGINE, OFF(ioengine), 0, "psync", 0, 0, 0, NULL, NULL, 0, C_ENG,
	  "I/O engine" },
	{ "iodepth", {0}, SB_OT_UINT, OFF(iodepth), 0, "1", 1, 65536, 0, NULL, NULL, 0, C_ENG,
	  "I/Os kept in flight (async engines)" },
	{ "iodepth_batch_submit", {"iodepth_batch"}, SB_OT_UINT, OFF(iodepth_batch_submit), 0, "1", 0,
	  65536, 0, NULL, NULL, 0, C_ENG, "I/Os to submit at once (0: iodepth)" },
	{ "iodepth_batch_complete_min", {"iodepth_batch_complete"}, SB_OT_UINT,
	  OFF(iodepth_batch_complete_min), 0, "1", 0, 65536, 0, NULL, NULL, 0, C_ENG,
	  "fewest completions to wait for (0: poll)" },
	{ "iodepth_batch_complete_max", {0}, SB_OT_UINT, OFF(iodepth_batch_complete_max), 0, NULL, 0,
	  65536, 0, NULL, NULL, 0, C_ENG, "most completions to reap at once (default: iodepth_batch_complete_min)" },
	{ "direct", {0}, SB_OT_BOOL, OFF(direct), 0, "0", 0, 0, 0, NULL, NULL, 0, C_ENG,
	  "use O_DIRECT (non-buffered) I/O" },
	{ "buffered", {0}, SB_OT_BOOL, OFF(direct), 0, NULL, 0, 0, 0, NULL, NULL, SB_OF_INVERSE, C_ENG,
	  "use buffered I/O (the opposite of direct)" },
	{ "fsync", {0}, SB_OT_UINT, OFF(fsync), 0, "0", 0, UINT32_MAX, 0, NULL, NULL, 0, C_ENG,
	  "fsync after every N writes (0: never)" },
	{ "fdatasync", {0}, SB_OT_UINT, OFF(fdatasync), 0, "0", 0, UINT32_MAX, 0, NULL, NULL, 0, C_ENG,
	  "fdatasync after every N writes (0: never)" },
	{ "end_fsync", {0}, SB_OT_BOOL, OFF(end_fsync), 0, "0", 0, 0, 0, NULL, NULL, 0, C_ENG,
	  "fsync each file when the job ends" },

	{ "runtime", {"timeout"}, SB_OT_TIME, OFF(runtime_us), 0, "0", 0, 0, SEC, "s", NULL, 0, C_TIME,
	  "stop after this long (0: no limit)" },
	{ "time_based", {0}, SB_OT_BOOL, OFF(time_based), 0, "0", 0, 0, 0, NULL, NULL, 0, C_TIME,
	  "repeat the workload until runtime has passed" },
	{ "ramp_time", {0}, SB_OT_TIME, OFF(ramp_time_us), 0, "0", 0, 0, SEC, "s", NULL, 0, C_TIME,
	  "run this long before counting results" },
	{ "startdelay", {0}, SB_OT_TIME, OFF(startdelay_us), 0, "0", 0, 0, SEC, "s", NULL, 0, C_TIME,
	  "wait this long before starting the job" },
	{ "loops", {0}, SB_OT_UINT, OFF(loops), 0, "1", 1, UINT32_MAX, 0, NULL, NULL, 0, C_TIME,
	  "repeat the workload this many times" },

	{ "numjobs", {0}, SB_OT_UINT, OFF(numjobs), 0, "1", 1, 4096, 0, NULL, NULL, 0, C_GRP,
	  "clones of this job running in parallel" },
	{ "thread", {0}, SB_OT_BOOL, OFF(thread), 0, "0", 0, 0, 0, NULL, NULL, 0, C_GRP,
	  "accepted for fio compatibility: jobs always run as threads" },
	{ "stonewall", {"wait_for_previous"}, SB_OT_BOOL, OFF(stonewall), 0, "0", 0, 0, 0, NULL, NULL,
	  0, C_GRP, "wait for earlier jobs to finish first; starts a new group" },
	{ "new_group", {0}, SB_OT_BOOL, OFF(new_group), 0, "0", 0, 0, 0, NULL, NULL, 0, C_GRP,
	  "start a new reporting group" },
	{ "wait_for", {0}, SB_OT_STR, OFF(wait_for), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_GRP,
	  "start after the named earlier job has finished" },
	{ "group_reporting", {0}, SB_OT_BOOL, OFF(group_reporting), 0, "0", 0, 0, 0, NULL, NULL, 0,
	  C_GRP, "report a group's jobs as one" },

	{ "randrepeat", {"allrandrepeat"}, SB_OT_BOOL, OFF(randrepeat), 0, "1", 0, 0, 0, NULL, NULL, 0,
	  C_RAND, "same random sequence on every run" },
	{ "randseed", {0}, SB_OT_U64, OFF(randseed), 0, "0x89", 0, INT64_MAX, 0, NULL, NULL, 0, C_RAND,
	  "seed of the random generators" },
	{ "norandommap", {0}, SB_OT_BOOL, OFF(norandommap), 0, "0", 0, 0, 0, NULL, NULL, 0, C_RAND,
	  "random offsets may repeat within a pass" },
	{ "random_distribution", {0}, SB_OT_DIST, OFF(random_distribution), OFF(dist_param), "random",
	  0, 0, 0, NULL, NULL, 0, C_RAND, "random, zipf[:theta], pareto[:h] or normal[:sigma]" },

	{ "rate", {0}, SB_OT_SIZE_SPLIT, OFF(rate), 0, NULL, 0, 0, 0, "bytes/s", NULL, 0, C_RATE,
	  "bandwidth cap READ[,WRITE[,TRIM]] (0: none)" },
	{ "rate_iops", {0}, SB_OT_INT_SPLIT, OFF(rate_iops), 0, NULL, 0, 0, 0, "IOPS", NULL, 0, C_RATE,
	  "I/Os-per-second cap READ[,WRITE[,TRIM]] (0: none)" },
	{ "thinktime", {0}, SB_OT_TIME, OFF(thinktime_us), 0, "0", 0, 0, 1, "us", NULL, 0, C_RATE,
	  "pause after each thinktime_blocks I/Os" },
	{ "thinktime_spin", {0}, SB_OT_TIME, OFF(thinktime_spin_us), 0, "0", 0, 0, 1, "us", NULL, 0,
	  C_RATE, "part of thinktime spent spinning instead of sleeping" },
	{ "thinktime_blocks", {0}, SB_OT_UINT, OFF(thinktime_blocks), 0, "1", 1, UINT32_MAX, 0, NULL,
	  NULL, 0, C_RATE, "I/Os between thinktime pauses" },

	{ "unlink", {0}, SB_OT_BOOL, OFF(unlink), 0, "0", 0, 0, 0, NULL, NULL, 0, C_SAFE,
	  "remove the files storbench created when the job ends" },
	{ "fallocate", {0}, SB_OT_ENUM, OFF(fallocate), 0, "native", 0, 0, 0, NULL, falloc_vals, 0,
	  C_SAFE, "how to pre-allocate files being laid out" },
	{ "allow_mounted_write", {0}, SB_OT_BOOL, OFF(allow_mounted_write), 0, "0", 0, 0, 0, NULL, NULL,
	  0, C_SAFE, "allow writes to a mounted block device" },

	{ "percentile_list", {"percentiles"}, SB_OT_PCTL_LIST, OFF(percentile_list), OFF(percentile_n),
	  PCTL_DEFAULT, 0, 0, 0, "%", NULL, 0, C_STAT, "latency percentiles to report, ':'-separated" },
	{ "clat_percentiles", {0}, SB_OT_BOOL, OFF(clat_percentiles), 0, "1", 0, 0, 0, NULL, NULL, 0,
	  C_STAT, "report completion-latency percentiles" },
	{ "lat_percentiles", {0}, SB_OT_BOOL, OFF(lat_percentiles), 0, "0", 0, 0, 0, NULL, NULL, 0,
	  C_STAT, "report total-latency percentiles" },
	{ "kb_base", {0}, SB_OT_ENUM, OFF(kb_base), 0, "1024", 0, 0, 0, NULL, kb_vals, 0, C_STAT,
	  "meaning of k/m/g in sizes (applies to the whole section)" },
	{ "unit_base", {0}, SB_OT_ENUM, OFF(unit_base), 0, "0", 0, 0, 0, NULL, unit_vals, 0, C_STAT,
	  "report bandwidth in bytes (8) or bits (1); 0: auto" },
	{ "workload", {0}, SB_OT_ENUM, OFF(workload), 0, "io", 0, 0, 0, NULL, workload_vals, 0, C_ML,
	  "what the job does: fio-style io, LLM checkpoint, or training reads" },
	{ "rules", {0}, SB_OT_ENUM, OFF(rules), 0, "none", 0, 0, 0, NULL, rules_vals, 0, C_ML,
	  "check the run against benchmark rules and print a verdict" },
	{ "drop_caches", {0}, SB_OT_BOOL, OFF(drop_caches), 0, "1", 0, 0, 0, NULL, NULL, 0, C_ML,
	  "sync and drop the page cache between phases and sweep runs (when permitted)" },
	{ "model", {0}, SB_OT_STR, OFF(ml_model), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_CKPT,
	  "built-in LLM: llama3-8b, llama3-70b, llama3-405b or llama3-1t" },
	{ "hidden", {0}, SB_OT_UINT, OFF(ml_hidden), 0, NULL, 0, 1 << 24, 0, NULL, NULL, 0, C_CKPT,
	  "model shape: hidden size" },
	{ "ffn", {0}, SB_OT_UINT, OFF(ml_ffn), 0, NULL, 0, 1 << 26, 0, NULL, NULL, 0, C_CKPT,
	  "model shape: feed-forward size" },
	{ "layers", {0}, SB_OT_UINT, OFF(ml_layers), 0, NULL, 0, 1 << 16, 0, NULL, NULL, 0, C_CKPT,
	  "model shape: transformer layers" },
	{ "heads", {0}, SB_OT_UINT, OFF(ml_heads), 0, NULL, 0, 1 << 16, 0, NULL, NULL, 0, C_CKPT,
	  "model shape: attention heads" },
	{ "kv_heads", {0}, SB_OT_UINT, OFF(ml_kv_heads), 0, NULL, 0, 1 << 16, 0, NULL, NULL, 0, C_CKPT,
	  "model shape: key/value heads" },
	{ "vocab", {0}, SB_OT_UINT, OFF(ml_vocab), 0, NULL, 0, 1 << 26, 0, NULL, NULL, 0, C_CKPT,
	  "model shape: vocabulary size (default 128256)" },
	{ "tp", {0}, SB_OT_UINT, OFF(ml_tp), 0, NULL, 0, 1 << 16, 0, NULL, NULL, 0, C_CKPT,
	  "tensor parallelism" },
	{ "pp", {0}, SB_OT_UINT, OFF(ml_pp), 0, NULL, 0, 1 << 16, 0, NULL, NULL, 0, C_CKPT,
	  "pipeline parallelism" },
	{ "dp", {0}, SB_OT_UINT, OFF(ml_dp), 0, NULL, 0, 1 << 20, 0, NULL, NULL, 0, C_CKPT,
	  "data parallelism" },
	{ "zero_stage", {0}, SB_OT_UINT, OFF(ml_zero_stage), 0, NULL, 0, 3, 0, NULL, NULL, 0, C_CKPT,
	  "DeepSpeed ZeRO stage 0-3 (decides who writes which file)" },
	{ "ranks", {0}, SB_OT_UINT, OFF(ranks), 0, NULL, 0, 65536, 0, NULL, NULL, 0, C_CKPT,
	  "emulated ranks, run as threads (default tp*pp*dp)" },
	{ "subset", {0}, SB_OT_BOOL, OFF(subset), 0, "0", 0, 0, 0, NULL, NULL, 0, C_CKPT,
	  "fewer ranks than tp*pp*dp each write their fraction (MLPerf subset mode)" },
	{ "checkpoint_scale", {0}, SB_OT_FLOAT, OFF(checkpoint_scale), 0, "1", 0, 1, 0, NULL, NULL, 0,
	  C_CKPT, "multiply every checkpoint file size by this, e.g. 0.001" },
	{ "num_checkpoints_write", {0}, SB_OT_UINT, OFF(num_checkpoints_write), 0, "10", 0, 100000, 0,
	  NULL, NULL, 0, C_CKPT, "checkpoints to write" },
	{ "num_checkpoints_read", {0}, SB_OT_UINT, OFF(num_checkpoints_read), 0, "10", 0, 100000, 0,
	  NULL, NULL, 0, C_CKPT, "checkpoints to read back after the writes" },
	{ "time_between_checkpoints", {0}, SB_OT_TIME, OFF(time_between_checkpoints_us), 0, "0", 0, 0,
	  SEC, "s", NULL, 0, C_CKPT, "pause between two checkpoint writes" },
	{ "checkpoint_fsync", {0}, SB_OT_BOOL, OFF(checkpoint_fsync), 0, "1", 0, 0, 0, NULL, NULL, 0,
	  C_CKPT, "fsync each checkpoint file after writing it" },
	{ "checkpoint_folder", {0}, SB_OT_STR, OFF(checkpoint_folder), 0, NULL, 0, 0, 0, NULL, NULL, 0,
	  C_CKPT, "where checkpoints go (default: <directory>/checkpoints)" },
	{ "keep_checkpoints", {0}, SB_OT_BOOL, OFF(keep_checkpoints), 0, "0", 0, 0, 0, NULL, NULL, 0,
	  C_CKPT, "keep the checkpoint files at the end (default: remove what storbench wrote)" },
	{ "train_model", {0}, SB_OT_STR, OFF(train_model), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_TRAIN,
	  "DLIO workload giving the defaults: unet3d, resnet50 or cosmoflow" },
	{ "dataset_files", {0}, SB_OT_UINT, OFF(dataset_files), 0, NULL, 0, 1 << 30, 0, NULL, NULL, 0,
	  C_TRAIN, "files in the training dataset" },
	{ "samples_per_file", {0}, SB_OT_UINT, OFF(samples_per_file), 0, NULL, 0, 1 << 30, 0, NULL,
	  NULL, 0, C_TRAIN, "samples in each dataset file (default 1)" },
	{ "record_length", {0}, SB_OT_FLOAT, OFF(record_length), 0, NULL, 0, 0, 0, "bytes", NULL, 0,
	  C_TRAIN, "bytes per sample (may be fractional, as DLIO's resnet50)" },
	{ "record_length_stdev", {0}, SB_OT_FLOAT, OFF(record_length_stdev), 0, NULL, 0, 0, 0, "bytes",
	  NULL, 0, C_TRAIN, "standard deviation of the sample size (0: all equal)" },
	{ "data_dir", {0}, SB_OT_STR, OFF(data_dir), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_TRAIN,
	  "dataset directory (default: <directory>/data)" },
	{ "subfolders", {0}, SB_OT_UINT, OFF(subfolders), 0, "0", 0, 1 << 20, 0, NULL, NULL, 0, C_TRAIN,
	  "spread the dataset files over this many subfolders (0: none)" },
	{ "epochs", {0}, SB_OT_UINT, OFF(epochs), 0, NULL, 0, 100000, 0, NULL, NULL, 0, C_TRAIN,
	  "passes over the dataset (default 1)" },
	{ "batch_size", {0}, SB_OT_UINT, OFF(batch_size), 0, NULL, 0, 1 << 24, 0, NULL, NULL, 0, C_TRAIN,
	  "samples per step (default 1)" },
	{ "read_threads", {0}, SB_OT_UINT, OFF(read_threads), 0, NULL, 0, 4096, 0, NULL, NULL, 0,
	  C_TRAIN, "reader threads fetching batches (0: the accelerator reads; default 1)" },
	{ "prefetch", {0}, SB_OT_UINT, OFF(prefetch), 0, "2", 0, 4096, 0, NULL, NULL, 0, C_TRAIN,
	  "batches each reader may hold ready ahead of the accelerators" },
	{ "accelerators", {0}, SB_OT_UINT, OFF(accelerators), 0, "1", 1, 4096, 0, NULL, NULL, 0,
	  C_TRAIN, "emulated accelerators consuming batches" },
	{ "shuffle", {0}, SB_OT_ENUM, OFF(shuffle), 0, "none", 0, 0, 0, NULL, shuffle_vals, 0, C_TRAIN,
	  "shuffle files and/or samples each epoch (none|file|sample|both, or FILE,SAMPLE flags)" },
	{ "seed", {0}, SB_OT_U64, OFF(ml_seed), 0, "123", 0, INT64_MAX, 0, NULL, NULL, 0, C_TRAIN,
	  "shuffle seed (changes with the epoch)" },
	{ "computation_time", {0}, SB_OT_TIME, OFF(computation_time_us), 0, NULL, 0, 0, SEC, "s", NULL,
	  0, C_TRAIN, "accelerator time per step (default 0)" },
	{ "computation_time_stdev", {0}, SB_OT_TIME, OFF(computation_time_stdev_us), 0, "0", 0, 0, SEC,
	  "s", NULL, 0, C_TRAIN, "standard deviation of the time per step" },
	{ "au_target", {0}, SB_OT_FLOAT, OFF(au_target_pct), 0, NULL, 0, 100, 0, "%", NULL, 0, C_TRAIN,
	  "accelerator utilization to reach (default: the train_model's, else 90)" },
	{ "train_scale", {0}, SB_OT_FLOAT, OFF(train_scale), 0, "1", 0, 1, 0, NULL, NULL, 0, C_TRAIN,
	  "shrink sample sizes and computation times by this factor (same MB/s per accelerator)" },

	{ "stats_interval", {0}, SB_OT_TIME, OFF(stats_interval_us), 0, "1", 0, 0, SEC, "s", NULL, 0,
	  C_LOG, "time-series and host-counter sample period (the run uses its jobs' smallest)" },
	{ "write_bw_log", {0}, SB_OT_STR, OFF(write_bw_log), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_LOG,
	  "write bandwidth log NAME_bw.N.log (fio format, KiB/s)" },
	{ "write_iops_log", {0}, SB_OT_STR, OFF(write_iops_log), 0, NULL, 0, 0, 0, NULL, NULL, 0,
	  C_LOG, "write IOPS log NAME_iops.N.log (fio format)" },
	{ "write_lat_log", {0}, SB_OT_STR, OFF(write_lat_log), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_LOG,
	  "write latency logs NAME_clat/_slat/_lat.N.log (fio format, ns)" },
	{ "log_avg_msec", {0}, SB_OT_UINT, OFF(log_avg_msec), 0, "0", 0, 86400000, 0, "ms", NULL, 0,
	  C_LOG, "average log entries over this many ms (0: one entry per I/O)" },
	{ "log_offset", {0}, SB_OT_BOOL, OFF(log_offset), 0, "0", 0, 0, 0, NULL, NULL, 0, C_LOG,
	  "add each I/O's offset to per-I/O log entries" },
	{ "host_counters", {0}, SB_OT_STR, OFF(host_counters), 0, "all", 0, 0, 0, NULL, NULL, 0,
	  C_LOG, "host counters to sample: cpu,mem,disk,net,ib,rapl,perf,gpu, all or none" },
	{ "perf_events", {0}, SB_OT_STR, OFF(perf_events), 0, NULL, 0, 0, 0, NULL, NULL, 0, C_LOG,
	  "libpfm4 event names for host_counters=perf (default cycles,instructions,"
	  "cache-misses,context-switches,page-faults)" },
	{ "sweep_metric", {0}, SB_OT_ENUM, OFF(sweep_metric), 0, "bw", 0, 0, 0, NULL, metric_vals, 0,
	  C_SWEEP, "how sweep.* points are ranked: bw, iops or clat_p99" },
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
