/* mem.c: memory pressure from /proc/meminfo - used percent
 * ((MemTotal - MemAvailable) / MemTotal) and the dirty and writeback page
 * cache, the two figures that show buffered writes piling up. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/host/priv.h"

struct meminfo {
	uint64_t total, avail, dirty, wb;  /* bytes */
	unsigned found;                    /* bit per field above */
};

static int read_meminfo(const struct sb_host *h, struct meminfo *m)
{
	static const char *const keys[4] = { "MemTotal:", "MemAvailable:", "Dirty:", "Writeback:" };
	char path[PATH_MAX], buf[8192];
	int err = sb_host_path(h, "proc/meminfo", path, sizeof(path));
	if (err)
		return err;
	ssize_t r = sb_host_read_file(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	memset(m, 0, sizeof(*m));
	uint64_t *dst[4] = { &m->total, &m->avail, &m->dirty, &m->wb };
	for (char *line = buf; line && *line;) {
		for (unsigned i = 0; i < 4; i++) {
			size_t kl = strlen(keys[i]);
			if (!strncmp(line, keys[i], kl)) {
				*dst[i] = strtoull(line + kl, NULL, 10) * 1024; /* kB */
				m->found |= 1u << i;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	/* MemAvailable appeared in Linux 3.14; without it nothing honest */
	return (m->found & 3) == 3 && m->total ? 0 : -ENODATA;
}

static void account(struct host_mem *mm, const struct meminfo *m, struct sb_host_sample *s)
{
	double pct = m->avail > m->total ? 0.0 :
		100.0 * (double)(m->total - m->avail) / (double)m->total;
	if (pct > mm->max_pct)
		mm->max_pct = pct;
	if (m->dirty > mm->peak_dirty)
		mm->peak_dirty = m->dirty;
	if (m->wb > mm->peak_wb)
		mm->peak_wb = m->wb;
	if (s) {
		s->mem_pct = pct;
		s->dirty_bytes = m->dirty;
		s->writeback_bytes = m->wb;
	}
}

static void mem_open(struct sb_host *h)
{
	struct meminfo m;
	int err = read_meminfo(h, &m);
	if (err == -ENODATA) {
		sb_host_set_absent(&h->st[SB_HOST_MEM], "proc/meminfo: no MemTotal/MemAvailable");
		return;
	}
	if (err) {
		sb_host_set_errno(&h->st[SB_HOST_MEM], "proc/meminfo", err);
		return;
	}
	h->mem.total = m.total;
	/* max_t is over samples; the baseline counts only for dirty/writeback */
	h->mem.peak_dirty = m.dirty;
	h->mem.peak_wb = m.wb;
	h->st[SB_HOST_MEM].present = true;
	h->st[SB_HOST_MEM].reason[0] = 0;
}

static void mem_sample(struct sb_host *h, double dt_s, struct sb_host_sample *s)
{
	struct meminfo m;
	(void)dt_s;
	if (read_meminfo(h, &m) == 0)
		account(&h->mem, &m, s);
}

static void mem_summary(const struct sb_host *h, struct sb_host_mem_sum *o)
{
	o->mem_total_bytes = h->mem.total;
	o->max_t_mem_percent = h->mem.max_pct;
	o->peak_dirty_bytes = h->mem.peak_dirty;
	o->peak_writeback_bytes = h->mem.peak_wb;
}

/* ---- the collector (stats/host/collector.h) ---- */

static int mem_open_op(struct sb_host *h, const struct sb_host_config *cfg)
{
	(void)cfg;
	mem_open(h);
	return 0;
}

static void mem_summary_op(const struct sb_host *h, double run_s, void *sum)
{
	struct sb_host_mem_sum *o = sum;
	(void)run_s;
	o->st = h->st[SB_HOST_MEM];
	if (o->st.present)
		mem_summary(h, o);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define F(key, kind) { #key, kind, offsetof(struct sb_host_mem_sum, key), 0, false, NULL, NULL }
static const struct sb_host_field mem_fields[] = {
	F(mem_total_bytes, SB_HK_U64),
	F(max_t_mem_percent, SB_HK_DBL),
	F(peak_dirty_bytes, SB_HK_U64),
	F(peak_writeback_bytes, SB_HK_U64),
	{ .kind = SB_HK_END },
};
#undef F

static const struct sb_host_line mem_lines[] = {
	{ .text = "mem: max used={max_t_mem_percent:.1}%, peak dirty={peak_dirty_bytes:B}, "
	  "peak writeback={peak_writeback_bytes:B}" },
	{ 0 },
};

/* its series columns */
static const struct sb_host_col mem_cols[] = {
	SB_HOST_COL(mem_pct, SB_HK_DBL, SB_HM_MAX),
	SB_HOST_COL(dirty_bytes, SB_HK_U64, SB_HM_MAX),
	SB_HOST_COL(writeback_bytes, SB_HK_U64, SB_HM_MAX),
	{ .kind = SB_HK_END },
};

const struct sb_host_collector sb_host_mem_collector = {
	.name = "mem",
	.src = SB_HOST_MEM,
	.open = mem_open_op,
	.sample = mem_sample,
	.summary = mem_summary_op,
	.sum_size = sizeof(struct sb_host_mem_sum),
	.fields = mem_fields,
	.lines = mem_lines,
	.cols = mem_cols,
};
