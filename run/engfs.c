/* engfs.c: creation and removal by path for the file and folder operation
 * engines (struct sb_engine_fs, engines/engine.h).  Creation goes through
 * the writer gate (os/outfile.c: exclusive, marked as this run's, kept on
 * purpose as fio keeps what filecreate makes); removal only of what this
 * process made and while the path still names that inode (os/scratch.c):
 * a user's file or folder is never removed. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>

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

const struct sb_engine_fs sb_run_engine_fs = {
	.create = fs_create,
	.remove = fs_remove,
};
