/* test_cachedrop.c: os/cachedrop: a drop that worked, one that was not
 * permitted or had no file to write, and one that cannot evict files on
 * tmpfs (said so, never reported as dropped). */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/cachedrop.h"
#include "harness.h"

/* a stand-in for /proc/sys/vm/drop_caches the test may write */
static const char *standin(void)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/drop_caches", sb_test_tmpdir());
	sb_test_put(sb_test_tmpdir(), "drop_caches", "");
	return path;
}

static void test_dropped(void)
{
	char why[192];
	if (sb_os_memfs(sb_test_tmpdir())) {
		fprintf(stderr, "(scratch dir on tmpfs: 'dropped' case not checked) ");
		return;
	}
	CU_ASSERT_TRUE(sb_os_drop_caches(standin(), sb_test_tmpdir(), why, sizeof(why)));
	CU_ASSERT_STRING_EQUAL(why, "");
	CU_ASSERT_TRUE(sb_os_drop_caches(standin(), NULL, why, sizeof(why)));
}

static void test_not_permitted(void)
{
	char why[192];
	CU_ASSERT_FALSE(sb_os_drop_caches("/nonexistent-storbench/drop_caches", NULL, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "cannot open /nonexistent-storbench/drop_caches"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "No such file"));
}

/* a tmpfs (mounted here as root, else /dev/shm when it is one): never
 * "dropped", even when the write itself worked */
static void test_tmpfs(void)
{
	char dir[512], why[192];
	bool mounted = false;
	snprintf(dir, sizeof(dir), "%s/tmpfs", sb_test_tmpdir());
	mkdir(dir, 0755);
	if (geteuid() == 0 && mount("sbtest", dir, "tmpfs", 0, "size=1m") == 0)
		mounted = true;
	else if (sb_os_memfs("/dev/shm"))
		snprintf(dir, sizeof(dir), "/dev/shm");
	else {
		fprintf(stderr, "(no tmpfs: not root and /dev/shm is not tmpfs: skipped) ");
		return;
	}
	CU_ASSERT_STRING_EQUAL(sb_os_memfs(dir), "tmpfs");
	CU_ASSERT_FALSE(sb_os_drop_caches(standin(), dir, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "is on tmpfs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, dir));
	if (mounted)
		umount(dir);
	CU_ASSERT_PTR_NULL(sb_os_memfs("/nonexistent-storbench"));
}

static CU_TestInfo tests[] = {
	{ "dropped", test_dropped },
	{ "not permitted or absent", test_not_permitted },
	{ "tmpfs cannot be evicted", test_tmpfs },
	CU_TEST_INFO_NULL,
};
SB_SUITE(cachedrop, tests)
