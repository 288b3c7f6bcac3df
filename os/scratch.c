/* scratch.c: removing only what storbench made, and the user.storbench mark
 * (see scratch.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "os/scratch.h"

static int mark_text(const char *job, const struct sb_scratch_id *id, char *buf, size_t len);
static bool is_my_mark(const char *path);

/* fd >= 0: the file open on it; else path, not followed */
static int identify(int fd, const char *path, struct sb_scratch_id *id)
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
	char buf[700];
	int r = identify(fd, NULL, id);
	int n = r ? -EINVAL : mark_text(job, id, buf, sizeof(buf));
	if (!r && n > 0)
		id->marked = fsetxattr(fd, SB_SCRATCH_XATTR, buf, (size_t)n, 0) == 0;
	id->mark_err = id->marked ? 0 : errno;
	return r;
}

int sb_scratch_made_path(const char *path, const char *job, struct sb_scratch_id *id)
{
	int r = identify(-1, path, id);
	int m = r ? r : sb_scratch_mark_path(path, job);
	id->marked = m == 0;
	id->mark_err = -m;
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
	int r = identify(-1, path, &now);
	if (r)
		return r;
	if (now.dev != id->dev || now.ino != id->ino || now.btime_s != id->btime_s ||
	    now.btime_ns != id->btime_ns || (id->marked && !is_my_mark(path)))
		return -ESTALE;
	return 0;
}

int sb_scratch_unlink(const char *path, const struct sb_scratch_id *id)
{
	int r = still_ours(path, id, false);
	if (!r && unlink(path) != 0)
		r = -errno;
	return r;
}

int sb_scratch_rmdir(const char *path, const struct sb_scratch_id *id)
{
	int r = still_ours(path, id, true);
	if (!r && rmdir(path) != 0)
		r = -errno;
	return r;
}

int sb_scratch_keep(const char *path, const struct sb_scratch_id *id)
{
	struct stat st;
	char buf[1024];
	if (lstat(path, &st) != 0)
		return -errno;
	int r = still_ours(path, id, S_ISDIR(st.st_mode));
	if (r || !id->marked)
		return r;
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

/* field 22 of /proc/PID/stat (after the ")" that ends the command name);
 * -ESRCH for a zombie: it has ended, only its parent has not reaped it */
static int start_time(long pid, unsigned long long *t)
{
	char state = '?';
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int r = read_line(path, buf, sizeof(buf));
	if (r)
		return r;
	const char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", &state, t) != 2)
		return -EINVAL;
	return state == 'Z' || state == 'X' ? -ESRCH : 0;
}

/* the mark names the inode it was put on (dev=, ino=): a copy that keeps
 * extended attributes (cp -a, rsync -X, tar --xattrs) carries the mark to
 * another inode, and --cleanup must then leave it alone (issue 28 item 4) */
static int mark_text(const char *job, const struct sb_scratch_id *id, char *buf, size_t len)
{
	unsigned long long t = 0;
	char boot[40] = "-", host[256] = "-";
	start_time((long)getpid(), &t);
	read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "-");
	host[sizeof(host) - 1] = '\0';
	int n = snprintf(buf, len, "storbench 1 pid=%ld start=%llu boot=%s host=%s dev=%llu ino=%llu "
			 "state=made job=%s", (long)getpid(), t, boot, host,
			 (unsigned long long)id->dev, (unsigned long long)id->ino,
			 job && *job ? job : "-");
	return n < 0 ? -EINVAL : n < (int)len ? n : (int)len - 1;
}

int sb_scratch_mark_path(const char *path, const char *job)
{
	char buf[700];
	struct sb_scratch_id id;
	int n = identify(-1, path, &id);
	if (n)
		return n;
	n = mark_text(job, &id, buf, sizeof(buf));
	if (n < 0)
		return n;
	return lsetxattr(path, SB_SCRATCH_XATTR, buf, (size_t)n, 0) == 0 ? 0 : -errno;
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

int sb_scratch_read_mark(const char *path, struct sb_scratch_mark *m)
{
	char buf[1024], v[64];
	ssize_t n = lgetxattr(path, SB_SCRATCH_XATTR, buf, sizeof(buf) - 1);
	if (n < 0)
		return errno == ENODATA || errno == ENOTSUP ? 0 : -errno;
	buf[n] = '\0';
	if (strncmp(buf, "storbench 1 ", 12))
		return 0; /* not a mark this version knows: not ours to judge */
	memset(m, 0, sizeof(*m));
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
	return m->pid > 0 ? 1 : 0;
}

/* the mark on path names this very process */
static bool is_my_mark(const char *path)
{
	struct sb_scratch_mark m;
	unsigned long long t = 0;
	start_time((long)getpid(), &t);
	return sb_scratch_read_mark(path, &m) == 1 && m.pid == (long)getpid() && m.start == t;
}

bool sb_scratch_mark_names(const struct sb_scratch_mark *m, const struct stat *st)
{
	return m->has_ino && m->dev == (unsigned long long)st->st_dev &&
	       m->ino == (unsigned long long)st->st_ino;
}

enum sb_scratch_owner sb_scratch_owner(const struct sb_scratch_mark *m)
{
	char host[256] = "", boot[40] = "";
	unsigned long long t;
	if (gethostname(host, sizeof(host)) != 0 || strcmp(host, m->host))
		return SB_OWNER_UNKNOWN;
	if (read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) == 0 &&
	    strcmp(boot, m->boot))
		return SB_OWNER_DEAD; /* made before this machine last booted */
	if (start_time(m->pid, &t) != 0)
		return SB_OWNER_DEAD; /* no such process */
	return t == m->start ? SB_OWNER_ALIVE : SB_OWNER_DEAD; /* else: the pid was reused */
}

void sb_scratch_mark_str(const struct sb_scratch_mark *m, char *buf, size_t len)
{
	snprintf(buf, len, "pid %ld on host %s, job %s", m->pid, m->host, m->job);
}
