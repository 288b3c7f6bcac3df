/* fullio.c: a read or write done whole (fullio.h). */
#include <errno.h>
#include <unistd.h>

#include "lib/fullio.h"

/* one call: at off (pos: at the file position) */
static ssize_t once(int fd, bool write_, char *buf, size_t len, bool pos, off_t off)
{
	if (pos)
		return write_ ? write(fd, buf, len) : read(fd, buf, len);
	return write_ ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);
}

/* off is handed to the kernel as it is: a negative one fails there (EINVAL) */
static ssize_t full(int fd, bool write_, char *buf, size_t len, bool pos, off_t off)
{
	size_t done = 0;
	while (done < len) {
		ssize_t r = once(fd, write_, buf + done, len - done, pos,
				 done ? off + (off_t)done : off);
		if (r < 0 && errno == EINTR && done)
			continue; /* a signal after some bytes: finish the transfer */
		if (r < 0)
			return -1;
		if (r == 0) {
			if (!write_)
				break; /* the end of the file: what is there */
			errno = EIO; /* a write that moves nothing never ends */
			return -1;
		}
		done += (size_t)r;
	}
	return (ssize_t)done;
}

ssize_t sb_pio_full(int fd, bool write_, void *buf, size_t len, off_t off)
{
	return full(fd, write_, buf, len, false, off);
}

ssize_t sb_io_full(int fd, bool write_, void *buf, size_t len)
{
	return full(fd, write_, buf, len, true, 0);
}
