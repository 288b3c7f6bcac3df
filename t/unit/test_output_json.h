/* test_output_json.h: a minimal validating JSON parser with path lookup for
 * the writer tests ("jobs/0/read/bw": object keys and array indexes). */
#ifndef SB_TEST_OUTPUT_JSON_H
#define SB_TEST_OUTPUT_JSON_H
/* 1 if doc is exactly one valid JSON value (surrounding whitespace allowed) */
int sb_tj_valid(const char *doc);
/* just past the JSON value starting at p, NULL if it is not valid */
const char *sb_tj_end(const char *p);
/* the text of the value at path, NULL if absent */
const char *sb_tj_get(const char *doc, const char *path);
/* the number at path (CUnit assertion that it exists); NAN if absent */
double sb_tj_num(const char *doc, const char *path);
/* 1 if the value at path is the string want */
int sb_tj_str_is(const char *doc, const char *path, const char *want);

struct sb_results;
/* the formats in mask written by sb_output_write, as a malloc'd string
 * (CUnit assertions that writing worked) */
char *sb_tj_render(const struct sb_results *r, unsigned mask);
#endif
