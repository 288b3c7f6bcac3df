/* fio_refused.c: fio options storbench refuses on purpose, each with the
 * reason and, where there is one, the storbench way to get the same thing.
 * A job file that uses one gets this text instead of the generic "not
 * supported".  Names and reasons only, no fio code. */
#include <stddef.h>
#include <strings.h>

#include "parse/options.h"

#define ZBD "storbench has no zoned block device support yet (fio's zonemode=zbd): run this " \
	    "job with fio, or drop the zone options for a regular device"

static const struct { const char *name, *reason; } refused[] = {
	{ "zonemode", ZBD },
	{ "zonesize", ZBD },
	{ "zonecapacity", ZBD },
	{ "zonerange", ZBD },
	{ "zoneskip", ZBD },
	{ "read_beyond_wp", ZBD },
	{ "max_open_zones", ZBD },
	{ "job_max_open_zones", ZBD },
	{ "ignore_zone_limits", ZBD },
	{ "zone_reset_threshold", ZBD },
	{ "zone_reset_frequency", ZBD },
	{ "recover_zbd_write_error", ZBD },
	{ "write_zone_remainders", ZBD },
	{ "block_error_percentiles", "fio 3.33 aborts on it (stat.c block_state_category assertion "
				     "on a trim job); storbench records no per-block trim/write error states: "
				     "drop block_error_percentiles" },
	{ "hugepage-size", "storbench uses the system's default huge page size for iomem=mmaphuge "
			   "and shmhuge: drop hugepage-size" },
	{ "lockmem", "storbench does not pin memory away from the job: drop lockmem (or limit the "
		     "memory with a cgroup)" },
	{ "uid", "storbench runs its jobs as threads of one process, and a thread cannot change "
		 "user alone: run storbench as that user (sudo -u USER storbench ...)" },
	{ "gid", "storbench runs its jobs as threads of one process, and a thread cannot change "
		 "group alone: run storbench as that group (sudo -g GROUP storbench ...)" },
	{ "cgroup_nodelete", "storbench does not create cgroups: start it inside the cgroup "
			     "(systemd-run --scope -p ... storbench ...)" },
	{ "cgroup_weight", "storbench does not create cgroups: start it inside the cgroup "
			   "(systemd-run --scope -p IOWeight=N storbench ...)" },
	{ "cgroup", "storbench does not create cgroups: start it inside the cgroup "
		    "(systemd-run --scope -p ... storbench ..., or echo its pid into the cgroup's "
		    "cgroup.procs)" },
	{ "write_barrier", "write barriers are a Linux 2.6-era fio option for the sg engine, which "
			   "storbench does not have: use fsync= or fdatasync=" },
	{ NULL, NULL },
};

const char *sb_option_refusal(const char *name)
{
	for (unsigned i = 0; refused[i].name; i++)
		if (!strcasecmp(refused[i].name, name))
			return refused[i].reason;
	return NULL;
}
