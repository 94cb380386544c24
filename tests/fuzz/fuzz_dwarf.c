/* fuzz_dwarf.c - libFuzzer harness: the DWARF section reader on mutated .debug_* bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dw.h"
#include "ptx.h"

/* A real nvcc -G module; the fuzz input overwrites the values of its 1-byte section data
 * (and, past those, cuts sections short), so every run feeds libdwarf and our DIE walker
 * plausible-looking but damaged DWARF. */
#define FIXTURE "tests/fixtures/dwarf/types.G.ptx"

static ptx_module *mod;
static ptx_datum **bytes;
static uint64_t *orig;
static int *orig_n;
static size_t nbytes;

static void setup(void)
{
    ptx_error err;
    mod = ptx_parse_file(FIXTURE, &err);
    if (!mod)
        return;
    for (int s = 0; s < mod->nsections; s++)
        for (int i = 0; i < mod->sections[s].ndata; i++)
            if (mod->sections[s].data[i].kind == PTX_DATUM_INT)
                nbytes++;
    bytes = calloc(nbytes ? nbytes : 1, sizeof *bytes);
    orig = calloc(nbytes ? nbytes : 1, sizeof *orig);
    orig_n = calloc(mod->nsections ? mod->nsections : 1, sizeof *orig_n);
    size_t k = 0;
    for (int s = 0; s < mod->nsections; s++) {
        orig_n[s] = mod->sections[s].ndata;
        for (int i = 0; i < mod->sections[s].ndata; i++)
            if (mod->sections[s].data[i].kind == PTX_DATUM_INT) {
                bytes[k] = &mod->sections[s].data[i];
                orig[k++] = mod->sections[s].data[i].value;
            }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!mod)
        setup();
    if (!mod || size < 2)
        return 0;
    /* first two bytes: which section to cut and where (0 = no cut) */
    int cut_s = data[0] % (mod->nsections ? mod->nsections : 1);
    int cut_at = data[1];
    data += 2;
    size -= 2;
    /* the rest: (index_hi, index_lo, value) triples patching datum values */
    for (size_t i = 0; i + 2 < size; i += 3) {
        size_t idx = ((size_t)data[i] << 8 | data[i + 1]) % (nbytes ? nbytes : 1);
        if (nbytes)
            bytes[idx]->value = data[i + 2];
    }
    if (cut_at && mod->nsections)
        mod->sections[cut_s].ndata = orig_n[cut_s] * cut_at / 256;
    char warn[1024];
    dw_info *d = dw_load(mod, warn, sizeof warn);
    if (d) {
        uint32_t n = dw_npcs(d);
        for (uint32_t pc = 0; pc < n; pc += 7) {
            dw_line l;
            dw_line_at(d, pc, &l);
            const dw_var *vars[32];
            int nv = dw_vars_at(d, pc, DW_VARS_ALL, vars, 32);
            for (int v = 0; v < nv && v < 32; v++) {
                dw_loc loc;
                dw_var_location(d, vars[v], pc, &loc);
            }
        }
        dw_free(d);
    }
    for (size_t k = 0; k < nbytes; k++)
        bytes[k]->value = orig[k];
    for (int s = 0; s < mod->nsections; s++)
        mod->sections[s].ndata = orig_n[s];
    return 0;
}
