/* cmpopt.c: which options two job specs differ in, for the comparison table
 * (see compare.h).  The options compared are the rows of the option table
 * (parse/options.c) that change what a job's I/O does: rows flagged
 * SB_OF_IDENTITY (name, ordering, logs), SB_OF_ML (ML workloads),
 * SB_OF_INVERSE (a second name of another row) and SB_OF_INBS (compared
 * through bs) are left out.  Values are compared as the table writes them
 * back in job-file syntax (sb_option_text), so that equal settings compare
 * equal however they were written ("4k" and "4096", an explicit default and
 * none).  A row added to the table is compared without an edit here. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "output/compare.h"
#include "parse/options.h"

#define NOT_COMPARED (SB_OF_IDENTITY | SB_OF_ML | SB_OF_INVERSE | SB_OF_INBS)

/* the compared rows, in table order (built once; the table is constant) */
static const struct sb_option *rows[SB_OPT_MAX];
static unsigned nrows;

static void init_rows(void)
{
	if (nrows)
		return;
	unsigned n = 0;
	for (unsigned i = 0; i < sb_options_count(); i++)
		if (!(sb_option_at(i)->flags & NOT_COMPARED))
			rows[n++] = sb_option_at(i);
	nrows = n;
}

unsigned sb_cmp_diff(const struct sb_jobspec *a, const struct sb_jobspec *b, const char **first)
{
	char va[SB_CMP_VALUE_MAX], vb[SB_CMP_VALUE_MAX];
	bool no_qdepth = a->engine_sync || b->engine_sync; /* derived by the parser */
	unsigned n = 0;
	init_rows();
	if (first)
		*first = NULL;
	for (unsigned k = 0; k < nrows; k++) {
		if ((rows[k]->flags & SB_OF_QDEPTH) && no_qdepth)
			continue;
		sb_option_text(rows[k], a, va, sizeof(va));
		sb_option_text(rows[k], b, vb, sizeof(vb));
		if (strcmp(va, vb)) {
			if (!n && first)
				*first = rows[k]->name;
			n++;
		}
	}
	return n;
}

char *sb_cmp_value(const struct sb_jobspec *s, const char *name, char *buf, size_t len)
{
	const struct sb_option *o = sb_option_find(name);
	if (len)
		buf[0] = 0;
	if (o && len && !(o->flags & NOT_COMPARED))
		sb_option_text(o, s, buf, len);
	return buf;
}

unsigned sb_cmp_nopts(void)
{
	init_rows();
	return nrows;
}

const char *sb_cmp_opt_name(unsigned k)
{
	init_rows();
	return k < nrows ? rows[k]->name : NULL;
}

bool sb_cmp_opt_qdepth(unsigned k)
{
	init_rows();
	return k < nrows && (rows[k]->flags & SB_OF_QDEPTH);
}

unsigned sb_cmp_opt_engine(void)
{
	const struct sb_option *eng = SB_OPT(ioengine);
	init_rows();
	for (unsigned k = 0; k < nrows; k++)
		if (rows[k] == eng)
			return k;
	return nrows;
}

/* FNV-1a over the text, then splitmix64's finalizer to spread the bits */
static uint64_t hash_str(const char *v)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *v; v++)
		h = (h ^ (unsigned char)*v) * 0x100000001b3ull;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

void sb_cmp_hashes(const struct sb_jobspec *s, uint64_t *h)
{
	char v[SB_CMP_VALUE_MAX];
	init_rows();
	for (unsigned k = 0; k < nrows; k++) {
		if ((rows[k]->flags & SB_OF_QDEPTH) && s->engine_sync) {
			h[k] = 0;
			continue;
		}
		sb_option_text(rows[k], s, v, sizeof(v));
		h[k] = hash_str(v);
	}
}
