/* dirstat.c: the dirstat engine (fio 3.33's): each file of the job is a folder (made at init, as fio's
 * setup_dirs; one there already is used as it is) and one stat_type= call
 * on it. */

#include "engines/fileop.h"

static int dirstat_init(struct sb_engine_td *td)
{
	return sb_fileop_init(td, true);
}

static enum sb_q_status dirstat_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	return sb_fileop_queue(td, io, sb_fileop_stat);
}

const struct sb_engine_ops sb_engine_dirstat = {
	.name = "dirstat",
	.description = "an I/O per file: one stat_type= call on its folder (folders are made first)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODATA | SB_ENGINE_FILEOP | SB_ENGINE_NODISKIO,
	.init = dirstat_init,
	.cleanup = sb_fileop_cleanup,
	.options = &sb_fileop_stat_optset,
	.queue = dirstat_queue,
};
