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
	{ "dedupe_global", "storbench's data generator (lib/datagen.c) derives every block, duplicates "
			   "included, from the writing thread's own stream, so that verify can work "
			   "a block out again without a copy; a dedupe pool shared by jobs would make "
			   "one job's bytes depend on another's and is not built: drop dedupe_global "
			   "(each job then dedupes against its own blocks, dedupe_mode and "
			   "dedupe_working_set_percentage as written)" },
	{ NULL, NULL },
};

const char *sb_option_refusal(const char *name)
{
	for (unsigned i = 0; refused[i].name; i++)
		if (!strcasecmp(refused[i].name, name))
			return refused[i].reason;
	return NULL;
}
