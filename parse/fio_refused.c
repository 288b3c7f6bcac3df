/* fio_refused.c: fio options storbench refuses on purpose, each with the
 * reason and, where there is one, the storbench way to get the same thing.
 * A job file that uses one gets this text instead of the generic "not
 * supported".  Names and reasons only, no fio code. */
#include <stddef.h>
#include <strings.h>

#include "parse/options.h"

#define ZBD "a zoned-mode option of fio newer than 3.33, which storbench's zonemode=zbd " \
	    "follows: drop it, or run this job with that fio"

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
