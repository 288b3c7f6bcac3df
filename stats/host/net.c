/* net.c: network bytes from /proc/net/dev, split into loopback ("lo")
 * and external (every other interface), as deltas since the run began. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/host/priv.h"

/* Reads every interface: n or -errno. */
static int read_netdev(const struct sb_host *h, struct host_netif *out, unsigned max)
{
	char path[PATH_MAX], buf[32768];
	int err = sb_host_path(h, "proc/net/dev", path, sizeof(path));
	if (err)
		return err;
	ssize_t r = sb_host_read_file(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	unsigned n = 0;
	for (char *line = buf; line && *line && n < max;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		char *colon = strchr(line, ':');
		unsigned long long v[9];
		/* "  eth0: rx_bytes packets errs drop fifo frame compressed
		 *   multicast tx_bytes ..."; the two header lines have no ':' */
		if (colon && sscanf(colon + 1, "%llu %llu %llu %llu %llu %llu %llu %llu %llu",
				    &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) == 9) {
			*colon = 0;
			while (*line == ' ' || *line == '\t')
				line++;
			snprintf(out[n].name, sizeof(out[n].name), "%.31s", line);
			out[n].rx = v[0];
			out[n].tx = v[8];
			n++;
		}
		line = nl ? nl + 1 : NULL;
	}
	return (int)n;
}

static void net_open(struct sb_host *h)
{
	int n = read_netdev(h, h->net.prev, HOST_NET_MAX);
	if (n < 0) {
		sb_host_set_errno(&h->st[SB_HOST_NET], "proc/net/dev", n);
		return;
	}
	if (n == 0) {
		sb_host_set_absent(&h->st[SB_HOST_NET], "proc/net/dev: no interfaces");
		return;
	}
	h->net.n = (unsigned)n;
	h->st[SB_HOST_NET].present = true;
	h->st[SB_HOST_NET].reason[0] = 0;
}

static void net_sample(struct sb_host *h, double dt_s, struct sb_host_sample *s)
{
	struct host_net *nt = &h->net;
	struct host_netif cur[HOST_NET_MAX];
	(void)dt_s;
	int n = read_netdev(h, cur, HOST_NET_MAX);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		uint64_t rx0 = 0, tx0 = 0;   /* an interface new since the last read */
		for (unsigned j = 0; j < nt->n; j++)
			if (!strcmp(nt->prev[j].name, cur[i].name)) {
				rx0 = nt->prev[j].rx;
				tx0 = nt->prev[j].tx;
				break;
			}
		uint64_t drx = cur[i].rx >= rx0 ? cur[i].rx - rx0 : 0;
		uint64_t dtx = cur[i].tx >= tx0 ? cur[i].tx - tx0 : 0;
		if (!strcmp(cur[i].name, "lo")) {
			s->net_lo_recv += drx;
			s->net_lo_sent += dtx;
		} else {
			s->net_ext_recv += drx;
			s->net_ext_sent += dtx;
		}
	}
	nt->lo_rx += s->net_lo_recv;
	nt->lo_tx += s->net_lo_sent;
	nt->ext_rx += s->net_ext_recv;
	nt->ext_tx += s->net_ext_sent;
	memcpy(nt->prev, cur, (size_t)n * sizeof(cur[0]));
	nt->n = (unsigned)n;
}

static void net_summary(const struct sb_host *h, struct sb_host_net_sum *o)
{
	o->total_net_io_lo_sent_mb = (double)h->net.lo_tx / 1e6;
	o->total_net_io_lo_recv_mb = (double)h->net.lo_rx / 1e6;
	o->total_net_io_ext_sent_mb = (double)h->net.ext_tx / 1e6;
	o->total_net_io_ext_recv_mb = (double)h->net.ext_rx / 1e6;
}

/* ---- the collector (stats/host/collector.h) ---- */

static int net_open_op(struct sb_host *h, const struct sb_host_config *cfg)
{
	(void)cfg;
	net_open(h);
	return 0;
}

static void net_summary_op(const struct sb_host *h, double run_s, void *sum)
{
	struct sb_host_net_sum *o = sum;
	(void)run_s;
	o->st = h->st[SB_HOST_NET];
	if (o->st.present)
		net_summary(h, o);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define F(key, kind) { #key, kind, offsetof(struct sb_host_net_sum, key), 0, false, NULL, NULL }
static const struct sb_host_field net_fields[] = {
	F(total_net_io_lo_sent_mb, SB_HK_DBL),
	F(total_net_io_lo_recv_mb, SB_HK_DBL),
	F(total_net_io_ext_sent_mb, SB_HK_DBL),
	F(total_net_io_ext_recv_mb, SB_HK_DBL),
	{ .kind = SB_HK_END },
};
#undef F

static const struct sb_host_line net_lines[] = {
	{ .text = "net: lo sent={total_net_io_lo_sent_mb:M}, recv={total_net_io_lo_recv_mb:M}; "
	  "ext sent={total_net_io_ext_sent_mb:M}, recv={total_net_io_ext_recv_mb:M}" },
	{ 0 },
};

/* its series columns */
static const struct sb_host_col net_cols[] = {
	SB_HOST_COL(net_lo_sent, SB_HK_U64, SB_HM_SUM),
	SB_HOST_COL(net_lo_recv, SB_HK_U64, SB_HM_SUM),
	SB_HOST_COL(net_ext_sent, SB_HK_U64, SB_HM_SUM),
	SB_HOST_COL(net_ext_recv, SB_HK_U64, SB_HM_SUM),
	{ .kind = SB_HK_END },
};

const struct sb_host_collector sb_host_net_collector = {
	.name = "net",
	.src = SB_HOST_NET,
	.open = net_open_op,
	.sample = net_sample,
	.summary = net_summary_op,
	.sum_size = sizeof(struct sb_host_net_sum),
	.fields = net_fields,
	.lines = net_lines,
	.cols = net_cols,
};
