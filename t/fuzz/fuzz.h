/* fuzz.h: the entry point every libFuzzer harness in t/fuzz defines.  With
 * clang, libFuzzer's main calls it (make fuzz); replay.c's main calls it once
 * per file, so any compiler's build checks the inputs in t/fuzz/regress. */
#ifndef SB_FUZZ_H
#define SB_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
