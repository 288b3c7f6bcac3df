/* lib/jsonr.c: the JSON reader of lib/jsonr.h.  A recursive-descent parser
 * (nesting limited, so hostile input cannot exhaust the stack) that builds
 * values and unescaped strings in an arena of blocks; parsing again resets
 * the arena and reuses its blocks. */
#include "lib/jsonr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSONR_BLK 65536
#define JSONR_DEPTH 512

struct sb_json_blk {
	struct sb_json_blk *next;
	size_t size, used;
	_Alignas(max_align_t) char mem[];
};

struct jp {
	struct sb_json *doc;
	const char *p, *start, *end;
	int depth;
};

static void *arena_slow(struct sb_json *doc, size_t n);

/* the common case inline: room in the current block */
static inline void *arena(struct sb_json *doc, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct sb_json_blk *b = doc->cur;
	if (__builtin_expect(b && b->used + n <= b->size, 1)) {
		void *r = b->mem + b->used;
		b->used += n;
		return r;
	}
	return arena_slow(doc, n);
}

static __attribute__((noinline)) void *arena_slow(struct sb_json *doc, size_t n)
{
	while (doc->cur && doc->cur->used + n > doc->cur->size)
		doc->cur = doc->cur->next; /* reused blocks after a reset */
	if (!doc->cur) {
		size_t size = n > JSONR_BLK ? n : JSONR_BLK;
		struct sb_json_blk *b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		b->next = doc->blk; /* new blocks go first: all others are full */
		doc->blk = b;
		doc->cur = b;
		doc->nblk++;
	}
	void *r = doc->cur->mem + doc->cur->used;
	doc->cur->used += n;
	return r;
}

static int fail(struct jp *j, const char *what)
{
	int line = 1, col = 1;
	for (const char *q = j->start; q < j->p && q < j->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(j->doc->err, sizeof(j->doc->err), "line %d, column %d: %s", line, col, what);
	return -EINVAL;
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int k = 0; k < 4; k++) {
		char c = p[k];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* j->p at the opening quote; the unescaped string goes to the arena */
static int string(struct jp *j, const char **out, uint32_t *outlen)
{
	const char *q = ++j->p;
	while (q < j->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
		q++;
	size_t cap = (size_t)(q - j->p);
	if (q < j->end && *q == '"') { /* no escape, no control character: a copy */
		char *o = arena(j->doc, cap + 1);
		if (!o)
			return -ENOMEM;
		memcpy(o, j->p, cap);
		o[cap] = 0;
		j->p = q + 1;
		*out = o;
		*outlen = (uint32_t)cap;
		return 0;
	}
	if (q < j->end && *q == '\\') { /* escapes only shrink, except \u: 6 bytes -> at most 4 */
		const char *e = q;
		while (e < j->end && *e != '"')
			e += *e == '\\' && e + 1 < j->end ? 2 : 1;
		cap = (size_t)(e - j->p);
	}
	if (cap >= UINT32_MAX)
		return fail(j, "string too long");
	char *o = arena(j->doc, cap + 1);
	if (!o)
		return -ENOMEM;
	size_t n = 0;
	for (;;) {
		if (j->p >= j->end)
			return fail(j, "unterminated string");
		unsigned char c = (unsigned char)*j->p;
		if (c == '"') {
			j->p++;
			break;
		}
		if (c < 0x20)
			return fail(j, "control character in string");
		if (c != '\\') {
			o[n++] = (char)c;
			j->p++;
			continue;
		}
		if (j->p + 1 >= j->end)
			return fail(j, "unterminated string");
		char e = j->p[1];
		j->p += 2;
		switch (e) {
		case '"': o[n++] = '"'; break;
		case '\\': o[n++] = '\\'; break;
		case '/': o[n++] = '/'; break;
		case 'b': o[n++] = '\b'; break;
		case 'f': o[n++] = '\f'; break;
		case 'n': o[n++] = '\n'; break;
		case 'r': o[n++] = '\r'; break;
		case 't': o[n++] = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (j->end - j->p < 4 || hex4(j->p, &cp))
				return fail(j, "bad \\u escape");
			j->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
				    hex4(j->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
					return fail(j, "unpaired surrogate in \\u escape");
				j->p += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				return fail(j, "unpaired surrogate in \\u escape");
			}
			n += utf8(o + n, cp);
			break;
		}
		default:
			return fail(j, "bad escape in string");
		}
	}
	o[n] = 0;
	*out = o;
	*outlen = (uint32_t)n;
	return 0;
}

static int number(struct jp *j, struct sb_jval *v)
{
	const char *s = j->p, *q = s;
	int neg = 0, isint = 1;
	if (q < j->end && *q == '-') {
		neg = 1;
		q++;
	}
	if (q >= j->end || *q < '0' || *q > '9')
		return fail(j, "bad number");
	if (*q == '0' && q + 1 < j->end && q[1] >= '0' && q[1] <= '9')
		return fail(j, "number with a leading zero");
	uint64_t u = 0;
	int digits = 0;
	while (q < j->end && *q >= '0' && *q <= '9') {
		u = u * 10 + (uint64_t)(*q - '0');
		digits++;
		q++;
	}
	if (q < j->end && *q == '.') {
		isint = 0;
		q++;
		if (q >= j->end || *q < '0' || *q > '9')
			return fail(j, "bad number");
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < j->end && (*q == 'e' || *q == 'E')) {
		isint = 0;
		q++;
		if (q < j->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= j->end || *q < '0' || *q > '9')
			return fail(j, "bad number");
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	v->type = SB_JNUM;
	if (isint && digits <= 18) {
		v->is_int = 1;
		v->i = neg ? -(int64_t)u : (int64_t)u;
		v->num = (double)v->i;
	} else {
		char buf[64];
		size_t n = (size_t)(q - s);
		if (n >= sizeof(buf))
			return fail(j, "number too long");
		memcpy(buf, s, n);
		buf[n] = 0;
		v->num = strtod(buf, NULL);
		v->i = (int64_t)v->num;
	}
	j->p = q;
	return 0;
}

static int lit(struct jp *j, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n))
		return fail(j, "unexpected character");
	j->p += n;
	return 0;
}

static int value(struct jp *j, struct sb_jval **out);

/* arrays and objects: children linked in order */
static int container(struct jp *j, struct sb_jval *v, char close)
{
	struct sb_jval **tail = &v->child;
	int obj = close == '}';
	j->p++;
	if (++j->depth > JSONR_DEPTH)
		return fail(j, "nested too deeply");
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		uint32_t klen;
		int rc;
		ws(j);
		if (obj) {
			if (j->p >= j->end || *j->p != '"')
				return fail(j, "expected a member name in quotes");
			if ((rc = string(j, &key, &klen)))
				return rc;
			ws(j);
			if (j->p >= j->end || *j->p != ':')
				return fail(j, "expected ':' after a member name");
			j->p++;
		}
		struct sb_jval *c;
		if ((rc = value(j, &c)))
			return rc;
		c->key = key;
		*tail = c;
		tail = &c->next;
		v->n++;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			j->depth--;
			return 0;
		}
		return fail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int value(struct jp *j, struct sb_jval **out)
{
	ws(j);
	if (j->p >= j->end)
		return fail(j, "unexpected end of text");
	struct sb_jval *v = arena(j->doc, sizeof(*v));
	if (!v)
		return -ENOMEM;
	memset(v, 0, sizeof(*v));
	*out = v;
	switch (*j->p) {
	case '{':
		v->type = SB_JOBJ;
		return container(j, v, '}');
	case '[':
		v->type = SB_JARR;
		return container(j, v, ']');
	case '"':
		v->type = SB_JSTR;
		return string(j, &v->s, &v->n);
	case 't':
		v->type = SB_JBOOL;
		v->b = 1;
		return lit(j, "true");
	case 'f':
		v->type = SB_JBOOL;
		return lit(j, "false");
	case 'n':
		v->type = SB_JNULL;
		return lit(j, "null");
	default:
		return number(j, v);
	}
}

int sb_json_parse(struct sb_json *doc, const char *text, size_t len)
{
	for (struct sb_json_blk *b = doc->blk; b; b = b->next)
		b->used = 0;
	doc->cur = doc->blk;
	doc->root = NULL;
	doc->err[0] = 0;
	struct jp j = { .doc = doc, .p = text, .start = text, .end = text + len };
	struct sb_jval *root;
	int rc = value(&j, &root);
	if (rc == -ENOMEM)
		snprintf(doc->err, sizeof(doc->err), "out of memory");
	if (rc)
		return rc;
	ws(&j);
	if (j.p != j.end)
		return fail(&j, "text after the JSON value");
	doc->root = root;
	return 0;
}

int sb_json_parse_doc(struct sb_json *doc, const char *buf, size_t len)
{
	size_t skip = 0;
	while (skip < len && buf[skip] != '{' && buf[skip] != '[')
		skip++;
	return sb_json_parse(doc, buf + skip, len - skip);
}

void sb_json_free(struct sb_json *doc)
{
	while (doc->blk) {
		struct sb_json_blk *n = doc->blk->next;
		free(doc->blk);
		doc->blk = n;
	}
	doc->cur = NULL;
	doc->root = NULL;
	doc->nblk = 0;
}

const struct sb_jval *sb_jv_get(const struct sb_jval *obj, const char *key)
{
	if (!obj || obj->type != SB_JOBJ || !key)
		return NULL;
	for (const struct sb_jval *c = obj->child; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}

const struct sb_jval *sb_jv_at(const struct sb_jval *arr, size_t i)
{
	if (!arr || (arr->type != SB_JARR && arr->type != SB_JOBJ))
		return NULL;
	const struct sb_jval *c = arr->child;
	while (c && i--)
		c = c->next;
	return c;
}

const struct sb_jval *sb_jv_path(const struct sb_jval *v, const char *path)
{
	char part[256];
	while (v && path && *path) {
		const char *slash = strchr(path, '/');
		size_t n = slash ? (size_t)(slash - path) : strlen(path);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = 0;
		if (v->type == SB_JARR) {
			char *endp;
			unsigned long idx = strtoul(part, &endp, 10);
			v = n && !*endp ? sb_jv_at(v, idx) : NULL;
		} else {
			v = sb_jv_get(v, part);
		}
		path = slash ? slash + 1 : NULL;
	}
	return v;
}

double sb_jv_num(const struct sb_jval *v, double dflt)
{
	return v && v->type == SB_JNUM ? v->num : dflt;
}

int64_t sb_jv_int(const struct sb_jval *v, int64_t dflt)
{
	return v && v->type == SB_JNUM ? v->i : dflt;
}

const char *sb_jv_str(const struct sb_jval *v, const char *dflt)
{
	return v && v->type == SB_JSTR ? v->s : dflt;
}

size_t sb_jv_len(const struct sb_jval *v)
{
	return v && (v->type == SB_JARR || v->type == SB_JOBJ) ? v->n : 0;
}
