/* conform.c: what the workload conformance suite runs of checkpoint
 * (struct sb_wl_conformance, run/workload.h). */
#include "run/workload.h"
#include "ml/checkpoint/ckpt.h"

const struct sb_wl_conformance sb_ckpt_conformance = {
	.quick = "model=llama3-8b\ncheckpoint_scale=0.00002\nnum_checkpoints_write=2\n"
		 "num_checkpoints_read=1\ndrop_caches=0",
	.endless = "checkpoint_scale=0.000002\nnum_checkpoints_write=300\ntime_between_checkpoints=1s",
	.keep = "keep_checkpoints=1",
	.sweep_opt = "num_checkpoints_write",
	.sweep_a = "1",
	.sweep_b = "2",
	.json_key = "checkpoint",
	.normal = "  checkpoint   : ",
};
