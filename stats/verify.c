/* verify.c: the verify result (stats/verify.h): counting, keeping the first
 * failures, merging threads into a job result. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/verify.h"

static const char *const kind_names[SB_VFY_KIND_N] = {
	[SB_VFY_CORRUPT] = "bit_corruption",
	[SB_VFY_MISPLACED] = "misplaced",
	[SB_VFY_STALE] = "stale",
	[SB_VFY_TORN] = "torn",
	[SB_VFY_NEVER_WRITTEN] = "never_written",
};

const char *sb_verify_kind_name(enum sb_verify_kind k)
{
	return (unsigned)k < SB_VFY_KIND_N ? kind_names[k] : "unknown";
}

struct sb_verify_result *sb_verify_result_new(const char *type)
{
	struct sb_verify_result *v = calloc(1, sizeof(*v));
	if (v)
		snprintf(v->type, sizeof(v->type), "%s", type ? type : "");
	return v;
}

void sb_verify_result_free(struct sb_verify_result *v)
{
	if (!v)
		return;
	for (unsigned i = 0; i < v->nfirst; i++)
		free(v->first[i].file);
	free(v->first);
	free(v);
}

static int keep(struct sb_verify_result *v, const struct sb_verify_failure *f)
{
	if (v->nfirst >= SB_VERIFY_FIRST_MAX)
		return 0;
	if (!v->first && !(v->first = calloc(SB_VERIFY_FIRST_MAX, sizeof(*v->first))))
		return -ENOMEM;
	struct sb_verify_failure *k = &v->first[v->nfirst];
	*k = *f;
	k->file = strdup(f->file ? f->file : "");
	if (!k->file)
		return -ENOMEM;
	v->nfirst++;
	return 0;
}

int sb_verify_record(struct sb_verify_result *v, enum sb_verify_kind kind, const char *file,
		     uint64_t offset, uint64_t length, unsigned thread, const char *expected,
		     const char *found)
{
	if ((unsigned)kind >= SB_VFY_KIND_N)
		return -EINVAL;
	v->failures[kind]++;
	struct sb_verify_failure f = { .kind = kind, .file = (char *)file, .offset = offset,
				       .length = length, .thread = thread };
	snprintf(f.expected, sizeof(f.expected), "%s", expected ? expected : "");
	snprintf(f.found, sizeof(f.found), "%s", found ? found : "");
	return keep(v, &f);
}

int sb_verify_merge(struct sb_verify_result *dst, const struct sb_verify_result *src)
{
	int e = 0;
	if (!dst->type[0])
		memcpy(dst->type, src->type, sizeof(dst->type));
	dst->blocks += src->blocks;
	dst->bytes += src->bytes;
	for (int k = 0; k < SB_VFY_KIND_N; k++)
		dst->failures[k] += src->failures[k];
	for (unsigned i = 0; i < src->nfirst && !e; i++)
		e = keep(dst, &src->first[i]);
	return e;
}

uint64_t sb_verify_nfail(const struct sb_verify_result *v)
{
	uint64_t n = 0;
	for (int k = 0; v && k < SB_VFY_KIND_N; k++)
		n += v->failures[k];
	return n;
}
