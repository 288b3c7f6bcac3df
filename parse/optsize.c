/* optsize.c: the forms of a size option besides bytes (optsize.h):
 * N% of a file's size and fio's zone count Nz. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/optsize.h"
#include "parse/value.h"

#define FIELD(s, off, type) ((type *)((char *)(s) + (off)))

/* size=N%: 1-100 (0-100 for offsets, where 0% is the start) */
int sb_optsize_pct(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err)
{
	char *end;
	const char *p = val;
	while (*p == ' ' || *p == '\t')
		p++;
	errno = 0;
	double v = strtod(p, &end);
	bool ok = end != p && *end == '%' && !errno;
	for (end += ok; ok && *end; end++)
		ok = *end == ' ' || *end == '\t';
	double lo = o->min ? 0 : -1; /* size, io_size: more than 0 */
	if (!ok || !(v > lo && v <= 100)) {
		snprintf(err, SB_VERR_LEN, "invalid percentage '%s': expected %s to 100 followed by "
			 "'%%' (e.g. 50%%), or a size such as 4k or 1g", val, o->min ? "more than 0" : "0");
		return -EINVAL;
	}
	*FIELD(s, o->off2, double) = v > 0 ? v : 0;
	*FIELD(s, o->off, uint64_t) = 0;
	if (o->flags & SB_OF_ZONES)
		*FIELD(s, o->off3, uint64_t) = 0;
	return 0;
}

/* where row o keeps a zone count (SB_OF_ZONES) */
size_t sb_optsize_zone_off(const struct sb_option *o)
{
	return (o->flags & SB_OF_PCT) ? o->off3 : o->off2;
}

/* zoneskip=Nz, size=Nz...: N zones (fio parse.c:614-631); false when val
 * is not one */
bool sb_optsize_zones(const struct sb_option *o, struct sb_jobspec *s, const char *val)
{
	char *end;
	size_t n = strlen(val);
	if (!(o->flags & SB_OF_ZONES) || n < 2 || (val[n - 1] != 'z' && val[n - 1] != 'Z'))
		return false;
	errno = 0;
	unsigned long long v = strtoull(val, &end, 10);
	if (errno || end != val + n - 1 || v > UINT32_MAX || *val == '-')
		return false;
	*FIELD(s, sb_optsize_zone_off(o), uint64_t) = v;
	*FIELD(s, o->off, uint64_t) = 0;
	if (o->flags & SB_OF_PCT)
		*FIELD(s, o->off2, double) = 0;
	return true;
}
