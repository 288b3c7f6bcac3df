/* zones.c: random_distribution's zone lists (zoned:ACCESS/SIZE%:...,
 * zoned_abs:ACCESS/BYTES:...), parsed with fio 3.33's rules (see value.h).
 * Pure functions: text in, zones out, or -EINVAL and a message naming what
 * is accepted. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/value.h"

static const char *skip_ws(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* one direction's zones: ACCESS/SIZE entries separated by ':'.  As fio
 * 3.33 (options.c:87-116, 1095-1103): with zoned, a SIZE left out ("20",
 * "20/") or 0 shares what the others leave, equally, in whole percents; an
 * empty entry ends the list (a trailing ':'). */
static int zones_one(const char *part, unsigned kb, bool abs, struct sb_zone *z, unsigned *n,
		     char *err)
{
	const char *ex = abs ? "zoned_abs:60/20g:30/100g:10/500g" : "zoned:60/10:30/20:8/30:2/40";
	double acc = 0, sz = 0;
	unsigned missing = 0;
	*n = 0;
	for (const char *p = part; *p;) {
		size_t len = strcspn(p, ":");
		char ent[128];
		if (!*skip_ws(p) || (*skip_ws(p) == ':' && !*skip_ws(p + strspn(p, ": \t"))))
			break; /* nothing but ':' and blanks left: the list's end */
		if (len >= sizeof(ent) || *n == SB_ZONES_MAX) {
			snprintf(err, SB_VERR_LEN, "'%s': too many or too long zones: expected at most "
				 "%u zones ACCESS/SIZE separated by ':', e.g. %s", part, SB_ZONES_MAX, ex);
			return -EINVAL;
		}
		memcpy(ent, p, len);
		ent[len] = '\0';
		char *slash = strchr(ent, '/'), *end;
		if (!slash && abs)
			goto bad;
		if (slash) /* zoned without one: no size, it shares the rest */
			*slash = '\0';
		double a = strtod(ent, &end);
		if (end == ent || *skip_ws(end) || !(a >= 0 && a <= 100))
			goto bad;
		z[*n].access_pct = a;
		const char *b = slash ? skip_ws(slash + 1) : "";
		if (abs) {
			if (sb_parse_size(b, kb, &z[*n].size, err))
				goto bad;
		} else if (!*b) {
			z[*n].size_pct = -1; /* left out: shares the rest */
			missing++;
		} else {
			double v = strtod(b, &end);
			if (*end == '%')
				end++;
			if (end == b || *skip_ws(end) || !(v >= 0 && v <= 100))
				goto bad;
			z[*n].size_pct = v ? v : -1; /* fio: 0 is left out */
			missing += !v;
			sz += v;
		}
		acc += a;
		(*n)++;
		p += len;
		if (*p == ':')
			p++;
	}
	if (!*n)
		goto bad;
	if (fabs(acc - 100.0) > 1e-6) {
		snprintf(err, SB_VERR_LEN, "the zones' access percentages add up to %g, not 100: make "
			 "the numbers before each '/' sum to 100, e.g. %s", acc, ex);
		return -EINVAL;
	}
	if (sz > 100.0 + 1e-6) {
		snprintf(err, SB_VERR_LEN, "the zones' sizes add up to %g%%, more than 100%%: make the "
			 "numbers after each '/' sum to at most 100, e.g. %s", sz, ex);
		return -EINVAL;
	}
	for (unsigned i = 0; missing && i < *n; i++)
		if (z[i].size_pct < 0)
			z[i].size_pct = floor((100.0 - sz) / missing);
	return 0;
bad:
	snprintf(err, SB_VERR_LEN, "invalid zone list '%s': expected ACCESS/%s entries (ACCESS a "
		 "percentage 0-100) separated by ':', e.g. %s", part,
		 abs ? "BYTES" : "SIZE (a percentage 0-100)", ex);
	return -EINVAL;
}

int sb_parse_zones(const char *s, unsigned kb, enum sb_dist *dist,
		   struct sb_zone zones[SB_DDIR_N][SB_ZONES_MAX], unsigned n[SB_DDIR_N], char *err)
{
	const char *p = skip_ws(s);
	bool abs = !strncasecmp(p, "zoned_abs:", 10);
	if (!abs && strncasecmp(p, "zoned:", 6)) {
		snprintf(err, SB_VERR_LEN, "'%s': expected zoned:ACCESS/SIZE%%:... or "
			 "zoned_abs:ACCESS/BYTES:..., e.g. zoned:60/10:30/20:8/30:2/40", s);
		return -EINVAL;
	}
	char buf[4096];
	const char *part[SB_DDIR_N];
	if (sb_split_ddir(p + (abs ? 10 : 6), buf, sizeof(buf), part, err))
		return -EINVAL;
	for (unsigned d = 0; d < SB_DDIR_N; d++) {
		if (!part[d]) {
			n[d] = 0;
			continue;
		}
		if (d && part[d] == part[d - 1]) {
			memcpy(zones[d], zones[d - 1], sizeof(zones[d]));
			n[d] = n[d - 1];
			continue;
		}
		if (zones_one(part[d], kb, abs, zones[d], &n[d], err))
			return -EINVAL;
	}
	*dist = abs ? SB_DIST_ZONED_ABS : SB_DIST_ZONED;
	return 0;
}
