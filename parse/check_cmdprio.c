/* check_cmdprio.c: validation of fio's per-I/O priority options of libaio
 * and io_uring (cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit)
 * and the table the run picks from (sb_jobspec.cmdprio_bs, see run/iogen.c).
 * fio 3.33's meanings (engines/cmdprio.c): with cmdprio_percentage=P, P% of
 * a direction's I/Os carry the priority cmdprio_class/cmdprio (class 1,
 * realtime, when not set); with cmdprio_bssplit, the I/Os of each listed
 * block size carry each entry's priority in that entry's share; the others
 * carry none (the thread's own, prio/prioclass).  The two are exclusive.
 * Every error names file:line, the option, the value and the way out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/parse.h"
#include "parse/value.h"

/* the rows of the four options, in the order of the "set" checks */
static const struct sb_option *rows(unsigned i)
{
	switch (i) {
	case 0: return SB_OPT(cmdprio.pct);
	case 1: return SB_OPT(cmdprio.cls);
	case 2: return SB_OPT(cmdprio.level);
	default: return SB_OPT(cmdprio.bssplit);
	}
}

static unsigned prio_of(unsigned cls, unsigned level)
{
	return (cls ? cls : 1) << 13 | level;
}

/* one entry BS/PCT[/CLASS/LEVEL] of direction d into s->cmdprio.bs[d] */
static int parse_entry(struct sb_jobspec *s, unsigned d, char *e, char *why, size_t wl)
{
	char *f[6], text[64];
	unsigned n = 0;
	snprintf(text, sizeof(text), "%s", e); /* for the message: e is tokenized */
	for (char *t = e, *save = NULL; n < 6 && (t = strtok_r(t, "/", &save)); t = NULL)
		f[n++] = t;
	/* BS/PCT/CLASS/LEVEL/HINT (fio 3.42's priority hint): fio 3.33 reads
	 * the first four fields (options.c:295 sscanf "%m[^/]/%u/%u/%u") and
	 * ignores the hint, and so does storbench (its value is still checked) */
	int64_t hint;
	char herr[SB_VERR_LEN];
	if (n == 5 && sb_parse_int(f[4], 0, 7, &hint, herr)) {
		snprintf(why, wl, "hint '%s' of '%s': expected 0 to 7", f[4], text);
		return -EINVAL;
	}
	if (n != 2 && n != 4 && n != 5) {
		snprintf(why, wl, "'%s' is not BS/PCT, BS/PCT/CLASS/LEVEL or BS/PCT/CLASS/LEVEL/HINT",
			 text);
		return -EINVAL;
	}
	char err[SB_VERR_LEN];
	uint64_t bs;
	int64_t pct, cls = 0, lvl = 0;
	unsigned kb = s->kb_base ? s->kb_base : 1024;
	if (sb_parse_size(f[0], kb, &bs, err) || !bs) {
		snprintf(why, wl, "block size '%s': expected a size such as 4k", f[0]);
		return -EINVAL;
	}
	if (sb_parse_int(f[1], 0, 100, &pct, err)) {
		snprintf(why, wl, "percentage '%s': expected 0 to 100", f[1]);
		return -EINVAL;
	}
	if (n >= 4 && (sb_parse_int(f[2], 1, 3, &cls, err) || sb_parse_int(f[3], 0, 7, &lvl, err))) {
		snprintf(why, wl, "priority '%s/%s': expected CLASS 1-3 (1 realtime, 2 best-effort, "
			 "3 idle) and LEVEL 0-7", f[2], f[3]);
		return -EINVAL;
	}
	if (!pct) /* fio: entries of 0% give no I/O a priority */
		return 0;
	unsigned total = (unsigned)pct;
	for (unsigned i = 0; i < s->cmdprio.bs_n[d]; i++)
		total += s->cmdprio.bs[d][i].bs == bs ? s->cmdprio.bs[d][i].pct : 0;
	if (total > 100) {
		snprintf(why, wl, "the entries of block size %llu add up to %u%% (at most 100)",
			 (unsigned long long)bs, total);
		return -EINVAL;
	}
	if (s->cmdprio.bs_n[d] >= SB_CMDPRIO_BS_MAX) {
		snprintf(why, wl, "more than %d entries", SB_CMDPRIO_BS_MAX);
		return -EINVAL;
	}
	s->cmdprio.bs[d][s->cmdprio.bs_n[d]++] = (struct sb_cmdprio_bs){
		.bs = bs, .pct = (unsigned)pct,
		.ioprio = n >= 4 ? prio_of((unsigned)cls, (unsigned)lvl)
				 : prio_of((unsigned)s->cmdprio.cls[d], (unsigned)s->cmdprio.level[d]) };
	return 0;
}

static unsigned distinct_prios(const struct sb_cmdprio *c, unsigned d)
{
	unsigned n = 0;
	for (unsigned i = 0; i < c->bs_n[d]; i++) {
		unsigned j = 0;
		while (j < i && c->bs[d][j].ioprio != c->bs[d][i].ioprio)
			j++;
		n += j == i;
	}
	return n;
}

/* READ's list[,WRITE's list[,TRIM's, ignored]]; one list serves both */
static int parse_bssplit(struct sb_jobspec *s, char *why, size_t wl)
{
	char *copy = strdup(s->cmdprio.bssplit), *part[3] = { NULL, NULL, NULL };
	unsigned np = 0;
	if (!copy) {
		snprintf(why, wl, "out of memory");
		return -ENOMEM;
	}
	for (char *p = copy; np < 3; np++) {
		part[np] = p;
		char *c = strchr(p, ',');
		if (!c) {
			np++;
			break;
		}
		*c = '\0';
		p = c + 1;
	}
	int r = 0;
	for (unsigned d = 0; d < 2 && !r; d++) {
		char *list = strdup(part[d < np ? d : 0]); /* tokenized: one copy each */
		if (!list) {
			snprintf(why, wl, "out of memory");
			r = -ENOMEM;
			break;
		}
		for (char *e = list, *save = NULL; !r && (e = strtok_r(e, ":", &save)); e = NULL)
			r = parse_entry(s, d, e, why, wl);
		free(list);
	}
	free(copy);
	return r;
}

unsigned sb_job_validate_cmdprio(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], why[256];
	const struct sb_option *set = NULL;
	for (unsigned i = 0; i < 4 && !set; i++)
		if (sb_job_isset(c, rows(i)))
			set = rows(i);
	s->cmdprio.bs_n[0] = s->cmdprio.bs_n[1] = 0;
	s->cmdprio.on = false;
	if (!set)
		return 0;
	sb_job_where(c, set, where, sizeof(where));
	if (strcmp(s->ioengine, "libaio") && strcmp(s->ioengine, "io_uring")) {
		sb_err(where, "%s: a per-I/O priority of ioengine=libaio and io_uring, and this job "
		       "uses ioengine=%s: use one of those engines, or prio=/prioclass= for all of "
		       "the job's I/O", set->name, s->ioengine);
		return 1;
	}
	bool pct = s->cmdprio.pct[0] || s->cmdprio.pct[1];
	bool bss = s->cmdprio.bssplit && *s->cmdprio.bssplit;
	if (pct && bss) {
		sb_err(sb_job_where(c, SB_OPT(cmdprio.bssplit), where, sizeof(where)),
		       "cmdprio_bssplit=%s with cmdprio_percentage: the two are exclusive (as in fio): "
		       "keep one", s->cmdprio.bssplit);
		return 1;
	}
	if (sb_job_isset(c, SB_OPT(cmdprio.cls)) && (!s->cmdprio.cls[0] || !s->cmdprio.cls[1])) {
		sb_err(sb_job_where(c, SB_OPT(cmdprio.cls), where, sizeof(where)),
		       "cmdprio_class: class 0 is no class: expected 1 (realtime), 2 (best-effort) "
		       "or 3 (idle), READ[,WRITE]");
		return 1;
	}
	if (bss && parse_bssplit(s, why, sizeof(why))) {
		sb_err(sb_job_where(c, SB_OPT(cmdprio.bssplit), where, sizeof(where)),
		       "cmdprio_bssplit=%s: %s: expected BS/PCT[/CLASS/LEVEL[/HINT]] entries separated by "
		       "':', READ's list[,WRITE's list], e.g. 64k/30:1m/50/1/0", s->cmdprio.bssplit, why);
		s->cmdprio.bs_n[0] = s->cmdprio.bs_n[1] = 0;
		return 1;
	}
	for (unsigned d = 0; pct && d < 2; d++) /* bs 0: every block size */
		if (s->cmdprio.pct[d])
			s->cmdprio.bs[d][s->cmdprio.bs_n[d]++] = (struct sb_cmdprio_bs){
				.bs = 0, .pct = (unsigned)s->cmdprio.pct[d],
				.ioprio = prio_of((unsigned)s->cmdprio.cls[d],
						  (unsigned)s->cmdprio.level[d]) };
	for (unsigned d = 0; d < 2; d++) {
		unsigned n = distinct_prios(&s->cmdprio, d);
		if (n > SB_CMDPRIO_PRIOS_MAX) {
			sb_err(where, "%s: the %s name %u different priorities: storbench keeps "
			       "latency by priority for at most %d a direction: use fewer CLASS/LEVEL "
			       "pairs", set->name, d ? "writes" : "reads", n, SB_CMDPRIO_PRIOS_MAX);
			s->cmdprio.bs_n[0] = s->cmdprio.bs_n[1] = 0;
			return 1;
		}
		s->cmdprio.on |= s->cmdprio.bs_n[d] && sb_spec_does(s, (enum sb_ddir)d);
	}
	return 0;
}
