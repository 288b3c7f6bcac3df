/* test_pattern_fio.c: lib/pattern.c against fio 3.33's pattern grammar
 * (fio's lib/pattern.c parse_and_fill_pattern) where the elements run into
 * each other (fio's t/jobs/t0028 and t/verify.py use
 * buffer_pattern/verify_pattern="abcd"-120xdeadface).  fio's facts:
 * - lib/pattern.c:143-147 (parse_number): a decimal number stops where the
 *   next "0x" (either case) starts: "-120xdeadface" is -12, then 0xdeadface;
 *   the number is read with strtol (blanks and '+' before it taken).
 * - lib/pattern.c:174-175: a hex run that ends in "0x" gives that 0 to the
 *   next element: "0xff0x14" is ff, then 14 (fio's own example #4:
 *   0xFF0X1 -> ff 01).
 * - lib/pattern.c:160-165: a decimal in the fewest little-endian bytes
 *   that hold it as an unsigned int (a negative one: 4 bytes), 0 as one
 *   byte; lib/pattern.c:180-189: an odd hex digit count gives the first
 *   digit a byte of its own.
 * The expected bytes below were also checked by writing each pattern with
 * fio 3.33 (buffer_pattern=, a 64-byte write) and reading the file back. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "lib/pattern.h"

static int parse(const char *in, char *hex, size_t hexlen)
{
	unsigned char out[256];
	unsigned short ofs[4];
	size_t len = 0;
	unsigned n;
	char err[200];
	int r = sb_pattern_parse(in, out, sizeof(out), &len, ofs, 4, &n, err, sizeof(err));
	hex[0] = '\0';
	for (size_t i = 0; !r && i < len && 2 * i + 2 < hexlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
	return r;
}

/* the bytes fio writes for the decimal v (in int range) */
static void dec_bytes(long v, char *hex)
{
	uint32_t u = (uint32_t)v;
	hex[0] = '\0';
	if (!u) {
		strcpy(hex, "00");
		return;
	}
	for (size_t i = 0; u; i++, u >>= 8)
		snprintf(hex + 2 * i, 3, "%02x", u & 0xff);
}

/* the bytes of a hex run (odd: first digit alone) */
static void hex_bytes(const char *digits, char *hex)
{
	size_t n = strlen(digits), o = 0;
	char lower[64];
	for (size_t i = 0; i <= n; i++)
		lower[i] = (char)(digits[i] >= 'A' && digits[i] <= 'F' ? digits[i] + 32 : digits[i]);
	if (n % 2)
		o += (size_t)sprintf(hex, "0%c", lower[0]);
	for (size_t i = n % 2; i < n; i += 2)
		o += (size_t)sprintf(hex + o, "%c%c", lower[i], lower[i + 1]);
	hex[o] = '\0';
}

static void one(const char *in, const char *want)
{
	char got[600];
	int r = parse(in, got, sizeof(got));
	CU_ASSERT_EQUAL(r, 0);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (r || strcmp(got, want))
		fprintf(stderr, "\n  pattern %s: got %s (rc %d), want %s\n", in, got, r, want);
}

/* what fio 3.33 wrote for each */
static void test_fio_examples(void)
{
	one("\"abcd\"-120xdeadface", "61626364f4ffffffdeadface");
	one("10x5", "0105");
	one("100x5", "0a05");
	one("0xff0x14", "ff14");
	one("0xFF0X1", "ff01");
	one("-100xab\"1\"2", "f6ffffffab3102");
	one("+5", "05");
	one(" 5", "05");
	one("-0", "00");
	one("\"123\"0xFFeeCC", "313233ffeecc");
	one("12\"ab\"", "0c6162");
	one("12 3", "0c03"); /* strtol takes the blank: fio 3.33 too */
	one("\"a\" 3", "6103");
	one("0x12 3", "1203");
}

/* the rule: DECIMAL immediately followed by 0xHEX is the number, then the
 * hex bytes, for every decimal ending in 0 (the case the look-ahead
 * decides) and hex runs of odd and even length, either case of x */
static void test_decimal_then_hex(void)
{
	static const long decs[] = { 0, 10, -10, 120, -120, 100, 2000, -2147483640L,
				     2147483640L, 65280, -65280, 1000000, 50 };
	static const char *const hexes[] = { "deadface", "1", "abc", "ABCDEF0", "00", "f0" };
	for (size_t i = 0; i < sizeof(decs) / sizeof(decs[0]); i++)
		for (size_t j = 0; j < sizeof(hexes) / sizeof(hexes[0]); j++)
			for (int x = 0; x < 2; x++) {
				char in[80], want[200], hb[64];
				snprintf(in, sizeof(in), "%ld0%c%s", decs[i], x ? 'X' : 'x', hexes[j]);
				dec_bytes(decs[i], want);
				hex_bytes(hexes[j], hb);
				strcat(want, hb);
				one(in, want);
				/* and after a string, as in t0028 */
				snprintf(in, sizeof(in), "\"ab\"%ld0x%s", decs[i], hexes[j]);
				snprintf(want, sizeof(want), "6162");
				dec_bytes(decs[i], want + 4);
				strcat(want, hb);
				one(in, want);
			}
}

/* the rule: a hex run ending in 0 right before another 0x gives that 0 to
 * the next element; chains of several */
static void test_hex_then_hex(void)
{
	static const char *const runs[] = { "ff", "f", "abc", "12345", "ABCDEF", "0" };
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		for (size_t j = 0; j < sizeof(runs) / sizeof(runs[0]); j++) {
			char in[80], want[200], a[64], b[64];
			snprintf(in, sizeof(in), "0x%s0x%s0X%s", runs[i], runs[j], runs[i]);
			hex_bytes(runs[i], a);
			hex_bytes(runs[j], b);
			snprintf(want, sizeof(want), "%s%s%s", a, b, a);
			if (!strcmp(runs[i], "0") || !strcmp(runs[j], "0"))
				continue; /* "0x00x.." : see test_refused */
			one(in, want);
		}
}

/* what fio 3.33 refuses (or aborts on) stays refused */
static void test_refused(void)
{
	static const char *const bad[] = { "0x0x5", "-0x5", "0x", "\"ab\"0xg", "12 \"a\"", "-",
					   "+", "0xff0x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char got[64];
		int r = parse(bad[i], got, sizeof(got));
		CU_ASSERT_EQUAL(r, -EINVAL);
		if (r != -EINVAL)
			fprintf(stderr, "\n  pattern %s: accepted as %s\n", bad[i], got);
	}
}

static CU_TestInfo tests[] = {
	{ "fio 3.33's bytes", test_fio_examples },
	{ "decimal then 0x", test_decimal_then_hex },
	{ "hex then 0x", test_hex_then_hex },
	{ "refused", test_refused },
	CU_TEST_INFO_NULL,
};
SB_SUITE(pattern_fio, tests)
