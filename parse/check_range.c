/* check_range.c: byte counts and offsets that no file can hold.  A file
 * offset is an off_t: at most 2^63-1.  Each of size=, io_size=, offset=,
 * offset_increment= and filesize= must fit in it (fio 3.33 reads them
 * with strtoll and says "failed parsing", parse.c:384-387,
 * 1192), and so must the end of the last thread's region, offset +
 * (numjobs-1) x offset_increment + the file's bytes, computed without
 * wrapping around 2^64.  Runs before anything touches a disk; every error
 * names file:line, the option, the value and the way out. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

#define OFF_MAX ((uint64_t)INT64_MAX) /* the largest off_t */

/* the value as written; "0" when it is not set */
static const char *raw(const struct sb_jobctx *c, const struct sb_option *o)
{
	const struct sb_optsrc *src = sb_job_src(c, o);
	return src->file && src->raw ? src->raw : "0";
}

static unsigned too_big(const struct sb_jobctx *c, const struct sb_option *o, uint64_t v)
{
	char where[SB_WHERE_MAX];
	if (v <= OFF_MAX)
		return 0;
	sb_err(sb_job_where(c, o, where, sizeof(where)),
	       "%s=%s: %" PRIu64 " bytes is more than %" PRIu64 " (2^63-1, 8 EiB), the largest "
	       "file offset (fio refuses it too): give at most %" PRIu64 " bytes", o->name,
	       raw(c, o), v, OFF_MAX, OFF_MAX);
	return 1;
}

/* a + b, false when it is past OFF_MAX (or wraps) */
static bool add_ok(uint64_t a, uint64_t b, uint64_t *sum)
{
	return !__builtin_add_overflow(a, b, sum) && *sum <= OFF_MAX;
}

static unsigned check_end(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], inc[200] = "";
	uint64_t len = s->filesize_max ? s->filesize_max : s->size, steps, grow, end;
	unsigned n = s->numjobs > 1 ? s->numjobs - 1 : 0;
	bool ok = !__builtin_mul_overflow(s->offset_increment, (uint64_t)n, &steps) &&
		  add_ok(s->offset, steps, &grow) && add_ok(grow, len, &end);
	if (ok)
		return 0;
	const struct sb_option *lo = s->filesize_max ? SB_OPT(filesize_min) : SB_OPT(size);
	const struct sb_option *blame = sb_job_isset(c, SB_OPT(offset)) ? SB_OPT(offset) :
					steps ? SB_OPT(offset_increment) : lo;
	if (steps)
		snprintf(inc, sizeof(inc), " + %u x %s=%s (numjobs=%u)", n, SB_OPT(offset_increment)->name,
			 raw(c, SB_OPT(offset_increment)), s->numjobs);
	sb_err(sb_job_where(c, blame, where, sizeof(where)),
	       "job '%s': %s=%s%s + %s=%s ends past byte %" PRIu64 " (2^63-1), the largest file "
	       "offset: no file can hold that region; lower %s=%s or %s=", s->name,
	       SB_OPT(offset)->name, raw(c, SB_OPT(offset)), inc, lo->name, raw(c, lo), OFF_MAX, SB_OPT(offset)->name,
	       steps ? " or offset_increment=" : "", lo->name);
	return 1;
}

unsigned sb_job_validate_range(struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	unsigned n = too_big(c, SB_OPT(size), s->size) + too_big(c, SB_OPT(io_size), s->io_size) +
		     too_big(c, SB_OPT(offset), s->offset) +
		     too_big(c, SB_OPT(offset_increment), s->offset_increment) +
		     too_big(c, SB_OPT(filesize_min), s->filesize_max);
	return n ? n : check_end(c);
}
