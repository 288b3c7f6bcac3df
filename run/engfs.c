/* engfs.c: creation and removal by path for the file and folder operation
 * engines (struct sb_engine_fs, engines/engine.h).  Creation goes through
 * the writer gate (os/outfile.c: exclusive, marked as this run's, kept on
 * purpose as fio keeps what filecreate makes); removal only of what this
 * process made and while the path still names that inode (os/scratch.c):
 * a user's file or folder is never removed. */
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

const struct sb_engine_fs sb_run_engine_fs = {
	.create = fs_create,
	.remove = fs_remove,
	.mark = fs_mark,
	.read_cred = fs_read_cred,
};
