/* check_wl.c: the workload checks parse/ does itself (see jobparse.h):
 * options of one workload given to a job of another, and the helpers the
 * workloads' own checks share; then the job's workload check as handed in
 * (parse/workloads.h: ml/<workload>/check.c).  Every error names file:line, the
 * value and the fix. */
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/workloads.h"

static const char *wl_name(unsigned wl)
{
	const char *name = sb_option_enum_name(SB_OPT(workload), wl);
	return name ? name : "?";
}

/* options of one workload given to a job of another */
static unsigned check_misplaced(const struct sb_jobctx *c)
{
	/* looked up once: each SB_OPT walks the table (a sweep validates
	 * every point's jobs, up to 10,000 of them) */
	/* by name: the workloads' rows are there only as handed down (NULL else) */
	const struct sb_option *rules = SB_OPT(rules), *folder = sb_option_find("checkpoint_folder"),
			       *keep = sb_option_find("keep_checkpoints"),
			       *fsync_ = sb_option_find("checkpoint_fsync"),
			       *model = sb_option_find("model"), *layers = sb_option_find("layers"),
			       *kv_heads = sb_option_find("kv_heads");
	unsigned nerr = 0, wl = c->spec.workload;
	char where[SB_WHERE_MAX];
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		unsigned need;
		const struct sb_parse_workload *ow = sb_parse_workload_of_row(o);
		if (ow && ow->opts_size) /* a workload's own options struct: its jobs only */
			need = ow->id;
		else if (wl == SB_WL_KVCACHE && (o == model || o == layers || o == kv_heads))
			continue; /* the KV shape (ml/kvcache/check.c) */
		else if (o->category == SB_CAT_KV)
			need = SB_WL_KVCACHE;
		else if (o->category == SB_CAT_CKPT && o != folder && o != keep && o != fsync_)
			need = SB_WL_CHECKPOINT;
		else if (o->category == SB_CAT_TRAIN)
			need = SB_WL_TRAIN;
		else if (o == rules || o == folder || o == keep || o == fsync_) /* also train's own checkpoint */
			need = wl == SB_WL_IO || (wl == SB_WL_KVCACHE && o != rules) ? SB_WL_CHECKPOINT : wl;
		else
			continue;
		if (!c->src[i].file || need == wl)
			continue;
		sb_err(sb_ini_where(where, sizeof(where), c->src[i].file, c->src[i].line),
		       "%s=%s applies to workload=%s%s, but job '%s' has workload=%s: add workload=%s "
		       "to the job or remove %s=", o->name, c->src[i].raw, wl_name(need),
		       o == rules ? " or train" : "", c->spec.name, wl_name(wl),
		       wl_name(need), o->name);
		nerr++;
	}
	return nerr;
}

/* "unknown X 'v': expected a, b or c (did you mean 'b'?)" */
void sb_job_unknown_name(const struct sb_jobctx *c, const struct sb_option *opt, const char *val,
			 const char *what, const char *const *names)
{
	char where[SB_WHERE_MAX], list[256] = "", hint[96] = "";
	size_t n = 0;
	unsigned best = 4;
	for (unsigned i = 0; names[i]; i++) {
		int w = snprintf(list + n, sizeof(list) - n, "%s%s", i ? (names[i + 1] ? ", " : " or ") : "",
				 names[i]);
		n += w > 0 && (size_t)w < sizeof(list) - n ? (size_t)w : 0;
		unsigned d = sb_option_distance(val, names[i]);
		if (d < best) {
			best = d;
			snprintf(hint, sizeof(hint), " (did you mean '%s'?)", names[i]);
		}
	}
	sb_err(sb_job_where(c, opt, where, sizeof(where)), "%s=%s: unknown %s; expected %s%s", opt->name,
	       val, what, list, hint);
}

void sb_job_default_u(const struct sb_jobctx *c, const struct sb_option *o, unsigned *field,
			unsigned v)
{
	if (!sb_job_isset(c, o))
		*field = v;
}

unsigned sb_job_validate_wl(struct sb_jobctx *c)
{
	c->spec.ml_preset = NULL;
	unsigned nerr = check_misplaced(c);
	if (nerr)
		return nerr;
	const struct sb_parse_workload *w = sb_parse_workload_find(c->spec.workload);
	return w && w->check ? w->check(c) : 0;
}
