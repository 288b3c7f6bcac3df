/* check_stats.c: validation and derivations of fio's think-time, sample
 * window and log tuning options: profile= (fio's built-in
 * profiles, refused with the way out) and thinktime_iotime without
 * thinktime_blocks (fio then thinks on time alone).  Every error names
 * file:line, the option, the value and the way out. */
#include <time.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

static unsigned check_profile(const struct sb_jobctx *c)
{
	char where[SB_WHERE_MAX];
	if (!c->spec.profile)
		return 0;
	sb_err(sb_job_where(c, SB_OPT(profile), where, sizeof(where)),
	       "profile=%s: fio's built-in profiles (tiobench, act) are not in storbench: write the "
	       "profile's jobs as sections of the job file, or drop profile= (expected: none)",
	       sb_job_src(c, SB_OPT(profile))->raw);
	return 1;
}

/* fio takes any number and logs garbage stamps for a clock that does not
 * exist (clock_id=77: 140576728): refused here */
static unsigned check_epoch_clock(const struct sb_jobctx *c)
{
	char where[SB_WHERE_MAX];
	struct timespec ts;
	unsigned id = c->spec.log_alternate_epoch_clock_id;
	if (!id || !clock_gettime((clockid_t)id, &ts))
		return 0;
	sb_err(sb_job_where(c, SB_OPT(log_alternate_epoch_clock_id), where, sizeof(where)),
	       "log_alternate_epoch_clock_id=%s: clock %u cannot be read here (clock_gettime "
	       "fails); expected a clock id this system has: 0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, "
	       "4 CLOCK_MONOTONIC_RAW, 7 CLOCK_BOOTTIME or 11 CLOCK_TAI",
	       sb_job_src(c, SB_OPT(log_alternate_epoch_clock_id))->raw, id);
	return 1;
}

unsigned sb_job_validate_stats(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	/* fio: thinktime_iotime with thinktime_blocks unset thinks on time alone
	 * (the default thinktime_blocks=1 would think after every I/O) */
	s->think_time_only = s->thinktime_iotime_us && !sb_job_isset(c, SB_OPT(thinktime_blocks));
	return check_profile(c) + check_epoch_clock(c);
}
