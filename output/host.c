/* host.c: the host counters (stats/host.h) as output - the members of the
 * JSON "host" object and the short "host" section of normal output.  Reads
 * only the sampler's summary, status and series, never its state. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/host.h"
#include "output/jsonw.h"

/* a figure that could not be computed is null, not 0 (0 would be a reading) */
static void num(struct sb_jw *w, const char *key, double v)
{
	if (isfinite(v))
		sb_jw_dbl(w, key, v);
	else
		sb_jw_null(w, key);
}

static void absent(struct sb_jw *w, const struct sb_host_status *st)
{
	sb_jw_bool(w, "absent", true);
	sb_jw_str(w, "reason", st->reason);
}

static void emit_cpu(struct sb_jw *w, const struct sb_host_cpu_sum *c)
{
	sb_jw_u64(w, "ncpus", c->ncpus);
	num(w, "cpu_avg_utilization_pct", c->cpu_avg_utilization_pct);
	num(w, "cpu_avg_utilization_over20_pct", c->cpu_avg_utilization_over20_pct);
	num(w, "cpu_avg_utilization_over40_pct", c->cpu_avg_utilization_over40_pct);
	num(w, "cpu_avg_utilization_over80_pct", c->cpu_avg_utilization_over80_pct);
	num(w, "cpu_avg_utilization_at100_pct", c->cpu_avg_utilization_at100_pct);
	num(w, "max_t_cpu_pct_per_cpu_avg", c->max_t_cpu_pct_per_cpu_avg);
	num(w, "max_t_cpu_pct_per_cpu_min", c->max_t_cpu_pct_per_cpu_min);
	num(w, "max_t_cpu_pct_per_cpu_max", c->max_t_cpu_pct_per_cpu_max);
	num(w, "node_cpu_hours", c->node_cpu_hours);
	num(w, "node_unused_cpu_hours", c->node_unused_cpu_hours);
}

static void emit_disk(struct sb_jw *w, const struct sb_host_disk_sum *d)
{
	sb_jw_arr_begin(w, "devices");
	for (unsigned i = 0; i < d->ndisks; i++) {
		const struct sb_disk_util *u = &d->disk[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "name", u->name);
		if (!d->disk_st[i].present) {
			absent(w, &d->disk_st[i]);
		} else {
			sb_jw_u64(w, "read_ios", u->read_ios);
			sb_jw_u64(w, "write_ios", u->write_ios);
			sb_jw_u64(w, "read_merges", u->read_merges);
			sb_jw_u64(w, "write_merges", u->write_merges);
			sb_jw_u64(w, "read_ticks", u->read_ticks);
			sb_jw_u64(w, "write_ticks", u->write_ticks);
			sb_jw_u64(w, "in_queue", u->in_queue);
			num(w, "util", u->util);
		}
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	bool any = false;
	for (unsigned i = 0; i < d->ndisks; i++)
		any |= d->disk_st[i].present;
	if (any) {   /* no device measured: no totals rather than zeros */
		num(w, "total_disk_io_read_mb", d->total_disk_io_read_mb);
		num(w, "total_disk_io_write_mb", d->total_disk_io_write_mb);
	}
	if (d->fs_st.present)
		num(w, "max_t_disk_usage_percent", d->max_t_disk_usage_percent);
	else
		sb_jw_str(w, "max_t_disk_usage_percent_absent", d->fs_st.reason);
}

static void emit_small(struct sb_jw *w, const struct sb_host_summary *s, unsigned src)
{
	if (src == SB_HOST_MEM) {
		sb_jw_u64(w, "mem_total_bytes", s->mem.mem_total_bytes);
		num(w, "max_t_mem_percent", s->mem.max_t_mem_percent);
		sb_jw_u64(w, "peak_dirty_bytes", s->mem.peak_dirty_bytes);
		sb_jw_u64(w, "peak_writeback_bytes", s->mem.peak_writeback_bytes);
	} else if (src == SB_HOST_NET) {
		num(w, "total_net_io_lo_sent_mb", s->net.total_net_io_lo_sent_mb);
		num(w, "total_net_io_lo_recv_mb", s->net.total_net_io_lo_recv_mb);
		num(w, "total_net_io_ext_sent_mb", s->net.total_net_io_ext_sent_mb);
		num(w, "total_net_io_ext_recv_mb", s->net.total_net_io_ext_recv_mb);
	} else if (src == SB_HOST_IB) {
		sb_jw_arr_begin(w, "ports");
		for (unsigned i = 0; i < s->ib.nports; i++) {
			const struct sb_host_ib_port *p = &s->ib.port[i];
			sb_jw_obj_begin(w, NULL);
			sb_jw_str(w, "name", p->name);
			sb_jw_u64(w, "xmit_bytes", p->xmit_bytes);
			sb_jw_u64(w, "rcv_bytes", p->rcv_bytes);
			sb_jw_u64(w, "xmit_packets", p->xmit_packets);
			sb_jw_u64(w, "rcv_packets", p->rcv_packets);
			sb_jw_obj_end(w);
		}
		sb_jw_arr_end(w);
		num(w, "total_ib_xmit_mb", s->ib.total_ib_xmit_mb);
		num(w, "total_ib_rcv_mb", s->ib.total_ib_rcv_mb);
	} else if (src == SB_HOST_RAPL) {
		sb_jw_arr_begin(w, "domains");
		for (unsigned i = 0; i < s->rapl.ndomains; i++) {
			sb_jw_obj_begin(w, NULL);
			sb_jw_str(w, "name", s->rapl.dom[i].name);
			num(w, "joules", s->rapl.dom[i].joules);
			num(w, "mean_watts", s->rapl.dom[i].mean_watts);
			sb_jw_obj_end(w);
		}
		sb_jw_arr_end(w);
	}
}

static void emit_perf(struct sb_jw *w, const struct sb_host_perf_sum *p)
{
	sb_jw_u64(w, "threads", p->nthreads);
	sb_jw_arr_begin(w, "events");
	for (unsigned i = 0; i < p->nevents; i++) {
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "name", p->ev[i].name);
		if (p->ev[i].st.present) {
			sb_jw_u64(w, "count", p->ev[i].count);
			if (p->ev[i].user_only)
				sb_jw_bool(w, "user_only", true);
		} else
			absent(w, &p->ev[i].st);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
}

static void emit_gpu(struct sb_jw *w, const struct sb_host_gpu_sum *g)
{
	sb_jw_arr_begin(w, "devices");
	for (unsigned i = 0; i < g->ngpus; i++) {
		const struct sb_host_gpu_dev *d = &g->gpu[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "name", d->name);
		num(w, "mean_util_pct", d->mean_util_pct);
		num(w, "max_util_pct", d->max_util_pct);
		sb_jw_u64(w, "peak_mem_used_bytes", d->peak_mem_used_bytes);
		num(w, "mean_pcie_tx_mbps", d->mean_pcie_tx_mbps);
		num(w, "mean_pcie_rx_mbps", d->mean_pcie_rx_mbps);
		num(w, "mean_power_w", d->mean_power_w);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
}

static void emit_one(struct sb_jw *w, const struct sb_host_sample *x, const bool *on)
{
	sb_jw_obj_begin(w, NULL);
	sb_jw_u64(w, "t_ms", x->t_ms);
	sb_jw_u64(w, "dur_ms", x->dur_ms);
	if (on[SB_HOST_CPU]) {
		num(w, "cpu_avg", x->cpu_avg);
		num(w, "cpu_min", x->cpu_min);
		num(w, "cpu_max", x->cpu_max);
	}
	if (on[SB_HOST_MEM]) {
		num(w, "mem_pct", x->mem_pct);
		sb_jw_u64(w, "dirty_bytes", x->dirty_bytes);
		sb_jw_u64(w, "writeback_bytes", x->writeback_bytes);
	}
	if (on[SB_HOST_DISK]) {
		sb_jw_u64(w, "disk_read_bytes", x->disk_read_bytes);
		sb_jw_u64(w, "disk_write_bytes", x->disk_write_bytes);
		num(w, "disk_util_pct", x->disk_util_pct);
		num(w, "fs_used_pct", x->fs_used_pct);
	}
	if (on[SB_HOST_NET]) {
		sb_jw_u64(w, "net_lo_sent", x->net_lo_sent);
		sb_jw_u64(w, "net_lo_recv", x->net_lo_recv);
		sb_jw_u64(w, "net_ext_sent", x->net_ext_sent);
		sb_jw_u64(w, "net_ext_recv", x->net_ext_recv);
	}
	if (on[SB_HOST_IB]) {
		sb_jw_u64(w, "ib_xmit_bytes", x->ib_xmit_bytes);
		sb_jw_u64(w, "ib_rcv_bytes", x->ib_rcv_bytes);
	}
	if (on[SB_HOST_RAPL])
		num(w, "rapl_watts", x->rapl_watts);
	if (on[SB_HOST_GPU]) {
		num(w, "gpu_util_pct", x->gpu_util_pct);
		sb_jw_u64(w, "gpu_mem_used_bytes", x->gpu_mem_used_bytes);
		num(w, "gpu_power_w", x->gpu_power_w);
	}
	sb_jw_obj_end(w);
}

static void emit_series(struct sb_jw *w, const struct sb_host *h, const struct sb_host_summary *s)
{
	bool on[SB_HOST_NSRC];
	for (unsigned i = 0; i < SB_HOST_NSRC; i++)
		on[i] = sb_host_present(h, i);
	sb_jw_u64(w, "series_intervals_per_sample", s->series_intervals_per_sample);
	sb_jw_arr_begin(w, "series");
	struct sb_host_sample *ser = s->nseries ? calloc(s->nseries, sizeof(*ser)) : NULL;
	unsigned n = ser ? sb_host_series(h, ser, s->nseries) : 0;
	for (unsigned i = 0; i < n; i++)
		emit_one(w, &ser[i], on);
	free(ser);
	sb_jw_arr_end(w);
}

void sb_out_host_json(struct sb_jw *w, const struct sb_host *h)
{
	struct sb_host_summary *s = malloc(sizeof(*s));
	if (!s)
		return;
	sb_host_summary(h, s);
	num(w, "run_s", s->run_s);
	sb_jw_u64(w, "samples", s->nsamples);
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		const struct sb_host_status *st = sb_host_status(h, src);
		sb_jw_obj_begin(w, sb_host_src_name(src));
		if (src == SB_HOST_DISK && s->disk.ndisks) {
			/* per-device status even when none was found */
			if (!st->present)
				absent(w, st);
			emit_disk(w, &s->disk);
		} else if (src == SB_HOST_PERF && s->perf.nevents) {
			if (!st->present)
				absent(w, st);
			emit_perf(w, &s->perf);
		} else if (!st->present) {
			absent(w, st);
		} else if (src == SB_HOST_CPU) {
			emit_cpu(w, &s->cpu);
		} else if (src == SB_HOST_DISK) {
			emit_disk(w, &s->disk);
		} else if (src == SB_HOST_GPU) {
			emit_gpu(w, &s->gpu);
		} else {
			emit_small(w, s, src);
		}
		sb_jw_obj_end(w);
	}
	emit_series(w, h, s);
	free(s);
}

/* ---- normal output ---- */

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

void sb_out_host_normal(FILE *f, const struct sb_host *h)
{
	struct sb_host_summary *s = malloc(sizeof(*s));
	if (!s)
		return;
	sb_host_summary(h, s);
	fprintf(f, "  host (%u samples over %.1fs):\n", s->nsamples, s->run_s);
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		const struct sb_host_status *st = sb_host_status(h, src);
		if (!(s->which & (1u << src)))
			continue;   /* not requested: nothing to say */
		if (st->present)
			print_present(f, s, src);
		else
			fprintf(f, "    %s: absent (%s)\n", sb_host_src_name(src), st->reason);
	}
	free(s);
}
