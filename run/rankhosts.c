/* rankhosts.c: host counters under MPI, once per host.  Only a host's
 * node-local rank 0 collects them (run/run.c turns the other ranks'
 * collectors off); after the run every rank sends rank 0 one fixed-size
 * digest (sb_host_digest: empty on the ranks that collected nothing) and
 * rank 0 keeps one per host, in rank order, with their sum: CPU-hours,
 * disk, network and InfiniBand totals added, the memory peak the largest. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "lib/log.h"
#include "run/ranks.h"
#include "stats/host.h"

static void digest(const struct sb_results *res, struct sb_host_digest *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->host, sizeof(d->host), "%s", sb_dist_hostname());
	d->rank = sb_dist_rank();
	if (!res->host)
		return;
	struct sb_host_summary *s = malloc(sizeof(*s));
	if (!s)
		return;
	sb_host_summary(res->host, s);
	d->run_s = s->run_s;
	const struct sb_host_cpu_sum *cpu = sb_host_sum_cpu(s);
	const struct sb_host_mem_sum *mem = sb_host_sum_mem(s);
	const struct sb_host_disk_sum *disk = sb_host_sum_disk(s);
	const struct sb_host_net_sum *net = sb_host_sum_net(s);
	const struct sb_host_ib_sum *ib = sb_host_sum_ib(s);
	if ((d->cpu = cpu && cpu->st.present)) {
		d->ncpus = cpu->ncpus;
		d->cpu_util_pct = cpu->cpu_avg_utilization_pct;
		d->cpu_hours = cpu->node_cpu_hours;
	}
	if ((d->mem = mem && mem->st.present)) {
		d->mem_total_bytes = mem->mem_total_bytes;
		d->mem_peak_pct = mem->max_t_mem_percent;
		d->mem_peak_bytes = (uint64_t)((double)mem->mem_total_bytes * mem->max_t_mem_percent / 100.0);
	}
	if ((d->disk = disk && disk->total_st.present)) {
		d->disk_read_mb = disk->total_disk_io_read_mb;
		d->disk_write_mb = disk->total_disk_io_write_mb;
	}
	if ((d->net = net && net->st.present)) {
		d->net_lo_sent_mb = net->total_net_io_lo_sent_mb;
		d->net_lo_recv_mb = net->total_net_io_lo_recv_mb;
		d->net_ext_sent_mb = net->total_net_io_ext_sent_mb;
		d->net_ext_recv_mb = net->total_net_io_ext_recv_mb;
	}
	if ((d->ib = ib && ib->st.present)) {
		d->ib_xmit_mb = ib->total_ib_xmit_mb;
		d->ib_rcv_mb = ib->total_ib_rcv_mb;
	}
	free(s);
}

static void add(struct sb_host_digest *c, const struct sb_host_digest *d)
{
	c->ncpus += d->ncpus;
	c->run_s = d->run_s > c->run_s ? d->run_s : c->run_s;
	c->cpu_hours += d->cpu_hours;
	c->mem_total_bytes += d->mem_total_bytes;
	if (d->mem_peak_bytes > c->mem_peak_bytes) {
		c->mem_peak_bytes = d->mem_peak_bytes;
		c->mem_peak_pct = d->mem_peak_pct;
	}
	c->disk_read_mb += d->disk_read_mb;
	c->disk_write_mb += d->disk_write_mb;
	c->net_lo_sent_mb += d->net_lo_sent_mb;
	c->net_lo_recv_mb += d->net_lo_recv_mb;
	c->net_ext_sent_mb += d->net_ext_sent_mb;
	c->net_ext_recv_mb += d->net_ext_recv_mb;
	c->ib_xmit_mb += d->ib_xmit_mb;
	c->ib_rcv_mb += d->ib_rcv_mb;
	c->cpu |= d->cpu;
	c->mem |= d->mem;
	c->disk |= d->disk;
	c->net |= d->net;
	c->ib |= d->ib;
}

int sb_ranks_hosts(struct sb_results *res)
{
	struct sb_host_digest mine, *all = NULL;
	int n = sb_dist_size();
	digest(res, &mine);
	if (sb_dist_rank() == 0 && !(all = calloc((size_t)n, sizeof(*all))))
		sb_dist_abort(SB_EXIT_IOERR); /* the others wait in the gather */
	int e = sb_dist_gather(&mine, sizeof(mine), all);
	if (e || sb_dist_rank() != 0) {
		free(all);
		return e;
	}
	/* one per host: the ranks whose collector ran (node-local rank 0) */
	unsigned k = 0;
	memset(&res->cluster, 0, sizeof(res->cluster));
	snprintf(res->cluster.host, sizeof(res->cluster.host), "cluster");
	res->cluster.rank = -1;
	for (int r = 0; r < n; r++) {
		if (!(all[r].cpu || all[r].mem || all[r].disk || all[r].net || all[r].ib))
			continue;
		all[k++] = all[r];
		add(&res->cluster, &all[r]);
	}
	free(res->hosts);
	res->hosts = k ? all : NULL;
	res->nhosts = k;
	if (!k)
		free(all);
	return 0;
}
