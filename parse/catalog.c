/* catalog.c: the built-in ML presets (see catalog.h).  Numbers from
 * mlcommons/storage configs/dlio/workload (MLPerf Storage v2). */
#include <stddef.h>
#include <string.h>

#include "parse/catalog.h"

const struct sb_model_preset sb_model_presets[] = {
	{ "llama3-8b", 4096, 14336, 32, 32, 8, 128256, 1, 1, 8, 3, 8, 128 },
	{ "llama3-70b", 8192, 28672, 80, 128, 8, 128256, 8, 1, 8, 3, 64, 128 },
	{ "llama3-405b", 16384, 53248, 126, 128, 8, 128256, 8, 32, 2, 1, 512, 128 },
	{ "llama3-1t", 25872, 98304, 128, 192, 32, 128256, 8, 64, 2, 1, 1024, 128 },
	{ NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
};

const char *const sb_model_preset_names[] = {
	"llama3-8b", "llama3-70b", "llama3-405b", "llama3-1t", NULL,
};

/* <name>_a100.yaml, <name>_h100.yaml; shuffle 3 = file_shuffle and sample_shuffle
 * = seed (unet3d, cosmoflow; resnet50 sets neither: DLIO's default off) */
const struct sb_train_preset sb_train_presets[] = {
	{ "unet3d", "npz", "img", 168, 1, 146600628.0, 68341808.0, 7, 4, 5, 0.636, 0.323, 90.0, 3, 5, 2, 499153191 },
	{ "resnet50", "tfrecord", "img", 1024, 1251, 114660.07, 0.0, 400, 8, 5, 0.435, 0.224, 90.0, 0, 0, 0, 0 },
	{ "cosmoflow", "tfrecord", "img", 524288, 1, 2828486.0, 71311.0, 1, 4, 5, 0.00551, 0.00350, 70.0, 3, 0, 0, 0 },
	{ NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
};

const char *const sb_train_preset_names[] = { "unet3d", "resnet50", "cosmoflow", NULL };

const struct sb_model_preset *sb_model_preset_find(const char *name)
{
	for (size_t i = 0; name && sb_model_presets[i].name; i++)
		if (!strcmp(name, sb_model_presets[i].name))
			return &sb_model_presets[i];
	return NULL;
}

const struct sb_train_preset *sb_train_preset_find(const char *name)
{
	for (size_t i = 0; name && sb_train_presets[i].name; i++)
		if (!strcmp(name, sb_train_presets[i].name))
			return &sb_train_presets[i];
	return NULL;
}
