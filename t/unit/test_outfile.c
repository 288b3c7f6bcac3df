/* test_outfile.c: the writer gate (os/outfile.c) and results trees
 * (os/outtree.c): what is refused, what a failed or abandoned write leaves,
 * exclusive creation, and a tree that could not be completed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/inputs.h"
#include "os/outfile.h"
#include "os/outtree.h"
#include "os/scratch.h"
#include "harness.h"

static const struct sb_outname N = { "test-opt", "job.fio:3", "the test output" };

static char *tpath(const char *name)
{
	static char buf[4][600];
	static unsigned k;
	char *p = buf[k++ % 4];
	snprintf(p, 600, "%s/%s", sb_test_tmpdir(), name);
	return p;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static bool holds(const char *path, const char *text)
{
	char buf[256] = { 0 };
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	return n == strlen(text) && !memcmp(buf, text, n);
}

/* entries of dir whose names start with prefix */
static unsigned count(const char *dir, const char *prefix)
{
	unsigned n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

static void test_refusals(void)
{
	char *fifo = tpath("gate.fifo"), *dir = tpath("gate.dir"), *in = tpath("gate.in");
	char *ln = tpath("gate.link");
	mkfifo(fifo, 0600);
	mkdir(dir, 0755);
	put(in, "input\n");
	unlink(ln);
	CU_ASSERT_EQUAL(link(in, ln), 0);
	sb_inputs_clear();
	CU_ASSERT_EQUAL(sb_inputs_add_path(in, "job file"), 0);
	CU_ASSERT_EQUAL(sb_outfile_check("/dev/zero", &N, 0), -EPERM);   /* a character device */
	CU_ASSERT_EQUAL(sb_outfile_check("/dev/full", &N, 0), -EPERM);
	CU_ASSERT_EQUAL(sb_outfile_check("/dev/null", &N, 0), 0);        /* the sink */
	CU_ASSERT_EQUAL(sb_outfile_check(fifo, &N, 0), -EPERM);         /* no FIFO mode */
	CU_ASSERT_EQUAL(sb_outfile_check(fifo, &N, SB_OUT_FIFO), 0);
	CU_ASSERT_EQUAL(sb_outfile_check(dir, &N, 0), -EISDIR);
	CU_ASSERT_EQUAL(sb_outfile_check(in, &N, 0), -EPERM);           /* an input */
	CU_ASSERT_EQUAL(sb_outfile_check(ln, &N, 0), -EPERM);           /* the same inode */
	CU_ASSERT_EQUAL(sb_outfile_check(tpath("gate.new"), &N, 0), 0); /* nothing there yet */
	struct sb_outfile o;
	CU_ASSERT_EQUAL(sb_outfile_open(&o, ln, &N, SB_OUT_APPEND), -EPERM);
	CU_ASSERT_EQUAL(sb_outfile_open(&o, "/dev/zero", &N, SB_OUT_TRUNC), -EPERM);
	CU_ASSERT_TRUE(holds(in, "input\n"));
	CU_ASSERT_EQUAL(sb_outfile_open(&o, "/dev/null", &N, 0), 0);
	fputs("gone", o.f);
	CU_ASSERT_EQUAL(sb_outfile_commit(&o), 0);
	CU_ASSERT_EQUAL(sb_outfile_kernel("/dev/zero"), -EPERM);
	CU_ASSERT_EQUAL(sb_outfile_kernel(in), -EPERM);
	CU_ASSERT_EQUAL(sb_outfile_kernel_mkdir(tpath("gate.cg"), 0755), -EPERM); /* not cgroupfs */
	sb_inputs_clear();
	unlink(fifo);
	rmdir(dir);
	unlink(ln);
}

static void test_whole_or_nothing(void)
{
	char *f = tpath("gate.res");
	struct sb_outfile o;
	put(f, "old\n");
	CU_ASSERT_EQUAL_FATAL(sb_outfile_open(&o, f, &N, 0), 0);
	CU_ASSERT_EQUAL(count(sb_test_tmpdir(), ".gate.res."), 1); /* the temporary */
	fputs("new\n", o.f);
	sb_outfile_abort(&o);
	CU_ASSERT_TRUE(holds(f, "old\n"));
	CU_ASSERT_EQUAL(count(sb_test_tmpdir(), ".gate.res."), 0);
	CU_ASSERT_EQUAL_FATAL(sb_outfile_open(&o, f, &N, 0), 0);
	fputs("new\n", o.f);
	CU_ASSERT_TRUE(holds(f, "old\n")); /* nothing reaches the name before the commit */
	CU_ASSERT_EQUAL(sb_outfile_commit(&o), 0);
	CU_ASSERT_TRUE(holds(f, "new\n"));
	CU_ASSERT_EQUAL(count(sb_test_tmpdir(), ".gate.res."), 0);
	/* SB_OUT_NEW: never over a file that is there */
	CU_ASSERT_EQUAL(sb_outfile_open(&o, f, &N, SB_OUT_NEW), -EEXIST);
	CU_ASSERT_TRUE(holds(f, "new\n"));
	unlink(f);
}

static void test_exclusive_create(void)
{
	char *f = tpath("gate.data");
	struct sb_scratch_id id = { 0 };
	put(f, "user's\n");
	CU_ASSERT_EQUAL(sb_outfile_create(f, O_WRONLY, 0644, "j", &id), -EEXIST);
	CU_ASSERT_TRUE(holds(f, "user's\n"));
	CU_ASSERT_EQUAL(id.ino, 0);
	unlink(f);
	int fd = sb_outfile_create(f, O_WRONLY, 0644, "j", &id);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_NOT_EQUAL(id.ino, 0);
	CU_ASSERT_EQUAL(sb_scratch_unlink(f, &id), 0); /* known by identity */
}

static void test_tree_undone(void)
{
	char *dir = tpath("gate.tree"), *sub = tpath("gate.tree/sub"), *file = tpath("gate.tree/a");
	char *user = tpath("gate.tree/users");
	CU_ASSERT_EQUAL_FATAL(sb_outtree_begin(dir), 0);
	CU_ASSERT_EQUAL(sb_outtree_begin(dir), -EEXIST); /* never an existing folder */
	/* the second begin ended the first: start again */
	CU_ASSERT_EQUAL(sb_outtree_end(true), 0);
	rmdir(dir);
	CU_ASSERT_EQUAL_FATAL(sb_outtree_begin(dir), 0);
	CU_ASSERT_EQUAL(sb_outtree_mkdir("j", sub), 0);
	FILE *f = sb_outtree_file("j", file);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("x", f);
	CU_ASSERT_EQUAL(sb_outtree_close("j", f), 0);
	CU_ASSERT_PTR_NULL(sb_outtree_file("j", file)); /* new files only */
	CU_ASSERT_EQUAL(sb_outtree_end(false), 0);
	CU_ASSERT_EQUAL(access(dir, F_OK), -1); /* all of it removed */
	/* a file someone else put there stays, and so does the folder */
	CU_ASSERT_EQUAL_FATAL(sb_outtree_begin(dir), 0);
	put(user, "mine\n");
	CU_ASSERT_NOT_EQUAL(sb_outtree_end(false), 0);
	CU_ASSERT_TRUE(holds(user, "mine\n"));
	unlink(user);
	rmdir(dir);
}

/* made unnamed, marked, then linked: exclusive as O_EXCL, marked before it
 * has its name (where the file system has O_TMPFILE and user xattrs) */
static void test_unkillable_create(void)
{
	char *f = tpath("gate.npy");
	struct sb_scratch_id id = { 0 };
	put(f, "user's\n");
	CU_ASSERT_EQUAL(sb_outfile_create_unkillable(f, O_WRONLY, 0644, "j", &id), -EEXIST);
	CU_ASSERT_TRUE(holds(f, "user's\n"));
	unlink(f);
	int fd = sb_outfile_create_unkillable(f, O_WRONLY, 0644, "j", &id);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, "data\n", 5), 5);
	close(fd);
	CU_ASSERT_TRUE(holds(f, "data\n"));
	CU_ASSERT_TRUE(id.marked);
	struct sb_scratch_mark m;
	struct stat st;
	CU_ASSERT_EQUAL(lstat(f, &st), 0);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(f, &m), 1);
	CU_ASSERT_TRUE(sb_scratch_mark_names(&m, &st)); /* the mark names the linked inode */
	CU_ASSERT_EQUAL(sb_outfile_create_unkillable(f, O_WRONLY, 0644, "j", NULL), -EEXIST);
	CU_ASSERT_EQUAL(sb_scratch_unlink(f, &id), 0);
}

static CU_TestInfo tests[] = {
	{ "refusals: devices, FIFOs, folders, inputs", test_refusals },
	{ "whole or not at all", test_whole_or_nothing },
	{ "data files created exclusively", test_exclusive_create },
	{ "data files marked before they are named", test_unkillable_create },
	{ "a results tree that fails is removed", test_tree_undone },
	CU_TEST_INFO_NULL,
};
SB_SUITE(outfile, tests)
