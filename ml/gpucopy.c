/* gpucopy.c: the "gpu_copy" figures of checkpoint_source=gpu and
 * train_destination=gpu (gpucopy.h), for ml/checkpoint/figures.c and
 * ml/train/figures.c. */
#include <stdio.h>

#include "ml/gpucopy.h"
#include "output/jsonw.h"

void sb_ml_gpu_json(struct sb_jw *w, const struct sb_ml_gpu_copy *g)
{
	if (!g->on)
		return;
	sb_jw_obj_begin(w, "gpu_copy");
	sb_jw_u64(w, "d2h_bytes", g->d2h_bytes);
	sb_jw_dbl(w, "d2h_s", g->d2h_s);
	sb_jw_u64(w, "h2d_bytes", g->h2d_bytes);
	sb_jw_dbl(w, "h2d_s", g->h2d_s);
	sb_jw_obj_end(w);
}

void sb_ml_gpu_normal(FILE *f, const struct sb_ml_gpu_copy *g)
{
	if (!g->on)
		return;
	fprintf(f, "    GPU copies (inside the durations above): GPU to host %.3f MiB in %.3f s, "
		   "host to GPU %.3f MiB in %.3f s\n", (double)g->d2h_bytes / 1048576.0, g->d2h_s,
		(double)g->h2d_bytes / 1048576.0, g->h2d_s);
}
