/* ml/rules.c: MLPerf Storage rule checks and the CLOSED/OPEN/INVALID verdict
 * for train and checkpoint runs, as mlcommons/storage's checker
 * (mlpstorage/rules.py) and submission guidelines state them (sources per
 * rule below and in ml_rules.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ml/model.h"
#include "ml/rules.h"
#include "ml/train/train.h"
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
	double file = (double)samples_per_file * record_length;
	return file > 0 ? (uint64_t)floor(SB_ML_MEM_MULTIPLIER * (double)hosts * (double)host_mem_bytes / file) : 0;
}

/* min_num_files_by_samples = 500 * num_processes * batch_size // num_samples_per_file */
uint64_t sb_ml_min_files_by_steps(unsigned batch, unsigned accelerators, unsigned samples_per_file)
{
	uint64_t samples = (uint64_t)SB_ML_MIN_STEPS * accelerators * batch;
	return samples_per_file ? samples / samples_per_file : samples;
}

/* Appends a rule; the fix is only kept when the rule failed. */
static struct sb_ml_rule *add_rule(struct sb_ml_rule_report *rep, const char *name, bool pass,
				   enum sb_ml_verdict fail_as, const char *fix_fmt, ...)
	__attribute__((format(printf, 5, 6)));

static struct sb_ml_rule *add_rule(struct sb_ml_rule_report *rep, const char *name, bool pass,
				   enum sb_ml_verdict fail_as, const char *fix_fmt, ...)
{
	struct sb_ml_rule *r = &rep->rules[rep->n < SB_ML_RULES_MAX ? rep->n++ : SB_ML_RULES_MAX - 1];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->pass = pass;
	r->fail_as = fail_as;
	if (!pass) {
		va_list ap;
		va_start(ap, fix_fmt);
		vsnprintf(r->fix, sizeof(r->fix), fix_fmt, ap);
		va_end(ap);
		if (fail_as > rep->verdict)
			rep->verdict = fail_as;
	}
	return r;
}

/* Expected and actual values of a rule, formatted from literals. */
#define set_ea(r, fmt_e, e, fmt_a, a)                                              \
	do {                                                                       \
		snprintf((r)->expected, sizeof((r)->expected), fmt_e, (double)(e)); \
		snprintf((r)->actual, sizeof((r)->actual), fmt_a, (double)(a));     \
	} while (0)

static void set_str(struct sb_ml_rule *r, const char *expected, const char *actual)
{
	snprintf(r->expected, sizeof(r->expected), "%s", expected);
	snprintf(r->actual, sizeof(r->actual), "%s", actual);
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

	r = add_rule(rep, "dataset_size", f->files >= by_mem, SB_ML_INVALID,
		     "the dataset must be at least %ux the memory of the %u client host(s) "
		     "(%.2f GiB): set dataset_files=%llu or more", SB_ML_MEM_MULTIPLIER, f->hosts,
		     SB_ML_MEM_MULTIPLIER * f->hosts * (double)f->host_mem_bytes / GIB,
		     (unsigned long long)need);
	set_ea(r, ">= %.0f files", by_mem, "%.0f files", f->files);
	r = add_rule(rep, "steps_per_epoch", f->files >= by_steps, SB_ML_INVALID,
		     "each epoch needs %u steps of batch_size=%u on %u accelerator(s): "
		     "set dataset_files=%llu or more", SB_ML_MIN_STEPS, f->batch_size, f->accelerators,
		     (unsigned long long)need);
	set_ea(r, ">= %.0f files", by_steps, "%.0f files", f->files);
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
	r = add_rule(rep, SB_OPT(batch_size)->name, f->batch_size == w->batch_size, SB_ML_INVALID,
		     "%s uses batch_size=%u: set it back", w->name, w->batch_size);
	set_ea(r, "%.0f", w->batch_size, "%.0f", f->batch_size);
	r = add_rule(rep, SB_OPT(computation_time_us)->name, same(f->computation_time_s, want_ct),
		     SB_ML_INVALID, "%s on %s computes %gs per step: remove computation_time= (and "
		     "train_scale=) or set accelerator= to the one whose time you mean", w->name,
		     accel, want_ct);
	set_ea(r, "%g s", want_ct, "%g s", f->computation_time_s);
	snprintf(r->expected + strlen(r->expected), sizeof(r->expected) - strlen(r->expected),
		 " (%s)", accel);
	r = add_rule(rep, SB_OPT(record_length)->name, same(f->record_length, w->ds.record_length),
		     SB_ML_INVALID, "%s records are %.2f bytes: remove record_length= and train_scale=",
		     w->name, w->ds.record_length);
	set_ea(r, "%.2f", w->ds.record_length, "%.2f", f->record_length);
	r = add_rule(rep, SB_OPT(record_length_stdev)->name, same(f->record_stdev, w->ds.record_stdev),
		     SB_ML_INVALID, "%s records vary by %.0f bytes: remove record_length_stdev= and "
		     "train_scale=", w->name, w->ds.record_stdev);
	set_ea(r, "%.2f", w->ds.record_stdev, "%.2f", f->record_stdev);
	/* rules.py check_num_epochs is a stub; train.epochs is not an allowed override */
	r = add_rule(rep, SB_OPT(epochs)->name, f->epochs == w->epochs, SB_ML_INVALID,
		     "%s trains %u epochs: set epochs=%u", w->name, w->epochs, w->epochs);
	set_ea(r, "%.0f", w->epochs, "%.0f", f->epochs);
	/* reader.file_shuffle / sample_shuffle are not allowed overrides */
	bool sh = f->file_shuffle == w->file_shuffle && f->sample_shuffle == w->sample_shuffle;
	snprintf(e, sizeof(e), "%s", shuffle_name(w->file_shuffle, w->sample_shuffle));
	snprintf(a, sizeof(a), "%s", shuffle_name(f->file_shuffle, f->sample_shuffle));
	r = add_rule(rep, SB_OPT(shuffle)->name, sh, SB_ML_INVALID,
		     "%s's DLIO config shuffles %s: set shuffle=%s (or remove shuffle=)", w->name, e,
		     w->file_shuffle ? (w->sample_shuffle ? "both" : "file") :
		     w->sample_shuffle ? "sample" : "none");
	set_str(r, e, a);
	/* rules.py check_odirect_supported_model: reader.odirect only for unet3d */
	bool unet = !strcmp(w->name, "unet3d");
	r = add_rule(rep, "odirect", unet || !f->odirect, SB_ML_INVALID,
		     "O_DIRECT reads are allowed for unet3d only: remove direct=1 (buffered=0)");
	set_str(r, unet ? "on or off" : "off", f->odirect ? "on" : "off");
	/* rules.py check_allowed_params: dataset.num_samples_per_file is an OPEN
	 * override (guidelines 10.2) */
	r = add_rule(rep, SB_OPT(samples_per_file)->name, f->samples_per_file == w->ds.samples_per_file,
		     SB_ML_OPEN, "CLOSED keeps %s's %u samples per file: remove samples_per_file=",
		     w->name, w->ds.samples_per_file);
	set_ea(r, "%.0f", w->ds.samples_per_file, "%.0f", f->samples_per_file);
	/* rules.py check_workflow_parameters: unet3d training with
	 * workflow.checkpoint False is INVALID (the yaml: checkpoint_after_epoch 5) */
	if (w->ckpt_after_epoch) {
		bool on = f->ckpt_every_steps || (f->ckpt_after_epoch && f->ckpt_after_epoch <= f->epochs);
		r = add_rule(rep, "train_checkpoint", on, SB_ML_INVALID,
			     "%s training must write its model checkpoint: set %s=%u (or remove it)",
			     w->name, SB_OPT(checkpoint_after_epoch)->name, w->ckpt_after_epoch);
		snprintf(e, sizeof(e), "on (%s=%u)", SB_OPT(checkpoint_after_epoch)->name, w->ckpt_after_epoch);
		if (f->ckpt_every_steps)
			snprintf(a, sizeof(a), "on (every %u steps)", f->ckpt_every_steps);
		else if (on)
			snprintf(a, sizeof(a), "on (after epoch %u)", f->ckpt_after_epoch);
		else
			snprintf(a, sizeof(a), "off (after epoch %u of %u)", f->ckpt_after_epoch, f->epochs);
		set_str(r, e, a);
	}
}

void sb_ml_train_facts_of(const struct sb_jobspec *s, uint64_t host_mem_bytes,
			  struct sb_ml_train_facts *f)
{
	*f = (struct sb_ml_train_facts){
		.workload = s->train_model,
		.accel = sb_option_enum_name(SB_OPT(accelerator), s->accelerator),
		.files = s->dataset_files, .samples_per_file = s->samples_per_file,
		.record_length = s->record_length, .record_stdev = s->record_length_stdev,
		.batch_size = s->batch_size, .accelerators = s->accelerators,
		.read_threads = s->read_threads, .epochs = s->epochs,
		.file_shuffle = s->shuffle & SB_SHUFFLE_FILE,
		.sample_shuffle = s->shuffle & SB_SHUFFLE_SAMPLE, .odirect = s->direct,
		.ckpt_after_epoch = s->checkpoint_after_epoch,
		.ckpt_every_steps = s->steps_between_checkpoints,
		.computation_time_s = (double)s->computation_time_us / 1e6, .hosts = 1,
		.host_mem_bytes = host_mem_bytes, .au_required_pct = s->au_target_pct,
	};
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
	r = add_rule(rep, SB_OPT(workload)->name, named, SB_ML_OPEN,
		     "CLOSED runs one of unet3d, resnet50, cosmoflow: set train_model=");
	set_str(r, "unet3d|resnet50|cosmoflow", named ? f->workload : "custom");
	train_dataset_rules(f, rep);
	if (named)
		train_workload_rules(f, &w, want_ct, rep);
	/* guidelines section 4 and Table 1 (not in the checker): AU >= the
	 * workload's minimum, else the run does not pass */
	if (f->au_measured && au_req > 0) {
		r = add_rule(rep, "au", f->au_pct >= au_req, SB_ML_INVALID,
			     "the storage did not keep the accelerators busy: fewer accelerators, "
			     "more read_threads or faster storage");
		set_ea(r, ">= %.1f%%", au_req, "%.2f%%", f->au_pct);
	}
	return 0;
}

/* guidelines 2.2.2 / 2.2.5 and config.py LLM_ALLOWED_VALUES ("CLOSED in
 * [8 || TP*PP*DP], OPEN allows a multiple of TP*PP"): the table's rank count,
 * or subset mode with 8 processes of the table's shape (each writes
 * num_gpus/(TP*PP*DP) of the checkpoint); any other count is OPEN. */
static void ckpt_ranks_rule(const struct sb_ml_ckpt_facts *f, unsigned closed,
			    struct sb_ml_rule_report *rep)
{
	bool ok = f->subset ? f->ranks == SB_ML_SUBSET_PROCS && f->world == closed : f->ranks == closed;
	struct sb_ml_rule *r;
	if (f->subset)
		r = add_rule(rep, SB_OPT(ranks)->name, ok, SB_ML_OPEN,
			     "CLOSED subset mode runs %u processes of the table's tp*pp*dp=%u: set "
			     "ranks=%u and keep dp= (or run all %u ranks without subset)",
			     SB_ML_SUBSET_PROCS, closed, SB_ML_SUBSET_PROCS, closed);
	else
		r = add_rule(rep, SB_OPT(ranks)->name, ok, SB_ML_OPEN,
			     "CLOSED runs exactly %u ranks (tp*pp*dp of the table), or subset with "
			     "%u: set ranks=%u and the model's dp", closed, SB_ML_SUBSET_PROCS, closed);
	snprintf(r->expected, sizeof(r->expected), "%u, or %u with subset", closed, SB_ML_SUBSET_PROCS);
	if (f->subset)
		snprintf(r->actual, sizeof(r->actual), "%u (subset of %u)", f->ranks, f->world);
	else
		snprintf(r->actual, sizeof(r->actual), "%u", f->ranks);
}

/* guidelines 2.2.5 Table 3: num-checkpoints-write and -read are 10, not
 * changeable in CLOSED nor OPEN, except that a write-only run (reads 0) and a
 * read-only run (writes 0) are the procedure of 2.2.2. */
static void ckpt_count_rules(const struct sb_ml_ckpt_facts *f, struct sb_ml_rule_report *rep)
{
	const unsigned n = SB_ML_CKPT_COUNT;
	bool w_only = f->want_reads == 0, r_only = f->want_writes == 0;
	struct sb_ml_rule *r;
	r = add_rule(rep, "checkpoints_written", r_only ? f->writes == 0 : f->writes == n, SB_ML_INVALID,
		     "MLPerf writes exactly %u checkpoints (or none in a read-only run): set "
		     "num_checkpoints_write=%u", n, n);
	snprintf(r->expected, sizeof(r->expected), r_only ? "0 (read-only run)" : "%u", n);
	snprintf(r->actual, sizeof(r->actual), "%u", f->writes);
	r = add_rule(rep, "checkpoints_read", w_only ? f->reads == 0 : f->reads == n, SB_ML_INVALID,
		     "MLPerf reads exactly %u checkpoints (or none in a write-only run): set "
		     "num_checkpoints_read=%u", n, n);
	snprintf(r->expected, sizeof(r->expected), w_only ? "0 (write-only run)" : "%u", n);
	snprintf(r->actual, sizeof(r->actual), "%u", f->reads);
}

int sb_ml_rules_ckpt(const struct sb_ml_ckpt_facts *f, struct sb_ml_rule_report *rep)
{
	struct sb_ml_shape s;
	bool named = f->model && *f->model;
	unsigned closed = f->world;
	struct sb_ml_rule *r;

	memset(rep, 0, sizeof(*rep));
	if (named) {
		if (sb_ml_model_find(f->model, &s))
			return -EINVAL;
		closed = s.closed_ranks;
	}
	/* cli.py validate_args: LLM_MODELS only; a shape of one's own is OPEN */
	r = add_rule(rep, SB_OPT(ml_model)->name, named, SB_ML_OPEN,
		     "CLOSED runs llama3-8b, llama3-70b, llama3-405b or llama3-1t: set model=");
	set_str(r, "llama3-8b|70b|405b|1t", named ? f->model : "custom shape");
	ckpt_ranks_rule(f, closed, rep);
	ckpt_count_rules(f, rep);
	/* guidelines 2.2.2 "We enforce fsync"; the yaml's checkpoint.fsync: True */
	r = add_rule(rep, SB_OPT(fsync)->name, f->fsync || !f->want_writes, SB_ML_INVALID,
		     "every checkpoint file must reach stable storage: set checkpoint_fsync=1");
	set_str(r, f->want_writes ? "on" : "on (no writes)", f->fsync ? "on" : "off");
	/* guidelines 2.2.2: write, clear the cache, then read */
	r = add_rule(rep, "caches_dropped", f->caches_dropped || !f->reads, SB_ML_INVALID,
		     "reads may have come from memory: set drop_caches=1, run as root, and keep "
		     "checkpoint_folder off tmpfs");
	set_str(r, f->reads ? "yes" : "yes (no reads)", f->caches_dropped ? "yes" : "no");
	r = add_rule(rep, SB_OPT(checkpoint_scale)->name, f->scale == 1.0, SB_ML_INVALID,
		     "scaled files are not the model's checkpoint: set checkpoint_scale=1");
	set_ea(r, "%g", 1.0, "%g", f->scale);
	return 0;
}
