/* test_alu_half.c - f16/bf16 arithmetic and conversions (all 65536 f16 encodings) against _Float16 and grid-scan references. */
#include <math.h>
#include <fenv.h>
#include "alu_stub.h"

static uint16_t h16(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static _Float16 f16of(uint16_t u) { _Float16 h; memcpy(&h, &u, 2); return h; }
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

START_TEST(t_f16_to_f32_exhaustive)
{
    for (uint32_t base = 0; base < 65536; base += 32) {
        for (int i = 0; i < 32; i++) R16(1)[i] = (uint16_t)(base + (uint32_t)i);
        RUN("cvt.f32.f16", EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) {
            float want = (float)f16of(R16(1)[i]);
            ck_assert_uint_eq(fb(RF(0)[i]), want != want ? 0x7fffffffu : fb(want));
        }
        /* and back: f16 -> f32 -> f16 is the identity (NaN canonical) */
        RUN("cvt.rn.f16.f32", EXEC_FULL, 2, 0);
        for (int i = 0; i < 32; i++) {
            uint16_t h = R16(1)[i];
            int nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
            ck_assert_uint_eq(R16(2)[i], nan ? 0x7fff : h);
        }
    }
}
END_TEST

START_TEST(t_f32_to_f16_modes)
{
    /* reference: the two f16 neighbours found by scanning the sorted f16 grid */
    for (int round = 0; round < 300; round++) {
        for (int i = 0; i < 32; i++) {
            uint32_t u = (uint32_t)(rnd64() >> 32);
            u = (u & 0x807fffffu) | (uint32_t)(100 + (rnd64() >> 40) % 50) << 23;
            memcpy(&RF(1)[i], &u, 4);
        }
        static const char *m[4] = { "cvt.rn.f16.f32", "cvt.rz.f16.f32", "cvt.rm.f16.f32", "cvt.rp.f16.f32" };
        for (int k = 0; k < 4; k++) {
            RUN(m[k], EXEC_FULL, 0, 1);
            for (int i = 0; i < 32; i++) {
                double x = RF(1)[i], ax = fabs(x);
                uint16_t lo = 0;   /* largest magnitude encoding <= |x| */
                for (uint16_t e = 0; e < 0x7c00; e++) if ((double)(float)f16of(e) <= ax) lo = e; else break;
                uint16_t hi = lo + 1; /* 0x7c00 = inf */
                double vlo = (float)f16of(lo), vhi = (float)f16of(hi);
                uint16_t want;
                if (vlo == ax) want = lo;
                else if (k == 0) { double dl = ax - vlo, dh = vhi - ax; want = dl < dh ? lo : dh < dl ? hi : (lo & 1 ? hi : lo);
                                   if (lo == 0x7bff && ax >= 65520.0) want = 0x7c00; }
                else if (k == 1) want = lo;
                else if ((k == 2) == (x < 0)) want = hi; else want = lo;
                if (x < 0) want |= 0x8000;
                ck_assert_msg(R16(0)[i] == want, "%s %a got %04x want %04x", m[k], x, R16(0)[i], want);
            }
        }
    }
}
END_TEST

START_TEST(t_f16_arith)
{
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) { R16(1)[i] = (uint16_t)rnd64(); R16(2)[i] = (uint16_t)rnd64(); R16(3)[i] = (uint16_t)rnd64(); }
        RUN("add.f16", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) { _Float16 r = f16of(R16(1)[i]) + f16of(R16(2)[i]); ck_assert_uint_eq(R16(0)[i], r != r ? 0x7fff : h16(r)); }
        RUN("mul.f16", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) { _Float16 r = f16of(R16(1)[i]) * f16of(R16(2)[i]); ck_assert_uint_eq(R16(0)[i], r != r ? 0x7fff : h16(r)); }
        RUN("fma.rn.f16", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            /* exact in long double (products of f16 fit in 64 bits of mantissa), then RN via fmaf on the exact float parts */
            float a = (float)f16of(R16(1)[i]), b = (float)f16of(R16(2)[i]), c = (float)f16of(R16(3)[i]);
            long double ex = (long double)a * b + c;
            _Float16 r = (_Float16)ex;   /* gcc converts long double -> _Float16 in one rounding */
            uint16_t want = r != r ? 0x7fff : h16(r);
            if (!isnan((double)ex) && ex != 0 && (double)ex == (double)(float)ex) ck_assert_uint_eq(R16(0)[i], want);
        }
        RUN("add.f16x2", EXEC_FULL, 4, 5, 6);
    }
    /* .relu and min/max of f16x2 */
    for (int i = 0; i < 32; i++) { R32(5)[i] = 0xbc003c00u; R32(6)[i] = 0x7e003800u; }
    RUN("max.f16x2", EXEC_FULL, 4, 5, 6);
    ck_assert_uint_eq(R32(4)[0], 0xbc003c00u);
    RUN("min.NaN.f16x2", EXEC_FULL, 4, 5, 6);
    ck_assert_uint_eq(R32(4)[0], 0x7fff3800u);
    RUN("fma.rn.relu.f16x2", EXEC_FULL, 4, 5, 5, 5);  /* hi: -1*-1-1 = 0, lo: 1+1 = 2 */
    ck_assert_uint_eq(R32(4)[0], 0x00004000u);
}
END_TEST

START_TEST(t_cvt_int)
{
    float v[] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2147483648.0f, -3e9f, NAN, INFINITY, -INFINITY, 1e-40f, -1e-40f, 4294967040.0f, 1e20f, -0.0f };
    for (int i = 0; i < 32; i++) RF(1)[i] = v[i % 16];
    static const char *m[4] = { "cvt.rni.s32.f32", "cvt.rzi.s32.f32", "cvt.rmi.s32.f32", "cvt.rpi.s32.f32" };
    for (int k = 0; k < 4; k++) {
        RUN(m[k], EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) {
            double x = RF(1)[i], r = k == 0 ? nearbyint(x) : k == 1 ? trunc(x) : k == 2 ? floor(x) : ceil(x);
            int32_t want = isnan(r) ? 0 : r >= 2147483647.0 ? INT32_MAX : r <= -2147483648.0 ? INT32_MIN : (int32_t)r;
            ck_assert_int_eq((int32_t)R32(0)[i], want);
        }
    }
    RUN("cvt.rmi.ftz.u32.f32", EXEC_FULL, 0, 1);
    ck_assert_uint_eq(R32(0)[12], 0);        /* -1e-40 flushed: floor(-0) = 0 */
    ck_assert_uint_eq(R32(0)[13], 4294967040u);
    ck_assert_uint_eq(R32(0)[14], 0xffffffffu);
    RUN("cvt.rmi.s32.f32", EXEC_FULL, 0, 1);
    ck_assert_int_eq((int32_t)R32(0)[12], -1);
    /* integer -> f32 in every mode against the host conversion in that mode */
    static const char *im[4] = { "cvt.rn.f32.s64", "cvt.rz.f32.s64", "cvt.rm.f32.s64", "cvt.rp.f32.s64" };
    static const int fe[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    for (int round = 0; round < 100; round++) {
        for (int i = 0; i < 32; i++) R64(2)[i] = rnd64() >> (rnd64() % 64);
        for (int k = 0; k < 4; k++) {
            RUN(im[k], EXEC_FULL, 0, 2);
            for (int i = 0; i < 32; i++) {
                volatile int64_t x = (int64_t)R64(2)[i];
                volatile float r;
                fesetround(fe[k]); r = (float)x; fesetround(FE_TONEAREST);
                ck_assert_uint_eq(fb(RF(0)[i]), fb(r));
            }
        }
    }
    /* int -> int saturation */
    for (int i = 0; i < 32; i++) R32(1)[i] = (uint32_t)(i * 37 - 600);
    RUN("cvt.sat.u8.s32", EXEC_FULL, 0, 1);
    for (int i = 0; i < 32; i++) { int v2 = i * 37 - 600; ck_assert_uint_eq(R8(0)[i], v2 < 0 ? 0 : v2 > 255 ? 255 : v2); }
    RUN("cvt.s16.s32", EXEC_FULL, 0, 1);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R16(0)[i], (uint16_t)(i * 37 - 600));
    /* pack forms */
    for (int i = 0; i < 32; i++) { RF(1)[i] = 1.0f; RF(2)[i] = -2.0f; }
    RUN("cvt.rn.f16x2.f32", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R32(0)[0], 0x3c00c000u);
    RUN("cvt.rn.bf16x2.f32", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R32(0)[0], 0x3f80c000u);
    for (int i = 0; i < 32; i++) { RF(1)[i] = 1000.0f; RF(2)[i] = 0.5f; }
    RUN("cvt.rn.satfinite.e4m3x2.f32", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R16(0)[0], 0x7e30);   /* 448 (saturated) | 0.5 */
    RUN("cvt.rn.f16x2.e4m3x2", EXEC_FULL, 3, 0);
    ck_assert_uint_eq(R32(3)[0], 0x5f003800u); /* 448.0h | 0.5h */
    for (int i = 0; i < 32; i++) RF(1)[i] = 1.00048828125f; /* 1 + 2^-11: tf32 tie */
    RUN("cvt.rna.tf32.f32", EXEC_FULL, 0, 1);
    ck_assert_uint_eq(R32(0)[0], 0x3f802000u);
    DECODE_FAILS("cvt.rn.s32.f32", 0, 1);
    DECODE_FAILS("cvt.rzi.f32.s32", 0, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alu_half");
    TCase *tc = tcase_create("half");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_f16_to_f32_exhaustive);
    tcase_add_test(tc, t_f32_to_f16_modes);
    tcase_add_test(tc, t_f16_arith);
    tcase_add_test(tc, t_cvt_int);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
