/* lib/jsonr.h: a small JSON reader for the tools that read results back
 * (report, compare, analyze, validate): RFC 8259 text parsed into a tree of
 * values that live in the document's arena.  One document may be parsed
 * again and again (a trace read line by line): the arena is kept and reset,
 * so a steady stream of lines allocates nothing after the first.
 *
 *   struct sb_json doc = { 0 };
 *   if (sb_json_parse(&doc, text, len)) fprintf(stderr, "%s\n", doc.err);
 *   double iops = sb_jv_num(sb_jv_path(doc.root, "jobs/0/read/iops"), 0);
 *   sb_json_free(&doc);
 *
 * Paths separate keys with '/' (fio's percentile keys hold dots); a path
 * element made of digits indexes an array.  Accessors take NULL and return
 * their default, so a chain of lookups needs one check at the end. */
#ifndef SB_LIB_JSONR_H
#define SB_LIB_JSONR_H

#include <stddef.h>
#include <stdint.h>

enum sb_jtype { SB_JNULL, SB_JBOOL, SB_JNUM, SB_JSTR, SB_JARR, SB_JOBJ };

struct sb_jval {
	enum sb_jtype type;
	uint32_t n;              /* string length in bytes, or number of children */
	const char *key;         /* member name inside an object, else NULL */
	struct sb_jval *child;   /* first child of an array or object */
	struct sb_jval *next;    /* next sibling */
	const char *s;           /* string value, NUL-terminated, unescaped */
	double num;              /* number value (also set for integers) */
	int64_t i;               /* integer value when is_int */
	int is_int;              /* the number was written as an integer that fits */
	int b;                   /* boolean value */
};

struct sb_json_blk;

struct sb_json {
	struct sb_jval *root;    /* after a successful parse */
	char err[160];           /* "line L, column C: what" after a failed one */
	struct sb_json_blk *blk; /* arena blocks (kept across parses) */
	struct sb_json_blk *cur;
	unsigned nblk;           /* blocks the arena holds */
};

/* Parses text[0..len) (surrounding white space allowed, nothing else).
 * Returns 0, or -EINVAL with doc->err set, or -ENOMEM. */
int sb_json_parse(struct sb_json *doc, const char *text, size_t len);
/* Parses a document a tool wrote: text before the first '{' or '['
 * (warnings a tool printed ahead of its JSON) is skipped.  A file is read
 * through the one reader: sb_in_json (os/infile.h). */
int sb_json_parse_doc(struct sb_json *doc, const char *buf, size_t len);
void sb_json_free(struct sb_json *doc);

const struct sb_jval *sb_jv_get(const struct sb_jval *obj, const char *key);
const struct sb_jval *sb_jv_at(const struct sb_jval *arr, size_t i);
const struct sb_jval *sb_jv_path(const struct sb_jval *v, const char *path);
double sb_jv_num(const struct sb_jval *v, double dflt);
int64_t sb_jv_int(const struct sb_jval *v, int64_t dflt);
const char *sb_jv_str(const struct sb_jval *v, const char *dflt);
/* children of an array or object; 0 for anything else */
size_t sb_jv_len(const struct sb_jval *v);

#endif
