/* check_zone.c: fio's zone options (issue 23): zonemode=, zonesize=,
 * zonerange=, zoneskip=, zonecapacity= and the zbd limits, checked as fio
 * 3.33 checks them (init.c:638-671, options.c:3519-3655).  zonemode=strided
 * runs in run/iogen.c; zonemode=zbd parses (so fio's zbd examples pass
 * --parse-only) and a run refuses it (run/iogen_setup.c).  Every error names
 * file:line, the option, the value and the way out. */
#include <stdio.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

static unsigned zerr(struct sb_jobctx *c, const struct sb_option *o, const char *what)
{
	char where[512];
	sb_err(sb_job_where(c, o, where, sizeof(where)), "%s", what);
	return 1;
}

unsigned sb_job_validate_zone(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char m[400];
	/* fio 3.33 init.c:638: the default zonemode is none ("def" of
	 * options.c:3525), and none with a zonesize is an error */
	if (s->zonemode == SB_ZONE_NONE && s->zonesize) {
		snprintf(m, sizeof(m), "zonesize=%llu with zonemode=none (the default): add "
			 "zonemode=strided (zones of a file) or zonemode=zbd, or drop zonesize (as fio)",
			 (unsigned long long)s->zonesize);
		return zerr(c, SB_OPT(zonesize), m);
	}
	/* init.c:648 */
	if (s->zonemode == SB_ZONE_STRIDED && !s->zonesize)
		return zerr(c, SB_OPT(zonemode),
			    "zonemode=strided needs zonesize= (bytes moved in each zone), e.g. zonesize=256m");
	if (s->zonecapacity && s->zonesize && s->zonecapacity > s->zonesize) {
		snprintf(m, sizeof(m), "zonecapacity=%llu is larger than zonesize=%llu: a zone holds at "
			 "most its size: set zonecapacity <= zonesize (0: zonesize)",
			 (unsigned long long)s->zonecapacity, (unsigned long long)s->zonesize);
		return zerr(c, SB_OPT(zonecapacity), m);
	}
	/* zoneskip=Nz: N zones of zonesize (fio zbd.c:1026, for every zonemode) */
	if (s->zoneskip_nz)
		s->zoneskip = s->zoneskip_nz * s->zonesize;
	/* init.c:670: zonerange defaults to zonesize */
	if (s->zonemode == SB_ZONE_STRIDED && !s->zonerange)
		s->zonerange = s->zonesize;
	return 0;
}
