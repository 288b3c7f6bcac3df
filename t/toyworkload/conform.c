/* conform.c: what the workload conformance suite runs of the toy. */
#include "ml/toy/toy.h"

const struct sb_wl_conformance sb_toy_conformance = {
	.quick = "toy_files=2\ntoy_size=16k\ntoy_rounds=2\ntoy_ratio=0.5\ntoy_label=quick run",
	.endless = "toy_rounds=1000000\ntoy_pause=200ms",
	.keep = "toy_keep=1",
	.sweep_opt = "toy_size",
	.sweep_a = "8k",
	.sweep_b = "16k",
	.json_key = "toy",
	.normal = "  toy          : ",
};
