/* pattern.h: fio's data-pattern syntax (buffer_pattern=, and the same
 * syntax for verify_pattern=): elements written one after the other,
 *   0xHEX     bytes in the order written (an odd digit count gets a leading 0)
 *   DECIMAL   an integer, little-endian, in the fewest bytes that hold it
 *             (a negative one in 4 bytes, or 8 below -2^31)
 *   "string"  its characters (no escapes)
 *   %o        8 bytes filled at write time with the I/O's offset
 *             (little-endian)
 * e.g. 0xdeadbeef"abc"-12%o.  fio's 'filename' element is not supported.
 * Elements may run into each other as in fio 3.33 (lib/pattern.c:143, :174):
 * a digit run (decimal or hex) that ends in "0x" stops before that 0, which
 * starts the next hex element: "abcd"-120xdeadface is "abcd", -12,
 * 0xdeadface; 0xff0x14 is ff 14.  Blanks and '+' may come before a decimal
 * (fio reads it with strtol): "12 3" is 0c 03.
 * A job file's buffer_pattern="abcd" reaches the parser without its quotes
 * (the job-file layer drops quotes around a whole value); parse/check_buf.c
 * then takes a value that is not a pattern, does not start with a digit or
 * '-' and holds no '"' or '%', as one string, so fio's example works ("1234" is the number 1234, though). */
#ifndef SB_PATTERN_H
#define SB_PATTERN_H
#include <stddef.h>

/* Decode s into out (at most cap bytes); the byte positions of each %o go
 * to ofs (at most ofs_cap).  Returns 0, or -EINVAL with a message in err
 * (errlen bytes) naming what is wrong. */
int sb_pattern_parse(const char *s, unsigned char *out, size_t cap, size_t *len,
		     unsigned short *ofs, unsigned ofs_cap, unsigned *nofs, char *err, size_t errlen);
#endif
