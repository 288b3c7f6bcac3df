/* tools/trace_num.h: a trace event's numeric fields as `storbench analyze`
 * reads them (tools/trace_agg.c).  A field is usable when it is a JSON
 * number, or a string in JSON's number syntax (DFTracer up to v1.0.2 wrote
 * id, pid, tid, ts, dur and its integer args as strings), and its value fits
 * the field's rule: not negative (except args.ret, where a negative value is
 * a failed call), an integer where the field counts things, finite and at
 * most the rule's bound.  Anything else (another string, true/false, null,
 * an object or array, "inf", "nan", hex, a fraction of a byte, a value past
 * the bound) is unusable: analyze counts it in unusable_fields. */
#ifndef SB_TOOLS_TRACE_NUM_H
#define SB_TOOLS_TRACE_NUM_H
#include <stdbool.h>
#include <stdint.h>

#include "lib/jsonr.h"

struct ta_numrule {
	bool integral, neg;   /* an integer; may be negative */
	int64_t hi;           /* at most */
};
/* ts, dur: us, below 2^63; pid: 32 bits (ta_who packs it); args.rank:
 * below 2^31 - 1; args.size, args.count: integers below 2^63; args.ret: the
 * same, or negative */
extern const struct ta_numrule TA_R_TIME, TA_R_PID, TA_R_RANK, TA_R_BYTES, TA_R_RET;

/* v's number under rule r into *d (and *i, truncated); false: unusable
 * (v NULL, not a number, or outside r) */
bool ta_num_of(const struct sb_jval *v, const struct ta_numrule *r, double *d, int64_t *i);
#endif
