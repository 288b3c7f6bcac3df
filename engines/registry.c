/* registry.c: the engines this build has (configure decides which). */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "engines/engine.h"

extern const struct sb_engine_ops sb_engine_sync;
extern const struct sb_engine_ops sb_engine_psync;
extern const struct sb_engine_ops sb_engine_null;
extern const struct sb_engine_ops sb_engine_cpuio;
extern const struct sb_engine_ops sb_engine_exec;
extern const struct sb_engine_ops sb_engine_mmap;
extern const struct sb_engine_ops sb_engine_posixaio;
extern const struct sb_engine_ops sb_engine_libcufile;
extern const struct sb_engine_ops sb_engine_falloc;
extern const struct sb_engine_ops sb_engine_ftruncate;
extern const struct sb_engine_ops sb_engine_filecreate;
extern const struct sb_engine_ops sb_engine_filestat;
extern const struct sb_engine_ops sb_engine_filedelete;
extern const struct sb_engine_ops sb_engine_dircreate;
extern const struct sb_engine_ops sb_engine_dirstat;
extern const struct sb_engine_ops sb_engine_dirdelete;
#ifdef CONFIG_LIBAIO
extern const struct sb_engine_ops sb_engine_libaio;
#endif
#ifdef CONFIG_LIBURING
extern const struct sb_engine_ops sb_engine_io_uring;
#endif
#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#define SB_HAVE_S3 1
extern const struct sb_engine_ops sb_engine_s3, sb_engine_http;
#endif

const struct sb_engine_ops *const sb_engines[] = {
	&sb_engine_sync,
	&sb_engine_psync,
#ifdef CONFIG_LIBAIO
	&sb_engine_libaio,
#endif
#ifdef CONFIG_LIBURING
	&sb_engine_io_uring,
#endif
	&sb_engine_posixaio,
	&sb_engine_mmap,
	&sb_engine_libcufile,
	&sb_engine_falloc,
	&sb_engine_ftruncate,
	&sb_engine_filecreate,
	&sb_engine_filestat,
	&sb_engine_filedelete,
	&sb_engine_dircreate,
	&sb_engine_dirstat,
	&sb_engine_dirdelete,
#ifdef SB_HAVE_S3
	&sb_engine_s3,
	&sb_engine_http,
#endif
	&sb_engine_cpuio,
	&sb_engine_exec,
	&sb_engine_null,
	NULL,
};

/* the option rows of engines with a library (libaio.c, io_uring.c declare
 * them in every build) */
extern const struct sb_engine_options sb_libaio_optset, sb_io_uring_optset, sb_s3_optset;

/* engines storbench knows but that need a library configure did not find */
const struct sb_engine_missing sb_engines_missing[] = {
#ifndef CONFIG_LIBAIO
	{ "libaio", "libaio-dev", &sb_libaio_optset },
#endif
#ifndef CONFIG_LIBURING
	{ "io_uring", "liburing-dev", &sb_io_uring_optset },
#endif
#ifndef SB_HAVE_S3
#ifdef CONFIG_OPENSSL
	{ "s3", "libcurl4-openssl-dev", &sb_s3_optset },
	{ "http", "libcurl4-openssl-dev", &sb_s3_optset },
#else
	{ "s3", "libcurl4-openssl-dev libssl-dev", &sb_s3_optset },
	{ "http", "libcurl4-openssl-dev libssl-dev", &sb_s3_optset },
#endif
#endif
	{ NULL, NULL, NULL },
};

const struct sb_engine_ops *sb_engine_find(const char *name)
{
	for (unsigned i = 0; sb_engines[i]; i++)
		if (!strcmp(sb_engines[i]->name, name))
			return sb_engines[i];
	return NULL;
}

void sb_engine_names(char *buf, unsigned len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; sb_engines[i] && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", sb_engines[i]->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

const char *sb_engine_missing_package(const char *name)
{
	if (sb_engine_find(name))
		return NULL;
	for (unsigned i = 0; sb_engines_missing[i].name; i++)
		if (!strcmp(sb_engines_missing[i].name, name))
			return sb_engines_missing[i].package;
	return NULL;
}
