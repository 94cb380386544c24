/* isa_harness.h - end-to-end instruction tests: wrap a PTX snippet in a kernel, run it through parser + core, compare with a C reference. */
#ifndef ISA_HARNESS_H
#define ISA_HARNESS_H

/* ---------------------------------------------------------------------------------------------
 * A case is a PTX snippet that reads registers %a0..%a7 and writes %d0..%d7, plus the types of
 * those registers ("f32 f32 f32" / "pred"). isa_check() builds a kernel that
 *   - loads thread t's inputs from a global buffer (8 bytes per input: in[t * nin + k]),
 *     predicates as a u32 (non-zero = true);
 *   - runs the snippet (so the parser, decoder, operand resolution and handler all take part);
 *   - stores every output (8-byte slots; predicates as 0/1);
 * and runs it twice: all n vectors in CTAs of 64 threads (two warps, the last CTA possibly
 * partial), and the first few vectors as single-thread CTAs (the handlers' partial-mask path).
 * Each output is compared with the reference function's bits (masked to the type's width), or
 * accepted by an optional `ok` callback (approximations: check the bound, not the bits).
 * Extra registers the snippet needs go in `decl` (PTX declarations).
 * ------------------------------------------------------------------------------------------- */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "test_util.h"

#define ISA_MAXIO 8

typedef struct {
    const char *code;     /* PTX instructions */
    const char *in;       /* input types, space separated */
    const char *out;      /* output types */
    const char *decl;     /* extra declarations or NULL */
} isa_case;

/* Reference: fill out[] (one uint64_t per output) from in[]. */
typedef void (*isa_ref_fn)(const uint64_t *in, uint64_t *out, const void *ctx);
/* Optional acceptance test for output k (got vs the reference's exp); 1 = fine. */
typedef int (*isa_ok_fn)(int k, const uint64_t *in, uint64_t got, uint64_t exp, const void *ctx);

typedef struct {
    int n;
    char t[ISA_MAXIO][12];
    int bits[ISA_MAXIO];
} isa_types;

static inline int isa_tbits(const char *t)
{
    if (!strcmp(t, "pred")) return 1;
    if (!strcmp(t, "f16x2") || !strcmp(t, "bf16x2")) return 32;
    size_t l = strlen(t);
    int b = 0;
    while (l && t[l - 1] >= '0' && t[l - 1] <= '9')
        l--;
    b = atoi(t + l);
    return b ? b : 32;
}

static inline void isa_parse_types(const char *s, isa_types *ty)
{
    memset(ty, 0, sizeof *ty);
    while (s && *s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        int k = 0;
        while (*s && *s != ' ' && k < 11)
            ty->t[ty->n][k++] = *s++;
        ty->bits[ty->n] = isa_tbits(ty->t[ty->n]);
        ty->n++;
    }
}

static inline uint64_t isa_mask(int bits)
{
    return bits >= 64 ? ~0ull : bits == 1 ? 1 : ((1ull << bits) - 1);
}

/* Build the kernel text (malloc'd). */
static inline char *isa_kernel(const isa_case *c, const isa_types *ti, const isa_types *to)
{
    size_t cap = 8192 + strlen(c->code) + (c->decl ? strlen(c->decl) : 0);
    char *s = malloc(cap);
    size_t n = 0;
#define ISA_P(...) (n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__))
    ISA_P(".version 8.5\n.target sm_90\n.address_size 64\n\n"
          ".visible .entry isa_k(.param .u64 isa_pin, .param .u64 isa_pout, .param .u32 isa_pn)\n{\n"
          "\t.reg .u64 %%hx_in, %%hx_out, %%hx_off;\n\t.reg .u32 %%hx_idx, %%hx_n, %%hx_t;\n"
          "\t.reg .u32 %%hx_w;\n\t.reg .u16 %%hx_h;\n\t.reg .pred %%hx_p;\n");
    for (int k = 0; k < ti->n; k++)
        ISA_P("\t.reg .%s %%a%d;\n", ti->t[k], k);
    for (int k = 0; k < to->n; k++)
        ISA_P("\t.reg .%s %%d%d;\n", to->t[k], k);
    if (c->decl)
        ISA_P("\t%s\n", c->decl);
    ISA_P("\tld.param.u64 %%hx_in, [isa_pin];\n\tld.param.u64 %%hx_out, [isa_pout];\n"
          "\tld.param.u32 %%hx_n, [isa_pn];\n\tmov.u32 %%hx_idx, %%tid.x;\n"
          "\tmov.u32 %%hx_t, %%ctaid.x;\n\tmov.u32 %%hx_w, %%ntid.x;\n"
          "\tmad.lo.u32 %%hx_idx, %%hx_t, %%hx_w, %%hx_idx;\n"
          "\tsetp.ge.u32 %%hx_p, %%hx_idx, %%hx_n;\n\t@%%hx_p exit;\n"
          "\tmul.wide.u32 %%hx_off, %%hx_idx, %d;\n\tadd.u64 %%hx_in, %%hx_in, %%hx_off;\n"
          "\tmul.wide.u32 %%hx_off, %%hx_idx, %d;\n\tadd.u64 %%hx_out, %%hx_out, %%hx_off;\n",
          8 * (ti->n ? ti->n : 1), 8 * (to->n ? to->n : 1));
    for (int k = 0; k < ti->n; k++) {
        switch (ti->bits[k]) {
        case 1:
            ISA_P("\tld.global.u32 %%hx_t, [%%hx_in+%d];\n\tsetp.ne.u32 %%a%d, %%hx_t, 0;\n", 8 * k, k);
            break;
        case 8: ISA_P("\tld.global.u8 %%a%d, [%%hx_in+%d];\n", k, 8 * k); break;
        default: ISA_P("\tld.global.b%d %%a%d, [%%hx_in+%d];\n", ti->bits[k], k, 8 * k); break;
        }
    }
    ISA_P("%s\n", c->code);
    for (int k = 0; k < to->n; k++) {
        switch (to->bits[k]) {
        case 1:
            ISA_P("\tselp.u32 %%hx_t, 1, 0, %%d%d;\n\tst.global.u32 [%%hx_out+%d], %%hx_t;\n", k, 8 * k);
            break;
        case 8: ISA_P("\tst.global.u8 [%%hx_out+%d], %%d%d;\n", 8 * k, k); break;
        default: ISA_P("\tst.global.b%d [%%hx_out+%d], %%d%d;\n", to->bits[k], 8 * k, k); break;
        }
    }
    ISA_P("\tret;\n}\n");
#undef ISA_P
    return s;
}

/* Run the snippet on n input vectors with `block` threads per CTA; out gets n * nout slots.
 * Returns 0, or -1 with a message in err. */
static inline int isa_run(const isa_case *c, int n, const uint64_t *in, uint64_t *out,
                          unsigned block, char *err, size_t errlen)
{
    isa_types ti, to;
    isa_parse_types(c->in, &ti);
    isa_parse_types(c->out, &to);
    char *src = isa_kernel(c, &ti, &to);
    ptx_error pe;
    ptx_module *mod = ptx_parse(src, strlen(src), "isa.ptx", &pe);
    int rc = -1;
    exec_machine *m = NULL;
    if (!mod) {
        snprintf(err, errlen, "parse: %s", pe.msg);
        goto done;
    }
    m = exec_new(mod, err, errlen);
    if (!m)
        goto done;
    size_t nin = (size_t)(ti.n ? ti.n : 1), nout = (size_t)(to.n ? to.n : 1);
    uint64_t ain = 0, aout = 0;
    if (exec_global_alloc(m, 8 * nin * (size_t)n, &ain) ||
        exec_global_alloc(m, 8 * nout * (size_t)n, &aout)) {
        snprintf(err, errlen, "alloc: %s", exec_errmsg(m));
        goto done;
    }
    if (ti.n && exec_mem_write(m, PTX_SPACE_GLOBAL, ain, in, 8 * nin * (size_t)n, 0, 0, 0)) {
        snprintf(err, errlen, "write: %s", exec_errmsg(m));
        goto done;
    }
    struct __attribute__((packed)) { uint64_t pin, pout; uint32_t pn; } prm = { ain, aout, (uint32_t)n };
    const ptx_func *f = ptx_find_func(mod, "isa_k");
    exec_dim3 g = { (uint32_t)((n + (int)block - 1) / (int)block), 1, 1 }, b = { block, 1, 1 };
    if (exec_launch(m, f, g, b, 0, &prm, 20)) {
        snprintf(err, errlen, "launch: %s", exec_errmsg(m));
        goto done;
    }
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_CONTINUE;
    exec_stop st;
    memset(&st, 0, sizeof st);
    if (exec_run(m, &o, &st) || st.kind != EXEC_STOP_DONE) {
        snprintf(err, errlen, "run: stop kind %d exc %d: %s %s", (int)st.kind, (int)st.exc, st.msg,
                 exec_errmsg(m));
        goto done;
    }
    if (exec_mem_read(m, PTX_SPACE_GLOBAL, aout, out, 8 * nout * (size_t)n, 0, 0, 0)) {
        snprintf(err, errlen, "read: %s", exec_errmsg(m));
        goto done;
    }
    for (size_t i = 0; i < (size_t)n; i++)
        for (size_t k = 0; k < (size_t)to.n; k++)
            out[i * nout + k] &= isa_mask(to.bits[k]);
    rc = 0;
done:
    if (m)
        exec_free(m);
    if (mod)
        ptx_module_free(mod);
    free(src);
    return rc;
}

/* Run and compare (both launch shapes); fails the current Check test with the first
 * mismatches. Returns the number of mismatching outputs (0). */
static inline int isa_check_ok(const isa_case *c, int n, const uint64_t *in, isa_ref_fn ref,
                               isa_ok_fn ok, const void *ctx)
{
    isa_types ti, to;
    isa_parse_types(c->in, &ti);
    isa_parse_types(c->out, &to);
    size_t nin = (size_t)(ti.n ? ti.n : 1), nout = (size_t)(to.n ? to.n : 1);
    uint64_t *got = calloc((size_t)n * nout, 8), *exp = calloc((size_t)n * nout, 8);
    char err[2048], msg[4096];
    int bad = 0;
    size_t ml = 0;
    msg[0] = 0;
    for (int i = 0; i < n; i++) {
        uint64_t pad[ISA_MAXIO] = { 0 };   /* references may read unused inputs as 0 */
        memcpy(pad, in + (size_t)i * nin, 8 * (size_t)ti.n);
        ref(pad, exp + (size_t)i * nout, ctx);
        for (size_t k = 0; k < (size_t)to.n; k++)
            exp[(size_t)i * nout + k] &= isa_mask(to.bits[k]);
    }
    for (int pass = 0; pass < 2; pass++) {
        int cnt = pass == 0 ? n : (n < 5 ? n : 5);
        unsigned block = pass == 0 ? 64 : 1;
        if (isa_run(c, cnt, in, got, block, err, sizeof err)) {
            ck_assert_msg(0, "[%s] %s", c->code, err);
            break;
        }
        for (int i = 0; i < cnt; i++)
            for (size_t k = 0; k < (size_t)to.n; k++) {
                uint64_t g = got[(size_t)i * nout + k], e = exp[(size_t)i * nout + k];
                uint64_t pad[ISA_MAXIO] = { 0 };
                memcpy(pad, in + (size_t)i * nin, 8 * (size_t)ti.n);
                if (g == e || (ok && ok((int)k, pad, g, e, ctx)))
                    continue;
                if (bad++ < 6 && ml < sizeof msg - 300) {
                    ml += (size_t)snprintf(msg + ml, sizeof msg - ml, "\n  %s #%d in:", block == 1 ? "1t" : "64t", i);
                    for (size_t j = 0; j < (size_t)ti.n; j++)
                        ml += (size_t)snprintf(msg + ml, sizeof msg - ml, " %llx",
                                               (unsigned long long)in[(size_t)i * nin + j]);
                    ml += (size_t)snprintf(msg + ml, sizeof msg - ml, " -> d%zu got %llx exp %llx", k,
                                           (unsigned long long)g, (unsigned long long)e);
                }
            }
    }
    free(got);
    free(exp);
    ck_assert_msg(bad == 0, "[%s] %d mismatches:%s", c->code, bad, msg);
    return bad;
}
static inline int isa_check(const isa_case *c, int n, const uint64_t *in, isa_ref_fn ref, const void *ctx)
{
    return isa_check_ok(c, n, in, ref, NULL, ctx);
}

/* ---- inputs: fixed-seed random values mixed with edge cases --------------------------------- */
typedef struct { uint64_t s; } isa_rng;
static inline uint64_t isa_next(isa_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

static const uint32_t isa_f32_edges[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
    0x80800000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
    0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff, 0xffc12345, 0x3f000000, 0x4b000000,
    0x3effffff, 0x4effffff, 0xcf000000, 0x5f000000, 0x3fc00000, 0x00400000, 0x33800000,
    0x7f000000, 0x0c000000, 0x40490fdb, 0xc0490fdb,
};
static const uint64_t isa_f64_edges[] = {
    0, 0x8000000000000000ull, 1, 0x8000000000000001ull, 0x000fffffffffffffull,
    0x0010000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7fefffffffffffffull,
    0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
    0xfff8000000000000ull, 0x7ff0000000000001ull, 0x7ff4000000000123ull, 0xfff80000deadbeefull,
    0x3fe0000000000000ull, 0x4330000000000000ull, 0x43e0000000000000ull, 0xc3e0000000000000ull,
    0x41dfffffffc00000ull, 0x41f0000000000000ull, 0x3ca0000000000000ull, 0x7fe0000000000000ull,
    0x36a0000000000000ull, 0x380fffffe0000000ull, 0x47efffffe0000000ull, 0x400921fb54442d18ull,
};
static const uint16_t isa_f16_edges[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00,
    0xfc00, 0x7e00, 0x7fff, 0xfe01, 0x7c01, 0x3800, 0x3bff, 0x3555, 0x5140,
};
static const uint16_t isa_bf16_edges[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x7f80,
    0xff80, 0x7fc0, 0x7fff, 0xffc1, 0x7f81, 0x3f00, 0x3f7f,
};
static const uint64_t isa_int_edges[] = {
    0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
    0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, ~1ull, 0x55555555aaaaaaaaull,
    31, 32, 33, 63, 64, 65, 0xfffffffe, 0xffffff, 0x800000, 0x1000000, 0xfffffffffffffffeull,
};
#define ISA_NE(a) (sizeof(a) / sizeof((a)[0]))

/* A value of type t: kinds of edge case, uniformly random bits, or (floats) values of modest
 * exponent so that sums and products interact. */
static inline uint64_t isa_gen(isa_rng *r, const char *t)
{
    uint64_t x = isa_next(r);
    int pick = (int)(x >> 60);
    uint64_t y = isa_next(r);
    if (!strcmp(t, "f32")) {
        if (pick < 4) return isa_f32_edges[y % ISA_NE(isa_f32_edges)];
        if (pick < 8) return y & 0xffffffffu;
        uint32_t e = 112 + (uint32_t)(y >> 40) % 32;
        return ((y & 0x807fffffu) | e << 23) & 0xffffffffu;
    }
    if (!strcmp(t, "f64")) {
        if (pick < 4) return isa_f64_edges[y % ISA_NE(isa_f64_edges)];
        if (pick < 8) return y;
        uint64_t e = 1008 + (y >> 20) % 32;
        return (y & 0x800fffffffffffffull) | e << 52;
    }
    if (!strcmp(t, "f16")) {
        if (pick < 5) return isa_f16_edges[y % ISA_NE(isa_f16_edges)];
        if (pick < 10) return y & 0xffff;
        return ((y & 0x83ff) | (uint64_t)(12 + (y >> 20) % 8) << 10) & 0xffff;
    }
    if (!strcmp(t, "bf16")) {
        if (pick < 5) return isa_bf16_edges[y % ISA_NE(isa_bf16_edges)];
        if (pick < 10) return y & 0xffff;
        return ((y & 0x807f) | (uint64_t)(120 + (y >> 20) % 16) << 7) & 0xffff;
    }
    if (!strcmp(t, "f16x2") || !strcmp(t, "bf16x2")) {
        const char *h = t[0] == 'f' ? "f16" : "bf16";
        return isa_gen(r, h) | isa_gen(r, h) << 16;
    }
    if (!strcmp(t, "pred"))
        return y & 1;
    int bits = isa_tbits(t);
    uint64_t v;
    if (pick < 5) {
        v = isa_int_edges[y % ISA_NE(isa_int_edges)];
        if (pick & 1)
            v = (uint64_t)0 - v;      /* negative edges too */
    } else if (pick < 8) {
        v = y & 0xff;                 /* small values */
    } else {
        v = y;
    }
    return v & isa_mask(bits);
}

/* Fill n vectors of the given input types (plus the edge cases crossed for the first ones). */
static inline uint64_t *isa_inputs(const char *types, int n, uint64_t seed)
{
    isa_types ti;
    isa_parse_types(types, &ti);
    int nin = ti.n ? ti.n : 1;
    uint64_t *v = calloc((size_t)n * (size_t)nin, 8);
    isa_rng r = { seed * 0x9E3779B97F4A7C15ull + 12345 };
    for (int i = 0; i < n; i++)
        for (int k = 0; k < ti.n; k++)
            v[(size_t)i * (size_t)nin + (size_t)k] = isa_gen(&r, ti.t[k]);
    return v;
}

/* Bit-cast helpers for references. */
static inline float isa_f(uint64_t u) { uint32_t x = (uint32_t)u; float f; memcpy(&f, &x, 4); return f; }
static inline uint64_t isa_fu(float f) { uint32_t x; memcpy(&x, &f, 4); return x; }
static inline double isa_d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t isa_du(double f) { uint64_t x; memcpy(&x, &f, 8); return x; }

#endif
