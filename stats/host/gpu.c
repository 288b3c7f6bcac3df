/* gpu.c: NVIDIA GPU utilization, memory, PCIe traffic and power via
 * NVML, loaded with dlopen at run time so storbench has no build
 * dependency on the driver.  No library or no driver: absent.  The few
 * NVML types and prototypes used are declared here (they are part of
 * NVML's stable C ABI). */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/host/priv.h"
#include "stats/sysinv.h"

typedef int nvml_ret;                 /* nvmlReturn_t: 0 = NVML_SUCCESS */
typedef void *nvml_dev;               /* nvmlDevice_t */
struct nvml_util { unsigned gpu, memory; };                     /* nvmlUtilization_t */
struct nvml_mem { unsigned long long total, free, used; };      /* nvmlMemory_t */
enum { NVML_PCIE_TX = 0, NVML_PCIE_RX = 1 };                    /* nvmlPcieUtilCounter_t */

struct host_nvml {
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	const char *(*error_string)(nvml_ret);
	nvml_ret (*count)(unsigned *);
	nvml_ret (*handle)(unsigned, nvml_dev *);
	nvml_ret (*name)(nvml_dev, char *, unsigned);
	nvml_ret (*util)(nvml_dev, struct nvml_util *);
	nvml_ret (*mem)(nvml_dev, struct nvml_mem *);
	nvml_ret (*pcie)(nvml_dev, int, unsigned *);   /* KB/s over ~20 ms */
	nvml_ret (*power)(nvml_dev, unsigned *);       /* mW */
};

/* POSIX's way to turn dlsym's void * into a function pointer */
#define LOAD(lib, ptr, sym) (*(void **)(&(ptr)) = dlsym(lib, sym))

static int load(void *lib, struct host_nvml *a)
{
	if (!LOAD(lib, a->init, "nvmlInit_v2") || !LOAD(lib, a->shutdown, "nvmlShutdown") ||
	    !LOAD(lib, a->error_string, "nvmlErrorString") ||
	    !LOAD(lib, a->count, "nvmlDeviceGetCount_v2") ||
	    !LOAD(lib, a->handle, "nvmlDeviceGetHandleByIndex_v2") ||
	    !LOAD(lib, a->name, "nvmlDeviceGetName") ||
	    !LOAD(lib, a->util, "nvmlDeviceGetUtilizationRates") ||
	    !LOAD(lib, a->mem, "nvmlDeviceGetMemoryInfo") ||
	    !LOAD(lib, a->pcie, "nvmlDeviceGetPcieThroughput") ||
	    !LOAD(lib, a->power, "nvmlDeviceGetPowerUsage"))
		return -ENOSYS;
	return 0;
}

static void find_devices(struct sb_host *h)
{
	struct host_gpu *g = &h->gpu;
	unsigned n = 0;
	nvml_ret r = g->api->count(&n);
	if (r) {
		sb_host_set_absent(&h->st[SB_HOST_GPU], "nvmlDeviceGetCount: %s", g->api->error_string(r));
		return;
	}
	for (unsigned i = 0; i < n && g->n < SB_HOST_MAX_GPUS; i++) {
		struct host_gpu_dev *d = &g->dev[g->n];
		if (g->api->handle(i, &d->handle))
			continue;
		if (g->api->name(d->handle, d->name, sizeof(d->name)))
			snprintf(d->name, sizeof(d->name), "gpu%u", i);
		g->n++;
	}
	if (!g->n) {
		sb_host_set_absent(&h->st[SB_HOST_GPU], "NVML: no GPU");
		return;
	}
	h->st[SB_HOST_GPU].present = true;
	h->st[SB_HOST_GPU].reason[0] = 0;
}

static void gpu_close(struct sb_host *h);

static void gpu_open(struct sb_host *h, const char *libname)
{
	struct host_gpu *g = &h->gpu;
	const char *name = libname && *libname ? libname : "libnvidia-ml.so.1";
	g->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!g->lib) {
		const char *e = dlerror();
		sb_host_set_absent(&h->st[SB_HOST_GPU], "%s", e ? e : name);
		return;
	}
	g->api = calloc(1, sizeof(*g->api));
	if (!g->api || load(g->lib, g->api)) {
		sb_host_set_absent(&h->st[SB_HOST_GPU], "%s: not a usable NVML library", name);
		free(g->api);
		g->api = NULL;
		gpu_close(h);
		return;
	}
	nvml_ret r = g->api->init();
	if (r) {
		sb_host_set_absent(&h->st[SB_HOST_GPU], "nvmlInit: %s", g->api->error_string(r));
		free(g->api);
		g->api = NULL;
		gpu_close(h);
		return;
	}
	find_devices(h);
}

static void gpu_sample(struct sb_host *h, double dt_s, struct sb_host_sample *s)
{
	struct host_gpu *g = &h->gpu;
	for (unsigned i = 0; i < g->n; i++) {
		struct host_gpu_dev *d = &g->dev[i];
		struct nvml_util u = { 0, 0 };
		struct nvml_mem m = { 0, 0, 0 };
		unsigned tx = 0, rx = 0, mw = 0;
		if (g->api->util(d->handle, &u))
			continue;   /* GPU fell off the bus: skip the sample */
		g->api->mem(d->handle, &m);
		g->api->pcie(d->handle, NVML_PCIE_TX, &tx);
		g->api->pcie(d->handle, NVML_PCIE_RX, &rx);
		g->api->power(d->handle, &mw);
		d->nsamples++;
		d->util_sum += u.gpu;
		if (u.gpu > d->util_max)
			d->util_max = u.gpu;
		if (m.used > d->mem_peak)
			d->mem_peak = m.used;
		d->tx_sum += tx * 1000.0 / 1e6;   /* KB/s -> MB/s */
		d->rx_sum += rx * 1000.0 / 1e6;
		d->tx_bytes += tx * 1000.0 * dt_s; /* KB as 1000 bytes, as the MB/s above */
		d->rx_bytes += rx * 1000.0 * dt_s;
		s->gpu_pcie_tx_mbps += tx * 1000.0 / 1e6;
		s->gpu_pcie_rx_mbps += rx * 1000.0 / 1e6;
		d->power_sum += mw / 1000.0;
		s->gpu_util_pct += (double)u.gpu / g->n;
		s->gpu_mem_used_bytes += m.used;
		s->gpu_power_w += mw / 1000.0;
	}
}

static void gpu_summary(const struct sb_host *h, struct sb_host_gpu_sum *o)
{
	o->ngpus = h->gpu.n;
	for (unsigned i = 0; i < h->gpu.n; i++) {
		const struct host_gpu_dev *d = &h->gpu.dev[i];
		struct sb_host_gpu_dev *od = &o->gpu[i];
		double n = d->nsamples ? d->nsamples : 1;
		snprintf(od->name, sizeof(od->name), "%s", d->name);
		od->mean_util_pct = d->util_sum / n;
		od->max_util_pct = d->util_max;
		od->peak_mem_used_bytes = d->mem_peak;
		od->mean_pcie_tx_mbps = d->tx_sum / n;
		od->mean_pcie_rx_mbps = d->rx_sum / n;
		od->pcie_tx_bytes = (uint64_t)d->tx_bytes;
		od->pcie_rx_bytes = (uint64_t)d->rx_bytes;
		od->mean_power_w = d->power_sum / n;
	}
}

static void gpu_close(struct sb_host *h)
{
	struct host_gpu *g = &h->gpu;
	if (g->api) {
		g->api->shutdown();
		free(g->api);
		g->api = NULL;
	}
	if (g->lib)
		dlclose(g->lib);
	g->lib = NULL;
}

/* ---- the GPUs of the system inventory (stats/sysinv.h): once, at run start ---- */

/* nvmlPciInfo_t (v3): only busId is read */
struct nvml_pci {
	char bus_id_legacy[16];
	unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
	char pad[64];       /* room should a later NVML grow the struct */
};

void sb_host_gpu_inventory(const char *nvml_lib, struct sb_sysinv *inv)
{
	struct sb_host *h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(inv->gpu_reason, sizeof(inv->gpu_reason), "out of memory");
		return;
	}
	gpu_open(h, nvml_lib);
	struct host_gpu *g = &h->gpu;
	if (!h->st[SB_HOST_GPU].present) {
		snprintf(inv->gpu_reason, sizeof(inv->gpu_reason), "%s", h->st[SB_HOST_GPU].reason);
		gpu_close(h);
		free(h);
		return;
	}
	nvml_ret (*uuid)(nvml_dev, char *, unsigned) = NULL;
	nvml_ret (*pci)(nvml_dev, struct nvml_pci *) = NULL;
	nvml_ret (*driver)(char *, unsigned) = NULL;
	LOAD(g->lib, uuid, "nvmlDeviceGetUUID");
	LOAD(g->lib, pci, "nvmlDeviceGetPciInfo_v3");
	LOAD(g->lib, driver, "nvmlSystemGetDriverVersion");
	if (driver && driver(inv->gpu_driver, sizeof(inv->gpu_driver)))
		inv->gpu_driver[0] = 0;
	inv->gpu_present = true;
	for (unsigned i = 0; i < g->n && inv->ngpus < SB_SYSINV_MAX_GPUS; i++) {
		struct sb_sysinv_gpu *o = &inv->gpu[inv->ngpus++];
		struct nvml_mem m = { 0, 0, 0 };
		struct nvml_pci p;
		memset(&p, 0, sizeof(p));
		snprintf(o->name, sizeof(o->name), "%s", g->dev[i].name);
		if (uuid && uuid(g->dev[i].handle, o->uuid, sizeof(o->uuid)))
			o->uuid[0] = 0;
		if (pci && !pci(g->dev[i].handle, &p))
			snprintf(o->pci_bus_id, sizeof(o->pci_bus_id), "%.*s", (int)sizeof(p.bus_id), p.bus_id);
		o->mem_total_bytes = g->api->mem(g->dev[i].handle, &m) ? -1 : (int64_t)m.total;
	}
	gpu_close(h);
	free(h);
}

/* ---- the collector (stats/host/collector.h) ---- */

static int gpu_open_op(struct sb_host *h, const struct sb_host_config *cfg)
{
	gpu_open(h, cfg->nvml_lib);
	return 0;
}

static void gpu_summary_op(const struct sb_host *h, double run_s, void *sum)
{
	struct sb_host_gpu_sum *o = sum;
	(void)run_s;
	o->st = h->st[SB_HOST_GPU];
	if (o->st.present)
		gpu_summary(h, o);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define E(key, kind) { #key, kind, offsetof(struct sb_host_gpu_dev, key), 0, false, NULL, NULL }
static const struct sb_host_field gpu_dev_fields[] = {
	E(name, SB_HK_STR),
	E(mean_util_pct, SB_HK_DBL),
	E(max_util_pct, SB_HK_DBL),
	E(peak_mem_used_bytes, SB_HK_U64),
	E(mean_pcie_tx_mbps, SB_HK_DBL),
	E(mean_pcie_rx_mbps, SB_HK_DBL),
	E(pcie_tx_bytes, SB_HK_U64),
	E(pcie_rx_bytes, SB_HK_U64),
	E(mean_power_w, SB_HK_DBL),
	{ .kind = SB_HK_END },
};
#undef E
static const struct sb_host_list gpu_devices = {
	.count_off = offsetof(struct sb_host_gpu_sum, ngpus),
	.elem_off = offsetof(struct sb_host_gpu_sum, gpu),
	.elem_size = sizeof(struct sb_host_gpu_dev),
	.fields = gpu_dev_fields,
};
static const struct sb_host_field gpu_fields[] = {
	{ .key = "devices", .kind = SB_HK_LIST, .list = &gpu_devices },
	{ .kind = SB_HK_END },
};

static const struct sb_host_line gpu_lines[] = {
	{ .list = "devices", .each = "gpu{#} {name}: util avg/max={mean_util_pct:.1}/{max_util_pct:.1}%, "
	  "peak mem={peak_mem_used_bytes:B}, pcie tx/rx={mean_pcie_tx_mbps:.1}/{mean_pcie_rx_mbps:.1}MB/s "
	  "({pcie_tx_bytes:B}/{pcie_rx_bytes:B}), "
	  "power={mean_power_w:.1}W" },
	{ 0 },
};

/* its series columns */
static const struct sb_host_col gpu_cols[] = {
	SB_HOST_COL(gpu_util_pct, SB_HK_DBL, SB_HM_WMEAN),
	SB_HOST_COL(gpu_mem_used_bytes, SB_HK_U64, SB_HM_MAX),
	SB_HOST_COL(gpu_power_w, SB_HK_DBL, SB_HM_WMEAN),
	SB_HOST_COL(gpu_pcie_tx_mbps, SB_HK_DBL, SB_HM_WMEAN),
	SB_HOST_COL(gpu_pcie_rx_mbps, SB_HK_DBL, SB_HM_WMEAN),
	{ .kind = SB_HK_END },
};

const struct sb_host_collector sb_host_gpu_collector = {
	.name = "gpu",
	.src = SB_HOST_GPU,
	.open = gpu_open_op,
	.sample = gpu_sample,
	.summary = gpu_summary_op,
	.sum_size = sizeof(struct sb_host_gpu_sum),
	.fields = gpu_fields,
	.lines = gpu_lines,
	.cols = gpu_cols,
	.close = gpu_close,
};
