/* lib/ddir.c: the names of the operations of enum sb_ddir (lib/ddir.h), as
 * error messages and traces write them. */
#include "lib/ddir.h"

const char *const sb_ddir_name[SB_DDIR_SYNCRANGE + 1] = { "read", "write", "trim", "fsync",
							    "fdatasync", "sync_file_range" };
