/* ib.c: InfiniBand/RoCE traffic from the port counters under
 * /sys/class/infiniband/<dev>/ports/<n>/counters.  port_xmit_data and
 * port_rcv_data count 4-byte words; the packet counters count packets.
 * Older HCAs have 32-bit counters that stick at their maximum: a counter
 * that goes down is taken as reset and adds nothing. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/host/priv.h"

static const char *const ib_files[4] = {
	"port_xmit_data", "port_rcv_data", "port_xmit_packets", "port_rcv_packets",
};

static int no_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* the four counters of port i: 0 or -errno (data counters are required) */
static int read_port(const struct sb_host *h, unsigned i, uint64_t v[4])
{
	for (unsigned k = 0; k < 4; k++) {
		char rel[PATH_MAX + 32], path[PATH_MAX];
		snprintf(rel, sizeof(rel), "%s/%s", h->ib.dir[i], ib_files[k]);
		v[k] = 0;
		int err = sb_host_path(h, rel, path, sizeof(path));
		if (!err)
			err = sb_host_read_u64(path, &v[k]);
		if (err && k < 2)
			return err;
	}
	return 0;
}

static void add_ports(struct sb_host *h, const char *dev)
{
	char rel[PATH_MAX], path[PATH_MAX];
	struct dirent **ports;
	snprintf(rel, sizeof(rel), "sys/class/infiniband/%s/ports", dev);
	if (sb_host_path(h, rel, path, sizeof(path)))
		return;
	int np = scandir(path, &ports, no_dot, alphasort);
	for (int p = 0; p < np; p++) {
		struct host_ib *ib = &h->ib;
		if (ib->n < SB_HOST_MAX_IB) {
			unsigned i = ib->n;
			snprintf(ib->dir[i], sizeof(ib->dir[i]), "%.2000s/%.200s/counters", rel, ports[p]->d_name);
			snprintf(ib->port[i].name, sizeof(ib->port[i].name), "%.40s:%.20s", dev, ports[p]->d_name);
			if (read_port(h, i, ib->prev[i]) == 0)
				ib->n++;
		}
		free(ports[p]);
	}
	if (np >= 0)
		free(ports);
}

static void ib_open(struct sb_host *h)
{
	char path[PATH_MAX];
	struct dirent **devs;
	struct sb_host_status *st = &h->st[SB_HOST_IB];
	int nd = -1;
	if (sb_host_path(h, "sys/class/infiniband", path, sizeof(path)) == 0)
		nd = scandir(path, &devs, no_dot, alphasort);
	if (nd < 0) {
		sb_host_set_errno(st, "sys/class/infiniband", errno);
		return;
	}
	for (int d = 0; d < nd; d++) {
		add_ports(h, devs[d]->d_name);
		free(devs[d]);
	}
	free(devs);
	if (!h->ib.n) {
		sb_host_set_absent(st, "sys/class/infiniband: no readable port counters");
		return;
	}
	st->present = true;
	st->reason[0] = 0;
}

static void ib_sample(struct sb_host *h, double dt_s, struct sb_host_sample *s)
{
	struct host_ib *ib = &h->ib;
	(void)dt_s;
	for (unsigned i = 0; i < ib->n; i++) {
		uint64_t v[4], d[4];
		if (read_port(h, i, v))
			continue;
		for (unsigned k = 0; k < 4; k++)
			d[k] = v[k] >= ib->prev[i][k] ? v[k] - ib->prev[i][k] : 0;
		ib->port[i].xmit_bytes += d[0] * 4;
		ib->port[i].rcv_bytes += d[1] * 4;
		ib->port[i].xmit_packets += d[2];
		ib->port[i].rcv_packets += d[3];
		s->ib_xmit_bytes += d[0] * 4;
		s->ib_rcv_bytes += d[1] * 4;
		memcpy(ib->prev[i], v, sizeof(v));
	}
}

static void ib_summary(const struct sb_host *h, struct sb_host_ib_sum *o)
{
	uint64_t tx = 0, rx = 0;
	o->nports = h->ib.n;
	for (unsigned i = 0; i < h->ib.n; i++) {
		o->port[i] = h->ib.port[i];
		tx += h->ib.port[i].xmit_bytes;
		rx += h->ib.port[i].rcv_bytes;
	}
	o->total_ib_xmit_mb = (double)tx / 1e6;
	o->total_ib_rcv_mb = (double)rx / 1e6;
}

/* ---- the collector (stats/host/collector.h) ---- */

static int ib_open_op(struct sb_host *h, const struct sb_host_config *cfg)
{
	(void)cfg;
	ib_open(h);
	return 0;
}

static void ib_summary_op(const struct sb_host *h, double run_s, void *sum)
{
	struct sb_host_ib_sum *o = sum;
	(void)run_s;
	o->st = h->st[SB_HOST_IB];
	if (o->st.present)
		ib_summary(h, o);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define P(key, kind) { #key, kind, offsetof(struct sb_host_ib_port, key), 0, false, NULL, NULL }
static const struct sb_host_field ib_port_fields[] = {
	P(name, SB_HK_STR),
	P(xmit_bytes, SB_HK_U64),
	P(rcv_bytes, SB_HK_U64),
	P(xmit_packets, SB_HK_U64),
	P(rcv_packets, SB_HK_U64),
	{ .kind = SB_HK_END },
};
#undef P
static const struct sb_host_list ib_ports = {
	.count_off = offsetof(struct sb_host_ib_sum, nports),
	.elem_off = offsetof(struct sb_host_ib_sum, port),
	.elem_size = sizeof(struct sb_host_ib_port),
	.fields = ib_port_fields,
};
#define F(key, kind) { #key, kind, offsetof(struct sb_host_ib_sum, key), 0, false, NULL, NULL }
static const struct sb_host_field ib_fields[] = {
	{ .key = "ports", .kind = SB_HK_LIST, .list = &ib_ports },
	F(total_ib_xmit_mb, SB_HK_DBL),
	F(total_ib_rcv_mb, SB_HK_DBL),
	{ .kind = SB_HK_END },
};
#undef F

static const struct sb_host_line ib_lines[] = {
	{ .text = "ib ({ports} ports): xmit={total_ib_xmit_mb:M}, rcv={total_ib_rcv_mb:M}" },
	{ 0 },
};

/* its series columns */
static const struct sb_host_col ib_cols[] = {
	SB_HOST_COL(ib_xmit_bytes, SB_HK_U64, SB_HM_SUM),
	SB_HOST_COL(ib_rcv_bytes, SB_HK_U64, SB_HM_SUM),
	{ .kind = SB_HK_END },
};

const struct sb_host_collector sb_host_ib_collector = {
	.name = "ib",
	.src = SB_HOST_IB,
	.open = ib_open_op,
	.sample = ib_sample,
	.summary = ib_summary_op,
	.sum_size = sizeof(struct sb_host_ib_sum),
	.fields = ib_fields,
	.lines = ib_lines,
	.cols = ib_cols,
};
