/* host_json.c: a struct sb_host_emitter that writes JSON to a FILE, for
 * callers without their own JSON writer (and for the unit tests).  Numbers
 * that are not finite are written as null so the document stays valid. */
#include <math.h>
#include <string.h>

#include "stats/host.h"

static void pre(struct sb_host_json *j, const char *key)
{
	if (j->need_comma)
		fputc(',', j->f);
	if (j->indent && j->depth)
		fprintf(j->f, "\n%*s", (int)(j->depth * j->indent), "");
	if (key) {
		fputc('"', j->f);
		for (const unsigned char *p = (const unsigned char *)key; *p; p++)
			fputc(*p, j->f);
		fputs(j->indent ? "\": " : "\":", j->f);
	}
	j->need_comma = true;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void j_begin(void *ctx, const char *key, char c)
{
	struct sb_host_json *j = ctx;
	pre(j, key);
	fputc(c, j->f);
	j->depth++;
	j->need_comma = false;
}

static void j_end(void *ctx, char c)
{
	struct sb_host_json *j = ctx;
	j->depth--;
	if (j->indent && j->need_comma)
		fprintf(j->f, "\n%*s", (int)(j->depth * j->indent), "");
	fputc(c, j->f);
	j->need_comma = true;
}

static void j_bobj(void *ctx, const char *key) { j_begin(ctx, key, '{'); }
static void j_eobj(void *ctx) { j_end(ctx, '}'); }
static void j_barr(void *ctx, const char *key) { j_begin(ctx, key, '['); }
static void j_earr(void *ctx) { j_end(ctx, ']'); }

static void j_num(void *ctx, const char *key, double v)
{
	struct sb_host_json *j = ctx;
	pre(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.6f", v);
	else
		fputs("null", j->f);
}

static void j_u64(void *ctx, const char *key, uint64_t v)
{
	struct sb_host_json *j = ctx;
	pre(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

static void j_str(void *ctx, const char *key, const char *v)
{
	struct sb_host_json *j = ctx;
	pre(j, key);
	put_string(j->f, v);
}

static void j_bool(void *ctx, const char *key, bool v)
{
	struct sb_host_json *j = ctx;
	pre(j, key);
	fputs(v ? "true" : "false", j->f);
}

void sb_host_json_init(struct sb_host_json *j, struct sb_host_emitter *e, FILE *f, unsigned indent)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->indent = indent;
	e->ctx = j;
	e->begin_object = j_bobj;
	e->end_object = j_eobj;
	e->begin_array = j_barr;
	e->end_array = j_earr;
	e->num = j_num;
	e->u64 = j_u64;
	e->str = j_str;
	e->boolean = j_bool;
}
