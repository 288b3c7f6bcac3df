/* tracejob.c: kv_trace= and kv_request_log= of a workload=kvcache job (see
 * tracejob.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/log.h"
#include "os/inputs.h"
#include "os/outfile.h"
#include "parse/jobparse.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvextra.h"
#include "ml/kvcache/kvmodel.h"
#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/opts.h"
#include "ml/kvcache/tracejob.h"

static int load(const struct sb_kv_opts *o, struct sb_kv_trace *t, char *err, size_t errlen)
{
	return sb_kv_trace_load(t, o->kv_trace, (enum sb_kv_trace_fmt)o->kv_trace_format,
				o->kv_trace_speedup, o->arrival_rate, err, errlen);
}

/* a relative kv_trace= missing from the current directory but found
 * beside the job file that set it: that one (as include does) */
static unsigned beside_job(struct sb_jobctx *c)
{
	struct sb_kv_opts *o = sb_kv_opts_mut(&c->spec);
	const struct sb_optsrc *src = sb_job_src(c, SB_KV_OPT(kv_trace));
	const char *slash = src && src->file ? strrchr(src->file, '/') : NULL;
	char *p;
	if (o->kv_trace[0] == '/' || !slash || access(o->kv_trace, F_OK) == 0)
		return 0;
	if (asprintf(&p, "%.*s/%s", (int)(slash - src->file), src->file, o->kv_trace) < 0)
		return sb_err(c->spec.name, "out of memory"), 1;
	if (access(p, F_OK) == 0) {
		free(o->kv_trace);
		o->kv_trace = p;
	} else {
		free(p);
	}
	return 0;
}

/* kv_request_log=: a file name in a folder that exists */
static unsigned check_log(struct sb_jobctx *c)
{
	const char *log = sb_kv_opts(&c->spec)->kv_request_log, *slash = log ? strrchr(log, '/') : NULL;
	char where[SB_WHERE_MAX], dir[4096];
	struct stat st;
	if (!log)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - log) + 1 : 1, slash ? log : ".");
	bool isdir = !stat(log, &st) && S_ISDIR(st.st_mode);
	if (!isdir && !stat(dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	sb_err(sb_job_where(c, SB_KV_OPT(kv_request_log), where, sizeof(where)),
	       "job '%s': %s=%s: %s; give a file name in an existing folder", c->spec.name,
	       SB_KV_OPT(kv_request_log)->name, log, isdir ? "a folder" : "its folder does not exist");
	return 1;
}

/* kv_request_log= through the writer gate: no device, FIFO or input */
static unsigned check_log_target(struct sb_jobctx *c)
{
	const char *log = sb_kv_opts(&c->spec)->kv_request_log;
	char where[SB_WHERE_MAX];
	if (!log)
		return 0;
	struct sb_outname n = { SB_KV_OPT(kv_request_log)->name,
				sb_job_where(c, SB_KV_OPT(kv_request_log), where, sizeof(where)),
				"the request log" };
	return sb_outfile_check(log, &n, 0) ? 1 : 0;
}

unsigned sb_kv_trace_check(struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	const struct sb_kv_opts *o = sb_kv_opts(s);
	char where[SB_WHERE_MAX], err[512];
	if (check_log(c))
		return 1;
	if (!o->kv_trace) {
		if (o->kv_trace_format == SB_KVT_AUTO)
			return check_log_target(c);
		sb_err(sb_job_where(c, SB_KV_OPT(kv_trace_format), where, sizeof(where)),
		       "job '%s': %s= is set but no %s= names a trace: add %s=FILE or remove %s=",
		       s->name, SB_KV_OPT(kv_trace_format)->name, SB_KV_OPT(kv_trace)->name,
		       SB_KV_OPT(kv_trace)->name, SB_KV_OPT(kv_trace_format)->name);
		return 1;
	}
	if (beside_job(c))
		return 1;
	struct sb_kv_trace t = { 0 };
	int e = load(o, &t, err, sizeof(err));
	sb_kv_trace_free(&t);
	(void)sb_inputs_add_path(o->kv_trace, SB_KV_OPT(kv_trace)->name); /* never a log's target */
	if (!e)
		return check_log_target(c);
	sb_err(sb_job_where(c, SB_KV_OPT(kv_trace), where, sizeof(where)), "job '%s': %s=%s: %s", s->name,
	       SB_KV_OPT(kv_trace)->name, o->kv_trace, err);
	return 1;
}

/* shared prefixes and RAG: the official defaults where no option says */
static void extras(const struct sb_jobspec *s, struct sb_kv_cfg *cfg)
{
	const struct sb_kv_opts *o = sb_kv_opts(s);
	cfg->sysprompt_prob = o->kv_sysprompt_prob;
	cfg->rag_docs = o->kv_rag_docs;
	cfg->rag_prob = o->kv_rag_prob;
	cfg->rag_top_k = o->kv_rag_top_k;
	/* rag.py ingest_document's chunk cap; benchmark.py _ingest_rag_documents' range */
	cfg->rag_chunk_tokens = sb_kv_rag_chunk_tokens(o->kv_rag_chunk_tokens,
		sb_kv_bytes_per_token(s->shape.layers, s->shape.kv_heads, o->kv_head_dim,
				      o->kv_elem_bytes));
	sb_kv_rag_doc_range(s->shape.layers, &cfg->rag_doc_min, &cfg->rag_doc_max);
}

int sb_kv_trace_open(const struct sb_jobspec *s, struct sb_kv_trace **out, bool *timed)
{
	const struct sb_kv_opts *o = sb_kv_opts(s);
	char err[512];
	*out = NULL;
	if (!o->kv_trace)
		return 0;
	struct sb_kv_trace *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	int e = load(o, t, err, sizeof(err));
	if (e) {
		sb_err(s->name, "%s=%s: %s", SB_KV_OPT(kv_trace)->name, o->kv_trace, err);
		sb_kv_trace_free(t);
		free(t);
		return e;
	}
	*timed = t->fmt == SB_KVT_BURSTGPT ? o->kv_trace_speedup > 0 : o->arrival_rate > 0;
	*out = t;
	return 0;
}

int sb_kv_trace_setup(const struct sb_jobspec *s, struct sb_kv_cfg *cfg)
{
	const struct sb_kv_opts *o = sb_kv_opts(s);
	int e = sb_kv_trace_open(s, &cfg->trace, &cfg->trace_timed);
	if (e)
		return e;
	extras(s, cfg);
	if (o->kv_trace)
		(void)sb_inputs_add_path(o->kv_trace, SB_KV_OPT(kv_trace)->name);
	struct sb_outname n = { SB_KV_OPT(kv_request_log)->name, s->name, "the request log" };
	if (o->kv_request_log && (!(cfg->logf = malloc(sizeof(*cfg->logf))) ? (e = -ENOMEM) :
	    (e = sb_outfile_open(cfg->logf, o->kv_request_log, &n, 0)))) {
		free(cfg->logf); /* the gate said why */
		cfg->logf = NULL;
		if (cfg->trace)
			sb_kv_trace_free(cfg->trace);
		free(cfg->trace);
		cfg->trace = NULL;
	}
	if (cfg->logf)
		cfg->log = cfg->logf->f;
	return e;
}
