/* filedirs.c: the folders a job's file needs, made as fio 3.33 makes them
 * (filesetup.c create_work_dirs: each missing folder on the file's path,
 * mode 0700, before the file).  The plan only looks (sb_files_parent);
 * the lay-out makes them through the writer gate (os/outfile.c), marked
 * as the job's and kept after the run, so that storbench --cleanup can
 * remove them later and nothing of the user's is touched. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/log.h"
#include "parse/options.h"
#include "os/outfile.h"
#include "os/scratch.h"
#include "run/files.h"

int sb_files_parent(const char *path, dev_t *dev)
{
	char dir[PATH_MAX];
	struct stat st;
	sb_files_dir_of(path, dir, sizeof(dir));
	if (!stat(dir, &st)) {
		*dev = st.st_dev;
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	}
	if (errno != ENOENT)
		return -errno;
	for (;;) { /* the nearest folder that is there */
		char *s = strrchr(dir, '/');
		if (!s)
			snprintf(dir, sizeof(dir), ".");
		else if (s == dir)
			dir[1] = '\0';
		else
			*s = '\0';
		if (!stat(dir, &st)) {
			*dev = st.st_dev;
			return S_ISDIR(st.st_mode) ? 1 : -ENOTDIR;
		}
		if (errno != ENOENT)
			return -errno;
		if (!strcmp(dir, ".") || !strcmp(dir, "/"))
			return -ENOENT;
	}
}

int sb_files_plan_parent(const char *path, const struct sb_jobspec *s, dev_t *dev)
{
	/* a missing folder is made at lay-out, as fio 3.33 makes it; a file
	 * in the way, or a directory= that is not there (fio refuses it while
	 * parsing: "d/e is not a directory"), is the job's error: the job and
	 * the option that named it, and the fix */
	int e = sb_files_parent(path, dev);
	struct stat ds;
	bool nodir = s->directory && e > 0 && stat(s->directory, &ds);
	if (e >= 0 && !nodir)
		return e;
	char where[SB_WHERE_MAX], dir[PATH_MAX];
	const struct sb_option *o = s->directory ? SB_OPT(directory) : SB_OPT(filename);
	sb_spec_where(s, o, where, sizeof(where));
	sb_files_dir_of(path, dir, sizeof(dir));
	if (nodir)
		sb_err_machine(where, "job %s: %s=%s: the folder %s is not there: create it first "
			       "(mkdir -p %s), or name an existing one", s->name, o->name, s->directory,
			       s->directory, s->directory);
	else
		sb_err_machine(where, "job %s: %s=%s: the folder %s for %s: %s: name a path whose "
			       "folders are folders", s->name, o->name,
			       s->directory ? s->directory : s->filename, dir, path, strerror(-e));
	return nodir ? -ENOENT : e;
}

int sb_files_make_parents(const char *path, const char *job)
{
	char dir[PATH_MAX];
	sb_files_dir_of(path, dir, sizeof(dir));
	size_t n = strlen(dir);
	for (size_t i = 1; i <= n; i++) {
		if (i < n && dir[i] != '/')
			continue;
		char c = dir[i];
		dir[i] = '\0';
		struct stat st;
		if (stat(dir, &st)) {
			struct sb_scratch_id id;
			int r = sb_outfile_mkdir(dir, 0700, job && *job ? job : "storbench", &id);
			if (r && r != -EEXIST) {
				sb_err(job, "cannot make the folder %s for %s: %s", dir, path, strerror(-r));
				return r;
			}
			if (!r) {
				sb_scratch_remember(dir, &id);
				(void)sb_scratch_keep(dir, &id); /* kept, as fio keeps them */
			}
		}
		dir[i] = c;
	}
	return 0;
}
