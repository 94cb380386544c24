/* test_alu_int.c - integer ALU handlers (add..madc, div/rem, bit fields, dp4a) against scalar references. */
#include <math.h>
#include <fenv.h>
#include "alu_stub.h"

/* ---- references: straightforward scalar transcriptions of the spec text ---- */
static uint32_t ref_bfind(uint64_t a, int msb, int sgn, int shamt)
{
    if (sgn && (a >> msb & 1)) a = ~a;
    uint32_t d = 0xffffffff;
    for (int i = msb; i >= 0; i--)
        if (a >> i & 1) { d = (uint32_t)i; break; }
    if (shamt && d != 0xffffffff) d = (uint32_t)msb - d;
    return d;
}
static uint64_t ref_bfe(uint64_t a, uint32_t b, uint32_t c, int msb, int sgn)
{
    uint32_t pos = b & 0xff, len = c & 0xff;
    uint64_t sbit = 0, d = 0;
    if (sgn && len) { uint32_t t = pos + len - 1; sbit = a >> (t < (uint32_t)msb ? t : (uint32_t)msb) & 1; }
    for (uint32_t i = 0; i <= (uint32_t)msb; i++) {
        uint64_t bit = (i < len && pos + i <= (uint32_t)msb) ? a >> (pos + i) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}
static uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t dd, int msb)
{
    uint32_t pos = c & 0xff, len = dd & 0xff;
    uint64_t f = b;
    for (uint32_t i = 0; i < len && pos + i <= (uint32_t)msb; i++)
        f = (f & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
    return f;
}
static uint32_t ref_fns(uint32_t mask, uint32_t base, int32_t offset)
{
    uint32_t d = 0xffffffff;
    if (offset == 0) { if (base < 32 && (mask >> base & 1)) d = base; return d; }
    long pos = base, count = labs((long)offset) - 1, inc = offset > 0 ? 1 : -1;
    while (pos >= 0 && pos < 32) {
        if (mask >> pos & 1) { if (count == 0) { d = (uint32_t)pos; break; } count--; }
        pos += inc;
    }
    return d;
}

START_TEST(t_add_sub_mul)
{
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(3)[i] = edge32(); }
        RUN("add.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (uint32_t)(R32(1)[i] + R32(2)[i]));
        RUN("add.sat.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long s = (long long)(int32_t)R32(1)[i] + (int32_t)R32(2)[i];
            if (s > 2147483647LL) s = 2147483647LL;
            if (s < -2147483648LL) s = -2147483648LL;
            ck_assert_uint_eq(R32(0)[i], (uint32_t)s);
        }
        RUN("sub.sat.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long s = (long long)(int32_t)R32(1)[i] - (int32_t)R32(2)[i];
            if (s > 2147483647LL) s = 2147483647LL;
            if (s < -2147483648LL) s = -2147483648LL;
            ck_assert_uint_eq(R32(0)[i], (uint32_t)s);
        }
        RUN("mul.hi.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long p = (long long)(int32_t)R32(1)[i] * (int32_t)R32(2)[i];
            ck_assert_uint_eq(R32(0)[i], (uint32_t)((unsigned long long)p >> 32));
        }
        RUN("mul.hi.u32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(R32(0)[i], (uint32_t)(((unsigned long long)R32(1)[i] * R32(2)[i]) >> 32));
        RUN("mul.wide.s32", EXEC_FULL, 4, 1, 2);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(R64(4)[i], (uint64_t)((long long)(int32_t)R32(1)[i] * (int32_t)R32(2)[i]));
        RUN("mad.lo.s32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(1)[i] * R32(2)[i] + R32(3)[i]);
        RUN("mad.hi.sat.s32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            long long p = (long long)(int32_t)R32(1)[i] * (int32_t)R32(2)[i];
            long long s = (long long)(int32_t)(uint32_t)((unsigned long long)p >> 32) + (int32_t)R32(3)[i];
            if (s > 2147483647LL) s = 2147483647LL;
            if (s < -2147483648LL) s = -2147483648LL;
            ck_assert_uint_eq(R32(0)[i], (uint32_t)s);
        }
        RUN("mul24.hi.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long a = (long long)(R32(1)[i] & 0xffffff), b = (long long)(R32(2)[i] & 0xffffff);
            if (a & 0x800000) a -= 0x1000000;
            if (b & 0x800000) b -= 0x1000000;
            ck_assert_uint_eq(R32(0)[i], (uint32_t)((unsigned long long)(a * b) >> 16));
        }
        RUN("sad.s32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            long long a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i];
            ck_assert_uint_eq(R32(0)[i], (uint32_t)(R32(3)[i] + (uint32_t)(a > b ? a - b : b - a)));
        }
        for (int i = 0; i < 32; i++) { R64(5)[i] = edge64(); R64(6)[i] = edge64(); }
        RUN("mul.hi.u64", EXEC_FULL, 4, 5, 6);
        for (int i = 0; i < 32; i++) {
            /* schoolbook 32x32 pieces */
            uint64_t a = R64(5)[i], b = R64(6)[i], al = a & 0xffffffff, ah = a >> 32, bl = b & 0xffffffff, bh = b >> 32;
            uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
            uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);
            ck_assert_uint_eq(R64(4)[i], hh + (lh >> 32) + (hl >> 32) + (mid >> 32));
        }
    }
}
END_TEST

START_TEST(t_carry_chain)
{
    /* 128-bit add and sub from add.cc/addc.cc/addc chains vs unsigned __int128 */
    for (int round = 0; round < 100; round++) {
        unsigned __int128 A[32], B[32];
        for (int i = 0; i < 32; i++) {
            A[i] = (unsigned __int128)edge64() << 64 | edge64();
            B[i] = (unsigned __int128)edge64() << 64 | edge64();
            for (int k = 0; k < 4; k++) {
                R32(1 + k)[i] = (uint32_t)(A[i] >> (32 * k));
                R32(5 + k)[i] = (uint32_t)(B[i] >> (32 * k));
            }
        }
        int sub = round & 1;
        RUN(sub ? "sub.cc.u32" : "add.cc.u32", EXEC_FULL, 9, 1, 5);
        RUN(sub ? "subc.cc.u32" : "addc.cc.u32", EXEC_FULL, 10, 2, 6);
        RUN(sub ? "subc.cc.u32" : "addc.cc.u32", EXEC_FULL, 11, 3, 7);
        RUN(sub ? "subc.u32" : "addc.u32", EXEC_FULL, 12, 4, 8);
        for (int i = 0; i < 32; i++) {
            unsigned __int128 r = sub ? A[i] - B[i] : A[i] + B[i];
            for (int k = 0; k < 4; k++)
                ck_assert_uint_eq(R32(9 + k)[i], (uint32_t)(r >> (32 * k)));
        }
    }
    /* 64x64 -> 128 product with mad.lo.cc / madc.hi */
    for (int i = 0; i < 32; i++) { R64(1)[i] = edge64(); R64(2)[i] = edge64(); R64(3)[i] = edge64(); R64(4)[i] = edge64(); }
    RUN("mad.lo.cc.u64", EXEC_FULL, 5, 1, 2, 3);
    RUN("madc.hi.u64", EXEC_FULL, 6, 1, 2, 4);
    for (int i = 0; i < 32; i++) {
        unsigned __int128 r = (unsigned __int128)R64(1)[i] * R64(2)[i] + R64(3)[i] + ((unsigned __int128)R64(4)[i] << 64);
        ck_assert_uint_eq(R64(5)[i], (uint64_t)r);
        ck_assert_uint_eq(R64(6)[i], (uint64_t)(r >> 64));
    }
}
END_TEST

START_TEST(t_div_rem)
{
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) {
            R32(1)[i] = edge32();
            R32(2)[i] = (i & 7) == 0 ? 0 : (i & 7) == 1 ? 0xffffffff : edge32();
        }
        R32(1)[9] = 0x80000000;
        RUN("div.u32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(R32(0)[i], R32(2)[i] ? R32(1)[i] / R32(2)[i] : 0xffffffffu);
        RUN("rem.u32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(R32(0)[i], R32(2)[i] ? R32(1)[i] % R32(2)[i] : R32(1)[i]);
        RUN("div.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i];
            long long q = b == 0 ? (a < 0 ? 1 : -1) : a / b; /* exact in 64 bits */
            ck_assert_uint_eq(R32(0)[i], (uint32_t)q);
        }
        RUN("rem.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i];
            ck_assert_uint_eq(R32(0)[i], (uint32_t)(b == 0 ? a : a % b));
        }
    }
    for (int i = 0; i < 32; i++) { R64(1)[i] = 0x8000000000000000ull; R64(2)[i] = ~0ull; }
    RUN("div.s64", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R64(0)[3], 0x8000000000000000ull);
    RUN("rem.s64", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R64(0)[3], 0);
    for (int i = 0; i < 32; i++) { R16(1)[i] = 0x8000; R16(2)[i] = 0xffff; }
    RUN("div.s16", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R16(0)[0], 0x8000);
    RUN("abs.s16", EXEC_FULL, 0, 1);
    ck_assert_uint_eq(R16(0)[0], 0x8000);
    RUN("neg.s16", EXEC_FULL, 0, 2);
    ck_assert_uint_eq(R16(0)[0], 1);
}
END_TEST

START_TEST(t_minmax_masks)
{
    for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(0)[i] = 0xdeadbeef; }
    RUN("min.s32", 0x0000ff0f, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        int32_t a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i];
        ck_assert_uint_eq(R32(0)[i], (0x0000ff0fu >> i & 1) ? (uint32_t)(a < b ? a : b) : 0xdeadbeefu);
    }
    RUN("max.u32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(1)[i] > R32(2)[i] ? R32(1)[i] : R32(2)[i]);
    RUN("max.relu.s32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        int32_t a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i], m = a > b ? a : b;
        ck_assert_uint_eq(R32(0)[i], (uint32_t)(m < 0 ? 0 : m));
    }
}
END_TEST

START_TEST(t_bitcount)
{
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) {
            R32(1)[i] = edge32(); R64(2)[i] = edge64();
            R32(3)[i] = rnd32() % 80; R32(4)[i] = rnd32() % 80;
            if (i == 5) { R32(3)[i] = 0x1ff; R32(4)[i] = 0x205; }
        }
        RUN("popc.b32", EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) { uint32_t n = 0; for (int k = 0; k < 32; k++) n += R32(1)[i] >> k & 1; ck_assert_uint_eq(R32(0)[i], n); }
        RUN("popc.b64", EXEC_FULL, 0, 2);
        for (int i = 0; i < 32; i++) { uint32_t n = 0; for (int k = 0; k < 64; k++) n += R64(2)[i] >> k & 1; ck_assert_uint_eq(R32(0)[i], n); }
        RUN("clz.b32", EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) { uint32_t n = 0; while (n < 32 && !(R32(1)[i] >> (31 - n) & 1)) n++; ck_assert_uint_eq(R32(0)[i], n); }
        RUN("clz.b64", EXEC_FULL, 0, 2);
        for (int i = 0; i < 32; i++) { uint32_t n = 0; while (n < 64 && !(R64(2)[i] >> (63 - n) & 1)) n++; ck_assert_uint_eq(R32(0)[i], n); }
        RUN("brev.b32", EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) { uint32_t r = 0; for (int k = 0; k < 32; k++) r |= (R32(1)[i] >> k & 1) << (31 - k); ck_assert_uint_eq(R32(0)[i], r); }
        RUN("brev.b64", EXEC_FULL, 5, 2);
        for (int i = 0; i < 32; i++) { uint64_t r = 0; for (int k = 0; k < 64; k++) r |= (R64(2)[i] >> k & 1) << (63 - k); ck_assert_uint_eq(R64(5)[i], r); }
        static const char *bf[] = { "bfind.u32", "bfind.s32", "bfind.shiftamt.u32", "bfind.shiftamt.s32" };
        for (int k = 0; k < 4; k++) {
            RUN(bf[k], EXEC_FULL, 0, 1);
            for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], ref_bfind(R32(1)[i], 31, k & 1, k >> 1));
        }
        RUN("bfind.s64", EXEC_FULL, 0, 2);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], ref_bfind(R64(2)[i], 63, 1, 0));
        RUN("bfe.u32", EXEC_FULL, 0, 1, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (uint32_t)ref_bfe(R32(1)[i], R32(3)[i], R32(4)[i], 31, 0));
        RUN("bfe.s32", EXEC_FULL, 0, 1, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (uint32_t)ref_bfe(R32(1)[i], R32(3)[i], R32(4)[i], 31, 1));
        RUN("bfe.s64", EXEC_FULL, 5, 2, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R64(5)[i], ref_bfe(R64(2)[i], R32(3)[i], R32(4)[i], 63, 1));
        RUN("bfe.u64", EXEC_FULL, 5, 2, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R64(5)[i], ref_bfe(R64(2)[i], R32(3)[i], R32(4)[i], 63, 0));
        for (int i = 0; i < 32; i++) R32(6)[i] = edge32();
        RUN("bfi.b32", EXEC_FULL, 0, 1, 6, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (uint32_t)ref_bfi(R32(1)[i], R32(6)[i], R32(3)[i], R32(4)[i], 31));
        for (int i = 0; i < 32; i++) R64(7)[i] = edge64();
        RUN("bfi.b64", EXEC_FULL, 5, 2, 7, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R64(5)[i], ref_bfi(R64(2)[i], R64(7)[i], R32(3)[i], R32(4)[i], 63));
        for (int i = 0; i < 32; i++) { R32(3)[i] = rnd32() % 40; R32(4)[i] = (uint32_t)((int32_t)(rnd32() % 80) - 40); }
        R32(4)[0] = 0x80000000u;
        RUN("fns.b32", EXEC_FULL, 0, 1, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], ref_fns(R32(1)[i], R32(3)[i], (int32_t)R32(4)[i]));
    }
}
END_TEST

START_TEST(t_dp)
{
    static const char *forms[] = { "dp4a.u32.u32", "dp4a.u32.s32", "dp4a.s32.u32", "dp4a.s32.s32" };
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(3)[i] = edge32(); }
        for (int f = 0; f < 4; f++) {
            RUN(forms[f], EXEC_FULL, 0, 1, 2, 3);
            for (int i = 0; i < 32; i++) {
                long long acc = (f == 0) ? (long long)R32(3)[i] : (long long)(int32_t)R32(3)[i];
                for (int k = 0; k < 4; k++) {
                    long long a = R32(1)[i] >> (8 * k) & 0xff, b = R32(2)[i] >> (8 * k) & 0xff;
                    if ((f & 2) && a > 127) a -= 256;
                    if ((f & 1) && b > 127) b -= 256;
                    acc += a * b;
                }
                ck_assert_uint_eq(R32(0)[i], (uint32_t)acc);
            }
        }
        RUN("dp2a.hi.s32.s32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            long long acc = (int32_t)R32(3)[i];
            for (int k = 0; k < 2; k++) {
                long long a = (int16_t)(R32(1)[i] >> (16 * k)), b = (int8_t)(R32(2)[i] >> (8 * (2 + k)));
                acc += a * b;
            }
            ck_assert_uint_eq(R32(0)[i], (uint32_t)acc);
        }
    }
}
END_TEST

START_TEST(t_decode_errors)
{
    DECODE_FAILS("add.sat.u32", 0, 1, 2);
    DECODE_FAILS("add.foo.s32", 0, 1, 2);
    DECODE_FAILS("mul.wide.u64", 0, 1, 2);
    DECODE_FAILS("add.s32", 0, 1);
    DECODE_FAILS("bfe.b32", 0, 1, 2, 3);
    DECODE_FAILS("abs.u32", 0, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alu_int");
    TCase *tc = tcase_create("int");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_add_sub_mul);
    tcase_add_test(tc, t_carry_chain);
    tcase_add_test(tc, t_div_rem);
    tcase_add_test(tc, t_minmax_masks);
    tcase_add_test(tc, t_bitcount);
    tcase_add_test(tc, t_dp);
    tcase_add_test(tc, t_decode_errors);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
