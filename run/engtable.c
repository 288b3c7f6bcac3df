/* engtable.c: the engine registry handed to the parser, and the engine-facing
 * view of a job filled from its spec (see engtable.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/assert.h"
#include "lib/log.h"
#include "parse/options.h"
#include "run/engtable.h"

#define ENGINES_MAX 32

int sb_run_engines_to_parser(void)
{
	struct sb_parse_engine list[ENGINES_MAX];
	unsigned n = 0;
	for (unsigned i = 0; sb_engines[i]; i++, n++) {
		SB_ASSERT(n < ENGINES_MAX); /* every engine reaches the parser */
		const struct sb_engine_options *o = sb_engines[i]->options;
		list[n] = (struct sb_parse_engine){ sb_engines[i]->name, NULL, o ? o->rows : NULL,
						    o ? o->n : 0, o ? o->size : 0,
						    (sb_engines[i]->flags & SB_ENGINE_SYNC) != 0, sb_engines[i]->check };
	}
	for (unsigned i = 0; sb_engines_missing[i].name; i++, n++) {
		SB_ASSERT(n < ENGINES_MAX);
		const struct sb_engine_options *o = sb_engines_missing[i].options;
		list[n] = (struct sb_parse_engine){ sb_engines_missing[i].name, sb_engines_missing[i].package,
						    o ? o->rows : NULL, o ? o->n : 0, o ? o->size : 0, false, NULL };
	}
	return sb_parse_set_engines(list, n);
}

void sb_engine_job_fill(struct sb_engine_job *j, const struct sb_jobspec *s)
{
	memset(j, 0, sizeof(*j));
	j->direct = s->direct;
	j->random = s->rw & SB_RW_RANDOM;
	j->opts = sb_spec_engine_opts(s);
	j->sfr_flags = s->sfr_flags;
	j->fs = &sb_run_engine_fs;
	j->job = s->name;
	j->runtime_us = s->runtime_us;
	j->reads = (s->rw & SB_RW_READ) || s->verify;
	j->writes = (s->rw & SB_RW_WRITE) && !s->verify_only;
	j->trims = s->rw & SB_RW_TRIM;
}

int sb_run_enghelp(FILE *f, const char *name)
{
	if (!name) {
		char all[256];
		sb_engine_names(all, sizeof(all));
		fprintf(f, "Available I/O engines: %s\n", all);
		for (unsigned e = 0; sb_engines[e]; e++)
			fprintf(f, "  %-10s %s\n", sb_engines[e]->name,
				sb_engines[e]->description ? sb_engines[e]->description : "");
		return 0;
	}
	char names[256];
	const struct sb_parse_engine *e = sb_parse_engine_find(name);
	if (!e) {
		sb_parse_engine_names(names, sizeof(names));
		sb_err("--enghelp", "unknown engine '%s': expected one of %s", name, names);
		return -ENOENT;
	}
	const struct sb_engine_ops *ops = sb_engine_find(name);
	const char *desc = ops && ops->description ? ops->description : NULL;
	fprintf(f, "%s%s%s\n", e->name, desc ? ": " : "", desc ? desc : "");
	if (ops && (ops->flags & SB_ENGINE_NODATA))
		fprintf(f, "  (moves no data: an I/O is an allocation or a file operation; "
			"the ML workloads refuse it)\n");
	if (ops && (ops->flags & SB_ENGINE_NOIO))
		fprintf(f, "  (moves no data, touches no storage: an I/O is work of another kind, "
			"below; the ML workloads refuse it)\n");
	if (ops && (ops->flags & SB_ENGINE_OBJECTS))
		fprintf(f, "  (objects on an object store: needs its server, http_host=; no local files)\n");
	if (e->package)
		fprintf(f, "  (not built into this storbench: install %s and re-run ./configure)\n", e->package);
	if (!e->noptions)
		fprintf(f, "  no engine-specific options\n");
	else
		fprintf(f, "  %-28s %-13s %-8s %s\n", "option", "type", "default", "help");
	for (unsigned i = 0; i < e->noptions; i++) {
		const struct sb_option *o = sb_engine_option_row(e, i);
		fprintf(f, "  %-28s %-13s %-8s %s\n", o->name, sb_opt_type_name(o->type), o->def ? o->def : "",
		       o->help);
	}
	if (ops && ops->notes)
		fprintf(f, "%s", ops->notes);
	return 0;
}
