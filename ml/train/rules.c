/* rules.c: the MLPerf Storage rules of a train run, as mlcommons/storage's
 * checker (mlpstorage/rules.py TrainingRulesChecker) and the submission
 * guidelines state them (sources per rule below and in ml/train/rules.h),
 * into the shared rule report (ml/rules.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ml/train/opts.h"
#include "ml/train/rules.h"
#include "ml/train/train.h"
#include "parse/catalog.h"
#include "parse/jobspec.h"
#include "parse/options.h"

#define GIB 1073741824.0

uint64_t sb_ml_min_samples(unsigned batch, unsigned accelerators, unsigned hosts,
			   uint64_t host_mem_bytes, double record_length)
{
	uint64_t by_steps = (uint64_t)SB_ML_MIN_STEPS * batch * accelerators;
	double by_mem = record_length > 0 ?
			ceil((double)hosts * (double)host_mem_bytes * SB_ML_MEM_MULTIPLIER / record_length) : 0;
	return by_mem > (double)by_steps ? (uint64_t)by_mem : by_steps;
}

/* rules.py calculate_training_data_size: min_num_files_by_bytes =
 * dataset_size_bytes // file_size_bytes */
uint64_t sb_ml_min_files_by_mem(unsigned hosts, uint64_t host_mem_bytes, unsigned samples_per_file,
				double record_length)
{
	/* rules.py:709-714: dataset_size_bytes // file_size_bytes in Python:
	 * exact integer division for a whole record_length_bytes (unet3d,
	 * cosmoflow), float floor division (float_floor_div) for a fractional
	 * one (resnet50); a double quotient is off by 1-2 files past 2^53 */
	unsigned __int128 mem = (unsigned __int128)SB_ML_MEM_MULTIPLIER * hosts * host_mem_bytes;
	double file = (double)samples_per_file * record_length;
	if (!(file > 0))
		return 0;
	if (record_length == floor(record_length) && file < 18446744073709551616.0) {
		unsigned __int128 q = mem / (uint64_t)file;
		return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
	}
	double a = (double)mem, m = fmod(a, file), div = (a - m) / file, q = floor(div);
	if (div - q > 0.5)
		q += 1;
	return q >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)q;
}

/* min_num_files_by_samples = 500 * num_processes * batch_size // num_samples_per_file */
uint64_t sb_ml_min_files_by_steps(unsigned batch, unsigned accelerators, unsigned samples_per_file)
{
	uint64_t samples = (uint64_t)SB_ML_MIN_STEPS * accelerators * batch;
	return samples_per_file ? samples / samples_per_file : samples;
}

/* rules.py:522-526, check_allowed_params' two lists (mlcommons/storage
 * caa90c9); anything else is INVALID (rules.py:548-552). */
static const char *const closed_params[] = {
	"dataset.num_files_train", "dataset.num_subfolders_train", "dataset.data_folder",
	"reader.read_threads", "reader.computation_threads", "reader.transfer_size",
	"reader.odirect", "reader.prefetch_size", "checkpoint.checkpoint_folder",
	"storage.storage_type", "storage.storage_root", NULL,
};
static const char *const open_params[] = {
	"framework", "dataset.format", "dataset.num_samples_per_file", "reader.data_loader", NULL,
};

static bool in_list(const char *const *l, const char *p)
{
	for (; *l; l++)
		if (!strcmp(*l, p))
			return true;
	return false;
}

enum sb_ml_verdict sb_ml_override_class(const char *param)
{
	if (!strncmp(param, "workflow", 8)) /* rules.py:530-532: handled elsewhere */
		return SB_ML_CLOSED;
	return in_list(closed_params, param) ? SB_ML_CLOSED :
	       in_list(open_params, param) ? SB_ML_OPEN : SB_ML_INVALID;
}

enum sb_ml_verdict sb_ml_override_class_guidelines(const char *param)
{
	/* guidelines 10.1 Table 2 lists the same CLOSED parameters but reader.odirect,
	 * which storbench judges by its own rule (odirect, unet3d only); 10.2 the
	 * same OPEN ones; workflow.* is in neither table */
	if (!strncmp(param, "workflow", 8))
		return SB_ML_INVALID;
	return in_list(closed_params, param) ? SB_ML_CLOSED :
	       in_list(open_params, param) ? SB_ML_OPEN : SB_ML_INVALID;
}

static bool same(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* rules.py check_num_files_train: num_files_train >= the larger of the two
 * counts of calculate_training_data_size, else INVALID ("Insufficient number
 * of training files").  Reported as two rules so the fix names the cause. */
static void train_dataset_rules(const struct sb_ml_train_facts *f, struct sb_ml_rule_report *rep)
{
	uint64_t by_mem = sb_ml_min_files_by_mem(f->hosts, f->host_mem_bytes, f->samples_per_file,
						 f->record_length);
	uint64_t by_steps = sb_ml_min_files_by_steps(f->batch_size, f->accelerators, f->samples_per_file);
	uint64_t need = by_mem > by_steps ? by_mem : by_steps;
	size_t steps = sb_ml_steps_per_epoch(f->files, f->samples_per_file, f->batch_size,
					     f->accelerators);
	struct sb_ml_rule *r;

	r = sb_ml_rule_add(rep, "dataset_size", f->files >= by_mem, SB_ML_INVALID,
		     "the dataset must be at least %ux the memory of the %u client host(s) "
		     "(%.2f GiB): set dataset_files=%llu or more", SB_ML_MEM_MULTIPLIER, f->hosts,
		     SB_ML_MEM_MULTIPLIER * f->hosts * (double)f->host_mem_bytes / GIB,
		     (unsigned long long)need);
	SB_ML_RULE_EA(r, ">= %.0f files", by_mem, "%.0f files", f->files);
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:478-511; guidelines 7");
	r = sb_ml_rule_add(rep, "steps_per_epoch", f->files >= by_steps, SB_ML_INVALID,
		     "each epoch needs %u steps of batch_size=%u on %u accelerator(s): "
		     "set dataset_files=%llu or more", SB_ML_MIN_STEPS, f->batch_size, f->accelerators,
		     (unsigned long long)need);
	SB_ML_RULE_EA(r, ">= %.0f files", by_steps, "%.0f files", f->files);
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:478-511; guidelines 7");
	snprintf(r->actual + strlen(r->actual), sizeof(r->actual) - strlen(r->actual),
		 " (%zu steps)", steps);
}

static const char *shuffle_name(bool file, bool sample)
{
	return file ? (sample ? "file+sample" : "file") : sample ? "sample" : "none";
}

/* rules.py check_allowed_params: anything but the CLOSED list
 * (num_files_train, num_subfolders_train, data_folder, read_threads,
 * computation_threads, transfer_size, odirect, prefetch_size,
 * checkpoint_folder, storage_*) and the OPEN list (framework, format,
 * num_samples_per_file, data_loader) is a "Disallowed parameter override":
 * INVALID.  The values come from configs/dlio/workload/<model>_<accel>.yaml. */
static void train_workload_rules(const struct sb_ml_train_facts *f, const struct sb_ml_workload *w,
				 double want_ct, struct sb_ml_rule_report *rep)
{
	const char *accel = f->accel && *f->accel ? f->accel : "h100";
	char e[64], a[64];
	struct sb_ml_rule *r;
	r = sb_ml_rule_add(rep, SB_TRAIN_OPT(batch_size)->name, f->batch_size == w->batch_size, SB_ML_INVALID,
		     "%s uses batch_size=%u: set it back", w->name, w->batch_size);
	SB_ML_RULE_EA(r, "%.0f", w->batch_size, "%.0f", f->batch_size);
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:548 (reader.batch_size); guidelines 10.1");
	r = sb_ml_rule_add(rep, SB_TRAIN_OPT(computation_time_us)->name, same(f->computation_time_s, want_ct),
		     SB_ML_INVALID, "%s on %s computes %gs per step: remove computation_time= (and "
		     "train_scale=) or set accelerator= to the one whose time you mean", w->name,
		     accel, want_ct);
	SB_ML_RULE_EA(r, "%g s", want_ct, "%g s", f->computation_time_s);
	snprintf(r->expected + strlen(r->expected), sizeof(r->expected) - strlen(r->expected),
		 " (%s)", accel);
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:548 (train.computation_time); guidelines 10.1");
	r = sb_ml_rule_add(rep, SB_TRAIN_OPT(record_length)->name, same(f->record_length, w->ds.record_length),
		     SB_ML_INVALID, "%s records are %.2f bytes: remove record_length= and train_scale=",
		     w->name, w->ds.record_length);
	SB_ML_RULE_EA(r, "%.2f", w->ds.record_length, "%.2f", f->record_length);
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:548 (dataset.record_length_bytes); guidelines 10.1");
	r = sb_ml_rule_add(rep, SB_TRAIN_OPT(record_length_stdev)->name, same(f->record_stdev, w->ds.record_stdev),
		     SB_ML_INVALID, "%s records vary by %.0f bytes: remove record_length_stdev= and "
		     "train_scale=", w->name, w->ds.record_stdev);
	SB_ML_RULE_EA(r, "%.2f", w->ds.record_stdev, "%.2f", f->record_stdev);
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:548 (dataset.record_length_bytes_stdev); guidelines 10.1");
	/* rules.py check_num_epochs is a stub; train.epochs is not an allowed override */
	r = sb_ml_rule_add(rep, SB_TRAIN_OPT(epochs)->name, f->epochs == w->epochs, SB_ML_INVALID,
		     "%s trains %u epochs: set epochs=%u", w->name, w->epochs, w->epochs);
	SB_ML_RULE_EA(r, "%.0f", w->epochs, "%.0f", f->epochs);
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:548 (train.epochs); guidelines 10.1");
	/* reader.file_shuffle / sample_shuffle are not allowed overrides */
	bool sh = f->file_shuffle == w->file_shuffle && f->sample_shuffle == w->sample_shuffle;
	snprintf(e, sizeof(e), "%s", shuffle_name(w->file_shuffle, w->sample_shuffle));
	snprintf(a, sizeof(a), "%s", shuffle_name(f->file_shuffle, f->sample_shuffle));
	r = sb_ml_rule_add(rep, SB_TRAIN_OPT(shuffle)->name, sh, SB_ML_INVALID,
		     "%s's DLIO config shuffles %s: set shuffle=%s (or remove shuffle=)", w->name, e,
		     w->file_shuffle ? (w->sample_shuffle ? "both" : "file") :
		     w->sample_shuffle ? "sample" : "none");
	sb_ml_rule_set(r, e, a);
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:548 (reader.file_shuffle, reader.sample_shuffle); guidelines 10.1");
	/* rules.py check_odirect_supported_model: reader.odirect only for unet3d */
	bool unet = !strcmp(w->name, "unet3d");
	r = sb_ml_rule_add(rep, "odirect", unet || !f->odirect, SB_ML_INVALID,
		     "O_DIRECT reads are allowed for unet3d only: remove direct=1 (buffered=0)");
	sb_ml_rule_set(r, unet ? "on or off" : "off", f->odirect ? "on" : "off");
	sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:583-594 (reader.odirect)");
	/* rules.py check_allowed_params: dataset.num_samples_per_file is an OPEN
	 * override (guidelines 10.2) */
	r = sb_ml_rule_add(rep, SB_TRAIN_OPT(samples_per_file)->name, f->samples_per_file == w->ds.samples_per_file,
		     SB_ML_OPEN, "CLOSED keeps %s's %u samples per file: remove samples_per_file=",
		     w->name, w->ds.samples_per_file);
	SB_ML_RULE_EA(r, "%.0f", w->ds.samples_per_file, "%.0f", f->samples_per_file);
	sb_ml_rule_cite(r, SB_ML_OPEN, "rules.py:526 (dataset.num_samples_per_file); guidelines 10.2");
	/* rules.py check_workflow_parameters: unet3d training with
	 * workflow.checkpoint False is INVALID (the yaml: checkpoint_after_epoch 5) */
	if (w->ckpt_after_epoch) {
		bool on = f->ckpt_every_steps || (f->ckpt_after_epoch && f->ckpt_after_epoch <= f->epochs);
		r = sb_ml_rule_add(rep, "train_checkpoint", on, SB_ML_INVALID,
			     "%s training must write its model checkpoint: set %s=%u (or remove it)",
			     w->name, SB_TRAIN_OPT(checkpoint_after_epoch)->name, w->ckpt_after_epoch);
		snprintf(e, sizeof(e), "on (%s=%u)", SB_TRAIN_OPT(checkpoint_after_epoch)->name, w->ckpt_after_epoch);
		if (f->ckpt_every_steps)
			snprintf(a, sizeof(a), "on (every %u steps)", f->ckpt_every_steps);
		else if (on)
			snprintf(a, sizeof(a), "on (after epoch %u)", f->ckpt_after_epoch);
		else
			snprintf(a, sizeof(a), "off (after epoch %u of %u)", f->ckpt_after_epoch, f->epochs);
		sb_ml_rule_set(r, e, a);
		sb_ml_rule_cite(r, SB_ML_INVALID, "rules.py:557-581 (workflow.checkpoint)");
	}
}

static void ov_add(struct sb_ml_override *ov, size_t max, size_t *n, const char *option,
		   const char *param, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void ov_add(struct sb_ml_override *ov, size_t max, size_t *n, const char *option,
		   const char *param, const char *fmt, ...)
{
	va_list ap;
	if (*n >= max)
		return;
	ov[*n].option = option;
	ov[*n].param = param;
	va_start(ap, fmt);
	vsnprintf(ov[*n].value, sizeof(ov[*n].value), fmt, ap);
	va_end(ap);
	(*n)++;
}

/* Every train option that sets a DLIO parameter and has no rule of its own,
 * against the workload's yaml (parse/catalog.c) or DLIO's default where the
 * yaml says nothing (dlio_benchmark utils/config.py).  Parameter names from
 * dlio_benchmark's utils/config.py LoadConfig. */
size_t sb_ml_train_overrides(const struct sb_jobspec *s, struct sb_ml_override *ov, size_t max)
{
	const struct sb_train_opts *t = sb_train_opts(s);
	const struct sb_train_preset *w = t ? t->train_preset : NULL;
	size_t n = 0;
#define OV(field, param, fmt, v) ov_add(ov, max, &n, SB_TRAIN_OPT(field)->name, param, fmt, v)
	if (!w)
		return 0;
	const char *fmt = sb_option_enum_name(SB_TRAIN_OPT(dataset_format), t->dataset_format);
	if (w->format && fmt && strcmp(fmt, w->format))
		OV(dataset_format, "dataset.format", "%s", fmt);
	if (t->subfolders > 1)
		OV(subfolders, "dataset.num_subfolders_train", "%u", t->subfolders);
	if (t->data_dir)
		OV(data_dir, "dataset.data_folder", "%s", t->data_dir);
	if (t->read_threads != w->read_threads)
		OV(read_threads, "reader.read_threads", "%u", t->read_threads);
	if (t->prefetch != 2)
		OV(prefetch, "reader.prefetch_size", "%u", t->prefetch);
	if (t->ml_seed != SB_TRAIN_SEED_DEFAULT)
		OV(ml_seed, "train.seed", "%llu", (unsigned long long)t->ml_seed);
	if (t->computation_time_stdev_us)
		OV(computation_time_stdev_us, "train.computation_time_stdev", "%g",
		   (double)t->computation_time_stdev_us / 1e6);
	if (t->computation_time_type != SB_CTIME_NORMAL)
		OV(computation_time_type, "train.computation_time.type", "%s",
		   sb_option_enum_name(SB_TRAIN_OPT(computation_time_type), t->computation_time_type));
	if (t->computation_time_min_us)
		OV(computation_time_min_us, "train.computation_time.min", "%g",
		   (double)t->computation_time_min_us / 1e6);
	if (t->computation_time_max_us)
		OV(computation_time_max_us, "train.computation_time.max", "%g",
		   (double)t->computation_time_max_us / 1e6);
	if (t->computation_time_shape != 1.0)
		OV(computation_time_shape, "train.computation_time.shape", "%g", t->computation_time_shape);
	if (t->computation_time_scale_us)
		OV(computation_time_scale_us, "train.computation_time.scale", "%g",
		   (double)t->computation_time_scale_us / 1e6);
	if (t->checkpoint_after_epoch != w->ckpt_after_epoch)
		OV(checkpoint_after_epoch, "checkpoint.checkpoint_after_epoch", "%u",
		   t->checkpoint_after_epoch);
	if (t->epochs_between_checkpoints != (w->epochs_between_ckpt ? w->epochs_between_ckpt : 1))
		OV(epochs_between_checkpoints, "checkpoint.epochs_between_checkpoints", "%u",
		   t->epochs_between_checkpoints);
	if (t->steps_between_checkpoints)
		OV(steps_between_checkpoints, "checkpoint.steps_between_checkpoints", "%u",
		   t->steps_between_checkpoints);
	/* the bytes the checkpoint wrote, train_scale's too: config.yaml keeps
	 * the yaml's model_size, so a scaled one is an override (rules.py:548) */
	if (t->model_size != w->model_size)
		OV(model_size, "model.model_size", "%llu", (unsigned long long)t->model_size);
	if (t->do_eval)
		OV(do_eval, "workflow.evaluation", "%s", "True");
	if (t->num_files_eval)
		OV(num_files_eval, "dataset.num_files_eval", "%u", t->num_files_eval);
	if (t->batch_size_eval != 1)
		OV(batch_size_eval, "reader.batch_size_eval", "%u", t->batch_size_eval);
	if (t->eval_time_us)
		OV(eval_time_us, "evaluation.eval_time", "%g", (double)t->eval_time_us / 1e6);
	if (t->eval_time_stdev_us)
		OV(eval_time_stdev_us, "evaluation.eval_time_stdev", "%g", (double)t->eval_time_stdev_us / 1e6);
	if (t->eval_after_epoch != 1)
		OV(eval_after_epoch, "evaluation.eval_after_epoch", "%u", t->eval_after_epoch);
	if (t->epochs_between_evals != 1)
		OV(epochs_between_evals, "evaluation.epochs_between_evals", "%u", t->epochs_between_evals);
	if (!same(t->au_target_pct, w->au_required_pct))
		OV(au_target_pct, "metric.au", "%g", t->au_target_pct / 100);
#undef OV
	return n;
}

void sb_ml_train_facts_of(const struct sb_jobspec *s, uint64_t host_mem_bytes,
			  struct sb_ml_train_facts *f)
{
	static const struct sb_train_opts none;
	const struct sb_train_opts *t = sb_train_opts(s) ? sb_train_opts(s) : &none;
	*f = (struct sb_ml_train_facts){
		.workload = t->train_model,
		.accel = sb_option_enum_name(SB_TRAIN_OPT(accelerator), t->accelerator),
		.files = t->dataset_files, .samples_per_file = t->samples_per_file,
		.record_length = t->record_length, .record_stdev = t->record_length_stdev,
		.batch_size = t->batch_size, .accelerators = t->accelerators,
		.read_threads = t->read_threads, .epochs = t->epochs,
		.file_shuffle = t->shuffle & SB_SHUFFLE_FILE,
		.sample_shuffle = t->shuffle & SB_SHUFFLE_SAMPLE, .odirect = s->direct,
		.ckpt_after_epoch = t->checkpoint_after_epoch,
		.ckpt_every_steps = t->steps_between_checkpoints,
		.computation_time_s = (double)t->computation_time_us / 1e6, .hosts = 1,
		.host_mem_bytes = host_mem_bytes, .au_required_pct = t->au_target_pct,
		.reshuffle = t->read_order == SB_ORDER_RESHUFFLE,
	};
}

/* Each override: the checker's class (rules.py) and the guidelines'. */
static void override_rules(const struct sb_ml_train_facts *f, struct sb_ml_rule_report *rep)
{
	for (size_t i = 0; i < f->nov; i++) {
		const struct sb_ml_override *o = &f->ov[i];
		enum sb_ml_verdict c = sb_ml_override_class(o->param);
		enum sb_ml_verdict g = sb_ml_override_class_guidelines(o->param);
		bool wf = !strncmp(o->param, "workflow", 8);
		struct sb_ml_rule *r = sb_ml_rule_add(rep, o->option, c == SB_ML_CLOSED && g == SB_ML_CLOSED, g,
				     c == SB_ML_INVALID ? "Disallowed parameter override: %s = %s: remove %s=" :
				     c == SB_ML_OPEN ? "Open parameter override allowed: %s = %s: remove %s= for CLOSED" :
				     "%s = %s is not in the guidelines' Table 2: remove %s=",
				     o->param, o->value, o->option);
		snprintf(r->expected, sizeof(r->expected), "%s as in the yaml", o->param);
		snprintf(r->actual, sizeof(r->actual), "%s=%s", o->param, o->value);
		sb_ml_rule_cite(r, c, wf ? "rules.py:530; guidelines 10.1" :
			  c == SB_ML_CLOSED ? "rules.py:522" : c == SB_ML_OPEN ? "rules.py:526; guidelines 10.2" :
			  "rules.py:548; guidelines 10.1");
	}
}

int sb_ml_rules_train(const struct sb_ml_train_facts *f, struct sb_ml_rule_report *rep)
{
	struct sb_ml_workload w;
	bool named = f->workload && *f->workload;
	double want_ct = 0, au_req = f->au_required_pct;
	struct sb_ml_rule *r;

	memset(rep, 0, sizeof(*rep));
	if (!f->batch_size || !f->accelerators || !(f->record_length > 0) || !f->samples_per_file)
		return -EINVAL;
	if (named) {
		if (sb_ml_workload_find(f->workload, &w))
			return -EINVAL;
		want_ct = f->accel && !strcmp(f->accel, "a100") ? w.compute_a100_s : w.compute_h100_s;
		if (!(au_req > 0))
			au_req = w.au_required_pct;
	}
	/* guidelines 10.2: the workload (its .yaml) cannot be changed; a shape of
	 * one's own is at best OPEN */
	r = sb_ml_rule_add(rep, SB_OPT(workload)->name, named, SB_ML_OPEN,
		     "CLOSED runs one of unet3d, resnet50, cosmoflow: set train_model=");
	sb_ml_rule_set(r, "unet3d|resnet50|cosmoflow", named ? f->workload : "custom");
	sb_ml_rule_cite(r, SB_ML_OPEN, "config.py MODELS; guidelines 10.2");
	train_dataset_rules(f, rep);
	if (named)
		train_workload_rules(f, &w, want_ct, rep);
	override_rules(f, rep);
	sb_ml_rule_dlio(rep, SB_TRAIN_OPT(read_order), f->reshuffle, "dlio", "reshuffle");
	sb_ml_rule_io(f->io_known, f->nodiskio, f->io_bytes, rep);
	/* guidelines section 4 and Table 1 (not in the checker): AU >= the
	 * workload's minimum, else the run does not pass */
	if (f->au_measured && au_req > 0) {
		r = sb_ml_rule_add(rep, "au", f->au_pct >= au_req, SB_ML_INVALID,
			     "the storage did not keep the accelerators busy: fewer accelerators, "
			     "more read_threads or faster storage");
		SB_ML_RULE_EA(r, ">= %.1f%%", au_req, "%.2f%%", f->au_pct);
		sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 4, Table 1 (no check in rules.py)");
	}
	sb_ml_rules_finish(rep);
	return 0;
}

