/* showcmd.c: --showcmd, fio's "turn a job file into command line options":
 * one line per job file, "storbench" then the options of each section in
 * file order as --key=value (a bare key as --key), each job section as
 * --name=X before its options.  A [global] section that follows a job
 * becomes --name=global (fio 3.33 prints its options without it, which would
 * hand them to the job before: HOWTO.md notes the difference).  Values
 * with blanks or shell characters are quoted so that the line runs as is. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

static bool plain(const char *v)
{
	for (const char *p = v; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_.,:/%+=@^-", *p))
			return false;
	return *v != '\0';
}

static void put_value(FILE *f, const char *v)
{
	if (plain(v)) {
		fputs(v, f);
	} else if (!strpbrk(v, "\"$`\\!")) {
		fprintf(f, "\"%s\"", v); /* fio's quoting: --description="a b" */
	} else {
		fputc('\'', f);
		for (const char *p = v; *p; p++)
			if (*p == '\'')
				fputs("'\\''", f);
			else
				fputc(*p, f);
		fputc('\'', f);
	}
}

static void put_section(FILE *f, const struct sb_ini_section *s)
{
	for (unsigned k = 0; k < s->nkv; k++) {
		fprintf(f, " --%s", s->kv[k].key);
		if (!s->kv[k].bare) {
			fputc('=', f);
			put_value(f, s->kv[k].value);
		}
	}
}

int sb_showcmd(FILE *f, const char *const *paths, int npaths)
{
	int ret = 0;
	for (int i = 0; i < npaths; i++) {
		struct sb_ini ini = { 0 };
		bool is_stdin = !strcmp(paths[i], "-");
		int rc;
		if (is_stdin) {
			char *text = sb_job_read_stdin();
			rc = text ? sb_ini_parse_text(&ini, SB_STDIN_NAME, text) : -EINVAL;
			free(text);
		} else {
			rc = sb_ini_parse_file(&ini, paths[i]);
		}
		if (rc) {
			sb_ini_free(&ini);
			ret = -EINVAL;
			continue;
		}
		bool had_job = false;
		fputs("storbench", f);
		for (unsigned s = 0; s < ini.nsec; s++) {
			const struct sb_ini_section *sec = &ini.sec[s];
			if (!sec->global || had_job) {
				fputs(" --name=", f);
				put_value(f, sec->name);
			}
			had_job |= !sec->global;
			put_section(f, sec);
		}
		fputc('\n', f);
		sb_ini_free(&ini);
	}
	return ret;
}
