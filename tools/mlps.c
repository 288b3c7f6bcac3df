/* tools/mlps.c: writes mlpstorage's results tree for results_dir= (see
 * tools/mlps.h): summary.json with DLIO's keys and metric names (DLIO's
 * "GB" is GiB, 2^30 bytes; its "MB" is MiB, 2^20), and the metadata file
 * with the run's parameters (the facts ml/rules.c judges), the job options,
 * the host and the run's own verdict. */
#include "os/outfile.h"
#include "os/outtree.h"
#include "tools/mlps.h"

#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/log.h"
#include "ml/checkpoint/rules.h"
#include "ml/train/rules.h"
#include "ml/train/opts.h"
#include "output/jsonw.h"
#include "parse/jobspec.h"
#include "parse/options.h"
#include "parse/specvals.h"
#include "ml/checkpoint/opts.h"
#include "ml/result.h"
#include "ml/checkpoint/result.h"
#include "ml/kvcache/result.h"
#include "ml/train/result.h"
#include "tools/mlpsdlio.h"
#include "tools/mlpskv.h"

#define GIB 1073741824.0

static void mean_sd(const double *v, unsigned n, double *mean, double *sd)
{
	double m = 0, s = 0;
	for (unsigned i = 0; i < n; i++)
		m += v[i];
	m = n ? m / n : 0;
	for (unsigned i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd = n ? sqrt(s / n) : 0; /* numpy's std: population */
}

static uint64_t host_mem(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}

static bool is_train(const struct sb_job_result *jr)
{
	return sb_train_result_of(jr) != NULL;
}

static bool is_kv(const struct sb_job_result *jr)
{
	return sb_ml_result_mine(jr->wl, &sb_kv_figures) != NULL;
}

static const char *model_of(const struct sb_job_result *jr)
{
	const struct sb_jobspec *s = jr->spec;
	if (is_kv(jr)) /* generate_output_location: kv_cache/<args.model>/<command> */
		return s->ml_model && *s->ml_model ? s->ml_model : "custom";
	const struct sb_train_opts *t = sb_train_opts(s);
	if (t)
		return t->train_preset && t->train_model ? t->train_model : "custom";
	return s->ml_preset && s->ml_model ? s->ml_model : "custom";
}

/* mkdir -p of the parents; the run folder itself must be new: a run in the
 * same second takes the next free second */
static int make_run_dir(const struct sb_job_result *jr, time_t t, char *dir, char *dt, size_t dtlen)
{
	const char *root = jr->spec->results_dir;
	char parent[PATH_MAX];
	struct tm tm;
	int e;
	if (is_kv(jr))
		snprintf(parent, sizeof(parent), "%s/%s/%s/run", root, SB_MLPS_KV_BENCH, model_of(jr));
	else if (is_train(jr))
		snprintf(parent, sizeof(parent), "%s/training/%s/run", root, model_of(jr));
	else
		snprintf(parent, sizeof(parent), "%s/checkpointing/%s", root, model_of(jr));
	for (char *p = parent + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		e = sb_outfile_mkdir(parent, 0755, NULL, NULL); /* shared by runs: kept */
		if (e && e != -EEXIST)
			goto fail;
		*p = '/';
	}
	e = sb_outfile_mkdir(parent, 0755, NULL, NULL);
	if (e && e != -EEXIST)
		goto fail;
	for (int i = 0; i < 3600; i++, t++) {
		localtime_r(&t, &tm);
		strftime(dt, dtlen, "%Y%m%d_%H%M%S", &tm);
		snprintf(dir, PATH_MAX, "%.900s/%.31s", parent, dt);
		if (!(e = sb_outtree_begin(dir))) /* whole or not at all: sb_outtree_end */
			return 0;
		if (e != -EEXIST) {
			snprintf(parent, sizeof(parent), "%s", dir);
			goto fail;
		}
	}
	e = -EEXIST;
fail:
	e = -e;
	sb_err(jr->spec->name, "results_dir=%s: cannot create %s: %s: set results_dir= to a writable folder",
	       root, parent, strerror(e));
	return -e;
}

static void dbl_list(struct sb_jw *w, const char *key, const double *v, unsigned n)
{
	sb_jw_arr_begin(w, key);
	for (unsigned i = 0; i < n; i++)
		sb_jw_dbl(w, NULL, v[i]);
	sb_jw_arr_end(w);
}

/* metric for a train job: DLIO's names, per epoch and mean (stdev as numpy) */
static void metric_train(struct sb_jw *w, const struct sb_ml_train_result *t)
{
	double au[256] = { 0 }, sps[256] = { 0 }, mbs[256] = { 0 }, m, sd;
	unsigned n = t->nepochs < 256 ? t->nepochs : 256;
	for (unsigned i = 0; i < n; i++) {
		au[i] = t->epochs[i].au_pct;
		sps[i] = t->epochs[i].samples_per_s;
		mbs[i] = t->epochs[i].mb_per_s;
	}
	dbl_list(w, "train_au_percentage", au, n);
	mean_sd(au, n, &m, &sd);
	sb_jw_dbl(w, "train_au_mean_percentage", m);
	sb_jw_str(w, "train_au_meet_expectation", m >= t->au_target_pct ? "success" : "fail");
	sb_jw_dbl(w, "train_au_stdev_percentage", sd);
	dbl_list(w, "train_throughput_samples_per_second", sps, n);
	mean_sd(sps, n, &m, &sd);
	sb_jw_dbl(w, "train_throughput_mean_samples_per_second", m);
	sb_jw_dbl(w, "train_throughput_stdev_samples_per_second", sd);
	dbl_list(w, "train_io_throughput_MB_second", mbs, n);
	mean_sd(mbs, n, &m, &sd);
	sb_jw_dbl(w, "train_io_mean_MB_per_second", m);
	sb_jw_dbl(w, "train_io_stdev_MB_per_second", sd);
}

/* DLIO's save_/load_checkpoint_* (GB = GiB), per checkpoint and mean, and
 * the same throughputs in GB/s of 10^9 bytes under their own names */
static void metric_phase(struct sb_jw *w, const char *pfx, const struct sb_ml_ckpt_phase *p)
{
	double d[1024] = { 0 }, gib[1024] = { 0 }, gb[1024] = { 0 }, m, sd;
	char key[96];
	unsigned n = p->n < 1024 ? p->n : 1024;
	for (unsigned i = 0; i < n; i++) {
		d[i] = p->v[i].duration_s;
		gib[i] = p->v[i].gibps;
		gb[i] = p->v[i].gbps;
	}
	snprintf(key, sizeof(key), "%s_checkpoint_duration_seconds", pfx);
	dbl_list(w, key, d, n);
	mean_sd(d, n, &m, &sd);
	snprintf(key, sizeof(key), "%s_checkpoint_duration_mean_seconds", pfx);
	sb_jw_dbl(w, key, m);
	snprintf(key, sizeof(key), "%s_checkpoint_duration_stdev_seconds", pfx);
	sb_jw_dbl(w, key, sd);
	snprintf(key, sizeof(key), "%s_checkpoint_io_GB_per_second", pfx);
	dbl_list(w, key, gib, n);
	mean_sd(gib, n, &m, &sd);
	snprintf(key, sizeof(key), "%s_checkpoint_io_mean_GB_per_second", pfx);
	sb_jw_dbl(w, key, m);
	snprintf(key, sizeof(key), "%s_checkpoint_io_stdev_GB_per_second", pfx);
	sb_jw_dbl(w, key, sd);
	snprintf(key, sizeof(key), "%s_checkpoint_io_mean_GiB_per_second", pfx);
	sb_jw_dbl(w, key, m);
	mean_sd(gb, n, &m, &sd);
	snprintf(key, sizeof(key), "%s_checkpoint_io_mean_1e9_bytes_per_second", pfx);
	sb_jw_dbl(w, key, m);
}

static void write_summary(FILE *f, const struct sb_results *res, const struct sb_job_result *jr)
{
	struct sb_jw w;
	char start[40], end[40], host[256] = "";
	const struct sb_ml_ckpt_result *ck = sb_ckpt_result_of(jr);
	const struct sb_ml_train_result *tr = sb_train_result_of(jr);
	gethostname(host, sizeof(host) - 1);
	/* DLIO's utcnow(): local time with microseconds (utility.py:79,121) */
	sb_mlps_dlio_time(start, sizeof(start), (double)res->timestamp - jr->elapsed_s);
	sb_mlps_dlio_time(end, sizeof(end), (double)res->timestamp);
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	sb_jw_str(&w, "start", start);
	sb_jw_str(&w, "end", end);
	sb_jw_u64(&w, "num_accelerators", is_train(jr) ? sb_train_opts(jr->spec)->accelerators : ck->ranks);
	sb_jw_u64(&w, "num_hosts", 1);
	sb_jw_str(&w, "hostname", host);
	sb_jw_obj_begin(&w, "metric");
	if (is_train(jr)) {
		metric_train(&w, tr);
	} else {
		if (ck->write.n)
			metric_phase(&w, "save", &ck->write);
		if (ck->read.n)
			metric_phase(&w, "load", &ck->read);
		sb_jw_dbl(&w, "checkpoint_size_GB",
			  (double)(ck->bytes_model + ck->bytes_optimizer) / GIB);
	}
	sb_jw_obj_end(&w);
	/* StatsCounter.__init__/end_run (statscounter.py:60-70,173): a
	 * checkpointing run has no files and 0 epochs */
	sb_jw_u64(&w, "num_files_train", is_train(jr) ? sb_train_opts(jr->spec)->dataset_files : 0);
	sb_jw_u64(&w, "num_files_eval", 0);
	sb_jw_u64(&w, "num_samples_per_file", is_train(jr) ? sb_train_opts(jr->spec)->samples_per_file : 1);
	sb_jw_u64(&w, "epochs", is_train(jr) ? tr->nepochs : 0);
	double data_gib = is_train(jr) ? (double)tr->dataset_bytes / GIB : 0;
	sb_jw_dbl(&w, "data_size_per_host_GB", data_gib);
	sb_jw_arr_begin(&w, "potential_caching");
	sb_jw_u64(&w, NULL, (double)host_mem() / GIB > data_gib ? 1 : 0);
	sb_jw_arr_end(&w);
	sb_jw_arr_begin(&w, "host_memory_GB");
	sb_jw_dbl(&w, NULL, (double)host_mem() / GIB);
	sb_jw_arr_end(&w);
	sb_jw_arr_begin(&w, "host_cpu_count");
	sb_jw_u64(&w, NULL, (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
	sb_jw_arr_end(&w);
	sb_jw_obj_begin(&w, "units");
	sb_jw_str(&w, "GB", "2^30 bytes (DLIO's GB is GiB); *_1e9_bytes_* keys: 10^9 bytes");
	sb_jw_str(&w, "MB", "2^20 bytes (DLIO's MB is MiB)");
	sb_jw_obj_end(&w);
	sb_jw_obj_end(&w);
	fputc('\n', f);
}

/* the parameters the rules judge, under the names tools/validate.c reads */
static void params_train(struct sb_jw *w, const struct sb_job_result *jr)
{
	struct sb_ml_train_facts f;
	sb_ml_train_facts_of(jr->spec, host_mem(), &f);
	sb_jw_str(w, "model", f.workload && *f.workload ? f.workload : "custom");
	sb_jw_str(w, "accelerator", f.accel ? f.accel : "");
	sb_jw_u64(w, "num_files_train", f.files);
	sb_jw_u64(w, "num_samples_per_file", f.samples_per_file);
	sb_jw_dbl(w, "record_length_bytes", f.record_length);
	sb_jw_dbl(w, "record_length_bytes_stdev", f.record_stdev);
	sb_jw_u64(w, "batch_size", f.batch_size);
	sb_jw_u64(w, "num_accelerators", f.accelerators);
	sb_jw_u64(w, "read_threads", f.read_threads);
	sb_jw_u64(w, "epochs", f.epochs);
	sb_jw_bool(w, "file_shuffle", f.file_shuffle);
	sb_jw_bool(w, "sample_shuffle", f.sample_shuffle);
	sb_jw_bool(w, "odirect", f.odirect);
	sb_jw_u64(w, "checkpoint_after_epoch", f.ckpt_after_epoch);
	sb_jw_u64(w, "steps_between_checkpoints", f.ckpt_every_steps);
	sb_jw_dbl(w, "computation_time", f.computation_time_s);
	sb_jw_u64(w, "num_client_hosts", f.hosts);
	sb_jw_u64(w, "client_host_memory_bytes", f.host_mem_bytes);
	sb_jw_dbl(w, "au_required_pct", sb_train_result_of(jr)->au_target_pct);
	sb_jw_u64(w, "seed", sb_train_opts(jr->spec)->ml_seed);
	sb_jw_str(w, "read_order", f.reshuffle ? "reshuffle" : "dlio");
}

static void params_ckpt(struct sb_jw *w, const struct sb_job_result *jr)
{
	const struct sb_jobspec *s = jr->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	const struct sb_ml_ckpt_result *c = sb_ckpt_result_of(jr);
	sb_jw_str(w, "model", model_of(jr));
	sb_jw_bool(w, "shape_changed", sb_ckpt_shape_changed(s));
	sb_jw_u64(w, "num_processes", c->ranks);
	sb_jw_u64(w, "world", (uint64_t)s->shape.tp * s->shape.pp * s->shape.dp);
	sb_jw_u64(w, "tp", s->shape.tp);
	sb_jw_u64(w, "pp", s->shape.pp);
	sb_jw_bool(w, "subset", o->subset);
	sb_jw_u64(w, "num_checkpoints_write", o->num_checkpoints_write);
	sb_jw_u64(w, "num_checkpoints_read", o->num_checkpoints_read);
	sb_jw_u64(w, "checkpoints_written", c->write.n);
	sb_jw_u64(w, "checkpoints_read", c->read.n);
	sb_jw_bool(w, "fsync", s->checkpoint_fsync);
	sb_jw_bool(w, "caches_dropped", c->caches_dropped);
	sb_jw_dbl(w, "checkpoint_scale", o->checkpoint_scale);
	sb_jw_bool(w, "checkpoint_rank_sync", o->checkpoint_rank_sync);
	sb_jw_str(w, "checkpoint_io", c->torch_io ? "torch" : "bs");
	sb_jw_u64(w, "seed", SB_TRAIN_SEED_DEFAULT); /* seed= is train's: a checkpoint job has DLIO's */
	sb_jw_str(w, "checkpoint_content", o->checkpoint_content == SB_CKPT_CONTENT_UNIQUE ? "unique" : "dlio");
}

/* what mlpstorage's Benchmark.metadata dumps (benchmarks/base.py:100-109,
 * its __dict__ through MLPSJsonEncoder: args as a dict, enums as their
 * value) and the newer submission checker reads: args (model,
 * num_processes, results_dir, data_dir / checkpoint_folder, hosts),
 * params_dict, yaml_params, combined_params, verification */
static void mlps_keys(struct sb_jw *w, const struct sb_results *res, const struct sb_job_result *jr,
		      const char *dt)
{
	const struct sb_jobspec *s = jr->spec;
	const struct sb_ml_ckpt_result *ck = sb_ckpt_result_of(jr);
	const struct sb_ml_train_result *tr = sb_train_result_of(jr);
	struct sb_mlps_cfg *c = calloc(1, sizeof(*c));
	char run_dir[PATH_MAX], name[128];
	if (!c)
		return;
	sb_mlps_cfg_of(jr, c);
	if (is_train(jr))
		snprintf(run_dir, sizeof(run_dir), "%s/training/%s/run/%s", s->results_dir, model_of(jr), dt);
	else
		snprintf(run_dir, sizeof(run_dir), "%s/checkpointing/%s/%s", s->results_dir, model_of(jr), dt);
	sb_jw_obj_begin(w, "args");
	sb_jw_str(w, "program", is_train(jr) ? "training" : "checkpointing");
	sb_jw_str(w, "command", "run");
	sb_jw_str(w, "model", model_of(jr));
	sb_jw_u64(w, "num_processes", is_train(jr) ? sb_train_opts(s)->accelerators : ck->ranks);
	sb_jw_str(w, "results_dir", s->results_dir);
	if (is_train(jr)) {
		sb_jw_str(w, "accelerator_type", sb_train_opts(s)->accelerator == SB_ACCEL_A100 ? "a100" : "h100");
		sb_jw_str(w, "data_dir", tr->data_dir);
	} else {
		sb_jw_str(w, "checkpoint_folder", ck->folder);
		sb_jw_u64(w, "num_checkpoints_read", sb_ckpt_opts(s)->num_checkpoints_read);
		sb_jw_u64(w, "num_checkpoints_write", sb_ckpt_opts(s)->num_checkpoints_write);
	}
	sb_jw_dbl(w, "client_host_memory_in_gb", (double)host_mem() / GIB);
	sb_jw_u64(w, "num_client_hosts", 1);
	sb_jw_arr_begin(w, "hosts");
	sb_jw_str(w, NULL, "127.0.0.1");
	sb_jw_arr_end(w);
	sb_jw_str(w, "exec_type", "mpi");
	sb_jw_obj_end(w);
	sb_jw_u64(w, "run_number", 0);
	sb_jw_dbl(w, "runtime", jr->elapsed_s);
	sb_jw_str(w, "run_result_output", run_dir);
	snprintf(name, sizeof(name), "%s_%s%s", is_train(jr) ? "training" : "checkpointing", dt,
		 SB_MLPS_METADATA_SUFFIX);
	sb_jw_str(w, "metadata_filename", name);
	snprintf(name, sizeof(name), "%s.yaml", c->config_name);
	sb_jw_str(w, "config_file", name);
	sb_jw_str(w, "config_name", c->config_name);
	sb_mlps_cfg_json(w, "params_dict", c, 1);
	sb_mlps_cfg_json(w, "yaml_params", c, 0);
	sb_mlps_cfg_json(w, "combined_params", c, 2);
	const struct sb_ml_result *m = sb_ml_result_of(jr);
	if (m->has_rules) { /* PARAM_VALIDATION's values (config.py) */
		static const char *const v[] = { "closed", "open", "invalid" };
		sb_jw_str(w, "verification", v[m->rules.verdict]);
	}
	(void)res;
	free(c);
}

static void write_metadata(FILE *f, const struct sb_results *res, const struct sb_job_result *jr,
			   const char *dt)
{
	struct sb_jw w;
	struct utsname u;
	const struct sb_jobspec *s = jr->spec;
	bool ok = uname(&u) == 0;
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	sb_jw_str(&w, "benchmark_type", is_train(jr) ? "training" : "checkpointing");
	sb_jw_str(&w, "model", model_of(jr));
	sb_jw_str(&w, "command", is_train(jr) ? "run" : "checkpoint");
	sb_jw_str(&w, "run_datetime", dt);
	sb_jw_str(&w, "storbench_version", res->version ? res->version : "");
	sb_jw_str(&w, "job", s->name);
	sb_jw_obj_begin(&w, "parameters");
	if (is_train(jr))
		params_train(&w, jr);
	else
		params_ckpt(&w, jr);
	sb_jw_obj_end(&w);
	mlps_keys(&w, res, jr, dt);
	sb_jw_obj_begin(&w, "job_options");
	for (unsigned i = 0; i < s->nopts; i++)
		if (s->opts[i].value && *s->opts[i].value)
			sb_jw_str(&w, s->opts[i].key, s->opts[i].value);
	sb_jw_obj_end(&w);
	sb_jw_obj_begin(&w, "host");
	sb_jw_str(&w, "hostname", ok ? u.nodename : "");
	sb_jw_str(&w, "os", ok ? u.sysname : "");
	sb_jw_str(&w, "kernel", ok ? u.release : "");
	sb_jw_str(&w, "machine", ok ? u.machine : "");
	sb_jw_u64(&w, "cpus", (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
	sb_jw_u64(&w, "memory_bytes", host_mem());
	sb_jw_obj_end(&w);
	const struct sb_ml_result *m = sb_ml_result_of(jr);
	if (m && m->has_rules)
		sb_jw_str(&w, "verdict", sb_ml_verdict_name(m->rules.verdict));
	sb_jw_obj_end(&w);
	fputc('\n', f);
}

static int write_file(const struct sb_job_result *jr, const char *dir, const char *name,
		      const struct sb_results *res, const char *dt, bool summary)
{
	char path[PATH_MAX + 128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = sb_outtree_file(jr->spec->name, path);
	if (!f)
		return -errno; /* the gate said why */
	if (summary)
		write_summary(f, res, jr);
	else
		write_metadata(f, res, jr, dt);
	return sb_outtree_close(jr->spec->name, f); /* fsync, rename; or printed */
	return 0;
}

/* the run folder complete, or removed: a half-written one would pass for
 * a complete run (storbench validate) */
static void end_tree(const struct sb_job_result *jr, const char *dir, int e)
{
	int r = sb_outtree_end(!e);
	if (e && !r)
		sb_err(jr->spec->name, "results_dir: %s could not be completed and was removed: "
		       "free space there and run again", dir);
	else if (e)
		sb_err(jr->spec->name, "results_dir: %s could not be completed, and removing it "
		       "failed: %s: remove it yourself before validating", dir, strerror(-r));
}

/* kvcache: mlpstorage's kv_cache tree (tools/mlpskv.h: no summary.json,
 * no DLIO files) */
static int write_kv_tree(const struct sb_results *res, const struct sb_job_result *jr,
			 const char *dir, const char *dt)
{
	return sb_mlps_write_kv(res, jr, dir, dt);
}

/* train and checkpoint: DLIO's run folder (summary.json, the metadata,
 * dlio_config/, the logs: tools/mlpsdlio.h) */
static int write_dlio_tree(const struct sb_results *res, const struct sb_job_result *jr,
			   const char *dir, const char *dt)
{
	char meta[96];
	snprintf(meta, sizeof(meta), "%s_%s%s", is_train(jr) ? "training" : "checkpointing", dt,
		 SB_MLPS_METADATA_SUFFIX);
	int e = write_file(jr, dir, SB_MLPS_SUMMARY, res, dt, true);
	if (!e)
		e = write_file(jr, dir, meta, res, dt, false);
	if (e)
		return e;
	struct sb_mlps_cfg *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	sb_mlps_cfg_of(jr, c);
	e = sb_mlps_write_dlio(jr, dir, c, (double)res->timestamp - jr->elapsed_s);
	free(c);
	return e;
}

/* the results tree of each workload that has one, by the workload that
 * made the job's result (its figures row, ml/result.h) */
static const struct mlps_writer {
	const struct sb_ml_figures *own;
	int (*write)(const struct sb_results *res, const struct sb_job_result *jr, const char *dir,
		     const char *dt);
} writers[] = {
	{ &sb_ckpt_figures, write_dlio_tree },
	{ &sb_train_figures, write_dlio_tree },
	{ &sb_kv_figures, write_kv_tree },
};

static const struct mlps_writer *writer_of(const struct sb_job_result *jr)
{
	for (size_t k = 0; k < sizeof(writers) / sizeof(writers[0]); k++)
		if (sb_ml_result_mine(jr->wl, writers[k].own))
			return &writers[k];
	return NULL;
}

int sb_mlps_write(const struct sb_results *res)
{
	int rc = 0;
	for (size_t i = 0; i < res->njobs; i++) {
		const struct sb_job_result *jr = &res->jobs[i];
		const struct mlps_writer *w = writer_of(jr);
		char dir[PATH_MAX], dt[32];
		if (!w || !jr->spec || !jr->spec->results_dir || !*jr->spec->results_dir)
			continue; /* no results_dir=, or a workload without a results tree */
		int e = make_run_dir(jr, res->timestamp, dir, dt, sizeof(dt));
		bool tree = !e;
		e = e ? e : w->write(res, jr, dir, dt);
		if (tree)
			end_tree(jr, dir, e);
		if (!e)
			fprintf(stderr, "storbench: %s: results: %s\n", jr->spec->name, dir);
		rc = rc ? rc : e;
	}
	return rc;
}
