/* test_sysio.c: lib/sysio.h, the engines' pread/pwrite/read/write without
 * glibc's cancellation-point wrappers: the same results and errno as the
 * libc calls (the engines turn -1 into -errno; run/ completes short
 * transfers, so a short count must come back as it is) */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "lib/sysio.h"

static int scratch(char *path, size_t len)
{
	snprintf(path, len, "%s/sysio.bin", sb_test_tmpdir());
	return open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
}

static void test_positioned(void)
{
	char path[PATH_MAX], buf[16] = { 0 };
	int fd = scratch(path, sizeof(path));
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(sb_pwrite(fd, "0123456789", 10, 4096), 10);
	CU_ASSERT_EQUAL(lseek(fd, 0, SEEK_CUR), 0);  /* the file position is not moved */
	CU_ASSERT_EQUAL(sb_pread(fd, buf, 4, 4099), 4);
	CU_ASSERT_EQUAL(memcmp(buf, "3456", 4), 0);
	CU_ASSERT_EQUAL(sb_pread(fd, buf, sizeof(buf), 4100), 6);  /* short at the end: as it is */
	CU_ASSERT_EQUAL(sb_pread(fd, buf, sizeof(buf), 1 << 20), 0);  /* past the end */
	CU_ASSERT_EQUAL(sb_pread(fd, buf, 4, 0), 4);  /* the hole reads as zeroes */
	CU_ASSERT_EQUAL(memcmp(buf, "\0\0\0\0", 4), 0);
	close(fd);
	unlink(path);
}

static void test_sequential(void)
{
	char path[PATH_MAX], buf[8] = { 0 };
	int fd = scratch(path, sizeof(path));
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(sb_write(fd, "abcdef", 6), 6);
	CU_ASSERT_EQUAL(lseek(fd, 0, SEEK_CUR), 6);
	CU_ASSERT_EQUAL(lseek(fd, 2, SEEK_SET), 2);
	CU_ASSERT_EQUAL(sb_read(fd, buf, sizeof(buf)), 4);
	CU_ASSERT_EQUAL(memcmp(buf, "cdef", 4), 0);
	close(fd);
	unlink(path);
}

static void test_errors(void)
{
	char buf[8];
	errno = 0;
	CU_ASSERT_EQUAL(sb_pread(-1, buf, sizeof(buf), 0), -1);
	CU_ASSERT_EQUAL(errno, EBADF);
	errno = 0;
	CU_ASSERT_EQUAL(sb_pwrite(-1, buf, sizeof(buf), 0), -1);
	CU_ASSERT_EQUAL(errno, EBADF);
	errno = 0;
	CU_ASSERT_EQUAL(sb_read(-1, buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(errno, EBADF);
	errno = 0;
	CU_ASSERT_EQUAL(sb_write(-1, buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(errno, EBADF);
	int p[2];
	CU_ASSERT_FATAL(pipe(p) == 0);
	errno = 0;
	CU_ASSERT_EQUAL(sb_pread(p[0], buf, sizeof(buf), 0), -1);  /* a pipe has no offsets */
	CU_ASSERT_EQUAL(errno, ESPIPE);
	errno = 0;
	CU_ASSERT_EQUAL(sb_pread(p[0], buf, sizeof(buf), -1), -1);
	CU_ASSERT(errno == ESPIPE || errno == EINVAL);
	close(p[0]);
	close(p[1]);
}

static CU_TestInfo tests[] = {
	{ "pread/pwrite at an offset", test_positioned },
	{ "read/write at the file position", test_sequential },
	{ "errors as the libc calls give them", test_errors },
	CU_TEST_INFO_NULL,
};
SB_SUITE(sysio, tests)
