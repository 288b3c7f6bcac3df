/* tools/trace_num.c: reading a trace event's numeric fields for `storbench
 * analyze` (tools/trace_num.h): what counts as a usable number. */
#include "tools/trace_num.h"

#include <errno.h>
#include <stdlib.h>

const struct ta_numrule TA_R_TIME = { false, false, INT64_MAX }; /* ts, dur: us */
const struct ta_numrule TA_R_PID = { true, false, UINT32_MAX };  /* ta_who packs 32 bits */
const struct ta_numrule TA_R_RANK = { true, false, INT32_MAX - 1 };
const struct ta_numrule TA_R_BYTES = { true, false, INT64_MAX }; /* size, count */
const struct ta_numrule TA_R_RET = { true, true, INT64_MAX };    /* < 0: the call failed */

/* s[0..n) in JSON's number syntax (DFTracer up to v1.0.2 wrote numbers as
 * strings): no "inf", "nan", hex, blanks or '+' */
static bool json_number(const char *s, size_t n)
{
	size_t k = n && s[0] == '-', d;
	for (d = k; k < n && s[k] >= '0' && s[k] <= '9'; k++)
		;
	if (k == d)
		return false;
	if (k < n && s[k] == '.') {
		for (d = ++k; k < n && s[k] >= '0' && s[k] <= '9'; k++)
			;
		if (k == d)
			return false;
	}
	if (k < n && (s[k] == 'e' || s[k] == 'E')) {
		k += k + 1 < n && (s[k + 1] == '+' || s[k + 1] == '-') ? 2 : 1;
		for (d = k; k < n && s[k] >= '0' && s[k] <= '9'; k++)
			;
		if (k == d)
			return false;
	}
	return k == n;
}

/* a usable number under rule r: a JSON number, or a string that holds one;
 * false: not a number (string, bool, null, object), or out of r's range
 * (negative, fractional, too large, infinite) */
bool ta_num_of(const struct sb_jval *v, const struct ta_numrule *r, double *d, int64_t *i)
{
	double x;
	bool exact = false;
	if (!v)
		return false;
	if (v->type == SB_JNUM) {
		exact = v->is_int;
		*i = v->i;
		x = v->num;
	} else if (v->type == SB_JSTR && v->n && json_number(v->s, v->n)) {
		char *end;
		errno = 0;
		long long ll = strtoll(v->s, &end, 10);
		exact = !*end && !errno;
		*i = ll;
		x = exact ? (double)ll : strtod(v->s, NULL);
	} else {
		return false;
	}
	if (exact) {
		*d = (double)*i;
		return (r->neg || *i >= 0) && *i <= r->hi;
	}
	/* x < hi + 1 (2^63 for INT64_MAX) also keeps out inf and nan */
	if (!(x < (double)r->hi + 1.0) || !(r->neg || x >= 0) || !(x > -9.2e18) ||
	    (r->integral && x != (double)(int64_t)x))
		return false;
	*d = x;
	*i = (int64_t)x;
	return true;
}
