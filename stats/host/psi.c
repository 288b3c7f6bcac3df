/* psi.c: I/O pressure stall information from /proc/pressure/io - the
 * kernel's share of wall time in which some (or all) runnable tasks were
 * stalled waiting for I/O.  The summary is the kernel's own 10/60/300 s
 * averages at the last sample, the peak avg10 over the samples and the
 * stalled share of the run from the "total" counters (microseconds); the
 * series carries the stalled share of each interval.  Without PSI (kernels
 * before 4.20, CONFIG_PSI off, psi=0) the source is absent with the reason. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "stats/host/priv.h"

struct psi_line {
	double avg10, avg60, avg300;  /* % */
	uint64_t total_us;
};

struct psi_state {
	struct psi_line base[2], last[2];   /* some, full: at open and at the last sample */
	double max_some_avg10;
};

/* the figures written (stats/host.h: described below) */
struct psi_sum {
	struct sb_host_status st;
	double some_avg10, some_avg60, some_avg300;
	double full_avg10, full_avg60, full_avg300;
	double max_some_avg10;
	uint64_t some_total_us, full_total_us;
	double some_stall_pct, full_stall_pct;
};

/* "some avg10=0.72 avg60=3.18 avg300=1.39 total=534048648" and the "full" line */
static int read_psi(const struct sb_host *h, struct psi_line out[2])
{
	char path[PATH_MAX], buf[512];
	int err = sb_host_path(h, "proc/pressure/io", path, sizeof(path));
	if (err)
		return err;
	ssize_t r = sb_host_read_file(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	static const char *const kind[2] = { "some ", "full " };
	for (unsigned k = 0; k < 2; k++) {
		unsigned long long t;
		const char *p = strstr(buf, kind[k]);
		if (!p || sscanf(p + 5, "avg10=%lf avg60=%lf avg300=%lf total=%llu",
				 &out[k].avg10, &out[k].avg60, &out[k].avg300, &t) != 4)
			return -ENODATA;
		out[k].total_us = t;
	}
	return 0;
}

static struct psi_state *state(const struct sb_host *h)
{
	return h->state[SB_HOST_PSI];
}

static int psi_open(struct sb_host *h, const struct sb_host_config *cfg)
{
	struct psi_state *ps = state(h);
	(void)cfg;
	int err = read_psi(h, ps->base);
	if (err == -ENODATA)
		sb_host_set_absent(&h->st[SB_HOST_PSI], "proc/pressure/io: no some/full lines");
	else if (err)
		sb_host_set_errno(&h->st[SB_HOST_PSI], "proc/pressure/io", err);
	if (err)
		return 0;
	memcpy(ps->last, ps->base, sizeof(ps->last));
	h->st[SB_HOST_PSI].present = true;
	h->st[SB_HOST_PSI].reason[0] = 0;
	return 0;
}

static double stall_pct(uint64_t from, uint64_t to, double s)
{
	return s > 0 && to >= from ? (double)(to - from) / (s * 1e4) : 0;  /* us / (s * 1e6) * 100 */
}

static void psi_sample(struct sb_host *h, double dt_s, struct sb_host_sample *s)
{
	struct psi_state *ps = state(h);
	struct psi_line cur[2];
	if (read_psi(h, cur))
		return;
	union sb_host_val *v = &s->slot[sb_host_slot0(SB_HOST_PSI)];
	v[0].d = stall_pct(ps->last[0].total_us, cur[0].total_us, dt_s);
	v[1].d = stall_pct(ps->last[1].total_us, cur[1].total_us, dt_s);
	if (cur[0].avg10 > ps->max_some_avg10)
		ps->max_some_avg10 = cur[0].avg10;
	memcpy(ps->last, cur, sizeof(ps->last));
}

static void psi_summary(const struct sb_host *h, double run_s, void *sum)
{
	const struct psi_state *ps = state(h);
	struct psi_sum *o = sum;
	o->st = h->st[SB_HOST_PSI];
	if (!o->st.present)
		return;
	o->some_avg10 = ps->last[0].avg10;
	o->some_avg60 = ps->last[0].avg60;
	o->some_avg300 = ps->last[0].avg300;
	o->full_avg10 = ps->last[1].avg10;
	o->full_avg60 = ps->last[1].avg60;
	o->full_avg300 = ps->last[1].avg300;
	o->max_some_avg10 = ps->max_some_avg10;
	o->some_total_us = ps->last[0].total_us - ps->base[0].total_us;
	o->full_total_us = ps->last[1].total_us - ps->base[1].total_us;
	o->some_stall_pct = stall_pct(ps->base[0].total_us, ps->last[0].total_us, run_s);
	o->full_stall_pct = stall_pct(ps->base[1].total_us, ps->last[1].total_us, run_s);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define F(key, kind) { #key, kind, offsetof(struct psi_sum, key), 0, false, NULL, NULL }
static const struct sb_host_field psi_fields[] = {
	F(some_avg10, SB_HK_DBL),
	F(some_avg60, SB_HK_DBL),
	F(some_avg300, SB_HK_DBL),
	F(full_avg10, SB_HK_DBL),
	F(full_avg60, SB_HK_DBL),
	F(full_avg300, SB_HK_DBL),
	F(max_some_avg10, SB_HK_DBL),
	F(some_total_us, SB_HK_U64),
	F(full_total_us, SB_HK_U64),
	F(some_stall_pct, SB_HK_DBL),
	F(full_stall_pct, SB_HK_DBL),
	{ .kind = SB_HK_END },
};
#undef F

static const struct sb_host_line psi_lines[] = {
	{ .text = "psi io: stalled some/full={some_stall_pct:.2}/{full_stall_pct:.2}%, "
	  "some avg10/60/300={some_avg10:.2}/{some_avg60:.2}/{some_avg300:.2}%, max avg10={max_some_avg10:.2}%" },
	{ 0 },
};

static const struct sb_host_col psi_cols[] = {
	SB_HOST_SLOT_COL("psi_io_some_pct", SB_HK_DBL, SB_HM_WMEAN, 0),
	SB_HOST_SLOT_COL("psi_io_full_pct", SB_HK_DBL, SB_HM_WMEAN, 1),
	{ .kind = SB_HK_END },
};

const struct sb_host_collector sb_host_psi_collector = {
	.name = "psi",
	.src = SB_HOST_PSI,
	.open = psi_open,
	.sample = psi_sample,
	.summary = psi_summary,
	.sum_size = sizeof(struct psi_sum),
	.state_size = sizeof(struct psi_state),
	.fields = psi_fields,
	.lines = psi_lines,
	.cols = psi_cols,
};
