/* opts.c: workload=checkpoint's option rows (the model shape, ranks, the
 * checkpoints, their folder and I/O, verification, tiers), handed to the
 * parser through the workload table (ml/registry.c): its own into struct
 * sb_ckpt_opts (opts.h), the ones other workloads read too (SB_OF_SPEC)
 * into struct sb_jobspec; and SB_CKPT_OPT's lookup of the parser's row. */
#include <stdio.h>
#include <stdlib.h>

#include "parse/catalog.h"
#include "parse/jobspec.h"
#include "parse/opt_rows.h"
#include "parse/workloads.h"
#include "ml/checkpoint/ckpt.h"
#include "ml/checkpoint/opts.h"

/* rows into struct sb_ckpt_opts; OFF() and SB_OF_SPEC: the spec's shared fields */
#define CK(f) offsetof(struct sb_ckpt_opts, f)

static const struct sb_opt_enum ckpt_io_vals[] = {
	{ .name = "bs", .val = SB_CKPT_IO_BS, .help = "each file in bs-sized requests, nothing but the tensor bytes" },
	{ .name = "torch", .val = SB_CKPT_IO_TORCH, .help = "the writes torch.save makes: zip framing, one request per tensor" },
	{ .name = NULL },
};

static const struct sb_opt_enum ckpt_source_vals[] = {
	{ .name = "host", .val = SB_ML_MEM_HOST, .help = "the state is in host memory: writes go straight from the buffers" },
	{ .name = "gpu", .val = SB_ML_MEM_GPU, .help = "the state is in GPU memory: each write is copied GPU to host first (torch.save of CUDA tensors), each restore read host to GPU after" },
	{ .name = NULL },
};

static const struct sb_opt_enum ckpt_content_vals[] = {
	{ .name = "unique", .val = SB_CKPT_CONTENT_UNIQUE, .help = "random bytes (gzip 1.00x), new in every checkpoint" },
	{ .name = "dlio", .val = SB_CKPT_CONTENT_DLIO, .help = "DLIO's torch.rand tensors: floats in [0,1) (gzip about 1.1x), the same in every checkpoint" },
	{ .name = NULL },
};

static const struct sb_opt_enum ckpt_flush_vals[] = {
	{ .name = "sync", .val = SB_CKPT_FLUSH_SYNC, .help = "flush to checkpoint_folder before the application continues" },
	{ .name = "async", .val = SB_CKPT_FLUSH_ASYNC, .help = "flush in the background while the next compute interval runs" },
	{ .name = "none", .val = SB_CKPT_FLUSH_NONE, .help = "never flush: checkpoints live in the cache tier only" },
	{ .name = NULL },
};

static const struct sb_opt_enum ckpt_redund_vals[] = {
	{ .name = "single", .val = SB_CKPT_RED_SINGLE, .help = "each rank's files in its own cache folder only" },
	{ .name = "partner", .val = SB_CKPT_RED_PARTNER, .help = "plus a copy in rank (r+1) % ranks's cache folder" },
	{ .name = "xor", .val = SB_CKPT_RED_XOR, .help = "plus one XOR parity file per set of set_size ranks" },
	{ .name = NULL },
};

const struct sb_option sb_ckpt_rows[] = {
	{ .name = "model", .type = SB_OT_STR, .off = OFF(ml_model), .flags = SB_OF_ML | SB_OF_SPEC,
	  .category = C_CKPT,
	  .help = "built-in LLM: llama3-8b, llama3-70b, llama3-405b or llama3-1t" },
	{ .name = "hidden", .type = SB_OT_UINT, .off = OFF(shape.hidden), .max = 1 << 24,
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT, .help = "model shape: hidden size" },
	{ .name = "ffn", .type = SB_OT_UINT, .off = OFF(shape.ffn), .max = 1 << 26, .flags = SB_OF_ML | SB_OF_SPEC,
	  .category = C_CKPT, .help = "model shape: feed-forward size" },
	{ .name = "layers", .type = SB_OT_UINT, .off = OFF(shape.layers), .max = 1 << 16,
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT, .help = "model shape: transformer layers" },
	{ .name = "heads", .type = SB_OT_UINT, .off = OFF(shape.heads), .max = 1 << 16,
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT, .help = "model shape: attention heads" },
	{ .name = "kv_heads", .type = SB_OT_UINT, .off = OFF(shape.kv_heads), .max = 1 << 16,
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT, .help = "model shape: key/value heads" },
	{ .name = "vocab", .type = SB_OT_UINT, .off = OFF(shape.vocab), .max = 1 << 26,
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT,
	  .help = "model shape: vocabulary size (default 128256)" },
	{ .name = "tp", .type = SB_OT_UINT, .off = OFF(shape.tp), .max = 1 << 16, .flags = SB_OF_ML | SB_OF_SPEC,
	  .category = C_CKPT, .help = "tensor parallelism" },
	{ .name = "pp", .type = SB_OT_UINT, .off = OFF(shape.pp), .max = 1 << 16, .flags = SB_OF_ML | SB_OF_SPEC,
	  .category = C_CKPT, .help = "pipeline parallelism" },
	{ .name = "dp", .type = SB_OT_UINT, .off = OFF(shape.dp), .max = 1 << 20, .flags = SB_OF_ML | SB_OF_SPEC,
	  .category = C_CKPT, .help = "data parallelism" },
	{ .name = "zero_stage", .type = SB_OT_UINT, .off = OFF(shape.zero_stage), .max = 3,
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT,
	  .help = "DeepSpeed ZeRO stage 0-3 (decides who writes which file)" },
	{ .name = "ranks", .type = SB_OT_UINT, .off = CK(ranks), .max = 65536, .flags = SB_OF_ML,
	  .category = C_CKPT, .help = "emulated ranks, run as threads (default tp*pp*dp)" },
	{ .name = "subset", .type = SB_OT_BOOL, .off = CK(subset), .def = "0", .flags = SB_OF_ML,
	  .category = C_CKPT,
	  .help = "fewer ranks than tp*pp*dp each write their fraction (MLPerf subset mode)" },
	{ .name = "checkpoint_scale", .type = SB_OT_FLOAT, .off = CK(checkpoint_scale), .def = "1",
	  .max = 1, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "multiply every checkpoint file size by this, e.g. 0.001" },
	{ .name = "num_checkpoints_write", .type = SB_OT_UINT, .off = CK(num_checkpoints_write),
	  .def = "10", .max = 100000, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "checkpoints to write" },
	{ .name = "num_checkpoints_read", .type = SB_OT_UINT, .off = CK(num_checkpoints_read),
	  .def = "10", .max = 100000, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "checkpoints to read back after the writes" },
	{ .name = "time_between_checkpoints", .type = SB_OT_TIME,
	  .off = CK(time_between_checkpoints_us), .def = "0", .unit_us = SEC, .unit = "s",
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "pause before every checkpoint write and read (DLIO; the MLPerf .yaml's 5 s, which "
		  "jobs/checkpoint-llama3-8b.ini keeps; a results tree records the run's own)" },
	{ .name = "checkpoint_fsync", .type = SB_OT_BOOL, .off = OFF(checkpoint_fsync), .def = "1",
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT,
	  .help = "fsync each checkpoint file after writing it" },
	{ .name = "checkpoint_folder", .type = SB_OT_STR, .off = OFF(checkpoint_folder),
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT,
	  .help = "where checkpoints go, train's too (default: <directory>/checkpoints)" },
	{ .name = "checkpoint_rank_sync", .type = SB_OT_BOOL, .off = CK(checkpoint_rank_sync),
	  .def = "0", .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "a checkpoint's duration ends with the slowest rank (0: rank 0's own time, as DLIO)" },
	{ .name = "checkpoint_io", .type = SB_OT_ENUM, .off = CK(checkpoint_io), .def = "bs",
	  .enums = ckpt_io_vals, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "request sizes of checkpoint files: bs, or torch (as torch.save writes them)" },
	{ .name = "checkpoint_source", .type = SB_OT_ENUM, .off = CK(checkpoint_source),
	  .def = "host", .enums = ckpt_source_vals, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "where checkpoints come from and restores go: host, or gpu (D2H before each write, H2D after each read; gpu_dev_id)" },
	{ .name = "checkpoint_content", .type = SB_OT_ENUM, .off = CK(checkpoint_content),
	  .enums = ckpt_content_vals, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "checkpoint bytes: unique (default), or dlio (the default under rules=mlperf)" },
	{ .name = "results_dir", .type = SB_OT_STR, .off = OFF(results_dir), .flags = SB_OF_ML | SB_OF_SPEC,
	  .category = C_ML,
	  .help = "write mlpstorage's results tree (summary.json, metadata) under this folder" },
	{ .name = "keep_checkpoints", .type = SB_OT_BOOL, .off = OFF(keep_checkpoints), .def = "0",
	  .flags = SB_OF_ML | SB_OF_SPEC, .category = C_CKPT,
	  .help = "keep the checkpoint files at the end (default: remove what storbench wrote)" },
	{ .name = "checkpoint_verify", .type = SB_OT_BOOL, .off = CK(checkpoint_verify), .def = "0",
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "check every byte read back from a checkpoint against what was written" },
	{ .name = "checkpoint_cache_folder", .type = SB_OT_STR, .off = CK(checkpoint_cache_folder),
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "tiered checkpoints: write each to this node-local cache tier first, then flush" },
	{ .name = "checkpoint_flush", .type = SB_OT_ENUM, .off = CK(checkpoint_flush), .def = "async",
	  .enums = ckpt_flush_vals, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "tiered: flush the cache tier to checkpoint_folder sync, async or none" },
	{ .name = "flush_threads", .type = SB_OT_UINT, .off = CK(flush_threads), .def = "1",
	  .max = 1024, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "tiered: threads that copy a checkpoint to checkpoint_folder (at least 1)" },
	{ .name = "flush_bs", .type = SB_OT_SIZE, .off = CK(flush_bs), .def = "1m", .unit = "bytes",
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "tiered: bytes per read and write request of the flush" },
	{ .name = "cache_keep", .type = SB_OT_UINT, .off = CK(cache_keep), .def = "1", .max = 100000,
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "tiered: checkpoints kept in the cache tier (older ones removed from it once flushed)" },
	{ .name = "checkpoint_redundancy", .type = SB_OT_ENUM, .off = CK(checkpoint_redundancy),
	  .def = "single", .enums = ckpt_redund_vals, .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "tiered: redundancy on the cache tier as SCR: single, partner or xor" },
	{ .name = "set_size", .type = SB_OT_UINT, .off = CK(set_size), .def = "8", .max = 65536,
	  .flags = SB_OF_ML, .category = C_CKPT,
	  .help = "checkpoint_redundancy=xor: ranks per parity set (at least 2)" },
};
const unsigned sb_ckpt_rows_n = sizeof(sb_ckpt_rows) / sizeof(sb_ckpt_rows[0]);

const struct sb_option *sb_ckpt_opt(size_t off)
{
	const struct sb_option *o = sb_parse_wl_row(sb_ckpt_rows, off);
	if (o)
		return o;
	fprintf(stderr, "storbench: bug: no checkpoint option row at offset %zu of struct "
		"sb_ckpt_opts%s\n", off, sb_parse_workload_at(0) ? "" : " (workloads not handed down)");
	abort();
}

bool sb_ckpt_shape_changed(const struct sb_jobspec *s)
{
	const struct sb_model_preset *p = s->ml_preset;
	const struct sb_ml_shape *m = &s->shape;
	return p && (m->hidden != p->hidden || m->ffn != p->ffn || m->layers != p->layers ||
		     m->heads != p->heads || m->kv_heads != p->kv_heads || m->vocab != p->vocab ||
		     m->tp != p->tp || m->pp != p->pp || m->zero_stage != p->zero_stage);
}
