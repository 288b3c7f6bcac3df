/* conform.c: what the workload conformance suite runs of kvcache
 * (struct sb_wl_conformance, run/workload.h). */
#include "run/workload.h"
#include "ml/kvcache/kvcache.h"

const struct sb_wl_conformance sb_kv_conformance = {
	.quick = "model=llama3-8b\nkv_requests=5\nkv_block_tokens=16\nprompt_tokens=64\n"
		 "output_tokens=4\nkv_memory_capacity=1m\nkv_disk_capacity=64m\nbs=64k",
	.endless = "kv_requests=0\narrival_rate=20",
	.keep = "keep_kvcache=1",
	.sweep_opt = "kv_requests",
	.sweep_a = "3",
	.sweep_b = "5",
	.json_key = "kvcache",
	.normal = "  kvcache      : ",
};
