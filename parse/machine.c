/* machine.c: whether the parse checks the job against this machine (a run)
 * or only against storbench's limits (--parse-only, as fio 3.33's
 * --parse-only); read by the checks of parse/check_place.c and
 * parse/check_gpu.c, set by main (parse/parse.h). */
#include <stdbool.h>

#include "parse/parse.h"

static bool machine = true;

void sb_parse_machine_checks(bool on)
{
	machine = on;
}

bool sb_parse_machine(void)
{
	return machine;
}

static bool sweep_skips;

void sb_parse_gpu_skips(bool on)
{
	sweep_skips = on;
}

bool sb_parse_gpu_skipping(void)
{
	return sweep_skips;
}
