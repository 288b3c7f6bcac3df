/* ml/train/dataset.c: the training dataset on disk (ml/train/dataset.h): what is
 * there, the space for what is not, and the creation of the missing files
 * with their contents (ml/content.h). */
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "os/outfile.h"
#include "ml/content.h"
#include "ml/train/dataset.h"
#include "ml/train/formats.h"
#include "ml/run.h"
#include "lib/log.h"
#include "os/scratch.h"
#include "engines/engine.h"
#include "parse/options.h"
#include "run/engtable.h"
#include <sys/mman.h>


static int make_dir(const char *dir)
{
	int e = sb_outfile_mkdir(dir, 0755, NULL, NULL); /* kept for later runs: unmarked */
	return e == -EEXIST ? 0 : e;
}

/* data_dir, train/ (or ds->split) and the subfolders */
static int make_dirs(const struct sb_ml_dataset *ds, const char *dir)
{
	char p[PATH_MAX];
	int e = make_dir(dir);
	snprintf(p, sizeof(p), "%s/%s", dir, ds->split[0] ? ds->split : "train");
	if (!e)
		e = make_dir(p);
	for (unsigned i = 0; !e && ds->subfolders > 1 && i < ds->subfolders; i++) {
		char name[512], *sl;
		sb_ml_file_name(ds, i, name, sizeof(name));
		if ((sl = strrchr(name, '/')))
			*sl = '\0';
		sb_ml_join(p, sizeof(p), dir, name);
		e = make_dir(p);
	}
	return e;
}

/* write file i with its contents (ml/content.h); a partial file it created is removed */
static int gen_file(const struct sb_jobspec *s, const struct sb_ml_dataset *ds, const char *dir,
		    unsigned i, char *buf, size_t buflen)
{
	char name[512], path[PATH_MAX];
	sb_ml_file_name(ds, i, name, sizeof(name));
	sb_ml_join(path, sizeof(path), dir, name);
	struct sb_scratch_id id = { 0 };
	int fd = sb_outfile_create(path, O_WRONLY, 0644, NULL, &id);
	if (fd < 0)
		return fd == -EEXIST ? 0 : fd; /* checked in prepare: it has the right size */
	int e = sb_ml_fmt_write(s, ds, i, fd, path, buf, buflen);
	if (!e && fsync(fd))
		e = -errno;
	if (!e)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); /* the run reads storage, not memory */
	close(fd);
	if (!e)
		sb_scratch_keep(path, &id); /* the dataset stays for the next run */
	if (e)
		sb_scratch_unlink(path, &id); /* only the file it made, if still there */
	if (e && e != -EINTR) /* interrupted: not an error */
		sb_err(path, "cannot create the dataset file: %s", strerror(-e));
	return e;
}

int sb_ml_dataset_create(const struct sb_jobspec *s, const char *job,
			 const struct sb_ml_dataset *ds, const char *dir)
{
	enum { BUF = 1 << 20 };
	int e = make_dirs(ds, dir);
	if (e) {
		sb_err(job, "cannot create the dataset directories under %s: %s", dir, strerror(-e));
		return e;
	}
	uint64_t *buf = malloc(BUF);
	if (!buf)
		return -ENOMEM;
	for (unsigned i = 0; i < ds->files && !e; i++)
		e = gen_file(s, ds, dir, i, (char *)buf, BUF);
	free(buf);
	return e;
}

/* files already there must have the sizes of this dataset */
int sb_ml_dataset_check(const char *job, const struct sb_ml_dataset *ds, const char *dir,
			unsigned *nmissing, uint64_t *missing_bytes)
{
	char name[512], path[PATH_MAX], first[PATH_MAX + 96] = "";
	unsigned wrong = 0;
	for (unsigned i = 0; i < ds->files; i++) {
		struct stat st;
		char why[PATH_MAX + 96];
		sb_ml_file_name(ds, i, name, sizeof(name));
		sb_ml_join(path, sizeof(path), dir, name);
		if (stat(path, &st) != 0) {
			(*nmissing)++;
			*missing_bytes += sb_ml_fmt_file_need(ds, i);
		} else if (sb_ml_fmt_check(ds, i, path, &st, why, sizeof(why))) {
			if (!wrong++)
				snprintf(first, sizeof(first), "%s", why);
		}
	}
	if (!wrong)
		return 0;
	sb_err(job, "data_dir=%s holds %u file(s) of the wrong size or contents for this dataset (%s): "
	       "storbench deletes nothing; set data_dir= to a new directory, or remove those files "
	       "yourself", dir, wrong, first);
	return -EEXIST;
}

int sb_ml_dataset_space(const char *job, const char *ddir, uint64_t need)
{
	char dir[PATH_MAX];
	struct statvfs vfs;
	struct stat st;
	snprintf(dir, sizeof(dir), "%s", ddir);
	if (stat(dir, &st) != 0) {
		char *sl = strrchr(dir, '/');
		if (sl)
			*(sl == dir ? sl + 1 : sl) = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
		if (stat(dir, &st) != 0) {
			sb_err(job, "data_dir=%s: its parent %s does not exist: create it, or "
			       "set data_dir= (or directory=) elsewhere", ddir, dir);
			return -ENOENT;
		}
	}
	bool ro = statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY);
	if (need && (ro || access(dir, W_OK) != 0)) { /* the missing files cannot be made */
		int e = ro ? EROFS : errno;
		sb_err(job, "data_dir=%s: %" PRIu64 " bytes of the dataset are missing and "
		       "cannot be created in %s: %s: set data_dir= (or directory=) to a writable "
		       "directory, or create the dataset there first (storbench --datagen)", ddir,
		       need, dir, strerror(e));
		return -e;
	}
	if (need && statvfs(dir, &vfs) == 0 && need > (uint64_t)vfs.f_bavail * vfs.f_frsize) {
		sb_err(job, "not enough free space in %s for the dataset: %" PRIu64 " bytes "
		       "to create, %" PRIu64 " available: lower dataset_files= or record_length=", dir,
		       need, (uint64_t)vfs.f_bavail * vfs.f_frsize);
		return -ENOSPC;
	}
	return 0;
}

int sb_ml_dataset_check_objects(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
				const struct sb_ml_dataset *ds, const char *dir, unsigned *nmissing,
				uint64_t *missing_bytes)
{
	char name[512], path[PATH_MAX], err[512];
	if (ds->fmt == SB_DSFMT_HDF5) {
		sb_err(s->name, "dataset_format=hdf5 on ioengine=%s: libhdf5 writes files by path, not "
		       "objects: use npz, npy or tfrecord on object storage", ops->name);
		return -EINVAL;
	}
	for (unsigned i = 0; i < ds->files; i++) {
		uint64_t have = 0, want = sb_ml_fmt_file_bytes(ds, i);
		sb_ml_file_name(ds, i, name, sizeof(name));
		sb_ml_join(path, sizeof(path), dir, name);
		int e = ops->object_size(sb_spec_engine_opts(s), &sb_run_engine_fs, path, &have, err, sizeof(err));
		if (e == -ENOENT) {
			(*nmissing)++;
			*missing_bytes += want;
		} else if (e) {
			sb_err(s->name, "data_dir=%s: %s", dir, err);
			return e;
		} else if (have != want) {
			sb_err(s->name, "data_dir=%s: object %s has %" PRIu64 " bytes, this dataset's file has %"
			       PRIu64 ": storbench deletes nothing; set data_dir= to a new prefix", dir, path,
			       have, want);
			return -EEXIST;
		}
	}
	return 0;
}

int sb_ml_dataset_create_objects(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
				 const struct sb_ml_dataset *ds, const char *dir)
{
	enum { BUF = 1 << 20 };
	char name[512], path[PATH_MAX], err[512];
	uint64_t *buf = malloc(BUF);
	if (!buf)
		return -ENOMEM;
	int e = 0;
	for (unsigned i = 0; i < ds->files && !e; i++) {
		uint64_t have = 0;
		sb_ml_file_name(ds, i, name, sizeof(name));
		sb_ml_join(path, sizeof(path), dir, name);
		if (!ops->object_size(sb_spec_engine_opts(s), &sb_run_engine_fs, path, &have, err, sizeof(err)))
			continue; /* there (its size was checked) */
		int fd = memfd_create("storbench-dataset", MFD_CLOEXEC); /* memory, not a file of the user's */
		if (fd < 0) {
			e = -errno;
			break;
		}
		e = sb_ml_fmt_write(s, ds, i, fd, path, (char *)buf, BUF);
		if (!e)
			e = ops->object_put(sb_spec_engine_opts(s), &sb_run_engine_fs, NULL, s->name, path, fd,
					    NULL, sb_ml_fmt_file_bytes(ds, i), err, sizeof(err));
		close(fd);
		if (e && e != -EINTR)
			sb_err(s->name, "cannot create the dataset object %s: %s", path,
			       err[0] ? err : strerror(-e));
		err[0] = '\0';
	}
	free(buf);
	return e;
}
