/* replay.c: main() that feeds each file named on the command line to the
 * harness's LLVMFuzzerTestOneInput once, so that a build without libFuzzer
 * (gcc) checks the regression inputs in t/fuzz/regress: a crash, a sanitizer
 * report or a leak fails the run.  Usage: replay-NAME FILE... */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t/fuzz/fuzz.h"

static int replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap = cap ? 2 * cap : 4096);
			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		size_t r = fread(buf + len, 1, cap - len, f);
		if (!r)
			break;
		len += r;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;
	for (int i = 1; i < argc; i++)
		bad |= replay(argv[i]) != 0;
	return bad;
}
