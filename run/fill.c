/* fill.c: fill_device=1 (fio's fill_fs): the job writes sequentially until
 * the file system says ENOSPC (or EDQUOT), which ends the job as if its
 * size were done, as fio 3.33 ends it (error 0, exit 0; the failed write
 * counts in total_ios, not in io_bytes).  Without size=, the region is the
 * file's data past offset= plus the free space, rounded up to the largest
 * block and one block more, so the last write meets the full file system.
 * The file is not laid out (nothing to preallocate): a missing one is
 * created empty by the layout, so unlink=1 removes it as any file
 * storbench made. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "run/fill.h"
#include "run/thread.h"

uint64_t sb_files_fill_len(const struct sb_jobspec *s, const struct sb_layout_file *lf,
			   uint64_t have, uint64_t start)
{
	if (!s->fill_device || lf->is_bdev) /* a device ends at its size (fio: no ENOSPC there) */
		return 0;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", lf->path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	struct statvfs vfs;
	if (statvfs(dir, &vfs) != 0)
		return 0; /* the caller says size= is needed */
	uint64_t bs = s->bs_hi ? s->bs_hi : 4096;
	uint64_t len = (uint64_t)vfs.f_bavail * vfs.f_frsize + (have > start ? have - start : 0);
	return (len + bs - 1) / bs * bs + bs;
}

bool sb_files_fill_new(const struct sb_layout_file *lf)
{
	return lf->spec && lf->spec->fill_device && !lf->exists && !lf->is_bdev;
}

bool sb_fill_full(const struct sb_thread *t, const struct sb_io_u *io)
{
	return t->spec->fill_device && io->ddir == SB_DDIR_WRITE &&
	       (io->result == -ENOSPC || io->result == -EDQUOT);
}
