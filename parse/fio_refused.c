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
	{ "recover_zbd_write_error", ZBD },
	{ "write_zone_remainders", ZBD },
	{ NULL, NULL },
};

const char *sb_option_refusal(const char *name)
{
	for (unsigned i = 0; refused[i].name; i++)
		if (!strcasecmp(refused[i].name, name))
			return refused[i].reason;
	return NULL;
}
