/* assert.c: what a failed SB_ASSERT does (lib/assert.h). */
#include <stdio.h>
#include <stdlib.h>

#include "lib/assert.h"

void sb_assert_fail(const char *cond, const char *file, int line, const char *func)
{
	fprintf(stderr, "storbench: internal error: %s:%d: %s: %s\n", file, line, func, cond);
	fflush(stderr);
	abort();
}
