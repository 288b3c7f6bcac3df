/* ml_tier.c: the tiered-checkpoint part of a job's "checkpoint" object
 * (checkpoint_cache_folder=; ml/checkpoint/tiered.c fills struct sb_ml_tier_result):
 * JSON "tiered" {cache_folder, flush, redundancy, "checkpoints": [one
 * per checkpoint: blocking_s, cache_write_s, redundancy_s, flush_s,
 * flush_gbps, flush_gibps, overlap_s, overlap_pct, behind, behind_s, ...],
 * "restart_reads": [{index, source}]} and the lines of the normal output.
 * Field meanings and units: HOWTO section 9.  The other settings are in the
 * job's options echo. */
#include <inttypes.h>

#include "output/ml_out.h"

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

void sb_json_ml_tier(struct sb_jw *w, const struct sb_ml_tier_result *t,
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

void sb_normal_ml_tier(FILE *f, const struct sb_ml_tier_result *t)
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
