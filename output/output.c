/* output.c: choosing and running the writers (--output-format). */
#include <errno.h>
#include <string.h>

#include "output/output.h"

static const struct {
	const char *name;
	unsigned bit;
} formats[] = {
	{ "normal", SB_FMT_NORMAL },
	{ "terse", SB_FMT_TERSE },
	{ "json", SB_FMT_JSON },
	{ "json+", SB_FMT_JSONPLUS },
};

static int format_bit(const char *s, size_t len, unsigned *bit)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
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

/* json and json+ together write one document: json+ (a superset). */
int sb_output_write(FILE *f, const struct sb_results *r, unsigned mask)
{
	int rc = 0, e;
	if (mask & SB_FMT_NORMAL) {
		e = sb_write_normal(f, r);
		rc = rc ? rc : e;
	}
	if (mask & SB_FMT_TERSE) {
		e = sb_write_terse(f, r);
		rc = rc ? rc : e;
	}
	if (mask & (SB_FMT_JSON | SB_FMT_JSONPLUS)) {
		e = sb_write_json(f, r, (mask & SB_FMT_JSONPLUS) != 0);
		rc = rc ? rc : e;
	}
	if (fflush(f) && !rc)
		rc = -EIO;
	return rc;
}
