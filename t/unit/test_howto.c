/* test_howto.c: HOWTO.md's option tables are exactly what the option table
 * derives (parse/options.c is the single source of truth), for parse's own
 * options and those of the workloads HOWTO.md documents (a "`workload=NAME`"
 * or a row of theirs in the tables); a workload without a HOWTO section is
 * documented by its rows' help (--cmdhelp; test_workload checks it), so
 * adding one changes no committed file (t/test-toyworkload.sh). */
#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ml/registry.h"
#include "parse/options.h"
#include "parse/workloads.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* the workloads doc documents, as a comma list for sb_workloads_hand_down_only */
static void documented(const char *doc, char *list, size_t len)
{
	const struct sb_workload_ops *const *t = sb_workloads_get();
	size_t at = 0;
	list[0] = '\0';
	for (unsigned i = 0; t[i]; i++) {
		char key[128];
		bool in = false;
		snprintf(key, sizeof(key), "`workload=%s`", t[i]->name);
		in = strstr(doc, key) != NULL;
		for (unsigned k = 0; !in && t[i]->nrows && k < *t[i]->nrows; k++) {
			snprintf(key, sizeof(key), "\n| `%s` |", t[i]->rows[k].name);
			in = strstr(doc, key) != NULL;
		}
		if (in && at + strlen(t[i]->name) + 2 < len)
			at += (size_t)snprintf(list + at, len - at, "%s%s", at ? "," : "", t[i]->name);
	}
}

static void test_howto_matches_table(void)
{
	char *doc = slurp("HOWTO.md");
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	char list[512];
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	documented(doc, list, sizeof(list));
	CU_ASSERT_PTR_NOT_NULL(strstr(list, "checkpoint")); /* the rule finds HOWTO's own */
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down_only(list), 0);
	char *gen = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&gen, &len);
	sb_options_markdown(m);
	fclose(m);
	const char *b = strstr(doc, "<!-- options:begin -->\n");
	const char *e = strstr(doc, "<!-- options:end -->");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	b += strlen("<!-- options:begin -->\n");
	int same = (size_t)(e - b) == len && !memcmp(b, gen, len);
	if (!same)
		fprintf(stderr, "\nHOWTO.md option tables differ from parse/options.c: run 'make howto'\n");
	CU_ASSERT(same);
	/* every option of the table is named in HOWTO.md */
	for (unsigned i = 0; i < sb_options_count(); i++) {
		char key[128];
		snprintf(key, sizeof(key), "`%s`", sb_option_at(i)->name);
		if (!strstr(doc, key))
			fprintf(stderr, "HOWTO.md does not document option %s\n", sb_option_at(i)->name);
		CU_ASSERT_PTR_NOT_NULL(strstr(doc, key));
	}
	free(gen);
	free(doc);
	CU_ASSERT_EQUAL(sb_workloads_hand_down(), 0); /* back to all */
}

static CU_TestInfo tests[] = {
	{ "HOWTO.md option tables match the option table", test_howto_matches_table },
	CU_TEST_INFO_NULL,
};
SB_SUITE(howto, tests)
