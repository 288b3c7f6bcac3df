/* tools/mlpsdlio.c: the DLIO config of a job and how the metadata prints
 * it (see tools/mlpsdlio.h).  Sources, mlcommons/storage
 * caa90c9: configs/dlio/workload/<model>.yaml (the parameters, in file order),
 * mlpstorage/benchmarks/dlio.py:94-118 (the command line: workload=<name>,
 * ++hydra.run.dir, ++hydra.output_subdir=dlio_config, ++workload.<k>=<v>),
 * :153-157 (dataset.data_folder always set), :259-270 (checkpointing:
 * checkpoint.mode=subset and model.parallelism.data below the CLOSED ranks,
 * num_checkpoints_read/_write and checkpoint_folder always set); DLIO
 * (argonne-lcf/dlio_benchmark mlperf_storage_v2.0, 392621b): utils/config.py
 * :80 (train.seed 123).  The files: tools/mlpsfiles.c. */
#include "tools/mlpsdlio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ml/checkpoint/opts.h"
#include "ml/result.h"
#include "ml/checkpoint/result.h"
#include "ml/train/result.h"
#include "ml/checkpoint/rules.h"
#include "ml/train/rules.h"
#include "ml/train/opts.h"
#include "parse/catalog.h"
#include "parse/jobspec.h"
#include "parse/specvals.h"

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

/* a value's YAML type: a number, True/False, else a string */
static enum sb_mlps_vt vtype(const char *v)
{
	char *end;
	if (!strcmp(v, "True") || !strcmp(v, "False"))
		return SB_MLPS_BOOL;
	double d = strtod(v, &end);
	if (end == v || *end)
		return SB_MLPS_STR;
	return d == floor(d) && !strpbrk(v, ".eE") ? SB_MLPS_INT : SB_MLPS_DBL;
}

/* every other override a live job judges (ml/rules.c sb_ml_train_overrides:
 * prefetch, eval, model_size, metric.au, ...), so that the official checker
 * and `storbench validate` meet in overrides.yaml what the live verdict
 * judged; not train.computation_time.<key>: the yaml's computation_time is
 * a number, hydra cannot set a key inside it (DLIO takes the dict form
 * only when the yaml has it) */
static void other_overrides(const struct sb_jobspec *s, struct sb_mlps_cfg *c)
{
	struct sb_ml_override ov[SB_ML_OVERRIDES_MAX];
	size_t n = sb_ml_train_overrides(s, ov, SB_ML_OVERRIDES_MAX);
	for (size_t i = 0; i < n; i++) {
		const struct sb_mlps_ent *e = find(c, ov[i].param);
		if ((e && e->ov) || !strncmp(ov[i].param, "train.computation_time.", 23) ||
		    !strcmp(ov[i].param, "dataset.data_folder"))
			continue;
		set(c, ov[i].param, vtype(ov[i].value), ov[i].value, false, true);
	}
}

static const char *const dsfmt_names[] = { "raw", "npz", "npy", "hdf5", "tfrecord" };

static void train_cfg(const struct sb_job_result *jr, struct sb_mlps_cfg *c)
{
	const struct sb_jobspec *s = jr->spec;
	const struct sb_ml_train_result *t = sb_train_result_of(jr);
	const struct sb_train_opts *o = sb_train_opts(s);
	struct sb_ml_train_facts f;
	const struct sb_train_preset *p = o->train_preset;
	bool a100 = o->accelerator == SB_ACCEL_A100;
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
	if (o->dataset_format < sizeof(dsfmt_names) / sizeof(dsfmt_names[0]))
		set(c, "dataset.format", SB_MLPS_STR, dsfmt_names[o->dataset_format], false, true);
	setu(c, "dataset.num_files_train", f.files, true);
	if (o->subfolders)
		setu(c, "dataset.num_subfolders_train", o->subfolders, true);
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
	if (o->ml_seed != SB_TRAIN_SEED_DEFAULT) /* DLIO's default seed (utils/config.py:80) */
		setu(c, "train.seed", o->ml_seed, true);
	if (f.ckpt_after_epoch || find(c, "checkpoint.checkpoint_after_epoch"))
		setu(c, "checkpoint.checkpoint_after_epoch", f.ckpt_after_epoch, true);
	if (f.ckpt_every_steps)
		setu(c, "checkpoint.steps_between_checkpoints", f.ckpt_every_steps, true);
	other_overrides(s, c);
	/* mlpstorage sets the data folder on every run (dlio.py:153-157) */
	set(c, "dataset.data_folder", SB_MLPS_STR, t->data_dir, true, false);
}

/* the model part of the checkpointing yaml (llama3_<size>.yaml; a shape
 * of one's own: no yaml, the job's values); name: model.name */
static void ckpt_model_yaml(struct sb_mlps_cfg *c, const struct sb_jobspec *s,
			    const struct sb_model_preset *p, char *name, size_t nlen)
{
	char b[300];
	if (p) {
		/* llama3-8b -> llama3_8b.yaml, model.name llama_8b */
		snprintf(c->config_name, sizeof(c->config_name), "%s", p->name);
		for (char *q = c->config_name; *q; q++)
			*q = *q == '-' ? '_' : *q;
		snprintf(name, nlen, "llama_%s", strchr(p->name, '-') + 1);
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
}

static void ckpt_cfg(const struct sb_job_result *jr, struct sb_mlps_cfg *c)
{
	const struct sb_jobspec *s = jr->spec;
	const struct sb_ml_ckpt_result *r = sb_ckpt_result_of(jr);
	const struct sb_model_preset *p = s->ml_preset && s->ml_model ? sb_model_preset_find(s->ml_model) : NULL;
	char b[300], name[48];
	ckpt_model_yaml(c, s, p, name, sizeof(name));
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
	/* the pause the run made before every write and read (the yaml's 5 s:
	 * DLIO's sleep, an override where the job's differs) */
	double pause = (double)sb_ckpt_opts(s)->time_between_checkpoints_us / 1e6;
	snprintf(b, sizeof(b), "%g", pause);
	set(c, "checkpoint.time_between_checkpoints", pause == floor(pause) ? SB_MLPS_INT : SB_MLPS_DBL, b,
	    false, true);
	if (!s->checkpoint_fsync)
		set(c, "checkpoint.fsync", SB_MLPS_BOOL, "False", false, true);
	/* what mlpstorage adds (dlio.py:259-270) */
	if (p && r->ranks < p->closed_ranks) {
		set(c, "checkpoint.mode", SB_MLPS_STR, "subset", true, false);
		snprintf(b, sizeof(b), "%u", p->closed_ranks / (p->tp * p->pp));
		set(c, "model.parallelism.data", SB_MLPS_INT, b, true, false);
	}
	snprintf(b, sizeof(b), "%u", sb_ckpt_opts(s)->num_checkpoints_read);
	set(c, "checkpoint.num_checkpoints_read", SB_MLPS_INT, b, true, false);
	snprintf(b, sizeof(b), "%u", sb_ckpt_opts(s)->num_checkpoints_write);
	set(c, "checkpoint.num_checkpoints_write", SB_MLPS_INT, b, true, false);
	set(c, "checkpoint.checkpoint_folder", SB_MLPS_STR, r->folder, true, false);
}

void sb_mlps_cfg_of(const struct sb_job_result *jr, struct sb_mlps_cfg *c)
{
	memset(c, 0, sizeof(*c));
	if (sb_train_result_of(jr))
		train_cfg(jr, c);
	else if (sb_ckpt_result_of(jr))
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
