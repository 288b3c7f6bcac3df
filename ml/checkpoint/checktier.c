/* checktier.c: the tiered-checkpoint checks at parse time (workload=
 * checkpoint with checkpoint_cache_folder=, run by tiered.c): the tier
 * options need a cache folder, which must differ from checkpoint_folder;
 * flush_threads, flush_bs and cache_keep of at least 1; partner and xor
 * need two ranks, xor a set_size of at least 2; a flush=none run can only
 * read back what the cache still holds.  Every error names file:line, the
 * option, its value and the fix. */
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "ml/checkpoint/ckpt.h"
#include "ml/checkpoint/opts.h"

/* a and b name the same folder as written (trailing '/' and a leading
 * "./" ignored); ml/checkpoint/tiered.c also compares the inodes when both exist */
static bool same_path(const char *a, const char *b)
{
	while (!strncmp(a, "./", 2) && a[2])
		a += 2;
	while (!strncmp(b, "./", 2) && b[2])
		b += 2;
	size_t la = strlen(a), lb = strlen(b);
	while (la > 1 && a[la - 1] == '/')
		la--;
	while (lb > 1 && b[lb - 1] == '/')
		lb--;
	return la == lb && !strncmp(a, b, la);
}

/* a tier option given without checkpoint_cache_folder= */
static unsigned check_untiered(const struct sb_jobctx *c)
{
	const struct sb_option *opts[] = { SB_CKPT_OPT(checkpoint_flush), SB_CKPT_OPT(flush_threads),
					   SB_CKPT_OPT(flush_bs), SB_CKPT_OPT(cache_keep),
					   SB_CKPT_OPT(checkpoint_redundancy), SB_CKPT_OPT(set_size) };
	char where[SB_WHERE_MAX];
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const struct sb_optsrc *src = sb_job_src(c, opts[i]);
		if (!src || !src->file)
			continue;
		sb_err(sb_job_where(c, opts[i], where, sizeof(where)),
		       "job '%s': %s=%s applies to tiered checkpoints only: set %s= to the node-local "
		       "cache folder, or remove %s=", c->spec.name, opts[i]->name, src->raw,
		       SB_CKPT_OPT(checkpoint_cache_folder)->name, opts[i]->name);
		return 1;
	}
	return 0;
}

/* "file:line: job 'x': opt=value: why: fix" at opt */
static unsigned bad(const struct sb_jobctx *c, const struct sb_option *o, const char *val,
		    const char *why, const char *fix)
{
	char where[SB_WHERE_MAX];
	sb_err(sb_job_where(c, o, where, sizeof(where)), "job '%s': %s=%s: %s: %s", c->spec.name,
	       o->name, val, why, fix);
	return 1;
}

static unsigned check_redundancy(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	const struct sb_option *red = SB_CKPT_OPT(checkpoint_redundancy);
	char val[32], fix[256];
	if (o->checkpoint_redundancy == SB_CKPT_RED_SINGLE)
		return 0;
	if (o->ranks < 2) {
		snprintf(val, sizeof(val), "%u", o->ranks);
		snprintf(fix, sizeof(fix), "set %s=2 or more, or %s=single", SB_CKPT_OPT(ranks)->name, red->name);
		return bad(c, SB_CKPT_OPT(ranks), val, o->checkpoint_redundancy == SB_CKPT_RED_XOR
			   ? "xor parity protects a set of 2 or more ranks" : "a rank cannot be its own partner",
			   fix);
	}
	if (o->checkpoint_redundancy == SB_CKPT_RED_XOR && o->set_size < 2) {
		snprintf(val, sizeof(val), "%u", o->set_size);
		snprintf(fix, sizeof(fix), "set %s=2 or more (SCR's default is 8), or %s=single",
			 SB_CKPT_OPT(set_size)->name, red->name);
		return bad(c, SB_CKPT_OPT(set_size), val, "an xor set needs at least 2 ranks", fix);
	}
	return 0;
}

unsigned sb_ml_check_tier(struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	char val[32], fix[256];
	if (!o->checkpoint_cache_folder)
		return check_untiered(c);
	const struct sb_option *cf = SB_CKPT_OPT(checkpoint_cache_folder);
	if (!*o->checkpoint_cache_folder)
		return bad(c, cf, "", "an empty path", "set it to the node-local cache folder, or remove it");
	if (s->checkpoint_folder && same_path(o->checkpoint_cache_folder, s->checkpoint_folder)) {
		snprintf(fix, sizeof(fix), "set %s= to a node-local folder other than %s=%s",
			 cf->name, SB_OPT(checkpoint_folder)->name, s->checkpoint_folder);
		return bad(c, cf, o->checkpoint_cache_folder,
			   "the cache tier is the shared tier (checkpoint_folder)", fix);
	}
	if (!o->flush_threads)
		return bad(c, SB_CKPT_OPT(flush_threads), "0", "no thread would flush",
			   "set flush_threads=1 or more");
	if (!o->flush_bs)
		return bad(c, SB_CKPT_OPT(flush_bs), "0", "a flush request of 0 bytes",
			   "set flush_bs= to a size such as 1m");
	if (!o->cache_keep)
		return bad(c, SB_CKPT_OPT(cache_keep), "0", "the cache tier must hold the checkpoint it flushes",
			   "set cache_keep=1 or more");
	if (!o->num_checkpoints_write) {
		snprintf(fix, sizeof(fix), "set %s=1 or more, or remove %s=", SB_CKPT_OPT(num_checkpoints_write)->name,
			 cf->name);
		return bad(c, SB_CKPT_OPT(num_checkpoints_write), "0",
			   "a tiered run reads only what it wrote itself", fix);
	}
	if (o->checkpoint_flush == SB_CKPT_FLUSH_NONE && o->num_checkpoints_read &&
	    o->cache_keep < o->num_checkpoints_write) {
		snprintf(val, sizeof(val), "%u", o->cache_keep);
		snprintf(fix, sizeof(fix), "set %s=%u, %s=0, or %s=async", SB_CKPT_OPT(cache_keep)->name,
			 o->num_checkpoints_write, SB_CKPT_OPT(num_checkpoints_read)->name,
			 SB_CKPT_OPT(checkpoint_flush)->name);
		char why[160];
		snprintf(why, sizeof(why), "the cache keeps only the last %s=%s checkpoints and the "
			 "older ones are gone, but %s= reads the first ones back", SB_CKPT_OPT(cache_keep)->name,
			 val, SB_CKPT_OPT(num_checkpoints_read)->name);
		return bad(c, SB_CKPT_OPT(checkpoint_flush), "none", why, fix);
	}
	return check_redundancy(c);
}
