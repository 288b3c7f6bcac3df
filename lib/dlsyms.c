/* dlsyms.c: see dlsyms.h. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/dlsyms.h"

int sb_dlsyms_load(const char *lib, const char *pkg, const char *missing_fix,
		   const struct sb_dlsym *syms, size_t n, void *api, char *why, size_t len)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, len, "%s not found (%s): install %s", lib, e ? e : "dlopen failed", pkg);
		return -ENOENT;
	}
	for (size_t i = 0; i < n; i++) {
		void *f = dlsym(h, syms[i].name);
		if (!f) {
			snprintf(why, len, "%s has no %s: %s", lib, syms[i].name, missing_fix);
			return -EIO;
		}
		memcpy((char *)api + syms[i].off, &f, sizeof(f));
	}
	return 0;
}
