/* opts.c: workload=train's option rows (the dataset, the training loop as
 * DLIO runs it, evaluation, in-training checkpoints, verification), handed
 * to the parser through the workload table (ml/registry.c). */
#include "parse/opt_rows.h"
#include "ml/train/opts.h"
#include "ml/train/trainst.h"

/* the rows' offsets are into train's own struct (opts.h) */
#undef OFF
#define OFF(f) offsetof(struct sb_train_opts, f)

static const struct sb_opt_enum train_dest_vals[] = {
	{ .name = "host", .val = SB_ML_MEM_HOST, .help = "training reads stay in host memory" },
	{ .name = "gpu", .val = SB_ML_MEM_GPU, .help = "each training read is copied host to GPU after it completes (the DataLoader's .cuda())" },
	{ .name = NULL },
};

static const struct sb_opt_enum dsfmt_vals[] = {
	{ .name = "raw", .val = SB_DSFMT_RAW, .help = "random bytes, samples back to back (named .npz without train_model)" },
	{ .name = "npz", .val = SB_DSFMT_NPZ, .help = "np.savez(x=records, y=labels): an uncompressed zip" },
	{ .name = "npy", .val = SB_DSFMT_NPY, .help = "np.save(records)" },
	{ .name = "hdf5", .val = SB_DSFMT_HDF5, .help = "HDF5 dataset records_0 (uint8, samples x d1 x d2) and labels (libhdf5)" },
	{ .name = "tfrecord", .val = SB_DSFMT_TFRECORD, .help = "TFRecord of tf.train.Example (image bytes, size int64)" },
	{ .name = NULL },
};

static const struct sb_opt_enum accel_vals[] = {
	{ .name = "h100", .val = SB_ACCEL_H100, .help = "NVIDIA H100: the DLIO <model>_h100.yaml computation_time" },
	{ .name = "a100", .val = SB_ACCEL_A100, .help = "NVIDIA A100: the DLIO <model>_a100.yaml computation_time" },
	{ .name = NULL },
};

static const struct sb_opt_enum ctime_vals[] = {
	{ .name = "normal", .val = SB_CTIME_NORMAL, .help = "computation_time + computation_time_stdev x N(0,1)" },
	{ .name = "uniform", .val = SB_CTIME_UNIFORM, .help = "uniform in [computation_time_min, computation_time_max]" },
	{ .name = "gamma", .val = SB_CTIME_GAMMA, .help = "gamma of computation_time_shape and computation_time_scale" },
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

static const struct sb_opt_enum order_vals[] = {
	{ .name = "dlio", .val = SB_ORDER_DLIO, .help = "DLIO's: PyTorch loader (npz, npy, hdf5, raw): each rank's samples ascending every epoch; TFRecord: rank r's files r, r+N, ... of the sorted list, read_threads files interleaved" },
	{ .name = "reshuffle", .val = SB_ORDER_RESHUFFLE, .help = "contiguous blocks of samples per rank, shuffled every epoch as shuffle= says" },
	{ .name = NULL },
};

const struct sb_option sb_train_rows[] = {
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
	  .help = "reader threads per accelerator, DLIO's per-rank DataLoader workers (0: the accelerator reads; default 1)" },
	{ .name = "prefetch", .type = SB_OT_UINT, .off = OFF(prefetch), .def = "2", .max = 4096,
	  .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "DLIO's prefetch_size: each reader reads up to ceil(prefetch / read_threads) batches ahead (0: none)" },
	{ .name = "accelerators", .type = SB_OT_UINT, .off = OFF(accelerators), .def = "1",
	  .min = 1, .max = 4096, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "emulated accelerators consuming batches" },
	{ .name = "shuffle", .type = SB_OT_ENUM, .off = OFF(shuffle), .def = "none",
	  .enums = shuffle_vals, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "shuffle files and/or samples each epoch (none|file|sample|both, or FILE,SAMPLE flags)" },
	{ .name = "seed", .type = SB_OT_U64, .off = OFF(ml_seed), .def = "123", .max = INT64_MAX,
	  .flags = SB_OF_ML, .category = C_TRAIN, .help = "shuffle seed (changes with the epoch)" },
	{ .name = "read_order", .type = SB_OT_ENUM, .off = OFF(read_order), .def = "dlio",
	  .enums = order_vals, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "the order and sharding of the reads: dlio (DLIO's per reader) or reshuffle (OPEN)" },
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
	{ .name = "accelerator", .type = SB_OT_ENUM, .off = OFF(accelerator), .def = "h100",
	  .enums = accel_vals, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "emulated accelerator type: picks the train_model's computation_time (h100|a100)" },
	{ .name = "dataset_format", .type = SB_OT_ENUM, .off = OFF(dataset_format), .def = "raw",
	  .enums = dsfmt_vals, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "what the dataset files hold and how they are read (default: the train_model's, else raw)" },
	{ .name = "checkpoint_after_epoch", .type = SB_OT_UINT, .off = OFF(checkpoint_after_epoch),
	  .max = 100000, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "first epoch after which training writes a model checkpoint (0: none; unet3d: 5)" },
	{ .name = "epochs_between_checkpoints", .type = SB_OT_UINT,
	  .off = OFF(epochs_between_checkpoints), .min = 1, .max = 100000, .flags = SB_OF_ML,
	  .category = C_TRAIN, .help = "epochs from one training checkpoint to the next (default 1; unet3d: 2)" },
	{ .name = "steps_between_checkpoints", .type = SB_OT_UINT,
	  .off = OFF(steps_between_checkpoints), .def = "0", .max = 1u << 30, .flags = SB_OF_ML,
	  .category = C_TRAIN, .help = "checkpoint every this many steps instead of by epochs (0: by epochs)" },
	{ .name = "computation_time_type", .type = SB_OT_ENUM, .off = OFF(computation_time_type),
	  .def = "normal", .enums = ctime_vals, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "distribution of the time per step (DLIO's computation_time type: normal|uniform|gamma)" },
	{ .name = "computation_time_min", .type = SB_OT_TIME, .off = OFF(computation_time_min_us),
	  .def = "0", .unit_us = SEC, .unit = "s", .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "uniform: shortest time per step (DLIO's computation_time min)" },
	{ .name = "computation_time_max", .type = SB_OT_TIME, .off = OFF(computation_time_max_us),
	  .def = "0", .unit_us = SEC, .unit = "s", .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "uniform: longest time per step (DLIO's computation_time max)" },
	{ .name = "computation_time_shape", .type = SB_OT_FLOAT, .off = OFF(computation_time_shape),
	  .def = "1", .max = 1e6, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "gamma: shape k (DLIO's computation_time shape); mean = shape x scale" },
	{ .name = "computation_time_scale", .type = SB_OT_TIME, .off = OFF(computation_time_scale_us),
	  .def = "0", .unit_us = SEC, .unit = "s", .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "gamma: scale theta (DLIO's computation_time scale)" },
	{ .name = "do_eval", .type = SB_OT_BOOL, .off = OFF(do_eval), .def = "0", .flags = SB_OF_ML,
	  .category = C_TRAIN, .help = "run DLIO's eval phase after training epochs (reads <data_dir>/valid)" },
	{ .name = "num_files_eval", .type = SB_OT_UINT, .off = OFF(num_files_eval), .def = "0",
	  .max = 1 << 30, .flags = SB_OF_ML, .category = C_TRAIN, .help = "files in the eval dataset" },
	{ .name = "batch_size_eval", .type = SB_OT_UINT, .off = OFF(batch_size_eval), .def = "1",
	  .min = 1, .max = 1 << 24, .flags = SB_OF_ML, .category = C_TRAIN, .help = "samples per eval step" },
	{ .name = "eval_time", .type = SB_OT_TIME, .off = OFF(eval_time_us), .def = "0",
	  .unit_us = SEC, .unit = "s", .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "accelerator time per eval step" },
	{ .name = "eval_time_stdev", .type = SB_OT_TIME, .off = OFF(eval_time_stdev_us), .def = "0",
	  .unit_us = SEC, .unit = "s", .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "standard deviation of the time per eval step (normal)" },
	{ .name = "eval_after_epoch", .type = SB_OT_UINT, .off = OFF(eval_after_epoch), .def = "1",
	  .min = 1, .max = 100000, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "first epoch after which the eval phase runs" },
	{ .name = "epochs_between_evals", .type = SB_OT_UINT, .off = OFF(epochs_between_evals),
	  .def = "1", .min = 1, .max = 100000, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "epochs from one eval phase to the next" },
	{ .name = "model_size", .type = SB_OT_SIZE, .off = OFF(model_size), .def = "0", .unit = "bytes", .flags = SB_OF_ML,
	  .category = C_TRAIN,
	  .help = "the in-training checkpoint's model file (DLIO's model_size; unet3d: 499153191; times "
		  "train_scale, which makes it an override: model.model_size in the tree, INVALID for the checker)" },

	{ .name = "train_destination", .type = SB_OT_ENUM, .off = OFF(train_destination),
	  .def = "host", .enums = train_dest_vals, .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "where training reads land: host, or gpu (H2D after each read; gpu_dev_id)" },
	{ .name = "dataset_verify", .type = SB_OT_BOOL, .off = OFF(dataset_verify), .def = "0",
	  .flags = SB_OF_ML, .category = C_TRAIN,
	  .help = "check every byte a training read returns against the generated dataset" },
};
const unsigned sb_train_rows_n = sizeof(sb_train_rows) / sizeof(sb_train_rows[0]);

const struct sb_option *sb_train_opt(size_t off)
{
	return sb_parse_wl_row(sb_train_rows, off);
}
