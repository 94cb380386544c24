/* fuzz_dwarf.c - libFuzzer harness: the DWARF section reader on mutated .debug_* bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dw.h"
#include "ptx.h"

/* Real nvcc -G modules, parsed once at startup: types (structs, unions, enums, arrays,
 * typedefs, pointers), inl (inlined subroutines, a loop, a device call) and spaces (variables
 * in every state space). The input picks one and damages its DWARF:
 *   byte 0     which module
 *   byte 1, 2  which section to cut short and where (byte 2 = 0: no cut)
 *   then       (index_hi, index_lo, value) triples overwriting the values of the module's
 *              1-byte section data
 * so every run feeds libdwarf and our DIE walker plausible-looking but damaged DWARF. Then
 * the tables are queried at a few pcs (chosen by byte 1 and spread over the module) as the
 * debugger does at a stop: line, inline chain, scopes, visible variables, their locations,
 * type names and values printed from zero bytes. The module is restored after each run. */

static const char *const fixtures[] = {
    "tests/fixtures/dwarf/types.G.ptx",
    "tests/fixtures/dwarf/inl.G.ptx",
    "tests/fixtures/dwarf/spaces.G.ptx",
};
#define NFIX ((int)(sizeof fixtures / sizeof fixtures[0]))
#define NPCS 2   /* pcs queried per run */

typedef struct {
    ptx_module *mod;
    ptx_datum **bytes;
    uint64_t *orig;
    int *orig_n;
    size_t nbytes;
} fixture;

static fixture fx[NFIX];
static int nfx;

static void setup(void)
{
    for (int f = 0; f < NFIX; f++) {
        ptx_error err;
        ptx_module *mod = ptx_parse_file(fixtures[f], &err);
        if (!mod) {
            fprintf(stderr, "fuzz_dwarf: cannot load %s (run from the repository root)\n",
                    fixtures[f]);
            abort();
        }
        fixture *x = &fx[nfx++];
        x->mod = mod;
        for (int s = 0; s < mod->nsections; s++)
            for (int i = 0; i < mod->sections[s].ndata; i++)
                if (mod->sections[s].data[i].kind == PTX_DATUM_INT)
                    x->nbytes++;
        x->bytes = calloc(x->nbytes ? x->nbytes : 1, sizeof *x->bytes);
        x->orig = calloc(x->nbytes ? x->nbytes : 1, sizeof *x->orig);
        x->orig_n = calloc(mod->nsections ? mod->nsections : 1, sizeof *x->orig_n);
        if (!x->bytes || !x->orig || !x->orig_n)
            abort();
        size_t k = 0;
        for (int s = 0; s < mod->nsections; s++) {
            x->orig_n[s] = mod->sections[s].ndata;
            for (int i = 0; i < mod->sections[s].ndata; i++)
                if (mod->sections[s].data[i].kind == PTX_DATUM_INT) {
                    x->bytes[k] = &mod->sections[s].data[i];
                    x->orig[k++] = mod->sections[s].data[i].value;
                }
        }
    }
}

static void query(dw_info *d, uint32_t pc)
{
    static const uint8_t zeros[256];
    dw_line l;
    dw_line_at(d, pc, &l);
    uint32_t lo, hi;
    dw_line_range(d, pc, &lo, &hi);
    dw_inline_frame fr[8];
    int nin = dw_inline_chain(d, pc, fr, 8);
    dw_scope sc[8];
    dw_scopes_at(d, pc, sc, 8);
    dw_func_at(d, pc);
    for (int depth = 0; depth <= (nin < 0 ? 0 : nin > 8 ? 8 : nin); depth++) {
        const dw_var *vars[32];
        int nv = dw_vars_at_frame(d, pc, depth, DW_VARS_ALL, vars, 32);
        for (int v = 0; v < nv && v < 32; v++) {
            dw_loc loc;
            dw_var_location(d, vars[v], pc, &loc);
            if (vars[v]->type) {
                char buf[512];
                dw_type_name(vars[v]->type, buf, sizeof buf);
                uint64_t sz = dw_type_size(vars[v]->type);
                dw_format_value(vars[v]->type, zeros, sz < sizeof zeros ? sz : sizeof zeros, 0,
                                1, NULL, NULL, buf, sizeof buf);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!nfx)
        setup();
    if (size < 3)
        return 0;
    fixture *x = &fx[data[0] % nfx];
    ptx_module *mod = x->mod;
    int cut_s = data[1] % (mod->nsections ? mod->nsections : 1);
    int cut_at = data[2];
    unsigned pick = data[1];
    data += 3;
    size -= 3;
    for (size_t i = 0; i + 2 < size; i += 3) {
        size_t idx = ((size_t)data[i] << 8 | data[i + 1]) % (x->nbytes ? x->nbytes : 1);
        if (x->nbytes)
            x->bytes[idx]->value = data[i + 2];
    }
    if (cut_at && mod->nsections)
        mod->sections[cut_s].ndata = x->orig_n[cut_s] * cut_at / 256;
    char warn[1024];
    dw_info *d = dw_load(mod, warn, sizeof warn);
    if (d) {
        uint32_t n = dw_npcs(d);
        for (uint32_t k = 0; k < NPCS && n; k++)
            query(d, (uint32_t)(((uint64_t)k * n / NPCS + pick) % n));
        int nf = dw_nfuncs(d);
        for (int i = 0; i < nf; i++) {
            const dw_func *f = dw_func_get(d, i);
            if (f && f->name)
                dw_func_by_name(d, f->name);
        }
        dw_type_lookup(d, "Pair");
        dw_free(d);
    }
    for (size_t k = 0; k < x->nbytes; k++)
        x->bytes[k]->value = x->orig[k];
    for (int s = 0; s < mod->nsections; s++)
        mod->sections[s].ndata = x->orig_n[s];
    return 0;
}
