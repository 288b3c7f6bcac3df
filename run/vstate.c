/* vstate.c: saving and loading the verify write tracker (see vstate.h).
 * Runs after the write phase or before a verify_only pass, never on the
 * per-I/O path. */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "os/infile.h"
#include "os/outfile.h"
#include "run/vstate.h"

static const char *aux_dir; /* --aux-path */

void sb_vstate_aux_path(const char *dir)
{
	aux_dir = dir && *dir ? dir : NULL;
}

void sb_vstate_path(char *buf, unsigned len, const char *path0, const char *job, unsigned thread)
{
	char dir[4096] = ".";
	struct stat st;
	if (aux_dir) {
		snprintf(dir, sizeof(dir), "%s", aux_dir);
	} else if (path0 && stat(path0, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(dir, sizeof(dir), "%s", path0);
		char *d = dirname(dir);
		memmove(dir, d, strlen(d) + 1);
	}
	snprintf(buf, len, "%s/local-%s-%u-verify.state", dir, job, thread);
}

/* a slot's generation (bit 31 is the run's own "checked" mark) */
#define G(t, s) ((t)->gen[s] & 0x7fffffffu)

int sb_vstate_save(const char *file, const struct sb_vstate_id *id, const struct sb_vtrack *tr,
		   char *const *paths, unsigned nfiles)
{
	struct sb_outfile of; /* a temporary beside it, renamed over it once whole */
	int e = sb_outfile_open(&of, file, &(struct sb_outname){ "verify_state_save", NULL,
				"the verify state" }, 0);
	if (e)
		return e;
	FILE *f = of.f;
	fprintf(f, "storbench-verify-state 1\njob %s thread %u type %s interval %" PRIu64
		" seed 0x%" PRIx64 " gen %" PRIu64 " files %u index %u start %" PRIu64 "\n", id->job,
		id->thread, id->type, id->interval, id->seed, id->gen, nfiles, id->index, id->start);
	for (unsigned i = 0; i < nfiles; i++) {
		const struct sb_vtrack *t = &tr[i];
		fprintf(f, "file %u %" PRIu64 " %" PRIu64 " %s\n", i, t->start, t->nslots, paths[i]);
		for (uint64_t s = 0; s < t->nslots;) {
			if (!G(t, s)) {
				s++;
				continue;
			}
			uint64_t n = 1;
			int64_t step = s + 1 < t->nslots && G(t, s + 1) ?
				       (int64_t)G(t, s + 1) - (int64_t)G(t, s) : 0;
			while (s + n < t->nslots && G(t, s + n) &&
			       (int64_t)G(t, s + n) - (int64_t)G(t, s + n - 1) == step)
				n++;
			fprintf(f, "%" PRIu64 " %" PRIu64 " %" PRIu32 " %" PRId64 "\n", s, n, G(t, s),
				step);
			s += n;
		}
	}
	fprintf(f, "end\n");
	return sb_outfile_commit(&of);
}

static int __attribute__((format(printf, 3, 4))) bad(char *why, unsigned len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int sb_vstate_load(const char *file, const struct sb_vstate_id *id, struct sb_vtrack *tr,
		   unsigned nfiles, uint64_t *gen, uint64_t *seed, char *why, unsigned whylen)
{
	char owhy[256];
	FILE *f = sb_in_fopen(file, &sb_in_vstate, 0, owhy, sizeof(owhy)); /* the one reader */
	if (!f) {
		int e = errno;
		snprintf(why, whylen, "cannot open %s: %s (run the writing job with "
			 "verify_state_save=1 first)", file, owhy);
		return -e;
	}
	char job[256], type[32], line[4400];
	unsigned thread, nf, ver;
	uint64_t iv;
	int r = 0;
	if (!fgets(line, sizeof(line), f) || sscanf(line, "storbench-verify-state %u", &ver) != 1 ||
	    ver != 1) {
		r = bad(why, whylen, "%s is not a storbench verify state file (version 1)", file);
		goto out;
	}
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "job %255s thread %u type %31s interval %" SCNu64 " seed %" SCNx64
		   " gen %" SCNu64 " files %u", job, &thread, type, &iv, seed, gen, &nf) != 7) {
		r = bad(why, whylen, "%s: the job line is malformed", file);
		goto out;
	}
	if (strcmp(job, id->job) || thread != id->thread || strcmp(type, id->type) ||
	    iv != id->interval || nf != nfiles) {
		snprintf(why, whylen, "%s was saved by job %s thread %u with verify=%s, interval "
			 "%" PRIu64 ", %u files; this run is job %s thread %u, verify=%s, interval "
			 "%" PRIu64 ", %u files: run the same job as the one that wrote", file, job,
			 thread, type, iv, nf, id->job, id->thread, id->type, id->interval, nfiles);
		r = -EINVAL;
		goto out;
	}
	int cur = -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned idx;
		uint64_t start, nslots, s, n;
		uint32_t g;
		int64_t step;
		if (!strcmp(line, "end\n"))
			goto out;
		if (sscanf(line, "file %u %" SCNu64 " %" SCNu64, &idx, &start, &nslots) == 3) {
			if (idx >= nfiles || start != tr[idx].start || nslots != tr[idx].nslots) {
				r = bad(why, whylen, "%s: a file's region differs from this run's "
					"(offset=, size=): run the same job as the one that wrote", file);
				goto out;
			}
			cur = (int)idx;
			continue;
		}
		if (cur < 0 || sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu32 " %" SCNd64, &s, &n,
				      &g, &step) != 4 || s + n > tr[cur].nslots) {
			r = bad(why, whylen, "%s: a slot line is malformed or out of range", file);
			goto out;
		}
		for (uint64_t k = 0; k < n; k++)
			tr[cur].gen[s + k] = (uint32_t)((int64_t)g + (int64_t)k * step);
	}
	r = bad(why, whylen, "%s is truncated (no \"end\" line)", file);
out:
	fclose(f);
	return r;
}

/* the first two lines of a state file */
struct head {
	char job[256], type[32];
	unsigned thread, nf, index;
	uint64_t iv, seed, gen, start;
};

static bool read_head(FILE *f, struct head *h)
{
	char line[4400];
	unsigned ver;
	if (!fgets(line, sizeof(line), f) || sscanf(line, "storbench-verify-state %u", &ver) != 1 ||
	    ver != 1)
		return false;
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "job %255s thread %u type %31s interval %" SCNu64 " seed %" SCNx64
		   " gen %" SCNu64 " files %u", h->job, &h->thread, h->type, &h->iv, &h->seed,
		   &h->gen, &h->nf) != 7)
		return false;
	h->index = 0;
	h->start = 0;
	const char *x = strstr(line, " index ");
	if (x && sscanf(x, " index %u start %" SCNu64, &h->index, &h->start) != 2)
		h->start = 0;
	return true;
}

uint64_t sb_vstate_start(const char *file, const struct sb_vstate_id *id)
{
	FILE *f = sb_in_fopen(file, &sb_in_vstate, SB_IN_NORECORD, NULL, 0);
	struct head h;
	uint64_t start = 0;
	if (!f)
		return 0;
	if (read_head(f, &h) && !strcmp(h.job, id->job) && h.thread == id->thread &&
	    !strcmp(h.type, id->type) && h.iv == id->interval && h.seed == id->seed)
		start = h.start;
	fclose(f);
	return start;
}

struct cand {
	uint64_t start;
	char name[300];
};

static int by_start(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Apply one state's slots of the file (dev, ino) to k as writer w.  When
 * k is NULL, only say whether the state names the file. */
static bool apply(FILE *f, dev_t dev, ino_t ino, uint64_t iv, struct sb_vknown *k, unsigned w)
{
	char line[4400];
	bool mine = false, named = false;
	uint64_t fstart = 0;
	while (fgets(line, sizeof(line), f) && strcmp(line, "end\n")) {
		unsigned idx;
		uint64_t nslots, s0, n;
		uint32_t g;
		int64_t step;
		int pos = 0;
		if (sscanf(line, "file %u %" SCNu64 " %" SCNu64 " %n", &idx, &fstart, &nslots, &pos) == 3 &&
		    pos) {
			struct stat st;
			line[strcspn(line, "\n")] = 0;
			mine = stat(line + pos, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
			named |= mine;
			if (mine && !k)
				return true;
			continue;
		}
		if (!mine || !k || sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu32 " %" SCNd64, &s0, &n,
					  &g, &step) != 4)
			continue;
		for (uint64_t j = 0; j < n; j++) {
			uint64_t off = fstart + (s0 + j) * iv;
			if (off < k->start || (off - k->start) % iv || (off - k->start) / iv >= k->nslots)
				continue;
			uint64_t slot = (off - k->start) / iv;
			k->gen[slot] = (uint32_t)((int64_t)g + (int64_t)j * step);
			k->who[slot] = (uint8_t)w;
		}
	}
	return named;
}

int sb_vstate_known(const char *path, const char *type, uint64_t interval, struct sb_vknown *k)
{
	char dir[4200], name[4600];
	struct stat st;
	k->gen = NULL;
	k->who = NULL;
	k->nw = 0;
	if (stat(path, &st))
		return 0;
	sb_vstate_path(dir, sizeof(dir), path, "", 0);
	dir[strlen(dir) - strlen("/local--0-verify.state")] = 0;
	DIR *d = sb_in_opendir(dir, 1, NULL, 0);
	if (!d)
		return 0;
	struct cand *c = malloc(SB_VKNOWN_MAX * sizeof(*c));
	unsigned nc = 0;
	struct dirent *e;
	while (c && nc < SB_VKNOWN_MAX && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "local-", 6) || len < 19 || len >= sizeof(c->name) ||
		    strcmp(e->d_name + len - 13, "-verify.state"))
			continue;
		snprintf(name, sizeof(name), "%s/%s", dir, e->d_name);
		FILE *f = sb_in_fopen(name, &sb_in_vstate, SB_IN_NOFOLLOW | SB_IN_NORECORD, NULL, 0);
		struct head h;
		if (!f)
			continue;
		if (read_head(f, &h) && !strcmp(h.type, type) && h.iv == interval &&
		    apply(f, st.st_dev, st.st_ino, interval, NULL, 0)) {
			c[nc].start = h.start;
			snprintf(c[nc].name, sizeof(c[nc].name), "%s", e->d_name);
			nc++;
		}
		fclose(f);
	}
	closedir(d);
	if (!c)
		return -ENOMEM;
	int r = 0;
	if (nc) {
		k->gen = calloc(k->nslots ? k->nslots : 1, sizeof(*k->gen));
		k->who = calloc(k->nslots ? k->nslots : 1, 1);
		if (!k->gen || !k->who)
			r = -ENOMEM;
	}
	qsort(c, nc, sizeof(*c), by_start); /* the newest writer of a slot applies last */
	for (unsigned i = 0; !r && i < nc; i++) {
		snprintf(name, sizeof(name), "%s/%s", dir, c[i].name);
		FILE *f = sb_in_fopen(name, &sb_in_vstate, SB_IN_NOFOLLOW | SB_IN_NORECORD, NULL, 0);
		struct head h;
		if (!f)
			continue;
		if (read_head(f, &h)) {
			k->w[k->nw] = (struct sb_vwriter){ h.seed, h.start, h.index, h.thread };
			(void)apply(f, st.st_dev, st.st_ino, interval, k, k->nw);
			k->nw++;
		}
		fclose(f);
	}
	free(c);
	if (r)
		sb_vstate_known_free(k);
	return r;
}

void sb_vstate_known_free(struct sb_vknown *k)
{
	free(k->gen);
	free(k->who);
	k->gen = NULL;
	k->who = NULL;
}
