/* test_output_json.c: the JSON checker of the writer tests (see
 * test_output_json.h): strict enough that a missing comma, a trailing comma,
 * a bare nan or an unescaped control character fails. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "output/output.h"
#include "test_output_json.h"


static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *skip_value(const char *p);

static const char *skip_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *skip_number(const char *p)
{
	const char *s = p;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	if (*p == '0' && p[1] >= '0' && p[1] <= '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p > s ? p : NULL;
}

static const char *skip_container(const char *p, char close, int is_obj)
{
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (is_obj) {
			p = skip_string(ws(p));
			if (!p || *(p = ws(p)) != ':')
				return NULL;
			p++;
		}
		p = skip_value(p);
		if (!p)
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *skip_value(const char *p)
{
	p = ws(p);
	if (*p == '{')
		return skip_container(p, '}', 1);
	if (*p == '[')
		return skip_container(p, ']', 0);
	if (*p == '"')
		return skip_string(p);
	if (!strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (!strncmp(p, "null", 4))
		return p + 4;
	return skip_number(p);
}

int sb_tj_valid(const char *doc)
{
	const char *e = skip_value(doc);
	return e && *ws(e) == 0;
}

/* the value at path (segments split by '/'), NULL if absent */
const char *sb_tj_get(const char *doc, const char *path)
{
	const char *p = ws(doc);
	char seg[128];
	while (*path) {
		size_t n = strcspn(path, "/");
		snprintf(seg, sizeof(seg), "%.*s", (int)n, path);
		path += n + (path[n] == '/');
		if (*p == '[') {
			long idx = strtol(seg, NULL, 10);
			p = ws(p + 1);
			for (long i = 0; i < idx && p; i++) {
				p = skip_value(p);
				p = p ? ws(p) : NULL;
				if (!p || *p != ',')
					return NULL;
				p = ws(p + 1);
			}
			if (!p || *p == ']')
				return NULL;
			continue;
		}
		if (*p != '{')
			return NULL;
		p = ws(p + 1);
		for (;;) {
			const char *k = p, *ke = skip_string(p);
			if (!ke)
				return NULL;
			int match = (size_t)(ke - k - 2) == strlen(seg) && !strncmp(k + 1, seg, strlen(seg));
			p = ws(ws(ke) + 1);
			if (match)
				break;
			p = ws(skip_value(p));
			if (*p != ',')
				return NULL;
			p = ws(p + 1);
		}
	}
	return p;
}

double sb_tj_num(const char *doc, const char *path)
{
	const char *v = sb_tj_get(doc, path);
	CU_ASSERT_PTR_NOT_NULL(v);
	return v ? strtod(v, NULL) : NAN;
}

int sb_tj_str_is(const char *doc, const char *path, const char *want)
{
	const char *v = sb_tj_get(doc, path);
	size_t n = strlen(want);
	return v && v[0] == '"' && !strncmp(v + 1, want, n) && v[n + 1] == '"';
}

const char *sb_tj_end(const char *p)
{
	return skip_value(p);
}

char *sb_tj_render(const struct sb_results *r, unsigned mask)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(sb_output_write(f, r, mask), 0);
	fclose(f);
	return buf;
}
