/* output.c: choosing and running the writers (--output-format). */
#include <errno.h>
#include <string.h>

#include "output/output.h"

static int write_json(FILE *f, const struct sb_results *r)
{
	return sb_write_json(f, r, false);
}

static int write_jsonplus(FILE *f, const struct sb_results *r)
{
	return sb_write_json(f, r, true);
}

/* The one list of formats: --output-format's parser, its error message,
 * --help (checked by t/unit), the bash completion and the writer selection
 * read it.  Written in this order; a format whose `unless` bit is also
 * asked for is left out (json and json+ together write one document:
 * json+, a superset). */
static const struct sb_writer {
	const char *name;
	unsigned bit;
	unsigned unless;
	int (*write)(FILE *f, const struct sb_results *r);
} formats[] = {
	{ "normal", SB_FMT_NORMAL, 0, sb_write_normal },
	{ "terse", SB_FMT_TERSE, 0, sb_write_terse },
	{ "json", SB_FMT_JSON, SB_FMT_JSONPLUS, write_json },
	{ "json+", SB_FMT_JSONPLUS, 0, write_jsonplus },
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

const char *sb_output_format_name(unsigned i)
{
	return i < NFORMATS ? formats[i].name : NULL;
}

void sb_output_format_list(char *buf, size_t len, const char *sep, const char *last)
{
	size_t at = 0;
	if (!len)
		return;
	buf[0] = 0;
	for (unsigned i = 0; i < NFORMATS && at < len; i++) {
		int n = snprintf(buf + at, len - at, "%s%s", i == 0 ? "" : i + 1 == NFORMATS ? last : sep,
				 formats[i].name);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

static int format_bit(const char *s, size_t len, unsigned *bit)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	for (size_t i = 0; i < NFORMATS; i++) {
		if (strlen(formats[i].name) == len && !strncmp(formats[i].name, s, len)) {
			*bit = formats[i].bit;
			return 0;
		}
	}
	return -EINVAL;
}

int sb_output_parse_formats(const char *s, unsigned *mask)
{
	unsigned m = 0;
	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		unsigned bit;
		if (format_bit(s, len, &bit))
			return -EINVAL;
		m |= bit;
		if (!comma)
			break;
		s = comma + 1;
	}
	*mask = m;
	return 0;
}

/* every format in mask, in the table's order */
int sb_output_write(FILE *f, const struct sb_results *r, unsigned mask)
{
	int rc = 0;
	for (size_t i = 0; i < NFORMATS; i++) {
		if (!(mask & formats[i].bit) || (mask & formats[i].unless))
			continue;
		int e = formats[i].write(f, r);
		rc = rc ? rc : e;
	}
	if (fflush(f) && !rc)
		rc = -EIO;
	return rc;
}
