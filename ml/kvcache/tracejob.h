/* tracejob.h: kv_trace= and kv_request_log= of a workload=kvcache job:
 * the parse-time check (the trace is read once, every error names the
 * job file:line, the trace file, its line and the fix) and the setup that
 * hands the trace and the log to the request model (kvmodel.h).  The
 * mlperf profile may call sb_kv_trace_setup the same way. */
#ifndef SB_ML_KV_TRACEJOB_H
#define SB_ML_KV_TRACEJOB_H
#include <stdbool.h>
struct sb_jobctx;
struct sb_kv_trace;
struct sb_jobspec;
struct sb_kv_cfg;

/* 0, or 1 after printing the error */
unsigned sb_kv_trace_check(struct sb_jobctx *c);
/* Load s's kv_trace= (NULL when none) for any profile: *timed says whether
 * its arrivals are kept (an open loop) or a closed loop runs; read it with
 * sb_kv_trace_next, release with sb_kv_trace_free and free.  0 or -errno
 * after printing the error. */
int sb_kv_trace_open(const struct sb_jobspec *s, struct sb_kv_trace **out, bool *timed);
/* Load s's trace into cfg->trace and open its request log into cfg->log
 * (both then owned by the model sb_kv_model_init gets cfg); 0 or -errno
 * after printing the error. */
int sb_kv_trace_setup(const struct sb_jobspec *s, struct sb_kv_cfg *cfg);
#endif
