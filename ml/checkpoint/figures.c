/* figures.c: how a workload=checkpoint job's result is written (see
 * ml/figures.h).  JSON: job-level "checkpoint" {"write", "read": [{index,
 * duration_s, gbps, gibps, rank0_s, slowest_s, per_rank [{rank, start_s,
 * end_s, duration_s, bytes}]}], mean_duration_s / mean_gbps / mean_gibps as
 * {"write": x, "read": y}, bytes_model, bytes_optimizer, fsync_s, ...};
 * with checkpoint_cache_folder= (ml/checkpoint/tiered.c fills struct
 * sb_ml_tier_result), its "tiered" {cache_folder, flush, redundancy, "checkpoints": [one
 * per checkpoint: blocking_s, cache_write_s, redundancy_s, flush_s,
 * flush_gbps, flush_gibps, overlap_s, overlap_pct, behind, behind_s, ...],
 * "restart_reads": [{index, source}]} and the lines of the normal output.
 * Field meanings and units: HOWTO section 9.  The other settings are in the
 * job's options echo. */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

#include "lib/assert.h"
#include "ml/figures.h"
#include "ml/checkpoint/result.h"
#include "run/wljob.h"

static void json_point(struct sb_jw *w, const struct sb_ml_tier_point *p)
{
	sb_jw_obj_begin(w, NULL);
	sb_jw_u64(w, "index", p->index);
	sb_jw_dbl9(w, "blocking_s", p->blocking_s);
	sb_jw_dbl9(w, "cache_write_s", p->cache_write_s);
	sb_jw_dbl9(w, "redundancy_s", p->redundancy_s);
	sb_jw_dbl9(w, "flush_s", p->flush_s);
	sb_jw_dbl(w, "flush_gbps", p->flush_gbps);
	sb_jw_dbl(w, "flush_gibps", p->flush_gibps);
	sb_jw_dbl9(w, "start_at_s", p->start_at_s);
	sb_jw_dbl9(w, "ready_at_s", p->ready_at_s);
	sb_jw_dbl9(w, "flush_start_at_s", p->flush_start_at_s);
	sb_jw_dbl9(w, "flush_end_at_s", p->flush_end_at_s);
	sb_jw_dbl9(w, "overlap_s", p->overlap_s);
	sb_jw_dbl(w, "overlap_pct", p->overlap_pct);
	sb_jw_bool(w, "behind", p->behind);
	sb_jw_dbl9(w, "behind_s", p->behind_s);
	sb_jw_obj_end(w);
}

static void json_tier(struct sb_jw *w, const struct sb_ml_tier_result *t,
		     const struct sb_ml_ckpt_phase *reads)
{
	sb_jw_obj_begin(w, "tiered");
	sb_jw_str(w, "cache_folder", t->cache_folder);
	sb_jw_str(w, "flush", t->flush ? t->flush : "");
	sb_jw_str(w, "redundancy", t->redundancy ? t->redundancy : "");
	sb_jw_arr_begin(w, "checkpoints");
	for (unsigned i = 0; i < t->n; i++)
		json_point(w, &t->v[i]);
	sb_jw_arr_end(w);
	sb_jw_dbl9(w, "mean_blocking_s", t->mean_blocking_s);
	sb_jw_dbl9(w, "mean_flush_s", t->mean_flush_s);
	sb_jw_dbl(w, "mean_flush_gbps", t->mean_flush_gbps);
	sb_jw_dbl(w, "mean_flush_gibps", t->mean_flush_gibps);
	sb_jw_u64(w, "behind_count", t->behind_count);
	sb_jw_dbl9(w, "max_behind_s", t->max_behind_s);
	sb_jw_dbl9(w, "drain_s", t->drain_s);
	sb_jw_u64(w, "cache_bytes", t->cache_bytes);
	sb_jw_u64(w, "redundancy_bytes", t->redundancy_bytes);
	sb_jw_u64(w, "shared_bytes", t->shared_bytes);
	sb_jw_arr_begin(w, "restart_reads");
	for (unsigned i = 0; i < reads->n; i++) {
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "index", reads->v[i].index);
		sb_jw_str(w, "source", reads->v[i].from_cache ? "cache" : "shared");
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_u64(w, "reads_cache", t->reads_cache);
	sb_jw_u64(w, "reads_shared", t->reads_shared);
	sb_jw_obj_end(w);
}

static void normal_tier(FILE *f, const struct sb_ml_tier_result *t)
{
	double gib = 1073741824.0;
	fprintf(f, "    tiered: cache %s, flush=%s (%u threads, %" PRIu64 "-byte requests), keep %u, "
		   "redundancy=%s", t->cache_folder, t->flush, t->flush_threads, t->flush_bs,
		t->cache_keep, t->redundancy);
	if (t->redundancy && t->redundancy[0] == 'x')
		fprintf(f, " (set_size %u)", t->set_size);
	fputc('\n', f);
	fprintf(f, "      blocking mean %.3f s; flush mean %.3f s, %.3f GB/s (%.3f GiB/s); %u of %u "
		   "flushes fell behind (max %.3f s); drain %.3f s\n", t->mean_blocking_s,
		t->mean_flush_s, t->mean_flush_gbps, t->mean_flush_gibps, t->behind_count, t->n,
		t->max_behind_s, t->drain_s);
	for (unsigned i = 0; i < t->n; i++) {
		const struct sb_ml_tier_point *p = &t->v[i];
		fprintf(f, "      #%u: blocking %.3f s (cache write %.3f, redundancy %.3f), flush %.3f s "
			   "%.3f GB/s, overlap %.3f s (%.0f%%)", p->index + 1, p->blocking_s,
			p->cache_write_s, p->redundancy_s, p->flush_s, p->flush_gbps, p->overlap_s,
			p->overlap_pct);
		if (p->behind)
			fprintf(f, ", BEHIND by %.3f s", p->behind_s);
		fputc('\n', f);
	}
	fprintf(f, "      bytes: %.3f GiB to the cache (%.3f GiB redundancy), %.3f GiB to the shared "
		   "tier; restart reads: %u from the cache, %u from the shared tier\n",
		(double)t->cache_bytes / gib, (double)t->redundancy_bytes / gib,
		(double)t->shared_bytes / gib, t->reads_cache, t->reads_shared);
}

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
		json_tier(w, &c->tier, &c->read);
	sb_ml_gpu_json(w, &c->gpu);
	sb_jw_obj_end(w);
}

/* the reader pools and the in-training checkpoints */

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
	sb_ml_gpu_normal(f, &c->gpu);
	fprintf(f, "    fsync: %.3f s in all; caches %s", c->fsync_s,
		c->caches_dropped ? "dropped before the reads"
				  : c->possibly_cached ? "NOT dropped: reads possibly cached" : "n/a");
	if (c->caches_reason[0])
		fprintf(f, " (%s)", c->caches_reason);
	fputc('\n', f);
	if (c->tier.on)
		normal_tier(f, &c->tier);
}


/* ---- the result as its workload makes it (ml/result.h) */

static void json(struct sb_jw *w, const struct sb_ml_result *m)
{
	json_ckpt(w, &((const struct sb_ckpt_job_result *)m)->ckpt);
}

static void normal(FILE *f, const struct sb_ml_result *m)
{
	normal_ckpt(f, &((const struct sb_ckpt_job_result *)m)->ckpt);
}

static void release(struct sb_ml_result *m)
{
	struct sb_ml_ckpt_result *c = &((struct sb_ckpt_job_result *)m)->ckpt;
	free(c->write.v);
	free(c->read.v);
	free(c->write.ranks);
	free(c->read.ranks);
	free(c->tier.v);
}

const struct sb_ml_figures sb_ckpt_figures = {
	.size = sizeof(struct sb_ckpt_job_result),
	.gpu_off = offsetof(struct sb_ckpt_job_result, ckpt.gpu),
	.json = json,
	.normal = normal,
	.release = release,
};

const struct sb_ml_ckpt_result *sb_ckpt_result_of(const struct sb_job_result *jr)
{
	struct sb_ml_result *m = sb_ml_result_mine(jr ? jr->wl : NULL, &sb_ckpt_figures);
	return m ? &((struct sb_ckpt_job_result *)m)->ckpt : NULL;
}

struct sb_ckpt_job_result *sb_ckpt_res(const struct sb_wl_job *j)
{
	struct sb_ml_result *m = sb_ml_result_mine(j->res, &sb_ckpt_figures);
	SB_ASSERT(m || !j->res); /* a running job's result is its workload's own */
	return (struct sb_ckpt_job_result *)m;
}
