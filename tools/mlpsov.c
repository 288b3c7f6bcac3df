/* tools/mlpsov.c: a run folder's dlio_config/overrides.yaml (hydra's record
 * of the DLIO command line: "- ++workload.<param>=<value>" per override,
 * tools/mlpsfiles.c writes it, mlpstorage's dlio.py:94-110 makes it) read
 * into the overrides ml/rules.c judges, so `storbench validate` classes a
 * tree's overrides by the same table as a live job (sb_ml_train_overrides).
 * rules.py:413-416 reads the file the same way: every line whose key
 * starts with "++workload." is an override, split at its '='. */
#include "tools/mlpsread.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ml/train/opts.h"
#include "os/infile.h"
#include "parse/jobspec.h"
#include "parse/options.h"

#define PREFIX "++workload."

/* DLIO parameters that storbench judges by a rule of their own (the rule's
 * name), from the value the metadata records (ml/rules.c), so a live job
 * lists no override for them either. */
static const struct {
	const char *param, *rule;
} own_rule[] = {
	{ "dataset.num_files_train", "dataset_size" },
	{ "dataset.num_samples_per_file", "samples_per_file" },
	{ "dataset.record_length_bytes", "record_length" },
	{ "dataset.record_length_bytes_stdev", "record_length_stdev" },
	{ "reader.batch_size", "batch_size" },
	{ "reader.file_shuffle", "shuffle" },
	{ "reader.sample_shuffle", "shuffle" },
	{ "reader.odirect", "odirect" },
	{ "train.epochs", "epochs" },
	{ "train.computation_time", "computation_time" },
};

static const char *own_rule_of(const char *param)
{
	for (size_t i = 0; i < sizeof(own_rule) / sizeof(own_rule[0]); i++)
		if (!strcmp(own_rule[i].param, param))
			return own_rule[i].rule;
	return NULL;
}

/* the job option that sets each parameter (ml/rules.c sb_ml_train_overrides):
 * its field in train's options struct, whose row names it */
static const struct {
	const char *param;
	size_t off;
} opt_of[] = {
#define P(param, field) { param, offsetof(struct sb_train_opts, field) }
	P("dataset.format", dataset_format),
	P("dataset.num_subfolders_train", subfolders),
	P("dataset.data_folder", data_dir),
	P("reader.read_threads", read_threads),
	P("reader.prefetch_size", prefetch),
	P("train.seed", ml_seed),
	P("train.computation_time_stdev", computation_time_stdev_us),
	P("train.computation_time.type", computation_time_type),
	P("train.computation_time.min", computation_time_min_us),
	P("train.computation_time.max", computation_time_max_us),
	P("train.computation_time.shape", computation_time_shape),
	P("train.computation_time.scale", computation_time_scale_us),
	P("checkpoint.checkpoint_after_epoch", checkpoint_after_epoch),
	P("checkpoint.epochs_between_checkpoints", epochs_between_checkpoints),
	P("checkpoint.steps_between_checkpoints", steps_between_checkpoints),
	P("model.model_size", model_size),
	P("workflow.evaluation", do_eval),
	P("dataset.num_files_eval", num_files_eval),
	P("reader.batch_size_eval", batch_size_eval),
	P("evaluation.eval_time", eval_time_us),
	P("evaluation.eval_time_stdev", eval_time_stdev_us),
	P("evaluation.eval_after_epoch", eval_after_epoch),
	P("evaluation.epochs_between_evals", epochs_between_evals),
	P("metric.au", au_target_pct),
#undef P
};

/* the option name a fix names: storbench's option (the own rule's name),
 * else the parameter */
static const char *option_name(const char *param)
{
	if (own_rule_of(param))
		return own_rule_of(param);
	for (size_t i = 0; i < sizeof(opt_of) / sizeof(opt_of[0]); i++)
		if (!strcmp(opt_of[i].param, param)) {
			const struct sb_option *o = sb_train_opt(opt_of[i].off);
			return o ? o->name : param;
		}
	return param;
}

/* one line: "- ++workload.<param>=<value>" (YAML list item, optionally
 * quoted); 1 with param/value filled, 0 for any other line */
static int parse_line(char *line, char **param, char **value)
{
	char *p = line + strspn(line, " \t");
	size_t n;
	if (*p != '-')
		return 0;
	p += 1 + strspn(p + 1, " \t");
	n = strcspn(p, "\r\n");
	p[n] = '\0';
	if (n >= 2 && (*p == '\'' || *p == '"') && p[n - 1] == *p) {
		p[n - 1] = '\0';
		p++;
	}
	if (strncmp(p, PREFIX, strlen(PREFIX)))
		return 0;
	p += strlen(PREFIX);
	char *eq = strchr(p, '=');
	if (!eq || eq == p)
		return 0;
	*eq = '\0';
	*param = p;
	*value = eq + 1;
	return 1;
}

int sb_mlps_read_overrides(const char *dir, struct sb_mlps_overrides *out)
{
	char path[4096], line[512];
	FILE *f;
	out->n = out->nown = 0;
	snprintf(path, sizeof(path), "%s/dlio_config/overrides.yaml", dir);
	/* through the one reader: a regular file, not a symlink (os/infile.h) */
	if (!(f = sb_in_fopen(path, &sb_in_tree, SB_IN_NOFOLLOW, NULL, 0)))
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		char *param, *value;
		if (!parse_line(line, &param, &value))
			continue;
		if (out->n + out->nown == SB_ML_OVERRIDES_MAX)
			break;
		/* the judged ones first, those with a rule of their own from the end */
		size_t i = own_rule_of(param) ? SB_ML_OVERRIDES_MAX - ++out->nown : out->n++;
		snprintf(out->param[i], sizeof(out->param[i]), "%s", param);
		out->ov[i].param = out->param[i];
		out->ov[i].option = option_name(out->param[i]); /* not param: line is reused */
		snprintf(out->ov[i].value, sizeof(out->ov[i].value), "%s", value);
	}
	fclose(f);
	return 0;
}

size_t sb_mlps_restated_overrides(struct sb_mlps_overrides *o, const struct sb_ml_rule_report *rep)
{
	size_t added = 0;
	for (size_t k = SB_ML_OVERRIDES_MAX - o->nown; k < SB_ML_OVERRIDES_MAX; k++) {
		const struct sb_ml_rule *r = sb_ml_rule_get(rep, own_rule_of(o->ov[k].param));
		if (sb_ml_override_class(o->ov[k].param) == SB_ML_CLOSED || !r || !r->pass)
			continue;
		o->ov[o->n++] = o->ov[k]; /* o->n <= k: the two ends never cross */
		added++;
	}
	return added;
}
