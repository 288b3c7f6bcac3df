/* opt_mid.c: the option table's middle rows: statistics and units and the
 * workload selector (workload=, rules=, drop_caches=), then (after the
 * workloads' rows) logs and host counters, job hooks, iologs, buffer
 * contents, sweeps and traces.  One
 * segment of THE option table, in its fixed order (parse/opt_rows.h); the
 * workloads' own rows are theirs (ml/<workload>/opts.c, handed in with
 * sb_parse_set_workloads). */
#include "parse/opt_rows.h"
#include "parse/workloads.h"

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

static const struct sb_opt_enum rules_vals[] = {
	{ .name = "none", .val = SB_RULES_NONE, .help = "no rule report" },
	{ .name = "mlperf", .val = SB_RULES_MLPERF, .help = "MLPerf Storage rule checks and a CLOSED/OPEN/INVALID verdict" },
	{ .name = NULL },
};

const struct sb_option sb_opt_rows_mid[] = {
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
	  .enums = sb_parse_workload_vals, .flags = SB_OF_ML, .category = C_ML,
	  .help = "what the job does: fio-style io, LLM checkpoint, training reads, or KV-cache inference" },
	{ .name = "rules", .type = SB_OT_ENUM, .off = OFF(rules), .def = "none",
	  .enums = rules_vals, .flags = SB_OF_ML, .category = C_ML,
	  .help = "check the run against benchmark rules and print a verdict" },
	{ .name = "drop_caches", .type = SB_OT_BOOL, .off = OFF(drop_caches), .def = "1",
	  .flags = SB_OF_ML, .category = C_ML,
	  .help = "sync and drop the page cache between phases and sweep runs (when permitted)" },
};
const unsigned sb_opt_rows_mid_n = sizeof(sb_opt_rows_mid) / sizeof(sb_opt_rows_mid[0]);

/* after the workloads' rows */
const struct sb_option sb_opt_rows_post[] = {
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
	/* log windows' maximum */
	{ .name = "log_max_value", .type = SB_OT_BOOL, .off = OFF(log_max_value), .def = "0",
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "with log_avg_msec: latency logs (clat, slat, lat) hold each window's maximum instead of its mean (ns)" },
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
	  .help = "fio's: stamp each 512-byte sector of a write with its offset and the write (24 bytes per sector)" },
	{ .name = "scramble_whole_buffers", .type = SB_OT_BOOL, .off = OFF(scramble_whole_buffers),
	  .def = "0", .category = C_IO,
	  .help = "XOR every byte of each written buffer with a fresh 64-bit word per write: every 4 KiB block unique" },
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
	{ .name = "sweep_metric", .type = SB_OT_ENUM, .off = OFF(sweep_metric), .def = "bw",
	  .enums = metric_vals, .flags = SB_OF_IDENTITY, .category = C_SWEEP,
	  .help = "how sweep.* points are ranked: bw, iops or clat_p99" },
	/* I/O traces in DFTracer's format (stats/trace.h) */
	{ .name = "write_trace", .type = SB_OT_STR, .off = OFF(write_trace),
	  .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "write the job's I/Os and phases to this DFTracer trace (gzip JSON lines, .pfw.gz)" },
	{ .name = "trace_sample", .type = SB_OT_UINT, .off = OFF(trace_sample), .def = "1",
	  .min = 1, .max = 1000000000, .flags = SB_OF_IDENTITY, .category = C_LOG,
	  .help = "write_trace: record one I/O in N (1: every I/O)" },
	{ .name = "dedupe_global", .type = SB_OT_BOOL, .off = OFF(dedupe_global), .def = "0",
	  .category = C_IO,
	  .help = "dedupe_mode=working_set: one working set shared by the writers of all jobs that set it" },
	{ .name = "block_error_percentiles", .type = SB_OT_BOOL, .off = OFF(block_error_percentiles),
	  .def = "0", .category = C_STAT,
	  .help = "accepted for fio job files; records and prints nothing (fio 3.33 aborts or prints zeroes)" },
};
const unsigned sb_opt_rows_post_n = sizeof(sb_opt_rows_post) / sizeof(sb_opt_rows_post[0]);
