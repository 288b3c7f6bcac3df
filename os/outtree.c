/* outtree.c: a results tree written whole or not at all (outtree.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "os/outfile.h"
#include "os/outtree.h"
#include "os/scratch.h"

struct made {
	char *path;
	struct sb_scratch_id id;
	bool dir;
};

struct open_file {
	struct sb_outfile of;
	bool used;
};

#define MAX_OPEN 4
static struct made *made;
static size_t nmade, cap;
static bool active;
static struct open_file files[MAX_OPEN];

static int remember(const char *path, const struct sb_scratch_id *id, bool dir)
{
	if (nmade == cap) {
		size_t nc = cap ? 2 * cap : 16;
		struct made *m = realloc(made, nc * sizeof(*m));
		if (!m)
			return -ENOMEM;
		made = m;
		cap = nc;
	}
	if (!(made[nmade].path = strdup(path)))
		return -ENOMEM;
	made[nmade].id = *id;
	made[nmade++].dir = dir;
	return 0;
}

int sb_outtree_begin(const char *dir)
{
	struct sb_scratch_id id;
	(void)sb_outtree_end(true);
	int e = sb_outfile_mkdir(dir, 0755, NULL, &id);
	if (!e) {
		active = true;
		e = remember(dir, &id, true);
	}
	return e;
}

int sb_outtree_mkdir(const char *job, const char *path)
{
	struct sb_scratch_id id;
	int e = sb_outfile_mkdir(path, 0755, NULL, &id);
	if (!e && active)
		e = remember(path, &id, true);
	if (e)
		sb_err(job, "results_dir: cannot create %s: %s", path, strerror(-e));
	return e;
}

FILE *sb_outtree_file(const char *job, const char *path)
{
	struct open_file *o = NULL;
	for (size_t i = 0; i < MAX_OPEN && !o; i++)
		if (!files[i].used)
			o = &files[i];
	if (!o) {
		errno = EMFILE;
		return NULL;
	}
	int e = sb_outfile_open(&o->of, path, &(struct sb_outname){ "results_dir", job,
				"the results file" }, SB_OUT_NEW);
	if (e) {
		errno = -e; /* the gate said why */
		return NULL;
	}
	o->used = true;
	return o->of.f;
}

int sb_outtree_close(const char *job, FILE *f)
{
	struct sb_scratch_id id;
	char path[4096];
	for (size_t i = 0; i < MAX_OPEN; i++) {
		struct open_file *o = &files[i];
		if (!o->used || o->of.f != f)
			continue;
		snprintf(path, sizeof(path), "%s", o->of.path);
		o->used = false;
		int e = sb_outfile_commit_id(&o->of, &id);
		if (!e && active)
			e = remember(path, &id, false);
		if (e)
			sb_err(job, "results_dir: cannot write %s: %s", path, strerror(-e));
		return e;
	}
	return -EBADF;
}

int sb_outtree_end(bool ok)
{
	int first = 0;
	for (size_t i = 0; i < MAX_OPEN; i++)
		if (files[i].used) {
			sb_outfile_abort(&files[i].of);
			files[i].used = false;
		}
	while (nmade) {
		struct made *m = &made[--nmade];
		if (!ok) { /* only what this run made, while its name still names it */
			int e = m->dir ? sb_scratch_rmdir(m->path, &m->id)
				       : sb_scratch_unlink(m->path, &m->id);
			if (e && e != -ENOENT && !first)
				first = e;
		}
		free(m->path);
	}
	free(made);
	made = NULL;
	cap = 0;
	active = false;
	return ok ? 0 : first;
}
