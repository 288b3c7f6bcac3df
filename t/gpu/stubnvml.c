/* stubnvml.c: a stand-in libnvidia-ml.so.1 for the tests of the GPU host
 * collector (stats/host/gpu.c) on machines without an NVIDIA driver.  It
 * implements the NVML entry points storbench calls, with the signatures of
 * NVML's public API (nvml.h), and returns what the environment says:
 *   SB_STUB_NVML_GPUS      devices (default 1; 0: nvmlDeviceGetCount says none)
 *   SB_STUB_NVML_INIT_FAIL nvmlInit_v2 fails with NVML_ERROR_DRIVER_NOT_LOADED (9)
 *   SB_STUB_NVML_RX_KBPS   nvmlDeviceGetPcieThroughput(RX) per device, KB/s
 *   SB_STUB_NVML_TX_KBPS   the same for TX
 *   SB_STUB_NVML_UTIL      GPU utilization, %
 *   SB_STUB_NVML_MW        power, mW
 *   SB_STUB_NVML_MEM_USED  used memory, bytes (total: 80 GiB)
 * Device i is named "Stub GPU i".  Test code only: never installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVML_SUCCESS 0
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_DRIVER_NOT_LOADED 9

struct nvml_util { unsigned gpu, memory; };
struct nvml_mem { unsigned long long total, free, used; };
struct nvml_pci {
	char bus_id_legacy[16];
	unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

/* the prototypes, as nvml.h declares them (handles are pointers) */
int nvmlInit_v2(void);
int nvmlShutdown(void);
const char *nvmlErrorString(int r);
int nvmlDeviceGetCount_v2(unsigned *n);
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **dev);
int nvmlDeviceGetName(void *dev, char *name, unsigned len);
int nvmlDeviceGetUtilizationRates(void *dev, struct nvml_util *u);
int nvmlDeviceGetMemoryInfo(void *dev, struct nvml_mem *m);
int nvmlDeviceGetPcieThroughput(void *dev, int counter, unsigned *kbps);
int nvmlDeviceGetPowerUsage(void *dev, unsigned *mw);
int nvmlDeviceGetUUID(void *dev, char *uuid, unsigned len);
int nvmlDeviceGetPciInfo_v3(void *dev, struct nvml_pci *p);
int nvmlSystemGetDriverVersion(char *v, unsigned len);

static unsigned long long env(const char *name, unsigned long long def)
{
	const char *v = getenv(name);
	return v && *v ? strtoull(v, NULL, 0) : def;
}

static char devs[16];   /* the handles point here: dev - devs is the index */

static int index_of(void *dev)
{
	long i = (char *)dev - devs;
	return i >= 0 && i < (long)env("SB_STUB_NVML_GPUS", 1) && i < 16 ? (int)i : -1;
}

int nvmlInit_v2(void) { return env("SB_STUB_NVML_INIT_FAIL", 0) ? NVML_ERROR_DRIVER_NOT_LOADED : 0; }
int nvmlShutdown(void) { return NVML_SUCCESS; }

const char *nvmlErrorString(int r)
{
	return r == NVML_ERROR_DRIVER_NOT_LOADED ? "Driver Not Loaded" :
	       r == NVML_ERROR_INVALID_ARGUMENT ? "Invalid Argument" : r ? "Unknown Error" : "Success";
}

int nvmlDeviceGetCount_v2(unsigned *n)
{
	*n = (unsigned)env("SB_STUB_NVML_GPUS", 1);
	return NVML_SUCCESS;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **dev)
{
	if (i >= env("SB_STUB_NVML_GPUS", 1) || i >= 16)
		return NVML_ERROR_INVALID_ARGUMENT;
	*dev = devs + i;
	return NVML_SUCCESS;
}

int nvmlDeviceGetName(void *dev, char *name, unsigned len)
{
	int i = index_of(dev);
	if (i < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(name, len, "Stub GPU %d", i);
	return NVML_SUCCESS;
}

int nvmlDeviceGetUtilizationRates(void *dev, struct nvml_util *u)
{
	if (index_of(dev) < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	u->gpu = (unsigned)env("SB_STUB_NVML_UTIL", 0);
	u->memory = 0;
	return NVML_SUCCESS;
}

int nvmlDeviceGetMemoryInfo(void *dev, struct nvml_mem *m)
{
	if (index_of(dev) < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	m->total = 80ULL << 30;
	m->used = env("SB_STUB_NVML_MEM_USED", 0);
	m->free = m->total - m->used;
	return NVML_SUCCESS;
}

int nvmlDeviceGetPcieThroughput(void *dev, int counter, unsigned *kbps)
{
	if (index_of(dev) < 0 || counter < 0 || counter > 1)
		return NVML_ERROR_INVALID_ARGUMENT;
	*kbps = (unsigned)env(counter ? "SB_STUB_NVML_RX_KBPS" : "SB_STUB_NVML_TX_KBPS", 0);
	return NVML_SUCCESS;
}

int nvmlDeviceGetPowerUsage(void *dev, unsigned *mw)
{
	if (index_of(dev) < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	*mw = (unsigned)env("SB_STUB_NVML_MW", 0);
	return NVML_SUCCESS;
}

int nvmlDeviceGetUUID(void *dev, char *uuid, unsigned len)
{
	int i = index_of(dev);
	if (i < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(uuid, len, "GPU-00000000-0000-0000-0000-%012d", i);
	return NVML_SUCCESS;
}

int nvmlDeviceGetPciInfo_v3(void *dev, struct nvml_pci *p)
{
	int i = index_of(dev);
	if (i < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	memset(p, 0, sizeof(*p));
	snprintf(p->bus_id, sizeof(p->bus_id), "00000000:%02X:00.0", 0x10 + i);
	return NVML_SUCCESS;
}

int nvmlSystemGetDriverVersion(char *v, unsigned len)
{
	snprintf(v, len, "0.0-stub");
	return NVML_SUCCESS;
}
