/* inipack.c: a pre-passed job file (struct sb_ini: sections, options with
 * their file:line, ${VAR} expanded, includes resolved) as one flat buffer
 * and back, so that under MPI rank 0 reads the job files once and every rank
 * parses exactly its text (parse.h: struct sb_parse_relay).  The buffer is
 * NUL-terminated fields: "S" name file line, then "K" key value bare file
 * line for each of its options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ini.h"

struct buf {
	char *p;
	size_t len, cap;
	int err;
};

static void put(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	if (b->err)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->err = -ENOMEM;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void put_u(struct buf *b, unsigned v)
{
	char s[16];
	snprintf(s, sizeof(s), "%u", v);
	put(b, s);
}

int sb_ini_pack(const struct sb_ini *ini, unsigned from, char **out, size_t *len)
{
	struct buf b = { 0 };
	for (unsigned i = from; i < ini->nsec; i++) {
		const struct sb_ini_section *s = &ini->sec[i];
		put(&b, "S");
		put(&b, s->name);
		put(&b, s->file ? s->file : "");
		put_u(&b, s->line);
		for (unsigned k = 0; k < s->nkv; k++) {
			const struct sb_ini_kv *kv = &s->kv[k];
			put(&b, "K");
			put(&b, kv->key);
			put(&b, kv->value ? kv->value : "");
			put_u(&b, kv->bare);
			put(&b, kv->file ? kv->file : "");
			put_u(&b, kv->line);
		}
	}
	put(&b, "E");
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

/* the next field, or NULL past the end */
static const char *field(const char *p, size_t len, size_t *at)
{
	if (*at >= len)
		return NULL;
	const char *s = p + *at;
	const char *e = memchr(s, '\0', len - *at);
	if (!e)
		return NULL;
	*at = (size_t)(e - p) + 1;
	return s;
}

int sb_ini_unpack(struct sb_ini *ini, const char *p, size_t len)
{
	struct sb_ini_section *sec = NULL;
	size_t at = 0;
	for (;;) {
		const char *tag = field(p, len, &at);
		if (!tag)
			return -EINVAL;
		if (!strcmp(tag, "E"))
			return 0;
		if (!strcmp(tag, "S")) {
			const char *name = field(p, len, &at), *file = field(p, len, &at);
			const char *line = field(p, len, &at);
			if (!line)
				return -EINVAL;
			if (!(sec = sb_ini_add_section(ini, name, file, (unsigned)strtoul(line, NULL, 10))))
				return -ENOMEM;
		} else if (!strcmp(tag, "K") && sec) {
			const char *key = field(p, len, &at), *val = field(p, len, &at);
			const char *bare = field(p, len, &at), *file = field(p, len, &at);
			const char *line = field(p, len, &at);
			if (!line)
				return -EINVAL;
			const char *f = sb_ini_intern(ini, file);
			if (!f || sb_ini_set(sec, key, !strcmp(bare, "1") ? NULL : val, f,
					     (unsigned)strtoul(line, NULL, 10)))
				return -ENOMEM;
		} else {
			return -EINVAL;
		}
	}
}
