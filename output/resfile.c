/* resfile.c: the results file of a run (resfile.h). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/log.h"
#include "output/output.h"
#include "output/resfile.h"

static int open_error(const char *path, int e, const char *why)
{
	sb_err("--output", "cannot write the results to %s: %s: give a file in an existing, "
	       "writable directory", path, *why ? why : strerror(-e));
	return e;
}

int sb_resfile_open(struct sb_resfile *o, const char *path, bool writer)
{
	struct stat st;
	const char *why = "";
	*o = (struct sb_resfile){ .f = stdout, .path = path };
	if (!writer) { /* one report, by rank 0 */
		o->f = fopen("/dev/null", "w");
		return o->f ? 0 : -errno;
	}
	if (!path)
		return 0;
	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
		o->fifo = path;
		o->f = NULL;
		return 0;
	}
	int e = sb_afile_open(&o->af, path, &why);
	o->f = o->af.f;
	return e ? open_error(path, e, why) : 0;
}

/* a FIFO's turn: open it now (blocks until a reader opens it) */
static int open_fifo(struct sb_resfile *o)
{
	const char *why = "";
	int e = sb_afile_open(&o->af, o->fifo, &why);
	o->f = o->af.f;
	o->fifo = NULL;
	return e ? open_error(o->path, e, why) : 0;
}

int sb_resfile_stream(struct sb_resfile *o)
{
	if (o->fifo && open_fifo(o))
		return -EIO;
	o->used = true;
	return 0;
}

void sb_resfile_drop(struct sb_resfile *o)
{
	if (o->used && o->af.f)
		(void)sb_afile_commit(&o->af);
	else if (o->af.f)
		sb_afile_abort(&o->af);
	else if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
}

int sb_resfile_write(struct sb_resfile *o, const struct sb_results *res, unsigned formats)
{
	if (o->fifo && open_fifo(o))
		return -EIO;
	if (!o->f)
		return -EBADF;
	int rc = sb_output_write(o->f, res, formats);
	if (o->f == stdout) {
		int e = fflush(stdout) || ferror(stdout) ? errno : 0;
		if (e || rc) {
			sb_err("<stdout>", "writing the results failed: %s", strerror(e ? e : -rc));
			rc = -(e ? e : -rc);
		}
	} else if (o->af.f) {
		if (rc) {
			if (sb_afile_error(&o->af)) /* the stream's errno, not the writer's EIO */
				rc = -sb_afile_error(&o->af);
			sb_afile_abort(&o->af);
		} else {
			rc = sb_afile_commit(&o->af);
		}
		if (rc)
			sb_err("--output", "%s: writing the results failed: %s (a file that was there "
			       "before is left as it was): free space there, or give another --output",
			       o->path, strerror(-rc));
	} else {
		fclose(o->f); /* /dev/null of a rank > 0 */
	}
	o->f = NULL;
	return rc;
}
