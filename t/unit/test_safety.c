/* test_safety.c: the data-safety helpers on fixture trees and image files:
 * a device mounted through a node of another name or used as swap is found
 * by its major:minor (os/mounts.c); file-system, swap and partition-table
 * signatures are found in image files (libblkid); a file or folder is
 * removed only while its path names the inode storbench made, never a file
 * put in its place or a symlink (os/scratch.c); the user.storbench mark
 * and whether its creator runs; --cleanup (run/cleanup.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <zlib.h>

#include "run/cleanup.h"
#include "run/files.h"
#include "harness.h"
#include "lib/log.h"
#include "os/mounts.h"
#include "os/scratch.h"

struct sb_jobspec sb_test_default_spec(void);

static const char *tpath(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", sb_test_tmpdir(), name);
	return buf;
}

/* ---- in use, by major:minor ---- */

static const char *sysroot(const char *tag, const char *mountinfo, const char *swaps)
{
	static char root[512];
	snprintf(root, sizeof(root), "%s/safety-%s", sb_test_tmpdir(), tag);
	sb_test_put(root, "proc/self/mountinfo", mountinfo);
	sb_test_put(root, "proc/swaps", swaps);
	sb_test_put(root, "sys/class/block/loop1/dev", "7:1\n");
	sb_test_put(root, "sys/class/block/vdb/dev", "252:16\n");
	sb_test_put(root, "sys/class/block/vdb/vdb2/partition", "2\n");
	sb_test_put(root, "sys/class/block/vdb/vdb2/dev", "252:18\n");
	return root;
}

#define ROOTLINE "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
#define NOSWAP "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

static void test_mounted_by_majmin(void)
{
	char why[512];
	/* mounted through ./mydisk (mknod ./mydisk b 7 1): only 7:1 says loop1 */
	const char *root = sysroot("alias", ROOTLINE "90 22 7:1 / /mnt/x rw - ext4 /root/mydisk rw\n",
				   NOSWAP);
	CU_ASSERT_EQUAL(sb_os_bdev_in_use(root, "loop1", why, sizeof(why)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "device 7:1 (loop1) on /mnt/x, through /root/mydisk"));
	/* a partition mounted: the disk is in use */
	root = sysroot("part", ROOTLINE "91 22 252:18 / /data rw - xfs /dev/disk/by-uuid/u rw\n", NOSWAP);
	CU_ASSERT_EQUAL(sb_os_bdev_in_use(root, "vdb", why, sizeof(why)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "252:18 (vdb2) on /data"));
	/* btrfs: an anonymous 0:N in field 3, the device only as the source */
	root = sysroot("btrfs", ROOTLINE "92 22 0:45 / /b rw - btrfs /dev/loop1 rw\n", NOSWAP);
	CU_ASSERT_EQUAL(sb_os_bdev_in_use(root, "loop1", why, sizeof(why)), 1);
	/* another device mounted: free */
	root = sysroot("free", ROOTLINE "93 22 7:2 / /y rw - ext4 /dev/loop2 rw\n", NOSWAP);
	CU_ASSERT_EQUAL(sb_os_bdev_in_use(root, "loop1", why, sizeof(why)), 0);
}

static void test_swap(void)
{
	char why[512];
	const char *root = sysroot("swap", ROOTLINE,
				   NOSWAP "/dev/loop1                              partition\t1024\t0\t-2\n");
	CU_ASSERT_EQUAL(sb_os_bdev_in_use(root, "loop1", why, sizeof(why)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "swap"));
	/* no mountinfo: cannot tell, so not free */
	char bare[512];
	snprintf(bare, sizeof(bare), "%s/safety-bare", sb_test_tmpdir());
	sb_test_put(bare, "sys/class/block/loop1/dev", "7:1\n");
	CU_ASSERT_TRUE(sb_os_bdev_in_use(bare, "loop1", why, sizeof(why)) < 0);
}

/* ---- signatures in image files ---- */

static int image(const char *name, char *path, size_t len, size_t bytes)
{
	tpath(path, len, name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ftruncate(fd, (off_t)bytes), 0);
	return fd;
}

static int probe(const char *path, char *what, size_t len)
{
	int fd = open(path, O_RDONLY);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	int r = sb_os_signature(fd, what, len);
	close(fd);
	return r;
}

static bool have(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1 || test -x /usr/sbin/%s || test -x /sbin/%s",
		 tool, tool, tool);
	return system(cmd) == 0;
}

/* tool: the program and its options, run on path */
static void run(const char *tool, const char *path)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "PATH=$PATH:/usr/sbin:/sbin; %s '%s' >/dev/null 2>&1", tool, path);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_signature_fs_swap(void)
{
	char p[512], what[400];
	close(image("blank.img", p, sizeof(p), 16u << 20));
	CU_ASSERT_EQUAL(probe(p, what, sizeof(what)), 0);
	if (have("mkfs.ext4")) {
		run("mkfs.ext4 -q -F -U 11111111-2222-3333-4444-555555555555 -L lbl", p);
		CU_ASSERT_EQUAL(probe(p, what, sizeof(what)), 1);
		CU_ASSERT_STRING_EQUAL(what, "an ext4 file system (UUID 11111111-2222-3333-4444-555555555555, label lbl)");
	} else {
		fprintf(stderr, "(mkfs.ext4 not installed: ext4 case skipped) ");
	}
	close(image("swap.img", p, sizeof(p), 16u << 20));
	if (have("mkswap")) {
		run("mkswap -U 11111111-2222-3333-4444-666666666666", p);
		CU_ASSERT_EQUAL(probe(p, what, sizeof(what)), 1);
		CU_ASSERT_STRING_EQUAL(what, "a swap swap area (UUID 11111111-2222-3333-4444-666666666666)");
	} else {
		fprintf(stderr, "(mkswap not installed: swap case skipped) ");
	}
}

static void put32(unsigned char *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static void test_signature_partition_tables(void)
{
	char p[512], what[400];
	unsigned char s[34 * 512];
	const uint64_t nsect = 32768;
	/* DOS: one Linux partition from sector 2048 */
	int fd = image("dos.img", p, sizeof(p), nsect * 512);
	memset(s, 0, sizeof(s));
	s[446 + 4] = 0x83;
	put32(s + 446 + 8, 2048);
	put32(s + 446 + 12, (uint32_t)(nsect - 2048));
	s[510] = 0x55;
	s[511] = 0xaa;
	CU_ASSERT_EQUAL(pwrite(fd, s, 512, 0), 512);
	close(fd);
	CU_ASSERT_EQUAL(probe(p, what, sizeof(what)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(what, "a DOS (MBR) partition table"));
	/* GPT: protective MBR, header with CRCs, one entry */
	fd = image("gpt.img", p, sizeof(p), nsect * 512);
	memset(s, 0, sizeof(s));
	s[446 + 2] = 2;
	s[446 + 4] = 0xee;
	memset(s + 446 + 5, 0xff, 3);
	put32(s + 446 + 8, 1);
	put32(s + 446 + 12, (uint32_t)(nsect - 1));
	s[510] = 0x55;
	s[511] = 0xaa;
	unsigned char *h = s + 512, *e = s + 1024;
	static const unsigned char linux_guid[16] = { 0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84, 0x72, 0x47,
						      0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4 };
	memcpy(e, linux_guid, 16);
	memset(e + 16, 0x42, 16);
	put64(e + 32, 2048);
	put64(e + 40, nsect - 34);
	memcpy(h, "EFI PART", 8);
	put32(h + 8, 0x10000);
	put32(h + 12, 92);
	put64(h + 24, 1);
	put64(h + 32, nsect - 1);
	put64(h + 40, 34);
	put64(h + 48, nsect - 34);
	memset(h + 56, 0x24, 16);
	put64(h + 72, 2);
	put32(h + 80, 128);
	put32(h + 84, 128);
	put32(h + 88, (uint32_t)crc32(0, e, 128 * 128));
	put32(h + 16, (uint32_t)crc32(0, h, 92));
	CU_ASSERT_EQUAL(pwrite(fd, s, sizeof(s), 0), (ssize_t)sizeof(s));
	close(fd);
	CU_ASSERT_EQUAL(probe(p, what, sizeof(what)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(what, "a GPT partition table (UUID 24242424-2424-2424-2424-242424242424)"));
}

/* ---- removing only what was made ---- */

static int make_file(const char *path, const char *text)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	return fd;
}

static bool holds(const char *path, const char *text)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return !strcmp(buf, text);
}

static void test_unlink_own_inode(void)
{
	char p[600], q[512];
	struct sb_scratch_id id, id2;
	tpath(p, sizeof(p), "own.dat");
	unlink(p);
	/* made and still there: removed */
	int fd = make_file(p, "scratch");
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id), 0);
	close(fd);
	CU_ASSERT_EQUAL(sb_scratch_unlink(p, &id), 0);
	CU_ASSERT_EQUAL(access(p, F_OK), -1);
	CU_ASSERT_EQUAL(sb_scratch_unlink(p, &id), -ENOENT);
	/* replaced in place (often with the very same inode number): kept */
	fd = make_file(p, "scratch");
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id), 0);
	close(fd);
	for (int i = 0; i < 3; i++) {
		unlink(p);
		close(make_file(p, "precious"));
		CU_ASSERT_EQUAL(sb_scratch_unlink(p, &id), -ESTALE);
		CU_ASSERT_TRUE(holds(p, "precious"));
	}
	/* a symlink to it swapped in: neither the link nor its target removed */
	unlink(p);
	fd = make_file(p, "scratch");
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id), 0);
	close(fd);
	tpath(q, sizeof(q), "own.moved");
	CU_ASSERT_EQUAL(rename(p, q), 0);
	CU_ASSERT_EQUAL(symlink(q, p), 0);
	CU_ASSERT_EQUAL(sb_scratch_unlink(p, &id), -ESTALE);
	CU_ASSERT_TRUE(holds(q, "scratch"));
	unlink(p);
	unlink(q);
	/* nothing made (ino 0): nothing removed */
	memset(&id2, 0, sizeof(id2));
	close(make_file(p, "x"));
	CU_ASSERT_EQUAL(sb_scratch_unlink(p, &id2), -ESTALE);
	unlink(p);
	/* folders: removed while the same and empty */
	tpath(q, sizeof(q), "own.dir");
	rmdir(q);
	CU_ASSERT_EQUAL(mkdir(q, 0755), 0);
	CU_ASSERT_EQUAL(sb_scratch_made_path(q, "j", &id), 0);
	CU_ASSERT_EQUAL(rmdir(q), 0);
	CU_ASSERT_EQUAL(mkdir(q, 0755), 0); /* someone else's now */
	CU_ASSERT_EQUAL(sb_scratch_rmdir(q, &id), -ESTALE);
	CU_ASSERT_EQUAL(sb_scratch_made_path(q, "j", &id), 0);
	snprintf(p, sizeof(p), "%s/theirs", q);
	close(make_file(p, "x"));
	CU_ASSERT_EQUAL(sb_scratch_rmdir(q, &id), -ENOTEMPTY);
	unlink(p);
	CU_ASSERT_EQUAL(sb_scratch_rmdir(q, &id), 0);
	/* what run/files.c made, by path */
	CU_ASSERT_FALSE(sb_scratch_recall("/nonexistent/never-made", &id2));
	sb_scratch_remember("/x/made", &id);
	CU_ASSERT_TRUE(sb_scratch_recall("/x/made", &id2));
	CU_ASSERT_EQUAL(id2.ino, id.ino);
}

/* ---- the mark ---- */

static bool xattrs_here(void)
{
	char p[512];
	tpath(p, sizeof(p), "xattr.probe");
	close(open(p, O_WRONLY | O_CREAT, 0644));
	bool ok = setxattr(p, "user.probe", "1", 1, 0) == 0;
	unlink(p);
	return ok;
}

static void test_mark(void)
{
	char p[512];
	struct sb_scratch_id id;
	struct sb_scratch_mark m;
	if (!xattrs_here()) {
		fprintf(stderr, "(no user xattrs under %s: mark checks skipped) ", sb_test_tmpdir());
		return;
	}
	tpath(p, sizeof(p), "marked.dat");
	unlink(p);
	int fd = make_file(p, "x");
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "myjob", &id), 0);
	close(fd);
	CU_ASSERT_TRUE(id.marked);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 1);
	CU_ASSERT_EQUAL(m.pid, (long)getpid());
	CU_ASSERT_STRING_EQUAL(m.job, "myjob");
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_ALIVE);
	/* a process that has ended (and been reaped): dead */
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	m.pid = c;
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
	/* our pid with another start time: the pid was reused, dead */
	m.pid = getpid();
	m.start += 1;
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
	m.start -= 1;
	/* another boot: dead; another host: cannot tell */
	snprintf(m.boot, sizeof(m.boot), "00000000-0000-0000-0000-000000000000");
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
	snprintf(m.host, sizeof(m.host), "elsewhere.example");
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_UNKNOWN);
	/* kept on purpose: still this process's (removable by it), state=kept */
	CU_ASSERT_FALSE(m.kept);
	CU_ASSERT_EQUAL(sb_scratch_keep(p, &id), 0);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 1);
	CU_ASSERT_TRUE(m.kept);
	CU_ASSERT_STRING_EQUAL(m.job, "myjob");
	/* no mark, or one this version does not know: not ours */
	CU_ASSERT_EQUAL(removexattr(p, SB_SCRATCH_XATTR), 0);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 0);
	CU_ASSERT_EQUAL(setxattr(p, SB_SCRATCH_XATTR, "storbench 9 pid=1", 17, 0), 0);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 0);
	/* a file whose mark was taken away is not removed as ours */
	CU_ASSERT_EQUAL(sb_scratch_unlink(p, &id), -ESTALE);
	unlink(p);
}

static void test_cleanup_dir(void)
{
	char d[512], p[600], out[4096];
	if (!xattrs_here())
		return;
	tpath(d, sizeof(d), "cleanup");
	mkdir(d, 0755);
	/* a dead run's file, a live run's file, an unmarked file */
	snprintf(p, sizeof(p), "%s/dead", d);
	int fd = make_file(p, "x");
	struct sb_scratch_id id;
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id), 0);
	close(fd);
	char mark[256];
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	struct sb_scratch_mark m;
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 1);
	/* the mark names the inode it is on (a copy's would not) */
	CU_ASSERT_TRUE(m.has_ino);
	CU_ASSERT_EQUAL(m.ino, (unsigned long long)id.ino);
	CU_ASSERT_EQUAL(m.dev, (unsigned long long)id.dev);
	int n = snprintf(mark, sizeof(mark), "storbench 1 pid=%d start=%llu boot=%s host=%s "
			 "dev=%llu ino=%llu state=made job=j", (int)c, m.start, m.boot, m.host,
			 m.dev, m.ino);
	CU_ASSERT_EQUAL(setxattr(p, SB_SCRATCH_XATTR, mark, (size_t)n, 0), 0);
	snprintf(p, sizeof(p), "%s/live", d);
	fd = make_file(p, "x");
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id), 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/users", d);
	close(make_file(p, "x"));
	FILE *f = fmemopen(out, sizeof(out), "w");
	CU_ASSERT_EQUAL(sb_cleanup_dir(d, true, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "would remove "));
	snprintf(p, sizeof(p), "%s/dead", d);
	CU_ASSERT_EQUAL(access(p, F_OK), 0);
	f = fmemopen(out, sizeof(out), "w");
	CU_ASSERT_EQUAL(sb_cleanup_dir(d, false, f), 0);
	fclose(f);
	CU_ASSERT_EQUAL(access(p, F_OK), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "removed 1 files and 0 folders"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "skipped 1; left 1 files storbench did not make and 0 it kept"));
	snprintf(p, sizeof(p), "%s/live", d);
	CU_ASSERT_EQUAL(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/users", d);
	CU_ASSERT_EQUAL(access(p, F_OK), 0);
	f = fmemopen(out, sizeof(out), "w");
	char log[512];
	snprintf(p, sizeof(p), "%s/users", d);
	sb_log_capture(log, sizeof(log));
	CU_ASSERT_EQUAL(sb_cleanup_dir(p, false, f), -ENOTDIR);
	sb_log_capture(NULL, 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "--cleanup: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "users: Not a directory"));
}

/* two layouts alive at once writing the same free device (a sweep's check
 * and its run): both plan; the O_EXCL claim is shared, released with the last */
static void test_claim_shared(void)
{
	char img[512], dev[64] = "", cmd[700];
	if (geteuid() != 0 || access("/dev/loop-control", F_OK) != 0) {
		fprintf(stderr, "(needs root and loop devices: skipped) ");
		return;
	}
	close(image("claim.img", img, sizeof(img), 8u << 20));
	snprintf(cmd, sizeof(cmd), "PATH=$PATH:/usr/sbin:/sbin losetup -f --show '%s'", img);
	FILE *p = popen(cmd, "r");
	if (!p || !fgets(dev, sizeof(dev), p) || dev[0] != '/') {
		if (p)
			pclose(p);
		fprintf(stderr, "(no free loop device: skipped) ");
		return;
	}
	pclose(p);
	dev[strcspn(dev, "\n")] = '\0';
	struct sb_jobspec s = sb_test_default_spec();
	strcpy(s.ioengine, "psync");
	s.rw = SB_RW_WRITE;
	s.filename = dev;
	s.size = 1u << 20;
	struct sb_joblist jl = { .jobs = &s, .njobs = 1 };
	struct sb_layout a, b;
	bool nodisk = false;
	CU_ASSERT_EQUAL(sb_files_plan(&jl, &nodisk, NULL, &a), 0);
	CU_ASSERT_EQUAL(sb_files_plan(&jl, &nodisk, NULL, &b), 0);
	int fd = open(dev, O_RDONLY | O_EXCL);
	CU_ASSERT_TRUE(fd < 0 && errno == EBUSY); /* held while a layout lives */
	if (fd >= 0)
		close(fd);
	sb_files_cleanup(&a, false);
	fd = open(dev, O_RDONLY | O_EXCL);
	CU_ASSERT_TRUE(fd < 0 && errno == EBUSY);
	if (fd >= 0)
		close(fd);
	sb_files_cleanup(&b, false);
	fd = open(dev, O_RDONLY | O_EXCL);
	CU_ASSERT_TRUE(fd >= 0); /* released with the last */
	if (fd >= 0)
		close(fd);
	snprintf(cmd, sizeof(cmd), "PATH=$PATH:/usr/sbin:/sbin losetup -d '%s'", dev);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static CU_TestInfo tests[] = {
	{ "mounted: by major:minor (alias node, partition, btrfs)", test_mounted_by_majmin },
	{ "swap; no mountinfo is not free", test_swap },
	{ "signatures: ext4, swap (image files)", test_signature_fs_swap },
	{ "signatures: DOS and GPT partition tables", test_signature_partition_tables },
	{ "unlink/rmdir only the inode made", test_unlink_own_inode },
	{ "user.storbench mark and its creator", test_mark },
	{ "--cleanup removes dead runs' marked files only", test_cleanup_dir },
	{ "O_EXCL claim shared by live layouts (root, loop)", test_claim_shared },
	CU_TEST_INFO_NULL,
};
SB_SUITE(safety, tests)
