/* precheck.h: what can be known about a run before its first I/O and
 * before any file is laid out, beyond parsing (parse/check.c) and file
 * planning (run/files.c): log files, direct-I/O alignment, I/O regions,
 * engine start-up.  Each
 * check creates nothing, reports with sb_err (file:line of the job, the
 * option, the value, the fix) and returns -errno. */
#ifndef SB_PRECHECK_H
#define SB_PRECHECK_H
#include "run/files.h"
#include "engines/engine.h"
#include "parse/jobspec.h"

/* write_bw_log=, write_iops_log=, write_lat_log=: the directory of each
 * prefix exists and is writable. */
int sb_precheck_logs(const struct sb_joblist *jl);
/* Every I/O job (ops[j]: its engine; lay: the planned files): with direct=1
 * its offset and block sizes suit the direct-I/O alignment of each of its
 * files or devices (os/dio.h), its region holds one block, its engine
 * initialises with its options. */
int sb_precheck_jobs(const struct sb_joblist *jl, const struct sb_engine_ops *const *ops,
		     const struct sb_layout *lay);
#endif
