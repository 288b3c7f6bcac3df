/* test_owner.c: whose a storbench mark is (os/scratch.c):
 * the liveness rules over every field of a version 2 mark (host, boot,
 * PID namespace, pid, start time), version 1 marks judged as before, the
 * phrase a run's refusal uses, and the .storbench-owner record where the
 * file system keeps no user extended attributes (a real ramfs, as root). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "harness.h"
#include "os/scratch.h"
#include "os/scratchside.h"
#include "run/cleanup.h"

static int mkfile(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0 && write(fd, "x", 1) != 1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* a mark of this very process, as made_fd writes it */
static bool my_mark(struct sb_scratch_mark *m)
{
	char p[512];
	struct sb_scratch_id id;
	snprintf(p, sizeof(p), "%s/owner-self", sb_test_tmpdir());
	unlink(p);
	int fd = mkfile(p);
	bool ok = fd >= 0 && sb_scratch_made_fd(fd, "j", &id) == 0 && id.marked &&
		  sb_scratch_read_mark(p, m) == 1;
	if (fd >= 0)
		close(fd);
	if (id.side)
		sb_scratch_side_drop(p, (unsigned long long)id.dev, (unsigned long long)id.ino);
	unlink(p);
	return ok;
}

static void test_fields(void)
{
	struct sb_scratch_mark m;
	struct stat st;
	if (!my_mark(&m)) {
		CU_FAIL("no mark made");
		return;
	}
	CU_ASSERT_EQUAL(m.version, 2);
	CU_ASSERT_EQUAL(m.pid, (long)getpid());
	CU_ASSERT_EQUAL(stat("/proc/self/ns/pid", &st), 0);
	CU_ASSERT_EQUAL(m.pidns, (unsigned long long)st.st_ino);
	CU_ASSERT_NOT_EQUAL(m.start, 0);
	CU_ASSERT_NOT_EQUAL(strcmp(m.boot, "-"), 0);
	CU_ASSERT_STRING_EQUAL(m.job, "j");
}

static void test_liveness(void)
{
	struct sb_scratch_mark me, m;
	const char *why = NULL;
	if (!my_mark(&me)) {
		CU_FAIL("no mark made");
		return;
	}
	CU_ASSERT_EQUAL(sb_scratch_owner(&me), SB_OWNER_ALIVE);
	/* a recycled pid: the pid exists, another start time */
	m = me, m.start++;
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
	m = me, m.start--;
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
	/* pid 1 of this namespace with our start time: not its start time */
	m = me, m.pid = 1;
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), getpid() == 1 ? SB_OWNER_ALIVE : SB_OWNER_DEAD);
	/* a child that ended: reaped (no such pid) and a zombie */
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	m = me, m.pid = c;
	usleep(100000); /* a zombie now: it ended, not reaped */
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
	waitpid(c, NULL, 0);
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
	/* another PID namespace: cannot tell, whatever pid and start say */
	m = me, m.pidns++;
	CU_ASSERT_EQUAL(sb_scratch_owner_why(&m, &why), SB_OWNER_UNKNOWN);
	CU_ASSERT_TRUE(why && strstr(why, "PID namespace") != NULL);
	m.pid = c; /* a pid that does not exist here */
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_UNKNOWN);
	m.pid = 1, m.start = 1;
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_UNKNOWN);
	m = me, m.start = 0; /* not recorded: a reused pid cannot be told */
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_UNKNOWN);
	m = me, m.pidns = 0; /* not recorded */
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_UNKNOWN);
	/* another boot: dead, whatever the namespace */
	m = me, m.pidns++;
	snprintf(m.boot, sizeof(m.boot), "00000000-0000-0000-0000-000000000000");
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
	m = me;
	snprintf(m.boot, sizeof(m.boot), "-"); /* not recorded: cannot tell */
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_UNKNOWN);
	/* another host: cannot tell, even with another boot id */
	m = me;
	snprintf(m.host, sizeof(m.host), "elsewhere.example");
	CU_ASSERT_EQUAL(sb_scratch_owner_why(&m, &why), SB_OWNER_UNKNOWN);
	CU_ASSERT_TRUE(why && strstr(why, "another host") != NULL);
	snprintf(m.boot, sizeof(m.boot), "00000000-0000-0000-0000-000000000000");
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_UNKNOWN);
	/* version 1 (no pidns=): judged as before, pid and start time */
	m = me, m.version = 1, m.pidns = 0;
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_ALIVE);
	m.start++;
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_DEAD);
}

static void test_read_versions(void)
{
	char p[512], mark[512];
	struct sb_scratch_mark m;
	struct stat st;
	snprintf(p, sizeof(p), "%s/owner-versions", sb_test_tmpdir());
	unlink(p);
	int fd = mkfile(p);
	CU_ASSERT_TRUE(fd >= 0);
	close(fd);
	if (setxattr(p, "user.probe", "1", 1, 0) != 0) {
		fprintf(stderr, "(no user xattrs under %s: skipped) ", sb_test_tmpdir());
		unlink(p);
		return;
	}
	lstat(p, &st);
	snprintf(mark, sizeof(mark), "storbench 1 pid=77 start=5 boot=b host=h dev=%llu ino=%llu "
		 "state=kept job=a job", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	CU_ASSERT_EQUAL(setxattr(p, SB_SCRATCH_XATTR, mark, strlen(mark), 0), 0);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 1);
	CU_ASSERT_EQUAL(m.version, 1);
	CU_ASSERT_EQUAL(m.pidns, 0);
	CU_ASSERT_TRUE(m.kept);
	CU_ASSERT_STRING_EQUAL(m.job, "a job");
	CU_ASSERT_TRUE(sb_scratch_mark_names(&m, &st));
	snprintf(mark, sizeof(mark), "storbench 2 pid=77 start=5 boot=b host=h pidns=99 dev=%llu "
		 "ino=%llu state=made job=j", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	CU_ASSERT_EQUAL(setxattr(p, SB_SCRATCH_XATTR, mark, strlen(mark), 0), 0);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 1);
	CU_ASSERT_EQUAL(m.version, 2);
	CU_ASSERT_EQUAL(m.pidns, 99);
	CU_ASSERT_FALSE(m.kept);
	CU_ASSERT_EQUAL(setxattr(p, SB_SCRATCH_XATTR, "storbench 3 pid=77", 18, 0), 0);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 0); /* a later version: not ours to judge */
	unlink(p);
}

static void forge(char *mark, size_t len, long pid, unsigned long long start, const char *boot,
		  const char *host, unsigned long long pidns, unsigned long long dev,
		  unsigned long long ino, const char *state)
{
	snprintf(mark, len, "storbench 2 pid=%ld start=%llu boot=%s host=%s pidns=%llu dev=%llu "
		 "ino=%llu state=%s job=j", pid, start, boot, host, pidns, dev, ino, state);
}

/* the phrase a refusal uses, for each kind of existing entry */
static void test_whose(void)
{
	char p[512], said[1200], mark[600];
	struct sb_scratch_id id;
	struct sb_scratch_mark me;
	struct stat st;
	snprintf(p, sizeof(p), "%s/owner-whose", sb_test_tmpdir());
	unlink(p);
	int fd = mkfile(p);
	close(fd);
	CU_ASSERT_EQUAL(sb_scratch_whose(p, "DIR", said, sizeof(said)), SB_WHOSE_NONE);
	CU_ASSERT_STRING_EQUAL(said, "");
	unlink(p);
	fd = mkfile(p);
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id), 0);
	close(fd);
	CU_ASSERT_EQUAL(sb_scratch_whose(p, "DIR", said, sizeof(said)), SB_WHOSE_LIVE);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "still running"));
	if (id.side || sb_scratch_read_mark(p, &me) != 1) { /* the rest forges xattr marks */
		sb_scratch_unlink(p, &id);
		return;
	}
	lstat(p, &st);
	forge(mark, sizeof(mark), me.pid, me.start + 1, me.boot, me.host, me.pidns, me.dev,
		 me.ino, "made");
	setxattr(p, SB_SCRATCH_XATTR, mark, strlen(mark), 0);
	CU_ASSERT_EQUAL(sb_scratch_whose(p, "DIR", said, sizeof(said)), SB_WHOSE_DEAD);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "storbench --cleanup DIR"));
	forge(mark, sizeof(mark), me.pid, me.start, me.boot, me.host, me.pidns + 1, me.dev,
		 me.ino, "made");
	setxattr(p, SB_SCRATCH_XATTR, mark, strlen(mark), 0);
	CU_ASSERT_EQUAL(sb_scratch_whose(p, "DIR", said, sizeof(said)), SB_WHOSE_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "PID namespace"));
	forge(mark, sizeof(mark), me.pid, me.start + 1, me.boot, me.host, me.pidns, me.dev,
		 me.ino, "kept");
	setxattr(p, SB_SCRATCH_XATTR, mark, strlen(mark), 0);
	CU_ASSERT_EQUAL(sb_scratch_whose(p, "DIR", said, sizeof(said)), SB_WHOSE_KEPT);
	/* a mark naming another inode (a copy): the user's */
	forge(mark, sizeof(mark), me.pid, me.start + 1, me.boot, me.host, me.pidns, me.dev,
		 me.ino + 1, "made");
	setxattr(p, SB_SCRATCH_XATTR, mark, strlen(mark), 0);
	CU_ASSERT_EQUAL(sb_scratch_whose(p, "DIR", said, sizeof(said)), SB_WHOSE_NONE);
	unlink(p);
}

/* ---- the .storbench-owner record, on a real file system without user
 * xattrs (ramfs) ---- */

static bool ramfs(char *d, size_t len)
{
	snprintf(d, len, "%s/owner-ramfs", sb_test_tmpdir());
	mkdir(d, 0755);
	if (geteuid() != 0 || mount("none", d, "ramfs", 0, NULL) != 0) {
		fprintf(stderr, "(cannot mount a ramfs (not root?): record checks skipped) ");
		rmdir(d);
		return false;
	}
	return true;
}

static bool holds_line(const char *path, const char *text)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

static void test_side_record(void)
{
	char d[512], p[600], q[600], side[600], out[4096];
	struct sb_scratch_id id, id2, idd;
	struct sb_scratch_mark m;
	if (!ramfs(d, sizeof(d)))
		return;
	snprintf(side, sizeof(side), "%s/%s", d, SB_SCRATCH_SIDE);
	snprintf(p, sizeof(p), "%s/a file\n%%", d); /* escaped in the record */
	int fd = mkfile(p);
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "job\none", &id), 0);
	close(fd);
	CU_ASSERT_TRUE(id.marked);
	CU_ASSERT_TRUE(id.side);
	CU_ASSERT_TRUE(holds_line(side, "storbench-owner 1\na%20file%0A%25 btime="));
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 1);
	CU_ASSERT_TRUE(m.side);
	CU_ASSERT_EQUAL(m.version, 2);
	CU_ASSERT_EQUAL(sb_scratch_owner(&m), SB_OWNER_ALIVE);
	CU_ASSERT_STRING_EQUAL(m.job, "job?one");
	/* a folder, and a file inside it: the folder's own record file */
	snprintf(q, sizeof(q), "%s/sub", d);
	mkdir(q, 0755);
	CU_ASSERT_EQUAL(sb_scratch_made_path(q, "j", &idd), 0);
	CU_ASSERT_TRUE(idd.side);
	snprintf(q, sizeof(q), "%s/sub/inner", d);
	fd = mkfile(q);
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id2), 0);
	close(fd);
	/* removed by the run: the record goes, the record file with the last */
	CU_ASSERT_EQUAL(sb_scratch_unlink(q, &id2), 0);
	snprintf(q, sizeof(q), "%s/sub/%s", d, SB_SCRATCH_SIDE);
	CU_ASSERT_EQUAL(access(q, F_OK), -1);
	snprintf(q, sizeof(q), "%s/sub", d);
	CU_ASSERT_EQUAL(sb_scratch_rmdir(q, &idd), 0);
	/* kept: the record says so */
	CU_ASSERT_EQUAL(sb_scratch_keep(p, &id), 0);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 1);
	CU_ASSERT_TRUE(m.kept);
	/* the user removes it by hand and makes another file of that name:
	 * the record does not count for it, --cleanup leaves it */
	unlink(p);
	fd = mkfile(p);
	close(fd);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 0);
	/* a killed run's file (forged: a pid that ended) is removed by
	 * --cleanup, the user's file stays, the record file goes when empty */
	snprintf(q, sizeof(q), "%s/left", d);
	fd = mkfile(q);
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id2), 0);
	close(fd);
	char buf[4096];
	fd = open(side, O_RDWR);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	char *s = strstr(buf, "left btime=");
	char *pid = s ? strstr(s, " pid=") : NULL;
	if (pid) { /* the pid of a process that does not exist: same length */
		pid_t c = fork();
		if (c == 0)
			_exit(0);
		waitpid(c, NULL, 0);
		char num[32];
		int l = snprintf(num, sizeof(num), "%d", (int)c);
		size_t old = strcspn(pid + 5, " ");
		memmove(pid + 5 + l, pid + 5 + old, strlen(pid + 5 + old) + 1);
		memcpy(pid + 5, num, (size_t)l);
		CU_ASSERT_EQUAL(ftruncate(fd, 0), 0);
		CU_ASSERT_EQUAL(pwrite(fd, buf, strlen(buf), 0), (ssize_t)strlen(buf));
	}
	close(fd);
	CU_ASSERT_PTR_NOT_NULL(pid);
	FILE *f = fmemopen(out, sizeof(out), "w");
	CU_ASSERT_EQUAL(sb_cleanup_dir(d, false, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "removed "));
	CU_ASSERT_EQUAL(access(q, F_OK), -1);
	CU_ASSERT_EQUAL(access(p, F_OK), 0);
	CU_ASSERT_EQUAL(access(side, F_OK), -1); /* the kept record's file is gone: pruned */
	umount2(d, MNT_DETACH);
	rmdir(d);
}

/* a user's file named .storbench-owner is not a record file: never
 * written, never read as one */
static void test_side_not_ours(void)
{
	char d[512], side[600], p[600];
	struct sb_scratch_id id;
	struct sb_scratch_mark m;
	if (!ramfs(d, sizeof(d)))
		return;
	snprintf(side, sizeof(side), "%s/%s", d, SB_SCRATCH_SIDE);
	int fd = open(side, O_WRONLY | O_CREAT, 0644);
	CU_ASSERT_EQUAL(write(fd, "my notes\n", 9), 9);
	close(fd);
	snprintf(p, sizeof(p), "%s/f", d);
	fd = mkfile(p);
	CU_ASSERT_EQUAL(sb_scratch_made_fd(fd, "j", &id), 0);
	close(fd);
	CU_ASSERT_FALSE(id.marked);
	CU_ASSERT_EQUAL(sb_scratch_read_mark(p, &m), 0);
	CU_ASSERT_TRUE(holds_line(side, "my notes\n"));
	CU_ASSERT_FALSE(holds_line(side, "storbench"));
	umount2(d, MNT_DETACH);
	rmdir(d);
}

/* --cleanup's removal re-checks that the name still holds the inode the
 * mark names: a file put in its place (another inode) is left alone */
static void test_remove_at(void)
{
	char d[] = "/tmp/sbowner.XXXXXX";
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(d));
	int dfd = open(d, O_RDONLY | O_DIRECTORY);
	char p[64];
	snprintf(p, sizeof(p), "%s/f", d);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
	CU_ASSERT_FATAL(fd >= 0 && dfd >= 0);
	close(fd);
	struct stat st;
	CU_ASSERT_EQUAL(stat(p, &st), 0);
	struct sb_scratch_mark m;
	memset(&m, 0, sizeof(m));
	m.has_ino = true;
	m.dev = (unsigned long long)st.st_dev;
	m.ino = (unsigned long long)st.st_ino + 1; /* names another inode */
	CU_ASSERT_EQUAL(sb_scratch_remove_at(dfd, "f", false, &m), -ESTALE);
	CU_ASSERT_EQUAL(access(p, F_OK), 0);
	m.ino = (unsigned long long)st.st_ino;
	CU_ASSERT_EQUAL(sb_scratch_remove_at(dfd, "f", true, &m), -ESTALE); /* not a folder */
	CU_ASSERT_EQUAL(sb_scratch_remove_at(dfd, "f", false, &m), 0);
	CU_ASSERT_NOT_EQUAL(access(p, F_OK), 0);
	CU_ASSERT_EQUAL(sb_scratch_remove_at(dfd, "f", false, &m), -ENOENT);
	close(dfd);
	rmdir(d);
}

static CU_TestInfo tests[] = {
	{ "mark v2 fields: pid, start, boot, host, pidns", test_fields },
	{ "liveness: host, boot, PID namespace, pid + start time", test_liveness },
	{ "marks of version 1 and 2 read; later ones not judged", test_read_versions },
	{ "whose: none, live, dead, other namespace, kept, copy", test_whose },
	{ ".storbench-owner record on ramfs (root)", test_side_record },
	{ "a user's .storbench-owner is left alone (root)", test_side_not_ours },
	{ "--cleanup removes only the inode the mark names", test_remove_at },
	CU_TEST_INFO_NULL,
};
SB_SUITE(owner, tests)
