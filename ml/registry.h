/* registry.h: the workload table (run/workload.h), which main hands to
 * run/ and parse/.  Adding a workload: its folder, and in registry.c the
 * include of its header and its row. */
#ifndef SB_ML_REGISTRY_H
#define SB_ML_REGISTRY_H
#include <stdio.h>

#include "parse/workloads.h"
#include "run/workload.h"

/* NULL-terminated, io first; a row's position is its id (workload=) */
extern const struct sb_workload_ops *const sb_workload_table[];
/* Hands the table to run/ (sb_workloads_set) and the rows and checks to
 * parse/ (sb_parse_set_workloads); storbench.c, the unit tests and the fuzz
 * harnesses call it first.  0, or -EINVAL when the parser refuses them. */
int sb_workloads_hand_down(void);
/* The same, but the parser gets only the workloads in names (a comma list;
 * NULL: all): --doc-workloads, for the documentation checks */
int sb_workloads_hand_down_only(const char *names);
/* --workload-conformance (ml/conform.c): the table as JSON: each row's
 * name, id, kind, option names and conformance description */
void sb_workloads_conformance_json(FILE *f);
/* --doc-workloads=names: sb_workloads_hand_down_only(names), a refusal
 * reported (0 or -EINVAL) */
int sb_workloads_doc_only(const char *names);
/* What the parser is handed of workload w, whose id is id (its table
 * position): name, help, rows, options struct, category, flags, check */
struct sb_parse_workload sb_workload_parse_view(const struct sb_workload_ops *w, unsigned id);

#endif
