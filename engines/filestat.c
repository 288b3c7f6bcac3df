/* filestat.c: the filestat engine (fio 3.33's): each file is one stat_type= call (stat, lstat or statx) on its
 * path.  The files are laid out by the run first, as fio's. */

#include "engines/fileop.h"

static int filestat_init(struct sb_engine_td *td)
{
	return sb_fileop_init(td, false);
}

static enum sb_q_status filestat_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	return sb_fileop_queue(td, io, sb_fileop_stat);
}

const struct sb_engine_ops sb_engine_filestat = {
	.name = "filestat",
	.description = "an I/O per file: one stat_type= call (stat, lstat, statx) on it; files are laid out first",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODATA | SB_ENGINE_FILEOP,
	.init = filestat_init,
	.cleanup = sb_fileop_cleanup,
	.options = &sb_fileop_stat_optset,
	.queue = filestat_queue,
};
