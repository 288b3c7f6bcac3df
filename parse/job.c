/* job.c: pre-passed sections -> struct sb_jobspec, with fio's [global]
 * inheritance (each [global] changes the defaults of the jobs after it, within
 * one file), the "job options" echo, and freeing.  Command-line jobs and
 * what combines them with job files: cmdline.c.  Validation is in check.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"
#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"
#include "parse/sweep.h"
#include "parse/value.h"

/* options whose values are secrets (the S3 and http engines' keys,
 * passwords, tokens): echoed in every output as "<hidden>", never as set */
static bool secret(const char *key)
{
	static const char *const keys[] = { "http_s3_key", "http_pass", "http_s3_security_token",
					    "http_swift_auth_token", "http_s3_sse_customer_key" };
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

static int echo_add(struct sb_opt_echo **arr, unsigned *n, const char *key, const char *value)
{
	if (secret(key))
		value = "<hidden>";
	for (unsigned i = 0; i < *n; i++) {
		if (!strcmp((*arr)[i].key, key)) {
			char *v = strdup(value);
			if (!v)
				return -ENOMEM;
			free((*arr)[i].value);
			(*arr)[i].value = v;
			return 0;
		}
	}
	struct sb_opt_echo *na = realloc(*arr, (*n + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	*arr = na;
	na[*n].key = strdup(key);
	na[*n].value = strdup(value);
	if (!na[*n].key || !na[*n].value) {
		free(na[*n].key);
		free(na[*n].value);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

/* a misspelt flag of storbench's own on the command line ("--parse-onyl"):
 * the nearest of parse/cliflags.c's table, NULL for none */
static const char *flag_suggest(const char *key)
{
	const char *best = NULL;
	size_t len = strlen(key);
	unsigned bestd = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	for (unsigned i = 0; i < sb_cli_nflags; i++) {
		unsigned d = sb_option_distance(key, sb_cli_flags[i].name + 2);
		if (d <= bestd && (!best || d < bestd)) {
			best = sb_cli_flags[i].name;
			bestd = d;
		}
	}
	return best;
}

/* one key=value of a section; returns 1 if it was an error (reported) */
static unsigned apply_kv(struct sb_joblist *jl, struct sb_jobctx *c, const struct sb_ini_kv *kv,
			 bool global)
{
	char where[SB_WHERE_MAX], err[SB_VERR_LEN];
	const struct sb_option *o = sb_option_find(kv->key);
	sb_ini_where(where, sizeof(where), kv->file, kv->line);
	if (!o) {
		const char *s = sb_option_suggest(kv->key);
		const char *flag = !kv->line && !s ? flag_suggest(kv->key) : NULL;
		if (sb_option_refusal(kv->key))
			sb_err(where, "option '%s' is refused: %s", kv->key,
			       sb_option_refusal(kv->key));
		else if (sb_option_fio_only(kv->key))
			sb_err(where, "option '%s' is a fio option not supported by storbench: remove "
			       "it (storbench --cmdhelp lists the supported options)", kv->key);
		else if (s || flag)
			sb_err(where, "unknown option '%s' (did you mean '%s'?)", kv->key, s ? s : flag);
		else
			sb_err(where, "unknown option '%s' (storbench --cmdhelp lists the options)",
			       kv->key);
		return 1;
	}
	if (sb_option_set(o, &c->spec, kv->value, kv->bare, err)) {
		if (kv->bare)
			sb_err(where, "%s: %s", kv->key, err);
		else if (strlen(kv->value) > 1000) /* the reason must fit the message */
			sb_err(where, "%s=%.1000s... (%zu characters): %s", kv->key, kv->value,
			       strlen(kv->value), err);
		else
			sb_err(where, "%s=%s: %s", kv->key, kv->value, err);
		return 1;
	}
	c->src[sb_option_index(o)] = (struct sb_optsrc){ kv->file, kv->line, kv->value };
	if (sb_dbg_on(SB_DBG_PARSE)) /* --debug=parse (lib/debug.h) */
		sb_parse_debug_opt(o, kv->key, kv->bare ? NULL : kv->value, where, c->spec.kb_base);
	int rc = global ? echo_add(&jl->global_opts, &jl->nglobal, kv->key, kv->value)
			: echo_add(&c->spec.opts, &c->spec.nopts, kv->key, kv->value);
	if (rc) {
		sb_err(where, "out of memory");
		return 1;
	}
	return 0;
}

/* kb_base first (as fio does), so "bs=4k" means the same wherever kb_base is */
static unsigned apply_section(struct sb_joblist *jl, struct sb_jobctx *c,
			      const struct sb_ini_section *sec)
{
	const struct sb_option *kb = SB_OPT(kb_base);
	unsigned nerr = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned k = 0; k < sec->nkv; k++) {
			bool is_kb = sb_option_find(sec->kv[k].key) == kb;
			if (is_kb == (pass == 0))
				nerr += apply_kv(jl, c, &sec->kv[k], sec->global);
		}
	}
	return nerr;
}

static int push_job(struct sb_joblist *jl, struct sb_jobspec *spec)
{
	struct sb_jobspec *nj = realloc(jl->jobs, (jl->njobs + 1) * sizeof(*nj));
	if (!nj)
		return -ENOMEM;
	jl->jobs = nj;
	nj[jl->njobs++] = *spec;
	return 0;
}

static unsigned convert_job(struct sb_joblist *jl, const struct sb_jobctx *g,
			    const struct sb_ini_section *sec, struct sb_optsrc *wf)
{
	char where[SB_WHERE_MAX];
	unsigned nerr = 0;
	struct sb_jobctx *c = calloc(1, sizeof(*c));
	sb_ini_where(where, sizeof(where), sec->file, sec->line);
	if (!c || sb_spec_copy(&c->spec, &g->spec)) {
		free(c);
		sb_err(where, "out of memory");
		return 1;
	}
	memcpy(c->src, g->src, sizeof(c->src));
	if (strlen(sec->name) >= SB_NAME_MAX) {
		sb_err(where, "job name '%.40s...' is too long: at most %d characters", sec->name,
		       SB_NAME_MAX - 1);
		nerr++;
	}
	snprintf(c->spec.name, SB_NAME_MAX, "%s", sec->name);
	c->spec.file = sec->file;
	c->spec.line = sec->line;
	nerr += apply_section(jl, c, sec);
	for (unsigned i = 0; i < SB_OPT_MAX; i++) /* before the checks: sb_spec_where reads it */
		sb_spec_set_loc(&c->spec, i, c->src[i].file, c->src[i].line);
	nerr += sb_job_validate(c);
	*wf = *sb_job_src(c, SB_OPT(wait_for));
	if (push_job(jl, &c->spec)) {
		sb_spec_release(&c->spec);
		sb_err(where, "out of memory");
		nerr++;
	}
	free(c);
	return nerr;
}

/* wait_for of this file's jobs (from first on), reported at their wait_for= lines */
static unsigned check_wait_fors(const struct sb_joblist *jl, size_t first,
				const struct sb_optsrc *wf)
{
	char where[SB_WHERE_MAX];
	unsigned nerr = 0;
	for (size_t j = first; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		if (!s->wait_for)
			continue;
		if (wf && wf[j - first].file)
			sb_ini_where(where, sizeof(where), wf[j - first].file, wf[j - first].line);
		else
			sb_ini_where(where, sizeof(where), s->file, s->line);
		nerr += sb_job_check_wait_for(jl, j, where);
	}
	return nerr;
}

/* all sections of one file (or of the command line): its own [global] state */
unsigned sb_job_convert(struct sb_joblist *jl, struct sb_ini *ini, const char *what)
{
	unsigned nerr = 0;
	size_t first = jl->njobs;
	struct sb_jobctx *g = calloc(1, sizeof(*g));
	struct sb_optsrc *wf = calloc(ini->nsec + 1, sizeof(*wf));
	if (!g || !wf || sb_spec_defaults(&g->spec)) {
		free(g);
		free(wf);
		sb_err(what, "out of memory");
		return 1;
	}
	for (unsigned i = 0; i < ini->nsec; i++) {
		if (ini->sec[i].global)
			nerr += apply_section(jl, g, &ini->sec[i]);
		else if (sb_job_selected(jl, ini->sec[i].name))
			nerr += convert_job(jl, g, &ini->sec[i], &wf[jl->njobs - first]);
	}
	if (jl->njobs == first && !nerr && !jl->nsections) { /* --section: checked at the end */
		sb_err(what, "no jobs defined: add a [jobname] section (or --name=jobname)");
		nerr++;
	}
	if (jl->njobs > first && strcmp(what, "<cmdline>"))
		jl->jobs[first].file_first = true; /* fio: each job file a new group */
	nerr += check_wait_fors(jl, first, wf);
	free(wf);
	sb_spec_release(&g->spec);
	free(g);
	/* the jobs point at the file names: hand them to the job list (once:
	 * a sweep converts the same sections again for each point) */
	char **np = ini->nfiles ? realloc(jl->paths, (jl->npaths + ini->nfiles) * sizeof(*np)) : NULL;
	if (np) {
		jl->paths = np;
		memcpy(np + jl->npaths, ini->files, ini->nfiles * sizeof(*np));
		jl->npaths += ini->nfiles;
		free(ini->files);
		ini->files = NULL;
		ini->nfiles = ini->fcap = 0;
	}
	return nerr;
}

int sb_job_finish_parse(struct sb_joblist *jl, struct sb_ini *ini, int rc, const char *what)
{
	struct sb_sweep *sw = NULL; /* sweep.* lists: parse/sweep.c */
	unsigned nerr = sb_sweep_begin(jl, ini, &sw, what);
	sb_parse_gpu_skips(sw != NULL); /* a sweep skips its GPU points without a GPU */
	nerr += sb_job_convert(jl, ini, what);
	if (sw)
		nerr += sb_sweep_expand(jl, ini, sw, rc || nerr, what);
	sb_parse_gpu_skips(false);
	sb_ini_free(ini);
	if (rc || nerr)
		return -EINVAL;
	return sb_joblist_finish(jl);
}

int sb_parse_text(const char *name, const char *text, struct sb_joblist *jl)
{
	struct sb_ini ini = { 0 };
	int rc = sb_ini_parse_text(&ini, name, text);
	return sb_job_finish_parse(jl, &ini, rc, name);
}

int sb_parse_files(const char *const *paths, int npaths, struct sb_joblist *jl)
{
	int ret = 0;
	for (int i = 0; i < npaths; i++) {
		struct sb_ini ini = { 0 };
		int rc = sb_ini_parse_file(&ini, paths[i]);
		if (rc && !ini.nsec) { /* unreadable: nothing to convert */
			sb_ini_free(&ini);
			ret = -EINVAL;
			continue;
		}
		if (sb_job_finish_parse(jl, &ini, rc, paths[i]))
			ret = -EINVAL;
	}
	return ret;
}

void sb_joblist_free(struct sb_joblist *jl)
{
	for (size_t i = 0; i < jl->njobs; i++)
		sb_spec_release(&jl->jobs[i]);
	for (unsigned i = 0; i < jl->nglobal; i++) {
		free(jl->global_opts[i].key);
		free(jl->global_opts[i].value);
	}
	for (unsigned i = 0; i < jl->npaths; i++)
		free(jl->paths[i]);
	sb_sweep_free(jl->sweep);
	free(jl->jobs);
	free(jl->global_opts);
	free(jl->paths);
	memset(jl, 0, sizeof(*jl));
}

unsigned sb_job_apply_globals(struct sb_joblist *jl, const struct sb_ini *ini, const char *what)
{
	unsigned nerr = 0;
	struct sb_jobctx *g = calloc(1, sizeof(*g));
	if (!g || sb_spec_defaults(&g->spec)) {
		free(g);
		sb_err(what, "out of memory");
		return 1;
	}
	for (unsigned i = 0; i < ini->nsec; i++)
		if (ini->sec[i].global)
			nerr += apply_section(jl, g, &ini->sec[i]);
	sb_spec_release(&g->spec);
	free(g);
	return nerr;
}
