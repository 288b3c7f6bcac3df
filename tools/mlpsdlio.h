/* tools/mlpsdlio.h: the DLIO half of mlpstorage's results tree (tools/mlps.h):
 * the DLIO config that corresponds to a job (the workload yaml of its
 * model, mlcommons/storage configs/dlio/workload/<model>[_<accel>].yaml, with
 * the job's differences as mlpstorage's --param overrides), written as
 * hydra's dlio_config/{config.yaml,overrides.yaml,hydra.yaml}, as the
 * metadata's yaml_params/params_dict/combined_params (tools/mlpsdlio.c),
 * and DLIO's 0_per_epoch_stats.json, 0_output.json, dlio.log and the
 * stdout/stderr logs mlpstorage keeps (tools/mlpsfiles.c). */
#ifndef SB_TOOLS_MLPSDLIO_H
#define SB_TOOLS_MLPSDLIO_H

#include <stdbool.h>
#include <time.h>

#include "output/jsonw.h"
#include "stats/results.h"

enum sb_mlps_vt { SB_MLPS_INT, SB_MLPS_DBL, SB_MLPS_BOOL, SB_MLPS_STR };

struct sb_mlps_ent {
	char key[48];             /* dotted: "dataset.num_files_train" */
	enum sb_mlps_vt type, ytype;
	char val[256];            /* the job's (True/False for booleans) */
	char yval[64];            /* the workload yaml's */
	bool in_yaml;             /* the workload yaml has it */
	bool ov;                  /* set by an override */
	bool ov_cli;              /* the override came from --param: its value is a string */
	unsigned ov_order;
};

struct sb_mlps_cfg {
	char config_name[48];     /* workload=<config_name> ("custom": no yaml) */
	struct sb_mlps_ent e[64];
	unsigned n, nov;
};

/* The DLIO config of an ML job's result (train or checkpoint). */
void sb_mlps_cfg_of(const struct sb_job_result *jr, struct sb_mlps_cfg *c);
/* A JSON object under key: the yaml's parameters (which=0), the overrides
 * (1, flat dotted keys: mlpstorage's params_dict), or both merged (2). */
void sb_mlps_cfg_json(struct sb_jw *w, const char *key, const struct sb_mlps_cfg *c, int which);
/* dlio_config/, 0_per_epoch_stats.json, dlio.log in dir; start is the run's
 * start (seconds since the epoch).  0 or -errno after an sb_err. */
int sb_mlps_write_dlio(const struct sb_job_result *jr, const char *dir, const struct sb_mlps_cfg *c,
		       double start);
/* DLIO's utcnow() text: local time, "%Y-%m-%dT%H:%M:%S.%f" */
void sb_mlps_dlio_time(char *buf, size_t len, double t);

#endif
