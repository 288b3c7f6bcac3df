/* ml_out.c: the ML workload sections of the JSON and normal writers (see
 * ml_out.h).  JSON: job-level "checkpoint" {"write", "read": [{index,
 * duration_s, gbps, gibps, rank0_s, slowest_s, per_rank [{rank, start_s,
 * end_s, duration_s, bytes}]}], mean_duration_s / mean_gbps / mean_gibps as
 * {"write": x, "read": y}, bytes_model, bytes_optimizer, fsync_s, ...},
 * "train" {au_pct, samples_per_s, mb_per_s, epochs [...], au_target_pct,
 * au_met, ...} and, with rules=mlperf, "rules" {verdict, checks [{name,
 * expected, actual, pass, fix}]}. */
#include <inttypes.h>

#include "output/ml_out.h"
#include "parse/jobspec.h"

static void json_phase(struct sb_jw *w, const char *key, const struct sb_ml_ckpt_phase *p)
{
	sb_jw_arr_begin(w, key);
	for (unsigned i = 0; i < p->n; i++) {
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "index", p->v[i].index);
		sb_jw_dbl9(w, "duration_s", p->v[i].duration_s);
		sb_jw_dbl(w, "gbps", p->v[i].gbps);
		sb_jw_dbl(w, "gibps", p->v[i].gibps);
		sb_jw_dbl9(w, "rank0_s", p->v[i].rank0_s);
		sb_jw_dbl9(w, "slowest_s", p->v[i].slowest_s);
		sb_jw_arr_begin(w, "per_rank");
		for (unsigned r = 0; r < p->v[i].nranks; r++) {
			const struct sb_ml_ckpt_rank *x = &p->v[i].per_rank[r];
			sb_jw_obj_begin(w, NULL);
			sb_jw_u64(w, "rank", x->rank);
			sb_jw_dbl9(w, "start_s", x->start_s);
			sb_jw_dbl9(w, "end_s", x->end_s);
			sb_jw_dbl9(w, "duration_s", x->duration_s);
			sb_jw_u64(w, "bytes", x->bytes);
			sb_jw_obj_end(w);
		}
		sb_jw_arr_end(w);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
}

/* "mean_gbps": {"write": x, "read": y} */
static void json_mean(struct sb_jw *w, const char *key, double wr, double rd)
{
	sb_jw_obj_begin(w, key);
	sb_jw_dbl(w, "write", wr);
	sb_jw_dbl(w, "read", rd);
	sb_jw_obj_end(w);
}

static void json_ckpt(struct sb_jw *w, const struct sb_ml_ckpt_result *c)
{
	sb_jw_obj_begin(w, "checkpoint");
	json_phase(w, "write", &c->write);
	json_phase(w, "read", &c->read);
	json_mean(w, "mean_duration_s", c->write.mean_duration_s, c->read.mean_duration_s);
	json_mean(w, "mean_gbps", c->write.mean_gbps, c->read.mean_gbps);
	json_mean(w, "mean_gibps", c->write.mean_gibps, c->read.mean_gibps);
	sb_jw_u64(w, "bytes_model", c->bytes_model);
	sb_jw_u64(w, "bytes_optimizer", c->bytes_optimizer);
	sb_jw_u64(w, "files", c->files);
	sb_jw_u64(w, "ranks", c->ranks);
	sb_jw_bool(w, "rank_sync", c->rank_sync);
	sb_jw_str(w, "requests", c->torch_io ? "torch" : "bs");
	sb_jw_u64(w, "bytes_framing", c->bytes_framing);
	sb_jw_dbl(w, "fsync_s", c->fsync_s);
	sb_jw_bool(w, "caches_dropped", c->caches_dropped);
	sb_jw_bool(w, "possibly_cached", c->possibly_cached);
	sb_jw_str(w, "caches_reason", c->caches_reason);
	sb_jw_str(w, "folder", c->folder);
	if (c->tier.on)
		sb_json_ml_tier(w, &c->tier, &c->read);
	sb_jw_obj_end(w);
}

/* the reader pools and the in-training checkpoints */
static void json_train_pipeline(struct sb_jw *w, const struct sb_ml_train_result *t)
{
	sb_jw_u64(w, "readers_per_accelerator", t->read_threads);
	sb_jw_u64(w, "reader_threads", t->readers);
	sb_jw_u64(w, "reader_threads_did_io", t->readers_did_io);
	sb_jw_u64(w, "prefetch_per_reader", t->prefetch_per_reader);
	sb_jw_arr_begin(w, "checkpoints");
	for (unsigned i = 0; i < t->nckpts; i++) {
		const struct sb_ml_train_ckpt *c = &t->ckpts[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "epoch", c->epoch);
		sb_jw_u64(w, "step", c->step);
		sb_jw_u64(w, "bytes", c->bytes);
		sb_jw_dbl(w, "duration_s", c->duration_s);
		sb_jw_dbl(w, "gbps", c->duration_s > 0 ? (double)c->bytes / c->duration_s / 1e9 : 0);
		sb_jw_dbl(w, "gibps", c->duration_s > 0 ? (double)c->bytes / c->duration_s / 1073741824.0 : 0);
		sb_jw_str(w, "path", c->path);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
}

static void json_train(struct sb_jw *w, const struct sb_ml_train_result *t)
{
	sb_jw_obj_begin(w, "train");
	sb_jw_dbl(w, "au_pct", t->au_pct);
	sb_jw_dbl(w, "samples_per_s", t->samples_per_s);
	sb_jw_dbl(w, "mb_per_s", t->mb_per_s);
	sb_jw_arr_begin(w, "epochs");
	for (unsigned i = 0; i < t->nepochs; i++) {
		const struct sb_ml_epoch_result *e = &t->epochs[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "epoch", e->epoch);
		sb_jw_u64(w, "steps", e->steps);
		sb_jw_dbl(w, "duration_s", e->duration_s);
		sb_jw_dbl(w, "au_pct", e->au_pct);
		sb_jw_dbl(w, "samples_per_s", e->samples_per_s);
		sb_jw_dbl(w, "mb_per_s", e->mb_per_s);
		sb_jw_dbl(w, "step_s_min", e->step_s_min);
		sb_jw_dbl(w, "step_s_max", e->step_s_max);
		sb_jw_u64(w, "eval_steps", e->eval_steps);
		sb_jw_dbl(w, "eval_duration_s", e->eval_duration_s);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	json_train_pipeline(w, t);
	sb_jw_dbl(w, "au_target_pct", t->au_target_pct);
	sb_jw_bool(w, "au_met", t->au_met);
	sb_jw_u64(w, "steps_per_epoch", t->steps_per_epoch);
	sb_jw_u64(w, "dataset_files", t->dataset_files);
	sb_jw_u64(w, "dataset_bytes", t->dataset_bytes);
	sb_jw_bool(w, "dataset_created", t->dataset_created);
	sb_jw_str(w, "data_dir", t->data_dir);
	sb_jw_obj_end(w);
}

static void json_rules(struct sb_jw *w, const struct sb_ml_rule_report *r)
{
	sb_jw_obj_begin(w, "rules");
	sb_jw_str(w, "benchmark", "mlperf-storage");
	sb_jw_str(w, "verdict", sb_ml_verdict_name(r->verdict));
	sb_jw_arr_begin(w, "checks");
	for (size_t i = 0; i < r->n; i++) {
		const struct sb_ml_rule *c = &r->rules[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "name", c->name);
		sb_jw_str(w, "expected", c->expected);
		sb_jw_str(w, "actual", c->actual);
		sb_jw_bool(w, "pass", c->pass);
		sb_jw_str(w, "fails_as", sb_ml_verdict_name(c->fail_as));
		sb_jw_str(w, "fix", c->fix);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_obj_end(w);
}

void sb_json_ml(struct sb_jw *w, const struct sb_ml_result *m)
{
	if (m->kv)
		sb_json_kv(w, m->kv);
	else if (m->workload == SB_WL_CHECKPOINT)
		json_ckpt(w, &m->ckpt);
	else
		json_train(w, &m->train);
	if (m->has_rules)
		json_rules(w, &m->rules);
}

static void normal_phase(FILE *f, const char *name, const struct sb_ml_ckpt_phase *p)
{
	if (!p->n)
		return;
	fprintf(f, "    %-5s: %u checkpoints, mean %.3f s, %.3f GB/s (%.3f GiB/s); per checkpoint (s):",
		name, p->n, p->mean_duration_s, p->mean_gbps, p->mean_gibps);
	for (unsigned i = 0; i < p->n; i++)
		fprintf(f, "%s%.3f", i ? ", " : " ", p->v[i].duration_s);
	fputc('\n', f);
}

static void normal_ckpt(FILE *f, const struct sb_ml_ckpt_result *c)
{
	double gib = 1073741824.0;
	fprintf(f, "  checkpoint   : %u ranks, %u files, %.3f GiB model + %.3f GiB optimizer per "
		   "checkpoint, in %s\n", c->ranks, c->files, (double)c->bytes_model / gib,
		(double)c->bytes_optimizer / gib, c->folder);
	fprintf(f, "    duration: %s; requests: %s", c->rank_sync ? "slowest rank (checkpoint_rank_sync=1)"
							  : "rank 0's own (DLIO's default)",
		c->torch_io ? "torch.save's" : "bs each");
	if (c->torch_io)
		fprintf(f, " (+%" PRIu64 " bytes of zip framing per checkpoint)", c->bytes_framing);
	fputc('\n', f);
	normal_phase(f, "write", &c->write);
	normal_phase(f, "read", &c->read);
	fprintf(f, "    fsync: %.3f s in all; caches %s", c->fsync_s,
		c->caches_dropped ? "dropped before the reads"
				  : c->possibly_cached ? "NOT dropped: reads possibly cached" : "n/a");
	if (c->caches_reason[0])
		fprintf(f, " (%s)", c->caches_reason);
	fputc('\n', f);
	if (c->tier.on)
		sb_normal_ml_tier(f, &c->tier);
}

static void normal_train(FILE *f, const struct sb_ml_train_result *t)
{
	fprintf(f, "  train        : AU=%.2f%% (target %.1f%%: %s), %.1f samples/s, %.2f MB/s, "
		   "%zu steps/epoch/accelerator\n", t->au_pct, t->au_target_pct,
		t->au_met ? "met" : "NOT met", t->samples_per_s, t->mb_per_s, t->steps_per_epoch);
	fprintf(f, "    dataset: %u files, %.3f GiB in %s (%s; kept so the next run reuses it: "
		   "remove the directory when done)\n", t->dataset_files,
		(double)t->dataset_bytes / 1073741824.0, t->data_dir,
		t->dataset_created ? "created for this run" : "reused");
	fprintf(f, "    readers: %u accelerators x %u read_threads = %u reader threads (%u did I/O), "
		   "%u batches prefetched each\n", t->accelerators, t->read_threads, t->readers,
		t->readers_did_io, t->prefetch_per_reader);
	for (unsigned i = 0; i < t->nepochs; i++) {
		fprintf(f, "    epoch %u: %zu steps in %.3f s, AU=%.2f%%, %.1f samples/s, %.2f MB/s",
			t->epochs[i].epoch, t->epochs[i].steps, t->epochs[i].duration_s,
			t->epochs[i].au_pct, t->epochs[i].samples_per_s, t->epochs[i].mb_per_s);
		if (t->epochs[i].eval_steps)
			fprintf(f, "; eval %zu steps in %.3f s", t->epochs[i].eval_steps,
				t->epochs[i].eval_duration_s);
		fputc('\n', f);
	}
	for (unsigned i = 0; i < t->nckpts; i++)
		fprintf(f, "    checkpoint after epoch %u step %" PRIu64 ": %" PRIu64 " bytes in %.3f s "
			   "(%.3f GB/s) %s\n", t->ckpts[i].epoch, t->ckpts[i].step, t->ckpts[i].bytes,
			t->ckpts[i].duration_s, t->ckpts[i].duration_s > 0 ?
			(double)t->ckpts[i].bytes / t->ckpts[i].duration_s / 1e9 : 0, t->ckpts[i].path);
}

static void normal_rules(FILE *f, const struct sb_ml_rule_report *r)
{
	size_t failed = 0;
	for (size_t i = 0; i < r->n; i++)
		failed += !r->rules[i].pass;
	fprintf(f, "  MLPerf Storage rules: %s (%zu of %zu checks passed)\n",
		sb_ml_verdict_name(r->verdict), r->n - failed, r->n);
	for (size_t i = 0; i < r->n; i++) {
		const struct sb_ml_rule *c = &r->rules[i];
		if (c->pass)
			continue;
		fprintf(f, "    FAIL %-18s expected %s, got %s (%s): %s\n", c->name, c->expected,
			c->actual, sb_ml_verdict_name(c->fail_as), c->fix);
	}
}

void sb_normal_ml(FILE *f, const struct sb_ml_result *m)
{
	if (m->kv)
		sb_normal_kv(f, m->kv);
	else if (m->workload == SB_WL_CHECKPOINT)
		normal_ckpt(f, &m->ckpt);
	else
		normal_train(f, &m->train);
	if (m->has_rules)
		normal_rules(f, &m->rules);
}
