/* s3list.c: ListObjectsV2 for the object-storage engines: every object
 * under a prefix, page after page (continuation tokens), parsed from S3's
 * XML answer (keys unescaped). */
#include "engines/s3.h"

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* XML text (&amp; &lt; &gt; &quot; &apos;) to bytes, in place */
static void unxml(char *s)
{
	static const struct { const char *e; char c; } ent[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' },
	};
	char *o = s;
	while (*s) {
		unsigned k = 0;
		while (k < 5 && strncmp(s, ent[k].e, strlen(ent[k].e)))
			k++;
		if (k < 5) {
			*o++ = ent[k].c;
			s += strlen(ent[k].e);
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

/* the text of <tag>...</tag> at or after p, into out; the end, or NULL */
static const char *tag(const char *p, const char *name, char *out, size_t len)
{
	char open[48], close[48];
	snprintf(open, sizeof(open), "<%s>", name);
	snprintf(close, sizeof(close), "</%s>", name);
	const char *a = strstr(p, open), *b = a ? strstr(a, close) : NULL;
	if (!b)
		return NULL;
	a += strlen(open);
	snprintf(out, len, "%.*s", (int)(b - a), a);
	unxml(out);
	return b + strlen(close);
}

/* one page of ListObjectsV2, each object to each(); the continuation
 * token into next ("" last) */
static int list_page(struct s3_td *d, char *err, size_t elen, const char *bucket, const char *prefix,
		     char *next, size_t nlen, int (*each)(const char *key, uint64_t size, void *arg), void *arg)
{
	char query[3000], enc[1536], tok[1200], path[300], key[1100], size[32];
	long status = 0;
	struct s3_req *r = &d->reqs[0];
	int e = sb_sigv4_encode(prefix, false, enc, sizeof(enc));
	if (!e && next[0])
		e = sb_sigv4_encode(next, false, tok, sizeof(tok));
	if (e)
		return e;
	snprintf(query, sizeof(query), "%s%s%slist-type=2&prefix=%s", next[0] ? "continuation-token=" : "",
		 next[0] ? tok : "", next[0] ? "&" : "", enc);
	snprintf(path, sizeof(path), "/%s", bucket);
	e = sb_s3_sync(d, r, "GET", path, query, d->page, S3_PAGE, &status);
	if (!e && (status < 200 || status > 299)) {
		sb_s3_explain(err, elen, r, status);
		e = status == 403 ? -EACCES : -EIO;
	}
	if (e)
		return e;
	for (const char *p = d->page; (p = strstr(p, "<Contents>")); p++) {
		const char *q = tag(p, "Key", key, sizeof(key));
		if (!q || !tag(p, "Size", size, sizeof(size)))
			break;
		if ((e = each(key, strtoull(size, NULL, 10), arg)))
			return e;
	}
	char trunc[8] = "";
	tag(d->page, "IsTruncated", trunc, sizeof(trunc));
	next[0] = '\0';
	if (!strcmp(trunc, "true") && !tag(d->page, "NextContinuationToken", next, nlen))
		return -EIO;
	return 0;
}

int sb_s3_list(struct s3_td *d, char *err, size_t elen, const char *bucket, const char *prefix,
	       int (*each)(const char *key, uint64_t size, void *arg), void *arg)
{
	char next[1100] = "";
	int e = 0;
	if (!(d->page = malloc(S3_PAGE)))
		return -ENOMEM;
	do
		e = list_page(d, err, elen, bucket, prefix, next, sizeof(next), each, arg);
	while (!e && next[0]);
	free(d->page);
	d->page = NULL;
	return e;
}
#endif
