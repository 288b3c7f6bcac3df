/* test_sysinv.c: the system inventory (stats/host/sysinv.c) on the fixture
 * host t/fixtures/sysinv (see its README): CPU topology, NUMA, memory,
 * kernel, host name; the file systems and disks behind paths on an md
 * RAID1 of two spinning disks, an NVMe partition, a dm device with a space
 * in its mount point, a tmpfs and a raw NVMe device; and the writers
 * (output/sysinv.c): JSON "system" with null for what could not be read,
 * and the normal-output block. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "output/jsonw.h"
#include "output/sysinv.h"
#include "stats/sysinv.h"

#define NO_NVML "libnvidia-ml-not-here.so.1"

static const char *root(void)
{
	static char abs_root[PATH_MAX];
	if (!realpath(sb_test_fixture("sysinv"), abs_root))
		return NULL;
	return abs_root;
}

static struct sb_sysinv *host(void)
{
	struct sb_sysinv *inv = malloc(sizeof(*inv));
	CU_ASSERT_PTR_NOT_NULL_FATAL(inv);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root());
	sb_sysinv_host(inv, root(), NO_NVML);
	return inv;
}

static const struct sb_sysinv_dev *dev(const struct sb_sysinv *inv, const char *name)
{
	for (unsigned i = 0; i < inv->ndevs; i++)
		if (!strcmp(inv->dev[i].name, name))
			return &inv->dev[i];
	return NULL;
}

/* 8 online CPUs (cpu8 has no topology: offline) on packages 0 and 1, two
 * core ids each: 2 sockets, 4 cores, 8 threads; node0, node1 ("possible"
 * is not a node); MemTotal 268435456 kB = 256 GiB */
static void test_host_figures(void)
{
	struct sb_sysinv *inv = host();
	CU_ASSERT_STRING_EQUAL(inv->cpu_model, "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz");
	CU_ASSERT_EQUAL(inv->sockets, 2);
	CU_ASSERT_EQUAL(inv->cores, 4);
	CU_ASSERT_EQUAL(inv->threads, 8);
	CU_ASSERT_EQUAL(inv->numa_nodes, 2);
	CU_ASSERT_EQUAL(inv->mem_total_bytes, 268435456ll * 1024);
	CU_ASSERT_STRING_EQUAL(inv->kernel, "6.1.0-18-amd64");
	CU_ASSERT_STRING_EQUAL(inv->hostname, "node07");
	CU_ASSERT_FALSE(inv->gpu_present);
	CU_ASSERT_PTR_NOT_NULL(strstr(inv->gpu_reason, NO_NVML));
	CU_ASSERT_EQUAL(inv->nfs, 0u);
	CU_ASSERT_EQUAL(inv->ndevs, 0u);
	free(inv);
}

/* an empty root: everything unknown, nothing zero */
static void test_host_unknown(void)
{
	struct sb_sysinv inv;
	sb_sysinv_host(&inv, sb_test_fixture("empty"), NO_NVML);
	CU_ASSERT_EQUAL(inv.sockets, -1);
	CU_ASSERT_EQUAL(inv.cores, -1);
	CU_ASSERT_EQUAL(inv.threads, -1);
	CU_ASSERT_EQUAL(inv.numa_nodes, -1);
	CU_ASSERT_EQUAL(inv.mem_total_bytes, -1);
	CU_ASSERT_STRING_EQUAL(inv.kernel, "");
	CU_ASSERT_STRING_EQUAL(inv.cpu_model, "");
}

/* /data on md0 (9:0) = RAID1 of sda and sdb: xfs, the disks' figures */
static void test_md(void)
{
	struct sb_sysinv *inv = host();
	sb_sysinv_add_dev(inv, root(), "/data/ckpt/model.pt", 9, 0, false);
	CU_ASSERT_EQUAL_FATAL(inv->nfs, 1u);
	const struct sb_sysinv_fs *fs = &inv->fs[0];
	CU_ASSERT_STRING_EQUAL(fs->path, "/data/ckpt/model.pt");
	CU_ASSERT_STRING_EQUAL(fs->device, "md0");
	CU_ASSERT_STRING_EQUAL(fs->mount_point, "/data");
	CU_ASSERT_STRING_EQUAL(fs->fstype, "xfs");
	CU_ASSERT_STRING_EQUAL(fs->source, "/dev/md0");
	CU_ASSERT_STRING_EQUAL(fs->mount_options, "rw,noatime");
	CU_ASSERT_STRING_EQUAL(fs->fs_options, "rw,attr2,inode64,noquota");
	CU_ASSERT_EQUAL_FATAL(fs->ndisks, 2u);
	CU_ASSERT_STRING_EQUAL(fs->disks[0], "sda");
	CU_ASSERT_STRING_EQUAL(fs->disks[1], "sdb");
	CU_ASSERT_EQUAL(inv->ndevs, 2u);
	const struct sb_sysinv_dev *d = dev(inv, "sda");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->model, "ST4000NM0035-1V4");
	CU_ASSERT_STRING_EQUAL(d->firmware, "TN02");       /* SCSI: device/rev */
	CU_ASSERT_EQUAL(d->size_bytes, 7814037168ll * 512);
	CU_ASSERT_EQUAL(d->logical_block_size, 512);
	CU_ASSERT_EQUAL(d->physical_block_size, 4096);
	CU_ASSERT_EQUAL(d->rotational, 1);
	CU_ASSERT_STRING_EQUAL(d->scheduler, "mq-deadline");
	CU_ASSERT_EQUAL(d->nr_requests, 64);
	CU_ASSERT_EQUAL(d->max_sectors_kb, 1280);
	/* a second path on the same device adds nothing */
	sb_sysinv_add_dev(inv, root(), "/data/other", 9, 0, false);
	CU_ASSERT_EQUAL(inv->nfs, 1u);
	CU_ASSERT_EQUAL(inv->ndevs, 2u);
	free(inv);
}

/* / on nvme0n1p2 (259:2): the partition resolves to its disk */
static void test_partition(void)
{
	struct sb_sysinv *inv = host();
	sb_sysinv_add_dev(inv, root(), "/home/u/job.dat", 259, 2, false);
	CU_ASSERT_EQUAL_FATAL(inv->nfs, 1u);
	CU_ASSERT_STRING_EQUAL(inv->fs[0].device, "nvme0n1p2");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].mount_point, "/");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].fstype, "ext4");
	CU_ASSERT_EQUAL_FATAL(inv->fs[0].ndisks, 1u);
	CU_ASSERT_STRING_EQUAL(inv->fs[0].disks[0], "nvme0n1");
	const struct sb_sysinv_dev *d = dev(inv, "nvme0n1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->model, "Samsung SSD 980 PRO 2TB");   /* padding trimmed */
	CU_ASSERT_STRING_EQUAL(d->firmware, "5B2QGXA7");              /* NVMe: firmware_rev */
	CU_ASSERT_EQUAL(d->rotational, 0);
	CU_ASSERT_STRING_EQUAL(d->scheduler, "none");
	CU_ASSERT_EQUAL(d->nr_requests, 1023);
	CU_ASSERT_EQUAL(d->max_sectors_kb, 128);
	CU_ASSERT_EQUAL(d->size_bytes, 3907029168ll * 512);
	free(inv);
}

/* "/scratch space" (\040 in mountinfo) on dm-0 (253:0) over nvme1n1,
 * whose model and firmware files are missing: unknown, not "" by mistake
 * of another disk */
static void test_dm(void)
{
	struct sb_sysinv *inv = host();
	sb_sysinv_add_dev(inv, root(), "/scratch space/f", 253, 0, false);
	CU_ASSERT_EQUAL_FATAL(inv->nfs, 1u);
	CU_ASSERT_STRING_EQUAL(inv->fs[0].device, "dm-0");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].mount_point, "/scratch space");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].source, "/dev/mapper/vg-scratch");
	CU_ASSERT_EQUAL_FATAL(inv->fs[0].ndisks, 1u);
	CU_ASSERT_STRING_EQUAL(inv->fs[0].disks[0], "nvme1n1");
	const struct sb_sysinv_dev *d = dev(inv, "nvme1n1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->model, "");
	CU_ASSERT_STRING_EQUAL(d->firmware, "");
	CU_ASSERT_EQUAL(d->logical_block_size, 4096);
	CU_ASSERT_STRING_EQUAL(d->scheduler, "none");
	free(inv);
}

/* tmpfs (anonymous 0:45): a file system, no device, no disks; the longest
 * mount point wins over /dev and / */
static void test_tmpfs(void)
{
	struct sb_sysinv *inv = host();
	sb_sysinv_add_dev(inv, root(), "/dev/shm/bench.dat", 0, 45, false);
	CU_ASSERT_EQUAL_FATAL(inv->nfs, 1u);
	CU_ASSERT_STRING_EQUAL(inv->fs[0].mount_point, "/dev/shm");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].fstype, "tmpfs");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].fs_options, "rw,size=65536k");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].device, "");
	CU_ASSERT_EQUAL(inv->fs[0].ndisks, 0u);
	CU_ASSERT_EQUAL(inv->ndevs, 0u);
	/* "/dev/shmx" is not under /dev/shm */
	sb_sysinv_add_dev(inv, root(), "/dev/shmx", 0, 5, false);
	CU_ASSERT_EQUAL_FATAL(inv->nfs, 2u);
	CU_ASSERT_STRING_EQUAL(inv->fs[1].mount_point, "/dev");
	free(inv);
}

/* the raw device itself: no file system, its disk */
static void test_raw_device(void)
{
	struct sb_sysinv *inv = host();
	sb_sysinv_add_dev(inv, root(), "/dev/nvme0n1", 259, 0, true);
	CU_ASSERT_EQUAL_FATAL(inv->nfs, 1u);
	CU_ASSERT_STRING_EQUAL(inv->fs[0].fstype, "");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].mount_point, "");
	CU_ASSERT_STRING_EQUAL(inv->fs[0].device, "nvme0n1");
	CU_ASSERT_EQUAL_FATAL(inv->ndevs, 1u);
	CU_ASSERT_STRING_EQUAL(inv->dev[0].name, "nvme0n1");
	free(inv);
}

/* a real path on this machine: stat, then the same resolution */
static void test_add_path_real(void)
{
	struct sb_sysinv inv;
	sb_sysinv_host(&inv, "/", NO_NVML);
	sb_sysinv_add_path(&inv, "/", sb_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(inv.nfs, 1u);
	CU_ASSERT_STRING_NOT_EQUAL(inv.fs[0].fstype, "");
	CU_ASSERT_STRING_NOT_EQUAL(inv.fs[0].mount_point, "");
	/* a file not there yet: its directory's file system */
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/not/yet/there", sb_test_tmpdir());
	sb_sysinv_add_path(&inv, "/", p);
	CU_ASSERT_EQUAL(inv.nfs, 1u);
}

static char *json_of(const struct sb_sysinv *inv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sb_jw w;
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	sb_json_sysinv(&w, inv);
	sb_jw_obj_end(&w);
	fclose(f);
	return buf;
}

static void test_writers(void)
{
	struct sb_sysinv *inv = host();
	sb_sysinv_add_dev(inv, root(), "/scratch space/f", 253, 0, false);
	sb_sysinv_add_dev(inv, root(), "/data/x", 9, 0, false);
	char *j = json_of(inv);
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"system\" : {"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"sockets\" : 2,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"mount_point\" : \"/scratch space\""));
	/* nvme1n1's model is unknown: null, never "" or 0 */
	char *nv = strstr(j, "\"name\" : \"nvme1n1\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(nv);
	CU_ASSERT_PTR_NOT_NULL(strstr(nv, "\"model\" : null"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"rotational\" : true"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"absent\" : true"));
	free(j);
	struct sb_sysinv empty;
	sb_sysinv_host(&empty, sb_test_fixture("empty"), NO_NVML);
	j = json_of(&empty);
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"cores\" : null"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"mem_total_bytes\" : null"));
	free(j);
	j = json_of(NULL);
	CU_ASSERT_PTR_NULL(strstr(j, "system"));
	free(j);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sb_normal_sysinv(f, inv);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "System: node07, kernel 6.1.0-18-amd64"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "sockets=2, cores=4, threads=8, numa nodes=2; memory=256.0GiB"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "fs: /data/x on /data (xfs /dev/md0, rw,noatime) disks=sda,sdb"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "disk nvme1n1: ? fw ?"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "disk sda: ST4000NM0035-1V4 fw TN02, 3726.0GiB, blocks "
				      "512/4096, rotational, sched=mq-deadline, nr_requests=64, "
				      "max_sectors_kb=1280"));
	free(buf);
	free(inv);
}

static CU_TestInfo tests[] = {
	{ "host figures", test_host_figures },
	{ "unknown figures on an empty root", test_host_unknown },
	{ "md RAID1 of two disks", test_md },
	{ "partition to its disk", test_partition },
	{ "dm device, escaped mount point, unknown model", test_dm },
	{ "tmpfs: no disks", test_tmpfs },
	{ "raw block device", test_raw_device },
	{ "a real path here", test_add_path_real },
	{ "JSON and normal writers", test_writers },
	CU_TEST_INFO_NULL,
};
SB_SUITE(sysinv, tests)
