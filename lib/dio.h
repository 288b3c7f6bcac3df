/* dio.h: what direct I/O (O_DIRECT) asks of offsets, lengths and buffers, as
 * one value that os/ learns from the kernel (os/dio.h) and parse/ checks a
 * job against (sb_spec_check_direct, parse/parse.h). */
#ifndef SB_LIB_DIO_H
#define SB_LIB_DIO_H
#include <stdbool.h>

/* The smallest direct-I/O alignment any Linux device has (a 512-byte
 * logical block): a size that is not a multiple of it is wrong everywhere,
 * so the parser checks it without a device, and os/ assumes it where the
 * kernel does not say. */
#define SB_DIO_ALIGN_MIN 512u

struct sb_dio_align {
	unsigned offset;     /* bytes: file offsets and I/O lengths are multiples of it */
	unsigned mem;        /* bytes: buffer addresses are multiples of it; 0: not stated */
	bool unsupported;    /* the kernel says the file cannot do direct I/O at all */
	const char *source;  /* how it was learned, for messages ("statx", ...) */
};
#endif
