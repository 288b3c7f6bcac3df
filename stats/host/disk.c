/* disk.c: block device activity from /proc/diskstats for the devices
 * under the job's files (fio's disk_util fields plus MB totals), and how
 * full the target filesystem is (statvfs on the real path). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "stats/host/priv.h"

#define DISKSTATS_BUF (256 * 1024)

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : 0;  /* counter reset: count nothing */
}

/* Finds every configured device in diskstats text; found[i] set for each. */
static void parse_diskstats(char *text, const struct host_disk *d,
			    struct host_dstat *out, bool *found)
{
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		unsigned maj, mnr;
		char name[SB_HOST_NAME_MAX];
		unsigned long long v[11];
		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &maj, &mnr, name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			   &v[6], &v[7], &v[8], &v[9], &v[10]) == 14) {
			for (unsigned i = 0; i < d->n; i++) {
				if (strcmp(name, d->name[i]))
					continue;
				struct host_dstat *s = &out[i];
				s->rd_ios = v[0]; s->rd_merges = v[1]; s->rd_sect = v[2]; s->rd_ticks = v[3];
				s->wr_ios = v[4]; s->wr_merges = v[5]; s->wr_sect = v[6]; s->wr_ticks = v[7];
				/* v[8] is I/Os in flight, a level not a counter */
				s->io_ticks = v[9]; s->in_queue = v[10];
				found[i] = true;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
}

static int read_all(const struct sb_host *h, struct host_dstat *out, bool *found)
{
	char path[PATH_MAX];
	int err = sb_host_path(h, "proc/diskstats", path, sizeof(path));
	if (err)
		return err;
	char *text = malloc(DISKSTATS_BUF);
	if (!text)
		return -ENOMEM;
	ssize_t r = sb_host_read_file(path, text, DISKSTATS_BUF);
	if (r >= 0)
		parse_diskstats(text, &h->disk, out, found);
	free(text);
	return r < 0 ? (int)r : 0;
}

static int fs_used_pct(const char *path, double *pct)
{
	struct statvfs v;
	if (statvfs(path, &v) < 0)
		return -errno;
	uint64_t used = (uint64_t)(v.f_blocks - v.f_bfree);
	uint64_t avail = used + v.f_bavail;
	if (!avail)
		return -ENODATA;
	/* as df: used / (used + available to unprivileged users) */
	*pct = 100.0 * (double)used / (double)avail;
	return 0;
}

static void open_devices(struct sb_host *h, const struct sb_host_config *cfg)
{
	struct host_disk *d = &h->disk;
	bool found[SB_HOST_MAX_DISKS] = { false };
	for (unsigned i = 0; i < cfg->ndisks && d->n < SB_HOST_MAX_DISKS; i++)
		snprintf(d->name[d->n++], SB_HOST_NAME_MAX, "%s", cfg->disks[i]);
	if (!d->n)
		return;
	int err = read_all(h, d->base, found);
	for (unsigned i = 0; i < d->n; i++) {
		if (err)
			sb_host_set_errno(&d->st[i], "proc/diskstats", err);
		else if (!found[i])
			sb_host_set_absent(&d->st[i], "%s: not in proc/diskstats", d->name[i]);
		else
			d->st[i].present = true;
		d->prev[i] = d->base[i];
	}
}

static void disk_open(struct sb_host *h, const struct sb_host_config *cfg)
{
	struct host_disk *d = &h->disk;
	struct sb_host_status *st = &h->st[SB_HOST_DISK];
	open_devices(h, cfg);
	sb_host_set_absent(&d->fs_st, "no target filesystem given");
	if (cfg->fs_path && *cfg->fs_path) {
		double pct;
		int err = fs_used_pct(cfg->fs_path, &pct);
		snprintf(d->fs_path, sizeof(d->fs_path), "%s", cfg->fs_path);
		if (err)
			sb_host_set_errno(&d->fs_st, cfg->fs_path, err);
		else {
			d->fs_st.present = true;
			d->fs_st.reason[0] = 0;
			d->fs_max_pct = pct;
		}
	}
	for (unsigned i = 0; i < d->n; i++)
		if (d->st[i].present)
			st->present = true;
	if (d->fs_st.present)
		st->present = true;
	if (st->present)
		st->reason[0] = 0;
	else if (d->n)
		*st = d->st[0];
	else
		sb_host_set_absent(st, "no block device found under the job's files");
}

static void disk_sample(struct sb_host *h, double dt_s, struct sb_host_sample *s)
{
	struct host_disk *d = &h->disk;
	struct host_dstat cur[SB_HOST_MAX_DISKS];
	bool found[SB_HOST_MAX_DISKS] = { false };
	if (d->n && read_all(h, cur, found) == 0) {
		for (unsigned i = 0; i < d->n; i++) {
			if (!d->st[i].present || !found[i])
				continue;
			s->disk_read_bytes += sub(cur[i].rd_sect, d->prev[i].rd_sect) * 512;
			s->disk_write_bytes += sub(cur[i].wr_sect, d->prev[i].wr_sect) * 512;
			double u = 100.0 * (double)sub(cur[i].io_ticks, d->prev[i].io_ticks) / (dt_s * 1000.0);
			if (u > 100.0)
				u = 100.0;
			if (u > s->disk_util_pct)
				s->disk_util_pct = u;
			d->prev[i] = cur[i];
		}
	}
	double pct;
	if (d->fs_st.present && fs_used_pct(d->fs_path, &pct) == 0) {
		s->fs_used_pct = pct;
		if (pct > d->fs_max_pct)
			d->fs_max_pct = pct;
	}
}

static void disk_summary(const struct sb_host *h, double run_s, struct sb_host_disk_sum *o)
{
	const struct host_disk *d = &h->disk;
	uint64_t rd = 0, wr = 0;
	o->ndisks = d->n;
	for (unsigned i = 0; i < d->n; i++) {
		const struct host_dstat *b = &d->base[i], *c = &d->prev[i];
		struct sb_disk_util *u = &o->disk[i];
		o->disk_st[i] = d->st[i];
		snprintf(u->name, sizeof(u->name), "%s", d->name[i]);
		if (!d->st[i].present)
			continue;
		u->read_ios = sub(c->rd_ios, b->rd_ios);
		u->write_ios = sub(c->wr_ios, b->wr_ios);
		u->read_merges = sub(c->rd_merges, b->rd_merges);
		u->write_merges = sub(c->wr_merges, b->wr_merges);
		u->read_ticks = sub(c->rd_ticks, b->rd_ticks);
		u->write_ticks = sub(c->wr_ticks, b->wr_ticks);
		u->in_queue = sub(c->in_queue, b->in_queue);
		u->io_ticks = sub(c->io_ticks, b->io_ticks);
		u->util = run_s > 0 ? 100.0 * (double)u->io_ticks / (run_s * 1000.0) : 0;
		if (u->util > 100.0)
			u->util = 100.0;
		rd += sub(c->rd_sect, b->rd_sect);
		wr += sub(c->wr_sect, b->wr_sect);
	}
	o->total_disk_io_read_mb = (double)rd * 512 / 1e6;
	o->total_disk_io_write_mb = (double)wr * 512 / 1e6;
	bool any = false;
	for (unsigned i = 0; i < d->n; i++)
		any |= d->st[i].present;
	if (any)
		o->total_st.present = true;
	else
		sb_host_set_absent(&o->total_st, "no device measured");
	o->fs_st = d->fs_st;
	o->max_t_disk_usage_percent = d->fs_max_pct;
}

/* ---- the collector (stats/host/collector.h) ---- */

static int disk_open_op(struct sb_host *h, const struct sb_host_config *cfg)
{
	disk_open(h, cfg);
	return 0;
}

static void disk_summary_op(const struct sb_host *h, double run_s, void *sum)
{
	struct sb_host_disk_sum *o = sum;
	o->st = h->st[SB_HOST_DISK];
	if (h->which & (1u << SB_HOST_DISK))
		disk_summary(h, run_s, o);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define E(key, kind) { #key, kind, offsetof(struct sb_disk_util, key), 0, false, NULL, NULL }
static const struct sb_host_field disk_dev_fields[] = {
	E(name, SB_HK_STR),
	E(read_ios, SB_HK_U64),
	E(write_ios, SB_HK_U64),
	E(read_merges, SB_HK_U64),
	E(write_merges, SB_HK_U64),
	E(read_ticks, SB_HK_U64),
	E(write_ticks, SB_HK_U64),
	E(in_queue, SB_HK_U64),
	E(util, SB_HK_DBL),
	{ .kind = SB_HK_END },
};
#undef E
static const struct sb_host_list disk_devices = {
	.count_off = offsetof(struct sb_host_disk_sum, ndisks),
	.elem_off = offsetof(struct sb_host_disk_sum, disk),
	.elem_size = sizeof(struct sb_disk_util),
	.st_at = SB_HOST_AT(struct sb_host_disk_sum, disk_st),
	.st_size = sizeof(struct sb_host_status),
	.when_absent = true,
	.fields = disk_dev_fields,
};
#define TOTAL SB_HOST_AT(struct sb_host_disk_sum, total_st)
#define FS SB_HOST_AT(struct sb_host_disk_sum, fs_st)
#define F(key, gate, akey) { #key, SB_HK_DBL, offsetof(struct sb_host_disk_sum, key), gate, akey, NULL, NULL }
static const struct sb_host_field disk_fields[] = {
	{ .key = "devices", .kind = SB_HK_LIST, .list = &disk_devices },
	F(total_disk_io_read_mb, TOTAL, false),   /* no device measured: no totals rather than zeros */
	F(total_disk_io_write_mb, TOTAL, false),
	F(max_t_disk_usage_percent, FS, true),
	{ .kind = SB_HK_END },
};
#undef F

static const struct sb_host_line disk_lines[] = {
	{ .list = "devices", .each = "disk {name}: ios={read_ios}/{write_ios}, merge={read_merges}/{write_merges}, "
	  "ticks={read_ticks}/{write_ticks}, in_queue={in_queue}, util={util:.2}%",
	  .absent = "disk {name}: absent ({reason})" },
	{ .text = "disk total: read={total_disk_io_read_mb:M}, write={total_disk_io_write_mb:M}", .gate = TOTAL },
	{ .text = "filesystem: max used={max_t_disk_usage_percent:.1}%", .gate = FS },
	{ 0 },
};
#undef TOTAL
#undef FS

/* its series columns */
static const struct sb_host_col disk_cols[] = {
	SB_HOST_COL(disk_read_bytes, SB_HK_U64, SB_HM_SUM),
	SB_HOST_COL(disk_write_bytes, SB_HK_U64, SB_HM_SUM),
	SB_HOST_COL(disk_util_pct, SB_HK_DBL, SB_HM_WMEAN),
	SB_HOST_COL(fs_used_pct, SB_HK_DBL, SB_HM_MAX),
	{ .kind = SB_HK_END },
};

const struct sb_host_collector sb_host_disk_collector = {
	.name = "disk",
	.src = SB_HOST_DISK,
	.open = disk_open_op,
	.sample = disk_sample,
	.summary = disk_summary_op,
	.sum_size = sizeof(struct sb_host_disk_sum),
	.fields = disk_fields,
	.lines = disk_lines,
	.cols = disk_cols,
};
