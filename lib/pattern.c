/* pattern.c: fio's data-pattern syntax (see pattern.h), written from fio's
 * documented behaviour. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pattern.h"

static bool put(unsigned char *out, size_t cap, size_t *len, unsigned char b)
{
	if (*len >= cap)
		return false;
	out[(*len)++] = b;
	return true;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* a digit run that ends in "0x" ("0xff0x14", "-120xdeadface") stops before
 * that 0: the 0x starts the next element (fio 3.33 lib/pattern.c:174, the
 * hex look-back, and :143, the decimal look-ahead) */
static const char *digits_end(const char *h, const char *e)
{
	if (e > h && (*e == 'x' || *e == 'X') && e[-1] == '0')
		e--;
	return e;
}

/* a decimal element: optional blanks and sign, digits (fio's strtol) */
static bool is_number_start(const char *p)
{
	p += strspn(p, " \t");
	if (*p == '-' || *p == '+')
		p++;
	return isdigit((unsigned char)*p);
}

/* a decimal element at *pp: its bytes (little-endian, as few as hold it; a
 * negative one in 4, or 8 below -2^31); *pp moves past it */
static int decimal(const char **pp, unsigned char *out, size_t cap, size_t *len, char *err,
		   size_t errlen)
{
	const char *p = *pp;
	char num[32], *e;
	const char *d = p + strspn(p, " \t"), *de = d + (*d == '-' || *d == '+');
	bool ok = true;
	while (isdigit((unsigned char)*de))
		de++;
	de = digits_end(d, de); /* "-120xdeadface": -12, then 0xdeadface */
	size_t nl = (size_t)(de - p);
	snprintf(num, sizeof(num), "%.*s", (int)(nl < 31 ? nl : 31), p);
	errno = 0;
	long long v = strtoll(num, &e, 10);
	if (nl > 31 || *e || errno || !isdigit((unsigned char)e[-1])) {
		snprintf(err, errlen, "'%.*s' is not a number that fits in 64 bits",
			 (int)(nl < 40 ? nl : 40), p);
		return -EINVAL;
	}
	unsigned n = 1;
	if (v < 0)
		n = v < INT32_MIN ? 8 : 4;
	else
		while (n < 8 && ((unsigned long long)v >> (8 * n)))
			n++;
	for (unsigned i = 0; ok && i < n; i++)
		ok = put(out, cap, len, (unsigned char)((unsigned long long)v >> (8 * i)));
	if (!ok) {
		snprintf(err, errlen, "the pattern is longer than %zu bytes", cap);
		return -EINVAL;
	}
	*pp = de;
	return 0;
}

int sb_pattern_parse(const char *s, unsigned char *out, size_t cap, size_t *len,
		     unsigned short *ofs, unsigned ofs_cap, unsigned *nofs, char *err, size_t errlen)
{
	const char *p = s;
	*len = 0;
	*nofs = 0;
	if (!*p) {
		snprintf(err, errlen, "the pattern is empty");
		return -EINVAL;
	}
	while (*p) {
		bool ok = true;
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			const char *h = p + 2, *e = h;
			while (isxdigit((unsigned char)*e))
				e++;
			e = digits_end(h, e);
			if (e == h) {
				snprintf(err, errlen, "'%.*s' has no hex digits after 0x", (int)(e - p + 1), p);
				return -EINVAL;
			}
			size_t nd = (size_t)(e - h);
			if (nd % 2)
				ok = put(out, cap, len, (unsigned char)hexval(*h++));
			for (; ok && h < e; h += 2)
				ok = put(out, cap, len, (unsigned char)(hexval(h[0]) << 4 | hexval(h[1])));
			p = e;
		} else if (is_number_start(p)) {
			int r = decimal(&p, out, cap, len, err, errlen);
			if (r)
				return r;
		} else if (*p == '"') {
			const char *e = strchr(p + 1, '"');
			if (!e) {
				snprintf(err, errlen, "the string %s has no closing \"", p);
				return -EINVAL;
			}
			if (e == p + 1) {
				snprintf(err, errlen, "the string \"\" is empty");
				return -EINVAL;
			}
			for (const char *c = p + 1; ok && c < e; c++)
				ok = put(out, cap, len, (unsigned char)*c);
			p = e + 1;
		} else if (p[0] == '%' && p[1] == 'o') {
			if (*nofs >= ofs_cap) {
				snprintf(err, errlen, "more than %u %%o", ofs_cap);
				return -EINVAL;
			}
			ofs[(*nofs)++] = (unsigned short)*len;
			for (unsigned i = 0; ok && i < 8; i++)
				ok = put(out, cap, len, 0);
			p += 2;
		} else if (*p == '\'') {
			snprintf(err, errlen, "a 'filename' element is not supported by storbench");
			return -EINVAL;
		} else {
			snprintf(err, errlen, "unexpected '%c' at \"%.16s\"", *p, p);
			return -EINVAL;
		}
		if (!ok) {
			snprintf(err, errlen, "the pattern is longer than %zu bytes", cap);
			return -EINVAL;
		}
	}
	return 0;
}
