/* sysinv.h: the system inventory - the machine a run was made on (CPU,
 * NUMA, memory, kernel, host name), the block devices and file systems the
 * jobs touched, and the NVIDIA GPUs NVML lists.  Collected once at run
 * start (run/run.c), outside the I/O path; written as JSON "system" and a
 * block of normal output (output/sysinv.c).
 *
 * Everything is read below a root directory ("/" in production, a fixture
 * tree under t/fixtures in tests), as the host collectors (stats/host.h):
 *   /proc/cpuinfo                        cpu_model
 *   /sys/devices/system/cpu/cpuN/topology/{physical_package_id,core_id}
 *                                        sockets, cores, threads
 *   /sys/devices/system/node/nodeN       numa_nodes
 *   /proc/meminfo MemTotal               mem_total_bytes
 *   /proc/sys/kernel/{osrelease,hostname} kernel, hostname
 *   /proc/self/mountinfo                 file systems and their options
 *   /sys/dev/block/MAJ:MIN, /sys/class/block/NAME/{size,device/..,queue/..}
 *                                        devices
 * A figure that cannot be read is unknown (-1 or ""), written as null:
 * never as 0. */
#ifndef SB_SYSINV_H
#define SB_SYSINV_H
#include <stdbool.h>
#include <stdint.h>

#define SB_SYSINV_MAX_DEVS 16
#define SB_SYSINV_MAX_FS 16
#define SB_SYSINV_MAX_GPUS 16
#define SB_SYSINV_NAME 64
#define SB_SYSINV_TEXT 256

/* a whole disk (partitions, dm and md resolved to the disks below them) */
struct sb_sysinv_dev {
	char name[SB_SYSINV_NAME];      /* "nvme0n1", "sda" */
	char model[SB_SYSINV_NAME];     /* device/model; "" unknown */
	char firmware[SB_SYSINV_NAME];  /* device/firmware_rev (NVMe) or device/rev (SCSI) */
	int64_t size_bytes;             /* size (512-byte sectors) * 512 */
	int64_t logical_block_size;     /* bytes */
	int64_t physical_block_size;    /* bytes */
	int rotational;                 /* 1 spinning, 0 not, -1 unknown */
	char scheduler[32];             /* the active one ([x] in queue/scheduler) */
	int64_t nr_requests;            /* queue/nr_requests */
	int64_t max_sectors_kb;         /* queue/max_sectors_kb: KiB per request */
};

/* where one of the jobs' paths lives */
struct sb_sysinv_fs {
	char path[SB_SYSINV_TEXT];        /* the job's file, directory or device */
	char device[SB_SYSINV_NAME];      /* the block device st_dev names ("dm-0"); "" none */
	char mount_point[SB_SYSINV_TEXT]; /* "" for a raw block device */
	char fstype[32];                  /* "xfs", "tmpfs"; "" for a raw block device */
	char source[SB_SYSINV_TEXT];      /* mount source ("/dev/md0", "tmpfs") */
	char mount_options[SB_SYSINV_TEXT]; /* per-mount options ("rw,noatime") */
	char fs_options[SB_SYSINV_TEXT];    /* super-block options ("rw,inode64") */
	unsigned major, minor;            /* st_dev (st_rdev for a device); 0:0 anonymous */
	unsigned ndisks;                  /* devs[] it lies on */
	char disks[SB_SYSINV_MAX_DEVS][SB_SYSINV_NAME];
};

struct sb_sysinv_gpu {
	char name[SB_SYSINV_NAME];
	char uuid[SB_SYSINV_NAME];
	char pci_bus_id[32];
	int64_t mem_total_bytes;
};

struct sb_sysinv {
	char cpu_model[SB_SYSINV_TEXT];
	int sockets, cores, threads;      /* -1 unknown; cores: physical, all sockets */
	int numa_nodes;                   /* -1 unknown */
	int64_t mem_total_bytes;
	char kernel[SB_SYSINV_NAME];      /* release, as uname -r */
	char hostname[SB_SYSINV_NAME];
	unsigned ndevs;
	struct sb_sysinv_dev dev[SB_SYSINV_MAX_DEVS];
	unsigned nfs;
	struct sb_sysinv_fs fs[SB_SYSINV_MAX_FS];
	bool gpu_present;                 /* NVML answered with at least one GPU */
	char gpu_reason[160];             /* why not */
	char gpu_driver[SB_SYSINV_NAME];  /* NVML's driver version */
	unsigned ngpus;
	struct sb_sysinv_gpu gpu[SB_SYSINV_MAX_GPUS];
};

/* The machine's figures below root ("/" when NULL or ""); nvml_lib: NULL
 * for libnvidia-ml.so.1, "" for no GPU inventory.  Never fails: what
 * cannot be read is unknown. */
void sb_sysinv_host(struct sb_sysinv *inv, const char *root, const char *nvml_lib);
/* Adds where path lives: stat()s it (a file not there yet: its directory),
 * then sb_sysinv_add_dev. */
void sb_sysinv_add_path(struct sb_sysinv *inv, const char *root, const char *path);
/* Adds path on the device major:minor (is_bdev: path is the block device
 * itself): its file system from root's mountinfo (the longest mount point
 * containing path), its disks and their figures.  A path on a device (or
 * file system) already listed adds nothing. */
void sb_sysinv_add_dev(struct sb_sysinv *inv, const char *root, const char *path,
		       unsigned major, unsigned minor, bool is_bdev);
#endif
