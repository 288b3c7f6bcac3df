/* wljob.c: the jobs of the workloads with per-job hooks inside a run (see
 * wljob.h): prepared, run at their group's turn, their results handed to
 * the results model, released; each through its workload's row. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/wljob.h"
#include "run/collect.h"
#include "parse/options.h"
#include "dist/dist.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timeutil.h"

/* the job runs through its workload's per-job hooks */
static bool is_ml(const struct sb_jobspec *s)
{
	return sb_workload_of(s)->prepare != NULL;
}

int sb_wl_prepare(const struct sb_joblist *jl, const struct sb_run_env *env,
		  const struct sb_engine_ops *const *ops, struct sb_wl_runs **out)
{
	size_t n = 0;
	*out = NULL;
	for (size_t i = 0; i < jl->njobs; i++)
		n += is_ml(&jl->jobs[i]);
	if (!n)
		return 0;
	struct sb_wl_runs *r = calloc(1, sizeof(*r));
	if (!r || !(r->jobs = calloc(n, sizeof(*r->jobs)))) {
		free(r);
		return -ENOMEM;
	}
	*out = r;
	for (size_t i = 0; i < jl->njobs; i++) {
		const struct sb_jobspec *s = &jl->jobs[i];
		if (!is_ml(s))
			continue;
		struct sb_wl_job *j = &r->jobs[r->n++];
		j->spec = s;
		j->wl = sb_workload_of(s);
		j->env = env;
		j->job = i;
		j->ops = ops[i];
		/* no storage at all (null); an object store's (s3) is storage */
		j->nodiskio = (ops[i]->flags & SB_ENGINE_NODISKIO) && !(ops[i]->flags & SB_ENGINE_OBJECTS);
		j->objects = ops[i]->flags & SB_ENGINE_OBJECTS;
		if (ops[i]->flags & SB_ENGINE_NODATA) { /* falloc, filecreate...: no data to read back */
			char where[SB_WHERE_MAX];
			sb_spec_where(s, SB_OPT(ioengine), where, sizeof(where));
			sb_err(where, "job %s: ioengine=%s moves no data (an I/O is an allocation or a file "
			       "operation), and workload=%s writes and reads data: use a data engine "
			       "(psync, libaio, io_uring)", s->name, s->ioengine, j->wl->name);
			return -EINVAL;
		}
		int e = j->wl->prepare(j);
		if (e)
			return e;
	}
	return 0;
}

void sb_wl_run_group(struct sb_wl_runs *r, unsigned groupid)
{
	for (size_t i = 0; r && i < r->n; i++) {
		struct sb_wl_job *j = &r->jobs[i];
		if (j->spec->groupid != groupid)
			continue;
		bool stop = sb_stopping();
		if (sb_dist_sync_vote(&stop), stop) /* MPI: every process runs it, or none */
			break;
		j->ran = true;
		j->deadline_ns = j->spec->runtime_us ? sb_now_ns() + j->spec->runtime_us * 1000 : 0;
		j->wl->run(j);
	}
}

bool sb_wl_expired(const struct sb_wl_job *j)
{
	return j->deadline_ns && sb_now_ns() >= j->deadline_ns;
}

/* the result sb_collect made for job j (ML jobs get exactly one) */
static struct sb_job_result *job_result(struct sb_results *res, const struct sb_jobspec *s)
{
	for (size_t i = 0; i < res->njobs; i++)
		if (res->jobs[i].spec == s)
			return &res->jobs[i];
	return NULL;
}

int sb_wl_collect(struct sb_wl_runs *r, struct sb_results *res)
{
	if (!r)
		return 0;
	for (size_t i = 0; i < r->n; i++) {
		struct sb_wl_job *j = &r->jobs[i];
		struct sb_job_result *jr = job_result(res, j->spec);
		if (jr)
			j->wl->results(j, jr);
	}
	return sb_collect_groups(res);
}

void sb_wl_release(struct sb_wl_runs *r, bool failed)
{
	(void)failed;
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		struct sb_wl_job *j = &r->jobs[i];
		if (j->wl)
			j->wl->release(j);
		for (unsigned k = 0; j->workers && k < j->nworkers; k++)
			sb_thread_teardown(&j->workers[k]);
		free(j->workers);
		if (j->res)
			j->res->fig->release(j->res);
	}
	free(r->jobs);
	free(r);
}

int sb_wl_datagen(const struct sb_joblist *jl, const struct sb_run_env *env,
		  struct sb_results *res)
{
	const struct sb_engine_ops **ops = calloc(jl->njobs ? jl->njobs : 1, sizeof(*ops));
	struct sb_wl_runs *r = NULL;
	int e = ops ? 0 : -ENOMEM;
	memset(res, 0, sizeof(*res));
	for (size_t i = 0; !e && i < jl->njobs; i++)
		ops[i] = sb_engine_find(jl->jobs[i].ioengine);
	if (!e)
		e = sb_wl_prepare(jl, env, ops, &r);
	for (size_t i = 0; !e && r && i < r->n; i++) {
		if (r->jobs[i].wl->datagen) {
			r->jobs[i].ran = true;
			e = r->jobs[i].wl->datagen(&r->jobs[i]);
		}
	}
	if (!e)
		e = sb_collect(res, jl, NULL, 0);
	if (!e)
		e = sb_wl_collect(r, res);
	sb_wl_release(r, e != 0);
	free(ops);
	if (e && e != -ENOMEM)
		sb_results_free(res);
	return e;
}

