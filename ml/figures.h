/* figures.h: what each ML workload's figures.c uses to write its result
 * (its struct sb_ml_figures, ml/result.h): the JSON writer and the shared
 * result.  The writers in output/ reach them only through the result's
 * figures row (stats/results.h struct sb_wl_figures, ml/figures.c). */
#ifndef SB_ML_FIGURES_H
#define SB_ML_FIGURES_H
#include <stdio.h>

#include "output/jsonw.h"
#include "ml/result.h"

#endif
