/* dec_stub.h - stub decoder context (exec_dec_error, fake warp, opcode table lookup, xorshift64*) for handler-level suites. */
/* The including file defines exec_dec_src/dst/alloc (and the others its decoders call) and a
 * decoder table; STUB_RNG_SEED may be defined before the include to pick the rnd64() seed. */
#ifndef DEC_STUB_H
#define DEC_STUB_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_insn.h"
#include "test_util.h"

struct exec_dec { int unused; };
struct exec_warp { struct exec_warp_regs r; };
static struct exec_warp W;
static char errbuf[512];      /* last decode error message */
static exec_insn cur;         /* the instruction decode() built */

int exec_dec_error(exec_dec *d, const ptx_insn *pi, const char *fmt, ...)
{
    (void)d;
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(errbuf, sizeof errbuf, "%s: ", pi->opcode);
    vsnprintf(errbuf + k, sizeof errbuf - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

typedef struct { const char *name; exec_decode_fn fn; } stub_dec;

/* Split "add.sat.s32" (copied into buf) into pi->opcode and at most 16 modifiers in mods. */
static inline void stub_opcode(ptx_insn *pi, char *buf, size_t bufsz, const char **mods,
                               const char *text)
{
    snprintf(buf, bufsz, "%s", text);
    char *save = NULL, *tok = strtok_r(buf, ".", &save);
    pi->opcode = tok;
    pi->opc = ptx_op_lookup(tok);
    while ((tok = strtok_r(NULL, ".", &save)) && pi->nmods < 16)
        mods[pi->nmods++] = tok;
    pi->mods = mods;
}

/* Decode pi into cur with the table's decoder for pi->opcode; -1 with errbuf set otherwise. */
static inline int stub_dispatch(const stub_dec *tab, size_t n, ptx_insn *pi)
{
    cur.src = pi;
    for (size_t j = 0; j < n; j++)
        if (!strcmp(tab[j].name, pi->opcode))
            return tab[j].fn(NULL, pi, &cur);
    snprintf(errbuf, sizeof errbuf, "no opcode %s", pi->opcode);
    return -1;
}

/* Run cur on the lanes of mask m over the given register and predicate blocks. */
static inline void stub_exec(void *regs, uint32_t *preds, uint32_t m)
{
    W.r.regs = regs;
    W.r.preds = preds;
    ck_assert_int_eq(cur.fn(&W, &cur, m), EXEC_NEXT);
}

/* xorshift64* with a fixed seed */
#ifndef STUB_RNG_SEED
#define STUB_RNG_SEED 88172645463325252ull
#endif
static uint64_t rng_s = STUB_RNG_SEED;
static inline uint64_t rnd64(void)
{
    rng_s ^= rng_s >> 12;
    rng_s ^= rng_s << 25;
    rng_s ^= rng_s >> 27;
    return rng_s * 2685821657736338717ull;
}

#endif
