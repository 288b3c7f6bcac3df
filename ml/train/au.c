/* ml/train/au.c: DLIO's accelerator-utilization and throughput formulas, the
 * steady-state AU predictor and a small pipeline simulator (ml_au.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ml/train/au.h"

int sb_ml_au_block(const struct sb_ml_step *st, size_t n, double block_start,
		   double block_end, unsigned exclude_start, unsigned exclude_end,
		   unsigned batch_size, struct sb_ml_au *out)
{
	double excluded = 0, compute = 0, wall;
	memset(out, 0, sizeof(*out));
	if ((size_t)exclude_start + exclude_end >= n)
		return -ERANGE;
	for (size_t i = 0; i < n; i++) {
		if (i < exclude_start || i >= n - exclude_end)
			excluded += st[i].compute_end - st[i].load_start;
		else
			compute += st[i].compute_end - st[i].compute_start;
	}
	wall = block_end - block_start - excluded;
	if (!(wall > 0))
		return -ERANGE;
	out->counted = n - exclude_start - exclude_end;
	out->wall_s = wall;
	out->compute_s = compute;
	out->au_pct = 100.0 * compute / wall;
	/* DLIO: (len(compute) - 2) / total_time * batch_size, the block's steps
	 * less 2 whatever is excluded (statscounter.py:412) */
	out->samples_per_s = (double)(n >= 2 ? n - 2 : 0) * batch_size / wall;
	return 0;
}

void sb_ml_au_combine(const struct sb_ml_au *ranks, size_t n, double record_length,
		      struct sb_ml_train_metrics *out)
{
	double au = 0, sps = 0;
	for (size_t i = 0; i < n; i++) {
		au += ranks[i].au_pct;
		sps += ranks[i].samples_per_s;
	}
	out->au_pct = n ? au / (double)n : 0;
	out->samples_per_s = sps;
	out->mb_per_s = sps * record_length / 1048576.0;
}

void sb_ml_au_epochs_mean(const struct sb_ml_train_metrics *ep, size_t n,
			  struct sb_ml_train_metrics *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		out->au_pct += ep[i].au_pct / (double)n;
		out->samples_per_s += ep[i].samples_per_s / (double)n;
		out->mb_per_s += ep[i].mb_per_s / (double)n;
	}
}

static double maxd(double a, double b)
{
	return a > b ? a : b;
}

double sb_ml_au_predict(const struct sb_ml_au_model *m)
{
	double consumers = m->consumers ? m->consumers : 1;
	double bw = m->rate_Bps > 0 ? consumers * m->batch_bytes / m->rate_Bps : 0;
	double reff, c = m->compute_s;
	if (!(c > 0))
		return 0;
	if (!m->readers)
		return 100.0 * c / (c + maxd(m->read_s, bw));
	reff = maxd(m->read_s * consumers / m->readers, bw);
	if (!m->prefetch)
		return 100.0 * c / (c + reff);
	return 100.0 * c / maxd(c, reff);
}

/* Per-batch read time of one reader when all readers share the rate. */
static double sim_read_s(const struct sb_ml_au_model *m)
{
	if (m->rate_Bps > 0)
		return maxd(m->read_s, m->readers * m->batch_bytes / m->rate_Bps);
	return m->read_s;
}

int sb_ml_au_simulate(const struct sb_ml_au_model *m, struct sb_ml_step *out, size_t n)
{
	size_t ahead = (size_t)m->readers * m->prefetch;
	double r = sim_read_s(m), now = 0, *ready;
	if (!m->readers || !n)
		return -EINVAL;
	ready = malloc(n * sizeof(*ready));
	if (!ready)
		return -ENOMEM;
	for (size_t b = 0; b < n; b++) {
		/* the index of batch b reaches its reader: at once while fewer
		 * than readers*prefetch are ahead of the consumer, else when the
		 * consumer takes batch b - ahead; prefetch 0: when it asks for b */
		double issue = !m->prefetch ? now : b >= ahead ? out[b - ahead].compute_start : 0;
		/* the reader finishes its previous batch first */
		double free_at = b >= m->readers ? ready[b - m->readers] : 0;
		ready[b] = maxd(issue, free_at) + r;
		out[b].load_start = now;
		out[b].compute_start = maxd(now, ready[b]);
		now = out[b].compute_start + m->compute_s;
		out[b].compute_end = now;
	}
	free(ready);
	return 0;
}
