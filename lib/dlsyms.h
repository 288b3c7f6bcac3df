/* dlsyms.h: a shared library opened at run time with dlopen and a table of
 * its entry points looked up with dlsym into an API struct, for the NVIDIA
 * libraries storbench calls without a build dependency (lib/cuda.c,
 * lib/cufile.c). */
#ifndef SB_LIB_DLSYMS_H
#define SB_LIB_DLSYMS_H
#include <stddef.h>

/* an exported name and where its address goes in the API struct */
struct sb_dlsym {
	const char *name;
	size_t off;
};

/* Open lib and fill api from syms[0..n).  0; -ENOENT when lib cannot be
 * opened ("LIB not found (why): install PKG"); -EIO when a name is missing
 * ("LIB has no NAME: MISSING_FIX").  The library is never closed. */
int sb_dlsyms_load(const char *lib, const char *pkg, const char *missing_fix,
		   const struct sb_dlsym *syms, size_t n, void *api, char *why, size_t len);
#endif
