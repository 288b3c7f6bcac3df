/* check_buf.c: validation of the buffer-contents options (buffer_pattern,
 * which it also decodes into the spec's derived bufpat fields) and of the
 * checkpoint's verification option (checkpoint_verify).  Runs before
 * anything touches a disk; every error names file:line, the option, the
 * value and the way out. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"
#include "parse/workloads.h"
#include "lib/pattern.h"

static unsigned check_pattern(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], err[160];
	size_t len = 0;
	s->bufpat_len = s->bufpat_nofs = 0;
	if (!s->buffer_pattern)
		return 0;
	const char *text = s->buffer_pattern;
	int r = sb_pattern_parse(text, s->bufpat, sizeof(s->bufpat), &len, s->bufpat_ofs,
				 SB_BUFPAT_OFS_MAX, &s->bufpat_nofs, err, sizeof(err));
	if (r && !strpbrk(text, "\"%") && !isdigit((unsigned char)text[0]) && text[0] != '-' &&
	    strlen(text) <= SB_BUFPAT_MAX) {
		/* fio's buffer_pattern="abcd" reaches us as abcd (the job-file
		 * layer drops the quotes around a whole value): a string */
		char quoted[SB_BUFPAT_MAX + 3], err2[160];
		snprintf(quoted, sizeof(quoted), "\"%s\"", text);
		if (!sb_pattern_parse(quoted, s->bufpat, sizeof(s->bufpat), &len, s->bufpat_ofs,
				      SB_BUFPAT_OFS_MAX, &s->bufpat_nofs, err2, sizeof(err2)))
			r = 0;
	}
	if (r) {
		s->bufpat_nofs = 0;
		sb_err(sb_job_where(c, SB_OPT(buffer_pattern), where, sizeof(where)),
		       "%s=%s: %s: expected 0xHEX, a decimal number, \"string\" or %%o, written one "
		       "after the other, e.g. %s=0xdeadbeef\"abc\"%%o", SB_OPT(buffer_pattern)->name,
		       text, err, SB_OPT(buffer_pattern)->name);
		return 1;
	}
	s->bufpat_len = (unsigned)len;
	return 0;
}

/* dedupe_global shares a working set between I/O jobs' writes; the ML
 * workloads' files keep their own recipe (ml/content.h) */
static unsigned check_dedupe_global(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (!s->dedupe_global || sb_spec_is_io(s))
		return 0;
	sb_err(sb_job_where(c, SB_OPT(dedupe_global), where, sizeof(where)),
	       "%s=1 shares the dedupe working set between the writes of I/O jobs, but job '%s' "
	       "is an ML workload whose files dedupe against their own blocks: drop %s (%s and "
	       "%s still apply)", SB_OPT(dedupe_global)->name, s->name,
	       SB_OPT(dedupe_global)->name, SB_OPT(dedupe_percentage)->name,
	       SB_OPT(dedupe_mode)->name);
	return 1;
}

unsigned sb_job_validate_buf(struct sb_jobctx *c)
{
	return check_pattern(c) + check_dedupe_global(c);
}
