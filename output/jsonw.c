/* jsonw.c: the JSON emitter behind output/json.c: commas, indentation and
 * string escaping, so the writer itself only names keys and values. */
#include <math.h>
#include <inttypes.h>

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

void sb_jw_quote(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	fputc('"', f);
	while (*s) {
		unsigned char c = *s;
		int n;
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

/* Comma, newline and indentation before an element of the open container. */
static void element(struct sb_jw *w, const char *key)
{
	if (w->depth > 0) {
		if (w->has_items[w->depth])
			fputc(',', w->f);
		w->has_items[w->depth] = true;
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
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
		fprintf(w->f, "\n%*s", 2 * (w->depth - 1), "");
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
	element(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void sb_jw_i64(struct sb_jw *w, const char *key, int64_t v)
{
	element(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void sb_jw_dbl(struct sb_jw *w, const char *key, double v)
{
	element(w, key);
	fprintf(w->f, "%f", isfinite(v) ? v : 0.0);
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
