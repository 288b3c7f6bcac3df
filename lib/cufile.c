/* cufile.c: see cufile.h.  Opened once per process, never closed. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib/cufile.h"
#include "lib/dlsyms.h"

static struct sb_cufile_api api;
static int load_rc, p2p_mode;
static char load_why[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const struct sb_dlsym syms[] = {
#define S(field) { #field, offsetof(struct sb_cufile_api, field) }
	S(cuFileDriverOpen), S(cuFileDriverGetProperties), S(cuFileHandleRegister),
	S(cuFileHandleDeregister), S(cuFileBufRegister), S(cuFileBufDeregister), S(cuFileRead),
	S(cuFileWrite),
#undef S
};

static void load_once(void)
{
	load_rc = sb_dlsyms_load(SB_CUFILE_LIB, SB_CUFILE_PKG, "update " SB_CUFILE_PKG, syms,
				 sizeof(syms) / sizeof(syms[0]), &api, load_why, sizeof(load_why));
	if (load_rc)
		return;
	sb_CUfileError_t r = api.cuFileDriverOpen();
	if (r.err) {
		snprintf(load_why, sizeof(load_why), "%s: cuFileDriverOpen: error %d (CUresult %d): "
			 "see cufile.log and gdscheck -p", SB_CUFILE_LIB, r.err, r.cu_err);
		load_rc = -EIO;
		return;
	}
	sb_CUfileDrvProps_t props;
	memset(&props, 0, sizeof(props));
	r = api.cuFileDriverGetProperties(&props);
	p2p_mode = !r.err && props.nvfs_major > 0;
}

int sb_cufile_load(const struct sb_cufile_api **out, int *p2p, char *why, size_t len)
{
	pthread_once(&once, load_once);
	if (load_rc) {
		snprintf(why, len, "%s", load_why);
		return load_rc;
	}
	*out = &api;
	*p2p = p2p_mode;
	return 0;
}
