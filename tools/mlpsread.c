/* tools/mlpsread.c: mlpstorage's metadata + DLIO's summary -> the
 * parameters validate judges (see tools/mlpsread.h). */
#include "tools/mlpsread.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "os/infile.h"
#include "output/jsonw.h"
#include "parse/catalog.h"

#define GIB 1073741824.0

/* --param values are strings ("3500", "True"): read them as numbers too */
static double num(const struct sb_jval *v, double dflt)
{
	char *end;
	if (!v)
		return dflt;
	if (v->type == SB_JNUM)
		return v->num;
	if (v->type == SB_JBOOL)
		return v->b;
	if (v->type == SB_JSTR) {
		if (!strcasecmp(v->s, "true"))
			return 1;
		if (!strcasecmp(v->s, "false"))
			return 0;
		double d = strtod(v->s, &end);
		return end != v->s && !*end ? d : dflt;
	}
	return dflt;
}

static const char *str(const struct sb_jval *v, const char *dflt)
{
	return v && v->type == SB_JSTR ? v->s : dflt;
}

/* DLIO's shuffle: off (default), seed, random */
static bool shuffled(const struct sb_jval *v)
{
	if (v && v->type == SB_JBOOL)
		return v->b;
	const char *s = str(v, "off");
	return strcasecmp(s, "off") && strcasecmp(s, "false") && strcmp(s, "0");
}

static void train(struct sb_jw *w, const struct sb_jval *meta, const struct sb_jval *sum)
{
	const struct sb_jval *cp = sb_jv_get(meta, "combined_params"), *args = sb_jv_get(meta, "args");
	const struct sb_jval *ds = sb_jv_get(cp, "dataset"), *rd = sb_jv_get(cp, "reader");
	const struct sb_jval *tr = sb_jv_get(cp, "train"), *ck = sb_jv_get(cp, "checkpoint");
	const struct sb_jval *hosts = sb_jv_get(args, "hosts");
	double mem_gb = num(sb_jv_get(args, "client_host_memory_in_gb"),
			    num(sb_jv_at(sb_jv_get(sum, "host_memory_GB"), 0), 0));
	double nhosts = num(sb_jv_get(args, "num_client_hosts"),
			    hosts && hosts->type == SB_JARR && hosts->n ? hosts->n
									: num(sb_jv_get(sum, "num_hosts"), 1));
	sb_jw_str(w, "model", str(sb_jv_get(args, "model"), str(sb_jv_path(cp, "model/name"), "custom")));
	sb_jw_str(w, "accelerator", str(sb_jv_get(args, "accelerator_type"), ""));
	sb_jw_dbl(w, "num_files_train", num(sb_jv_get(ds, "num_files_train"), 0));
	sb_jw_dbl(w, "num_samples_per_file", num(sb_jv_get(ds, "num_samples_per_file"), 1));
	sb_jw_dbl(w, "record_length_bytes", num(sb_jv_get(ds, "record_length_bytes"), 0));
	sb_jw_dbl(w, "record_length_bytes_stdev", num(sb_jv_get(ds, "record_length_bytes_stdev"), 0));
	sb_jw_dbl(w, "batch_size", num(sb_jv_get(rd, "batch_size"), 1));
	sb_jw_dbl(w, "num_accelerators", num(sb_jv_get(args, "num_processes"),
					     num(sb_jv_get(sum, "num_accelerators"), 1)));
	sb_jw_dbl(w, "read_threads", num(sb_jv_get(rd, "read_threads"), 1));
	sb_jw_dbl(w, "epochs", num(sb_jv_get(tr, "epochs"), 1));
	sb_jw_bool(w, "file_shuffle", shuffled(sb_jv_get(rd, "file_shuffle")));
	sb_jw_bool(w, "sample_shuffle", shuffled(sb_jv_get(rd, "sample_shuffle")));
	sb_jw_bool(w, "odirect", num(sb_jv_get(rd, "odirect"), 0) != 0);
	sb_jw_dbl(w, "checkpoint_after_epoch", num(sb_jv_get(ck, "checkpoint_after_epoch"), 0));
	sb_jw_dbl(w, "steps_between_checkpoints", num(sb_jv_get(ck, "steps_between_checkpoints"), 0));
	sb_jw_dbl(w, "computation_time", num(sb_jv_get(tr, "computation_time"), 0));
	sb_jw_dbl(w, "num_client_hosts", nhosts);
	sb_jw_dbl(w, "client_host_memory_bytes", mem_gb * GIB);
	sb_jw_dbl(w, "au_required_pct", num(sb_jv_path(cp, "metric/au"), 0) * 100.0);
	sb_jw_dbl(w, "seed", num(sb_jv_get(tr, "seed"), 123)); /* DLIO's default (utils/config.py:80) */
}

/* save_ckpt<N> and load_ckpt<N> in DLIO's <rank>_per_epoch_stats.json */
static void count_ckpts(const char *dir, double *writes, double *reads)
{
	DIR *d = sb_in_opendir(dir, 0, NULL, 0);
	struct dirent *e;
	char path[PATH_MAX + 64] = "";
	const char *suf = "per_epoch_stats.json";
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		struct stat st;
		if (l >= strlen(suf) && !strcmp(e->d_name + l - strlen(suf), suf) &&
		    !sb_in_entry(d, e->d_name, &st) && S_ISREG(st.st_mode)) { /* no symlink followed */
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			break;
		}
	}
	if (d)
		closedir(d);
	struct sb_json doc = { 0 };
	if (!*path || sb_in_json_load(&doc, path, &sb_in_json, SB_IN_NOFOLLOW)) {
		sb_json_free(&doc);
		return;
	}
	*writes = *reads = 0;
	for (const struct sb_jval *ep = doc.root->child; ep; ep = ep->next)
		for (const struct sb_jval *k = ep->child; k; k = k->next) {
			*writes += k->key && !strncmp(k->key, "save_ckpt", 9);
			*reads += k->key && !strncmp(k->key, "load_ckpt", 9);
		}
	sb_json_free(&doc);
}

/* the run's model (combined_params' model) is not the yaml's of --model:
 * any --param of its layers, transformer sizes, tp, pp or ZeRO stage */
static bool ckpt_shape_changed(const char *model, const struct sb_jval *cp)
{
	const struct sb_model_preset *p = sb_model_preset_find(model);
	const struct sb_jval *mo = sb_jv_get(cp, "model");
	if (!p || !mo)
		return false;
	const struct { const char *path; unsigned want; } f[] = {
		{ "num_layers", p->layers }, { "transformer/vocab_size", p->vocab },
		{ "transformer/hidden_size", p->hidden }, { "transformer/ffn_hidden_size", p->ffn },
		{ "transformer/num_attention_heads", p->heads }, { "transformer/num_kv_heads", p->kv_heads },
		{ "parallelism/tensor", p->tp }, { "parallelism/pipeline", p->pp },
		{ "parallelism/zero_stage", p->zero_stage },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (num(sb_jv_path(mo, f[i].path), f[i].want) != f[i].want)
			return true;
	return false;
}

static void ckpt(struct sb_jw *w, const char *dir, const struct sb_jval *meta, const struct sb_jval *sum)
{
	const struct sb_jval *cp = sb_jv_get(meta, "combined_params"), *args = sb_jv_get(meta, "args");
	const struct sb_jval *par = sb_jv_path(cp, "model/parallelism"), *ck = sb_jv_get(cp, "checkpoint");
	double ranks = num(sb_jv_get(args, "num_processes"), num(sb_jv_get(sum, "num_accelerators"), 0));
	double tp = num(sb_jv_get(par, "tensor"), 1), pp = num(sb_jv_get(par, "pipeline"), 1);
	bool subset = !strcmp(str(sb_jv_get(ck, "mode"), "default"), "subset");
	/* default mode: every rank of the world runs; subset: data parallelism
	 * as mlpstorage sets it (dlio.py:264-266) */
	double world = subset ? tp * pp * num(sb_jv_get(par, "data"), 1) : ranks;
	double want_w = num(sb_jv_get(ck, "num_checkpoints_write"), 0);
	double want_r = num(sb_jv_get(ck, "num_checkpoints_read"), 0);
	double writes = want_w, reads = want_r;
	count_ckpts(dir, &writes, &reads);
	const char *model = str(sb_jv_get(args, "model"), str(sb_jv_path(cp, "model/name"), "custom"));
	sb_jw_str(w, "model", model);
	sb_jw_bool(w, "shape_changed", ckpt_shape_changed(model, cp));
	sb_jw_dbl(w, "num_processes", ranks);
	sb_jw_dbl(w, "world", world);
	sb_jw_dbl(w, "tp", tp);
	sb_jw_dbl(w, "pp", pp);
	sb_jw_bool(w, "subset", subset);
	sb_jw_dbl(w, "num_checkpoints_write", want_w);
	sb_jw_dbl(w, "num_checkpoints_read", want_r);
	sb_jw_dbl(w, "checkpoints_written", writes);
	sb_jw_dbl(w, "checkpoints_read", reads);
	sb_jw_bool(w, "fsync", num(sb_jv_get(ck, "fsync"), 0) != 0);
	/* neither mlpstorage nor DLIO records a cache drop between the writes
	 * and the reads of one run */
	sb_jw_bool(w, "caches_dropped", false);
	sb_jw_dbl(w, "checkpoint_scale", 1);
}

int sb_mlps_read_params(const char *dir, const char *bench, const struct sb_jval *meta,
			const struct sb_jval *sum, struct sb_json *out)
{
	char *text = NULL;
	size_t len = 0;
	if (!sb_jv_get(meta, "combined_params") && !sb_jv_get(meta, "args"))
		return -EINVAL;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	struct sb_jw w;
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	if (!strcmp(bench, "training"))
		train(&w, meta, sum);
	else
		ckpt(&w, dir, meta, sum);
	sb_jw_obj_end(&w);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	int rc = sb_json_parse(out, text, len);
	free(text);
	return rc;
}
