/* value.c: option value parsers with fio's semantics (see value.h).  Pure
 * functions: text in, number out, or -EINVAL and a message naming what is
 * accepted. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/value.h"

#define SIZE_FORMS "a byte count such as 4096, 512b, 4k, 1m, 10g, 2t, 1p or 0x1000 " \
	"(k/m/g/t/p are powers of kb_base; ki/mi/gi... are the other base)"
#define TIME_FORMS "a time such as 10, 500us, 20ms, 30s, 5m, 2h or 1d"

static const char *skip_ws(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* Unsigned decimal with an optional fraction: "12", "1.5", ".5". */
static int parse_decimal(const char **pp, uint64_t *ip, double *frac)
{
	const char *p = *pp;
	*ip = 0;
	*frac = 0;
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		unsigned d = (unsigned)(*p - '0');
		if (*ip > (UINT64_MAX - d) / 10)
			return -ERANGE;
		*ip = *ip * 10 + d;
		p++;
	}
	if (*p == '.') {
		double scale = 0.1;
		p++;
		while (isdigit((unsigned char)*p)) {
			*frac += (*p - '0') * scale;
			scale /= 10;
			p++;
		}
	}
	*pp = p;
	return 0;
}

/* power of the unit prefix k/m/g/t/p, or -1 */
static int prefix_pow(char c)
{
	static const char pre[] = "kmgtp";
	const char *q = strchr(pre, tolower((unsigned char)c));
	return (c && q) ? (int)(q - pre) + 1 : -1;
}

/* The size suffix at p (after the number): sets the multiplier. */
static int size_suffix(const char *p, unsigned kb_base, uint64_t *mult)
{
	int pow = 0;
	bool iec = false;
	p = skip_ws(p);
	if (*p && prefix_pow(*p) > 0) {
		pow = prefix_pow(*p++);
		if (tolower((unsigned char)*p) == 'i') {
			iec = true;
			p++;
		}
	}
	if (tolower((unsigned char)*p) == 'b')
		p++;
	if (*skip_ws(p))
		return -EINVAL;
	uint64_t base = kb_base == 1000 ? 1000 : 1024;
	if (iec)
		base = base == 1000 ? 1024 : 1000;
	*mult = 1;
	while (pow--)
		*mult *= base;
	return 0;
}

int sb_parse_size(const char *s, unsigned kb_base, uint64_t *out, char *err)
{
	const char *p = skip_ws(s);
	uint64_t ip, mult;
	double frac;
	if (*p == '-') {
		snprintf(err, SB_VERR_LEN, "size '%s' is negative: expected %s", s, SIZE_FORMS);
		return -EINVAL;
	}
	if (strchr(p, '%')) {
		snprintf(err, SB_VERR_LEN, "'%s': sizes as a percentage of the file or device are not "
			 "supported by storbench; expected a byte count such as 4k, 1m or 10g", s);
		return -EINVAL;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(p + 2, &end, 16);
		if (end == p + 2 || *skip_ws(end) || errno)
			goto bad;
		*out = v;
		return 0;
	}
	int rc = parse_decimal(&p, &ip, &frac);
	if (rc == -ERANGE)
		goto big;
	if (rc || size_suffix(p, kb_base, &mult))
		goto bad;
	if (ip > UINT64_MAX / mult)
		goto big;
	double f = frac * (double)mult;
	if ((double)(UINT64_MAX - ip * mult) < f)
		goto big;
	*out = ip * mult + (uint64_t)f;
	return 0;
bad:
	snprintf(err, SB_VERR_LEN, "invalid size '%s': expected %s", s, SIZE_FORMS);
	return -EINVAL;
big:
	snprintf(err, SB_VERR_LEN, "size '%s' is too large: at most 16 EiB - 1 bytes", s);
	return -EINVAL;
}

static const struct {
	const char *name;
	uint64_t us;
} time_units[] = {
	{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 },
	{ "s", SB_US_PER_SEC }, { "sec", SB_US_PER_SEC },
	{ "m", 60 * SB_US_PER_SEC }, { "min", 60 * SB_US_PER_SEC },
	{ "h", 3600 * SB_US_PER_SEC }, { "d", 86400 * SB_US_PER_SEC },
};

int sb_parse_time(const char *s, uint64_t unit_us, uint64_t *out_us, char *err)
{
	const char *p = skip_ws(s);
	uint64_t ip, mult = unit_us;
	double frac;
	if (*p == '-') {
		snprintf(err, SB_VERR_LEN, "time '%s' is negative: expected %s", s, TIME_FORMS);
		return -EINVAL;
	}
	int rc = parse_decimal(&p, &ip, &frac);
	if (rc)
		goto bad;
	p = skip_ws(p);
	if (*p) {
		size_t n = strlen(p);
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		mult = 0;
		for (size_t i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
			if (strlen(time_units[i].name) == n && !strncasecmp(p, time_units[i].name, n))
				mult = time_units[i].us;
		if (!mult)
			goto bad;
	}
	if (ip > UINT64_MAX / mult / 2) {
		snprintf(err, SB_VERR_LEN, "time '%s' is too large", s);
		return -EINVAL;
	}
	*out_us = ip * mult + (uint64_t)(frac * (double)mult);
	return 0;
bad:
	snprintf(err, SB_VERR_LEN, "invalid time '%s': expected %s (no unit: %s)", s, TIME_FORMS,
		 unit_us == 1 ? "microseconds" : "seconds");
	return -EINVAL;
}

int sb_parse_int(const char *s, int64_t min, int64_t max, int64_t *out, char *err)
{
	const char *p = skip_ws(s);
	char *end;
	long long v;
	errno = 0;
	if ((p[0] == '0' && (p[1] == 'x' || p[1] == 'X')))
		v = (long long)strtoull(p + 2, &end, 16), p += 2;
	else
		v = strtoll(p, &end, 10);
	if (end == p || *skip_ws(end) || errno == ERANGE) {
		snprintf(err, SB_VERR_LEN, "invalid integer '%s': expected an integer from %lld to %lld",
			 s, (long long)min, (long long)max);
		return -EINVAL;
	}
	if (v < min || v > max) {
		snprintf(err, SB_VERR_LEN, "%lld is out of range: expected %lld to %lld", v,
			 (long long)min, (long long)max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int sb_parse_bool(const char *s, bool *out, char *err)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	const char *p = skip_ws(s);
	size_t n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	for (unsigned i = 0; i < 4; i++) {
		if (strlen(yes[i]) == n && !strncasecmp(p, yes[i], n)) {
			*out = true;
			return 0;
		}
		if (strlen(no[i]) == n && !strncasecmp(p, no[i], n)) {
			*out = false;
			return 0;
		}
	}
	snprintf(err, SB_VERR_LEN, "invalid boolean '%s': expected 1/0, true/false, yes/no or on/off", s);
	return -EINVAL;
}

int sb_parse_pct(const char *s, double *out, char *err)
{
	char *end;
	const char *p = skip_ws(s);
	double v = strtod(p, &end);
	if (end != p && *end == '%')
		end++;
	if (end == p || *skip_ws(end) || !isfinite(v) || v < 0 || v > 100) {
		snprintf(err, SB_VERR_LEN, "invalid percentage '%s': expected a number from 0 to 100", s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int sb_parse_size_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi, char *err)
{
	char buf[128];
	const char *p = skip_ws(s);
	const char *sep = strpbrk(p + (*p != 0), "-:");
	if (!sep)
		return sb_parse_size(s, kb_base, lo, err) ? -EINVAL : (*hi = *lo, 0);
	if ((size_t)(sep - p) >= sizeof(buf))
		goto bad;
	memcpy(buf, p, (size_t)(sep - p));
	buf[sep - p] = '\0';
	if (sb_parse_size(buf, kb_base, lo, err) || sb_parse_size(sep + 1, kb_base, hi, err))
		goto bad;
	if (*lo > *hi) {
		uint64_t t = *lo;
		*lo = *hi;
		*hi = t;
	}
	return 0;
bad:
	snprintf(err, SB_VERR_LEN, "invalid range '%s': expected LOW-HIGH or LOW:HIGH sizes, e.g. 4k-64k",
		 s);
	return -EINVAL;
}

int sb_split_ddir(const char *s, char *buf, size_t buflen, const char *part[SB_DDIR_N], char *err)
{
	char *field[SB_DDIR_N + 1];
	unsigned nf = 0;
	if (strlen(s) >= buflen) {
		snprintf(err, SB_VERR_LEN, "value is too long (at most %zu characters)", buflen - 1);
		return -EINVAL;
	}
	strcpy(buf, s);
	for (char *p = buf, *c; nf <= SB_DDIR_N; p = c + 1) {
		field[nf++] = p;
		c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
	}
	if (nf > SB_DDIR_N) {
		snprintf(err, SB_VERR_LEN,
			 "'%s' has more than 3 comma-separated values: expected READ[,WRITE[,TRIM]]", s);
		return -EINVAL;
	}
	bool any = false;
	for (unsigned i = 0; i < nf; i++) {
		char *f = (char *)skip_ws(field[i]);
		size_t n = strlen(f);
		while (n && isspace((unsigned char)f[n - 1]))
			f[--n] = '\0';
		field[i] = n ? f : NULL;
		any |= n != 0;
	}
	if (!any) {
		snprintf(err, SB_VERR_LEN, "empty value: expected READ[,WRITE[,TRIM]], e.g. 4k or 4k,64k");
		return -EINVAL;
	}
	for (unsigned d = 0; d < SB_DDIR_N; d++)
		part[d] = d < nf ? field[d] : field[nf - 1];
	return 0;
}

/* one "bs/pct" entry; pct < 0: left blank.  err gets a short message. */
static int bssplit_entry(char *e, unsigned kb_base, struct sb_bssplit *b, char *err)
{
	char scratch[SB_VERR_LEN];
	char *slash = strchr(e, '/');
	b->pct = -1;
	if (slash) {
		*slash = '\0';
		if (*skip_ws(slash + 1) && sb_parse_pct(slash + 1, &b->pct, scratch)) {
			snprintf(err, 64, "percentage '%.20s' is not 0..100", slash + 1);
			return -EINVAL;
		}
		if (!b->pct) /* fio options.c:103-106: 0 is left blank */
			b->pct = -1;
	}
	if (sb_parse_size(e, kb_base, &b->bs, scratch) || !b->bs) {
		snprintf(err, 64, "block size '%.20s' is not a size >= 1", e);
		return -EINVAL;
	}
	return 0;
}

int sb_parse_bssplit_one(const char *s, unsigned kb_base, struct sb_bssplit *out, unsigned *n,
			 char *err)
{
	char buf[1024], eerr[64];
	unsigned missing = 0;
	double sum = 0;
	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	*n = 0;
	for (char *save = NULL, *e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		if (*n == SB_BSSPLIT_MAX) {
			snprintf(err, SB_VERR_LEN, "bssplit '%s' has more than %d entries", s,
				 SB_BSSPLIT_MAX);
			return -EINVAL;
		}
		if (bssplit_entry(e, kb_base, &out[*n], eerr)) {
			snprintf(err, SB_VERR_LEN, "bssplit '%.100s': %s; expected BS/PCT:BS/PCT..., "
				 "e.g. 4k/50:8k/30:64k/20", s, eerr);
			return -EINVAL;
		}
		if (out[*n].pct < 0)
			missing++;
		else
			sum += out[*n].pct;
		(*n)++;
	}
	if (!*n)
		goto bad;
	if ((!missing && fabs(sum - 100) > 1e-9) || sum > 100 + 1e-9) {
		snprintf(err, SB_VERR_LEN, "bssplit '%s': percentages add up to %g, not 100 "
			 "(leave a percentage empty, as in 4k/50:8k/, to share the rest)", s, sum);
		return -EINVAL;
	}
	for (unsigned i = 0; i < *n; i++)
		if (out[i].pct < 0)
			out[i].pct = (100 - sum) / missing;
	return 0;
bad:
	snprintf(err, SB_VERR_LEN, "invalid bssplit '%s': expected BS/PCT:BS/PCT..., e.g. "
		 "4k/50:8k/30:64k/20", s);
	return -EINVAL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int sb_parse_pctl_list(const char *s, double *out, unsigned max, unsigned *n, char *err)
{
	const char *p = skip_ws(s);
	*n = 0;
	while (*p) {
		char *end;
		double v = strtod(p, &end);
		if (end == p || !isfinite(v) || v <= 0 || v > 100 || (*end && *end != ':'))
			goto bad;
		if (*n == max) {
			snprintf(err, SB_VERR_LEN, "percentile list '%s' has more than %u entries", s, max);
			return -EINVAL;
		}
		out[(*n)++] = v;
		p = *end ? end + 1 : end;
	}
	if (!*n)
		goto bad;
	qsort(out, *n, sizeof(*out), cmp_double);
	return 0;
bad:
	snprintf(err, SB_VERR_LEN, "invalid percentile list '%s': expected numbers in (0, 100] "
		 "separated by ':', e.g. 50:99:99.9", s);
	return -EINVAL;
}

#define DIST_FORMS "random, zipf[:theta], pareto[:h], normal[:sigma], " \
	"zoned:ACCESS%/SIZE%:... or zoned_abs:ACCESS%/BYTES:..."

static int dist_check(enum sb_dist d, double v, char *err)
{
	if (d == SB_DIST_ZIPF && (v <= 0 || v == 1.0))
		snprintf(err, SB_VERR_LEN, "zipf theta %g is out of range: expected > 0 and not 1.0", v);
	else if (d == SB_DIST_PARETO && (v <= 0 || v >= 1))
		snprintf(err, SB_VERR_LEN, "pareto h %g is out of range: expected 0 < h < 1", v);
	else if (d == SB_DIST_NORMAL && (v < 0 || v >= 100))
		snprintf(err, SB_VERR_LEN, "normal sigma %g is out of range: expected 0 <= sigma < 100", v);
	else
		return 0;
	return -EINVAL;
}

/* the distributions' names and fio's default parameters, by enum sb_dist */
static const struct {
	const char *name;
	enum sb_dist d;
	double def;
} dists[] = {
	{ "random", SB_DIST_RANDOM, 0 }, { "zipf", SB_DIST_ZIPF, 1.1 },
	{ "pareto", SB_DIST_PARETO, 0.2 }, { "normal", SB_DIST_NORMAL, 0 },
	{ "zoned", SB_DIST_ZONED, 0 }, { "zoned_abs", SB_DIST_ZONED_ABS, 0 },
};

const char *sb_dist_name(enum sb_dist d)
{
	return (unsigned)d < sizeof(dists) / sizeof(dists[0]) ? dists[d].name : NULL;
}

int sb_parse_distribution(const char *s, enum sb_dist *dist, double *param, char *err)
{
	const char *p = skip_ws(s);
	size_t n = strcspn(p, ":");
	for (unsigned i = 0; i < sizeof(dists) / sizeof(dists[0]); i++) {
		if (strlen(dists[i].name) != n || strncasecmp(p, dists[i].name, n))
			continue;
		double v = dists[i].def;
		if (dists[i].d == SB_DIST_ZONED || dists[i].d == SB_DIST_ZONED_ABS)
			break; /* their zones: sb_parse_zones */
		if (p[n] == ':') {
			char *end;
			if (dists[i].d == SB_DIST_RANDOM)
				break;
			v = strtod(p + n + 1, &end);
			if (*end == ':') {
				snprintf(err, SB_VERR_LEN, "'%s': a distribution center (second number) "
					 "is not supported by storbench; expected %s", s, DIST_FORMS);
				return -EINVAL;
			}
			if (end == p + n + 1 || *skip_ws(end) || !isfinite(v))
				break;
		}
		if (dist_check(dists[i].d, v, err))
			return -EINVAL;
		*dist = dists[i].d;
		*param = v;
		return 0;
	}
	if (!strncasecmp(p, "zoned", 5))
		snprintf(err, SB_VERR_LEN, "'%s': a zoned distribution needs its zone list: expected "
			 "zoned:ACCESS/SIZE%%:... or zoned_abs:ACCESS/BYTES:..., e.g. "
			 "zoned:60/10:30/20:8/30:2/40", s);
	else if (!strncasecmp(p, "sequence", 8))
		snprintf(err, SB_VERR_LEN, "distribution '%.*s' is not supported by storbench; "
			 "expected %s", (int)n, p, DIST_FORMS);
	else
		snprintf(err, SB_VERR_LEN, "invalid distribution '%s': expected %s", s, DIST_FORMS);
	return -EINVAL;
}

void sb_size_str(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;
	while (u < 6 && bytes >= (1ull << (10 * (u + 1))))
		u++;
	if (!u)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (!(bytes & ((1ull << (10 * u)) - 1)))
		snprintf(buf, len, "%llu %s", (unsigned long long)(bytes >> (10 * u)), unit[u]);
	else
		snprintf(buf, len, "%.2f %s", (double)bytes / (double)(1ull << (10 * u)), unit[u]);
}

void sb_fmt_time(uint64_t us, char *buf, size_t len)
{
	static const struct {
		const char *name;
		uint64_t us;
	} u[] = {
		{ "d", 86400 * SB_US_PER_SEC }, { "h", 3600 * SB_US_PER_SEC }, { "m", 60 * SB_US_PER_SEC },
		{ "s", SB_US_PER_SEC }, { "ms", 1000 },
	};
	for (unsigned i = 0; us && i < sizeof(u) / sizeof(u[0]); i++) {
		if (us % u[i].us == 0) {
			snprintf(buf, len, "%llu %s", (unsigned long long)(us / u[i].us), u[i].name);
			return;
		}
	}
	snprintf(buf, len, "%llu us", (unsigned long long)us);
}

