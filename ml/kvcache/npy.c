/* npy.c: the .npy header (see npy.h). */
#include <stdio.h>
#include <string.h>

#include "ml/kvcache/npy.h"

const char *sb_npy_descr(unsigned elem_bytes, char *buf, size_t len)
{
	switch (elem_bytes) {
	case 1: return "|u1";
	case 2: return "<f2";
	case 4: return "<f4";
	case 8: return "<f8";
	default:
		snprintf(buf, len, "|V%u", elem_bytes);
		return buf;
	}
}

size_t sb_npy_header(char *buf, size_t cap, const char *descr, const uint64_t *shape, unsigned nd)
{
	char dict[SB_NPY_HDR_MAX];
	size_t n = (size_t)snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (",
				    descr);
	for (unsigned i = 0; i < nd && n < sizeof(dict); i++)
		n += (size_t)snprintf(dict + n, sizeof(dict) - n, i ? ", %llu" : "%llu",
				      (unsigned long long)shape[i]);
	if (n < sizeof(dict))
		n += (size_t)snprintf(dict + n, sizeof(dict) - n, "%s), }", nd == 1 ? "," : "");
	/* 10 bytes of preamble, the dict, spaces, '\n': a multiple of 64 */
	size_t total = (10 + n + 1 + 63) / 64 * 64;
	if (n >= sizeof(dict) || total > cap || total - 10 > 65535)
		return 0;
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	buf[8] = (char)((total - 10) & 0xff);
	buf[9] = (char)((total - 10) >> 8);
	memcpy(buf + 10, dict, n);
	memset(buf + 10 + n, ' ', total - 10 - n - 1);
	buf[total - 1] = '\n';
	return total;
}
