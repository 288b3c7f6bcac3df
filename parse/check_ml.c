/* check_ml.c: validation of the ML workload options (workload=checkpoint and
 * workload=train).  Resolves model= and train_model= into the shape fields of
 * the spec (explicit options win), fills the defaults that depend on them,
 * and rejects what cannot run: unknown names (with the list and a "did you
 * mean"), ranks that do not match tp*pp*dp, more reads than writes, datasets
 * too small to measure, and workload options given to a job that would
 * ignore them.  Every error names file:line, the value and the fix. */
#include <errno.h>
#include "config.h"
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "parse/catalog.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/mlshape.h"

#define SB_ML_MAX_RANKS 65536u /* the bound of ranks= in options.c */

static const char *wl_name(unsigned wl)
{
	const char *name = sb_option_enum_name(SB_OPT(workload), wl);
	return name ? name : "?";
}

/* options of one workload given to a job of another */
static unsigned check_misplaced(const struct sb_jobctx *c)
{
	/* looked up once: each SB_OPT walks the table (a sweep validates
	 * every point's jobs, up to 10,000 of them) */
	const struct sb_option *rules = SB_OPT(rules), *folder = SB_OPT(checkpoint_folder),
			       *keep = SB_OPT(keep_checkpoints), *fsync_ = SB_OPT(checkpoint_fsync),
			       *model = SB_OPT(ml_model), *layers = SB_OPT(shape.layers),
			       *kv_heads = SB_OPT(shape.kv_heads);
	unsigned nerr = 0, wl = c->spec.workload;
	char where[512];
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		unsigned need;
		if (wl == SB_WL_KVCACHE && (o == model || o == layers || o == kv_heads))
			continue; /* the KV shape (check_kv.c) */
		if (o->category == SB_CAT_KV)
			need = SB_WL_KVCACHE;
		else if (o->category == SB_CAT_CKPT && o != folder && o != keep && o != fsync_)
			need = SB_WL_CHECKPOINT;
		else if (o->category == SB_CAT_TRAIN)
			need = SB_WL_TRAIN;
		else if (o == rules || o == folder || o == keep || o == fsync_) /* also train's own checkpoint */
			need = wl == SB_WL_IO || (wl == SB_WL_KVCACHE && o != rules) ? SB_WL_CHECKPOINT : wl;
		else
			continue;
		if (!c->src[i].file || need == wl)
			continue;
		sb_err(sb_ini_where(where, sizeof(where), c->src[i].file, c->src[i].line),
		       "%s=%s applies to workload=%s%s, but job '%s' has workload=%s: add workload=%s "
		       "to the job or remove %s=", o->name, c->src[i].raw, wl_name(need),
		       o == rules ? " or train" : "", c->spec.name, wl_name(wl),
		       wl_name(need), o->name);
		nerr++;
	}
	return nerr;
}

/* "unknown X 'v': expected a, b or c (did you mean 'b'?)" */
static void unknown_name(const struct sb_jobctx *c, const struct sb_option *opt, const char *val,
			 const char *const *names)
{
	char where[512], list[256] = "", hint[96] = "";
	size_t n = 0;
	unsigned best = 4;
	for (unsigned i = 0; names[i]; i++) {
		int w = snprintf(list + n, sizeof(list) - n, "%s%s", i ? (names[i + 1] ? ", " : " or ") : "",
				 names[i]);
		n += w > 0 && (size_t)w < sizeof(list) - n ? (size_t)w : 0;
		unsigned d = sb_option_distance(val, names[i]);
		if (d < best) {
			best = d;
			snprintf(hint, sizeof(hint), " (did you mean '%s'?)", names[i]);
		}
	}
	sb_err(sb_job_where(c, opt, where, sizeof(where)), "%s=%s: unknown %s; expected %s%s", opt->name,
	       val, opt == SB_OPT(ml_model) ? opt->name : "training workload", list, hint);
}

static void set_default(const struct sb_jobctx *c, const struct sb_option *o, unsigned *field,
			unsigned v)
{
	if (!sb_job_isset(c, o))
		*field = v;
}

static unsigned resolve_model(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	struct sb_ml_shape m;
	char where[512];
	const struct sb_model_preset *p = sb_model_preset_find(s->ml_model);
	if (s->ml_model) {
		if (!p) {
			unknown_name(c, SB_OPT(ml_model), s->ml_model, sb_model_preset_names);
			return 1;
		}
		sb_ml_shape_from_preset(p, &m);
	} else {
		const struct sb_option *need[] = { SB_OPT(shape.hidden), SB_OPT(shape.ffn), SB_OPT(shape.layers),
						   SB_OPT(shape.heads), SB_OPT(shape.kv_heads) };
		for (unsigned i = 0; i < 5; i++) {
			if (sb_job_isset(c, need[i]))
				continue;
			sb_err(sb_job_where(c, NULL, where, sizeof(where)),
			       "job '%s': workload=checkpoint needs model= (llama3-8b, llama3-70b, "
			       "llama3-405b or llama3-1t) or an explicit shape; %s= is missing (give "
			       "hidden, ffn, layers, heads, kv_heads, and optionally vocab, tp, pp, dp, "
			       "zero_stage)", s->name, need[i]->name);
			return 1;
		}
		memset(&m, 0, sizeof(m));
		m.vocab = SB_MODEL_DEFAULT_VOCAB;
		m.tp = m.pp = m.dp = 1;
	}
	set_default(c, SB_OPT(shape.hidden), &s->shape.hidden, m.hidden);
	set_default(c, SB_OPT(shape.ffn), &s->shape.ffn, m.ffn);
	set_default(c, SB_OPT(shape.layers), &s->shape.layers, m.layers);
	set_default(c, SB_OPT(shape.heads), &s->shape.heads, m.heads);
	set_default(c, SB_OPT(shape.kv_heads), &s->shape.kv_heads, m.kv_heads);
	set_default(c, SB_OPT(shape.vocab), &s->shape.vocab, m.vocab);
	set_default(c, SB_OPT(shape.tp), &s->shape.tp, m.tp);
	set_default(c, SB_OPT(shape.pp), &s->shape.pp, m.pp);
	set_default(c, SB_OPT(shape.dp), &s->shape.dp, m.dp);
	set_default(c, SB_OPT(shape.zero_stage), &s->shape.zero_stage, m.zero_stage);
	/* the preset's row when the job runs its shape unchanged (MLPerf's
	 * named model), resolved once here for ml/ */
	if (p && s->shape.hidden == p->hidden && s->shape.ffn == p->ffn && s->shape.layers == p->layers &&
	    s->shape.heads == p->heads && s->shape.kv_heads == p->kv_heads && s->shape.vocab == p->vocab &&
	    s->shape.tp == p->tp && s->shape.pp == p->pp && s->shape.dp == p->dp &&
	    s->shape.zero_stage == p->zero_stage)
		s->ml_preset = p;
	return 0;
}

static unsigned check_ckpt(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	const struct sb_ml_shape *m = &s->shape;
	char where[512], err[384];
	if (resolve_model(c))
		return 1;
	if (sb_ml_shape_check(m, err, sizeof(err))) {
		const struct sb_option *at = s->ml_model ? SB_OPT(ml_model) : SB_OPT(shape.hidden);
		if (!strncmp(err, "tp=", 3)) /* tp*pp*dp: the last of them given */
			at = sb_job_isset(c, SB_OPT(shape.dp)) ? SB_OPT(shape.dp) : sb_job_isset(c, SB_OPT(shape.pp)) ?
			     SB_OPT(shape.pp) : SB_OPT(shape.tp);
		sb_err(sb_job_where(c, at, where, sizeof(where)),
		       "job '%s': model shape: %s", s->name, err);
		return 1;
	}
	if (!sb_job_isset(c, SB_OPT(ranks)) && sb_ml_world(m) > SB_ML_MAX_RANKS) {
		sb_err(sb_job_where(c, s->ml_model ? SB_OPT(ml_model) : SB_OPT(shape.tp), where, sizeof(where)),
		       "job '%s': ranks= defaults to tp*pp*dp = %u*%u*%u = %u, more than the %u rank "
		       "threads storbench runs: set subset and ranks= (at most %u) to write that "
		       "fraction of the checkpoint, or lower tp=, pp= or dp=", s->name, m->tp, m->pp,
		       m->dp, sb_ml_world(m), SB_ML_MAX_RANKS, SB_ML_MAX_RANKS);
		return 1;
	}
	if (!sb_job_isset(c, SB_OPT(ranks)))
		s->ranks = sb_ml_world(m);
	if (sb_ml_check_ranks(m, s->ranks, s->subset, err, sizeof(err))) {
		sb_err(sb_job_where(c, SB_OPT(ranks), where, sizeof(where)), "job '%s': %s", s->name, err);
		return 1;
	}
	if (!(s->checkpoint_scale > 0)) {
		sb_err(sb_job_where(c, SB_OPT(checkpoint_scale), where, sizeof(where)),
		       "checkpoint_scale=%g: expected a factor above 0 and at most 1, e.g. 0.001",
		       s->checkpoint_scale);
		return 1;
	}
	/* num_checkpoints_write=0: a read-only run (MLPerf's procedure) reads
	 * what an earlier run left with keep_checkpoints=1 */
	if (!s->num_checkpoints_write && !s->num_checkpoints_read) {
		sb_err(sb_job_where(c, SB_OPT(num_checkpoints_write), where, sizeof(where)),
		       "num_checkpoints_write=0 and num_checkpoints_read=0: a checkpoint job writes or "
		       "reads at least 1 checkpoint: set either (10 in MLPerf)");
		return 1;
	}
	if (s->num_checkpoints_write && s->num_checkpoints_read > s->num_checkpoints_write) {
		sb_err(sb_job_where(c, SB_OPT(num_checkpoints_read), where, sizeof(where)),
		       "num_checkpoints_read=%u is more than the %u checkpoints written "
		       "(num_checkpoints_write): read at most %u, or write more",
		       s->num_checkpoints_read, s->num_checkpoints_write, s->num_checkpoints_write);
		return 1;
	}
	/* torch.save's requests are of any length and offset: O_DIRECT refuses them */
	if (s->checkpoint_io == SB_CKPT_IO_TORCH && s->direct) {
		sb_err(sb_job_where(c, SB_OPT(checkpoint_io), where, sizeof(where)),
		       "%s=torch issues torch.save's unaligned writes, which %s=1 (O_DIRECT) refuses: "
		       "remove %s=1, or set %s=bs", SB_OPT(checkpoint_io)->name, SB_OPT(direct)->name,
		       SB_OPT(direct)->name, SB_OPT(checkpoint_io)->name);
		return 1;
	}
	return sb_job_validate_tier(c);
}

/* computation-time distribution and eval phase (issue 13 item 2) */
static unsigned check_train_extra(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[512];
	if (s->computation_time_type == SB_CTIME_UNIFORM &&
	    s->computation_time_max_us < s->computation_time_min_us) {
		sb_err(sb_job_where(c, SB_OPT(computation_time_max_us), where, sizeof(where)),
		       "%s=%gs is below %s=%gs: give a maximum at least the minimum",
		       SB_OPT(computation_time_max_us)->name, (double)s->computation_time_max_us / 1e6,
		       SB_OPT(computation_time_min_us)->name, (double)s->computation_time_min_us / 1e6);
		return 1;
	}
	if (s->computation_time_type == SB_CTIME_GAMMA && !(s->computation_time_shape > 0)) {
		sb_err(sb_job_where(c, SB_OPT(computation_time_shape), where, sizeof(where)),
		       "%s=%g: a gamma distribution needs a shape above 0, e.g. 2",
		       SB_OPT(computation_time_shape)->name, s->computation_time_shape);
		return 1;
	}
	if (s->do_eval && !s->num_files_eval) {
		sb_err(sb_job_where(c, sb_job_isset(c, SB_OPT(num_files_eval)) ? SB_OPT(num_files_eval) :
				    SB_OPT(do_eval), where, sizeof(where)),
		       "%s=0 with %s=1: give the eval dataset's file count, e.g. %s=8",
		       SB_OPT(num_files_eval)->name, SB_OPT(do_eval)->name, SB_OPT(num_files_eval)->name);
		return 1;
	}
	return 0;
}

/* dataset_format: the preset's, else raw; hdf5 needs libhdf5; dataset_verify
 * knows only the raw layout's bytes */
static unsigned check_dsfmt(struct sb_jobctx *c, const struct sb_train_preset *w)
{
	struct sb_jobspec *s = &c->spec;
	char where[512];
	if (!sb_job_isset(c, SB_OPT(dataset_format)) && w->format)
		s->dataset_format = !strcmp(w->format, "tfrecord") ? SB_DSFMT_TFRECORD : SB_DSFMT_NPZ;
#ifndef CONFIG_HDF5
	if (s->dataset_format == SB_DSFMT_HDF5) {
		sb_err(sb_job_where(c, SB_OPT(dataset_format), where, sizeof(where)),
		       "%s=hdf5: this storbench was built without libhdf5 (./configure --disable-hdf5, "
		       "or libhdf5-dev missing): apt-get install libhdf5-dev and re-run ./configure, "
		       "or choose npz, npy or tfrecord", SB_OPT(dataset_format)->name);
		return 1;
	}
#endif
	if (s->dataset_verify && s->dataset_format != SB_DSFMT_RAW) {
		sb_err(sb_job_where(c, SB_OPT(dataset_verify), where, sizeof(where)),
		       "%s=1 with %s other than raw: verification compares the raw layout's bytes; "
		       "set %s=raw (in a new data_dir) or drop %s", SB_OPT(dataset_verify)->name,
		       SB_OPT(dataset_format)->name, SB_OPT(dataset_format)->name,
		       SB_OPT(dataset_verify)->name);
		return 1;
	}
	return 0;
}

static unsigned resolve_train(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	/* a custom dataset: DLIO's defaults */
	static const struct sb_train_preset custom = {
		.samples_per_file = 1, .batch_size = 1, .read_threads = 1, .epochs = 1,
		.au_required_pct = 90.0, .epochs_between_ckpt = 1,
	};
	const struct sb_train_preset *w = sb_train_preset_find(s->train_model);
	if (s->train_model && !w) {
		unknown_name(c, SB_OPT(train_model), s->train_model, sb_train_preset_names);
		return 1;
	}
	s->train_preset = w;
	if (!w)
		w = &custom;
	set_default(c, SB_OPT(dataset_files), &s->dataset_files, w->files);
	set_default(c, SB_OPT(samples_per_file), &s->samples_per_file, w->samples_per_file);
	set_default(c, SB_OPT(batch_size), &s->batch_size, w->batch_size);
	set_default(c, SB_OPT(read_threads), &s->read_threads, w->read_threads);
	set_default(c, SB_OPT(epochs), &s->epochs, w->epochs);
	if (!sb_job_isset(c, SB_OPT(record_length)))
		s->record_length = w->record_length;
	if (!sb_job_isset(c, SB_OPT(record_length_stdev)))
		s->record_length_stdev = w->record_stdev;
	if (!sb_job_isset(c, SB_OPT(computation_time_us)))
		s->computation_time_us = (uint64_t)((s->accelerator == SB_ACCEL_A100 ? w->compute_a100_s :
						      w->compute_h100_s) * 1e6 + 0.5);
	set_default(c, SB_OPT(shuffle), &s->shuffle, w->shuffle);
	if (check_dsfmt(c, w))
		return 1;
	set_default(c, SB_OPT(checkpoint_after_epoch), &s->checkpoint_after_epoch, w->ckpt_after_epoch);
	set_default(c, SB_OPT(epochs_between_checkpoints), &s->epochs_between_checkpoints,
		    w->epochs_between_ckpt ? w->epochs_between_ckpt : 1);
	if (!sb_job_isset(c, SB_OPT(au_target_pct)))
		s->au_target_pct = w->au_required_pct;
	if (!sb_job_isset(c, SB_OPT(model_size)))
		s->model_size = w->model_size;
	if (!(s->train_scale > 0)) {
		char where[512];
		sb_err(sb_job_where(c, SB_OPT(train_scale), where, sizeof(where)),
		       "train_scale=%g: expected a factor above 0 and at most 1, e.g. 0.01", s->train_scale);
		return 1;
	}
	/* the same bytes per second of compute as the full workload */
	s->record_length *= s->train_scale;
	s->record_length_stdev *= s->train_scale;
	s->computation_time_us = (uint64_t)((double)s->computation_time_us * s->train_scale + 0.5);
	s->computation_time_stdev_us =
		(uint64_t)((double)s->computation_time_stdev_us * s->train_scale + 0.5);
	s->model_size = (uint64_t)((double)s->model_size * s->train_scale + 0.5);
	s->computation_time_min_us = (uint64_t)((double)s->computation_time_min_us * s->train_scale + 0.5);
	s->computation_time_max_us = (uint64_t)((double)s->computation_time_max_us * s->train_scale + 0.5);
	s->computation_time_scale_us =
		(uint64_t)((double)s->computation_time_scale_us * s->train_scale + 0.5);
	return check_train_extra(c);
}

/* The largest file and the whole dataset must be countable in 64 bits
 * (signed: off_t): files x samples_per_file x the largest sample size
 * sb_ml_sample_bytes can draw. */
static bool dataset_too_big(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	double sample = sb_ml_record_bytes_max(s->record_length, s->record_length_stdev), limit = 0x1p63;
	double file = sample * s->samples_per_file, all = file * s->dataset_files;
	char where[512];
	if (all < limit)
		return false;
	const struct sb_option *o = sb_job_isset(c, SB_OPT(record_length)) ? SB_OPT(record_length) :
				    sb_job_isset(c, SB_OPT(dataset_files)) ? SB_OPT(dataset_files) :
				    SB_OPT(samples_per_file);
	sb_err(sb_job_where(c, o, where, sizeof(where)),
	       "job '%s': dataset_files=%u x samples_per_file=%u x record_length=%.17g bytes "
	       "(record_length_stdev=%g: samples up to %.17g bytes) is %s of more than 2^63 bytes "
	       "(8 EiB), which cannot be addressed: lower record_length=, samples_per_file= or "
	       "dataset_files=", s->name, s->dataset_files, s->samples_per_file, s->record_length,
	       s->record_length_stdev, sample, file < limit ? "a dataset" : "a file");
	return true;
}

static unsigned check_train(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[512];
	if (resolve_train(c))
		return 1;
	if (!s->dataset_files || !s->samples_per_file || !s->batch_size || !s->epochs) {
		const struct sb_option *o = !s->dataset_files ? SB_OPT(dataset_files) :
					    !s->samples_per_file ? SB_OPT(samples_per_file) :
					    !s->batch_size ? SB_OPT(batch_size) : SB_OPT(epochs);
		sb_err(sb_job_where(c, o, where, sizeof(where)), "job '%s': workload=train needs %s of at "
		       "least 1 (or train_model=unet3d, resnet50 or cosmoflow for DLIO's shapes)",
		       s->name, o->name);
		return 1;
	}
	if (!(s->record_length >= 1)) {
		sb_err(sb_job_where(c, SB_OPT(record_length), where, sizeof(where)), "job '%s': workload=train "
		       "needs record_length= of at least 1 byte per sample (or train_model=...)", s->name);
		return 1;
	}
	if (dataset_too_big(c))
		return 1;
	size_t steps = sb_ml_steps_per_epoch(s->dataset_files, s->samples_per_file, s->batch_size,
					     s->accelerators);
	if (steps < 2) {
		sb_err(sb_job_where(c, SB_OPT(dataset_files), where, sizeof(where)),
		       "job '%s': %u files x %u samples make %zu step(s) per epoch with batch_size=%u "
		       "and accelerators=%u; AU needs at least 2 (the first step is not counted): "
		       "raise dataset_files or lower batch_size", s->name, s->dataset_files,
		       s->samples_per_file, steps, s->batch_size, s->accelerators);
		return 1;
	}
	return 0;
}

unsigned sb_job_validate_ml(struct sb_jobctx *c)
{
	c->spec.ml_preset = NULL;
	c->spec.train_preset = NULL;
	unsigned nerr = check_misplaced(c);
	if (nerr)
		return nerr;
	if (c->spec.workload == SB_WL_CHECKPOINT)
		return check_ckpt(c);
	if (c->spec.workload == SB_WL_TRAIN)
		return check_train(c);
	if (c->spec.workload == SB_WL_KVCACHE)
		return sb_job_validate_kv(c);
	return 0;
}
