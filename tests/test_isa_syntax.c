/* test_isa_syntax.c - end-to-end ISA forms: vector registers, mov pack/unpack and .v2/.v4, cvt.pack.sat, register + constant, WARP_SZ, set with 16-bit results, szext, .f32x2, three-input min/max; C references. */
#include <fenv.h>
#include "isa_harness.h"

/* Run case k on n generated input vectors of types `gen` (seeded) against ref. */
static void table(const isa_case *k, const char *gen, int n, uint64_t seed, isa_ref_fn ref)
{
    uint64_t *in = isa_inputs(gen, n, seed);
    isa_check(k, n, in, ref, NULL);
    free(in);
}

/* ---- vector registers (PTX ISA "Vectors"): declared .v2/.v4, elements .x-.w/.r-.a, whole ---- */
static void ref_vec(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    uint32_t a[4] = { (uint32_t)in[0], (uint32_t)in[1], (uint32_t)in[2], (uint32_t)in[3] };
    uint32_t q[4] = { a[0], a[1], a[2], a[3] };
    uint32_t v[2] = { q[3], q[0] };                   /* mov.v2.u32 v, {q.w, q.x} */
    o[0] = (uint32_t)(v[0] + v[1]);
    uint32_t r[4] = { q[1], q[2], q[3], q[0] };       /* rotation through the same register */
    o[1] = r[0];                                      /* q.r */
    o[2] = r[3];                                      /* q.a */
    o[3] = (uint64_t)v[1] << 32 | v[0];               /* mov.b64 d, v: v.x in the low half */
    uint64_t x = in[4];
    o[4] = x >> 32;                                   /* mov.b64 v, x; v.y */
    o[5] = r[2] ^ r[3];                               /* st.local.v4 / ld.local.v2 [+8] */
    o[6] = (uint32_t)(x + 1);                         /* add.u32 v.x, v.x, 1 */
}

static void ref_vec2(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    float r = isa_f(in[0]) + isa_f(in[1]);
    o[0] = r != r ? 0x7fffffffu : isa_fu(r);   /* add.f32 NaN results are canonical */
    o[1] = (in[3] & 0xffff) << 16 | (in[2] & 0xffff);
}

START_TEST(vector_registers)
{
    isa_case k = {
        "\tmov.v4.u32 q, {%a0, %a1, %a2, %a3};\n"
        "\tmov.v2.u32 v, {q.w, q.x};\n"
        "\tadd.u32 %d0, v.x, v.y;\n"
        "\tmov.v4.u32 q, {q.y, q.z, q.w, q.x};\n"
        "\tmov.u32 %d1, q.r;\n\tmov.u32 %d2, q.a;\n"
        "\tmov.b64 %d3, v;\n"
        "\tmov.b64 v, %a4;\n\tmov.u32 %d4, v.y;\n"
        "\tst.local.v4.u32 [lbuf], q;\n\tld.local.v2.u32 v2, [lbuf+8];\n"
        "\txor.b32 %d5, v2.x, v2.y;\n"
        "\tmov.b64 v, %a4;\n\tadd.u32 v.x, v.x, 1;\n\tmov.u32 %d6, v.r;",
        "u32 u32 u32 u32 u64", "u32 u32 u32 u64 u32 u32 u32",
        ".reg .v4 .u32 q; .reg .v2 .u32 v, v2; .local .align 16 .b8 lbuf[16];"
    };
    table(&k, "u32 u32 u32 u32 u64", 150, 11, ref_vec);
    /* f32 and u16 vectors: elements as float operands, a u16 vector packed by mov.b32 */
    isa_case k2 = {
        "\tmov.v4.f32 f, {%a0, %a1, %a0, %a1};\n\tadd.f32 f.z, f.x, f.y;\n"
        "\tmov.f32 %d0, f.b;\n\tmov.v2.u16 h, {%a2, %a3};\n\tmov.b32 %d1, h;",
        "f32 f32 u16 u16", "f32 u32", ".reg .v4 .f32 f; .reg .v2 .u16 h;"
    };
    table(&k2, "f32 f32 u16 u16", 100, 12, ref_vec2);
}
END_TEST

/* ---- mov pack/unpack between a register and a vector of narrower ones, with `_` ---------- */
static void ref_pack(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    uint64_t h0 = in[0] & 0xffff, h1 = in[1] & 0xffff, x = in[2];
    o[0] = h1 << 16 | h0;                             /* mov.b32 d, {h0, h1} */
    o[1] = x >> 32;                                   /* mov.b64 {lo, hi}, x -> hi */
    o[2] = (x >> 32) & 0xffff;                        /* mov.b64 {e0, e1, e2, e3}, x -> e2 */
    o[3] = 0xdead0000u | h0;                          /* mov.b32 d, {h0, _}: d's high half kept */
    o[4] = h1 << 48 | h0 << 32 | h1 << 16 | h0;       /* mov.b64 d, {h0, h1, h0, h1} */
    o[5] = x & 0xffffffffu;                           /* mov.b64 {lo, _}, x */
    o[6] = (x >> 56) ^ (x & 0xff);                    /* mov.b32 {c0..c3}, lo / {c4..c7}, hi */
    o[7] = (x & 0xffffffffu) << 32 | x >> 32;       /* mov.b64 d, {hi, lo}: halves swapped */
}

START_TEST(mov_pack_unpack)
{
    isa_case k = {
        "\tmov.b32 %d0, {%a0, %a1};\n"
        "\tmov.b64 {lo, hi}, %a2;\n\tmov.b32 %d1, hi;\n"
        "\tmov.b64 {e0, e1, e2, e3}, %a2;\n\tmov.b16 %d2, e2;\n"
        "\tmov.u32 %d3, 0xdeadbeef;\n\tmov.b32 %d3, {%a0, _};\n"
        "\tmov.b64 %d4, {%a0, %a1, %a0, %a1};\n"
        "\tmov.b64 {lo, _}, %a2;\n\tmov.b32 %d5, lo;\n"
        "\tmov.b32 {c0, c1, c2, c3}, lo;\n\tmov.b32 {c4, c5, c6, c7}, hi;\n"
        "\tcvt.u32.u8 t0, c7;\n\tcvt.u32.u8 t1, c0;\n\txor.b32 %d6, t0, t1;\n"
        "\tmov.b64 {lo, hi}, %a2;\n\tmov.b64 %d7, {hi, lo};",
        "b16 b16 b64", "b32 b32 b16 b32 b64 b32 b32 b64",
        ".reg .b32 lo, hi, t0, t1; .reg .b16 e0, e1, e2, e3; .reg .b8 c0, c1, c2, c3, c4, c5, c6, c7;"
    };
    table(&k, "b16 b16 b64", 150, 21, ref_pack);
}
END_TEST

/* ---- cvt.pack.sat (PTX ISA 6.5): clamp a and b to the N-bit type, d = c:a:b ------------------ */
static uint32_t c_pack(int32_t a, int32_t b, uint32_t c, int n, int sgn, int withc)
{
    int64_t lo = sgn ? -((int64_t)1 << (n - 1)) : 0, hi = sgn ? ((int64_t)1 << (n - 1)) - 1 : ((int64_t)1 << n) - 1;
    int64_t ta = a < lo ? lo : a > hi ? hi : a, tb = b < lo ? lo : b > hi ? hi : b;
    uint64_t mask = ((uint64_t)1 << n) - 1;
    uint64_t d = ((uint64_t)ta & mask) << n | ((uint64_t)tb & mask);
    if (withc)
        d |= (uint64_t)c << (2 * n);
    return (uint32_t)d;
}

static void ref_cvtpack(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    int32_t a = (int32_t)in[0], b = (int32_t)in[1], a2 = (int32_t)in[3], b2 = (int32_t)in[4];
    uint32_t c = (uint32_t)in[2];
    o[0] = c_pack(a, b, 0, 16, 0, 0);
    o[1] = c_pack(a, b, 0, 16, 1, 0);
    o[2] = c_pack(a, b, c, 8, 0, 1);
    o[3] = c_pack(a, b, c, 8, 1, 1);
    o[4] = c_pack(a, b, c, 4, 0, 1);
    o[5] = c_pack(a, b, c, 4, 1, 1);
    o[6] = c_pack(a, b, c, 2, 0, 1) ^ c_pack(a, b, c, 2, 1, 1);
    /* two packs chained through c: four bytes a2, b2, a, b from the top */
    o[7] = c_pack(a, b, c_pack(a2, b2, 0, 8, 0, 1), 8, 0, 1);
}

START_TEST(cvt_pack_sat)
{
    isa_case k = {
        "\tcvt.pack.sat.u16.s32 %d0, %a0, %a1;\n"
        "\tcvt.pack.sat.s16.s32 %d1, %a0, %a1;\n"
        "\tcvt.pack.sat.u8.s32.b32 %d2, %a0, %a1, %a2;\n"
        "\tcvt.pack.sat.s8.s32.b32 %d3, %a0, %a1, %a2;\n"
        "\tcvt.pack.sat.u4.s32.b32 %d4, %a0, %a1, %a2;\n"
        "\tcvt.pack.sat.s4.s32.b32 %d5, %a0, %a1, %a2;\n"
        "\tcvt.pack.sat.u2.s32.b32 t, %a0, %a1, %a2;\n"
        "\tcvt.pack.sat.s2.s32.b32 %d6, %a0, %a1, %a2;\n\txor.b32 %d6, %d6, t;\n"
        "\tcvt.pack.sat.u8.s32.b32 t, %a3, %a4, 0;\n"
        "\tcvt.pack.sat.u8.s32.b32 %d7, %a0, %a1, t;",
        "s32 s32 b32 s32 s32", "b32 b32 b32 b32 b32 b32 b32 b32", ".reg .b32 t;"
    };
    table(&k, "s32 s32 b32 s32 s32", 300, 31, ref_cvtpack);
}
END_TEST

/* ---- register + constant sources (no brackets), as ptxas accepts them -------------------- */
static void ref_regadd(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    uint64_t x = in[0];
    uint32_t r = (uint32_t)in[1];
    uint16_t h = (uint16_t)in[2];
    o[0] = x + 1;
    o[1] = (uint32_t)(r + 0x10 + 3);
    o[2] = (uint16_t)(h + 65535);
    o[3] = x - 5;
    o[4] = (uint32_t)(r + 7);
    o[5] = (uint32_t)(r + 1) == 0;
    o[6] = (uint32_t)(x + 2);                        /* st.u32 of a 64-bit register + 2 */
    o[7] = (uint32_t)(r + 64);                       /* r + WARP_SZ * 2 */
}

START_TEST(register_plus_constant)
{
    isa_case k = {
        "\tmov.u64 %d0, %a0 + 1;\n"
        "\tadd.u32 %d1, %a1 + 0x10, 3;\n"
        "\tmov.u16 %d2, %a2 + 65535;\n"
        "\tmov.u64 %d3, %a0 + -5;\n"
        "\tst.local.u32 [lw], %a1 + 7;\n\tld.local.u32 %d4, [lw];\n"
        "\tsetp.eq.u32 %d5, %a1+1, 0;\n"
        "\tst.local.u32 [lw], %a0 + 2;\n\tld.local.u32 %d6, [lw];\n"
        "\tmov.u32 %d7, %a1 + WARP_SZ * 2;",
        "u64 u32 u16", "u64 u32 u16 u64 u32 pred u32 u32", ".local .b32 lw;"
    };
    table(&k, "u64 u32 u16", 200, 41, ref_regadd);
}
END_TEST

/* ---- WARP_SZ: the predefined identifier (nvcc emits it for warpSize) ---------------------- */
static void ref_warpsz(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    uint32_t a = (uint32_t)in[0];
    o[0] = 32;
    o[1] = a + 32;
    o[2] = 63;
    o[3] = (uint32_t)-32;
    o[4] = a % 32;
    o[5] = 32;
}

START_TEST(warp_sz)
{
    isa_case k = {
        "\tmov.u32 %d0, WARP_SZ;\n\tadd.u32 %d1, %a0, WARP_SZ;\n"
        "\tmov.u32 %d2, WARP_SZ*2-1;\n\tmov.u32 %d3, -WARP_SZ;\n"
        "\trem.u32 %d4, %a0, WARP_SZ;\n\tmov.u64 %d5, WARP_SZ;",
        "u32", "u32 u32 u32 u32 u32 u64", NULL
    };
    table(&k, "u32", 100, 51, ref_warpsz);
}
END_TEST

/* ---- set with 16-bit results (half-precision comparison instructions) -------------------- */
static double h2d(uint64_t b)
{
    uint16_t u = (uint16_t)b;
    _Float16 h;
    memcpy(&h, &u, 2);
    return (double)h;
}

static void ref_set16(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    double a = h2d(in[0]), b = h2d(in[1]);
    double ba = isa_f((in[2] & 0xffff) << 16), bb = isa_f((in[3] & 0xffff) << 16);
    float fa = isa_f(in[4]), fb = isa_f(in[5]);
    int c = (int)(in[6] & 1);
    o[0] = a < b ? 0x3c00 : 0;                          /* set.lt.f16.f16 */
    o[1] = a >= b ? 0xffff : 0;                         /* set.ge.u16.f16 */
    o[2] = (ba < bb && c) ? 0x3f80 : 0;                 /* set.lt.and.bf16.bf16 */
    o[3] = !(fa >= fb) ? 0x3c00 : 0;                    /* set.ltu.f16.f32 */
    o[4] = (a != b || a != a || b != b) ? 0xffff : 0;   /* set.neu.s16.f16 */
    o[5] = (uint32_t)in[7] < 7 ? 0x3f80 : 0;            /* set.lt.bf16.u32 */
}

START_TEST(set_half_results)
{
    isa_case k = {
        "\tset.lt.f16.f16 %d0, %a0, %a1;\n"
        "\tset.ge.u16.f16 %d1, %a0, %a1;\n"
        "\tset.lt.and.bf16.bf16 %d2, %a2, %a3, %a6;\n"
        "\tset.ltu.f16.f32 %d3, %a4, %a5;\n"
        "\tset.neu.s16.f16 %d4, %a0, %a1;\n"
        "\tset.lt.bf16.u32 %d5, %a7, 7;",
        "f16 f16 b16 b16 f32 f32 pred u32", "b16 u16 b16 b16 s16 b16", NULL
    };
    uint64_t *in = isa_inputs("f16 f16 bf16 bf16 f32 f32 pred u32", 300, 61);
    for (int i = 0; i < 300; i += 4)      /* equal operands too */
        in[i * 8 + 1] = in[i * 8], in[i * 8 + 3] = in[i * 8 + 2], in[i * 8 + 5] = in[i * 8 + 4];
    isa_check(&k, 300, in, ref_set16, NULL);
    free(in);
}
END_TEST

/* ---- szext (PTX ISA 7.6): the low N bits of a, sign- or zero-extended ---------------------- */
static uint32_t c_szext(uint32_t a, uint32_t b, int clamp, int sgn)
{
    uint32_t n = clamp ? (b >= 32 ? 32 : b) : b % 32;
    if (n == 0)
        return 0;
    if (n == 32)
        return a;
    uint32_t low = a & ((1u << n) - 1);
    return sgn && (a >> (n - 1) & 1) ? low | ~((1u << n) - 1) : low;
}

static void ref_szext(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1], sb = (uint32_t)in[2] % 70;
    o[0] = c_szext(a, b, 1, 1);
    o[1] = c_szext(a, b, 0, 1);
    o[2] = c_szext(a, sb, 1, 0);
    o[3] = c_szext(a, sb, 0, 0);
    o[4] = c_szext(a, sb, 1, 1);
    o[5] = c_szext(a, sb, 0, 1);
}

START_TEST(szext_forms)
{
    isa_case k = {
        "\tszext.clamp.s32 %d0, %a0, %a1;\n\tszext.wrap.s32 %d1, %a0, %a1;\n"
        "\trem.u32 t, %a2, 70;\n"
        "\tszext.clamp.u32 %d2, %a0, t;\n\tszext.wrap.u32 %d3, %a0, t;\n"
        "\tszext.clamp.s32 %d4, %a0, t;\n\tszext.wrap.s32 %d5, %a0, t;",
        "u32 u32 u32", "u32 u32 u32 u32 s32 s32", ".reg .u32 t;"
    };
    table(&k, "u32 u32 u32", 400, 71, ref_szext);
}
END_TEST

/* ---- .f32x2 arithmetic (sm_100): two f32 per .b64, element 0 in the low half ------------- */
static float ftzf(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }

static uint64_t x2(const uint64_t *in, int op, int mode, int ftz)
{
    static const int fe[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    uint64_t r = 0;
    for (int e = 0; e < 2; e++) {
        volatile float a = isa_f((in[0] >> (32 * e)) & 0xffffffffu);
        volatile float b = isa_f((in[1] >> (32 * e)) & 0xffffffffu);
        volatile float c = isa_f((in[2] >> (32 * e)) & 0xffffffffu);
        if (ftz) {
            a = ftzf(a);
            b = ftzf(b);
            c = ftzf(c);
        }
        fesetround(fe[mode]);
        volatile float v = op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : fmaf(a, b, c);
        fesetround(FE_TONEAREST);
        float f = ftz ? ftzf(v) : v;
        r |= (uint64_t)(f != f ? 0x7fffffffu : isa_fu(f)) << (32 * e);
    }
    return r;
}

static void ref_f32x2(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    o[0] = x2(in, 0, 0, 0);   /* add.f32x2 */
    o[1] = x2(in, 1, 2, 0);   /* sub.rm.f32x2 */
    o[2] = x2(in, 2, 3, 1);   /* mul.rp.ftz.f32x2 */
    o[3] = x2(in, 3, 1, 0);   /* fma.rz.f32x2 */
    o[4] = x2(in, 3, 0, 1);   /* fma.rn.ftz.f32x2 */
}

START_TEST(f32x2_arith)
{
    isa_case k = {
        "\tadd.f32x2 %d0, %a0, %a1;\n\tsub.rm.f32x2 %d1, %a0, %a1;\n"
        "\tmul.rp.ftz.f32x2 %d2, %a0, %a1;\n\tfma.rz.f32x2 %d3, %a0, %a1, %a2;\n"
        "\tfma.rn.ftz.f32x2 %d4, %a0, %a1, %a2;",
        "b64 b64 b64", "b64 b64 b64 b64 b64", NULL
    };
    enum { N = 400 };
    uint64_t *in = isa_inputs("f32 f32 f32 f32 f32 f32", N, 81), *pk = calloc(3 * N, 8);
    for (int i = 0; i < N; i++)   /* pairs of generated f32 values */
        for (int k2 = 0; k2 < 3; k2++)
            pk[3 * i + k2] = in[6 * i + 2 * k2] | in[6 * i + 2 * k2 + 1] << 32;
    isa_check(&k, N, pk, ref_f32x2, NULL);
    free(in);
    free(pk);
}
END_TEST

/* ---- three-input min/max.f32 (PTX 8.8): the two-input rules applied twice (a NaN loses to a
 * number, two NaNs or .NaN with any NaN give the canonical NaN, -0 < +0, .ftz flushes) ---- */
static float mm(float a, float b, int max, int nan, int ftz)
{
    if (ftz) {
        a = ftzf(a);
        b = ftzf(b);
    }
    if (a != a || b != b) {
        if ((a != a && b != b) || nan)
            return isa_f(0x7fffffffu);
        return a != a ? b : a;
    }
    if (a == b)   /* only ±0 differ: min prefers -0, max +0 */
        return max ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
    return (a < b) != max ? a : b;
}

static void ref_minmax3(const uint64_t *in, uint64_t *o, const void *ctx)
{
    (void)ctx;
    float a = isa_f(in[0]), b = isa_f(in[1]), c = isa_f(in[2]);
    float r[4] = { mm(mm(a, b, 0, 0, 0), c, 0, 0, 0), mm(mm(a, b, 1, 0, 0), c, 1, 0, 0),
                   mm(mm(a, b, 0, 1, 0), c, 0, 1, 0), mm(mm(a, b, 1, 0, 1), c, 1, 0, 1) };
    for (int k = 0; k < 4; k++)
        o[k] = r[k] != r[k] ? 0x7fffffffu : isa_fu(r[k]);
}

START_TEST(minmax3_f32)
{
    isa_case k = {
        "\tmin.f32 %d0, %a0, %a1, %a2;\n\tmax.f32 %d1, %a0, %a1, %a2;\n"
        "\tmin.NaN.f32 %d2, %a0, %a1, %a2;\n\tmax.ftz.f32 %d3, %a0, %a1, %a2;",
        "f32 f32 f32", "f32 f32 f32 f32", NULL
    };
    table(&k, "f32 f32 f32", 400, 91, ref_minmax3);
}
END_TEST

/* ---- forms that must be refused at load, each with its own message ----------------------- */
static void refused(const char *decl, const char *code, const char *want)
{
    isa_case k = { code, "u32", "u32", decl };
    isa_types ti, to;
    isa_parse_types(k.in, &ti);
    isa_parse_types(k.out, &to);
    char *src = isa_kernel(&k, &ti, &to), err[1024] = "";
    ptx_error pe;
    ptx_module *mod = ptx_parse(src, strlen(src), "isa.ptx", &pe);
    exec_machine *m = mod ? exec_new(mod, err, sizeof err) : NULL;
    const char *msg = mod ? err : pe.msg;
    ck_assert_msg(!m, "[%s] loaded", code);
    ck_assert_msg(strstr(msg, want), "[%s]: '%s' lacks '%s'", code, msg, want);
    if (mod)
        ptx_module_free(mod);
    free(src);
}

START_TEST(refused_forms)
{
    const char *vd = ".reg .v2 .u32 v; .reg .v4 .u32 q; .reg .f32 f;";
    refused(vd, "\tadd.u32 %d0, v, 1;", "unexpected operand kind");
    refused(vd, "\tmov.v4.u32 q, v;", "needs vectors of 4 elements");
    refused(vd, "\tmov.v2.u32 v, {%a0, _};", "cannot be '_'");
    refused(vd, "\tmov.f32 f, f + 1;", "integer or bit");
    refused(vd, "\tmov.u32 %d0 + 1, %a0;", "destination cannot be");
    refused(vd, "\tcvt.pack.sat.u8.s32 %d0, %a0, %a0;", "needs .b32 and an operand c");
    refused(vd, "\tcvt.pack.sat.u16.s32.b32 %d0, %a0, %a0, %a0;", "take no .b32");
    refused(vd, "\tcvt.pack.u16.s32 %d0, %a0, %a0;", "requires .sat");
    refused(vd, "\tcvt.pack.sat.u16.u32 %d0, %a0, %a0;", "unsupported modifier .u32");
    refused(vd, "\tcvt.pack.sat.u8.s32.b32 %d0, %a0, %a0;", "expected 4 operands");
    refused(vd, "\tmov.u32 %d0, WARP_SZ + v;", "expected a constant expression");
    refused(vd, "\tmov.b32 %d0, v;", "vector register v (.v2 .u32) is 64 bits, .b32 needs 32");
    refused(vd, "\tmov.u32 %d0, %tid;", "'%tid' needs a component");
    refused(vd, "\tszext.s32 %d0, %a0, 3;", "requires one of .wrap/.clamp");
    refused(vd, "\twgmma.fence.sync.aligned;", "wgmma.fence.sync.aligned: not supported: warpgroup");
    refused(".shared .align 128 .b8 tm[128]; .reg .b64 g;",
            "\ttensormap.replace.tile.global_address.shared::cta.b1024.b64 [tm], g;",
            "not supported: modify or copy a tensor-map object");
    refused(".shared .align 16 .b8 cc[16]; .shared .align 8 .b64 mb;",
            "\tclusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [cc], [mb];",
            "not supported: cancel a not-yet-launched cluster");
    refused(".reg .u16 u;", "\tset.lt.u16.f32 u, 0f00000000, 0f00000000;", "need an .f16 or .bf16 source");
    refused(vd, "\tmov.u32 %d0, %laneid.x;", "'%laneid' has no components");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("isa_syntax");
    TCase *tc = tcase_create("forms");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, vector_registers);
    tcase_add_test(tc, mov_pack_unpack);
    tcase_add_test(tc, cvt_pack_sat);
    tcase_add_test(tc, register_plus_constant);
    tcase_add_test(tc, warp_sz);
    tcase_add_test(tc, set_half_results);
    tcase_add_test(tc, szext_forms);
    tcase_add_test(tc, f32x2_arith);
    tcase_add_test(tc, minmax3_f32);
    tcase_add_test(tc, refused_forms);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
