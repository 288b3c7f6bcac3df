/* test_howto.c: HOWTO.md's option tables are exactly what the option table
 * derives (parse/options.c is the single source of truth). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parse/options.h"

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

static void test_howto_matches_table(void)
{
	char *doc = slurp("HOWTO.md");
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
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
}

static CU_TestInfo tests[] = {
	{ "HOWTO.md option tables match the option table", test_howto_matches_table },
	CU_TEST_INFO_NULL,
};
SB_SUITE(howto, tests)
