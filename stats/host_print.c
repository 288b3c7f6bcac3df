/* host_print.c: the short "host" section of normal output - one line per
 * source, the figures that tell whether the host limited the run. */
#include <stdlib.h>

#include "stats/host_priv.h"

static void bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	unsigned u = 0;
	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	snprintf(buf, len, u ? "%.1f%s" : "%.0f%s", v, unit[u]);
}

static void print_disk(FILE *f, const struct sb_host_disk_sum *d)
{
	for (unsigned i = 0; i < d->ndisks; i++) {
		const struct sb_disk_util *u = &d->disk[i];
		if (!d->disk_st[i].present) {
			fprintf(f, "    disk %s: absent (%s)\n", u->name, d->disk_st[i].reason);
			continue;
		}
		fprintf(f, "    disk %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, util=%.2f%%\n",
			u->name, (unsigned long long)u->read_ios, (unsigned long long)u->write_ios,
			(unsigned long long)u->read_merges, (unsigned long long)u->write_merges,
			(unsigned long long)u->read_ticks, (unsigned long long)u->write_ticks,
			(unsigned long long)u->in_queue, u->util);
	}
	bool any = false;
	for (unsigned i = 0; i < d->ndisks; i++)
		any |= d->disk_st[i].present;
	if (any)
		fprintf(f, "    disk total: read=%.2fMB, write=%.2fMB\n",
			d->total_disk_io_read_mb, d->total_disk_io_write_mb);
	if (d->fs_st.present)
		fprintf(f, "    filesystem: max used=%.1f%%\n", d->max_t_disk_usage_percent);
}

static void print_perf(FILE *f, const struct sb_host_perf_sum *p)
{
	fprintf(f, "    perf (%u threads):", p->nthreads);
	for (unsigned i = 0; i < p->nevents; i++) {
		if (p->ev[i].st.present)
			fprintf(f, " %s=%llu%s", p->ev[i].name, (unsigned long long)p->ev[i].count,
				p->ev[i].user_only ? "(user)" : "");
		else
			fprintf(f, " %s=absent", p->ev[i].name);
	}
	fputc('\n', f);
}

static void print_present(FILE *f, const struct sb_host_summary *s, unsigned src)
{
	char a[32], b[32];
	const struct sb_host_cpu_sum *c = &s->cpu;
	switch (src) {
	case SB_HOST_CPU:
		fprintf(f, "    cpu (%u): avg=%.1f%%, max avg=%.1f%%, max min=%.1f%%, max max=%.1f%%, "
			"samples avg>80%%=%.1f%%, used=%.4f cpu-h, unused=%.4f cpu-h\n",
			c->ncpus, c->cpu_avg_utilization_pct, c->max_t_cpu_pct_per_cpu_avg,
			c->max_t_cpu_pct_per_cpu_min, c->max_t_cpu_pct_per_cpu_max,
			c->cpu_avg_utilization_over80_pct, c->node_cpu_hours, c->node_unused_cpu_hours);
		break;
	case SB_HOST_MEM:
		bytes(a, sizeof(a), s->mem.peak_dirty_bytes);
		bytes(b, sizeof(b), s->mem.peak_writeback_bytes);
		fprintf(f, "    mem: max used=%.1f%%, peak dirty=%s, peak writeback=%s\n",
			s->mem.max_t_mem_percent, a, b);
		break;
	case SB_HOST_DISK:
		print_disk(f, &s->disk);
		break;
	case SB_HOST_NET:
		fprintf(f, "    net: lo sent/recv=%.2f/%.2fMB, ext sent/recv=%.2f/%.2fMB\n",
			s->net.total_net_io_lo_sent_mb, s->net.total_net_io_lo_recv_mb,
			s->net.total_net_io_ext_sent_mb, s->net.total_net_io_ext_recv_mb);
		break;
	case SB_HOST_IB:
		fprintf(f, "    ib (%u ports): xmit=%.2fMB, rcv=%.2fMB\n", s->ib.nports,
			s->ib.total_ib_xmit_mb, s->ib.total_ib_rcv_mb);
		break;
	case SB_HOST_RAPL:
		fprintf(f, "    rapl:");
		for (unsigned i = 0; i < s->rapl.ndomains; i++)
			fprintf(f, " %s=%.1fJ (%.1fW)", s->rapl.dom[i].name,
				s->rapl.dom[i].joules, s->rapl.dom[i].mean_watts);
		fputc('\n', f);
		break;
	case SB_HOST_PERF:
		print_perf(f, &s->perf);
		break;
	case SB_HOST_GPU:
		for (unsigned i = 0; i < s->gpu.ngpus; i++) {
			const struct sb_host_gpu_dev *g = &s->gpu.gpu[i];
			bytes(a, sizeof(a), g->peak_mem_used_bytes);
			fprintf(f, "    gpu%u %s: util avg/max=%.1f/%.1f%%, peak mem=%s, pcie tx/rx=%.1f/%.1fMB/s, power=%.1fW\n",
				i, g->name, g->mean_util_pct, g->max_util_pct, a,
				g->mean_pcie_tx_mbps, g->mean_pcie_rx_mbps, g->mean_power_w);
		}
		break;
	}
}

void sb_host_print(const struct sb_host *h, FILE *f)
{
	struct sb_host_summary *s = malloc(sizeof(*s));
	if (!s)
		return;
	sb_host_summary(h, s);
	fprintf(f, "  host (%u samples over %.1fs):\n", s->nsamples, s->run_s);
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		if (!(h->which & (1u << src)))
			continue;   /* not requested: nothing to say */
		if (h->st[src].present)
			print_present(f, s, src);
		else
			fprintf(f, "    %s: absent (%s)\n", sb_host_src_name(src), h->st[src].reason);
	}
	free(s);
}
