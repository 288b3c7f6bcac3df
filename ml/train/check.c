/* check.c: workload=train's checks at parse time (the workload table
 * hands them to parse/ as its check; see parse/workloads.h).  Resolves
 * train_model= into its options struct (opts.h; explicit options win) and
 * refuses what cannot run: unknown models, datasets too small to measure AU
 * or too big to count, distributions without a shape, formats this build
 * cannot write, dataset_verify with an engine that reads nothing.  Every
 * error names file:line, the value and the fix.  Also its gpu_mem hook. */
#include <errno.h>
#include "config.h"
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "parse/catalog.h"
#include "parse/jobparse.h"
#include "parse/mlshape.h"
#include "ml/train/opts.h"
#include "ml/train/trainst.h"

/* the computation-time distribution and the eval phase */
static unsigned check_train_extra(struct sb_jobctx *c, const struct sb_train_opts *t)
{
	char where[SB_WHERE_MAX];
	if (t->computation_time_type == SB_CTIME_UNIFORM &&
	    t->computation_time_max_us < t->computation_time_min_us) {
		sb_err(sb_job_where(c, SB_TRAIN_OPT(computation_time_max_us), where, sizeof(where)),
		       "%s=%gs is below %s=%gs: give a maximum at least the minimum",
		       SB_TRAIN_OPT(computation_time_max_us)->name, (double)t->computation_time_max_us / 1e6,
		       SB_TRAIN_OPT(computation_time_min_us)->name, (double)t->computation_time_min_us / 1e6);
		return 1;
	}
	if (t->computation_time_type == SB_CTIME_GAMMA && !(t->computation_time_shape > 0)) {
		sb_err(sb_job_where(c, SB_TRAIN_OPT(computation_time_shape), where, sizeof(where)),
		       "%s=%g: a gamma distribution needs a shape above 0, e.g. 2",
		       SB_TRAIN_OPT(computation_time_shape)->name, t->computation_time_shape);
		return 1;
	}
	if (t->do_eval && !t->num_files_eval) {
		sb_err(sb_job_where(c, sb_job_isset(c, SB_TRAIN_OPT(num_files_eval)) ? SB_TRAIN_OPT(num_files_eval) :
				    SB_TRAIN_OPT(do_eval), where, sizeof(where)),
		       "%s=0 with %s=1: give the eval dataset's file count, e.g. %s=8",
		       SB_TRAIN_OPT(num_files_eval)->name, SB_TRAIN_OPT(do_eval)->name, SB_TRAIN_OPT(num_files_eval)->name);
		return 1;
	}
	return 0;
}

/* dataset_format: the preset's, else raw; hdf5 needs libhdf5; dataset_verify
 * knows only the raw layout's bytes */
static unsigned check_dsfmt(struct sb_jobctx *c, struct sb_train_opts *t,
			    const struct sb_train_preset *w)
{
	char where[SB_WHERE_MAX];
	if (!sb_job_isset(c, SB_TRAIN_OPT(dataset_format)) && w->format)
		t->dataset_format = !strcmp(w->format, "tfrecord") ? SB_DSFMT_TFRECORD : SB_DSFMT_NPZ;
#ifndef CONFIG_HDF5
	if (t->dataset_format == SB_DSFMT_HDF5) {
		sb_err(sb_job_where(c, SB_TRAIN_OPT(dataset_format), where, sizeof(where)),
		       "%s=hdf5: this storbench was built without libhdf5 (./configure --disable-hdf5, "
		       "or libhdf5-dev missing): apt-get install libhdf5-dev and re-run ./configure, "
		       "or choose npz, npy or tfrecord", SB_TRAIN_OPT(dataset_format)->name);
		return 1;
	}
#endif
	if (t->dataset_verify && t->dataset_format != SB_DSFMT_RAW) {
		sb_err(sb_job_where(c, SB_TRAIN_OPT(dataset_verify), where, sizeof(where)),
		       "%s=1 with %s other than raw: verification compares the raw layout's bytes; "
		       "set %s=raw (in a new data_dir) or drop %s", SB_TRAIN_OPT(dataset_verify)->name,
		       SB_TRAIN_OPT(dataset_format)->name, SB_TRAIN_OPT(dataset_format)->name,
		       SB_TRAIN_OPT(dataset_verify)->name);
		return 1;
	}
	return 0;
}

static unsigned resolve_train(struct sb_jobctx *c, struct sb_train_opts *t)
{
	/* a custom dataset: DLIO's defaults */
	static const struct sb_train_preset custom = {
		.samples_per_file = 1, .batch_size = 1, .read_threads = 1, .epochs = 1,
		.au_required_pct = 90.0, .epochs_between_ckpt = 1,
	};
	const struct sb_train_preset *w = sb_train_preset_find(t->train_model);
	if (t->train_model && !w) {
		sb_job_unknown_name(c, SB_TRAIN_OPT(train_model), t->train_model, "training workload",
				    sb_train_preset_names);
		return 1;
	}
	t->train_preset = w;
	if (!w)
		w = &custom;
	sb_job_default_u(c, SB_TRAIN_OPT(dataset_files), &t->dataset_files, w->files);
	sb_job_default_u(c, SB_TRAIN_OPT(samples_per_file), &t->samples_per_file, w->samples_per_file);
	sb_job_default_u(c, SB_TRAIN_OPT(batch_size), &t->batch_size, w->batch_size);
	sb_job_default_u(c, SB_TRAIN_OPT(read_threads), &t->read_threads, w->read_threads);
	sb_job_default_u(c, SB_TRAIN_OPT(epochs), &t->epochs, w->epochs);
	if (!sb_job_isset(c, SB_TRAIN_OPT(record_length)))
		t->record_length = w->record_length;
	if (!sb_job_isset(c, SB_TRAIN_OPT(record_length_stdev)))
		t->record_length_stdev = w->record_stdev;
	if (!sb_job_isset(c, SB_TRAIN_OPT(computation_time_us)))
		t->computation_time_us = (uint64_t)((t->accelerator == SB_ACCEL_A100 ? w->compute_a100_s :
						      w->compute_h100_s) * 1e6 + 0.5);
	sb_job_default_u(c, SB_TRAIN_OPT(shuffle), &t->shuffle, w->shuffle);
	if (check_dsfmt(c, t, w))
		return 1;
	sb_job_default_u(c, SB_TRAIN_OPT(checkpoint_after_epoch), &t->checkpoint_after_epoch, w->ckpt_after_epoch);
	sb_job_default_u(c, SB_TRAIN_OPT(epochs_between_checkpoints), &t->epochs_between_checkpoints,
		    w->epochs_between_ckpt ? w->epochs_between_ckpt : 1);
	if (!sb_job_isset(c, SB_TRAIN_OPT(au_target_pct)))
		t->au_target_pct = w->au_required_pct;
	if (!sb_job_isset(c, SB_TRAIN_OPT(model_size)))
		t->model_size = w->model_size;
	if (!(t->train_scale > 0)) {
		char where[SB_WHERE_MAX];
		sb_err(sb_job_where(c, SB_TRAIN_OPT(train_scale), where, sizeof(where)),
		       "train_scale=%g: expected a factor above 0 and at most 1, e.g. 0.01", t->train_scale);
		return 1;
	}
	/* the same bytes per second of compute as the full workload */
	t->record_length *= t->train_scale;
	t->record_length_stdev *= t->train_scale;
	t->computation_time_us = (uint64_t)((double)t->computation_time_us * t->train_scale + 0.5);
	t->computation_time_stdev_us =
		(uint64_t)((double)t->computation_time_stdev_us * t->train_scale + 0.5);
	t->model_size = (uint64_t)((double)t->model_size * t->train_scale + 0.5);
	t->computation_time_min_us = (uint64_t)((double)t->computation_time_min_us * t->train_scale + 0.5);
	t->computation_time_max_us = (uint64_t)((double)t->computation_time_max_us * t->train_scale + 0.5);
	t->computation_time_scale_us =
		(uint64_t)((double)t->computation_time_scale_us * t->train_scale + 0.5);
	return check_train_extra(c, t);
}

/* The largest file and the whole dataset must be countable in 64 bits
 * (signed: off_t): files x samples_per_file x the largest sample size
 * sb_ml_sample_bytes can draw. */
static bool dataset_too_big(const struct sb_jobctx *c, const struct sb_train_opts *t)
{
	double sample = sb_ml_record_bytes_max(t->record_length, t->record_length_stdev), limit = 0x1p63;
	double file = sample * t->samples_per_file, all = file * t->dataset_files;
	char where[SB_WHERE_MAX];
	if (all < limit)
		return false;
	const struct sb_option *o = sb_job_isset(c, SB_TRAIN_OPT(record_length)) ? SB_TRAIN_OPT(record_length) :
				    sb_job_isset(c, SB_TRAIN_OPT(dataset_files)) ? SB_TRAIN_OPT(dataset_files) :
				    SB_TRAIN_OPT(samples_per_file);
	sb_err(sb_job_where(c, o, where, sizeof(where)),
	       "job '%s': dataset_files=%u x samples_per_file=%u x record_length=%.17g bytes "
	       "(record_length_stdev=%g: samples up to %.17g bytes) is %s of more than 2^63 bytes "
	       "(8 EiB), which cannot be addressed: lower record_length=, samples_per_file= or "
	       "dataset_files=", c->spec.name, t->dataset_files, t->samples_per_file, t->record_length,
	       t->record_length_stdev, sample, file < limit ? "a dataset" : "a file");
	return true;
}

/* dataset_verify checks what storage returns: ioengine=null reads nothing */
static unsigned check_verify_engine(const struct sb_jobctx *c, const struct sb_train_opts *t)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (!t->dataset_verify || strcmp(s->ioengine, "null"))
		return 0;
	const struct sb_option *v = SB_TRAIN_OPT(dataset_verify);
	sb_err(sb_job_where(c, v, where, sizeof(where)),
	       "%s=1 checks data read from storage, but job '%s' has %s=null, which reads "
	       "nothing: pick a real engine (e.g. psync) or drop %s", v->name, s->name,
	       SB_OPT(ioengine)->name, v->name);
	return 1;
}

static unsigned check_train(struct sb_jobctx *c, struct sb_train_opts *t)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (resolve_train(c, t))
		return 1;
	if (!t->dataset_files || !t->samples_per_file || !t->batch_size || !t->epochs) {
		const struct sb_option *o = !t->dataset_files ? SB_TRAIN_OPT(dataset_files) :
					    !t->samples_per_file ? SB_TRAIN_OPT(samples_per_file) :
					    !t->batch_size ? SB_TRAIN_OPT(batch_size) : SB_TRAIN_OPT(epochs);
		sb_err(sb_job_where(c, o, where, sizeof(where)), "job '%s': workload=train needs %s of at "
		       "least 1 (or train_model=unet3d, resnet50 or cosmoflow for DLIO's shapes)",
		       s->name, o->name);
		return 1;
	}
	if (!(t->record_length >= 1)) {
		sb_err(sb_job_where(c, SB_TRAIN_OPT(record_length), where, sizeof(where)), "job '%s': workload=train "
		       "needs record_length= of at least 1 byte per sample (or train_model=...)", s->name);
		return 1;
	}
	if (dataset_too_big(c, t))
		return 1;
	size_t steps = sb_ml_steps_per_epoch(t->dataset_files, t->samples_per_file, t->batch_size,
					     t->accelerators);
	if (steps < 2) {
		sb_err(sb_job_where(c, SB_TRAIN_OPT(dataset_files), where, sizeof(where)),
		       "job '%s': %u files x %u samples make %zu step(s) per epoch with batch_size=%u "
		       "and accelerators=%u; AU needs at least 2 (the first step is not counted): "
		       "raise dataset_files or lower batch_size", s->name, t->dataset_files,
		       t->samples_per_file, steps, t->batch_size, t->accelerators);
		return 1;
	}
	return 0;
}

unsigned sb_ml_check_train(struct sb_jobctx *c)
{
	struct sb_train_opts *t = sb_train_opts_mut(&c->spec);
	if (!t)
		return 0;
	t->train_preset = NULL;
	/* the verify check reports apart from the others, as the generic
	 * checks that follow this one do */
	return check_train(c, t) + check_verify_engine(c, t);
}

const struct sb_option *sb_ml_train_gpu_option(const struct sb_jobspec *s)
{
	const struct sb_train_opts *t = sb_train_opts(s);
	return t && t->train_destination == SB_ML_MEM_GPU ? SB_TRAIN_OPT(train_destination) : NULL;
}
