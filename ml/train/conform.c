/* conform.c: what the workload conformance suite runs of train
 * (struct sb_wl_conformance, run/workload.h).  Its finished dataset is
 * kept on purpose (marked kept, HOWTO section 7): the suite's leftover
 * check accepts only such files. */
#include "run/workload.h"
#include "ml/train/trainst.h"

const struct sb_wl_conformance sb_train_conformance = {
	.quick = "dataset_files=4\nsamples_per_file=2\nrecord_length=16k\nbatch_size=2\n"
		 "accelerators=1\nepochs=1\ndrop_caches=0",
	.endless = "epochs=100000\ncomputation_time=20ms",
	.kept = "data/train/*",
	.sweep_opt = "epochs",
	.sweep_a = "1",
	.sweep_b = "2",
	.json_key = "train",
	.normal = "  train        : ",
};
