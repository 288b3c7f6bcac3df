/* tools/mlpsdlio.c: the DLIO config of a job and the files DLIO leaves in
 * its hydra run folder (see tools/mlpsdlio.h).  Sources, mlcommons/storage
 * caa90c9: configs/dlio/workload/<model>.yaml (the parameters, in file order),
 * mlpstorage/benchmarks/dlio.py:94-118 (the command line: workload=<name>,
 * ++hydra.run.dir, ++hydra.output_subdir=dlio_config, ++workload.<k>=<v>),
 * :153-157 (dataset.data_folder always set), :259-270 (checkpointing:
 * checkpoint.mode=subset and model.parallelism.data below the CLOSED ranks,
 * num_checkpoints_read/_write and checkpoint_folder always set); DLIO
 * (argonne-lcf/dlio_benchmark mlperf_storage_v2.0, 392621b):
 * utils/statscounter.py:227-376 (per-epoch stats, log lines), :445
 * (<rank>_per_epoch_stats.json), utils/utility.py:79 (time format),
 * main.py:114,274-310,380 (log lines), checkpointing/base_checkpointing.py
 * :178-186 (checkpoint sizes). */
#include "tools/mlpsdlio.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/log.h"
#include "ml/result.h"
#include "ml/rules.h"
#include "parse/catalog.h"
#include "parse/jobspec.h"
#include "parse/specvals.h"

#define GIB 1073741824.0

static struct sb_mlps_ent *find(struct sb_mlps_cfg *c, const char *key)
{
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].key, key))
			return &c->e[i];
	return NULL;
}

/* a parameter of the workload yaml */
static void def(struct sb_mlps_cfg *c, const char *key, enum sb_mlps_vt t, const char *val)
{
	if (c->n == sizeof(c->e) / sizeof(c->e[0]))
		return;
	struct sb_mlps_ent *e = &c->e[c->n++];
	snprintf(e->key, sizeof(e->key), "%s", key);
	snprintf(e->val, sizeof(e->val), "%s", val);
	e->type = e->ytype = t;
	e->in_yaml = true;
	snprintf(e->yval, sizeof(e->yval), "%s", val);
}

/* the job's value: an override when it differs from the yaml's (always
 * when force: what mlpstorage sets on every run); cli: from --param */
static void set(struct sb_mlps_cfg *c, const char *key, enum sb_mlps_vt t, const char *val, bool force,
		bool cli)
{
	struct sb_mlps_ent *e = find(c, key);
	if (e && !force) {
		bool same = t == SB_MLPS_STR || t == SB_MLPS_BOOL ? !strcmp(e->val, val)
								 : strtod(e->val, NULL) == strtod(val, NULL);
		if (same)
			return;
	}
	if (!e) {
		if (c->n == sizeof(c->e) / sizeof(c->e[0]))
			return;
		e = &c->e[c->n++];
		snprintf(e->key, sizeof(e->key), "%s", key);
	}
	snprintf(e->val, sizeof(e->val), "%s", val);
	e->type = t;
	e->ov = true;
	e->ov_cli = cli;
	e->ov_order = ++c->nov;
}

static void setu(struct sb_mlps_cfg *c, const char *key, uint64_t v, bool cli)
{
	char b[32];
	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	set(c, key, SB_MLPS_INT, b, false, cli);
}

/* a float as Python's repr would write it (shortest that reads back) */
static void fmt_dbl(char *b, size_t len, double v)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(b, len, "%.*g", p, v);
		if (strtod(b, NULL) == v)
			break;
	}
	if (!strpbrk(b, ".eEn"))
		strncat(b, ".0", len - strlen(b) - 1);
}

static void setd(struct sb_mlps_cfg *c, const char *key, double v, bool cli)
{
	char b[40];
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(b, sizeof(b), "%.0f", v);
	else
		fmt_dbl(b, sizeof(b), v);
	set(c, key, v == floor(v) ? SB_MLPS_INT : SB_MLPS_DBL, b, false, cli);
}

/* configs/dlio/workload/<model>_<accel>.yaml, in file order */
static void train_yaml(struct sb_mlps_cfg *c, const struct sb_train_preset *p, bool a100)
{
	char b[40];
	bool unet = !strcmp(p->name, "unet3d"), resnet = !strcmp(p->name, "resnet50");
	def(c, "model.name", SB_MLPS_STR, p->name);
	if (strcmp(p->name, "cosmoflow"))
		def(c, "model.type", SB_MLPS_STR, "cnn");
	if (unet) {
		snprintf(b, sizeof(b), "%llu", (unsigned long long)p->model_size);
		def(c, "model.model_size", SB_MLPS_INT, b);
	}
	def(c, "framework", SB_MLPS_STR, unet ? "pytorch" : "tensorflow");
	def(c, "workflow.generate_data", SB_MLPS_BOOL, "False");
	def(c, "workflow.train", SB_MLPS_BOOL, "True");
	if (unet)
		def(c, "workflow.checkpoint", SB_MLPS_BOOL, "True");
	snprintf(b, sizeof(b), unet ? "data/%s/" : "data/%s", p->name);
	def(c, "dataset.data_folder", SB_MLPS_STR, b);
	def(c, "dataset.format", SB_MLPS_STR, p->format);
	snprintf(b, sizeof(b), "%u", p->files);
	def(c, "dataset.num_files_train", SB_MLPS_INT, b);
	snprintf(b, sizeof(b), "%u", p->samples_per_file);
	def(c, "dataset.num_samples_per_file", SB_MLPS_INT, b);
	if (p->record_length == floor(p->record_length))
		snprintf(b, sizeof(b), "%.0f", p->record_length);
	else
		fmt_dbl(b, sizeof(b), p->record_length);
	def(c, "dataset.record_length_bytes", p->record_length == floor(p->record_length) ? SB_MLPS_INT
											     : SB_MLPS_DBL, b);
	if (p->record_stdev > 0) {
		snprintf(b, sizeof(b), "%.0f", p->record_stdev);
		def(c, "dataset.record_length_bytes_stdev", SB_MLPS_INT, b);
	}
	if (unet || resnet)
		def(c, "dataset.record_length_bytes_resize", SB_MLPS_INT, unet ? "2097152" : "150528");
	def(c, "reader.data_loader", SB_MLPS_STR, unet ? "pytorch" : "tensorflow");
	snprintf(b, sizeof(b), "%u", p->batch_size);
	def(c, "reader.batch_size", SB_MLPS_INT, b);
	snprintf(b, sizeof(b), "%u", p->read_threads);
	def(c, "reader.read_threads", SB_MLPS_INT, b);
	if (resnet)
		def(c, "reader.computation_threads", SB_MLPS_INT, "8");
	if (p->shuffle & SB_SHUFFLE_FILE)
		def(c, "reader.file_shuffle", SB_MLPS_STR, "seed");
	if (p->shuffle & SB_SHUFFLE_SAMPLE)
		def(c, "reader.sample_shuffle", SB_MLPS_STR, "seed");
	if (!unet && !resnet) {
		def(c, "reader.shuffle_size", SB_MLPS_INT, "2");
		if (a100)
			def(c, "reader.dont_use_mmap", SB_MLPS_BOOL, "True");
	}
	snprintf(b, sizeof(b), "%u", p->epochs);
	def(c, "train.epochs", SB_MLPS_INT, b);
	fmt_dbl(b, sizeof(b), a100 ? p->compute_a100_s : p->compute_h100_s);
	def(c, "train.computation_time", SB_MLPS_DBL, b);
	if (unet) {
		def(c, "checkpoint.checkpoint_folder", SB_MLPS_STR, "checkpoints/unet3d");
		snprintf(b, sizeof(b), "%u", p->ckpt_after_epoch);
		def(c, "checkpoint.checkpoint_after_epoch", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", p->epochs_between_ckpt);
		def(c, "checkpoint.epochs_between_checkpoints", SB_MLPS_INT, b);
	}
	fmt_dbl(b, sizeof(b), p->au_required_pct / 100.0);
	def(c, "metric.au", SB_MLPS_DBL, b);
}

static const char *const dsfmt_names[] = { "raw", "npz", "npy", "hdf5", "tfrecord" };

static void train_cfg(const struct sb_job_result *jr, struct sb_mlps_cfg *c)
{
	const struct sb_jobspec *s = jr->spec;
	const struct sb_ml_result *m = sb_ml_of(jr->wl);
	struct sb_ml_train_facts f;
	const struct sb_train_preset *p = s->train_preset;
	bool a100 = s->accelerator == SB_ACCEL_A100;
	sb_ml_train_facts_of(s, 0, &f);
	if (p) {
		snprintf(c->config_name, sizeof(c->config_name), "%s_%s", p->name, a100 ? "a100" : "h100");
		train_yaml(c, p, a100);
	} else {
		snprintf(c->config_name, sizeof(c->config_name), "custom");
		def(c, "model.name", SB_MLPS_STR, "custom");
		def(c, "workflow.generate_data", SB_MLPS_BOOL, "False");
		def(c, "workflow.train", SB_MLPS_BOOL, "True");
	}
	if (s->dataset_format < sizeof(dsfmt_names) / sizeof(dsfmt_names[0]))
		set(c, "dataset.format", SB_MLPS_STR, dsfmt_names[s->dataset_format], false, true);
	setu(c, "dataset.num_files_train", f.files, true);
	if (s->subfolders)
		setu(c, "dataset.num_subfolders_train", s->subfolders, true);
	setu(c, "dataset.num_samples_per_file", f.samples_per_file, true);
	setd(c, "dataset.record_length_bytes", f.record_length, true);
	if (f.record_stdev > 0 || find(c, "dataset.record_length_bytes_stdev"))
		setd(c, "dataset.record_length_bytes_stdev", f.record_stdev, true);
	setu(c, "reader.batch_size", f.batch_size, true);
	setu(c, "reader.read_threads", f.read_threads, true);
	if (f.odirect)
		set(c, "reader.odirect", SB_MLPS_BOOL, "True", false, true);
	if (f.file_shuffle || find(c, "reader.file_shuffle"))
		set(c, "reader.file_shuffle", SB_MLPS_STR, f.file_shuffle ? "seed" : "off", false, true);
	if (f.sample_shuffle || find(c, "reader.sample_shuffle"))
		set(c, "reader.sample_shuffle", SB_MLPS_STR, f.sample_shuffle ? "seed" : "off", false, true);
	setu(c, "train.epochs", f.epochs, true);
	setd(c, "train.computation_time", f.computation_time_s, true);
	if (s->ml_seed != 123) /* DLIO's default seed (utils/config.py:80) */
		setu(c, "train.seed", s->ml_seed, true);
	if (f.ckpt_after_epoch || find(c, "checkpoint.checkpoint_after_epoch"))
		setu(c, "checkpoint.checkpoint_after_epoch", f.ckpt_after_epoch, true);
	if (f.ckpt_every_steps)
		setu(c, "checkpoint.steps_between_checkpoints", f.ckpt_every_steps, true);
	/* mlpstorage sets the data folder on every run (dlio.py:153-157) */
	set(c, "dataset.data_folder", SB_MLPS_STR, m->train.data_dir, true, false);
}

static void ckpt_cfg(const struct sb_job_result *jr, struct sb_mlps_cfg *c)
{
	const struct sb_jobspec *s = jr->spec;
	const struct sb_ml_ckpt_result *r = &sb_ml_of(jr->wl)->ckpt;
	const struct sb_model_preset *p = s->ml_preset && s->ml_model ? sb_model_preset_find(s->ml_model) : NULL;
	char b[300], name[48];
	if (p) {
		/* llama3-8b -> llama3_8b.yaml, model.name llama_8b */
		snprintf(c->config_name, sizeof(c->config_name), "%s", p->name);
		for (char *q = c->config_name; *q; q++)
			*q = *q == '-' ? '_' : *q;
		snprintf(name, sizeof(name), "llama_%s", strchr(p->name, '-') + 1);
		def(c, "model.name", SB_MLPS_STR, name);
		def(c, "model.type", SB_MLPS_STR, "transformer");
		snprintf(b, sizeof(b), "%u", p->layers);
		def(c, "model.num_layers", SB_MLPS_INT, b);
		def(c, "model.model_datatype", SB_MLPS_STR, "fp16");
		def(c, "model.optimizer_datatype", SB_MLPS_STR, "fp32");
		snprintf(b, sizeof(b), "%u", p->pp);
		def(c, "model.parallelism.pipeline", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", p->tp);
		def(c, "model.parallelism.tensor", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", p->zero_stage);
		def(c, "model.parallelism.zero_stage", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", p->vocab);
		def(c, "model.transformer.vocab_size", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", p->hidden);
		def(c, "model.transformer.hidden_size", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", p->ffn);
		def(c, "model.transformer.ffn_hidden_size", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", p->heads);
		def(c, "model.transformer.num_attention_heads", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", p->kv_heads);
		def(c, "model.transformer.num_kv_heads", SB_MLPS_INT, b);
	} else { /* a shape of one's own: no yaml, the job's values */
		snprintf(c->config_name, sizeof(c->config_name), "custom");
		def(c, "model.name", SB_MLPS_STR, "custom");
		def(c, "model.type", SB_MLPS_STR, "transformer");
		snprintf(b, sizeof(b), "%u", s->shape.layers);
		def(c, "model.num_layers", SB_MLPS_INT, b);
		snprintf(b, sizeof(b), "%u", s->shape.zero_stage);
		def(c, "model.parallelism.zero_stage", SB_MLPS_INT, b);
	}
	/* the job's shape where it differs from the yaml's (a --param) */
	setu(c, "model.num_layers", s->shape.layers, true);
	setu(c, "model.parallelism.zero_stage", s->shape.zero_stage, true);
	setu(c, "model.transformer.vocab_size", s->shape.vocab, true);
	setu(c, "model.transformer.hidden_size", s->shape.hidden, true);
	setu(c, "model.transformer.ffn_hidden_size", s->shape.ffn, true);
	setu(c, "model.transformer.num_attention_heads", s->shape.heads, true);
	setu(c, "model.transformer.num_kv_heads", s->shape.kv_heads, true);
	def(c, "framework", SB_MLPS_STR, "pytorch");
	def(c, "workflow.generate_data", SB_MLPS_BOOL, "False");
	def(c, "workflow.train", SB_MLPS_BOOL, "False");
	def(c, "workflow.checkpoint", SB_MLPS_BOOL, "True");
	snprintf(b, sizeof(b), "checkpoints/%s", p ? name : "custom");
	def(c, "checkpoint.checkpoint_folder", SB_MLPS_STR, b);
	def(c, "checkpoint.time_between_checkpoints", SB_MLPS_INT, "5");
	def(c, "checkpoint.num_checkpoints_write", SB_MLPS_INT, "10");
	def(c, "checkpoint.num_checkpoints_read", SB_MLPS_INT, "10");
	def(c, "checkpoint.fsync", SB_MLPS_BOOL, "True");
	setu(c, "model.parallelism.pipeline", s->shape.pp, true);
	setu(c, "model.parallelism.tensor", s->shape.tp, true);
	if (!s->checkpoint_fsync)
		set(c, "checkpoint.fsync", SB_MLPS_BOOL, "False", false, true);
	/* what mlpstorage adds (dlio.py:259-270) */
	if (p && r->ranks < p->closed_ranks) {
		set(c, "checkpoint.mode", SB_MLPS_STR, "subset", true, false);
		snprintf(b, sizeof(b), "%u", p->closed_ranks / (p->tp * p->pp));
		set(c, "model.parallelism.data", SB_MLPS_INT, b, true, false);
	}
	snprintf(b, sizeof(b), "%u", s->num_checkpoints_read);
	set(c, "checkpoint.num_checkpoints_read", SB_MLPS_INT, b, true, false);
	snprintf(b, sizeof(b), "%u", s->num_checkpoints_write);
	set(c, "checkpoint.num_checkpoints_write", SB_MLPS_INT, b, true, false);
	set(c, "checkpoint.checkpoint_folder", SB_MLPS_STR, r->folder, true, false);
}

void sb_mlps_cfg_of(const struct sb_job_result *jr, struct sb_mlps_cfg *c)
{
	memset(c, 0, sizeof(*c));
	if (sb_ml_of(jr->wl)->workload == SB_WL_TRAIN)
		train_cfg(jr, c);
	else
		ckpt_cfg(jr, c);
}

/* ---- JSON (the metadata's yaml_params, params_dict, combined_params) */

static void json_val(struct sb_jw *w, const char *key, const struct sb_mlps_ent *e, bool as_str)
{
	if (as_str || e->type == SB_MLPS_STR)
		sb_jw_str(w, key, e->val);
	else if (e->type == SB_MLPS_BOOL)
		sb_jw_bool(w, key, !strcmp(e->val, "True"));
	else if (e->type == SB_MLPS_INT)
		sb_jw_i64(w, key, strtoll(e->val, NULL, 10));
	else
		sb_jw_dbl(w, key, strtod(e->val, NULL));
}

/* nested objects from dotted keys; entries of one section are adjacent
 * except for appended overrides, so each top-level section is gathered */
static void json_level(struct sb_jw *w, const struct sb_mlps_cfg *c, int which, const char *prefix)
{
	size_t pl = strlen(prefix);
	char done[64][48];
	unsigned nd = 0;
	for (unsigned i = 0; i < c->n; i++) {
		const struct sb_mlps_ent *e = &c->e[i];
		if ((which == 0 && !e->in_yaml) || strncmp(e->key, prefix, pl))
			continue;
		const char *rest = e->key + pl, *dot = strchr(rest, '.');
		if (!dot) {
			struct sb_mlps_ent y = *e;
			if (which == 0) {
				snprintf(y.val, sizeof(y.val), "%s", e->yval);
				y.type = e->ytype;
			}
			json_val(w, rest, &y, which == 2 && e->ov && e->ov_cli);
			continue;
		}
		char sect[48];
		snprintf(sect, sizeof(sect), "%.*s", (int)(dot - rest), rest);
		bool seen = false;
		for (unsigned k = 0; k < nd; k++)
			seen |= !strcmp(done[k], sect);
		if (seen || nd == 64)
			continue;
		snprintf(done[nd++], sizeof(done[0]), "%s", sect);
		char sub[64];
		snprintf(sub, sizeof(sub), "%s%s.", prefix, sect);
		sb_jw_obj_begin(w, sect);
		json_level(w, c, which, sub);
		sb_jw_obj_end(w);
	}
}

void sb_mlps_cfg_json(struct sb_jw *w, const char *key, const struct sb_mlps_cfg *c, int which)
{
	sb_jw_obj_begin(w, key);
	if (which == 1) {
		for (unsigned o = 1; o <= c->nov; o++)
			for (unsigned i = 0; i < c->n; i++)
				if (c->e[i].ov && c->e[i].ov_order == o)
					json_val(w, c->e[i].key, &c->e[i], c->e[i].ov_cli);
	} else {
		json_level(w, c, which, "");
	}
	sb_jw_obj_end(w);
}

/* ---- hydra's dlio_config/ */

/* a string OmegaConf's yaml would quote: YAML 1.1 booleans, null, numbers */
static bool needs_quote(const char *v)
{
	static const char *const words[] = { "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", NULL };
	char *end;
	if (!*v || strchr(v, ':') || strchr(v, '#') || strchr("!&*[]{}|>'\"%@`,- ", *v))
		return true;
	for (int i = 0; words[i]; i++)
		if (!strcasecmp(v, words[i]))
			return true;
	strtod(v, &end);
	return *end == 0;
}

static void yaml_val(FILE *f, const struct sb_mlps_ent *e)
{
	if (e->type == SB_MLPS_BOOL)
		fputs(!strcmp(e->val, "True") ? "true" : "false", f);
	else if (e->type == SB_MLPS_STR && needs_quote(e->val))
		fprintf(f, "'%s'", e->val);
	else
		fputs(e->val, f);
}

static void yaml_level(FILE *f, const struct sb_mlps_cfg *c, const char *prefix, int indent)
{
	size_t pl = strlen(prefix);
	char done[64][48];
	unsigned nd = 0;
	for (unsigned i = 0; i < c->n; i++) {
		const struct sb_mlps_ent *e = &c->e[i];
		if (strncmp(e->key, prefix, pl))
			continue;
		const char *rest = e->key + pl, *dot = strchr(rest, '.');
		if (!dot) {
			fprintf(f, "%*s%s: ", indent, "", rest);
			yaml_val(f, e);
			fputc('\n', f);
			continue;
		}
		char sect[48], sub[64];
		snprintf(sect, sizeof(sect), "%.*s", (int)(dot - rest), rest);
		bool seen = false;
		for (unsigned k = 0; k < nd; k++)
			seen |= !strcmp(done[k], sect);
		if (seen || nd == 64)
			continue;
		snprintf(done[nd++], sizeof(done[0]), "%s", sect);
		fprintf(f, "%*s%s:\n", indent, "", sect);
		snprintf(sub, sizeof(sub), "%s%s.", prefix, sect);
		yaml_level(f, c, sub, indent + 2);
	}
}

/* the task overrides in command-line order: workload=<name>, then
 * ++workload.<key>=<value> (dlio.py:98,106-108) */
static void overrides(FILE *f, const struct sb_mlps_cfg *c, const char *ind)
{
	fprintf(f, "%s- workload=%s\n", ind, c->config_name);
	for (unsigned o = 1; o <= c->nov; o++)
		for (unsigned i = 0; i < c->n; i++)
			if (c->e[i].ov && c->e[i].ov_order == o)
				fprintf(f, "%s- ++workload.%s=%s\n", ind, c->e[i].key, c->e[i].val);
}

static FILE *create(const char *job, const char *dir, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	FILE *f = fopen(path, "wx");
	if (!f)
		sb_err(job, "results_dir: cannot create %s: %s", path, strerror(errno));
	return f;
}

static int finish(const char *job, FILE *f, const char *path)
{
	if (fclose(f)) {
		int e = errno;
		sb_err(job, "results_dir: cannot write %s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

static int write_hydra(const char *job, const char *dir, const struct sb_mlps_cfg *c)
{
	char sub[1200], path[1400];
	int rc = 0;
	FILE *f;
	snprintf(sub, sizeof(sub), "%s/dlio_config", dir);
	if (mkdir(sub, 0755)) {
		int e = errno;
		sb_err(job, "results_dir: cannot create %s: %s", sub, strerror(e));
		return -e;
	}
	if (!(f = create(job, sub, "config.yaml", path, sizeof(path))))
		return -errno;
	fputs("workload:\n", f);
	yaml_level(f, c, "", 2);
	rc = finish(job, f, path);
	if (!rc && !(f = create(job, sub, "overrides.yaml", path, sizeof(path))))
		rc = -errno;
	if (!rc) {
		overrides(f, c, "");
		rc = finish(job, f, path);
	}
	if (!rc && !(f = create(job, sub, "hydra.yaml", path, sizeof(path))))
		rc = -errno;
	if (!rc) {
		fprintf(f, "hydra:\n  run:\n    dir: %s\n  output_subdir: dlio_config\n  overrides:\n"
			"    hydra:\n    - ++hydra.run.dir=%s\n    - ++hydra.output_subdir=dlio_config\n"
			"    task:\n", dir, dir);
		overrides(f, c, "    ");
		fprintf(f, "  job:\n    name: dlio_benchmark\n    chdir: null\n  runtime:\n    choices:\n"
			"      workload: %s\n      hydra/job_logging: disabled\n"
			"      hydra/hydra_logging: disabled\n  verbose: false\n  mode: RUN\n", c->config_name);
		rc = finish(job, f, path);
	}
	return rc;
}

void sb_mlps_dlio_time(char *buf, size_t len, double t)
{
	time_t s = (time_t)floor(t);
	long us = (long)((t - (double)s) * 1e6);
	struct tm tm;
	char b[32];
	localtime_r(&s, &tm);
	strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06ld", b, us < 0 ? 0 : us > 999999 ? 999999 : us);
}

/* ---- 0_per_epoch_stats.json and dlio.log */

struct dlog {
	FILE *f;
	double t;                 /* the clock the lines are stamped with */
	const char *dir;          /* DLIO's output_folder: the hydra run folder */
};

static void out(struct dlog *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(struct dlog *l, const char *fmt, ...)
{
	char ts[40];
	va_list ap;
	sb_mlps_dlio_time(ts, sizeof(ts), l->t);
	fprintf(l->f, "[OUTPUT] %s ", ts);
	va_start(ap, fmt);
	vfprintf(l->f, fmt, ap);
	va_end(ap);
	fputc('\n', l->f);
}

static void span(struct sb_jw *w, const char *key, double a, double b, bool dur_str, double gibps)
{
	char ts[40], d[32];
	sb_jw_obj_begin(w, key);
	sb_mlps_dlio_time(ts, sizeof(ts), a);
	sb_jw_str(w, "start", ts);
	sb_mlps_dlio_time(ts, sizeof(ts), b);
	sb_jw_str(w, "end", ts);
	if (dur_str) { /* '{:.2f}'.format(...) (statscounter.py:262,333) */
		snprintf(d, sizeof(d), "%.2f", b - a);
		sb_jw_str(w, "duration", d);
	} else {
		sb_jw_dbl(w, "duration", b - a);
		sb_jw_dbl(w, "throughput", gibps);
	}
	sb_jw_obj_end(w);
}

static void mean_sd(const double *v, unsigned n, double *m, double *sd)
{
	double a = 0, s = 0;
	for (unsigned i = 0; i < n; i++)
		a += v[i];
	a = n ? a / n : 0;
	for (unsigned i = 0; i < n; i++)
		s += (v[i] - a) * (v[i] - a);
	*m = a;
	*sd = n ? sqrt(s / n) : 0;
}

static void train_files(const struct sb_job_result *jr, struct sb_jw *w, struct dlog *l,
			const struct sb_mlps_cfg *c)
{
	const struct sb_ml_train_result *t = &sb_ml_of(jr->wl)->train;
	const struct sb_jobspec *s = jr->spec;
	unsigned n = t->accelerators ? t->accelerators : s->accelerators;
	double ckgib = 0, au[256], sps[256];
	unsigned ne = t->nepochs < 256 ? t->nepochs : 256;
	out(l, "Running DLIO [Training%s] with %u process(es)", t->nckpts ? " & Checkpointing" : "", n);
	out(l, "Reading workload YAML config file 'configs/dlio/workload/%s.yaml'", c->config_name);
	out(l, "Max steps per epoch: %zu = %u * %u / %u / %u (samples per file * num files / batch size / comm size)",
	    t->steps_per_epoch, s->samples_per_file, s->dataset_files, s->batch_size, n);
	for (unsigned e = 0; e < ne; e++) {
		const struct sb_ml_epoch_result *ep = &t->epochs[e];
		double t0 = l->t, train_end = t0 + ep->duration_s;
		char key[16];
		snprintf(key, sizeof(key), "%u", ep->epoch);
		sb_jw_obj_begin(w, key);
		char ts[40];
		sb_mlps_dlio_time(ts, sizeof(ts), t0);
		sb_jw_str(w, "start", ts);
		out(l, "Starting epoch %u: %zu steps expected", ep->epoch, t->steps_per_epoch);
		out(l, "Starting block 1");
		span(w, "block1", t0, train_end, true, 0);
		l->t = train_end;
		out(l, "Ending block 1 - %zu steps completed in %.2f s", t->steps_per_epoch, ep->duration_s);
		out(l, "Epoch %u - Block 1 [Training] Accelerator Utilization [AU] (%%): %.4f", ep->epoch, ep->au_pct);
		out(l, "Epoch %u - Block 1 [Training] Throughput (samples/second): %.4f", ep->epoch, ep->samples_per_s);
		for (unsigned k = 0; k < t->nckpts; k++) {
			const struct sb_ml_train_ckpt *ck = &t->ckpts[k];
			if (ck->epoch != ep->epoch)
				continue;
			double gib = (double)ck->bytes / GIB, d = ck->duration_s;
			ckgib = gib;
			out(l, "Starting saving checkpoint 1 after total step %llu for epoch %u",
			    (unsigned long long)ck->step, ep->epoch);
			span(w, "save_ckpt1", l->t, l->t + d, false, d > 0 ? gib / d : 0);
			l->t += d;
			out(l, "Finished saving checkpoint 1 for epoch %u in %.4f s; Throughput: %.4f GB/s", ep->epoch, d,
			    d > 0 ? gib / d : 0);
		}
		sb_mlps_dlio_time(ts, sizeof(ts), l->t);
		sb_jw_str(w, "end", ts);
		char d[32];
		snprintf(d, sizeof(d), "%.2f", l->t - t0);
		sb_jw_str(w, "duration", d);
		sb_jw_obj_end(w);
		out(l, "Ending epoch %u - %zu steps completed in %s s", ep->epoch, t->steps_per_epoch, d);
		au[e] = ep->au_pct;
		sps[e] = ep->samples_per_s;
	}
	(void)ckgib;
	double am, asd, sm, ssd;
	mean_sd(au, ne, &am, &asd);
	mean_sd(sps, ne, &sm, &ssd);
	out(l, "Saved outputs in %s", l->dir);
	fprintf(l->f, "[OUTPUT] Averaged metric over all steps/epochs\n[METRIC] ==========================================================\n"
		"[METRIC] Number of Simulated Accelerators: %u \n"
		"[METRIC] Training Accelerator Utilization [AU] (%%): %.4f (%.4f)\n"
		"[METRIC] Training Throughput (samples/second): %.4f (%.4f)\n"
		"[METRIC] Training I/O Throughput (MB/second): %.4f (%.4f)\n"
		"[METRIC] train_au_meet_expectation: %s\n"
		"[METRIC] ==========================================================\n\n",
		n, am, asd, sm, ssd, sm * s->record_length / 1048576.0, ssd * s->record_length / 1048576.0,
		am >= t->au_target_pct ? "success" : "fail");
}

static void ckpt_phase(struct sb_jw *w, struct dlog *l, const struct sb_ml_ckpt_phase *p, bool save,
		       double gib, double *m, double *sd, double *dm, double *dsd)
{
	double v[1024], d[1024];
	unsigned n = p->n < 1024 ? p->n : 1024;
	out(l, "Checkpointing %s started", save ? "write" : "read");
	for (unsigned i = 0; i < n; i++) {
		char key[32];
		double du = p->v[i].duration_s, tp = du > 0 ? gib / du : 0;
		out(l, "Starting %s checkpoint %u after total step %u for epoch 1", save ? "saving" : "loading", i + 1,
		    i + 1);
		snprintf(key, sizeof(key), "%s_ckpt%u", save ? "save" : "load", i + 1);
		span(w, key, l->t, l->t + du, false, tp);
		l->t += du;
		out(l, "Finished %s checkpoint %u for epoch 1 in %.4f s; Throughput: %.4f GB/s",
		    save ? "saving" : "loading", i + 1, du, tp);
		v[i] = tp;
		d[i] = du;
	}
	/* main.py:310 logs "write started" when the reads end */
	out(l, "Checkpointing write %s", save ? "finished" : "started");
	mean_sd(v, n, m, sd);
	mean_sd(d, n, dm, dsd);
}

static void ckpt_files(const struct sb_job_result *jr, struct sb_jw *w, struct dlog *l)
{
	const struct sb_ml_ckpt_result *r = &sb_ml_of(jr->wl)->ckpt;
	const char *sub = jr->spec->subset ? " (subset)" : "";
	double mg = (double)r->bytes_model / GIB, og = (double)r->bytes_optimizer / GIB, gib = mg + og;
	double sm = 0, ssd = 0, sdm = 0, sdsd = 0, lm = 0, lsd = 0, ldm = 0, ldsd = 0;
	char ts[40];
	out(l, "Running DLIO [Checkpointing] with %u process(es)", r->ranks);
	out(l, "Model size: %.6f GB %s", mg, sub);
	out(l, "Optimizer state size: %.6f GB %s", og, sub);
	out(l, "Total checkpoint size: %.6f GB %s", gib, sub);
	sb_jw_obj_begin(w, "1");
	sb_mlps_dlio_time(ts, sizeof(ts), l->t);
	sb_jw_str(w, "start", ts);
	if (r->write.n)
		ckpt_phase(w, l, &r->write, true, gib, &sm, &ssd, &sdm, &sdsd);
	if (r->read.n)
		ckpt_phase(w, l, &r->read, false, gib, &lm, &lsd, &ldm, &ldsd);
	sb_mlps_dlio_time(ts, sizeof(ts), l->t);
	sb_jw_str(w, "end", ts);
	sb_jw_obj_end(w);
	out(l, "Saved outputs in %s", l->dir);
	fprintf(l->f, "[OUTPUT] Averaged metric over all steps/epochs\n[METRIC] ==========================================================\n"
		"[METRIC] Number of Simulated Accelerators: %u \n", r->ranks);
	if (r->write.n)
		fprintf(l->f, "[METRIC] Checkpoint save duration (seconds): %.4f (%.4f)\n"
			"[METRIC] Checkpoint save I/O Throughput (GB/second): %.4f (%.4f)\n", sdm, sdsd, sm, ssd);
	if (r->read.n)
		fprintf(l->f, "[METRIC] Checkpoint load duration (seconds): %.4f (%.4f)\n"
			"[METRIC] Checkpoint load I/O Throughput (GB/second): %.4f (%.4f)\n", ldm, ldsd, lm, lsd);
	fprintf(l->f, "[METRIC] ==========================================================\n\n");
}

/* DLIO's <rank>_output.json (statscounter.py:99-120,238-243,413-414,
 * 451-453): per epoch the AU (%) and the rank's samples/s per block */
static int write_output(const struct sb_job_result *jr, const char *dir, double start)
{
	const struct sb_ml_result *m = sb_ml_of(jr->wl);
	char path[1400], ts[40], host[256] = "";
	FILE *f = create(jr->spec->name, dir, "0_output.json", path, sizeof(path));
	struct sb_jw w;
	if (!f)
		return -errno;
	gethostname(host, sizeof(host) - 1);
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	bool train = m->workload == SB_WL_TRAIN;
	unsigned n = train ? m->train.nepochs : 1;
	unsigned acc = m->train.accelerators ? m->train.accelerators : 1;
	double t = start;
	for (unsigned e = 0; e < n; e++) {
		char key[16];
		snprintf(key, sizeof(key), "%u", e + 1);
		sb_jw_obj_begin(&w, key);
		sb_mlps_dlio_time(ts, sizeof(ts), t);
		sb_jw_str(&w, "start", ts);
		static const char *const lists[] = { "load", "proc", "compute" };
		for (int k = 0; k < 3; k++) {
			sb_jw_obj_begin(&w, lists[k]);
			sb_jw_obj_end(&w);
		}
		sb_jw_obj_begin(&w, "throughput");
		if (train)
			sb_jw_dbl(&w, "block1", m->train.epochs[e].samples_per_s / acc);
		sb_jw_obj_end(&w);
		sb_jw_obj_begin(&w, "au");
		if (train)
			sb_jw_dbl(&w, "block1", m->train.epochs[e].au_pct);
		sb_jw_obj_end(&w);
		t += train ? m->train.epochs[e].duration_s : jr->elapsed_s;
		sb_mlps_dlio_time(ts, sizeof(ts), t);
		sb_jw_str(&w, "end", ts);
		sb_jw_obj_end(&w);
	}
	sb_jw_str(&w, "hostname", host);
	sb_jw_obj_end(&w);
	fputc('\n', f);
	return finish(jr->spec->name, f, path);
}

/* what mlpstorage saves of the DLIO process (base.py:79-93,
 * "<benchmark>_<command>.stdout.log"/".stderr.log"): DLIO's log lines go
 * to its logging StreamHandler, stderr (utils/config.py:222-228) */
static int write_std_logs(const struct sb_job_result *jr, const char *dir, const char *log)
{
	const char *b = sb_ml_of(jr->wl)->workload == SB_WL_TRAIN ? "training_run" : "checkpointing_run";
	char name[64], path[1400], buf[8192];
	int rc;
	FILE *f, *in;
	snprintf(name, sizeof(name), "%s.stdout.log", b);
	if (!(f = create(jr->spec->name, dir, name, path, sizeof(path))))
		return -errno;
	if ((rc = finish(jr->spec->name, f, path)))
		return rc;
	snprintf(name, sizeof(name), "%s.stderr.log", b);
	if (!(f = create(jr->spec->name, dir, name, path, sizeof(path))))
		return -errno;
	if ((in = fopen(log, "r"))) {
		size_t k;
		while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, k, f);
		fclose(in);
	}
	return finish(jr->spec->name, f, path);
}

int sb_mlps_write_dlio(const struct sb_job_result *jr, const char *dir, const struct sb_mlps_cfg *c,
		       double start)
{
	const char *job = jr->spec->name;
	char ppath[1400], lpath[1400];
	int rc = write_hydra(job, dir, c);
	FILE *pf = NULL, *lf = NULL;
	if (rc)
		return rc;
	if (!(pf = create(job, dir, "0_per_epoch_stats.json", ppath, sizeof(ppath))) ||
	    !(lf = create(job, dir, "dlio.log", lpath, sizeof(lpath)))) {
		rc = -errno;
		if (pf)
			fclose(pf);
		return rc;
	}
	struct sb_jw w;
	struct dlog l = { lf, start, dir };
	sb_jw_init(&w, pf);
	sb_jw_obj_begin(&w, NULL);
	if (sb_ml_of(jr->wl)->workload == SB_WL_TRAIN)
		train_files(jr, &w, &l, c);
	else
		ckpt_files(jr, &w, &l);
	sb_jw_obj_end(&w);
	fputc('\n', pf);
	rc = finish(job, pf, ppath);
	int r2 = finish(job, lf, lpath);
	rc = rc ? rc : r2;
	if (!rc)
		rc = write_output(jr, dir, start);
	if (!rc)
		rc = write_std_logs(jr, dir, lpath);
	return rc;
}
