/* ml_rules.c: MLPerf Storage rule checks and the CLOSED/OPEN/INVALID verdict
 * for train and checkpoint runs (classes explained in ml_rules.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ml/model.h"
#include "ml/rules.h"
#include "ml/train.h"
#include "parse/options.h"

#define GIB 1073741824.0
#define MIN_STEPS 500u
#define MAX_READ_THREADS 32u
#define CKPT_MIN_WRITES 10u
#define CKPT_MIN_READS 10u

uint64_t sb_ml_min_samples(unsigned batch, unsigned accelerators, unsigned hosts,
			   uint64_t host_mem_bytes, double record_length)
{
	uint64_t by_steps = (uint64_t)MIN_STEPS * batch * accelerators;
	double by_mem = record_length > 0 ? ceil((double)hosts * (double)host_mem_bytes * 5.0 / record_length) : 0;
	return by_mem > (double)by_steps ? (uint64_t)by_mem : by_steps;
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

static bool same(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

static void train_dataset_rules(const struct sb_ml_train_facts *f, struct sb_ml_rule_report *rep)
{
	uint64_t samples = (uint64_t)f->files * f->samples_per_file;
	uint64_t need = sb_ml_min_samples(f->batch_size, f->accelerators, f->hosts,
					  f->host_mem_bytes, f->record_length);
	uint64_t need_files = (need + f->samples_per_file - 1) / f->samples_per_file;
	double mem5 = 5.0 * f->hosts * (double)f->host_mem_bytes;
	double bytes = (double)samples * f->record_length;
	size_t steps = sb_ml_steps_per_epoch(f->files, f->samples_per_file, f->batch_size,
					     f->accelerators);
	struct sb_ml_rule *r;

	r = add_rule(rep, "dataset_size", bytes >= mem5, SB_ML_INVALID,
		     "the dataset must be at least 5x the memory of the %u client host(s): "
		     "set dataset_files=%llu or more", f->hosts, (unsigned long long)need_files);
	set_ea(r, ">= %.2f GiB", mem5 / GIB, "%.2f GiB", bytes / GIB);
	r = add_rule(rep, "steps_per_epoch", steps >= MIN_STEPS, SB_ML_INVALID,
		     "each epoch needs %u steps of batch_size=%u on %u accelerator(s): "
		     "set dataset_files=%llu or more", MIN_STEPS, f->batch_size, f->accelerators,
		     (unsigned long long)need_files);
	set_ea(r, ">= %.0f", MIN_STEPS, "%.0f", (double)steps);
	r = add_rule(rep, SB_OPT(read_threads)->name, f->read_threads <= MAX_READ_THREADS, SB_ML_OPEN,
		     "CLOSED allows at most %u reader threads: set read_threads=%u", MAX_READ_THREADS,
		     MAX_READ_THREADS);
	set_ea(r, "<= %.0f", MAX_READ_THREADS, "%.0f", f->read_threads);
}

/* The named workload's fixed parameters. */
static void train_workload_rules(const struct sb_ml_train_facts *f, const struct sb_ml_workload *w,
				 double want_ct, struct sb_ml_rule_report *rep)
{
	struct sb_ml_rule *r;
	r = add_rule(rep, SB_OPT(batch_size)->name, f->batch_size == w->batch_size, SB_ML_INVALID,
		     "%s uses batch_size=%u: set it back", w->name, w->batch_size);
	set_ea(r, "%.0f", w->batch_size, "%.0f", f->batch_size);
	r = add_rule(rep, SB_OPT(computation_time_us)->name, same(f->computation_time_s, want_ct), SB_ML_INVALID,
		     "%s on %s computes %gs per step: set computation_time=%g", w->name,
		     f->accel && *f->accel ? f->accel : "h100", want_ct, want_ct);
	set_ea(r, "%g s", want_ct, "%g s", f->computation_time_s);
	r = add_rule(rep, SB_OPT(record_length)->name, same(f->record_length, w->ds.record_length), SB_ML_INVALID,
		     "%s records are %.2f bytes: set record_length back", w->name, w->ds.record_length);
	set_ea(r, "%.2f", w->ds.record_length, "%.2f", f->record_length);
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
	r = add_rule(rep, SB_OPT(workload)->name, named, SB_ML_OPEN,
		     "CLOSED runs one of unet3d, resnet50, cosmoflow: set the workload's name");
	snprintf(r->expected, sizeof(r->expected), "unet3d|resnet50|cosmoflow");
	snprintf(r->actual, sizeof(r->actual), "%s", named ? f->workload : "custom");
	train_dataset_rules(f, rep);
	if (named)
		train_workload_rules(f, &w, want_ct, rep);
	if (f->au_measured && au_req > 0) {
		r = add_rule(rep, "au", f->au_pct >= au_req, SB_ML_INVALID,
			     "the storage did not keep the accelerators busy: fewer accelerators, "
			     "more read_threads or faster storage");
		set_ea(r, ">= %.1f%%", au_req, "%.2f%%", f->au_pct);
	}
	return 0;
}

static void ckpt_ranks_rule(const struct sb_ml_ckpt_facts *f, unsigned closed,
			    struct sb_ml_rule_report *rep)
{
	bool ok = !f->subset && f->ranks == closed;
	struct sb_ml_rule *r;
	if (f->subset)
		r = add_rule(rep, SB_OPT(ranks)->name, ok, SB_ML_OPEN,
			     "subset mode writes %u of %u ranks' files: run ranks=%u without subset "
			     "(e.g. over several hosts) for CLOSED", f->ranks, f->world, closed);
	else
		r = add_rule(rep, SB_OPT(ranks)->name, ok, SB_ML_OPEN,
			     "CLOSED runs exactly %u ranks (tp*pp*dp of the table): set ranks=%u "
			     "and the model's dp", closed, closed);
	set_ea(r, "%.0f", closed, "%.0f", f->ranks);
	if (f->subset)
		snprintf(r->actual, sizeof(r->actual), "%u (subset of %u)", f->ranks, f->world);
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
	r = add_rule(rep, SB_OPT(ml_model)->name, named, SB_ML_OPEN,
		     "CLOSED runs llama3-8b, llama3-70b, llama3-405b or llama3-1t: set model=");
	snprintf(r->expected, sizeof(r->expected), "llama3-8b|70b|405b|1t");
	snprintf(r->actual, sizeof(r->actual), "%s", named ? f->model : "custom shape");
	ckpt_ranks_rule(f, closed, rep);
	r = add_rule(rep, "checkpoints_written", f->writes >= CKPT_MIN_WRITES, SB_ML_INVALID,
		     "set num_checkpoints_write=%u", CKPT_MIN_WRITES);
	set_ea(r, ">= %.0f", CKPT_MIN_WRITES, "%.0f", f->writes);
	r = add_rule(rep, "checkpoints_read", f->reads >= CKPT_MIN_READS, SB_ML_INVALID,
		     "set num_checkpoints_read=%u", CKPT_MIN_READS);
	set_ea(r, ">= %.0f", CKPT_MIN_READS, "%.0f", f->reads);
	r = add_rule(rep, SB_OPT(fsync)->name, f->fsync, SB_ML_INVALID,
		     "every checkpoint file must reach stable storage: set checkpoint_fsync=1");
	snprintf(r->expected, sizeof(r->expected), "on");
	snprintf(r->actual, sizeof(r->actual), "%s", f->fsync ? "on" : "off");
	r = add_rule(rep, "caches_dropped", f->caches_dropped, SB_ML_INVALID,
		     "reads may have come from the page cache: set drop_caches=1 and run with "
		     "permission to write /proc/sys/vm/drop_caches (root)");
	snprintf(r->expected, sizeof(r->expected), "yes");
	snprintf(r->actual, sizeof(r->actual), "%s", f->caches_dropped ? "yes" : "no");
	r = add_rule(rep, SB_OPT(checkpoint_scale)->name, f->scale == 1.0, SB_ML_INVALID,
		     "scaled files are not the model's checkpoint: set checkpoint_scale=1");
	set_ea(r, "%g", 1.0, "%g", f->scale);
	return 0;
}
