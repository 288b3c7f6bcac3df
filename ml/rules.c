/* ml/rules.c: the MLPerf Storage rule report any workload fills (see
 * ml/rules.h): rules added with their sources, the shared rules (storage
 * I/O done, storbench's own behaviour as an OPEN experiment) and the two
 * CLOSED/OPEN/INVALID verdicts.  The workloads' own rules: ml/train/rules.c,
 * ml/checkpoint/rules.c, ml/kvcache/rules.c. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/option.h"
#include "ml/rules.h"

struct sb_ml_rule *sb_ml_rule_add(struct sb_ml_rule_report *rep, const char *name, bool pass,
			       enum sb_ml_verdict fail_as, const char *fix_fmt, ...)
{
	struct sb_ml_rule *r = &rep->rules[rep->n < SB_ML_RULES_MAX ? rep->n++ : SB_ML_RULES_MAX - 1];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->pass = pass;
	r->fail_as = fail_as;
	if (!pass) {
		va_list ap;
		va_start(ap, fix_fmt);
		vsnprintf(r->fix, sizeof(r->fix), fix_fmt, ap);
		va_end(ap);
	}
	r->checker_as = fail_as;
	return r;
}

void sb_ml_rule_cite(struct sb_ml_rule *r, enum sb_ml_verdict checker_as, const char *cite)
{
	r->checker_as = checker_as;
	snprintf(r->cite, sizeof(r->cite), "%s", cite);
}

void sb_ml_rules_finish(struct sb_ml_rule_report *rep)
{
	rep->verdict = rep->guidelines = SB_ML_CLOSED;
	for (size_t i = 0; i < rep->n; i++) {
		const struct sb_ml_rule *r = &rep->rules[i];
		if (r->pass)
			continue;
		if (r->checker_as > rep->verdict)
			rep->verdict = r->checker_as;
		if (r->fail_as > rep->guidelines)
			rep->guidelines = r->fail_as;
	}
}

void sb_ml_rule_set(struct sb_ml_rule *r, const char *expected, const char *actual)
{
	snprintf(r->expected, sizeof(r->expected), "%s", expected);
	snprintf(r->actual, sizeof(r->actual), "%s", actual);
}

void sb_ml_rule_io(bool known, bool nodiskio, uint64_t bytes, struct sb_ml_rule_report *rep)
{
	if (!known)
		return;
	struct sb_ml_rule *r = sb_ml_rule_add(rep, "storage_io", !nodiskio && bytes > 0, SB_ML_INVALID,
					nodiskio ? "ioengine=null does no storage I/O: use a real engine "
						   "(psync, libaio, io_uring)" :
						   "the run moved no bytes: check the job's size and engine");
	sb_ml_rule_set(r, "> 0 bytes to storage", nodiskio ? "none (ioengine=null)" : bytes ? "done" : "0 bytes");
	sb_ml_rule_cite(r, SB_ML_INVALID, "guidelines 6.5");
}

void sb_ml_rule_dlio(struct sb_ml_rule_report *rep, const struct sb_option *o, bool own,
		     const char *dlio, const char *ours)
{
	struct sb_ml_rule *r = sb_ml_rule_add(rep, o->name, !own, SB_ML_OPEN,
					"%s=%s is not what DLIO does (an OPEN experiment): set %s=%s for CLOSED",
					o->name, ours, o->name, dlio);
	sb_ml_rule_set(r, dlio, own ? ours : dlio);
	sb_ml_rule_cite(r, SB_ML_CLOSED, "guidelines 10.1, 10.2 (no DLIO parameter: rules.py sees none)");
}

