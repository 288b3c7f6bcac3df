/* tools/mlpsfiles.c: the files DLIO leaves in its hydra run folder, for
 * results_dir= (tools/mlpsdlio.h): dlio_config/{config.yaml,overrides.yaml,
 * hydra.yaml} from the job's DLIO config (tools/mlpsdlio.c), rank 0's
 * per-epoch stats and output, dlio.log and the stdout/stderr logs
 * mlpstorage keeps.  Sources (DLIO = argonne-lcf/dlio_benchmark
 * mlperf_storage_v2.0, 392621b; mlpstorage = mlcommons/storage caa90c9):
 * DLIO utils/statscounter.py:99-120,205-376,445-453 (per-epoch stats,
 * output, log lines), utils/utility.py:79-85 (time format, OUTPUT level),
 * utils/config.py:197-231 (the log goes to dlio.log and stderr), main.py
 * :114,274-310,380 (log lines), checkpointing/base_checkpointing.py:178-186
 * (checkpoint sizes); mlpstorage benchmarks/dlio.py:94-110 (the command
 * line hydra records), benchmarks/base.py:79-93 (the stdout/stderr logs). */
#include "os/outtree.h"
#include "tools/mlpsdlio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/log.h"
#include "os/infile.h"
#include "ml/checkpoint/opts.h"
#include "ml/result.h"
#include "ml/checkpoint/result.h"
#include "ml/train/result.h"
#include "ml/train/opts.h"
#include "parse/jobspec.h"
#include "parse/specvals.h"

#define GIB 1073741824.0

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
	return sb_outtree_file(job, path); /* new, whole or not at all; NULL: printed */
}

static int finish(const char *job, FILE *f, const char *path)
{
	(void)path;
	return sb_outtree_close(job, f); /* fsync, rename; or printed */
}

static int write_hydra(const char *job, const char *dir, const struct sb_mlps_cfg *c)
{
	char sub[PATH_MAX + 16], path[PATH_MAX + 64];
	int rc = 0;
	FILE *f;
	snprintf(sub, sizeof(sub), "%s/dlio_config", dir);
	int e = sb_outtree_mkdir(job, sub);
	if (e)
		return e;
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
	const struct sb_ml_train_result *t = sb_train_result_of(jr);
	const struct sb_train_opts *s = sb_train_opts(jr->spec);
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
	const struct sb_ml_ckpt_result *r = sb_ckpt_result_of(jr);
	const char *sub = sb_ckpt_opts(jr->spec)->subset ? " (subset)" : "";
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
	const struct sb_ml_train_result *tr = sb_train_result_of(jr);
	char path[PATH_MAX + 64], ts[40], host[256] = "";
	FILE *f = create(jr->spec->name, dir, "0_output.json", path, sizeof(path));
	struct sb_jw w;
	if (!f)
		return -errno;
	gethostname(host, sizeof(host) - 1);
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	bool train = tr != NULL;
	unsigned n = train ? tr->nepochs : 1;
	unsigned acc = train && tr->accelerators ? tr->accelerators : 1;
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
			sb_jw_dbl(&w, "block1", tr->epochs[e].samples_per_s / acc);
		sb_jw_obj_end(&w);
		sb_jw_obj_begin(&w, "au");
		if (train)
			sb_jw_dbl(&w, "block1", tr->epochs[e].au_pct);
		sb_jw_obj_end(&w);
		t += train ? tr->epochs[e].duration_s : jr->elapsed_s;
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
	const char *b = sb_train_result_of(jr) ? "training_run" : "checkpointing_run";
	char name[64], path[PATH_MAX + 64], buf[8192];
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
	/* read back through the one reader: no symlink swapped in is followed */
	if ((in = sb_in_fopen(log, &sb_in_runlog, SB_IN_NOFOLLOW | SB_IN_NORECORD, NULL, 0))) {
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
	char ppath[PATH_MAX + 64], lpath[PATH_MAX + 64];
	int rc = write_hydra(job, dir, c);
	FILE *pf = NULL, *lf = NULL;
	if (rc)
		return rc;
	if (!(pf = create(job, dir, "0_per_epoch_stats.json", ppath, sizeof(ppath))) ||
	    !(lf = create(job, dir, "dlio.log", lpath, sizeof(lpath)))) {
		return -errno; /* pf: dropped by sb_outtree_end */
	}
	struct sb_jw w;
	struct dlog l = { lf, start, dir };
	sb_jw_init(&w, pf);
	sb_jw_obj_begin(&w, NULL);
	if (sb_train_result_of(jr))
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
