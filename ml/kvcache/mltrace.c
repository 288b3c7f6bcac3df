/* mltrace.c: kv_trace= under kv_profile=mlperf (the hooks.next of
 * mlperf.h).  The trace and kv_request_log= are loaded by tracejob.c into
 * the job's request model (kvcache.c) for either profile; here the mlperf
 * users take its requests in order, as the official benchmark's
 * _generate_requests_from_trace / _generate_requests_from_dataset
 * (mlcommons/storage kv_cache_benchmark/kv_cache/benchmark.py) feed its
 * request queue: each request's context and generation tokens are the
 * trace's; with kept arrivals (burstgpt with kv_trace_speedup > 0, sharegpt
 * with arrival_rate > 0) it is served no earlier than its arrival; the
 * trace's end ends the run.  A sharegpt turn after the first continues the
 * serving user's conversation (its earlier turns are read), a first turn
 * (and every burstgpt row) starts a new one.  The log has the blocks
 * profile's first six columns, then the serving user's number. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "os/outfile.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/mlperf.h"

struct mltrace {
	const struct sb_kv_cfg *cfg;  /* the model's: trace, trace_timed, log */
	const uint64_t *t0;           /* the run's start, ns */
	size_t pos;
	uint64_t index;
};

static int next(void *ctx, unsigned user, uint64_t *ctx_tokens, uint64_t *gen, uint64_t *arrive_ns,
		bool *new_conv)
{
	struct mltrace *m = ctx;
	const struct sb_kv_trace_req *q = sb_kv_trace_next(m->cfg->trace, &m->pos);
	if (!q)
		return 1;
	*ctx_tokens = q->prompt;
	*gen = q->output;
	*new_conv = q->turn <= 1;
	double at = 0;
	if (m->cfg->trace_timed) {
		at = q->arrival_s;
		*arrive_ns = sb_kv_at_ns(*m->t0, at); /* saturates: past 2^64 ns is never */
	}
	if (m->cfg->log)
		fprintf(m->cfg->log, "%" PRIu64 " %.6f %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %u\n",
			m->index, at, q->prompt, q->output, q->conv, q->turn, user);
	m->index++;
	return 0;
}

int sb_kv_ml_trace_init(struct sb_kv_job *k)
{
	struct sb_kv_ml *ml = k->ml;
	const struct sb_kv_cfg *cfg = &k->m.cfg;
	if (cfg->log) { /* the model wrote the blocks profile's header: ours instead */
		fflush(cfg->log); /* the gate's temporary (os/outfile.h), emptied */
		int fd = sb_outfile_fd(cfg->logf);
		if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) < 0)
			return -errno;
		fprintf(cfg->log, "# index arrival_s prompt_tokens output_tokens conversation turn user\n");
	}
	if (!cfg->trace)
		return 0;
	struct mltrace *m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->cfg = cfg;
	m->t0 = &ml->t0_ns;
	ml->hooks.ctx = m;
	ml->hooks.next = next;
	ml->trace_ctx = m;
	for (unsigned i = 0; i < ml->nusers; i++)
		ml->u[i].think_us = 0; /* the trace's arrivals, not think time */
	return 0;
}
