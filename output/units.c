/* units.c: scaling numbers for normal output (see units.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/units.h"

static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
#define NPREFIX (sizeof(si) / sizeof(si[0]))

static unsigned int_digits(double v)
{
	unsigned d = 1;
	while (v >= 10.0) {
		v /= 10.0;
		d++;
	}
	return d;
}

char *sb_out_fmt_scaled(char *buf, size_t len, double v, unsigned base, unsigned maxdigits)
{
	const char *const *pfx = base == 1024 ? iec : si;
	double limit = pow(10.0, maxdigits);
	unsigned p = 0;
	if (!isfinite(v) || v < 0)
		v = 0;
	v = round(v * 1e6) / 1e6;
	if (v < limit) {
		snprintf(buf, len, "%.0f", floor(v));
		return buf;
	}
	while (v >= limit && p + 1 < NPREFIX) {
		v /= base;
		p++;
	}
	/* 9999.97k would print as "10000k": move up one more prefix */
	if (round(v) >= limit && p + 1 < NPREFIX) {
		v /= base;
		p++;
	}
	unsigned d = int_digits(v);
	int dec = (int)maxdigits - (int)d - 1;
	if (dec < 0)
		dec = 0;
	/* rounding may add a digit: 9.999 -> "10.00"; drop a decimal then */
	if (dec > 0 && int_digits(round(v * pow(10, dec)) / pow(10, dec)) > d)
		dec--;
	snprintf(buf, len, "%.*f%s", dec, v, pfx[p]);
	return buf;
}

static char *fmt_unit_sig(char *buf, size_t len, double v, unsigned base, const char *unit,
			  unsigned sig)
{
	char num[48];
	sb_out_fmt_scaled(num, sizeof(num), v, base, sig ? sig : 4);
	snprintf(buf, len, "%s%s", num, unit);
	return buf;
}

static char *fmt_unit(char *buf, size_t len, double v, unsigned base, const char *unit)
{
	return fmt_unit_sig(buf, len, v, base, unit, 4);
}

char *sb_out_fmt_bw_sig(char *buf, size_t len, double bytes_per_s, unsigned base, int bits,
			unsigned sig)
{
	if (bits)
		return fmt_unit_sig(buf, len, bytes_per_s * 8.0, base, "bit/s", sig);
	return fmt_unit_sig(buf, len, bytes_per_s, base, "B/s", sig);
}

char *sb_out_fmt_size_sig(char *buf, size_t len, double bytes, unsigned base, unsigned sig)
{
	return fmt_unit_sig(buf, len, bytes, base, "B", sig);
}

char *sb_out_fmt_bw(char *buf, size_t len, double bytes_per_s, unsigned base, int bits)
{
	if (bits)
		return fmt_unit(buf, len, bytes_per_s * 8.0, base, "bit/s");
	return fmt_unit(buf, len, bytes_per_s, base, "B/s");
}

char *sb_out_fmt_fixed(char *buf, size_t len, int prec, double v)
{
	snprintf(buf, len, "%.*f", prec, v);
	if (buf[0] == '-' && !buf[strspn(buf + 1, "0.") + 1])
		memmove(buf, buf + 1, strlen(buf));   /* "-0.00" -> "0.00" */
	return buf;
}

char *sb_out_fmt_size(char *buf, size_t len, double bytes, unsigned base)
{
	return fmt_unit(buf, len, bytes, base, "B");
}

struct sb_lat_unit sb_lat_unit_pick(uint64_t min_ns, uint64_t max_ns, double dev_ns, int use_dev)
{
	struct sb_lat_unit u = { "nsec", 1.0 };
	if (min_ns > 2000000 && max_ns > 99999999ull && (!use_dev || dev_ns > 1000000.0))
		return (struct sb_lat_unit){ "msec", 1e6 };
	if (min_ns > 2000 && max_ns > 99999 && (!use_dev || dev_ns > 1000.0))
		return (struct sb_lat_unit){ "usec", 1e3 };
	return u;
}
