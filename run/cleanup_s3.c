/* cleanup_s3.c: storbench --cleanup s3://BUCKET[/PREFIX] (see cleanup.h):
 * the objects under PREFIX whose x-amz-meta-storbench-owner names a run
 * that is no longer running are deleted; objects without the mark (a
 * user's), kept on purpose, or of a run still running (or that cannot be
 * judged: another host) are left, each said.  The listing is taken whole
 * first, then each object is asked for its mark (HEAD) and judged as
 * --cleanup DIR judges files (os/scratch.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/s3client.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "os/scratch.h"
#include "run/cleanup.h"
#include "run/engtable.h"

struct keys {
	char **v;
	size_t n, cap;
};

static int add_key(const char *key, uint64_t size, void *arg)
{
	struct keys *k = arg;
	(void)size;
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 256;
		char **v = realloc(k->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		k->v = v, k->cap = cap;
	}
	return (k->v[k->n] = strdup(key)) ? (k->n++, 0) : -ENOMEM;
}

struct s3tally {
	unsigned removed, skipped, unmarked, kept, failed;
};

/* one object: judged by its mark, deleted when its creator is gone */
static void one(struct sb_s3_client *c, const char *bucket, const char *key, bool dry, FILE *out,
		struct s3tally *t)
{
	char mark[300], why[600], who[600];
	struct sb_scratch_mark m;
	const char *judged = NULL;
	int gone = 0;
	if (sb_s3_client_owner(c, bucket, key, mark, sizeof(mark), &gone, why, sizeof(why))) {
		sb_err("--cleanup", "s3://%s/%s: %s", bucket, key, why);
		t->failed++;
		return;
	}
	if (gone)
		return;
	if (sb_scratch_parse_mark(mark, &m) != 1) {
		t->unmarked++; /* a user's object: not a word about it, as for files */
		return;
	}
	sb_scratch_mark_str(&m, who, sizeof(who));
	if (m.kept) {
		t->kept++;
		return;
	}
	int ended = 0;
	switch (sb_scratch_owner_why(&m, &judged)) {
	case SB_OWNER_DEAD:
		if (sb_s3_client_run_kept(c, bucket, mark, &ended, why, sizeof(why))) {
			sb_err("--cleanup", "s3://%s/%s: %s", bucket, key, why);
			t->failed++;
			return;
		}
		if (ended) { /* its run ended and kept it: not a leftover */
			t->kept++;
			return;
		}
		break;
	case SB_OWNER_ALIVE:
		fprintf(out, "skipped s3://%s/%s: its creator is still running (%s)\n", bucket, key, who);
		t->skipped++;
		return;
	default:
		fprintf(out, "skipped s3://%s/%s: cannot tell whether its creator is still running: %s (%s)\n",
			bucket, key, judged, who);
		t->skipped++;
		return;
	}
	if (!dry && sb_s3_client_delete(c, bucket, key, why, sizeof(why))) {
		sb_err("--cleanup", "s3://%s/%s: cannot remove: %s", bucket, key, why);
		t->failed++;
		return;
	}
	fprintf(out, "%s s3://%s/%s (left by %s)\n", dry ? "would remove" : "removed", bucket, key, who);
	t->removed++;
}

int sb_cleanup_s3(const char *url, bool dry_run, FILE *out)
{
	char bucket[256], why[700];
	const char *p = url + 5, *slash = strchr(p, '/');
	size_t bl = slash ? (size_t)(slash - p) : strlen(p);
	if (!bl || bl >= sizeof(bucket)) {
		sb_err("--cleanup", "%s: name a bucket: --cleanup s3://BUCKET or s3://BUCKET/PREFIX", url);
		return -EINVAL;
	}
	snprintf(bucket, sizeof(bucket), "%.*s", (int)bl, p);
	const char *prefix = slash ? slash + 1 : "";
	struct sb_s3_client *c = NULL;
	int e = sb_s3_client_open(&c, &sb_run_engine_fs, why, sizeof(why));
	if (e) {
		sb_err("--cleanup", "%s: %s", url, why);
		return -EINVAL;
	}
	struct keys k = { 0 };
	struct s3tally t = { 0 };
	e = sb_s3_client_list(c, bucket, prefix, add_key, &k, why, sizeof(why));
	if (e)
		sb_err("--cleanup", "%s: %s (the endpoint: AWS_ENDPOINT_URL; the keys: AWS_ACCESS_KEY_ID and "
		       "AWS_SECRET_ACCESS_KEY or ~/.aws/credentials)", url, why);
	for (size_t i = 0; !e && i < k.n && !sb_stopping(); i++)
		one(c, bucket, k.v[i], dry_run, out, &t);
	bool stopped = !e && sb_stopping();
	for (size_t i = 0; i < k.n; i++)
		free(k.v[i]);
	free(k.v);
	sb_s3_client_close(c);
	if (e)
		return -EINVAL;
	fprintf(out, "storbench --cleanup %s: %s %u objects left by storbench runs that did not finish; "
		"skipped %u; left %u objects storbench did not make and %u it kept on purpose alone%s\n",
		url, dry_run ? "would remove" : "removed", t.removed, t.skipped, t.unmarked, t.kept,
		t.failed ? " (some could not be removed: see above)" : "");
	return stopped ? -EINTR : t.failed ? -EIO : 0;
}
