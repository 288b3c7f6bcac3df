/* scratch.c: removing only what storbench made, and the user.storbench mark
 * (see scratch.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "os/scratch.h"
#include "os/scratchside.h"

static int mark_text(const char *job, const struct sb_scratch_id *id, char *buf, size_t len);
static bool is_my_mark(const char *path);
static int put_mark(int fd, const char *path, const char *job, const struct sb_scratch_id *id);

int sb_scratch_identify(int fd, const char *path, struct sb_scratch_id *id)
{
	struct statx sx;
	int r = fd >= 0 ? statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME, &sx)
			: statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &sx);
	if (r != 0)
		return -errno;
	memset(id, 0, sizeof(*id));
	id->dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	id->ino = sx.stx_ino;
	if (sx.stx_mask & STATX_BTIME) {
		id->btime_s = sx.stx_btime.tv_sec;
		id->btime_ns = sx.stx_btime.tv_nsec;
	}
	return 0;
}

int sb_scratch_made_fd(int fd, const char *job, struct sb_scratch_id *id)
{
	int r = sb_scratch_identify(fd, NULL, id);
	int m = r ? r : put_mark(fd, NULL, job, id);
	id->marked = m >= 0;
	id->side = m == 1;
	id->mark_err = m < 0 ? -m : 0;
	return r;
}

int sb_scratch_made_path(const char *path, const char *job, struct sb_scratch_id *id)
{
	int r = sb_scratch_identify(-1, path, id);
	int m = r ? r : put_mark(-1, path, job, id);
	id->marked = m >= 0;
	id->side = m == 1;
	id->mark_err = m < 0 ? -m : 0;
	return r;
}

static int still_ours(const char *path, const struct sb_scratch_id *id, bool dir)
{
	struct sb_scratch_id now;
	struct stat st;
	if (!id->ino)
		return -ESTALE;
	if (lstat(path, &st) != 0)
		return -errno;
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return -ESTALE; /* a symlink, a fifo, ... put there: never ours */
	int r = sb_scratch_identify(-1, path, &now);
	if (r)
		return r;
	if (now.dev != id->dev || now.ino != id->ino || now.btime_s != id->btime_s ||
	    now.btime_ns != id->btime_ns || (id->marked && !is_my_mark(path)))
		return -ESTALE;
	return 0;
}

/* removed: its record in .storbench-owner goes too */
static int removed(const char *path, const struct sb_scratch_id *id, int r)
{
	if (!r && id->side)
		(void)sb_scratch_side_drop(path, (unsigned long long)id->dev, (unsigned long long)id->ino);
	return r;
}

int sb_scratch_unlink(const char *path, const struct sb_scratch_id *id)
{
	int r = still_ours(path, id, false);
	if (!r && unlink(path) != 0)
		r = -errno;
	return removed(path, id, r);
}

int sb_scratch_rmdir(const char *path, const struct sb_scratch_id *id)
{
	int r = still_ours(path, id, true);
	if (!r && rmdir(path) != 0)
		r = -errno;
	return removed(path, id, r);
}

/* the xattr mark on path: state=made becomes state=kept (kept on purpose,
 * not a leftover); 0 or -errno */
static int mark_kept(const char *path)
{
	char buf[1024];
	ssize_t n = lgetxattr(path, SB_SCRATCH_XATTR, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	char *s = strstr(buf, " state=made ");
	if (!s)
		return 0;
	memcpy(s + 7, "kept", 4);
	return lsetxattr(path, SB_SCRATCH_XATTR, buf, (size_t)n, 0) == 0 ? 0 : -errno;
}

int sb_scratch_keep(const char *path, const struct sb_scratch_id *id)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return -errno;
	int r = still_ours(path, id, S_ISDIR(st.st_mode));
	if (r || !id->marked)
		return r;
	if (id->side)
		return sb_scratch_side_keep(path);
	return mark_kept(path);
}

/* ---- what run/files.c made in this process */

struct made {
	char *path;
	struct sb_scratch_id id;
};
static struct made *made;
static size_t nmade;
static pthread_mutex_t made_mu = PTHREAD_MUTEX_INITIALIZER;

void sb_scratch_remember(const char *path, const struct sb_scratch_id *id)
{
	pthread_mutex_lock(&made_mu);
	size_t i = 0;
	while (i < nmade && strcmp(made[i].path, path))
		i++;
	if (i == nmade) {
		struct made *m = realloc(made, (nmade + 1) * sizeof(*m));
		char *p = strdup(path);
		if (!m || !p) {
			free(p);
			if (m)
				made = m;
			pthread_mutex_unlock(&made_mu);
			return; /* not remembered: a sweep then keeps the file */
		}
		made = m;
		made[nmade++].path = p;
	}
	made[i].id = *id;
	pthread_mutex_unlock(&made_mu);
}

bool sb_scratch_recall(const char *path, struct sb_scratch_id *id)
{
	bool found = false;
	pthread_mutex_lock(&made_mu);
	for (size_t i = 0; i < nmade && !found; i++) {
		if (!strcmp(made[i].path, path)) {
			*id = made[i].id;
			found = true;
		}
	}
	pthread_mutex_unlock(&made_mu);
	return found;
}

bool sb_scratch_made_here(const char *path)
{
	struct sb_scratch_id id;
	return sb_scratch_recall(path, &id) && still_ours(path, &id, false) == 0;
}

/* ---- the mark */

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	int r = fgets(buf, (int)len, f) ? 0 : -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return r;
}

/* field 22 of a /proc stat file (after the ")" that ends the command
 * name); -ESRCH for a zombie: it has ended, only its parent has not
 * reaped it */
static int start_time_of(const char *stat_path, unsigned long long *t)
{
	char state = '?';
	char buf[1024];
	int r = read_line(stat_path, buf, sizeof(buf));
	if (r)
		return r;
	const char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", &state, t) != 2)
		return -EINVAL;
	return state == 'Z' || state == 'X' ? -ESRCH : 0;
}

static int start_time(long pid, unsigned long long *t)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	return start_time_of(path, t);
}

/* this process as a mark names it (taken once per process: a fork has
 * another pid and start time) */
struct self {
	long pid;
	unsigned long long start, pidns;
	char boot[40], host[256];
};

static void self_get(struct self *out)
{
	static struct self me;
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct stat st;
	pthread_mutex_lock(&mu);
	if (me.pid != (long)getpid()) {
		memset(&me, 0, sizeof(me));
		me.pid = (long)getpid();
		start_time_of("/proc/self/stat", &me.start); /* not /proc/PID: /proc may be another namespace's */
		if (read_line("/proc/sys/kernel/random/boot_id", me.boot, sizeof(me.boot)) || !me.boot[0])
			snprintf(me.boot, sizeof(me.boot), "-");
		if (gethostname(me.host, sizeof(me.host)) != 0 || !me.host[0])
			snprintf(me.host, sizeof(me.host), "-");
		me.host[sizeof(me.host) - 1] = '\0';
		me.pidns = stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
	}
	*out = me;
	pthread_mutex_unlock(&mu);
}

/* the mark names the inode it was put on (dev=, ino=): a copy that keeps
 * extended attributes (cp -a, rsync -X, tar --xattrs) carries the mark to
 * another inode, and --cleanup must then leave it alone */
static int mark_text(const char *job, const struct sb_scratch_id *id, char *buf, size_t len)
{
	struct self me;
	self_get(&me);
	int n = snprintf(buf, len, "storbench 2 pid=%ld start=%llu boot=%s host=%s pidns=%llu dev=%llu "
			 "ino=%llu state=made job=%s", me.pid, me.start, me.boot, me.host, me.pidns,
			 (unsigned long long)id->dev, (unsigned long long)id->ino,
			 job && *job ? job : "-");
	if (n < 0)
		return -EINVAL;
	n = n < (int)len ? n : (int)len - 1;
	for (int i = 0; i < n; i++)
		if (buf[i] == '\n' || buf[i] == '\r')
			buf[i] = '?'; /* one line, for .storbench-owner */
	return n;
}

int sb_scratch_mark_object(const char *job, char *buf, size_t len)
{
	struct self me;
	self_get(&me);
	int n = snprintf(buf, len, "storbench 2 pid=%ld start=%llu boot=%s host=%s pidns=%llu state=made job=%s",
			 me.pid, me.start, me.boot, me.host, me.pidns, job && *job ? job : "-");
	if (n < 0 || !len)
		return -EINVAL;
	n = n < (int)len ? n : (int)len - 1;
	for (int i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] > 0x7e)
			buf[i] = '?'; /* an HTTP header's value */
	return n;
}

/* the mark on the file open on fd, or on path (not followed): 0 in the
 * extended attribute, 1 in the folder's .storbench-owner (no user xattrs
 * there), -errno when neither */
static int put_mark(int fd, const char *path, const char *job, const struct sb_scratch_id *id)
{
	char buf[700], self[64], where[PATH_MAX];
	int n = mark_text(job, id, buf, sizeof(buf));
	if (n < 0)
		return n;
	if ((fd >= 0 ? fsetxattr(fd, SB_SCRATCH_XATTR, buf, (size_t)n, 0)
		     : lsetxattr(path, SB_SCRATCH_XATTR, buf, (size_t)n, 0)) == 0)
		return 0;
	if (errno != ENOTSUP)
		return -errno;
	if (fd >= 0) { /* the name it was made under */
		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		ssize_t l = readlink(self, where, sizeof(where) - 1);
		if (l <= 0 || where[0] != '/')
			return -ENOTSUP;
		where[l] = '\0';
		path = where;
	}
	int r = sb_scratch_side_put(path, buf);
	return r ? -ENOTSUP : 1;
}

int sb_scratch_mark_path(const char *path, const char *job)
{
	struct sb_scratch_id id;
	int n = sb_scratch_identify(-1, path, &id);
	if (n)
		return n;
	n = put_mark(-1, path, job, &id);
	return n < 0 ? n : 0;
}

/* value of "key=" in a mark (up to the next space; job= runs to the end) */
static void field(const char *s, const char *key, char *out, size_t len)
{
	char k[16];
	snprintf(k, sizeof(k), " %s=", key);
	const char *p = strstr(s, k);
	out[0] = '\0';
	if (!p)
		return;
	p += strlen(k);
	size_t n = strcmp(key, "job") ? strcspn(p, " ") : strlen(p);
	snprintf(out, len, "%.*s", (int)n, p);
}

static int parse_mark(const char *buf, struct sb_scratch_mark *m)
{
	char v[64];
	memset(m, 0, sizeof(*m));
	if (!strncmp(buf, "storbench 1 ", 12))
		m->version = 1;
	else if (!strncmp(buf, "storbench 2 ", 12))
		m->version = 2;
	else
		return 0; /* not a mark this version knows: not ours to judge */
	field(buf, "pid", v, sizeof(v));
	m->pid = strtol(v, NULL, 10);
	field(buf, "start", v, sizeof(v));
	m->start = strtoull(v, NULL, 10);
	field(buf, "boot", m->boot, sizeof(m->boot));
	field(buf, "host", m->host, sizeof(m->host));
	field(buf, "job", m->job, sizeof(m->job));
	field(buf, "state", v, sizeof(v));
	m->kept = !strcmp(v, "kept");
	field(buf, "ino", v, sizeof(v));
	m->has_ino = *v != '\0';
	m->ino = strtoull(v, NULL, 10);
	field(buf, "dev", v, sizeof(v));
	m->dev = strtoull(v, NULL, 10);
	field(buf, "pidns", v, sizeof(v));
	m->pidns = strtoull(v, NULL, 10);
	return m->pid > 0 ? 1 : 0;
}

int sb_scratch_parse_mark(const char *text, struct sb_scratch_mark *m)
{
	return parse_mark(text, m);
}

int sb_scratch_read_mark(const char *path, struct sb_scratch_mark *m)
{
	char buf[1024];
	ssize_t n = lgetxattr(path, SB_SCRATCH_XATTR, buf, sizeof(buf) - 1);
	if (n >= 0) {
		buf[n] = '\0';
		return parse_mark(buf, m);
	}
	if (errno != ENODATA && errno != ENOTSUP)
		return -errno;
	int r = sb_scratch_side_get(path, buf, sizeof(buf)); /* no xattr: the folder's record */
	if (r <= 0)
		return r;
	r = parse_mark(buf, m);
	m->side = true;
	return r;
}

/* the mark on path names this very process */
static bool is_my_mark(const char *path)
{
	struct sb_scratch_mark m;
	struct self me;
	self_get(&me);
	return sb_scratch_read_mark(path, &m) == 1 && m.pid == me.pid && m.start == me.start &&
	       (m.version < 2 || m.pidns == me.pidns);
}

bool sb_scratch_mark_names(const struct sb_scratch_mark *m, const struct stat *st)
{
	return m->has_ino && m->dev == (unsigned long long)st->st_dev &&
	       m->ino == (unsigned long long)st->st_ino;
}

/* a version 1 mark (no pidns=), judged as storbench did when it wrote it */
static enum sb_scratch_owner owner_v1(const struct sb_scratch_mark *m, const struct self *me)
{
	unsigned long long t;
	if (strcmp(me->host, m->host))
		return SB_OWNER_UNKNOWN;
	if (strcmp(me->boot, "-") && strcmp(me->boot, m->boot))
		return SB_OWNER_DEAD; /* made before this machine last booted */
	if (start_time(m->pid, &t) != 0)
		return SB_OWNER_DEAD; /* no such process */
	return t == m->start ? SB_OWNER_ALIVE : SB_OWNER_DEAD; /* else: the pid was reused */
}

/* /proc is this process's PID namespace's (else /proc/PID is another's) */
static bool proc_is_mine(void)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strtol(buf, NULL, 10) == (long)getpid();
}

enum sb_scratch_owner sb_scratch_owner_why(const struct sb_scratch_mark *m, const char **why)
{
	struct self me;
	unsigned long long t;
	const char *w = NULL;
	self_get(&me);
	enum sb_scratch_owner o = SB_OWNER_UNKNOWN;
	int st = -1;
	if (m->version < 2)
		o = owner_v1(m, &me);
	else if (!strcmp(me.host, "-") || strcmp(me.host, m->host))
		w = "made on another host; run --cleanup there";
	else if (!strcmp(me.boot, "-") || !strcmp(m->boot, "-"))
		w = "the boot id cannot be read, so a reboot cannot be told";
	else if (strcmp(me.boot, m->boot))
		o = SB_OWNER_DEAD; /* made before this machine last booted */
	else if (!me.pidns || !m->pidns)
		w = "the PID namespace cannot be read";
	else if (!m->start && me.pidns == m->pidns)
		w = "its start time was not recorded, so a reused pid cannot be told";
	else if (me.pidns != m->pidns)
		w = "made in another PID namespace (a container), where its pid names another "
		    "process than here; run --cleanup inside that namespace";
	else if (!proc_is_mine())
		w = "/proc here shows another PID namespace";
	else if (m->pid > INT_MAX || (kill((pid_t)m->pid, 0) != 0 && errno == ESRCH))
		o = SB_OWNER_DEAD; /* no such process */
	else if ((st = start_time(m->pid, &t)) == -ESRCH)
		o = SB_OWNER_DEAD; /* it has ended: a zombie */
	else if (st != 0)
		w = "its process exists but its start time cannot be read";
	else
		o = t == m->start ? SB_OWNER_ALIVE : SB_OWNER_DEAD; /* else: the pid was reused */
	if (o == SB_OWNER_UNKNOWN && !w)
		w = "made on another host; run --cleanup there";
	if (why)
		*why = w;
	return o;
}

enum sb_scratch_owner sb_scratch_owner(const struct sb_scratch_mark *m)
{
	return sb_scratch_owner_why(m, NULL);
}

void sb_scratch_mark_str(const struct sb_scratch_mark *m, char *buf, size_t len)
{
	snprintf(buf, len, "pid %ld on host %s, job %s", m->pid, m->host, m->job);
}

enum sb_scratch_whose sb_scratch_whose(const char *path, const char *dir, char *said, size_t len)
{
	struct sb_scratch_mark m;
	struct stat st;
	char who[600];
	const char *why = NULL;
	said[0] = '\0';
	if (lstat(path, &st) != 0 || sb_scratch_read_mark(path, &m) != 1 || !sb_scratch_mark_names(&m, &st))
		return SB_WHOSE_NONE;
	sb_scratch_mark_str(&m, who, sizeof(who));
	if (m.kept) {
		snprintf(said, len, "was kept on purpose by a storbench run that finished (%s)", who);
		return SB_WHOSE_KEPT;
	}
	switch (sb_scratch_owner_why(&m, &why)) {
	case SB_OWNER_DEAD:
		snprintf(said, len, "is left over from a storbench run that was killed or did not "
			 "finish (%s, no longer running): remove such leftovers with storbench "
			 "--cleanup %s", who, dir);
		return SB_WHOSE_DEAD;
	case SB_OWNER_ALIVE:
		snprintf(said, len, "belongs to a storbench run that is still running (%s): wait for "
			 "it to end, or use another folder", who);
		return SB_WHOSE_LIVE;
	default:
		snprintf(said, len, "was made by a storbench run (%s) that may still be running: %s; "
			 "once it has ended, storbench --cleanup %s run where it ran removes it", who,
			 why, dir);
		return SB_WHOSE_UNKNOWN;
	}
}

/* path is a regular file carrying this process's mark on its own inode */
static int mine(const char *path, struct stat *st)
{
	struct sb_scratch_mark m;
	if (lstat(path, st) != 0)
		return -errno;
	if (!S_ISREG(st->st_mode) || !is_my_mark(path) || sb_scratch_read_mark(path, &m) != 1 ||
	    !sb_scratch_mark_names(&m, st))
		return -ESTALE;
	return m.side ? 1 : 0;
}

int sb_scratch_unlink_mine(const char *path)
{
	struct stat st;
	int r = mine(path, &st);
	if (r < 0)
		return r;
	if (unlink(path) != 0)
		return -errno;
	if (r == 1)
		(void)sb_scratch_side_drop(path, (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	return 0;
}

int sb_scratch_keep_mine(const char *path)
{
	struct stat st;
	int r = mine(path, &st);
	if (r < 0)
		return r;
	if (r == 1)
		return sb_scratch_side_keep(path);
	return mark_kept(path);
}

int sb_scratch_remove_at(int dfd, const char *name, bool dir, const struct sb_scratch_mark *m)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	if (!sb_scratch_mark_names(m, &st) || (bool)S_ISDIR(st.st_mode) != dir)
		return -ESTALE;
	return unlinkat(dfd, name, dir ? AT_REMOVEDIR : 0) ? -errno : 0;
}
