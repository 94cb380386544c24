/* fuzz_parser.c - libFuzzer harness: PTX text through the parser and the decoder. */
#include <stddef.h>
#include <stdint.h>
#include "exec.h"
#include "ptx.h"

/* Register ranges `%r<N>` cost the parser one symbol per register (up to 2^20 per module),
 * about a microsecond each under ASan: one input declaring a million registers takes a second
 * and the fuzzer learns to produce nothing else. Inputs whose ranges add up to more than
 * MAX_RANGE registers are left out (return -1: not added to the corpus). The limit check itself
 * (`too many registers`) is covered by tests/badinput/huge-regs.ptx. */
#define MAX_RANGE 4096

static int too_many_regs(const uint8_t *d, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] != '<')
            continue;
        size_t j = i + 1;
        while (j < n && (d[j] == ' ' || d[j] == '\t'))
            j++;
        uint64_t v = 0;
        unsigned base = 10;
        if (j + 1 < n && d[j] == '0' && (d[j + 1] == 'x' || d[j + 1] == 'X'))
            base = 16, j += 2;
        else if (j + 1 < n && d[j] == '0' && (d[j + 1] == 'b' || d[j + 1] == 'B'))
            base = 2, j += 2;
        else if (j < n && d[j] == '0')
            base = 8;
        for (; j < n; j++) {
            unsigned c = d[j], k;
            if (c >= '0' && c <= '9')
                k = c - '0';
            else if (c >= 'a' && c <= 'f')
                k = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                k = c - 'A' + 10;
            else
                break;
            if (k >= base)
                break;
            v = v * base + k;
            if (v > MAX_RANGE)
                return 1;
        }
        total += v;
        if (total > MAX_RANGE)
            return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (too_many_regs(data, size))
        return -1;
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
