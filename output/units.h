/* units.h: numbers for people: 4 significant digits with k/M/G or Ki/Mi/Gi
 * prefixes, bandwidth and size strings in both bases, latency units chosen
 * by magnitude.  Private to output/. */
#ifndef SB_OUT_UNITS_H
#define SB_OUT_UNITS_H
#include <stddef.h>
#include <stdint.h>

/* v scaled by base (1000 or 1024) until it fits in maxdigits integer digits,
 * with as many decimals as still fit: 20932 -> "20.9k", 8927 -> "8927".
 * base 1024 uses "Ki", "Mi", ...; base 1000 "k", "M", ... */
char *sb_out_fmt_scaled(char *buf, size_t len, double v, unsigned base, unsigned maxdigits);
/* bytes/s -> "81.7MiB/s" (base 1024) or "85.7MB/s" (base 1000);
 * bits: "654Mibit/s" / "685Mbit/s" */
char *sb_out_fmt_bw(char *buf, size_t len, double bytes_per_s, unsigned base, int bits);
/* the same with sig significant figures instead of 4 (significant_figures=) */
char *sb_out_fmt_bw_sig(char *buf, size_t len, double bytes_per_s, unsigned base, int bits,
			unsigned sig);
char *sb_out_fmt_size_sig(char *buf, size_t len, double bytes, unsigned base, unsigned sig);
/* v with prec decimals ("%.*f"), except that a value which rounds to zero
 * prints as "0", "0.00", never "-0" or "-0.00" (a difference of two nearly
 * equal figures, e.g. unused cpu-hours at 100% busy, can be -1e-12) */
char *sb_out_fmt_fixed(char *buf, size_t len, int prec, double v);
/* bytes -> "81.8MiB" / "85.7MB" */
char *sb_out_fmt_size(char *buf, size_t len, double bytes, unsigned base);

/* A latency unit for a set of nanosecond values: "nsec", "usec" or "msec"
 * and the divisor.  Larger units are picked once the smallest value has
 * more than 3 significant digits in them, the largest more than 5, and the
 * spread (stddev, or 0 for percentile lists) more than 3. */
struct sb_lat_unit {
	const char *name;
	double div;
};
struct sb_lat_unit sb_lat_unit_pick(uint64_t min_ns, uint64_t max_ns, double dev_ns, int use_dev);
#endif
