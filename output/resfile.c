/* resfile.c: the results file of a run (resfile.h). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/log.h"
#include "output/output.h"
#include "output/resfile.h"

static const struct sb_outname res_name = { "--output", NULL, "the results" };

int sb_resfile_open(struct sb_resfile *o, const char *path, bool writer)
{
	struct stat st;
	*o = (struct sb_resfile){ .f = stdout, .path = path };
	if (!writer) { /* one report, by rank 0 */
		int e = sb_outfile_open(&o->af, "/dev/null", &res_name, 0);
		o->f = o->af.f;
		return e;
	}
	if (!path)
		return 0;
	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
		int e = sb_outfile_check(path, &res_name, SB_OUT_FIFO);
		if (e)
			return e;
		o->fifo = path;
		o->f = NULL;
		return 0;
	}
	int e = sb_outfile_open(&o->af, path, &res_name, 0);
	o->f = o->af.f;
	return e; /* the gate said why */
}

/* a FIFO's turn: open it now (blocks until a reader opens it) */
static int open_fifo(struct sb_resfile *o)
{
	int e = sb_outfile_open(&o->af, o->fifo, &res_name, SB_OUT_FIFO);
	o->f = o->af.f;
	o->fifo = NULL;
	return e; /* the gate said why; -EINTR: wait_reader says it */
}

/* the wait for an --output FIFO's reader: a stop signal (SIGINT, SIGTERM,
 * SIGHUP, SIGUSR2: no SA_RESTART) ends it with -EINTR, and main exits
 * 130, not 3; SIGUSR1 restarts it.  -EIO for another failure (said). */
static int wait_reader(struct sb_resfile *o)
{
	const char *path = o->path;
	int e = open_fifo(o);
	if (e == -EINTR)
		sb_err("interrupted", "--output=%s: stopped while waiting for a reader of the FIFO: "
		       "the results were not written there", path);
	return e == -EINTR ? e : e ? -EIO : 0;
}

int sb_resfile_stream(struct sb_resfile *o)
{
	int e = o->fifo ? wait_reader(o) : 0;
	if (e)
		return e;
	o->used = true;
	return 0;
}

void sb_resfile_drop(struct sb_resfile *o)
{
	if (o->used && o->af.f)
		(void)sb_outfile_commit(&o->af);
	else if (o->af.f)
		sb_outfile_abort(&o->af);
	else if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
}

int sb_resfile_write(struct sb_resfile *o, const struct sb_results *res, unsigned formats)
{
	int we = o->fifo ? wait_reader(o) : 0;
	if (we)
		return we;
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
			if (sb_outfile_error(&o->af)) /* the stream's errno, not the writer's EIO */
				rc = -sb_outfile_error(&o->af);
			sb_outfile_abort(&o->af);
		} else {
			rc = sb_outfile_commit(&o->af);
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
