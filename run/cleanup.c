/* cleanup.c: storbench --cleanup DIR (see cleanup.h).  Everything is done
 * relative to directory descriptors opened with O_NOFOLLOW, so a symlink
 * (or a folder swapped for one) never leads outside DIR; the mark of an
 * entry is read through /proc/self/fd/N/NAME without following NAME. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/cleanup.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "os/scratch.h"
#include "os/scratchside.h"

struct tally {
	FILE *out;
	bool dry;
	unsigned removed_files, removed_dirs, skipped, unmarked, kept, failed;
	bool stopped; /* SIGINT/SIGTERM: the walk ended early */
};

/* what to do with an entry: 1 remove, 0 skip (said why), -1 no mark,
 * -2 kept on purpose by a run that ended (unlink=0, keep_checkpoints=1,
 * datasets) */
static int judge(struct tally *t, int dfd, const char *name, const char *shown,
		 const struct stat *st, struct sb_scratch_mark *m)
{
	char proc[64 + NAME_MAX], who[600];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d/%s", dfd, name);
	int r = sb_scratch_read_mark(proc, m);
	if (r <= 0)
		return -1; /* no mark: not storbench's */
	sb_scratch_mark_str(m, who, sizeof(who));
	if (!sb_scratch_mark_names(m, st)) {
		fprintf(t->out, "skipped %s%s: its storbench mark (%s) names %s, not this one (a "
			"copy made with cp -a, rsync -X or tar --xattrs keeps the mark): left alone\n",
			shown, S_ISDIR(st->st_mode) ? "/" : "", who,
			m->has_ino ? "another file" : "no file");
		t->skipped++;
		return 0;
	}
	if (m->kept)
		return -2;
	const char *why = NULL;
	switch (sb_scratch_owner_why(m, &why)) {
	case SB_OWNER_DEAD:
		return 1;
	case SB_OWNER_ALIVE:
		fprintf(t->out, "skipped %s: its creator is still running (%s)\n", shown, who);
		break;
	default:
		fprintf(t->out, "skipped %s: cannot tell whether its creator is still running: %s "
			"(%s)\n", shown, why, who);
		break;
	}
	t->skipped++;
	return 0;
}

/* left: what a folder still holds after its walk (a dry run removes
 * nothing, so it counts what the real cleanup would leave); true: removed
 * (a dry run: would be) */
static bool remove_entry(struct tally *t, int dfd, const char *name, const char *shown, bool dir,
			 unsigned left, const struct sb_scratch_mark *m)
{
	char who[600], proc[64 + NAME_MAX];
	sb_scratch_mark_str(m, who, sizeof(who));
	int err = 0;
	if (dir && left)
		err = ENOTEMPTY;
	else if (!t->dry)
		err = -sb_scratch_remove_at(dfd, name, dir, m);
	if (err) {
		if (dir && (err == ENOTEMPTY || err == EEXIST)) {
			fprintf(t->out, "skipped %s/: not empty (it holds files storbench did not make, "
				"or that are still in use)\n", shown);
			t->skipped++;
			return false;
		}
		sb_err(shown, "cannot remove: %s", strerror(err));
		t->failed++;
		return false;
	}
	if (!t->dry && m->side) { /* its record in the folder's .storbench-owner goes too */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d/%s", dfd, name);
		(void)sb_scratch_side_drop(proc, m->dev, m->ino);
	}
	fprintf(t->out, "%s %s%s (left by %s)\n", t->dry ? "would remove" : "removed", shown,
		dir ? "/" : "", who);
	if (dir)
		t->removed_dirs++;
	else
		t->removed_files++;
	return true;
}

static unsigned walk(struct tally *t, int dfd, const char *shown, unsigned depth);

/* true: the entry is gone (a dry run: would be) */
static bool visit(struct tally *t, int dfd, const char *name, const char *shown, unsigned depth)
{
	struct stat st;
	struct sb_scratch_mark m;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return true; /* gone meanwhile */
	if (S_ISDIR(st.st_mode)) {
		int sub = depth < 64 ? openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
		if (sub < 0) {
			fprintf(t->out, "skipped %s/: cannot open it: %s\n", shown,
				depth < 64 ? strerror(errno) : "nested too deep");
			t->skipped++;
			return false;
		}
		unsigned left = walk(t, sub, shown, depth + 1);
		close(sub);
		return judge(t, dfd, name, shown, &st, &m) == 1 &&
		       remove_entry(t, dfd, name, shown, true, left, &m);
	} else if (S_ISREG(st.st_mode)) {
		int r = judge(t, dfd, name, shown, &st, &m);
		if (r == 1)
			return remove_entry(t, dfd, name, shown, false, 0, &m);
		else if (r == -2)
			t->kept++;
		else if (r < 0)
			t->unmarked++;
	} /* symlinks, devices, fifos, sockets: storbench makes none; never followed */
	return false;
}

/* the folder's .storbench-owner, after its walk (left: the other entries
 * that stay): the records of entries that are gone are dropped, and the
 * file goes with the last.  A dry run changes nothing; when nothing else
 * stays, every record names an entry that would be gone, so the record
 * file would go too (a file of that name that is not a record file
 * stays).  1 when it stays */
static unsigned side_left(struct tally *t, int dfd, unsigned left)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dfd);
	if (!t->dry)
		return sb_scratch_side_prune(proc) ? 1 : 0;
	return left || !sb_scratch_side_is(proc) ? 1 : 0;
}

/* the entries of the folder on dfd that stay (a dry run: would stay) */
static unsigned walk(struct tally *t, int dfd, const char *shown, unsigned depth)
{
	unsigned left = 0;
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		sb_err(shown, "cannot list: %s", strerror(errno));
		t->failed++;
		return 1;
	}
	struct dirent *e;
	char path[PATH_MAX];
	bool side = false;
	while ((e = readdir(d))) {
		if (sb_stopping()) {
			t->stopped = true;
			left++;
			break;
		}
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strcmp(e->d_name, SB_SCRATCH_SIDE)) {
			side = true; /* the records of the marks here: after the walk */
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", shown, e->d_name);
		if (!visit(t, dfd, e->d_name, path, depth))
			left++;
	}
	closedir(d);
	return left + (side ? side_left(t, dfd, left) : 0);
}

int sb_cleanup_dir(const char *dir, bool dry_run, FILE *out)
{
	if (!strncmp(dir, "s3://", 5)) /* objects: run/cleanup_s3.c */
		return sb_cleanup_s3(dir, dry_run, out);
	struct tally t = { .out = out, .dry = dry_run };
	char shown[PATH_MAX];
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		int e = errno;
		sb_err("--cleanup", "%s: %s: give a directory that holds storbench scratch files",
		       dir, strerror(e));
		return -e;
	}
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	snprintf(shown, sizeof(shown), "%.*s", (int)n, dir);
	(void)walk(&t, dfd, shown, 0);
	close(dfd);
	fprintf(out, "storbench --cleanup %s: %s %u files and %u folders left by storbench runs "
		"that did not finish; skipped %u; left %u files storbench did not make and %u it "
		"kept on purpose alone%s\n",
		shown, dry_run ? "would remove" : "removed", t.removed_files, t.removed_dirs,
		t.skipped, t.unmarked, t.kept, t.failed ? " (some could not be removed: see above)" : "");
	if (t.stopped)
		sb_err("--cleanup", "interrupted: the walk of %s stopped early (what is listed above "
		       "was done)", shown);
	return t.stopped ? -EINTR : t.failed ? -EIO : 0;
}
