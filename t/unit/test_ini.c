/* test_ini.c: CUnit suite "ini": the job-file pre-pass (parse/ini.c):
 * comments, bare keys, line numbers, repeated sections and keys, include,
 * ${VAR}, and the values taken back from libiniparser. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "lib/log.h"
#include "parse/ini.h"

static char logbuf[8192];

static const struct sb_ini_kv *kv(const struct sb_ini_section *s, const char *key)
{
	for (unsigned i = 0; i < s->nkv; i++)
		if (!strcmp(s->kv[i].key, key))
			return &s->kv[i];
	return NULL;
}

static int parse(struct sb_ini *ini, const char *text)
{
	memset(ini, 0, sizeof(*ini));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_ini_parse_text(ini, "mem.ini", text);
	sb_log_capture(NULL, 0);
	return rc;
}

static void test_sections_and_lines(void)
{
	struct sb_ini ini;
	const char *text =
		"; comment\n"
		"# another\n"
		"[global]\n"
		"  bs = 4k   ; inline\n"
		"time_based\n"
		"\n"
		"[MyJob]\r\n"
		"rw=randread # inline hash\r\n"
		"RW=read\n"
		"size=\n"
		"[global]\n"
		"direct=1\n"
		"[MyJob]\n"
		"bs=8k\n";
	CU_ASSERT_EQUAL_FATAL(parse(&ini, text), 0);
	CU_ASSERT_EQUAL_FATAL(ini.nsec, 4);
	/* repeated [global] and job names stay separate sections, names keep case */
	CU_ASSERT(ini.sec[0].global && !ini.sec[1].global && ini.sec[2].global);
	CU_ASSERT_STRING_EQUAL(ini.sec[1].name, "MyJob");
	CU_ASSERT_STRING_EQUAL(ini.sec[3].name, "MyJob");
	CU_ASSERT_EQUAL(ini.sec[1].line, 7);
	const struct sb_ini_kv *b = kv(&ini.sec[0], "bs"), *t = kv(&ini.sec[0], "time_based");
	CU_ASSERT_FATAL(b && t);
	CU_ASSERT_STRING_EQUAL(b->value, "4k");
	CU_ASSERT(b->line == 4 && !b->bare);
	CU_ASSERT(t->bare && t->line == 5 && !strcmp(t->value, ""));
	CU_ASSERT_STRING_EQUAL(t->file, "mem.ini");
	/* keys are case-insensitive: later wins, with its line */
	const struct sb_ini_kv *rw = kv(&ini.sec[1], "rw");
	CU_ASSERT_FATAL(rw != NULL);
	CU_ASSERT_STRING_EQUAL(rw->value, "read");
	CU_ASSERT_EQUAL(rw->line, 9);
	CU_ASSERT_EQUAL(ini.sec[1].nkv, 2);
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[1], "size")->value, "");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[3], "bs")->value, "8k");
	sb_ini_free(&ini);
}

/* values iniparser would mangle: quotes, backslashes, '#' from ${VAR} */
static void test_values_round_trip(void)
{
	struct sb_ini ini;
	setenv("SB_T_HASH", "a#b;c", 1);
	const char *text = "[j]\ndescription=\"hello world\"\ndirectory=/tmp/x\\\n"
			   "filename=${SB_T_HASH}\nname=${SB_T_HASH}-${SB_T_HASH}\n";
	CU_ASSERT_EQUAL_FATAL(parse(&ini, text), 0);
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "description")->value, "hello world");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "directory")->value, "/tmp/x\\");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "filename")->value, "a#b;c");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "name")->value, "a#b;c-a#b;c");
	sb_ini_free(&ini);
}

/* ${VAR:-default}: the default when VAR is unset or empty, VAR otherwise */
static void test_var_defaults(void)
{
	struct sb_ini ini;
	unsetenv("SB_T_UNSET");
	setenv("SB_T_EMPTY", "", 1);
	setenv("SB_T_SET", "/mnt/nvme", 1);
	const char *text = "[j]\nsize=${SB_T_UNSET:-8m}\nbs=${SB_T_EMPTY:-4k}\n"
			   "directory=${SB_T_SET:-.}\nfilename=${SB_T_UNSET:-}x\n";
	CU_ASSERT_EQUAL_FATAL(parse(&ini, text), 0);
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "size")->value, "8m");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "bs")->value, "4k");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "directory")->value, "/mnt/nvme");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "filename")->value, "x");
	sb_ini_free(&ini);
	unsetenv("SB_T_EMPTY");
	unsetenv("SB_T_SET");
}

/* defaults may nest: ${A:-${B:-x}} (the job files use it) */
static void test_var_nested(void)
{
	struct sb_ini ini;
	setenv("SB_T_SCALE", "0.5", 1);
	setenv("SB_T_EMPTY", "", 1);
	unsetenv("SB_T_NONE");
	const char *text = "[j]\nsize=${SB_T_SCALE:-0.01}\nbs=${SB_T_NONE:-4k}\n"
			   "name=x${SB_T_EMPTY:-dflt}y\nfilename=${SB_T_NONE:-}z\n"
			   "directory=d-${SB_T_NONE:-${SB_T_SCALE:-1}}-${SB_T_NONE:-${SB_T_NONE:-n}}\n";
	CU_ASSERT_EQUAL_FATAL(parse(&ini, text), 0);
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "size")->value, "0.5");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "bs")->value, "4k");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "name")->value, "xdflty");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "filename")->value, "z");
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "directory")->value, "d-0.5-n");
	sb_ini_free(&ini);
	unsetenv("SB_T_SCALE");
	unsetenv("SB_T_EMPTY");
}

static void test_errors(void)
{
	struct sb_ini ini;
	unsetenv("SB_T_UNSET");
	const char *text = "bs=4k\n[ok]\n[broken\n[]\nsize=${SB_T_UNSET}\n=5\n";
	CU_ASSERT_EQUAL(parse(&ini, text), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "storbench: mem.ini:1: option 'bs' is outside a section"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "mem.ini:3: section header '[broken' has no closing ']'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "mem.ini:4: invalid section name '[]'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "mem.ini:5: environment variable 'SB_T_UNSET' is not set"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "${SB_T_UNSET:-VALUE}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "mem.ini:6: '=5' has no option name"));
	sb_ini_free(&ini);

	/* a line may hold 1 MiB: 1,200 characters pass, with
	 * the value intact past iniparser's 1024-byte line; 1 MiB + 1 is refused */
	size_t big = (1u << 20) + 1 + 4;
	char *longline = malloc(big + 1);
	CU_ASSERT_FATAL(longline != NULL);
	memset(longline, 'x', 1200);
	memcpy(longline, "[j]\nfilename=", 13);
	longline[1200] = '\0';
	CU_ASSERT_EQUAL(parse(&ini, longline), 0);
	CU_ASSERT_EQUAL(ini.nsec, 1);
	if (ini.nsec == 1 && ini.sec[0].nkv == 1)
		CU_ASSERT_EQUAL(strlen(ini.sec[0].kv[0].value), 1200 - 13);
	sb_ini_free(&ini);
	memset(longline + 4, 'x', big - 4);
	longline[big] = '\0';
	CU_ASSERT_EQUAL(parse(&ini, longline), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "mem.ini:2: line is too long (1048577 characters, max 1048576"));
	sb_ini_free(&ini);
	free(longline);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void test_include(void)
{
	char main_path[512], sub[512], inc[512];
	snprintf(sub, sizeof(sub), "%s/sub", sb_test_tmpdir());
	snprintf(main_path, sizeof(main_path), "%s/main.ini", sb_test_tmpdir());
	snprintf(inc, sizeof(inc), "%s/sub/common.inc", sb_test_tmpdir());
	CU_ASSERT_FATAL(mkdir(sub, 0755) == 0 || errno == EEXIST);
	write_file(main_path, "[global]\ninclude sub/common.inc\nbs=8k\n[job]\nrw=read\n");
	write_file(inc, "; included\nsize=1m\nbs=4k\n");
	struct sb_ini ini = { 0 };
	CU_ASSERT_EQUAL_FATAL(sb_ini_parse_file(&ini, main_path), 0);
	CU_ASSERT_EQUAL_FATAL(ini.nsec, 2);
	const struct sb_ini_kv *size = kv(&ini.sec[0], "size"), *bs = kv(&ini.sec[0], "bs");
	CU_ASSERT_FATAL(size && bs);
	/* included keys carry the included file's name and line */
	CU_ASSERT(!strcmp(size->file, inc) && size->line == 2);
	CU_ASSERT(!strcmp(bs->value, "8k") && !strcmp(bs->file, main_path) && bs->line == 3);
	sb_ini_free(&ini);

	/* an include loop ends with an error, not a crash */
	write_file(inc, "include common.inc\n");
	memset(&ini, 0, sizeof(ini));
	sb_log_capture(logbuf, sizeof(logbuf));
	CU_ASSERT_EQUAL(sb_ini_parse_file(&ini, main_path), -EINVAL);
	sb_log_capture(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "nested more than 16 deep"));
	sb_ini_free(&ini);
}

/* "\n", "\r\n" and a lone "\r" each end one line (a text ending in "\r" hung
 * the pre-pass) */
static void test_line_ends(void)
{
	struct sb_ini ini;
	CU_ASSERT_EQUAL_FATAL(parse(&ini, "[j]\rsize=1m\r\rbs=4k\r\n\n[k]\r\nrw=read\r"), 0);
	CU_ASSERT_EQUAL_FATAL(ini.nsec, 2);
	CU_ASSERT_STRING_EQUAL(ini.sec[0].name, "j");
	CU_ASSERT_EQUAL(kv(&ini.sec[0], "size")->line, 2);
	CU_ASSERT_EQUAL(kv(&ini.sec[0], "bs")->line, 4);
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[0], "bs")->value, "4k");
	CU_ASSERT_EQUAL(ini.sec[1].line, 6);
	CU_ASSERT_STRING_EQUAL(kv(&ini.sec[1], "rw")->value, "read");
	sb_ini_free(&ini);
	CU_ASSERT_EQUAL(parse(&ini, "\r"), 0);
	CU_ASSERT_EQUAL(ini.nsec, 0);
	sb_ini_free(&ini);
}

static void write_bytes(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT(fwrite(data, 1, len, f) == len);
	fclose(f);
}

static int parse_path(struct sb_ini *ini, const char *path)
{
	memset(ini, 0, sizeof(*ini));
	logbuf[0] = '\0';
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_ini_parse_file(ini, path);
	sb_log_capture(NULL, 0);
	return rc;
}

/* a NUL byte is reported at its line (lone CRs counted), in the main file
 * and in an include */
static void test_nul_byte(void)
{
	char path[512], inc[512], want[600];
	struct sb_ini ini;
	snprintf(path, sizeof(path), "%s/nul.ini", sb_test_tmpdir());
	snprintf(inc, sizeof(inc), "%s/nul.inc", sb_test_tmpdir());
	static const char t1[] = "[j]\r\nsize=1m\rbs=4\0k\n", t2[] = "[j]\ninclude nul.inc\n";
	write_bytes(path, t1, sizeof(t1) - 1);
	CU_ASSERT_EQUAL(parse_path(&ini, path), -EINVAL);
	snprintf(want, sizeof(want), "storbench: %s:3: the file holds a NUL byte", path);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, want));
	sb_ini_free(&ini);
	write_bytes(inc, "\n\n\0", 3);
	write_bytes(path, t2, sizeof(t2) - 1);
	CU_ASSERT_EQUAL(parse_path(&ini, path), -EINVAL);
	snprintf(want, sizeof(want), "storbench: %s:3: the file holds a NUL byte", inc);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, want));
	sb_ini_free(&ini);
}

/* job files are regular files, 16 MiB with their includes */
static void test_file_kind_and_size(void)
{
	char path[512], want[600];
	struct sb_ini ini;
	CU_ASSERT_EQUAL(parse_path(&ini, "/dev/zero"), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "storbench: /dev/zero: cannot read job file: it is a "
				      "character device, not a regular file"));
	sb_ini_free(&ini);
	snprintf(path, sizeof(path), "%s/inczero.ini", sb_test_tmpdir());
	write_file(path, "[j]\nsize=1m\ninclude /dev/zero\n");
	CU_ASSERT_EQUAL(parse_path(&ini, path), -EINVAL);
	snprintf(want, sizeof(want), "storbench: %s:3: include /dev/zero: cannot read '/dev/zero': "
		 "it is a character device", path);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, want));
	sb_ini_free(&ini);
	/* exactly the limit is fine; one byte more is not */
	snprintf(path, sizeof(path), "%s/big.ini", sb_test_tmpdir());
	char *big = malloc(SB_JOBFILE_MAX + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	memset(big, ' ', SB_JOBFILE_MAX + 1);
	memcpy(big, "[j]\nsize=1m\n", 12);
	for (size_t i = 100; i < SB_JOBFILE_MAX; i += 900)
		big[i] = '\n';
	write_bytes(path, big, SB_JOBFILE_MAX);
	CU_ASSERT_EQUAL(parse_path(&ini, path), 0);
	sb_ini_free(&ini);
	write_bytes(path, big, SB_JOBFILE_MAX + 1);
	free(big);
	CU_ASSERT_EQUAL(parse_path(&ini, path), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "cannot read job file: too big: a job file and "
				      "everything it includes may hold at most 16 MiB together"));
	sb_ini_free(&ini);
	unlink(path);
}

static CU_TestInfo tests[] = {
	{ "sections, lines, repeats", test_sections_and_lines },
	{ "values survive iniparser", test_values_round_trip },
	{ "${VAR:-default}", test_var_defaults },
	{ "${A:-${B:-x}} nested", test_var_nested },
	{ "pre-pass errors", test_errors },
	{ "include", test_include },
	{ "\\n, \\r\\n and a lone \\r end lines", test_line_ends },
	{ "NUL byte reported at its line", test_nul_byte },
	{ "regular files of at most 16 MiB", test_file_kind_and_size },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ini, tests)
