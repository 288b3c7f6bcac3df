/* check_fill.c: validation of fill_device / fill_fs.
 * fio 3.33 fills only by writing forward: with rw=randwrite and no size= it
 * does no I/O at all (io_bytes 0), and with a read job it fills the file
 * system before reading; storbench takes sequential writes only and says
 * how to get the rest.  Every error names file:line, the option, the value
 * and the way out. */
#include <stdio.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

static unsigned check_fill(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	const struct sb_option *o = SB_OPT(fill_device), *rw = SB_OPT(rw);
	char where[SB_WHERE_MAX], w[300];
	if (!s->fill_device || s->rw == SB_RW_WRITE)
		return 0;
	const struct sb_optsrc *src = sb_job_src(c, rw);
	if (src->file)
		snprintf(w, sizeof(w), "%s=%s", rw->name, src->raw);
	else
		snprintf(w, sizeof(w), "%s=%s (default)", rw->name, rw->def ? rw->def : "read");
	sb_err(sb_job_where(c, o, where, sizeof(where)),
	       "%s=%s with %s: filling the file system takes sequential writes (rw=write); for a "
	       "read or random job, fill first in a job of its own with rw=write and %s=1, then "
	       "run this one after it (stonewall)", o->name, sb_job_src(c, o)->raw, w, o->name);
	return 1;
}

unsigned sb_job_validate_fill(struct sb_jobctx *c)
{
	return check_fill(c);
}
