/* engtable.h: what run/ tells the parser and the engines about each other:
 * the engine registry handed to parse/ (names, missing packages, option rows),
 * and the engine-facing view of a job (struct sb_engine_job) filled from its
 * spec.  parse/ never calls the registry and engines never see the spec. */
#ifndef SB_RUN_ENGTABLE_H
#define SB_RUN_ENGTABLE_H
#include <stdio.h>
#include "engines/engine.h"
#include "parse/jobspec.h"

/* Hand the built engines and the known but missing ones, with their option
 * rows and whether they are synchronous, to the parser (sb_parse_set_engines).
 * Call once before parsing. */
int sb_run_engines_to_parser(void);
/* --enghelp: the built engines, one line each (name NULL), or engine name's
 * own options (name, type, default, help) on f; -ENOENT after saying so
 * when there is no such engine */
int sb_run_enghelp(FILE *f, const char *name);
/* The engine's view of job s: direct, random, and the engine's options
 * struct inside s (so j must not outlive s). */
void sb_engine_job_fill(struct sb_engine_job *j, const struct sb_jobspec *s);
/* run/engfs.c: the FILEOP engines' creates and removals (the writer gate,
 * this run's own files only); sb_engine_job_fill hands it to every job */
extern const struct sb_engine_fs sb_run_engine_fs;
/* engfs.c: the size of a job that has no files (null, s3) and no size=:
 * an ioengine=s3 read job reads its object whole, as a read job without
 * size= reads its file whole (0 and *len, the object's size less
 * offset=); else the refusal at the job's section, naming size= (-EINVAL),
 * or -errno after saying why */
int sb_engine_no_size(const struct sb_jobspec *s, const char *path, uint64_t *len);
#endif
