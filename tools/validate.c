/* tools/validate.c: `storbench validate DIR`: checks an mlpstorage results
 * tree (tools/mlps.h; written by results_dir=) the way the submission
 * checker does.  Every run folder (summary.json + one *_metadata.json) is
 * judged by ml/rules.c from the parameters its metadata records and the AU
 * its summary measured; runs of one benchmark and model form a submission:
 * training needs 1 warm-up + 5 measured runs (the earliest is the warm-up)
 * with identical parameters (a shared seed is noted, not judged: see
 * check_training) and measured throughputs within 5% of their mean (guidelines 6.6, 6.7; ml-workloads.md);
 * checkpointing needs its counts per run (the rules).  Prints CLOSED, OPEN
 * or INVALID per run and per submission with what to fix.  Exit 0 when
 * every run and submission is CLOSED, 4 when the worst is OPEN, 5 when one
 * is INVALID (so CI can gate on the verdict), 1 on an unreadable tree
 * or file, 2 on a bad command line. */
#include "tools/tools.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/jsonr.h"
#include "lib/log.h"
#include "os/infile.h"
#include "ml/checkpoint/rules.h"
#include "ml/train/rules.h"
#include "tools/mlps.h"
#include "tools/mlpskv.h"
#include "tools/mlpsread.h"

#define MAX_RUNS 256
#define SPREAD_PCT 5.0

struct vrun {
	char dir[1024];
	char bench[32], model[64], dt[32];
	struct sb_json sum, meta;
	struct sb_json pdoc;      /* the parameters of an mlpstorage run (tools/mlpsread.h) */
	const struct sb_jval *params, *metric;
	struct sb_ml_rule_report rep;
	double throughput;        /* train: samples/s; checkpoint: mean write GiB/s */
};

struct vtree {
	struct vrun *runs[MAX_RUNS];
	size_t n;
	int err;
};

static const char *pstr(const struct vrun *r, const char *k)
{
	return sb_jv_str(sb_jv_get(r->params, k), "");
}

static double pnum(const struct vrun *r, const char *k)
{
	return sb_jv_num(sb_jv_get(r->params, k), 0);
}

static bool pbool(const struct vrun *r, const char *k)
{
	const struct sb_jval *v = sb_jv_get(r->params, k);
	return v && v->type == SB_JBOOL ? v->b : pnum(r, k) != 0;
}

/* 0, or -errno when the run's dlio_config/overrides.yaml cannot be read */
static int judge(struct vrun *r)
{
	if (!strcmp(r->bench, SB_MLPS_KV_BENCH)) {
		sb_mlps_kv_judge(r->params, &r->rep);
		r->throughput = sb_jv_num(sb_jv_get(r->metric, "throughput_req_per_sec"), 0);
	} else if (!strcmp(r->bench, "training")) {
		struct sb_mlps_overrides ov;
		int rc = sb_mlps_read_overrides(r->dir, &ov);
		if (rc) {
			sb_err("validate", "%s/dlio_config/overrides.yaml: %s: %s", r->dir,
			       rc == -ELOOP ? "a symbolic link inside the results tree, not followed"
			       : rc == -ENOTSUP ? "not a regular file" : strerror(-rc),
			       rc == -ELOOP || rc == -ENOTSUP ? "replace it with the file"
			       : "fix its permissions or remove it");
			return rc;
		}
		struct sb_ml_train_facts f = {
			.workload = strcmp(pstr(r, "model"), "custom") ? pstr(r, "model") : NULL,
			.accel = pstr(r, "accelerator"),
			.files = (unsigned)pnum(r, "num_files_train"),
			.samples_per_file = (unsigned)pnum(r, "num_samples_per_file"),
			.record_length = pnum(r, "record_length_bytes"),
			.record_stdev = pnum(r, "record_length_bytes_stdev"),
			.batch_size = (unsigned)pnum(r, "batch_size"),
			.accelerators = (unsigned)pnum(r, "num_accelerators"),
			.read_threads = (unsigned)pnum(r, "read_threads"),
			.epochs = (unsigned)pnum(r, "epochs"),
			.file_shuffle = pbool(r, "file_shuffle"), .sample_shuffle = pbool(r, "sample_shuffle"),
			.odirect = pbool(r, "odirect"),
			.ckpt_after_epoch = (unsigned)pnum(r, "checkpoint_after_epoch"),
			.ckpt_every_steps = (unsigned)pnum(r, "steps_between_checkpoints"),
			.computation_time_s = pnum(r, "computation_time"),
			.hosts = (unsigned)pnum(r, "num_client_hosts"),
			.host_mem_bytes = (uint64_t)pnum(r, "client_host_memory_bytes"),
			.au_measured = true,
			.au_pct = sb_jv_num(sb_jv_get(r->metric, "train_au_mean_percentage"), 0),
			.au_required_pct = pnum(r, "au_required_pct"),
			.reshuffle = !strcmp(pstr(r, "read_order"), "reshuffle"),
			/* judged as a live job's (ml/rules.c override_rules) */
			.ov = ov.ov, .nov = ov.n,
		};
		r->throughput = sb_jv_num(sb_jv_get(r->metric, "train_throughput_mean_samples_per_second"), 0);
		rc = sb_ml_rules_train(&f, &r->rep);
		if (!rc && sb_mlps_restated_overrides(&ov, &r->rep)) {
			f.nov = ov.n;
			rc = sb_ml_rules_train(&f, &r->rep);
		}
		if (rc)
			r->rep.verdict = r->rep.guidelines = SB_ML_INVALID;
	} else {
		struct sb_ml_ckpt_facts f = {
			.model = strcmp(pstr(r, "model"), "custom") ? pstr(r, "model") : NULL,
			.shape_changed = pbool(r, "shape_changed"),
			.ranks = (unsigned)pnum(r, "num_processes"), .world = (unsigned)pnum(r, "world"),
			.tp = (unsigned)pnum(r, "tp"), .pp = (unsigned)pnum(r, "pp"),
			.subset = pbool(r, "subset"),
			.want_writes = (unsigned)pnum(r, "num_checkpoints_write"),
			.want_reads = (unsigned)pnum(r, "num_checkpoints_read"),
			.writes = (unsigned)pnum(r, "checkpoints_written"),
			.reads = (unsigned)pnum(r, "checkpoints_read"),
			.fsync = pbool(r, "fsync"), .caches_dropped = pbool(r, "caches_dropped"),
			.scale = pnum(r, "checkpoint_scale"),
			.content_unique = !strcmp(pstr(r, "checkpoint_content"), "unique"),
		};
		r->throughput = sb_jv_num(sb_jv_get(r->metric, "save_checkpoint_io_mean_GB_per_second"), 0);
		if (sb_ml_rules_ckpt(&f, &r->rep))
			r->rep.verdict = r->rep.guidelines = SB_ML_INVALID;
	}
	return 0;
}

/* a kv_cache run folder (tools/mlpskv.h): the metadata's "parameters" and
 * kvcache_results_<run_datetime>.json (its metrics) when present */
static int load_kv(struct vrun *r, const char *dir, const char *meta)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/%s", dir, meta);
	if (sb_in_json_load(&r->meta, path, &sb_in_json, SB_IN_NOFOLLOW)) {
		sb_err("validate", "%s: %s: fix or remove this run", path, r->meta.err);
		return -EINVAL;
	}
	r->params = sb_jv_get(r->meta.root, "parameters");
	const char *b = sb_jv_str(sb_jv_get(r->meta.root, "benchmark_type"), "");
	if (!r->params || r->params->type != SB_JOBJ || strcmp(b, SB_MLPS_KV_BENCH)) {
		sb_err("validate", "%s: no \"parameters\" object or \"benchmark_type\" is not \"%s\": "
		       "not a kv_cache run of mlpstorage's results tree", path, SB_MLPS_KV_BENCH);
		return -EINVAL;
	}
	snprintf(r->bench, sizeof(r->bench), "%s", b);
	snprintf(r->dt, sizeof(r->dt), "%s", sb_jv_str(sb_jv_get(r->meta.root, "run_datetime"), ""));
	snprintf(r->model, sizeof(r->model), "%s", sb_jv_str(sb_jv_get(r->params, "model"),
				sb_jv_str(sb_jv_get(r->meta.root, "model"), "")));
	snprintf(path, sizeof(path), "%s/%s%s.json", dir, SB_MLPS_KV_RESULTS, r->dt);
	if (!faccessat(AT_FDCWD, path, F_OK, AT_SYMLINK_NOFOLLOW) && sb_in_json_load(&r->sum, path, &sb_in_json, SB_IN_NOFOLLOW)) {
		sb_err("validate", "%s: %s: fix or remove this run", path, r->sum.err);
		return -EINVAL;
	}
	r->metric = r->sum.root ? r->sum.root : sb_jv_get(r->meta.root, "kvcache_metrics");
	return judge(r);
}

static bool is_kv_meta(const char *meta)
{
	return !strncmp(meta, SB_MLPS_KV_BENCH "_", strlen(SB_MLPS_KV_BENCH) + 1);
}

/* a run folder: summary.json and exactly one *_metadata.json (a kv_cache
 * run: its metadata alone) */
static int load_run(struct vtree *t, const char *dir, const char *meta)
{
	char path[2048];
	struct vrun *r = calloc(1, sizeof(*r));
	if (!r || t->n == MAX_RUNS) {
		free(r);
		sb_err("validate", "%s: more than %d runs or out of memory: validate one submission's folder",
		       dir, MAX_RUNS);
		return -ENOMEM;
	}
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	t->runs[t->n++] = r;
	if (is_kv_meta(meta))
		return load_kv(r, dir, meta);
	snprintf(path, sizeof(path), "%s/%s", dir, SB_MLPS_SUMMARY);
	if (sb_in_json_load(&r->sum, path, &sb_in_json, SB_IN_NOFOLLOW)) {
		sb_err("validate", "%s: %s: fix or remove this run", path, r->sum.err);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, meta);
	if (sb_in_json_load(&r->meta, path, &sb_in_json, SB_IN_NOFOLLOW)) {
		sb_err("validate", "%s: %s: fix or remove this run", path, r->meta.err);
		return -EINVAL;
	}
	/* mlpstorage's datagen runs (training/<model>/datagen/) measure nothing */
	if (!strcmp(sb_jv_str(sb_jv_path(r->meta.root, "args/command"), ""), "datagen")) {
		sb_json_free(&r->sum);
		sb_json_free(&r->meta);
		free(r);
		t->n--;
		return 0;
	}
	r->params = sb_jv_get(r->meta.root, "parameters");
	r->metric = sb_jv_get(r->sum.root, "metric");
	const char *b = sb_jv_str(sb_jv_get(r->meta.root, "benchmark_type"), NULL);
	bool bench_ok = b && (!strcmp(b, "training") || !strcmp(b, "checkpointing"));
	/* a run mlpstorage + DLIO wrote: its parameters from the metadata's
	 * args and combined_params */
	if (!r->params && bench_ok && !sb_mlps_read_params(dir, b, r->meta.root, r->sum.root, &r->pdoc))
		r->params = r->pdoc.root;
	if (!r->params || !r->metric || !bench_ok) {
		sb_err("validate", "%s: no \"parameters\" (storbench's results_dir=) or \"args\" and "
		       "\"combined_params\" (mlpstorage's), no \"benchmark_type\" (training|checkpointing), "
		       "or %s/%s has no \"metric\": not a run folder of mlpstorage's results tree", path, dir,
		       SB_MLPS_SUMMARY);
		return -EINVAL;
	}
	snprintf(r->bench, sizeof(r->bench), "%s", b);
	snprintf(r->model, sizeof(r->model), "%s", pstr(r, "model"));
	snprintf(r->dt, sizeof(r->dt), "%s", sb_jv_str(sb_jv_get(r->meta.root, "run_datetime"), ""));
	return judge(r);
}

/* a symlink in the tree is named, never followed: a "latest -> run-x"
 * link would count a run twice, a link to / walk the machine */
static void symlink_note(DIR *d, const char *name, const char *sub)
{
	char to[1024];
	ssize_t n = readlinkat(dirfd(d), name, to, sizeof(to) - 1);
	to[n > 0 ? n : 0] = '\0';
	sb_warn("validate", "%s is a symbolic link (-> %s): not followed, so nothing it names is "
		"counted; validate the folder it names on its own, or replace the link with the files",
		sub, to);
}

/* the tree below dir, read through the one reader (os/infile.h): folders
 * opened with O_NOFOLLOW below the one named, entries lstat'ed */
static int walk(struct vtree *t, const char *dir, int depth)
{
	char why[256];
	DIR *d = sb_in_opendir(dir, depth == 0, why, sizeof(why));
	struct dirent *e;
	char meta[256] = "", sub[2048];
	bool summary = false;
	int nmeta = 0, rc = 0;
	if (!d) {
		int err = errno;
		sb_err("validate", "%s: %s: give the results_dir= folder of your runs", dir, why);
		return -err;
	}
	while ((e = readdir(d)) && !rc) {
		size_t l = strlen(e->d_name), sl = strlen(SB_MLPS_METADATA_SUFFIX);
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (sb_in_entry(d, e->d_name, &st))
			continue;
		if (S_ISLNK(st.st_mode)) {
			symlink_note(d, e->d_name, sub);
			continue;
		}
		if (S_ISDIR(st.st_mode) && depth < 8)
			rc = walk(t, sub, depth + 1);
		else if (!strcmp(e->d_name, SB_MLPS_SUMMARY))
			summary = true;
		else if (l > sl && !strcmp(e->d_name + l - sl, SB_MLPS_METADATA_SUFFIX) && nmeta++ == 0)
			snprintf(meta, sizeof(meta), "%s", e->d_name);
	}
	closedir(d);
	if (rc || (!summary && !nmeta))
		return rc;
	if ((!summary && !(nmeta == 1 && is_kv_meta(meta))) || nmeta != 1) {
		sb_err("validate", "%s: a run folder needs %s and one *%s (found %s, %d metadata files)",
		       dir, SB_MLPS_SUMMARY, SB_MLPS_METADATA_SUFFIX, summary ? "a summary" : "no summary", nmeta);
		return -EINVAL;
	}
	return load_run(t, dir, meta);
}

static int by_group_time(const void *a, const void *b)
{
	const struct vrun *x = *(struct vrun *const *)a, *y = *(struct vrun *const *)b;
	int c = strcmp(x->bench, y->bench);
	if (!c)
		c = strcmp(x->model, y->model);
	return c ? c : strcmp(x->dt, y->dt);
}

static void print_run(const struct vrun *r, const char *tag)
{
	printf("  run %s%s: %s", r->dt, tag, sb_ml_verdict_name(r->rep.verdict));
	if (r->rep.guidelines != r->rep.verdict)
		printf(" (checker %s, guidelines %s)", sb_ml_verdict_name(r->rep.verdict),
		       sb_ml_verdict_name(r->rep.guidelines));
	putchar('\n');
	for (size_t i = 0; i < r->rep.n; i++) {
		const struct sb_ml_rule *u = &r->rep.rules[i];
		if (u->pass)
			continue;
		if (u->checker_as == u->fail_as)
			printf("    %s: expected %s, actual %s -> %s (%s); fix: %s\n", u->name, u->expected,
			       u->actual, sb_ml_verdict_name(u->fail_as), u->cite, u->fix);
		else
			printf("    %s: expected %s, actual %s -> checker %s, guidelines %s (%s); fix: %s\n",
			       u->name, u->expected, u->actual, sb_ml_verdict_name(u->checker_as),
			       sb_ml_verdict_name(u->fail_as), u->cite, u->fix);
	}
}

static enum sb_ml_verdict worse(enum sb_ml_verdict a, enum sb_ml_verdict b)
{
	return a > b ? a : b;
}

/* the parameters that differ between runs: for each, the runs off the
 * value most runs have */
static enum sb_ml_verdict check_params(struct vrun **g, size_t n)
{
	enum sb_ml_verdict v = SB_ML_CLOSED;
	for (const struct sb_jval *p = g[0]->params->child; p; p = p->next) {
		if (!strcmp(p->key, "seed"))
			continue;
		for (size_t i = 0; i < n; i++) {
			const struct sb_jval *x = sb_jv_get(g[i]->params, p->key);
			size_t same = 0;
			for (size_t k = 0; k < n; k++) {
				const struct sb_jval *y = sb_jv_get(g[k]->params, p->key);
				same += x && y && x->type == y->type && x->num == y->num && x->b == y->b &&
					!strcmp(x->s ? x->s : "", y->s ? y->s : "");
			}
			if (2 * same > n)
				continue;
			char val[96];
			if (!x)
				snprintf(val, sizeof(val), "(missing)");
			else if (x->type == SB_JSTR)
				snprintf(val, sizeof(val), "%s", x->s);
			else if (x->type == SB_JBOOL)
				snprintf(val, sizeof(val), "%s", x->b ? "true" : "false");
			else
				snprintf(val, sizeof(val), "%.10g", x->num);
			printf("    parameters: run %s has %s=%s where the other runs differ: the runs of a "
			       "submission must use identical parameters -> INVALID; fix: rerun it with the "
			       "others' parameters\n", g[i]->dt, p->key, val);
			v = SB_ML_INVALID;
		}
	}
	return v;
}

static enum sb_ml_verdict check_training(struct vrun **g, size_t n)
{
	enum sb_ml_verdict v = SB_ML_CLOSED;
	if (n != 6) {
		printf("    runs: expected 6 (1 warm-up + 5 measured), actual %zu -> INVALID; fix: run the "
		       "same job 6 times\n", n);
		v = SB_ML_INVALID;
	}
	v = worse(v, check_params(g, n));
	/* The guidelines (Caching, item 3) say the seed changes per run "as
	 * controlled by the benchmark.py script"; mlpstorage v2.0 never changes
	 * it, and its checker makes a train.seed override INVALID (rules.py's
	 * override table).  So a repeated seed is reported, not judged. */
	for (size_t i = 2; i < n; i++)
		if (pnum(g[i], "seed") == pnum(g[1], "seed")) {
			printf("    seed: measured runs repeat seed=%g (note only: the guidelines "
			       "leave the seed to the benchmark, and mlpstorage v2.0 keeps it and "
			       "calls a seed override INVALID)\n", pnum(g[1], "seed"));
			break;
		}
	double mean = 0;
	for (size_t i = 1; i < n; i++)
		mean += g[i]->throughput / (double)(n - 1);
	for (size_t i = 1; i < n && mean > 0; i++) {
		double dev = 100.0 * fabs(g[i]->throughput - mean) / mean;
		if (dev > SPREAD_PCT) {
			printf("    spread: run %s: %.3f samples/s is %.1f%% off the measured runs' mean %.3f "
			       "(at most %.0f%%) -> INVALID; fix: find what disturbed it and rerun\n",
			       g[i]->dt, g[i]->throughput, dev, mean, SPREAD_PCT);
			v = SB_ML_INVALID;
		}
	}
	return v;
}

static void report(struct vtree *t, int *worst)
{
	qsort(t->runs, t->n, sizeof(t->runs[0]), by_group_time);
	for (size_t a = 0, b; a < t->n; a = b) {
		for (b = a + 1; b < t->n && !strcmp(t->runs[a]->bench, t->runs[b]->bench) &&
				!strcmp(t->runs[a]->model, t->runs[b]->model); b++)
			;
		struct vrun **g = &t->runs[a];
		size_t n = b - a;
		bool train = !strcmp(g[0]->bench, "training");
		enum sb_ml_verdict v = SB_ML_CLOSED;
		printf("%s/%s: %zu run%s%s\n", g[0]->bench, g[0]->model, n, n == 1 ? "" : "s",
		       train ? " (the earliest is the warm-up)" : "");
		for (size_t i = 0; i < n; i++) {
			print_run(g[i], train && i == 0 ? " (warm-up)" : "");
			v = worse(v, g[i]->rep.verdict);
		}
		printf("  submission checks:\n");
		enum sb_ml_verdict s = train ? check_training(g, n) : SB_ML_CLOSED;
		if (s == SB_ML_CLOSED && v == SB_ML_CLOSED)
			printf("    all passed\n");
		v = worse(v, s);
		printf("  submission %s/%s: %s\n", g[0]->bench, g[0]->model, sb_ml_verdict_name(v));
		*worst = worse((enum sb_ml_verdict)*worst, v);
	}
}

/* validate's flags: --help lists them, the bash completion offers them */
const struct sb_cli_flag sb_validate_flags[] = {
	{ "--help", NULL, "this text (also -h)" },
	{ NULL, NULL, NULL },
};

int sb_tool_validate(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: storbench validate RESULTS_DIR\n"
		       "exit 0: every run and submission CLOSED; 4: the worst is OPEN; 5: one is "
		       "INVALID;\n1: a folder or file could not be read; 2: a bad command line\n");
		SB_TOOL_FLAGS_USAGE(stdout, sb_validate_flags);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		sb_err("<cmdline>", "validate %s: expected one results folder (the results_dir= of the "
		       "runs): storbench validate RESULTS_DIR", argc > 1 ? argv[1] : "");
		return 2;
	}
	struct stat st;
	if (!stat(argv[1], &st) && !S_ISDIR(st.st_mode)) { /* a FIFO, a device, a file: a bad argument */
		sb_err("validate", "%s: it is %s, not a folder: give the results_dir= folder of your runs",
		       argv[1], S_ISREG(st.st_mode) ? "a regular file" : sb_in_kind_name(st.st_mode));
		return 2;
	}
	struct vtree t = { 0 };
	int rc = walk(&t, argv[1], 0), worst = SB_ML_CLOSED;
	if (!rc && !t.n) {
		sb_err("validate", "%s: no runs (folders with %s and *%s): point it at results_dir=",
		       argv[1], SB_MLPS_SUMMARY, SB_MLPS_METADATA_SUFFIX);
		rc = -ENOENT;
	}
	if (!rc)
		report(&t, &worst);
	if (!rc)
		printf("overall: %s\n", sb_ml_verdict_name((enum sb_ml_verdict)worst));
	for (size_t i = 0; i < t.n; i++) {
		sb_json_free(&t.runs[i]->sum);
		sb_json_free(&t.runs[i]->meta);
		sb_json_free(&t.runs[i]->pdoc);
		free(t.runs[i]);
	}
	return rc ? 1 : worst == SB_ML_INVALID ? 5 : worst == SB_ML_OPEN ? 4 : 0;
}
