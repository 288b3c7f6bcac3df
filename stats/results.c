/* results.c: releasing the results model.  The jobs (with their time
 * series), groups, disks and interim arrays and the host sampler belong to
 * it; the job list (and the job specs it points into) does not.  Also the
 * MLPerf rule reports' verdict names and look-up (results data). */
#include <stdlib.h>
#include <string.h>

#include "stats/host.h"
#include "stats/mlres.h"
#include "stats/results.h"

void sb_results_free(struct sb_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->jobs && i < r->njobs; i++) {
		sb_ml_result_free(r->jobs[i].ml);
		free(r->jobs[i].ml);
		r->jobs[i].ml = NULL;
		free(r->jobs[i].ts);
		sb_tstats_release(&r->jobs[i].st);
		sb_verify_result_free(r->jobs[i].verify);
		r->jobs[i].verify = NULL;
		if (r->jobs[i].ss)
			sb_steady_free(r->jobs[i].ss);
		free(r->jobs[i].ss);
		r->jobs[i].ss = NULL;
	}
	for (size_t i = 0; r->interim && i < r->ninterim; i++)
		free(r->interim[i].jobs);
	free(r->interim);
	r->interim = NULL;
	r->ninterim = 0;
	free(r->hosts);
	r->hosts = NULL;
	r->nhosts = 0;
	sb_host_close((struct sb_host *)r->host);
	r->host = NULL;
	free(r->jobs);
	free(r->groups);
	free(r->disks);
	r->jobs = NULL;
	r->groups = NULL;
	r->disks = NULL;
	r->njobs = r->ngroups = r->ndisks = 0;
	free(r->sys);
	r->sys = NULL;
}

void sb_ml_result_free(struct sb_ml_result *m)
{
	if (!m)
		return;
	free(m->ckpt.write.v);
	free(m->ckpt.read.v);
	free(m->ckpt.write.ranks);
	free(m->ckpt.read.ranks);
	m->ckpt.write.ranks = m->ckpt.read.ranks = NULL;
	free(m->ckpt.tier.v);
	m->ckpt.tier.v = NULL;
	free(m->train.epochs);
	free(m->train.ckpts);
	m->ckpt.write.v = m->ckpt.read.v = NULL;
	m->train.epochs = NULL;
	m->train.ckpts = NULL;
	free(m->kv);
	m->kv = NULL;
}

const char *sb_ml_verdict_name(enum sb_ml_verdict v)
{
	return v == SB_ML_CLOSED ? "CLOSED" : v == SB_ML_OPEN ? "OPEN" : "INVALID";
}

const struct sb_ml_rule *sb_ml_rule_get(const struct sb_ml_rule_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->n; i++)
		if (!strcmp(rep->rules[i].name, name))
			return &rep->rules[i];
	return NULL;
}
