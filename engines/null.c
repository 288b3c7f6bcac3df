/* null.c: the null engine: every I/O completes at once with its full length.
 * No files are laid out or opened.  Measures storbench's own overhead. */
#include <errno.h>

#include "engines/engine.h"

/* nothing to prepare beyond the io units the runner allocated */
static int null_init(struct sb_engine_td *td)
{
	return td->ios && td->nios ? 0 : -EINVAL;
}

static enum sb_q_status null_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	(void)td;
	io->result = (int64_t)io->len;
	return SB_Q_COMPLETED;
}

const struct sb_engine_ops sb_engine_null = {
	.name = "null",
	.description = "completes every I/O at once without touching a file (overhead baseline)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODISKIO,
	.init = null_init,
	.queue = null_queue,
};
