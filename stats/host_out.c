/* host_out.c: the host counters as output - the members of the JSON "host"
 * object through a small emitter interface (so output/json.c can embed
 * them with its own writer), a ready JSON-to-FILE emitter, and the short
 * "host" section of normal output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/host_priv.h"

static void absent(const struct sb_host_emitter *e, const struct sb_host_status *st)
{
	e->boolean(e->ctx, "absent", true);
	e->str(e->ctx, "reason", st->reason);
}

static void emit_cpu(const struct sb_host_emitter *e, const struct sb_host_cpu_sum *c)
{
	e->u64(e->ctx, "ncpus", c->ncpus);
	e->num(e->ctx, "cpu_avg_utilization_pct", c->cpu_avg_utilization_pct);
	e->num(e->ctx, "cpu_avg_utilization_over20_pct", c->cpu_avg_utilization_over20_pct);
	e->num(e->ctx, "cpu_avg_utilization_over40_pct", c->cpu_avg_utilization_over40_pct);
	e->num(e->ctx, "cpu_avg_utilization_over80_pct", c->cpu_avg_utilization_over80_pct);
	e->num(e->ctx, "cpu_avg_utilization_at100_pct", c->cpu_avg_utilization_at100_pct);
	e->num(e->ctx, "max_t_cpu_pct_per_cpu_avg", c->max_t_cpu_pct_per_cpu_avg);
	e->num(e->ctx, "max_t_cpu_pct_per_cpu_min", c->max_t_cpu_pct_per_cpu_min);
	e->num(e->ctx, "max_t_cpu_pct_per_cpu_max", c->max_t_cpu_pct_per_cpu_max);
	e->num(e->ctx, "node_cpu_hours", c->node_cpu_hours);
	e->num(e->ctx, "node_unused_cpu_hours", c->node_unused_cpu_hours);
}

static void emit_disk(const struct sb_host_emitter *e, const struct sb_host_disk_sum *d)
{
	e->begin_array(e->ctx, "devices");
	for (unsigned i = 0; i < d->ndisks; i++) {
		const struct sb_disk_util *u = &d->disk[i];
		e->begin_object(e->ctx, NULL);
		e->str(e->ctx, "name", u->name);
		if (!d->disk_st[i].present) {
			absent(e, &d->disk_st[i]);
		} else {
			e->u64(e->ctx, "read_ios", u->read_ios);
			e->u64(e->ctx, "write_ios", u->write_ios);
			e->u64(e->ctx, "read_merges", u->read_merges);
			e->u64(e->ctx, "write_merges", u->write_merges);
			e->u64(e->ctx, "read_ticks", u->read_ticks);
			e->u64(e->ctx, "write_ticks", u->write_ticks);
			e->u64(e->ctx, "in_queue", u->in_queue);
			e->num(e->ctx, "util", u->util);
		}
		e->end_object(e->ctx);
	}
	e->end_array(e->ctx);
	bool any = false;
	for (unsigned i = 0; i < d->ndisks; i++)
		any |= d->disk_st[i].present;
	if (any) {   /* no device measured: no totals rather than zeros */
		e->num(e->ctx, "total_disk_io_read_mb", d->total_disk_io_read_mb);
		e->num(e->ctx, "total_disk_io_write_mb", d->total_disk_io_write_mb);
	}
	if (d->fs_st.present)
		e->num(e->ctx, "max_t_disk_usage_percent", d->max_t_disk_usage_percent);
	else
		e->str(e->ctx, "max_t_disk_usage_percent_absent", d->fs_st.reason);
}

static void emit_small(const struct sb_host_emitter *e, const struct sb_host_summary *s, unsigned src)
{
	if (src == SB_HOST_MEM) {
		e->u64(e->ctx, "mem_total_bytes", s->mem.mem_total_bytes);
		e->num(e->ctx, "max_t_mem_percent", s->mem.max_t_mem_percent);
		e->u64(e->ctx, "peak_dirty_bytes", s->mem.peak_dirty_bytes);
		e->u64(e->ctx, "peak_writeback_bytes", s->mem.peak_writeback_bytes);
	} else if (src == SB_HOST_NET) {
		e->num(e->ctx, "total_net_io_lo_sent_mb", s->net.total_net_io_lo_sent_mb);
		e->num(e->ctx, "total_net_io_lo_recv_mb", s->net.total_net_io_lo_recv_mb);
		e->num(e->ctx, "total_net_io_ext_sent_mb", s->net.total_net_io_ext_sent_mb);
		e->num(e->ctx, "total_net_io_ext_recv_mb", s->net.total_net_io_ext_recv_mb);
	} else if (src == SB_HOST_IB) {
		e->begin_array(e->ctx, "ports");
		for (unsigned i = 0; i < s->ib.nports; i++) {
			const struct sb_host_ib_port *p = &s->ib.port[i];
			e->begin_object(e->ctx, NULL);
			e->str(e->ctx, "name", p->name);
			e->u64(e->ctx, "xmit_bytes", p->xmit_bytes);
			e->u64(e->ctx, "rcv_bytes", p->rcv_bytes);
			e->u64(e->ctx, "xmit_packets", p->xmit_packets);
			e->u64(e->ctx, "rcv_packets", p->rcv_packets);
			e->end_object(e->ctx);
		}
		e->end_array(e->ctx);
		e->num(e->ctx, "total_ib_xmit_mb", s->ib.total_ib_xmit_mb);
		e->num(e->ctx, "total_ib_rcv_mb", s->ib.total_ib_rcv_mb);
	} else if (src == SB_HOST_RAPL) {
		e->begin_array(e->ctx, "domains");
		for (unsigned i = 0; i < s->rapl.ndomains; i++) {
			e->begin_object(e->ctx, NULL);
			e->str(e->ctx, "name", s->rapl.dom[i].name);
			e->num(e->ctx, "joules", s->rapl.dom[i].joules);
			e->num(e->ctx, "mean_watts", s->rapl.dom[i].mean_watts);
			e->end_object(e->ctx);
		}
		e->end_array(e->ctx);
	}
}

static void emit_perf(const struct sb_host_emitter *e, const struct sb_host_perf_sum *p)
{
	e->u64(e->ctx, "threads", p->nthreads);
	e->begin_array(e->ctx, "events");
	for (unsigned i = 0; i < p->nevents; i++) {
		e->begin_object(e->ctx, NULL);
		e->str(e->ctx, "name", p->ev[i].name);
		if (p->ev[i].st.present) {
			e->u64(e->ctx, "count", p->ev[i].count);
			if (p->ev[i].user_only)
				e->boolean(e->ctx, "user_only", true);
		} else
			absent(e, &p->ev[i].st);
		e->end_object(e->ctx);
	}
	e->end_array(e->ctx);
}

static void emit_gpu(const struct sb_host_emitter *e, const struct sb_host_gpu_sum *g)
{
	e->begin_array(e->ctx, "devices");
	for (unsigned i = 0; i < g->ngpus; i++) {
		const struct sb_host_gpu_dev *d = &g->gpu[i];
		e->begin_object(e->ctx, NULL);
		e->str(e->ctx, "name", d->name);
		e->num(e->ctx, "mean_util_pct", d->mean_util_pct);
		e->num(e->ctx, "max_util_pct", d->max_util_pct);
		e->u64(e->ctx, "peak_mem_used_bytes", d->peak_mem_used_bytes);
		e->num(e->ctx, "mean_pcie_tx_mbps", d->mean_pcie_tx_mbps);
		e->num(e->ctx, "mean_pcie_rx_mbps", d->mean_pcie_rx_mbps);
		e->num(e->ctx, "mean_power_w", d->mean_power_w);
		e->end_object(e->ctx);
	}
	e->end_array(e->ctx);
}

static void emit_one(const struct sb_host_emitter *e, const struct sb_host_sample *x, const bool *on)
{
	e->begin_object(e->ctx, NULL);
	e->u64(e->ctx, "t_ms", x->t_ms);
	e->u64(e->ctx, "dur_ms", x->dur_ms);
	if (on[SB_HOST_CPU]) {
		e->num(e->ctx, "cpu_avg", x->cpu_avg);
		e->num(e->ctx, "cpu_min", x->cpu_min);
		e->num(e->ctx, "cpu_max", x->cpu_max);
	}
	if (on[SB_HOST_MEM]) {
		e->num(e->ctx, "mem_pct", x->mem_pct);
		e->u64(e->ctx, "dirty_bytes", x->dirty_bytes);
		e->u64(e->ctx, "writeback_bytes", x->writeback_bytes);
	}
	if (on[SB_HOST_DISK]) {
		e->u64(e->ctx, "disk_read_bytes", x->disk_read_bytes);
		e->u64(e->ctx, "disk_write_bytes", x->disk_write_bytes);
		e->num(e->ctx, "disk_util_pct", x->disk_util_pct);
		e->num(e->ctx, "fs_used_pct", x->fs_used_pct);
	}
	if (on[SB_HOST_NET]) {
		e->u64(e->ctx, "net_lo_sent", x->net_lo_sent);
		e->u64(e->ctx, "net_lo_recv", x->net_lo_recv);
		e->u64(e->ctx, "net_ext_sent", x->net_ext_sent);
		e->u64(e->ctx, "net_ext_recv", x->net_ext_recv);
	}
	if (on[SB_HOST_IB]) {
		e->u64(e->ctx, "ib_xmit_bytes", x->ib_xmit_bytes);
		e->u64(e->ctx, "ib_rcv_bytes", x->ib_rcv_bytes);
	}
	if (on[SB_HOST_RAPL])
		e->num(e->ctx, "rapl_watts", x->rapl_watts);
	if (on[SB_HOST_GPU]) {
		e->num(e->ctx, "gpu_util_pct", x->gpu_util_pct);
		e->u64(e->ctx, "gpu_mem_used_bytes", x->gpu_mem_used_bytes);
		e->num(e->ctx, "gpu_power_w", x->gpu_power_w);
	}
	e->end_object(e->ctx);
}

static void emit_series(const struct sb_host *h, const struct sb_host_emitter *e)
{
	bool on[SB_HOST_NSRC];
	for (unsigned i = 0; i < SB_HOST_NSRC; i++)
		on[i] = h->st[i].present;
	e->u64(e->ctx, "series_intervals_per_sample", h->stride);
	e->begin_array(e->ctx, "series");
	for (unsigned i = 0; i < h->nser; i++)
		emit_one(e, &h->ser[i], on);
	if (h->npend)
		emit_one(e, &h->pend, on);
	e->end_array(e->ctx);
}

void sb_host_emit(const struct sb_host *h, const struct sb_host_emitter *e)
{
	struct sb_host_summary *s = malloc(sizeof(*s));
	if (!s)
		return;
	sb_host_summary(h, s);
	e->num(e->ctx, "run_s", s->run_s);
	e->u64(e->ctx, "samples", s->nsamples);
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		e->begin_object(e->ctx, sb_host_src_name(src));
		if (src == SB_HOST_DISK && h->disk.n) {
			/* per-device status even when none was found */
			if (!h->st[src].present)
				absent(e, &h->st[src]);
			emit_disk(e, &s->disk);
		} else if (src == SB_HOST_PERF && s->perf.nevents) {
			if (!h->st[src].present)
				absent(e, &h->st[src]);
			emit_perf(e, &s->perf);
		} else if (!h->st[src].present) {
			absent(e, &h->st[src]);
		} else if (src == SB_HOST_CPU) {
			emit_cpu(e, &s->cpu);
		} else if (src == SB_HOST_DISK) {
			emit_disk(e, &s->disk);
		} else if (src == SB_HOST_GPU) {
			emit_gpu(e, &s->gpu);
		} else {
			emit_small(e, s, src);
		}
		e->end_object(e->ctx);
	}
	emit_series(h, e);
	free(s);
}
