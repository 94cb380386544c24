/* test_ptx9.c - PTX ISA 9.x pages: st qualifier forms and restrictions, the .param state space, stacksave/stackrestore/alloca. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "test_util.h"

/* ---- helpers --------------------------------------------------------------------------------- */
#define HDR ".version 8.8\n.target sm_100\n.address_size 64\n"
#include "core_harness.h"

/* Launch kernel k (parameter bytes p) with gx x bx threads and run it; returns the stop. */
static exec_stop t_go(T *t, const char *k, unsigned gx, unsigned bx, const void *p, size_t n)
{
    t_launch(t, k, gx, bx, p, n);
    return t_run_steps(t, 10000000);
}

static void t_done(exec_stop st)
{
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "stop %d exc %d: %s", (int)st.kind, (int)st.exc,
                  st.msg);
}

/* Growable text buffer. */
typedef struct { char *s; size_t n, cap; } sbuf;
static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        b->cap = (b->cap + (size_t)k + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->n)
            b->s[0] = 0;
    }
}

/* =============================================================================================
 * st: every qualifier form of the 9.x page
 * =============================================================================================
 * A generated kernel fills 48 bytes of the target with 0xEE (through a generic address), runs
 * the store under test and copies the 48 bytes to out+64. Element k of the data has byte j
 * equal to 0x10 * (k + 1) + j, so the expected bytes follow from the form alone. */
enum { SEM_NONE, SEM_WEAK, SEM_VOLATILE, SEM_RELAXED, SEM_RELEASE, SEM_MMIO, NSEM };
static const char *const sem_name[NSEM] = { "", "weak", "volatile", "relaxed", "release",
                                             "mmio.relaxed" };
enum { SC_NONE, SC_CTA, SC_CLUSTER, SC_GPU, SC_SYS, NSC };
static const char *const sc_name[NSC] = { "", "cta", "cluster", "gpu", "sys" };
enum { SP_GLOBAL, SP_GENERIC_G, SP_SHARED, SP_SHARED_CTA, SP_SHARED_CLUSTER, SP_SHARED_VAR,
       SP_GENERIC_S, SP_LOCAL, SP_LOCAL_VAR, SP_GENERIC_L, NSP };
/* qualifier, address operand, where the target is (0 global, 1 shared, 2 local), generic */
static const struct { const char *q, *addr; int where, generic; } sp_tab[NSP] = {
    { "global", "[%rd11]", 0, 0 }, { "", "[%rd10]", 0, 1 },
    { "shared", "[%rd11]", 1, 0 }, { "shared::cta", "[%rd11]", 1, 0 },
    { "shared::cluster", "[%rd11]", 1, 0 }, { "shared", "[sh]", 1, 0 },
    { "", "[%rd10]", 1, 1 }, { "local", "[%rd11]", 2, 0 }, { "local", "[lc]", 2, 0 },
    { "", "[%rd10]", 2, 1 },
};
/* hints: cache operator, L1 / L2 eviction priorities, L2::cache_hint (with a policy operand) */
typedef struct { const char *q; int cop, l1, l2, hint; } hint_form;
static const hint_form hints[] = {
    { "", 0, 0, 0, 0 }, { "wb", 1, 0, 0, 0 }, { "cg", 1, 0, 0, 0 }, { "cs", 1, 0, 0, 0 },
    { "wt", 1, 0, 0, 0 }, { "L1::evict_normal", 0, 1, 0, 0 },
    { "L1::evict_unchanged", 0, 1, 0, 0 }, { "L1::evict_first", 0, 1, 0, 0 },
    { "L1::evict_last", 0, 1, 0, 0 }, { "L1::no_allocate", 0, 1, 0, 0 },
    { "L2::evict_normal", 0, 0, 1, 0 }, { "L2::evict_first", 0, 0, 1, 0 },
    { "L2::evict_last", 0, 0, 1, 0 }, { "L2::cache_hint", 0, 0, 0, 1 },
    { "L1::evict_last.L2::evict_first", 0, 1, 1, 0 },
    { "L1::no_allocate.L2::cache_hint", 0, 1, 0, 1 },
    { "L2::evict_last.L2::cache_hint", 0, 0, 1, 1 },
    { "cg.L2::cache_hint", 1, 0, 0, 1 },
};
#define NHINT ((int)(sizeof hints / sizeof hints[0]))
/* data forms: vector length, type, element register prefix, sink element (-1 none) */
typedef struct { int vec; const char *type; int bytes; const char *reg; int sink; } data_form;
static const data_form datas[] = {
    { 1, "b8", 1, "%h", -1 }, { 1, "u8", 1, "%h", -1 }, { 1, "s16", 2, "%h", -1 },
    { 1, "b32", 4, "%r", -1 }, { 1, "s32", 4, "%r", -1 }, { 1, "f32", 4, "%f", -1 },
    { 1, "u64", 8, "%rd2", -1 }, { 1, "f64", 8, "%fd", -1 }, { 1, "b128", 16, "%q", -1 },
    { 2, "u16", 2, "%h", -1 }, { 4, "b32", 4, "%r", -1 }, { 4, "s8", 1, "%h", -1 },
    { 2, "f64", 8, "%fd", -1 }, { 8, "b32", 4, "%r", -1 }, { 8, "f32", 4, "%f", 1 },
    { 8, "u32", 4, "%r", 6 }, { 4, "b64", 8, "%rd2", -1 }, { 4, "f64", 8, "%fd", 2 },
    { 4, "s64", 8, "%rd2", 0 }, { 8, "b16", 2, "%h", -1 }, { 8, "b64", 8, "%rd2", -1 },
    { 1, "b32", 4, "%r", 0 }, { 2, "b32", 4, "%r", 1 }, { 4, "b32", 4, "%r", 3 },
};
#define NDATA ((int)(sizeof datas / sizeof datas[0]))

typedef struct { int sem, sc, sp, hint, data, policy; } st_form;

/* The page's rules, for a target in space `where` (0 global, 1 shared, 2 local). */
static int st_rules(const st_form *f, int where, const char **why)
{
    const hint_form *h = &hints[f->hint];
    const data_form *dt = &datas[f->data];
    int glob = where == 0;
    int w32 = dt->bytes == 4, w64 = dt->bytes == 8;
    int v8_32 = dt->vec == 8 && w32, v4_64 = dt->vec == 4 && w64;
#define NO(s) do { *why = s; return 0; } while (0)
    if ((f->sem == SEM_RELAXED || f->sem == SEM_RELEASE || f->sem == SEM_MMIO) != (f->sc != SC_NONE))
        NO("a scope goes with .relaxed/.release/.mmio, and only with them");
    if (f->sem == SEM_MMIO && f->sc != SC_SYS)
        NO(".mmio needs .sys scope");
    if (f->sem == SEM_MMIO && (!glob || dt->vec != 1 || f->hint))
        NO(".mmio: .global only, no vector, no cache qualifiers");
    if ((f->sem == SEM_RELAXED || f->sem == SEM_RELEASE) && where == 2)
        NO(".relaxed/.release: .global or .shared only");
    if ((f->sem == SEM_RELAXED || f->sem == SEM_RELEASE || f->sem == SEM_VOLATILE) && h->cop)
        NO("cache operations are not allowed with .relaxed/.release/.volatile");
    if (f->sem == SEM_VOLATILE && (h->l1 || h->l2 || h->hint))
        NO("st.volatile takes no eviction priority or cache hint");
    if (h->cop && (h->l1 || h->l2))
        NO("a cache operation and an eviction priority do not go together");
    if (dt->vec == 8 && (!w32 || !glob))
        NO(".v8 needs a 32-bit type and .global");
    if (dt->vec == 4 && w64 && !glob)
        NO(".v4 of a 64-bit type needs .global");
    if (dt->vec > 1 && dt->bytes == 16)
        NO("no vectors of .b128");
    if (h->l2 && !v8_32 && !v4_64)
        NO(".L2 eviction priority needs .v8 of 32-bit or .v4 of 64-bit");
    if (dt->sink >= 0 && !v8_32 && !v4_64)
        NO("sink `_` needs .v8 of 32-bit or .v4 of 64-bit");
    if (h->hint && !glob)
        NO(".L2::cache_hint is for .global only");
    if (f->policy && !h->hint)
        NO("a cache-policy operand needs .L2::cache_hint");
#undef NO
    return 1;
}

/* 1 for a valid form, 0 for an invalid one, -1 when only the run-time target of a generic
 * address breaks a rule (undefined behaviour, not something a loader can see). */
static int st_valid(const st_form *f, const char **why)
{
    int v = st_rules(f, sp_tab[f->sp].where, why);
    if (!v && sp_tab[f->sp].generic && st_rules(f, 0, why))
        return -1;
    return v;
}

static char *st_kernel(const st_form *f, char *insn, size_t ninsn)
{
    const hint_form *h = &hints[f->hint];
    const data_form *dt = &datas[f->data];
    sbuf b = { 0 };
    /* the instruction */
    size_t k = (size_t)snprintf(insn, ninsn, "st");
    if (f->sem != SEM_NONE)
        k += (size_t)snprintf(insn + k, ninsn - k, ".%s", sem_name[f->sem]);
    if (f->sc != SC_NONE)
        k += (size_t)snprintf(insn + k, ninsn - k, ".%s", sc_name[f->sc]);
    if (sp_tab[f->sp].q[0])
        k += (size_t)snprintf(insn + k, ninsn - k, ".%s", sp_tab[f->sp].q);
    if (h->q[0])
        k += (size_t)snprintf(insn + k, ninsn - k, ".%s", h->q);
    if (dt->vec > 1)
        k += (size_t)snprintf(insn + k, ninsn - k, ".v%d", dt->vec);
    k += (size_t)snprintf(insn + k, ninsn - k, ".%s %s, ", dt->type, sp_tab[f->sp].addr);
    if (dt->vec > 1)
        k += (size_t)snprintf(insn + k, ninsn - k, "{");
    for (int e = 0; e < dt->vec; e++) {
        const char *sep = e ? ", " : "";
        if (e == dt->sink)
            k += (size_t)snprintf(insn + k, ninsn - k, "%s_", sep);
        else if (!strcmp(dt->reg, "%rd2"))
            k += (size_t)snprintf(insn + k, ninsn - k, "%s%%rd%d", sep, 20 + e);
        else
            k += (size_t)snprintf(insn + k, ninsn - k, "%s%s%d", sep, dt->reg, e);
    }
    if (dt->vec > 1)
        k += (size_t)snprintf(insn + k, ninsn - k, "}");
    if (f->policy)
        k += (size_t)snprintf(insn + k, ninsn - k, ", %%rd9");
    snprintf(insn + k, ninsn - k, ";");
    /* the kernel */
    sb_add(&b, HDR ".visible .entry k(.param .u64 out)\n{\n"
                " .reg .b16 %%h<8>; .reg .b32 %%r<8>; .reg .f32 %%f<8>; .reg .b64 %%rd<30>;\n"
                " .reg .f64 %%fd<8>; .reg .b128 %%q0; .reg .pred %%p1;\n"
                " .shared .align 64 .b8 sh[64];\n .local .align 64 .b8 lc[64];\n"
                " ld.param.u64 %%rd1, [out];\n");
    switch (sp_tab[f->sp].where) {
    case 0: sb_add(&b, " mov.u64 %%rd11, %%rd1;\n mov.u64 %%rd10, %%rd1;\n"); break;
    case 1: sb_add(&b, " mov.u64 %%rd11, sh;\n cvta.shared.u64 %%rd10, %%rd11;\n"); break;
    default: sb_add(&b, " mov.u64 %%rd11, lc;\n cvta.local.u64 %%rd10, %%rd11;\n"); break;
    }
    sb_add(&b, " mov.u64 %%rd12, 0;\n mov.u16 %%h7, 0xee;\n"
               "FILL: add.u64 %%rd13, %%rd10, %%rd12;\n st.u8 [%%rd13], %%h7;\n"
               " add.u64 %%rd12, %%rd12, 1;\n setp.lt.u64 %%p1, %%rd12, 48;\n @%%p1 bra FILL;\n");
    for (int e = 0; e < 8; e++) {
        uint64_t v = 0;
        for (int j = 0; j < 8; j++)
            v |= (uint64_t)(0x10 * (e + 1) + j) << (8 * j);
        sb_add(&b, " mov.b16 %%h%d, 0x%04llx;\n", e, (unsigned long long)(v & 0xffff));
        sb_add(&b, " mov.b32 %%r%d, 0x%08llx;\n", e, (unsigned long long)(v & 0xffffffffu));
        sb_add(&b, " mov.b32 %%f%d, 0f%08llX;\n", e, (unsigned long long)(v & 0xffffffffu));
        sb_add(&b, " mov.b64 %%rd%d, 0x%016llx;\n", 20 + e, (unsigned long long)v);
        sb_add(&b, " mov.b64 %%fd%d, 0d%016llX;\n", e, (unsigned long long)v);
    }
    /* .b128 element 0: bytes 0x10..0x1f */
    sb_add(&b, " mov.b64 %%rd14, 0x1716151413121110;\n mov.b64 %%rd15, 0x1f1e1d1c1b1a1918;\n"
               " mov.b128 %%q0, {%%rd14, %%rd15};\n"
               " createpolicy.fractional.L2::evict_last.b64 %%rd9, 0.25;\n"
               " %s\n", insn);
    sb_add(&b, " mov.u64 %%rd12, 0;\n"
               "COPY: add.u64 %%rd13, %%rd10, %%rd12;\n ld.u8 %%h7, [%%rd13];\n"
               " add.u64 %%rd13, %%rd1, %%rd12;\n st.global.u8 [%%rd13+64], %%h7;\n"
               " add.u64 %%rd12, %%rd12, 1;\n setp.lt.u64 %%p1, %%rd12, 48;\n @%%p1 bra COPY;\n"
               " ret;\n}\n");
    return b.s;
}

/* Expected 48 bytes of the target after the store. */
static void st_expect(const st_form *f, uint8_t *x)
{
    const data_form *dt = &datas[f->data];
    memset(x, 0xee, 48);
    for (int e = 0; e < dt->vec; e++) {
        if (e == dt->sink)
            continue;
        for (int j = 0; j < dt->bytes; j++)
            x[e * dt->bytes + j] = dt->bytes == 16 ? (uint8_t)(0x10 + j)
                                                   : (uint8_t)(0x10 * (e + 1) + j);
    }
}

/* Run one form: 0 when the outcome matches the rules; else a line in `log`. */
static int st_try(const st_form *f, int want_valid, sbuf *log)
{
    char insn[256];
    char *src = st_kernel(f, insn, sizeof insn);
    T t;
    int bad = 0;
    if (t_load(&t, src)) {
        if (want_valid) {
            sb_add(log, "\n  rejected valid form: %s -> %s", insn, t.err);
            bad = 1;
        } else if (!strstr(t.err, "error") || !strstr(t.err, "t.ptx:")) {
            sb_add(log, "\n  unclear message for %s: %s", insn, t.err);
            bad = 1;
        }
        t_free(&t);
        free(src);
        return bad;
    }
    if (!want_valid) {
        sb_add(log, "\n  accepted: %s", insn);
        t_free(&t);
        free(src);
        return 1;
    }
    uint64_t out = t_buf(&t, 128);
    exec_stop st = t_go(&t, "k", 1, 1, &out, 8);
    if (st.kind != EXEC_STOP_DONE) {
        sb_add(log, "\n  %s: stop %d exc %d: %s", insn, (int)st.kind, (int)st.exc, st.msg);
        bad = 1;
    } else {
        uint8_t got[48], exp[48];
        t_read(&t, out + 64, got, 48);
        st_expect(f, exp);
        if (memcmp(got, exp, 48)) {
            int j = 0;
            while (got[j] == exp[j])
                j++;
            sb_add(log, "\n  %s: byte %d is %02x, expected %02x", insn, j, got[j], exp[j]);
            bad = 1;
        }
    }
    t_free(&t);
    free(src);
    return bad;
}

/* Every combination of semantics x scope x space x data with no hint, and of hints x space x
 * data with the default semantics (plus a policy operand where a hint allows one). */
static void st_matrix(int want_valid)
{
    sbuf log = { 0 };
    int n = 0, bad = 0;
    const char *why;
    for (int sem = 0; sem < NSEM; sem++)
        for (int sc = 0; sc < NSC; sc++)
            for (int sp = 0; sp < NSP; sp++)
                for (int dt = 0; dt < NDATA; dt++) {
                    st_form f = { sem, sc, sp, 0, dt, 0 };
                    /* semantics without scope: no scope and one stray scope suffice */
                    if ((sem == SEM_NONE || sem == SEM_WEAK || sem == SEM_VOLATILE) &&
                        sc != SC_NONE && sc != SC_GPU)
                        continue;
                    if (st_valid(&f, &why) != want_valid)
                        continue;
                    n++;
                    bad += st_try(&f, want_valid, &log);
                }
    static const int hint_sp[] = { SP_GLOBAL, SP_GENERIC_G, SP_SHARED, SP_LOCAL };
    for (int h = 1; h < NHINT; h++)
        for (int sem = 0; sem < NSEM; sem++)
            for (int spi = 0; spi < 4; spi++)
                for (int dt = 0; dt < NDATA; dt++)
                    for (int pol = 0; pol < 2; pol++) {
                        int sp = hint_sp[spi];
                        int sc = sem == SEM_RELAXED ? SC_GPU : sem == SEM_RELEASE ? SC_CTA
                               : sem == SEM_MMIO ? SC_SYS : SC_NONE;
                        st_form f = { sem, sc, sp, h, dt, pol };
                        if (pol && !hints[h].hint)
                            continue;
                        if (st_valid(&f, &why) != want_valid)
                            continue;
                        n++;
                        bad += st_try(&f, want_valid, &log);
                    }
    /* a policy operand without .L2::cache_hint */
    if (!want_valid)
        for (int sp = 0; sp < 2; sp++) {
            st_form f = { SEM_NONE, SC_NONE, sp, 0, 3, 1 };
            n++;
            bad += st_try(&f, 0, &log);
        }
    char msg[3100];
    snprintf(msg, sizeof msg, "%.3000s", log.s ? log.s : "");
    free(log.s);   /* before the assertion: a failing one does not return */
    ck_assert_msg(bad == 0, "%d of %d %s st forms misbehave:%s", bad, n,
                  want_valid ? "valid" : "invalid", msg);
}

START_TEST(test_st_valid_forms) { st_matrix(1); }
END_TEST

START_TEST(test_st_invalid_forms) { st_matrix(0); }
END_TEST

/* The page's examples, written as on the page (qualifier order included). */
START_TEST(test_st_page_examples)
{
    T t;
    const char *src = HDR
        ".global .align 16 .b32 gbl[16];\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<8>; .reg .b128 %q;\n"
        " .reg .b32 %reg<8>;\n"
        " .shared .align 16 .b32 sh[8];\n .local .align 8 .b32 lcl[4];\n"
        " ld.param.u64 %rd1, [out];\n"
        " mov.u32 %r0, 0xa0; mov.u32 %r1, 0xa1; mov.u32 %r2, 0xa2;\n"
        " st.global.relaxed.sys.u32 [gbl], %r0;\n"
        " st.shared.release.cta.u32 [sh], %r1;\n"
        " st.global.relaxed.cluster.u32 [gbl+4], %r2;\n"
        " st.shared::cta.release.cta.u32 [sh + 4], %r1;\n"
        " st.shared::cluster.u32 [sh + 8], %r2;\n"
        " st.global.mmio.relaxed.sys.u32 [gbl+8], %r1;\n"
        " st.local.volatile.u32 [lcl], %r2;\n"
        " mov.f32 %f1, 0f3f800000;\n"
        " st.global.L1::no_allocate.f32 [gbl+12], %f1;\n"
        " createpolicy.fractional.L2::evict_last.b64 %rd2, 0.25;\n"
        " st.global.L2::cache_hint.b32 [gbl+16], %r0, %rd2;\n"
        " mov.b64 %rd3, 0x0807060504030201; mov.b64 %rd4, 0x100f0e0d0c0b0a09;\n"
        " mov.b128 %q, {%rd3, %rd4};\n"
        " st.global.b128 [gbl+32], %q;\n"
        " mov.u32 %reg0, 0xb0; mov.u32 %reg2, 0xb2; mov.u32 %reg3, 0xb3; mov.u32 %reg4, 0xb4;\n"
        " mov.u32 %reg5, 0xb5; mov.u32 %reg6, 0xb6; mov.u32 %reg7, 0xb7;\n"
        " mov.u64 %rd5, gbl;\n"
        " st.global.L2::evict_last.v8.f32 [%rd5+32], { %reg0, _, %reg2, %reg3, %reg4, %reg5, %reg6, %reg7};\n"
        " ld.shared.v2.u32 {%r3, %r4}, [sh];\n ld.shared.u32 %r5, [sh+8];\n ld.local.u32 %r6, [lcl];\n"
        " st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 16);
    t_done(t_go(&t, "k", 1, 1, &out, 8));
    uint32_t o[4], g[16];
    t_read(&t, out, o, 16);
    ck_assert_uint_eq(o[0], 0xa1);
    ck_assert_uint_eq(o[1], 0xa1);
    ck_assert_uint_eq(o[2], 0xa2);
    ck_assert_uint_eq(o[3], 0xa2);
    ptx_space sp;
    uint64_t ga, gs;
    ck_assert_int_eq(exec_symbol_addr(t.m, "gbl", &sp, &ga, &gs), 0);
    t_read(&t, ga, g, 64);
    ck_assert_uint_eq(g[0], 0xa0);
    ck_assert_uint_eq(g[1], 0xa2);
    ck_assert_uint_eq(g[2], 0xa1);
    ck_assert_uint_eq(g[3], 0x3f800000);
    ck_assert_uint_eq(g[4], 0xa0);
    /* the .v8 store over the .b128 one: element 1 is the sink, so its bytes stay */
    ck_assert_uint_eq(g[8], 0xb0);
    ck_assert_uint_eq(g[9], 0x08070605);
    for (int k = 2; k < 8; k++)
        ck_assert_uint_eq(g[8 + k], 0xb0u + (unsigned)k);
    t_free(&t);
}
END_TEST

/* Restrictions the page states in words, one instruction each: each must fail to load with a
 * message naming the line. */
START_TEST(test_st_restrictions)
{
    static const char *const bad[] = {
        "st.mmio.global.u32 [%rd1], %r1;",                  /* .mmio without .relaxed */
        "st.mmio.relaxed.gpu.global.u32 [%rd1], %r1;",      /* .mmio needs .sys */
        "st.mmio.relaxed.sys.shared.u32 [sh], %r1;",        /* .mmio: .global only */
        "st.relaxed.local.u32 [lc], %r1;",                  /* no .local for .relaxed */
        "st.release.gpu.local.u32 [lc], %r1;",
        "st.relaxed.global.u32 [%rd1], %r1;",               /* .relaxed needs a scope */
        "st.global.gpu.u32 [%rd1], %r1;",                   /* a scope needs .relaxed/.release */
        "st.relaxed.sys.global.cg.u32 [%rd1], %r1;",        /* no cache operations */
        "st.volatile.global.wt.u32 [%rd1], %r1;",
        "st.weak.volatile.global.u32 [%rd1], %r1;",         /* mutually exclusive */
        "st.relaxed.release.gpu.global.u32 [%rd1], %r1;",
        "st.global.relaxed.cta.gpu.u32 [%rd1], %r1;",       /* two scopes */
        "st.global.v8.b16 [%rd1], {%h1, %h1, %h1, %h1, %h1, %h1, %h1, %h1};", /* .v8: 32-bit */
        "st.shared.v8.b32 [sh], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};",   /* .v8: .global */
        "st.shared.v4.b64 [sh], {%rd2, %rd3, %rd4, %rd5};", /* .v4 of 64-bit: .global */
        "st.global.L2::evict_last.u32 [%rd1], %r1;",        /* .L2 priority: .v8/.v4.b64 */
        "st.global.v4.b32 [%rd1], {%r1, _, %r3, %r4};",     /* sink: .v8/.v4.b64 only */
        "st.global.b128 [%rd1], _;",
        "st.global.u32 [%rd1], %r1, %rd9;",                 /* policy without cache_hint */
        "st.shared.L2::cache_hint.u32 [sh], %r1, %rd9;",    /* cache_hint: .global only */
        "st.global.cg.L1::evict_last.u32 [%rd1], %r1;",     /* .cop and priority */
        "st.volatile.global.L1::evict_last.u32 [%rd1], %r1;",
        "st.global.wb.cg.u32 [%rd1], %r1;",                 /* two cache operations */
        "st.global.L1::evict_first.L1::evict_last.u32 [%rd1], %r1;",
        "st.global.mmio.relaxed.sys.v2.u32 [%rd1], {%r1, %r2};",
        "st.const.u32 [%rd1], %r1;",                        /* stores to const are illegal */
        "st.param::entry.u32 [out], %r1;",                  /* not an st state space */
        "st.global.v2.b128 [%rd1], {%q1, %q1};",
        "st.global.foo.u32 [%rd1], %r1;",                   /* not a qualifier at all */
    };
    sbuf log = { 0 };
    int nbad = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char src[2048];
        snprintf(src, sizeof src, HDR
                 ".visible .entry k(.param .u64 out)\n{\n"
                 " .reg .b16 %%h<3>; .reg .b32 %%r<10>; .reg .b64 %%rd<10>; .reg .b128 %%q<2>;\n"
                 " .shared .align 32 .b8 sh[64];\n .local .align 32 .b8 lc[64];\n"
                 " ld.param.u64 %%rd1, [out];\n"
                 " createpolicy.fractional.L2::evict_last.b64 %%rd9, 0.25;\n"
                 " %s\n ret;\n}\n", bad[i]);
        T t;
        if (t_load(&t, src) == 0) {
            sb_add(&log, "\n  accepted: %s", bad[i]);
            nbad++;
        } else if (!strstr(t.err, "t.ptx:11:")) {
            sb_add(&log, "\n  %s: message does not name line 11: %s", bad[i], t.err);
            nbad++;
        }
        t_free(&t);
    }
    char msg[4100];
    snprintf(msg, sizeof msg, "%.4000s", log.s ? log.s : "");
    free(log.s);
    ck_assert_msg(nbad == 0, "%d invalid st forms:%s", nbad, msg);
}
END_TEST

/* ld follows the same qualifier rules where its page does (sem/scope pairing, .mmio, no cache
 * operators with memory ordering, one qualifier per group, .v8/.v4 of 64-bit in .global, .L2
 * eviction priorities, .L2::cache_hint in .global), while every form nvcc emits still loads. */
START_TEST(test_ld_qualifiers)
{
    static const char *const bad[] = {
        "ld.relaxed.global.u32 %r1, [%rd1];",
        "ld.global.gpu.u32 %r1, [%rd1];",
        "ld.acquire.gpu.local.u32 %r1, [lc];",
        "ld.relaxed.gpu.global.cg.u32 %r1, [%rd1];",
        "ld.volatile.global.ca.u32 %r1, [%rd1];",
        "ld.volatile.global.L1::evict_last.u32 %r1, [%rd1];",
        "ld.weak.volatile.global.u32 %r1, [%rd1];",
        "ld.global.ca.cg.u32 %r1, [%rd1];",
        "ld.global.cg.L1::evict_last.u32 %r1, [%rd1];",
        "ld.mmio.relaxed.gpu.global.u32 %r1, [%rd1];",
        "ld.mmio.global.u32 %r1, [%rd1];",
        "ld.release.gpu.global.u32 %r1, [%rd1];",
        "ld.shared.v8.b32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [sh];",
        "ld.shared.v4.b64 {%rd2, %rd3, %rd4, %rd5}, [sh];",
        "ld.global.L2::evict_last.u32 %r1, [%rd1];",
        "ld.shared.L2::cache_hint.u32 %r1, [sh], %rd9;",
        "ld.global.u32 %r1, [%rd1], %rd9;",
        "ld.shared.nc.u32 %r1, [sh];",
        "ld.global.L2::64B.L2::128B.u32 %r1, [%rd1];",
    };
    static const char *const good[] = {
        "ld.relaxed.gpu.global.u32 %r1, [%rd1];", "ld.acquire.sys.u32 %r1, [%rd1];",
        "ld.volatile.shared.u32 %r1, [sh];", "ld.volatile.local.u32 %r1, [lc];",
        "ld.global.nc.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];",
        "ld.global.nc.L1::no_allocate.L2::128B.u32 %r1, [%rd1];",
        "ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd9;", "ld.global.cs.u32 %r1, [%rd1];",
        "ld.mmio.relaxed.sys.global.u32 %r1, [%rd1];", "ld.const.u32 %r1, [%rd1];",
        "ld.global.L2::evict_last.v8.b32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];",
        "ld.global.v4.u32 {%r1, _, %r3, _}, [%rd1];", "ld.global.u8 %r1, [%rd1];",
        "ld.global.lu.u32 %r1, [%rd1];", "ld.shared::cluster.u32 %r1, [sh];",
    };
    for (int pass = 0; pass < 2; pass++) {
        const char *const *v = pass ? good : bad;
        size_t n = pass ? sizeof good / sizeof good[0] : sizeof bad / sizeof bad[0];
        for (size_t i = 0; i < n; i++) {
            char src[2048];
            snprintf(src, sizeof src, HDR
                     ".visible .entry k(.param .u64 out)\n{\n"
                     " .reg .b16 %%h<3>; .reg .b32 %%r<10>; .reg .b64 %%rd<10>;\n"
                     " .shared .align 32 .b8 sh[64];\n .local .align 32 .b8 lc[64];\n"
                     " ld.param.u64 %%rd1, [out];\n"
                     " createpolicy.fractional.L2::evict_last.b64 %%rd9, 0.25;\n"
                     " %s\n ret;\n}\n", v[i]);
            T t;
            int rc = t_load(&t, src);
            if (pass)
                ck_assert_msg(rc == 0, "rejected %s: %s", v[i], t.err);
            else
                ck_assert_msg(rc != 0 && strstr(t.err, "t.ptx:11:"), "%s: %s", v[i],
                              rc ? t.err : "accepted");
            t_free(&t);
        }
    }
}
END_TEST

/* st.param{::func} in a call sequence (and its read-back by the callee), relaxed type rules:
 * a wider source register stores its low bits; .f16x2 data stored with st.b32. */
START_TEST(test_st_param_func_and_wide_sources)
{
    T t;
    const char *src = HDR
        ".func (.param .b64 r) f(.param .b64 a, .param .b32 b)\n{\n"
        " .reg .b64 %x, %y64; .reg .b32 %y;\n"
        " ld.param::func.b64 %x, [a];\n ld.param.b32 %y, [b];\n"
        " cvt.u64.u32 %y64, %y;\n"
        " add.u64 %x, %x, %y64;\n st.param::func.b64 [r], %x;\n ret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        " .reg .b64 %rd<6>; .reg .b32 %r<4>; .reg .f16x2 %hh;\n"
        " ld.param.u64 %rd1, [out];\n"
        " mov.b64 %rd2, 0x1122334455667788;\n"
        " {\n .param .b64 pa; .param .b32 pb; .param .b64 pr;\n"
        "  st.param::func.b64 [pa], %rd2;\n  st.param.b32 [pb], %rd2;\n"   /* low 32 bits */
        "  call (pr), f, (pa, pb);\n  ld.param.b64 %rd3, [pr];\n }\n"
        " st.global.u64 [%rd1], %rd3;\n"
        " st.global.u8 [%rd1+8], %rd2;\n st.global.b16 [%rd1+10], %rd2;\n"
        " st.global.u32 [%rd1+12], %rd2;\n"
        " mov.b32 %hh, 0x3c00bc00;\n st.global.b32 [%rd1+16], %hh;\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 32);
    t_done(t_go(&t, "k", 1, 1, &out, 8));
    uint8_t o[20];
    t_read(&t, out, o, 20);
    uint64_t r;
    memcpy(&r, o, 8);
    ck_assert_uint_eq(r, 0x1122334455667788ull + 0x55667788ull);
    ck_assert_uint_eq(o[8], 0x88);
    ck_assert_uint_eq(o[10] | o[11] << 8, 0x7788);
    uint32_t w;
    memcpy(&w, o + 12, 4);
    ck_assert_uint_eq(w, 0x55667788u);
    memcpy(&w, o + 16, 4);
    ck_assert_uint_eq(w, 0x3c00bc00u);
    t_free(&t);
}
END_TEST

/* =============================================================================================
 * The .param state space
 * ============================================================================================= */

/* Kernel parameter attributes: .ptr with a space and alignment, reflected in the symbols; the
 * spaces in between may be left out; only const/global/local/shared may be named. */
START_TEST(test_param_ptr_attributes)
{
    T t;
    const char *src = HDR
        ".entry foo ( .param .u32 param1,\n"
        "             .param .u32 .ptr.global.align 16 param2,\n"
        "             .param .u32 .ptr.const.align 8 param3,\n"
        "             .param .u32 .ptr.align 16 param4,\n"
        "             .param .u64 .ptr .shared .align 4 param5,\n"
        "             .param .u64 .ptr.local param6 )\n"
        "{\n ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    const ptx_func *f = ptx_find_func(t.mod, "foo");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->nparams, 6);
    ck_assert_int_eq(f->params[0]->ptr_space, PTX_SPACE_NONE);
    ck_assert_int_eq(f->params[1]->ptr_space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(f->params[1]->ptr_align, 16);
    ck_assert_int_eq(f->params[2]->ptr_space, PTX_SPACE_CONST);
    ck_assert_int_eq(f->params[2]->ptr_align, 8);
    ck_assert_int_eq(f->params[3]->ptr_space, PTX_SPACE_GENERIC); /* generic pointer */
    ck_assert_int_eq(f->params[3]->ptr_align, 16);
    ck_assert_int_eq(f->params[4]->ptr_space, PTX_SPACE_SHARED);
    ck_assert_int_eq(f->params[4]->ptr_align, 4);
    ck_assert_int_eq(f->params[5]->ptr_space, PTX_SPACE_LOCAL);
    /* the attribute describes the pointee: the parameter itself keeps its natural layout */
    uint64_t offs[6], sizes[6];
    ck_assert_int_eq(exec_param_layout(f, offs, sizes, 6), 32);
    ck_assert_uint_eq(offs[1], 4);
    ck_assert_uint_eq(offs[4], 16);
    ck_assert_uint_eq(sizes[5], 8);
    t_free(&t);

    static const char *const badp[] = {
        ".param .u64 .ptr.param.align 8 p",      /* not a pointee space */
        ".param .u64 .ptr.global.align 12 p",    /* not a power of two */
        ".param .u64 .ptr.shared::cluster p",
    };
    for (size_t i = 0; i < sizeof badp / sizeof badp[0]; i++) {
        char s[512];
        snprintf(s, sizeof s, HDR ".entry foo (%s)\n{\n ret;\n}\n", badp[i]);
        ck_assert_msg(t_load(&t, s) != 0, "accepted %s", badp[i]);
        ck_assert_msg(strstr(t.err, "t.ptx:4:") != NULL, "%s", t.err);
        t_free(&t);
    }
}
END_TEST

/* Kernel parameters: ld.param / ld.param::entry by name, by an address taken with mov (64- and
 * 32-bit), through a generic address (cvta.param), isspacep.param; by-value structures. */
START_TEST(test_param_kernel_addresses)
{
    T t;
    const char *src = HDR
        ".visible .entry k(.param .u64 out, .param .b32 len, .param .align 8 .b8 buffer[24])\n{\n"
        " .reg .b64 %rd<12>; .reg .b32 %r<10>; .reg .u32 %ptr; .reg .f64 %d; .reg .pred %p<4>;\n"
        " ld.param::entry.u64 %rd1, [out];\n"
        " ld.param.u32 %r1, [len];\n"
        " mov.u64 %rd2, len;\n ld.param.u32 %r2, [%rd2];\n"
        " mov.u32 %ptr, len;\n ld.param.u32 %r3, [%ptr];\n"
        " ld.param.f64 %d, [buffer];\n ld.param.s32 %r4, [buffer+8];\n"
        " mov.u64 %rd3, buffer;\n ld.param.u64 %rd4, [%rd3+16];\n"
        " cvta.param.u64 %rd5, %rd3;\n ld.u64 %rd6, [%rd5+16];\n"     /* generic */
        " isspacep.param %p1, %rd5;\n isspacep.param::entry %p2, %rd5;\n"
        " isspacep.global %p3, %rd5;\n"
        " selp.u32 %r5, 1, 0, %p1;\n selp.u32 %r6, 2, 0, %p2;\n add.u32 %r5, %r5, %r6;\n"
        " selp.u32 %r6, 4, 0, %p3;\n add.u32 %r5, %r5, %r6;\n"
        " cvta.to.param.u64 %rd7, %rd5;\n"
        " st.global.u32 [%rd1], %r1;\n st.global.u32 [%rd1+4], %r2;\n"
        " st.global.u32 [%rd1+8], %r3;\n st.global.f64 [%rd1+16], %d;\n"
        " st.global.u32 [%rd1+24], %r4;\n st.global.u64 [%rd1+32], %rd4;\n"
        " st.global.u64 [%rd1+40], %rd6;\n st.global.u32 [%rd1+48], %r5;\n"
        " sub.u64 %rd8, %rd7, %rd3;\n st.global.u64 [%rd1+56], %rd8;\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    const ptx_func *f = ptx_find_func(t.mod, "k");
    uint64_t offs[3], sizes[3];
    ck_assert_int_eq(exec_param_layout(f, offs, sizes, 3), 40);
    uint8_t prm[40];
    memset(prm, 0, sizeof prm);
    uint64_t out = t_buf(&t, 64);
    uint32_t len = 0xabcdef01u;
    double dv = 2.5;
    int32_t iv = -7;
    uint64_t tail = 0x0123456789abcdefull;
    memcpy(prm + offs[0], &out, 8);
    memcpy(prm + offs[1], &len, 4);
    memcpy(prm + offs[2], &dv, 8);
    memcpy(prm + offs[2] + 8, &iv, 4);
    memcpy(prm + offs[2] + 16, &tail, 8);
    t_done(t_go(&t, "k", 1, 3, prm, sizeof prm));
    uint8_t o[64];
    t_read(&t, out, o, 64);
    uint32_t u;
    uint64_t q;
    double dd;
    memcpy(&u, o, 4); ck_assert_uint_eq(u, len);
    memcpy(&u, o + 4, 4); ck_assert_uint_eq(u, len);
    memcpy(&u, o + 8, 4); ck_assert_uint_eq(u, len);
    memcpy(&dd, o + 16, 8); ck_assert(dd == 2.5);
    memcpy(&u, o + 24, 4); ck_assert_int_eq((int32_t)u, -7);
    memcpy(&q, o + 32, 8); ck_assert_uint_eq(q, tail);
    memcpy(&q, o + 40, 8); ck_assert_uint_eq(q, tail);
    memcpy(&u, o + 48, 4); ck_assert_uint_eq(u, 3);    /* param, param::entry, not global */
    memcpy(&q, o + 56, 8); ck_assert_uint_eq(q, 0);    /* cvta.to.param undoes cvta.param */
    t_free(&t);
}
END_TEST

/* Device functions: the page's by-value structure (.reg and .param parameters, an immediate
 * argument) and the address of an input parameter moved into a register, which is a .local
 * address (the parameter is copied to the stack). Each lane passes its own values. */
START_TEST(test_param_func_struct_and_address)
{
    T t;
    const char *src = HDR
        /* pass object of type struct { double d; int y; } */
        ".func (.param .b32 r) foo ( .reg .b32 N, .param .align 8 .b8 buffer[12] )\n{\n"
        " .reg .f64 %d; .reg .s32 %y; .reg .f64 %e;\n"
        " ld.param.f64 %d, [buffer];\n ld.param.s32 %y, [buffer+8];\n"
        " cvt.rn.f64.s32 %e, %y;\n add.f64 %d, %d, %e;\n cvt.rzi.s32.f64 %y, %d;\n"
        " mad.lo.s32 %y, N, 1000, %y;\n"
        " st.param.b32 [r], %y;\n ret;\n}\n"
        /* pass array of up to eight floating-point values in buffer */
        ".func (.param .b32 r) bar ( .param .b32 N, .param .b32 buffer[8] )\n{\n"
        " .reg .u32 %n, %r; .reg .f32 %f, %s; .reg .pred %p; .reg .u64 %g;\n"
        " ld.param.u32 %n, [N];\n"
        " mov.u32 %r, buffer;\n"   /* forces buffer to .local state space */
        " mov.f32 %s, 0f00000000;\n"
        "Loop:\n setp.eq.u32 %p, %n, 0;\n@%p bra Done;\n"
        " ld.local.f32 %f, [%r];\n add.f32 %s, %s, %f;\n"
        " add.u32 %r, %r, 4;\n sub.u32 %n, %n, 1;\n bra Loop;\n"
        "Done:\n"
        " mov.u64 %g, buffer+4;\n cvta.local.u64 %g, %g;\n"   /* generic, element 1 */
        " ld.f32 %f, [%g];\n add.f32 %s, %s, %f;\n"
        " st.local.f32 [%r+-4], %s;\n"                        /* the copy is writable */
        " ld.param.f32 %f, [buffer+4];\n add.f32 %s, %s, %f;\n" /* the parameter is not */
        " cvt.rzi.u32.f32 %n, %s;\n st.param.b32 [r], %n;\n ret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        " .reg .b64 %rd<6>; .reg .b32 %r<8>; .reg .f64 dbl; .reg .s32 x; .reg .f32 %f<4>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " mul.wide.u32 %rd2, %r1, 8;\n add.u64 %rd1, %rd1, %rd2;\n"
        " cvt.rn.f64.u32 dbl, %r1;\n add.f64 dbl, dbl, 0d4024000000000000;\n"   /* 10 + tid */
        " mul.lo.s32 x, %r1, 3;\n"
        " {\n .param .align 8 .b8 mystruct[12]; .param .b32 rv;\n"
        "  st.param.f64 [mystruct+0], dbl;\n  st.param.s32 [mystruct+8], x;\n"
        "  call (rv), foo, (4, mystruct);\n  ld.param.b32 %r2, [rv];\n }\n"
        " st.global.u32 [%rd1], %r2;\n"
        " cvt.rn.f32.u32 %f1, %r1;\n rem.u32 %r3, %r1, 4;\n add.u32 %r3, %r3, 1;\n"
        " {\n .param .b32 n; .param .b32 a[8]; .param .b32 rv;\n"
        "  st.param.b32 [n], %r3;\n"
        "  st.param.f32 [a], %f1;\n st.param.f32 [a+4], 0f40000000;\n"
        "  st.param.f32 [a+8], 0f40400000;\n st.param.f32 [a+12], 0f40800000;\n"
        "  call (rv), bar, (n, a);\n  ld.param.b32 %r4, [rv];\n }\n"
        " st.global.u32 [%rd1+4], %r4;\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 8 * 37);
    t_done(t_go(&t, "k", 1, 37, &out, 8));
    uint32_t o[74];
    t_read(&t, out, o, sizeof o);
    for (uint32_t i = 0; i < 37; i++) {
        ck_assert_uint_eq(o[2 * i], 4000 + 10 + i + 3 * i);
        /* sum of the first n elements {i, 2, 3, 4}, plus element 1 read generically, the sum
         * stored over the last element read (local copy only), plus element 1 of the param */
        uint32_t n = i % 4 + 1;
        float el[4] = { (float)i, 2, 3, 4 }, s = 0;
        for (uint32_t k = 0; k < n; k++)
            s += el[k];
        s += 2;
        s += 2;
        ck_assert_uint_eq(o[2 * i + 1], (uint32_t)s);
    }
    t_free(&t);
}
END_TEST

/* The address of an input parameter in a recursive function: every activation has its own
 * copy; returning frees it. */
START_TEST(test_param_address_recursion)
{
    T t;
    const char *src = HDR
        ".func (.param .b64 r) rec (.param .b32 n)\n{\n"
        " .reg .b32 %n, %m, %v; .reg .b64 %a, %s, %q; .reg .pred %p;\n"
        " mov.u64 %a, n;\n ld.local.u32 %n, [%a];\n"
        " setp.eq.u32 %p, %n, 0;\n @%p bra Base;\n"
        " sub.u32 %m, %n, 1;\n"
        " {\n .param .b32 pn; .param .b64 pr;\n st.param.b32 [pn], %m;\n"
        "  call (pr), rec, (pn);\n ld.param.b64 %s, [pr];\n }\n"
        " ld.local.u32 %v, [%a];\n"            /* still this activation's value */
        " cvt.u64.u32 %q, %v;\n add.u64 %s, %s, %q;\n"
        " st.param.b64 [r], %s;\n ret;\n"
        "Base:\n mov.u64 %s, 0;\n st.param.b64 [r], %s;\n ret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        " .reg .b64 %rd<6>; .reg .b32 %r<4>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " stacksave.u64 %rd4;\n"
        " {\n .param .b32 pn; .param .b64 pr;\n st.param.b32 [pn], %r1;\n"
        "  call (pr), rec, (pn);\n ld.param.b64 %rd2, [pr];\n }\n"
        " stacksave.u64 %rd5;\n sub.u64 %rd5, %rd5, %rd4;\n"
        " mul.wide.u32 %rd3, %r1, 16;\n add.u64 %rd3, %rd1, %rd3;\n"
        " st.global.u64 [%rd3], %rd2;\n st.global.u64 [%rd3+8], %rd5;\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 16 * 20);
    t_done(t_go(&t, "k", 1, 20, &out, 8));
    uint64_t o[40];
    t_read(&t, out, o, sizeof o);
    for (uint64_t i = 0; i < 20; i++) {
        ck_assert_uint_eq(o[2 * i], i * (i + 1) / 2);
        ck_assert_uint_eq(o[2 * i + 1], 0);    /* every copy freed on return */
    }
    t_free(&t);
}
END_TEST

/* What the page forbids: writing kernel parameters, writing an input parameter of a device
 * function, reading its return parameter, predicated st.param for an argument; the address of
 * a locally-scoped .param variable. Each must fail to load. */
START_TEST(test_param_restrictions)
{
    static const struct { const char *func, *kernel; } bad[] = {
        { "", " st.param.u32 [len], 1;\n" },
        { "", " st.param::entry.u32 [len], 1;\n" },
        { "", " mov.u64 %rd2, len;\n st.param.u32 [%rd2], 1;\n" },
        { " st.param.u32 [N], %n;\n", "" },         /* writing an input parameter */
        { " ld.param.u32 %n, [r];\n", "" },         /* reading a return parameter */
        { "", " {\n .param .b32 a; .param .b32 b;\n @%p1 st.param.b32 [a], 3;\n"
              " call (b), f, (a);\n }\n" },          /* predicated argument store */
        { "", " {\n .param .b32 a; .param .b32 b;\n mov.u64 %rd2, a;\n"
              " st.param.b32 [a], 3;\n call (b), f, (a);\n }\n" }, /* address of a local .param */
    };
    sbuf log = { 0 };
    int nbad = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char src[2048];
        snprintf(src, sizeof src, HDR
                 ".func (.param .b32 r) f (.param .b32 N)\n{\n .reg .u32 %%n;\n"
                 " ld.param.u32 %%n, [N];\n%s st.param.b32 [r], %%n;\n ret;\n}\n"
                 ".visible .entry k(.param .b32 len)\n{\n .reg .b64 %%rd<4>; .reg .pred %%p1;\n"
                 " setp.eq.u32 %%p1, 1, 1;\n%s ret;\n}\n", bad[i].func, bad[i].kernel);
        T t;
        if (t_load(&t, src) == 0) {
            sb_add(&log, "\n  accepted:%s%s", bad[i].func, bad[i].kernel);
            nbad++;
        }
        t_free(&t);
    }
    char msg[4100];
    snprintf(msg, sizeof msg, "%.4000s", log.s ? log.s : "");
    free(log.s);
    ck_assert_msg(nbad == 0, "%d forbidden .param uses load:%s", nbad, msg);
}
END_TEST

/* =============================================================================================
 * Stack manipulation: stacksave / stackrestore / alloca
 * ============================================================================================= */

/* Alignment (default 8, immAlign, .u32 and .u64 forms, the page's type-less example), live
 * allocations never overlap, stackrestore frees (the next alloca reuses the space), stacksave
 * after stackrestore gives the saved value, zero-size allocations. The stack grows down: after
 * `alloca p, n` the stack pointer is p (stacksave gives p), successive allocas go down and each
 * lies below the stack pointer it started from. Per lane. */
START_TEST(test_stack_alloca_basics)
{
    T t;
    const char *src = HDR
        ".visible .entry k(.param .u64 out)\n{\n"
        " .reg .b64 %rd<24>; .reg .b32 %r<10>; .reg .u32 ra, stackptr, ptr, size;\n"
        " .local .align 4 .b8 depot[12];\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " mul.wide.u32 %rd2, %r1, 128;\n add.u64 %rd1, %rd1, %rd2;\n"
        " add.u32 %r2, %r1, 1;\n cvt.u64.u32 %rd3, %r2;\n"   /* size: tid + 1 */
        " stacksave.u64 %rd4;\n"
        " alloca.u64 %rd5, %rd3;\n"                 /* default alignment 8 */
        " alloca.u64 %rd6, 24, 64;\n"
        " alloca.u64 %rd7, 3, 2;\n"                 /* immAlign below 8: still 8 */
        " alloca.u64 %rd8, 0;\n"
        " stacksave.u64 %rd9;\n"
        " st.local.u8 [%rd5], %r1;\n"
        " st.local.u32 [%rd6+20], %r2;\n st.local.u8 [%rd7+2], %r2;\n"
        " ld.local.u32 %r3, [%rd6+20];\n ld.local.u8 %r4, [%rd5];\n"
        " stackrestore.u64 %rd4;\n"
        " stacksave.u64 %rd10;\n"
        " alloca.u64 %rd11, 16;\n"                  /* reuses the freed space */
        /* 32-bit forms, and the page's example without a type */
        " stacksave.u32 stackptr;\n"
        " mov.u32 size, 40;\n"
        " alloca ptr, size, 8;\n"
        " mov.u32 ra, 0x5a5a;\n st.local.u32 [ptr], ra;\n ld.local.u32 %r5, [ptr];\n"
        " alloca.u32 %r6, 4, 256;\n"
        " stackrestore.u32 stackptr;\n"
        " stacksave.u32 %r7;\n"
        " st.global.u64 [%rd1], %rd4;\n st.global.u64 [%rd1+8], %rd5;\n"
        " st.global.u64 [%rd1+16], %rd6;\n st.global.u64 [%rd1+24], %rd7;\n"
        " st.global.u64 [%rd1+32], %rd8;\n st.global.u64 [%rd1+40], %rd9;\n"
        " st.global.u64 [%rd1+48], %rd10;\n st.global.u64 [%rd1+56], %rd11;\n"
        " st.global.u32 [%rd1+64], %r3;\n st.global.u32 [%rd1+68], %r4;\n"
        " st.global.u32 [%rd1+72], stackptr;\n st.global.u32 [%rd1+76], ptr;\n"
        " st.global.u32 [%rd1+80], %r5;\n st.global.u32 [%rd1+84], %r6;\n"
        " st.global.u32 [%rd1+88], %r7;\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 128 * 40);
    t_done(t_go(&t, "k", 1, 40, &out, 8));
    uint64_t o[40][16];
    t_read(&t, out, o, sizeof o);
    for (uint32_t i = 0; i < 40; i++) {
        uint64_t save = o[i][0], p1 = o[i][1], p2 = o[i][2], p3 = o[i][3], p0 = o[i][4];
        uint64_t top = o[i][5];
        uint64_t n1 = i + 1;
        ck_assert_uint_eq(p1 % 8, 0);
        ck_assert_uint_eq(p2 % 64, 0);
        ck_assert_uint_eq(p3 % 8, 0);
        ck_assert_uint_eq(p0 % 8, 0);
        /* live allocations are disjoint */
        uint64_t lo[3] = { p1, p2, p3 }, hi[3] = { p1 + n1, p2 + 24, p3 + 3 };
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++)
                ck_assert(hi[a] <= lo[b] || hi[b] <= lo[a]);
        ck_assert_uint_ne(save, top);              /* allocating moved the stack pointer */
        /* downwards: each block ends at or below the previous stack pointer */
        ck_assert_uint_le(p1 + n1, save);
        ck_assert_uint_le(p2 + 24, p1);
        ck_assert_uint_le(p3 + 3, p2);
        ck_assert_uint_le(p0, p3);
        ck_assert_uint_eq(top, p0);                /* stacksave after alloca p: p */
        ck_assert_uint_lt(save - p1, n1 + 8);      /* no more than the alignment wasted */
        ck_assert_uint_eq((uint32_t)o[i][8], i + 1);       /* %r3 */
        ck_assert_uint_eq((uint32_t)(o[i][8] >> 32), i);   /* %r4: first byte of the alloca */
        ck_assert_uint_eq(o[i][6], save);          /* restored */
        ck_assert_uint_eq(o[i][7], save - 16);     /* the freed space again, right below */
        uint32_t sp32 = (uint32_t)o[i][9], ptr = (uint32_t)(o[i][9] >> 32);
        ck_assert_uint_eq(sp32, (uint32_t)o[i][7]);  /* the stack pointer is the last alloca */
        ck_assert_uint_eq(ptr % 8, 0);
        ck_assert_uint_le(ptr + 40, sp32);
        ck_assert_uint_eq((uint32_t)o[i][10], 0x5a5a);
        uint32_t r6 = (uint32_t)(o[i][10] >> 32);
        ck_assert_uint_eq(r6 % 256, 0);
        ck_assert_uint_le(r6 + 4, ptr);
        ck_assert_uint_eq((uint32_t)o[i][11], sp32);
    }
    t_free(&t);
}
END_TEST

/* Accesses to memory freed by stackrestore (or by returning from the function that allocated
 * it) are reported as out-of-range local accesses below the stack pointer (the stack grows
 * down, so freed memory lies below it). */
static exec_stop stack_fault(const char *body, T *t)
{
    char src[4096];
    snprintf(src, sizeof src, HDR
             ".func (.param .b64 r) f ()\n{\n .reg .b64 %%p;\n alloca.u64 %%p, 64;\n"
             " st.local.u32 [%%p], 1;\n st.param.b64 [r], %%p;\n ret;\n}\n"
             ".visible .entry k(.param .u64 out)\n{\n"
             " .reg .b64 %%rd<10>; .reg .b32 %%r<4>; .reg .pred %%p1;\n"
             " ld.param.u64 %%rd1, [out];\n%s ret;\n}\n", body);
    ck_assert_msg(t_load(t, src) == 0, "%s", t->err);
    uint64_t out = t_buf(t, 64);
    return t_go(t, "k", 1, 1, &out, 8);
}

START_TEST(test_stack_use_after_restore)
{
    T t;
    exec_stop st = stack_fault(" stacksave.u64 %rd2;\n alloca.u64 %rd3, 32;\n"
                               " st.local.u32 [%rd3+8], 5;\n stackrestore.u64 %rd2;\n"
                               " ld.local.u32 %r1, [%rd3+8];\n", &t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_OUT_OF_RANGE);
    ck_assert_int_eq(st.space, PTX_SPACE_LOCAL);
    ck_assert_msg(strstr(st.msg, "below the thread's stack pointer") != NULL, "%s", st.msg);
    t_free(&t);
    /* through a generic address */
    st = stack_fault(" stacksave.u64 %rd2;\n alloca.u64 %rd3, 32;\n cvta.local.u64 %rd4, %rd3;\n"
                     " stackrestore.u64 %rd2;\n st.u32 [%rd4+16], 5;\n", &t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_OUT_OF_RANGE);
    ck_assert_msg(strstr(st.msg, "below the thread's stack pointer") != NULL, "%s", st.msg);
    t_free(&t);
    /* memory of a function that returned */
    st = stack_fault(" {\n .param .b64 pr;\n call (pr), f, ();\n ld.param.b64 %rd3, [pr];\n }\n"
                     " ld.local.u32 %r1, [%rd3];\n", &t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_OUT_OF_RANGE);
    ck_assert_msg(strstr(st.msg, "below the thread's stack pointer") != NULL, "%s", st.msg);
    t_free(&t);
    /* a zero-size allocation gives no usable byte */
    st = stack_fault(" alloca.u64 %rd3, 0;\n st.local.u8 [%rd3], 1;\n", &t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_OUT_OF_RANGE);
    t_free(&t);
    /* restored and allocated again: fine */
    st = stack_fault(" stacksave.u64 %rd2;\n alloca.u64 %rd3, 32;\n stackrestore.u64 %rd2;\n"
                     " alloca.u64 %rd4, 32;\n st.local.u32 [%rd3+28], 5;\n", &t);
    t_done(st);
    t_free(&t);
}
END_TEST

/* alloca in a called function is freed on return; alloca beyond the stack limit is a stack
 * overflow; stackrestore to a value outside the current frame is reported. */
START_TEST(test_stack_frames_and_limits)
{
    T t;
    exec_stop st = stack_fault(" stacksave.u64 %rd2;\n"
                               " {\n .param .b64 pr;\n call (pr), f, ();\n ld.param.b64 %rd3, [pr];\n }\n"
                               " stacksave.u64 %rd4;\n"
                               " setp.ne.u64 %p1, %rd2, %rd4;\n @%p1 trap;\n", &t);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);  /* trap means the stack was not restored */
    t_free(&t);
    st = stack_fault(" alloca.u64 %rd3, 0x10000000;\n", &t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_STACK_OVERFLOW);
    t_free(&t);
    st = stack_fault(" stacksave.u64 %rd2;\n add.u64 %rd2, %rd2, 4096;\n stackrestore.u64 %rd2;\n", &t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_STACK_OVERFLOW);
    t_free(&t);
}
END_TEST

/* Bad forms: alignment not a power of two or above 2^23, wrong types. */
START_TEST(test_stack_bad_forms)
{
    static const char *const bad[] = {
        "alloca.u64 %rd3, 16, 12;", "alloca.u64 %rd3, 16, 16777216;", "alloca.u64 %rd3, 16, 0;",
        "alloca.b32 %r1, 16;", "stacksave.s64 %rd3;", "stackrestore.u16 %h1;",
        "alloca.u64 %rd3, 16, %r1;",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char src[1024];
        snprintf(src, sizeof src, HDR ".visible .entry k()\n{\n"
                 " .reg .b64 %%rd<4>; .reg .b32 %%r<4>; .reg .b16 %%h<2>;\n %s\n ret;\n}\n", bad[i]);
        T t;
        ck_assert_msg(t_load(&t, src) != 0, "accepted %s", bad[i]);
        ck_assert_msg(strstr(t.err, "t.ptx:7:") != NULL, "%s: %s", bad[i], t.err);
        t_free(&t);
    }
    /* the largest alignment is fine */
    T t;
    ck_assert_msg(t_load(&t, HDR ".visible .entry k()\n{\n .reg .b64 %rd<4>;\n"
                              " alloca.u64 %rd3, 16, 8388608;\n ret;\n}\n") == 0, "%s", t.err);
    t_free(&t);
}
END_TEST

/* exec_frame_local_base: the depot of each activation, as the function's own code sees it
 * (its %SPL), in every frame of a recursion; unknown depots and frames are errors. */
START_TEST(test_frame_local_base)
{
    T t;
    const char *src = HDR
        ".func (.param .b32 r) f (.param .b32 n)\n{\n"
        " .local .align 8 .b8 __local_depot1[24];\n"
        " .reg .b64 %SPL; .reg .b32 %n, %m, %v; .reg .pred %p;\n"
        " mov.u64 %SPL, __local_depot1;\n"
        " ld.param.u32 %n, [n];\n st.local.u32 [%SPL+4], %n;\n"
        " setp.eq.u32 %p, %n, 0;\n @%p brkpt;\n @%p bra Done;\n"
        " sub.u32 %m, %n, 1;\n"
        " {\n .param .b32 pn; .param .b32 pr;\n st.param.b32 [pn], %m;\n"
        "  call (pr), f, (pn);\n ld.param.b32 %v, [pr];\n }\n"
        "Done:\n st.param.b32 [r], %n;\n ret;\n}\n"
        ".visible .entry k()\n{\n"
        " .local .align 16 .b8 __local_depot0[32];\n"
        " .reg .b64 %SPL; .reg .b32 %r1;\n"
        " mov.u64 %SPL, __local_depot0;\n"
        " {\n .param .b32 pn; .param .b32 pr;\n st.param.b32 [pn], 2;\n"
        "  call (pr), f, (pn);\n ld.param.b32 %r1, [pr];\n }\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    exec_stop st = t_go(&t, "k", 1, 1, NULL, 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_BRKPT);
    uint64_t prev = 0;
    for (int fr = 0; fr < 4; fr++) {
        uint64_t a, spl;
        ptx_type ty;
        const char *depot = fr < 3 ? "__local_depot1" : "__local_depot0";
        ck_assert_msg(exec_frame_local_base(t.m, 0, 0, 0, fr, depot, &a) == 0, "frame %d: %s", fr,
                      exec_errmsg(t.m));
        ck_assert_int_eq(exec_reg_get(t.m, 0, 0, 0, fr, "%SPL", &spl, &ty), 0);
        ck_assert_uint_eq(a, spl);
        if (fr)
            ck_assert_uint_gt(a, prev);     /* callers lie above their callees */
        prev = a;
        if (fr < 3) {
            uint32_t n;
            ck_assert_int_eq(exec_mem_read(t.m, PTX_SPACE_LOCAL, a + 4, &n, 4, 0, 0, 0), 0);
            ck_assert_uint_eq(n, (uint32_t)fr);   /* frame k holds n = k */
        }
    }
    uint64_t a;
    ck_assert_int_ne(exec_frame_local_base(t.m, 0, 0, 0, 0, "__local_depot0", &a), 0);
    ck_assert_int_ne(exec_frame_local_base(t.m, 0, 0, 0, 4, "__local_depot0", &a), 0);
    t_free(&t);
}
END_TEST

static Suite *ptx9_suite(void)
{
    Suite *s = suite_create("ptx9");
    TCase *tc = tcase_create("st");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_st_valid_forms);
    tcase_add_test(tc, test_st_invalid_forms);
    tcase_add_test(tc, test_st_page_examples);
    tcase_add_test(tc, test_st_restrictions);
    tcase_add_test(tc, test_ld_qualifiers);
    tcase_add_test(tc, test_st_param_func_and_wide_sources);
    suite_add_tcase(s, tc);
    tc = tcase_create("param");
    tcase_add_test(tc, test_param_ptr_attributes);
    tcase_add_test(tc, test_param_kernel_addresses);
    tcase_add_test(tc, test_param_func_struct_and_address);
    tcase_add_test(tc, test_param_address_recursion);
    tcase_add_test(tc, test_param_restrictions);
    suite_add_tcase(s, tc);
    tc = tcase_create("stack");
    tcase_add_test(tc, test_stack_alloca_basics);
    tcase_add_test(tc, test_stack_use_after_restore);
    tcase_add_test(tc, test_stack_frames_and_limits);
    tcase_add_test(tc, test_stack_bad_forms);
    tcase_add_test(tc, test_frame_local_base);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(ptx9_suite());
}
