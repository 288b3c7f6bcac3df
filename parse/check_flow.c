/* check_flow.c: validation and decoding of the flow-and-control and
 * stats-and-clocks options: ignore_error's errno lists, steadystate's
 * criterion, rate_min against rate, and
 * gtod_reduce expanded into the disable_* switches as fio does.  Runs before
 * anything touches a disk; every error names file:line, the option, the
 * value and the way out. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"
#include "parse/value.h"

/* an errno from its name (EIO, eio) or number; 0 when neither */
static int errno_of(const char *tok)
{
	char *end;
	if (isdigit((unsigned char)tok[0])) {
		long v = strtol(tok, &end, 10);
		return *end || v <= 0 || v > 4095 ? 0 : (int)v;
	}
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);
		if (n && !strcasecmp(n, tok))
			return e;
	}
	return 0;
}

/* fio's ignore_error: READ[,WRITE[,VERIFY]], each a ':' list */
static unsigned check_ignore_error(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], buf[1024];
	memset(s->ignore_err_n, 0, sizeof(s->ignore_err_n));
	if (!s->ignore_error || !*s->ignore_error)
		return 0;
	snprintf(buf, sizeof(buf), "%s", s->ignore_error);
	unsigned dir = 0;
	char *save1 = NULL;
	for (char *list = strtok_r(buf, ",", &save1); list; list = strtok_r(NULL, ",", &save1), dir++) {
		const char *bad = NULL, *why = NULL;
		if (dir >= 3) {
			bad = list;
			why = "more than three lists";
		}
		char *save2 = NULL;
		for (char *tok = bad ? NULL : strtok_r(list, ":", &save2); tok && !bad;
		     tok = strtok_r(NULL, ":", &save2)) {
			int e = errno_of(tok);
			if (!e) {
				bad = tok;
				why = "not an errno name or number";
			} else if (s->ignore_err_n[dir] >= SB_IGNERR_MAX) {
				bad = tok;
				why = "too many errors in one list";
			} else {
				s->ignore_err[dir][s->ignore_err_n[dir]++] = e;
			}
		}
		if (bad) {
			sb_err(sb_job_where(c, SB_OPT(ignore_error), where, sizeof(where)),
			       "ignore_error=%s: '%s' is %s: expected READ[,WRITE[,VERIFY]] lists of "
			       "errno names or numbers joined by ':' (at most %d each), e.g. "
			       "ignore_error=EIO:ENOSPC,EIO", s->ignore_error, bad, why, SB_IGNERR_MAX);
			memset(s->ignore_err_n, 0, sizeof(s->ignore_err_n));
			return 1;
		}
	}
	return 0;
}

static const struct {
	const char *name;
	enum sb_ss_kind kind;
} ss_kinds[] = {
	{ "iops", SB_SS_IOPS }, { "iops_slope", SB_SS_IOPS_SLOPE },
	{ "bw", SB_SS_BW }, { "bw_slope", SB_SS_BW_SLOPE },
};

/* steadystate=KIND:LIMIT[%] (fio's syntax); a bw limit takes size suffixes */
static unsigned check_steadystate(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], name[32], err[SB_VERR_LEN];
	const char *v = s->steadystate ? s->steadystate : "";
	const char *colon = strchr(v, ':');
	size_t nlen = colon ? (size_t)(colon - v) : strlen(v);
	const char *why = "unknown criterion";
	snprintf(name, sizeof(name), "%.*s", (int)(nlen < 31 ? nlen : 31), v);
	bool found = false;
	for (unsigned i = 0; i < sizeof(ss_kinds) / sizeof(ss_kinds[0]); i++)
		if (!strcasecmp(ss_kinds[i].name, name) && nlen < 31) {
			s->ss_kind = ss_kinds[i].kind;
			found = true;
		}
	if (found) {
		const char *lim = colon ? colon + 1 : "";
		size_t ll = strlen(lim);
		char *end = NULL;
		s->ss_pct = ll && lim[ll - 1] == '%';
		why = "the limit after ':' is missing or not a number";
		if (s->ss_pct || s->ss_kind == SB_SS_IOPS || s->ss_kind == SB_SS_IOPS_SLOPE) {
			s->ss_limit = ll ? strtod(lim, &end) : -1;
			if (ll && end == lim + ll - (s->ss_pct ? 1 : 0) && s->ss_limit >= 0)
				why = NULL;
		} else {
			uint64_t b;
			if (ll && !sb_parse_size(lim, s->kb_base, &b, err)) {
				s->ss_limit = (double)b;
				why = NULL;
			}
		}
	}
	if (why) {
		sb_err(sb_job_where(c, SB_OPT(steadystate), where, sizeof(where)),
		       "steadystate=%s: %s: expected iops, iops_slope, bw or bw_slope, ':' and a "
		       "limit, either absolute (IOPS, or bytes/s with k/m/g for bw) or N%% of the "
		       "mean, e.g. steadystate=iops:5%%",
		       v, why);
		return 1;
	}
	if (s->ss_dur_us % SB_US_PER_SEC) {
		sb_err(sb_job_where(c, SB_OPT(ss_dur_us), where, sizeof(where)),
		       "steadystate_duration=%s: steady state is judged on one sample per second: "
		       "expected whole seconds, e.g. ss_dur=30s",
		       sb_job_src(c, SB_OPT(ss_dur_us))->raw);
		return 1;
	}
	return 0;
}

static unsigned check_rate_min(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	bool bmin = false, imin = false;
	for (int d = 0; d < SB_DDIR_N; d++) {
		bmin |= s->rate_min[d] != 0;
		imin |= s->rate_iops_min[d] != 0;
	}
	if (bmin && imin) {
		sb_err(sb_job_where(c, SB_OPT(rate_iops_min), where, sizeof(where)),
		       "rate_iops_min=%s with rate_min=%s: a minimum is either in bytes/s or in IOPS "
		       "(fio refuses both): keep one of them",
		       sb_job_src(c, SB_OPT(rate_iops_min))->raw, sb_job_src(c, SB_OPT(rate_min))->raw);
		return 1;
	}
	for (int d = 0; d < SB_DDIR_N; d++) {
		bool bad = (s->rate_min[d] && s->rate[d] && s->rate_min[d] > s->rate[d]) ||
			   (s->rate_iops_min[d] && s->rate_iops[d] && s->rate_iops_min[d] > s->rate_iops[d]);
		if (!bad)
			continue;
		const struct sb_option *o = bmin ? SB_OPT(rate_min) : SB_OPT(rate_iops_min);
		const struct sb_option *cap = bmin ? SB_OPT(rate) : SB_OPT(rate_iops);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=%s: the %s minimum is above %s=%s: a job cannot be held under a cap and "
		       "kept over a higher minimum; expected a minimum of at most the cap",
		       o->name, sb_job_src(c, o)->raw, d == 0 ? "read" : d == 1 ? "write" : "trim", cap->name,
		       sb_job_src(c, cap)->raw);
		return 1;
	}
	return 0;
}

/* gtod_reduce turns the other switches on, as in fio; any latency switch
 * off also drops that latency's percentiles */
static void derive_stats(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	if (s->gtod_reduce) {
		s->disable_lat = s->disable_clat = s->disable_slat = s->disable_bw = true;
	}
	if (s->disable_clat)
		s->clat_percentiles = false;
	if (s->disable_lat)
		s->lat_percentiles = false;
	if (s->disable_slat)
		s->slat_percentiles = false;
}

unsigned sb_job_validate_flow(struct sb_jobctx *c)
{
	derive_stats(c);
	return check_ignore_error(c) + check_steadystate(c) + check_rate_min(c);
}
