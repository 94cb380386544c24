/* fuzz_parser.c - libFuzzer harness: PTX text through the parser and the decoder. */
#include <stddef.h>
#include <stdint.h>
#include "exec.h"
#include "ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_error err;
    ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &err);
    if (!m)
        return 0;
    char msg[512];
    exec_machine *em = exec_new(m, msg, sizeof msg);
    if (em)
        exec_free(em);
    ptx_module_free(m);
    return 0;
}
