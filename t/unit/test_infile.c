/* test_infile.c: os/infile.c, the one reader: a FIFO, a device, a
 * directory and a symlink (inside a tree) are refused before a byte is
 * read; the size cap and the line bound hold with the file and line named;
 * a documented FIFO is read; every file opened is recorded as an input. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "os/infile.h"
#include "os/inputs.h"

static char *tpath(const char *name)
{
	static char p[4][512];
	static unsigned i;
	char *b = p[i++ % 4];
	snprintf(b, sizeof(p[0]), "%s/infile-%s", sb_test_tmpdir(), name);
	return b;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void test_kinds(void)
{
	char why[256];
	size_t len;
	int e;
	char *fifo = tpath("fifo");
	unlink(fifo);
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	/* a FIFO with no writer and /dev/zero: refused at once, never read */
	CU_ASSERT_PTR_NULL(sb_in_read(fifo, &sb_in_json, 0, UINT64_MAX, &len, &e, why, sizeof(why)));
	CU_ASSERT_EQUAL(e, -ENOTSUP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "a FIFO"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "must be a regular file"));
	CU_ASSERT_EQUAL(sb_in_open("/dev/zero", &sb_in_jobfile, 0, why, sizeof(why)), -ENOTSUP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "character device"));
	CU_ASSERT_EQUAL(sb_in_open(sb_test_tmpdir(), &sb_in_trace, 0, why, sizeof(why)), -ENOTSUP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "a directory"));
	CU_ASSERT_PTR_NULL(sb_in_fopen("/dev/null", &sb_in_vstate, 0, why, sizeof(why)));
	CU_ASSERT_EQUAL(errno, ENOTSUP);
	/* a symlink to a regular file: followed when the user named it, not
	 * inside a tree */
	char *reg = tpath("reg"), *lnk = tpath("lnk");
	put(reg, "{}");
	unlink(lnk);
	CU_ASSERT_EQUAL_FATAL(symlink(reg, lnk), 0);
	int fd = sb_in_open(lnk, &sb_in_json, 0, why, sizeof(why));
	CU_ASSERT(fd >= 0);
	if (fd >= 0)
		close(fd);
	CU_ASSERT_EQUAL(sb_in_open(lnk, &sb_in_json, SB_IN_NOFOLLOW, why, sizeof(why)), -ELOOP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "not followed"));
	/* a symlink to a FIFO is the FIFO */
	unlink(lnk);
	CU_ASSERT_EQUAL_FATAL(symlink(fifo, lnk), 0);
	CU_ASSERT_EQUAL(sb_in_open(lnk, &sb_in_json, 0, why, sizeof(why)), -ENOTSUP);
	unlink(lnk);
	unlink(fifo);
}

static void test_fifo_documented(void)
{
	/* read_iolog= reads a FIFO as fio does: the open waits for the writer */
	char *fifo = tpath("iofifo"), why[256];
	unlink(fifo);
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	pid_t pid = fork();
	if (!pid) {
		int w = open(fifo, O_WRONLY);
		if (w >= 0 && write(w, "fio version 2 iolog\n", 20) == 20)
			_exit(0);
		_exit(1);
	}
	struct sb_inlines l;
	char *line;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(sb_in_lines_open(&l, fifo, &sb_in_iolog, 0, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(sb_in_getline(&l, &line, &n, why, sizeof(why)), 1);
	CU_ASSERT_STRING_EQUAL(line, "fio version 2 iolog\n");
	CU_ASSERT_EQUAL(sb_in_getline(&l, &line, &n, why, sizeof(why)), 0);
	sb_in_lines_close(&l);
	int st;
	waitpid(pid, &st, 0);
	unlink(fifo);
}

static void test_cap(void)
{
	char why[256];
	size_t len;
	int e;
	char *big = tpath("big");
	int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	/* sparse: the cap is checked before reading */
	CU_ASSERT_EQUAL(ftruncate(fd, (off_t)sb_in_json.max + 1), 0);
	close(fd);
	CU_ASSERT_PTR_NULL(sb_in_read(big, &sb_in_json, 0, UINT64_MAX, &len, &e, why, sizeof(why)));
	CU_ASSERT_EQUAL(e, -EFBIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "1073741824 bytes (1 GiB)"));
	/* exactly at a room: read; one byte over: refused */
	put(big, "0123456789");
	char *t = sb_in_read(big, &sb_in_jobfile, 0, 10, &len, &e, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL(t);
	CU_ASSERT_EQUAL(len, 10);
	free(t);
	CU_ASSERT_PTR_NULL(sb_in_read(big, &sb_in_jobfile, 0, 9, &len, &e, why, sizeof(why)));
	CU_ASSERT_EQUAL(e, -EFBIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "16 MiB together"));
	unlink(big);
}

static void test_lines(void)
{
	char why[256], *line, *path = tpath("lines");
	size_t n, max = sb_in_iolog.line_max;
	char *text = malloc(3 * max + 64);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* a line of exactly the bound (also with \r\n) passes; one byte more
	 * is refused, naming FILE:LINE and the bound */
	memset(text, 'a', max);
	strcpy(text + max, "\r\n");
	memset(text + max + 2, 'b', max);
	strcpy(text + 2 * max + 2, "\nshort\n");
	size_t at = strlen(text);
	memset(text + at, 'c', max + 1);
	text[at + max + 1] = 0;
	put(path, text);
	struct sb_inlines l;
	CU_ASSERT_EQUAL_FATAL(sb_in_lines_open(&l, path, &sb_in_iolog, 0, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(sb_in_getline(&l, &line, &n, why, sizeof(why)), 1);
	CU_ASSERT_EQUAL(n, max + 2);
	CU_ASSERT_EQUAL(sb_in_getline(&l, &line, &n, why, sizeof(why)), 1);
	CU_ASSERT_EQUAL(n, max + 1);
	CU_ASSERT_EQUAL(sb_in_getline(&l, &line, &n, why, sizeof(why)), 1);
	CU_ASSERT_STRING_EQUAL(line, "short\n");
	CU_ASSERT_EQUAL(sb_in_getline(&l, &line, &n, why, sizeof(why)), -EOVERFLOW);
	char want[600];
	snprintf(want, sizeof(want), "%s:4: the line is longer than %zu bytes", path, max);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, want));
	sb_in_lines_close(&l);
	free(text);
	unlink(path);
}

static void test_recorded(void)
{
	char why[256], *path = tpath("rec"), got[512], what[64];
	struct stat st;
	put(path, "x");
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
	sb_inputs_clear();
	FILE *f = sb_in_fopen(path, &sb_in_kvtrace, SB_IN_NORECORD, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	CU_ASSERT_FALSE(sb_inputs_find(st.st_dev, st.st_ino, NULL, 0, NULL, 0));
	f = sb_in_fopen(path, &sb_in_kvtrace, 0, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	CU_ASSERT_TRUE(sb_inputs_find(st.st_dev, st.st_ino, got, sizeof(got), what, sizeof(what)));
	CU_ASSERT_STRING_EQUAL(what, sb_in_kvtrace.what);
	sb_inputs_clear();
	unlink(path);
}

static void test_tree(void)
{
	char why[256], *dir = tpath("tree"), *lnk = tpath("treelink");
	mkdir(dir, 0700);
	unlink(lnk);
	CU_ASSERT_EQUAL_FATAL(symlink(dir, lnk), 0);
	DIR *d = sb_in_opendir(lnk, 1, why, sizeof(why)); /* the folder named */
	CU_ASSERT_PTR_NOT_NULL(d);
	if (d)
		closedir(d);
	CU_ASSERT_PTR_NULL(sb_in_opendir(lnk, 0, why, sizeof(why))); /* inside a tree */
	CU_ASSERT_EQUAL(errno, ELOOP);
	d = sb_in_opendir(sb_test_tmpdir(), 1, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	struct stat st;
	CU_ASSERT_EQUAL(sb_in_entry(d, "infile-treelink", &st), 0);
	CU_ASSERT_TRUE(S_ISLNK(st.st_mode));
	closedir(d);
	unlink(lnk);
	rmdir(dir);
}

static CU_TestInfo tests[] = {
	{ "FIFO, device, directory, symlink refused", test_kinds },
	{ "a documented FIFO is read", test_fifo_documented },
	{ "size cap", test_cap },
	{ "line bound names FILE:LINE", test_lines },
	{ "opened files recorded as inputs", test_recorded },
	{ "trees not followed", test_tree },
	CU_TEST_INFO_NULL,
};
SB_SUITE(infile, tests)
