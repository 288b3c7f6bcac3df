/* ml/rules.h: the MLPerf Storage rule report (struct sb_ml_rule_report,
 * ml/result.h) any ML workload fills, and the rules they share.
 *
 * Each rule gives name, expected, actual, pass, the division a failure
 * costs in each verdict (checker_as: mlpstorage v2.0's code; fail_as:
 * storbench's guidelines reading), its source and how to fix it.  Each
 * verdict: INVALID if any rule failing INVALID, else OPEN if any failing
 * OPEN, else CLOSED (mlpstorage/rules.py:633-662 BenchmarkRunVerifier.verify).
 * A workload's own rules: ml/train/rules.h, ml/checkpoint/rules.h,
 * ml/kvcache/rules.h. */
#ifndef SB_ML_RULES_H
#define SB_ML_RULES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ml/result.h" /* the rule report: results data */

struct sb_option;

/* Appends a rule to rep (once full, the last one is overwritten): pass,
 * and the division its failure costs in both verdicts (fail_as; the
 * checker's until sb_ml_rule_cite); the fix is kept only when it failed. */
struct sb_ml_rule *sb_ml_rule_add(struct sb_ml_rule_report *rep, const char *name, bool pass,
				  enum sb_ml_verdict fail_as, const char *fix_fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A rule's source and what the official checker makes of its failure. */
void sb_ml_rule_cite(struct sb_ml_rule *r, enum sb_ml_verdict checker_as, const char *cite);
/* A rule's expected and actual values. */
void sb_ml_rule_set(struct sb_ml_rule *r, const char *expected, const char *actual);
/* The same, each formatted from a number. */
#define SB_ML_RULE_EA(r, fmt_e, e, fmt_a, a)                                       \
	do {                                                                       \
		snprintf((r)->expected, sizeof((r)->expected), fmt_e, (double)(e)); \
		snprintf((r)->actual, sizeof((r)->actual), fmt_a, (double)(a));     \
	} while (0)
/* The two verdicts: the worst of the failed rules, each by its own class;
 * last, once every rule is in. */
void sb_ml_rules_finish(struct sb_ml_rule_report *rep);

/* No CLOSED without I/O: a run whose engine touched no storage
 * (ioengine=null) or moved no bytes is not a benchmark run, in either
 * verdict (guidelines 6.5; nothing when !known). */
void sb_ml_rule_io(bool known, bool nodiskio, uint64_t bytes, struct sb_ml_rule_report *rep);
/* An OPEN experiment: storbench's own behaviour where it differs from
 * DLIO's (option o set to ours, own true, instead of dlio).  No DLIO
 * parameter sets it, so the official checker cannot see it (CLOSED there);
 * the guidelines make it OPEN (10.1, 10.2). */
void sb_ml_rule_dlio(struct sb_ml_rule_report *rep, const struct sb_option *o, bool own,
		     const char *dlio, const char *ours);

#endif
