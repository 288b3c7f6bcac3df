/* test_cliflags.c: main's flags come from one table (parse/cliflags.c):
 * each enum sb_cli_id names its row, and sb_cli_flag_match takes the words
 * as main's parser did before (a flag with no argument only by its name; one
 * with an argument by its name or name=VALUE; a longer flag never for a
 * shorter one's prefix). */
#include <string.h>

#include "harness.h"
#include "parse/parse.h"

static void test_ids_name_their_rows(void)
{
	static const struct { unsigned id; const char *name; } want[] = {
		{ SB_CLI_OUTPUT_FORMAT, "--output-format" }, { SB_CLI_OUTPUT, "--output" },
		{ SB_CLI_EXPORT, "--export" }, { SB_CLI_MINIMAL, "--minimal" },
		{ SB_CLI_TERSE_VERSION, "--terse-version" }, { SB_CLI_PARSE_ONLY, "--parse-only" },
		{ SB_CLI_SHOWCMD, "--showcmd" }, { SB_CLI_SECTION, "--section" },
		{ SB_CLI_READONLY, "--readonly" }, { SB_CLI_MAX_JOBS, "--max-jobs" },
		{ SB_CLI_WARNINGS_FATAL, "--warnings-fatal" }, { SB_CLI_DATAGEN, "--datagen" },
		{ SB_CLI_ALLOW_EXEC, "--allow-exec" }, { SB_CLI_STATUS_INTERVAL, "--status-interval" },
		{ SB_CLI_ETA, "--eta" }, { SB_CLI_ETA_INTERVAL, "--eta-interval" },
		{ SB_CLI_ETA_NEWLINE, "--eta-newline" }, { SB_CLI_CLEANUP, "--cleanup" },
		{ SB_CLI_DRY_RUN, "--dry-run" }, { SB_CLI_DEBUG, "--debug" },
		{ SB_CLI_BANDWIDTH_LOG, "--bandwidth-log" },
		{ SB_CLI_AUX_PATH, "--aux-path" }, { SB_CLI_INFLATE_LOG, "--inflate-log" },
		{ SB_CLI_CMDHELP, "--cmdhelp" },
		{ SB_CLI_CMDHELP_MARKDOWN, "--cmdhelp-markdown" }, { SB_CLI_ENGHELP, "--enghelp" },
		{ SB_CLI_MAN_PAGE, "--man-page" }, { SB_CLI_WORKLOAD_CONFORMANCE, "--workload-conformance" },
		{ SB_CLI_DOC_WORKLOADS, "--doc-workloads" }, { SB_CLI_BASH_COMPLETION, "--bash-completion" },
		{ SB_CLI_VERSION, "--version" }, { SB_CLI_HELP, "--help" },
	};
	CU_ASSERT_EQUAL(sb_cli_nflags, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *v = "x";
		const struct sb_cli_flag *f = sb_cli_flag_match(want[i].name, &v);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		CU_ASSERT_STRING_EQUAL(f->name, want[i].name);
		CU_ASSERT_EQUAL(sb_cli_flag_id(f), want[i].id);
		CU_ASSERT_PTR_NULL(v);
	}
}

static void test_matching(void)
{
	const char *v = NULL;
	const struct sb_cli_flag *f = sb_cli_flag_match("--output=r.json", &v);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(sb_cli_flag_id(f), SB_CLI_OUTPUT);
	CU_ASSERT_STRING_EQUAL(v, "r.json");
	f = sb_cli_flag_match("--output-format=json", &v); /* not --output's */
	CU_ASSERT_EQUAL(f ? sb_cli_flag_id(f) : 0, SB_CLI_OUTPUT_FORMAT);
	CU_ASSERT_STRING_EQUAL(v, "json");
	f = sb_cli_flag_match("--cmdhelp-markdown", &v);
	CU_ASSERT_EQUAL(f ? sb_cli_flag_id(f) : 0, SB_CLI_CMDHELP_MARKDOWN);
	f = sb_cli_flag_match("--eta-newline=2s", &v);
	CU_ASSERT_EQUAL(f ? sb_cli_flag_id(f) : 0, SB_CLI_ETA_NEWLINE);
	/* a switch takes no value: --readonly=1 is no flag (a job option) */
	CU_ASSERT_PTR_NULL(sb_cli_flag_match("--readonly=1", &v));
	CU_ASSERT_PTR_NULL(sb_cli_flag_match("--outputs", &v));
	CU_ASSERT_PTR_NULL(sb_cli_flag_match("--bs=4k", &v));
	CU_ASSERT_PTR_NULL(sb_cli_flag_match("-h", &v));
}

static CU_TestInfo tests[] = {
	{ "flag ids", test_ids_name_their_rows },
	{ "matching", test_matching },
	CU_TEST_INFO_NULL,
};
SB_SUITE(cli, tests)
