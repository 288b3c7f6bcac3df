/* engfs.c: creation and removal by path for the file and folder operation
 * engines (struct sb_engine_fs, engines/engine.h).  Creation goes through
 * the writer gate (os/outfile.c: exclusive, marked as this run's, kept on
 * purpose as fio keeps what filecreate makes); removal only of what this
 * process made and while the path still names that inode (os/scratch.c):
 * a user's file or folder is never removed.  Outputs another process fills
 * (exec's std_redirect) go through the gate as results do.  Also the size of a job with
 * no files and no size= (sb_engine_no_size: an S3 object's, asked of its
 * engine). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "os/infile.h"

#include "os/outfile.h"
#include "os/scratch.h"
#include "parse/options.h"
#include "run/engtable.h"

static int fs_create(const char *path, bool dir, const char *job)
{
	struct sb_scratch_id id;
	int r;
	if (dir) {
		r = sb_outfile_mkdir(path, 0700, job && *job ? job : "storbench", &id);
	} else {
		int fd = sb_outfile_create(path, O_RDWR, 0600, job && *job ? job : "storbench", &id);
		r = fd < 0 ? fd : (close(fd), 0);
	}
	if (r)
		return r;
	sb_scratch_remember(path, &id);
	(void)sb_scratch_keep(path, &id); /* a file the run keeps (fio's unlink=0) */
	return 0;
}

static int fs_remove(const char *path, bool dir)
{
	struct sb_scratch_id id;
	if (!sb_scratch_recall(path, &id) || !id.ino)
		return -EPERM; /* not made by this run: the user's */
	return dir ? sb_scratch_rmdir(path, &id) : sb_scratch_unlink(path, &id);
}

static void fs_mark(const char *job, char *buf, size_t len)
{
	(void)sb_scratch_mark_object(job, buf, len);
}

/* "key = value" of line (spaces around both trimmed) into out, if key */
static void cred_value(const char *line, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	line += strspn(line, " \t");
	if (strncmp(line, key, kl))
		return;
	const char *p = line + kl;
	p += strspn(p, " \t");
	if (*p != '=')
		return;
	p++;
	p += strspn(p, " \t");
	size_t n = strcspn(p, "\r\n");
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	snprintf(out, len, "%.*s", (int)n, p);
}

/* AWS's shared credentials file: [profile] sections of key = value lines */
static int fs_read_cred(char *keyid, size_t kl, char *key, size_t sl, char *token, size_t tl)
{
	char path[4096], why[512];
	const char *file = getenv("AWS_SHARED_CREDENTIALS_FILE"), *home = getenv("HOME");
	const char *profile = getenv("AWS_PROFILE");
	if (file && *file)
		snprintf(path, sizeof(path), "%s", file);
	else if (home && *home)
		snprintf(path, sizeof(path), "%s/.aws/credentials", home);
	else
		return -ENOENT;
	if (access(path, F_OK))
		return -ENOENT;
	size_t len = 0;
	int err = 0;
	char *text = sb_in_read(path, &sb_in_awscred, 0, UINT64_MAX, &len, &err, why, sizeof(why));
	if (!text) {
		sb_warn("ioengine=s3", "%s", why);
		return err ? err : -EIO;
	}
	char want[300];
	snprintf(want, sizeof(want), "[%s]", profile && *profile ? profile : "default");
	bool in = false, found = false;
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		const char *t = l + strspn(l, " \t");
		if (*t == '[') {
			in = !strncmp(t, want, strlen(want));
			found |= in;
			continue;
		}
		if (!in)
			continue;
		cred_value(t, "aws_access_key_id", keyid, kl);
		cred_value(t, "aws_secret_access_key", key, sl);
		cred_value(t, "aws_session_token", token, tl);
	}
	memset(text, 0, len);
	free(text);
	return found && keyid[0] && key[0] ? 0 : -ENOENT;
}

static int fs_out_open(const char *path, const char *job, void **h)
{
	struct sb_outfile *o = malloc(sizeof(*o));
	if (!o)
		return -ENOMEM;
	int e = sb_outfile_open(o, path, &(struct sb_outname){ "std_redirect", job,
			       "the program's output" }, 0);
	if (e) { /* the gate said why */
		free(o);
		return e;
	}
	*h = o;
	return sb_outfile_fd(o);
}

static int fs_out_close(void *h, bool keep)
{
	struct sb_outfile *o = h;
	int e = 0;
	if (keep)
		e = sb_outfile_commit(o);
	else
		sb_outfile_abort(o);
	free(o);
	return e;
}

const struct sb_engine_fs sb_run_engine_fs = {
	.create = fs_create,
	.remove = fs_remove,
	.mark = fs_mark,
	.read_cred = fs_read_cred,
	.out_open = fs_out_open,
	.out_close = fs_out_close,
};

/* a job with no size= on an object store (ioengine=s3), read: 0 and *len
 * (the object's size), -ENOENT (none there), -EOPNOTSUPP (no objects, or
 * the job writes), or -errno after saying why */
static int object_len(const struct sb_jobspec *s, const struct sb_engine_ops *ops, const char *path,
		      uint64_t *len)
{
	char err[400] = "";
	*len = 0;
	if (!ops || !(ops->flags & SB_ENGINE_OBJECTS) || !ops->object_size || (s->rw & (SB_RW_WRITE | SB_RW_TRIM)))
		return -EOPNOTSUPP;
	int e = ops->object_size(sb_spec_engine_opts(s), &sb_run_engine_fs, path, len, err, sizeof(err));
	if (e && e != -ENOENT)
		sb_err(s->name, "the size of %s: %s", path, err[0] ? err : strerror(-e));
	*len = !e && *len > s->offset ? *len - s->offset : 0;
	return e ? e : *len ? 0 : -ENOENT;
}

int sb_engine_no_size(const struct sb_jobspec *s, const char *path, uint64_t *len)
{
	char where[SB_WHERE_MAX];
	const char *z = SB_OPT(size)->name;
	const struct sb_engine_ops *ops = sb_engine_find(s->ioengine);
	if (ops && (ops->flags & SB_ENGINE_NOIO) && (s->runtime_us || s->number_ios)) {
		*len = 1ull << 30; /* cpuio: no bytes; the job ends by runtime= or number_ios= (a
				    * 4k job has 262144 I/Os of at least cpuchunks each) */
		return 0;
	}
	int r = s->size_pct > 0 ? -EOPNOTSUPP : object_len(s, ops, path, len);
	if (!r || (r != -ENOENT && r != -EOPNOTSUPP))
		return r; /* a size, or object_len said why */
	sb_spec_where(s, SB_OPT(size), where, sizeof(where));
	if (r == -ENOENT)
		sb_err(where, "job %s: %s has no size: %s is not there (or is empty) and the job has no "
		       "%s=: give %s=, e.g. %s=1g", s->name, path, path, z, z, z);
	else if (s->size_pct > 0)
		sb_err(where, "job %s: %s=%g%% is a share of the files' size, and %s=%s has no files: "
		       "give %s= in bytes, e.g. %s=1g", s->name, z, s->size_pct, SB_OPT(ioengine)->name,
		       s->ioengine, z, z);
	else if (ops && (ops->flags & SB_ENGINE_NOIO))
		sb_err(where, "job %s: nothing ends it: %s=%s moves no bytes, and the job has no %s=, "
		       "%s= or %s=: give runtime=, e.g. runtime=10 with time_based", s->name,
		       SB_OPT(ioengine)->name, s->ioengine, SB_OPT(runtime_us)->name, SB_OPT(number_ios)->name, z);
	else
		sb_err(where, "job %s: %s= (or filesize=) is needed with %s=%s: give %s=, e.g. %s=1g",
		       s->name, z, SB_OPT(ioengine)->name, s->ioengine, z, z);
	return -EINVAL;
}
