/* s3auth.c: where the object-storage engines send their requests and
 * with which keys: the options, else AWS's environment variables, else
 * the profile of the shared credentials file (read through run/'s reader). */
#include "engines/s3.h"

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

/* an option's value, else the environment's (AWS's variable names) */
static const char *opt_env(const char *opt, const char *env1, const char *env2)
{
	if (opt && *opt)
		return opt;
	const char *v = env1 ? getenv(env1) : NULL;
	if ((!v || !*v) && env2)
		v = getenv(env2);
	return v && *v ? v : NULL;
}

/* host and credentials: the options, else the AWS environment variables,
 * else the profile (AWS_PROFILE, default "default") of the shared
 * credentials file, read through run/'s reader (td->job->fs->read_cred) */
int sb_s3_auth(struct s3_td *d, struct sb_engine_td *td)
{
	const struct s3_opts *o = d->o;
	const char *host = opt_env(o->host, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL");
	if (!host)
		host = "localhost";
	size_t skip = !strncmp(host, "http://", 7) ? 7 : !strncmp(host, "https://", 8) ? 8 : 0;
	d->https = skip == 8 && o->https == S3_HTTPS_OFF ? S3_HTTPS_ON : o->https;
	snprintf(d->host, sizeof(d->host), "%s", host + skip);
	d->vhost = d->kind == S3_KIND_S3 && !o->path_style; /* BUCKET.host per request (s3req.c) */
	d->host[strcspn(d->host, "/")] = '\0';
	d->sign = d->kind == S3_KIND_S3 || o->mode == S3_MODE_S3;
	if (!d->sign)
		return 0;
	const char *keyid = opt_env(o->keyid, "AWS_ACCESS_KEY_ID", NULL);
	const char *key = opt_env(o->key, "AWS_SECRET_ACCESS_KEY", NULL);
	const char *region = opt_env(o->region, "AWS_REGION", "AWS_DEFAULT_REGION");
	d->token = opt_env(o->token, "AWS_SESSION_TOKEN", NULL);
	char fid[128] = "", fkey[128] = "", ftok[1024] = "";
	if ((!keyid || !key) && td->job && td->job->fs && td->job->fs->read_cred &&
	    td->job->fs->read_cred(fid, sizeof(fid), fkey, sizeof(fkey), ftok, sizeof(ftok)) == 0) {
		keyid = fid;
		key = fkey;
		if (!d->token && ftok[0])
			snprintf(d->tokbuf, sizeof(d->tokbuf), "%s", ftok), d->token = d->tokbuf;
	}
	if (!keyid || !*keyid || !key || !*key) {
		snprintf(td->errmsg, sizeof(td->errmsg), "no S3 credentials: set http_s3_keyid= and http_s3_key=, "
			 "or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in ~/.aws/credentials");
		return -EINVAL;
	}
	int e = sb_sigv4_init(&d->sig, keyid, key, region ? region : "us-east-1", "s3");
	memset(fkey, 0, sizeof(fkey));
	if (e)
		snprintf(td->errmsg, sizeof(td->errmsg), "http_s3_keyid, http_s3_key or http_s3_region is too long");
	return e;
}

#endif
