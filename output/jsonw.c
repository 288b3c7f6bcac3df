/* jsonw.c: the JSON emitter behind output/json.c: commas, indentation and
 * string escaping, so the writer itself only names keys and values. */
#include <math.h>
#include <inttypes.h>
#include <string.h>

#include "output/jsonw.h"

void sb_jw_init(struct sb_jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->has_items[0] = false;
}

/* Length of the valid UTF-8 sequence at s, 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n;
	uint32_t cp;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* whether byte c goes out as it is (printable ASCII, no quote or backslash) */
static inline bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

void sb_jw_quote(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	fputc('"', f);
	while (*s) {
		unsigned char c = *s;
		int n;
		if (plain(c)) { /* a run of plain bytes in one write (numjobs=4096: 26 MB of keys) */
			const unsigned char *e = s + 1;
			while (plain(*e))
				e++;
			fwrite(s, 1, (size_t)(e - s), f);
			s = e;
			continue;
		}
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c == '\r') {
			fputs("\\r", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if ((n = utf8_len(s)) == 0) {
			fputs("\\ufffd", f);
		} else {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', f);
}

/* a newline and 2 * depth spaces */
static void newline(FILE *f, unsigned depth)
{
	static const char sp[] = "\n                                                                ";
	size_t n = 1 + 2 * (size_t)depth;
	if (n <= sizeof(sp) - 1) {
		fwrite(sp, 1, n, f);
		return;
	}
	fprintf(f, "\n%*s", 2 * (int)depth, "");
}

/* Comma, newline and indentation before an element of the open container. */
static void element(struct sb_jw *w, const char *key)
{
	if (w->depth > 0) {
		if (w->has_items[w->depth])
			fputc(',', w->f);
		w->has_items[w->depth] = true;
		newline(w->f, (unsigned)w->depth);
	}
	if (key) {
		sb_jw_quote(w->f, key);
		fputs(" : ", w->f);
	}
}

static void open_container(struct sb_jw *w, const char *key, char c)
{
	element(w, key);
	fputc(c, w->f);
	if (w->depth + 1 < SB_JW_MAX_DEPTH)
		w->depth++;
	w->has_items[w->depth] = false;
}

static void close_container(struct sb_jw *w, char c)
{
	if (w->has_items[w->depth])
		newline(w->f, (unsigned)(w->depth - 1));
	fputc(c, w->f);
	if (w->depth > 0)
		w->depth--;
	if (w->depth == 0)
		fputc('\n', w->f);
}

void sb_jw_obj_begin(struct sb_jw *w, const char *key)
{
	open_container(w, key, '{');
}

void sb_jw_obj_end(struct sb_jw *w)
{
	close_container(w, '}');
}

void sb_jw_arr_begin(struct sb_jw *w, const char *key)
{
	open_container(w, key, '[');
}

void sb_jw_arr_end(struct sb_jw *w)
{
	close_container(w, ']');
}

void sb_jw_str(struct sb_jw *w, const char *key, const char *s)
{
	element(w, key);
	sb_jw_quote(w->f, s);
}

void sb_jw_u64(struct sb_jw *w, const char *key, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);
	element(w, key);
	do { /* as "%" PRIu64, without printf's parsing */
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), w->f);
}

void sb_jw_i64(struct sb_jw *w, const char *key, int64_t v)
{
	element(w, key);
	fprintf(w->f, "%" PRId64, v);
}

/* v as "%f" writes it, without printf where that is certain: |v| * 1e6
 * below 2^50 is computed within 1/8, so when it lies within 1/4 of an
 * integer R, R is the exactly rounded value printf prints; otherwise (near a
 * tie, huge, not finite) snprintf. */
int sb_jw_fmt_f(char *buf, size_t len, double v)
{
	double a = fabs(v), y = a * 1e6;
	if (len >= 32 && isfinite(v) && y < 1125899906842624.0) {
		double r = nearbyint(y);
		if (fabs(y - r) < 0.25) {
			uint64_t n = (uint64_t)r, ip = n / 1000000, fp = n % 1000000;
			char tmp[32], *p = tmp + sizeof(tmp);
			for (int i = 0; i < 6; i++, fp /= 10)
				*--p = (char)('0' + fp % 10);
			*--p = '.';
			do {
				*--p = (char)('0' + ip % 10);
				ip /= 10;
			} while (ip);
			if (signbit(v))
				*--p = '-';
			size_t n_out = (size_t)(tmp + sizeof(tmp) - p);
			memcpy(buf, p, n_out);
			buf[n_out] = 0;
			return (int)n_out;
		}
	}
	return snprintf(buf, len, "%f", v);
}

void sb_jw_dbl(struct sb_jw *w, const char *key, double v)
{
	char buf[32];
	element(w, key);
	if (!isfinite(v))
		v = 0.0;
	int n = sb_jw_fmt_f(buf, sizeof(buf), v);
	if (n > 0 && (size_t)n < sizeof(buf))
		fwrite(buf, 1, (size_t)n, w->f);
	else
		fprintf(w->f, "%f", v);
}

void sb_jw_dbl9(struct sb_jw *w, const char *key, double v)
{
	element(w, key);
	fprintf(w->f, "%.9f", isfinite(v) ? v : 0.0);
}

void sb_jw_row2(struct sb_jw *w, const char *key, const float *v, unsigned n)
{
	element(w, key);
	fputc('[', w->f);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			fputs(", ", w->f);
		if (isfinite(v[i]))
			fprintf(w->f, "%.2f", (double)v[i]);
		else
			fputs("null", w->f);
	}
	fputc(']', w->f);
}

void sb_jw_bool(struct sb_jw *w, const char *key, bool v)
{
	element(w, key);
	fputs(v ? "true" : "false", w->f);
}

void sb_jw_null(struct sb_jw *w, const char *key)
{
	element(w, key);
	fputs("null", w->f);
}
