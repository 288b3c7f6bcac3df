/* perf.c: perf events counted on storbench's own I/O threads.  Event
 * names are libpfm4's (pfm_get_os_event_encoding with PFM_OS_PERF_EVENT);
 * perf_event_open counts each event on each thread and the counts are
 * summed (scaled by time enabled / time running when multiplexed).  An
 * event the kernel or the CPU cannot count (hardware events on most VMs)
 * is absent with the reason.  Without libpfm4 at build time the source is
 * absent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "stats/host/priv.h"

#ifdef CONFIG_LIBPFM4
#include <perfmon/pfmlib_perf_event.h>
#include <sys/syscall.h>

struct host_perf_ev {
	char name[SB_HOST_NAME_MAX];
	struct sb_host_status st;   /* reason of the last failure */
	bool encoded;
	struct perf_event_attr attr;
	bool user_only;             /* kernel side not allowed: counted in user space */
	int fd[SB_HOST_MAX_TIDS];
	unsigned nopen;
};

static void encode(struct host_perf_ev *ev)
{
	pfm_perf_encode_arg_t arg;
	memset(&arg, 0, sizeof(arg));
	memset(&ev->attr, 0, sizeof(ev->attr));
	arg.attr = &ev->attr;
	arg.size = sizeof(arg);
	int r = pfm_get_os_event_encoding(ev->name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (r != PFM_SUCCESS) {
		sb_host_set_absent(&ev->st, "libpfm4: %s", pfm_strerror(r));
		return;
	}
	ev->attr.size = sizeof(ev->attr);
	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	ev->attr.disabled = 0;
	ev->attr.inherit = 0;
	ev->encoded = true;
	sb_host_set_absent(&ev->st, "no thread counted");
}

/* scheduler events fire in the kernel: user-space-only counts are 0 */
static bool kernel_only(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES || a->config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

static int open_on(struct host_perf_ev *ev, pid_t tid)
{
	struct perf_event_attr a = ev->attr;
	long fd = syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int e = fd < 0 ? errno : 0;
	if ((e == EACCES || e == EPERM) && !a.exclude_kernel && !kernel_only(&a)) {
		/* perf_event_paranoid >= 2 without CAP_PERFMON: user space only */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		e = fd < 0 ? errno : 0;
		if (fd >= 0)
			ev->user_only = true;
	}
	if (fd >= 0)
		return (int)fd;
	if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
		sb_host_set_absent(&ev->st, "perf_event_open: %s (not supported by this CPU or VM)", strerror(e));
	else if (e == EACCES || e == EPERM)
		sb_host_set_absent(&ev->st, "perf_event_open: %s (needs kernel.perf_event_paranoid <= 1 "
				   "or CAP_PERFMON)", strerror(e));
	else
		sb_host_set_absent(&ev->st, "perf_event_open: %s", strerror(e));
	return -e;
}

static void update_status(struct sb_host *h)
{
	struct sb_host_status *st = &h->st[SB_HOST_PERF];
	for (unsigned i = 0; i < h->perf.nev; i++)
		if (h->perf.ev[i].nopen) {
			st->present = true;
			st->reason[0] = 0;
			return;
		}
	if (!h->perf.ntids)
		sb_host_set_absent(st, "no thread counted");
	else
		sb_host_set_absent(st, "no event could be counted");
}

int sb_host_perf_add_tid(struct sb_host *h, pid_t tid)
{
	struct host_perf *p = &h->perf;
	if (!p->ev)
		return 0;   /* perf not requested or not usable */
	if (p->ntids >= SB_HOST_MAX_TIDS)
		return -ENOSPC;
	for (unsigned i = 0; i < p->nev; i++) {
		struct host_perf_ev *ev = &p->ev[i];
		ev->fd[p->ntids] = ev->encoded ? open_on(ev, tid) : -1;
		if (ev->fd[p->ntids] >= 0)
			ev->nopen++;
	}
	p->ntids++;
	update_status(h);
	return 0;
}

static int perf_open(struct sb_host *h, const struct sb_host_config *cfg)
{
	struct host_perf *p = &h->perf;
	const char *list = cfg->perf_events && *cfg->perf_events ? cfg->perf_events : SB_HOST_PERF_DEFAULT;
	int r = pfm_initialize();
	if (r != PFM_SUCCESS) {
		sb_host_set_absent(&h->st[SB_HOST_PERF], "libpfm4: %s", pfm_strerror(r));
		return 0;
	}
	p->ev = calloc(SB_HOST_MAX_PERF, sizeof(*p->ev));
	if (!p->ev)
		return -ENOMEM;
	for (const char *s = list; *s && p->nev < SB_HOST_MAX_PERF;) {
		size_t len = strcspn(s, ",");
		if (len) {
			struct host_perf_ev *ev = &p->ev[p->nev++];
			snprintf(ev->name, sizeof(ev->name), "%.*s", (int)len, s);
			encode(ev);
		}
		s += len;
		if (*s == ',')
			s++;
	}
	for (unsigned i = 0; i < cfg->ntids; i++)
		sb_host_perf_add_tid(h, cfg->tids[i]);
	update_status(h);
	return 0;
}

static uint64_t read_scaled(int fd)
{
	uint64_t v[3];   /* value, time enabled, time running */
	if (read(fd, v, sizeof(v)) != (ssize_t)sizeof(v) || !v[2])
		return 0;
	if (v[2] >= v[1])
		return v[0];
	return (uint64_t)((double)v[0] * (double)v[1] / (double)v[2]);
}

static void perf_summary(const struct sb_host *h, struct sb_host_perf_sum *o)
{
	const struct host_perf *p = &h->perf;
	o->nevents = p->nev;
	o->nthreads = p->ntids;
	for (unsigned i = 0; i < p->nev; i++) {
		const struct host_perf_ev *ev = &p->ev[i];
		struct sb_host_perf_event *e = &o->ev[i];
		snprintf(e->name, sizeof(e->name), "%s", ev->name);
		e->st = ev->st;
		if (!ev->nopen)
			continue;
		e->st.present = true;
		e->st.reason[0] = 0;
		e->user_only = ev->user_only;
		for (unsigned t = 0; t < p->ntids; t++)
			if (ev->fd[t] >= 0)
				e->count += read_scaled(ev->fd[t]);
	}
}

static void perf_close(struct sb_host *h)
{
	struct host_perf *p = &h->perf;
	for (unsigned i = 0; p->ev && i < p->nev; i++)
		for (unsigned t = 0; t < p->ntids; t++)
			if (p->ev[i].fd[t] >= 0)
				close(p->ev[i].fd[t]);
	free(p->ev);
	p->ev = NULL;
}

#else /* !CONFIG_LIBPFM4 */

static int perf_open(struct sb_host *h, const struct sb_host_config *cfg)
{
	(void)cfg;
	sb_host_set_absent(&h->st[SB_HOST_PERF], "storbench built without libpfm4");
	return 0;
}

int sb_host_perf_add_tid(struct sb_host *h, pid_t tid)
{
	(void)h; (void)tid;
	return 0;
}

static void perf_summary(const struct sb_host *h, struct sb_host_perf_sum *o)
{
	(void)h; (void)o;
}

static void perf_close(struct sb_host *h)
{
	(void)h;
}
#endif

/* ---- the collector (stats/host/collector.h) ---- */

static void perf_summary_op(const struct sb_host *h, double run_s, void *sum)
{
	struct sb_host_perf_sum *o = sum;
	(void)run_s;
	o->st = h->st[SB_HOST_PERF];
	if (h->which & (1u << SB_HOST_PERF))
		perf_summary(h, o);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define E(key, kind) { #key, kind, offsetof(struct sb_host_perf_event, key), 0, false, NULL, NULL }
static const struct sb_host_field perf_ev_fields[] = {
	E(name, SB_HK_STR),
	E(count, SB_HK_U64),
	{ "user_only", SB_HK_FLAG, offsetof(struct sb_host_perf_event, user_only), 0, false, "(user)", NULL },
	{ .kind = SB_HK_END },
};
#undef E
static const struct sb_host_list perf_events = {
	.count_off = offsetof(struct sb_host_perf_sum, nevents),
	.elem_off = offsetof(struct sb_host_perf_sum, ev),
	.elem_size = sizeof(struct sb_host_perf_event),
	.st_at = SB_HOST_AT(struct sb_host_perf_sum, ev[0].st),
	.st_size = sizeof(struct sb_host_perf_event),
	.when_absent = true,
	.fields = perf_ev_fields,
};
static const struct sb_host_field perf_fields[] = {
	{ "threads", SB_HK_UINT, offsetof(struct sb_host_perf_sum, nthreads), 0, false, NULL, NULL },
	{ .key = "events", .kind = SB_HK_LIST, .list = &perf_events },
	{ .kind = SB_HK_END },
};

static const struct sb_host_line perf_lines[] = {
	{ .text = "perf ({threads} threads):", .list = "events", .inline_ = true,
	  .each = " {name}={count}{user_only}", .absent = " {name}=absent" },
	{ 0 },
};

const struct sb_host_collector sb_host_perf_collector = {
	.name = "perf",
	.src = SB_HOST_PERF,
	.open = perf_open,
	.summary = perf_summary_op,
	.sum_size = sizeof(struct sb_host_perf_sum),
	.fields = perf_fields,
	.lines = perf_lines,
	.close = perf_close,
};
