/* tools/trace_read.h: reading traces in parallel for `storbench analyze`.
 * The calling thread reads each file in chunks: a gzip member whose header
 * carries the "SB" length field of older storbench traces is handed over
 * whole, still compressed; other gzip data (storbench's one stream,
 * DFTracer's, DLIO's) is inflated here, in order; plain text (.pfw) is read as it is.  Worker threads
 * inflate the members and add up each line into their own aggregate
 * (tools/trace_agg.h), merged at the end.  At most 2 chunks per worker are
 * in memory at once, whatever the size of the trace. */
#ifndef SB_TOOLS_TRACE_READ_H
#define SB_TOOLS_TRACE_READ_H
#include <stdbool.h>

#include "tools/trace_agg.h"

/* Adds up every line of files[0..nfiles) into out (ta_init'ed by the
 * caller with the filter).  meta_only: only FH metadata lines (a first pass
 * for the file-prefix filter).  Returns 0; or reports with sb_err (the file,
 * and the line or byte offset) and returns -EINVAL (bad content), -errno (a
 * file that cannot be read) or -ENOMEM. */
int tr_read(const char *const *files, unsigned nfiles, unsigned nthreads, bool meta_only,
	    struct ta_agg *out);
#endif
