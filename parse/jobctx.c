/* jobctx.c: where a job's options came from (jobparse.h): the helpers every
 * check file uses (check.c, check_*.c, the workloads' checks), apart from
 * the checks so that those form no circle. */
#include "parse/ini.h"
#include "parse/jobparse.h"

const struct sb_optsrc *sb_job_src(const struct sb_jobctx *c, const struct sb_option *o)
{
	return &c->src[sb_option_index(o)];
}

bool sb_job_isset(const struct sb_jobctx *c, const struct sb_option *o)
{
	return sb_job_src(c, o)->file != NULL;
}

const char *sb_job_where(const struct sb_jobctx *c, const struct sb_option *o, char *buf,
			 unsigned len)
{
	const struct sb_optsrc *s = o ? sb_job_src(c, o) : NULL;
	if (s && s->file)
		return sb_ini_where(buf, len, s->file, s->line);
	return sb_ini_where(buf, len, c->spec.file, c->spec.line);
}
