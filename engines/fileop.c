/* fileop.c: the shared part of the file and folder operation engines
 * (engines/fileop.h): one operation per file, stat_type=. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "engines/fileop.h"

enum { ST_STAT = 1, ST_LSTAT = 2, ST_STATX = 3 };
struct st_opts {
	unsigned stat_type;     /* ST_*: fio's stat_type */
};

static const struct sb_opt_enum stat_type_vals[] = {
	{ .name = "stat", .val = ST_STAT, .help = "stat(2), following a symlink" },
	{ .name = "lstat", .val = ST_LSTAT, .help = "lstat(2), the link itself" },
	{ .name = "statx", .val = ST_STATX, .help = "statx(2) with STATX_ALL" },
	{ .name = NULL },
};

static const struct sb_option st_options[] = {
	{ .name = "stat_type", .type = SB_OT_ENUM, .off = offsetof(struct st_opts, stat_type),
	  .def = "stat", .enums = stat_type_vals, .category = SB_CAT_ENG,
	  .help = "filestat, dirstat: the call each I/O makes: stat, lstat or statx" },
};
const struct sb_engine_options sb_fileop_stat_optset = {
	st_options, sizeof(st_options) / sizeof(st_options[0]), sizeof(struct st_opts),
};

int sb_fileop_init(struct sb_engine_td *td, bool mkdirs)
{
	if (!td->ios || !td->nios)
		return -EINVAL;
	td->data = calloc(td->nfiles ? td->nfiles : 1, 1);
	if (!td->data)
		return -ENOMEM;
	for (unsigned i = 0; mkdirs && i < td->nfiles; i++) {
		const char *p = td->files[i].path;
		int r = p && td->job && td->job->fs ? td->job->fs->create(p, true, td->job->job) : 0;
		if (r && r != -EEXIST) {
			snprintf(td->errmsg, sizeof(td->errmsg), "cannot make the folder %s", p);
			return r;
		}
	}
	return 0;
}

void sb_fileop_cleanup(struct sb_engine_td *td)
{
	free(td->data);
	td->data = NULL;
}

enum sb_q_status sb_fileop_queue(struct sb_engine_td *td, struct sb_io_u *io, sb_fileop_fn op)
{
	unsigned char *done = td->data;
	struct sb_file *f = io->file;
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE && io->ddir != SB_DDIR_TRIM) {
		io->result = 0; /* fio: a sync has no descriptor to sync here */
		return SB_Q_COMPLETED;
	}
	if (!f || f->index >= td->nfiles || done[f->index]) {
		io->result = (int64_t)io->len;
		return SB_Q_COMPLETED;
	}
	done[f->index] = 1;
	int r = td->job && td->job->fs ? op(td, f) : -EOPNOTSUPP;
	io->result = r ? r : (int64_t)io->len;
	return SB_Q_COMPLETED;
}

int sb_fileop_stat(struct sb_engine_td *td, struct sb_file *f)
{
	const struct st_opts *o = td->job->opts;
	unsigned type = o ? o->stat_type : ST_STAT;
	struct stat st;
	struct statx stx;
	int r;
	if (type == ST_LSTAT)
		r = lstat(f->path, &st);
	else if (type == ST_STATX)
		r = statx(AT_FDCWD, f->path, 0, STATX_ALL, &stx);
	else
		r = stat(f->path, &st);
	return r ? -errno : 0;
}
