/* pdebug.c: --debug=parse's messages (lib/debug.h): each option as the
 * parser takes it, and what it makes of the values a user most often gets
 * wrong, in fio 3.33's words where fio says them (options.c
 * str_steadystate_cb: "set steady state ... threshold to ...", which
 * t/steadystate_tests.py looks for).  Called only when the category is on. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/debug.h"
#include "parse/jobparse.h"
#include "parse/options.h"
#include "parse/value.h"

/* steadystate=KIND:LIMIT[%]: fio 3.33 options.c str_steadystate_cb (a
 * percentage, else an IOPS limit as a float, else a bandwidth in bytes) */
static void steadystate(const char *v, unsigned kb)
{
	const char *colon = strchr(v, ':');
	char err[SB_VERR_LEN];
	uint64_t b;
	if (!colon)
		return;
	const char *lim = colon + 1;
	size_t ll = strlen(lim);
	char *end = NULL;
	if (ll && lim[ll - 1] == '%') {
		double f = strtod(lim, &end);
		if (end != lim)
			sb_dbg(SB_DBG_PARSE, "set steady state threshold to %f%%", f);
	} else if (!strncasecmp(v, "iops", 4)) {
		double f = strtod(lim, &end);
		if (end != lim && !*end)
			sb_dbg(SB_DBG_PARSE, "set steady state IOPS threshold to %f", f);
	} else if (!sb_parse_size(lim, kb, &b, err)) {
		sb_dbg(SB_DBG_PARSE, "set steady state BW threshold to %llu", (unsigned long long)b);
	}
}

void sb_parse_debug_opt(const struct sb_option *o, const char *key, const char *val,
			const char *where, unsigned kb_base)
{
	sb_dbg(SB_DBG_PARSE, "handle_option=%s, ptr=%s (%s%s%s)", o->name, val ? val : "",
	       where, strcmp(key, o->name) ? ", written as " : "", strcmp(key, o->name) ? key : "");
	if (o == SB_OPT(steadystate) && val)
		steadystate(val, kb_base ? kb_base : 1024);
}
