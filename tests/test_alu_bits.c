/* test_alu_bits.c - logic, lop3 (all 256 LUTs), prmt (every mode), shifts, setp/set/selp/slct against scalar references. */
#include <math.h>
#include <fenv.h>
#include "alu_stub.h"

/* prmt mode table exactly as printed in the spec: d.b3 d.b2 d.b1 d.b0 per selector. */
static const int spec_prmt[6][4][4] = {
    { {3,2,1,0}, {4,3,2,1}, {5,4,3,2}, {6,5,4,3} },  /* f4e */
    { {5,6,7,0}, {6,7,0,1}, {7,0,1,2}, {0,1,2,3} },  /* b4e */
    { {0,0,0,0}, {1,1,1,1}, {2,2,2,2}, {3,3,3,3} },  /* rc8 */
    { {3,2,1,0}, {3,2,1,1}, {3,2,2,2}, {3,3,3,3} },  /* ecl */
    { {0,0,0,0}, {1,1,1,0}, {2,2,1,0}, {3,2,1,0} },  /* ecr */
    { {1,0,1,0}, {3,2,3,2}, {1,0,1,0}, {3,2,3,2} },  /* rc16 */
};
static const char *prmt_modes[6] = { "prmt.b32.f4e", "prmt.b32.b4e", "prmt.b32.rc8", "prmt.b32.ecl", "prmt.b32.ecr", "prmt.b32.rc16" };

START_TEST(t_lop3_all)
{
    for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(3)[i] = edge32(); }
    for (int lut = 0; lut < 256; lut++) {
        RUN("lop3.b32", EXEC_FULL, 0, 1, 2, 3, OP_IMM(lut));
        for (int i = 0; i < 32; i++) {
            uint32_t r = 0;
            for (int k = 0; k < 32; k++) {
                int idx = (int)((R32(1)[i] >> k & 1) << 2 | (R32(2)[i] >> k & 1) << 1 | (R32(3)[i] >> k & 1));
                r |= (uint32_t)(lut >> idx & 1) << k;
            }
            ck_assert_uint_eq(R32(0)[i], r);
        }
    }
    /* the LUT is F(0xF0, 0xCC, 0xAA) */
    for (int i = 0; i < 32; i++) { R32(1)[i] = 0xF0; R32(2)[i] = 0xCC; R32(3)[i] = 0xAA; }
    for (int lut = 0; lut < 256; lut++) {
        RUN("lop3.b32", EXEC_FULL, 0, 1, 2, 3, OP_IMM(lut));
        ck_assert_uint_eq(R32(0)[7] & 0xff, (uint32_t)lut);
    }
    DECODE_FAILS("lop3.b32", 0, 1, 2, 3, OP_IMM(256));
}
END_TEST

START_TEST(t_prmt_all)
{
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 32; i++) { R32(1)[i] = rnd32(); R32(2)[i] = rnd32(); R32(3)[i] = rnd32(); }
        for (int md = 0; md < 6; md++) {
            RUN(prmt_modes[md], EXEC_FULL, 0, 1, 2, 3);
            for (int i = 0; i < 32; i++) {
                uint8_t bytes[8];
                for (int k = 0; k < 4; k++) { bytes[k] = (uint8_t)(R32(1)[i] >> (8 * k)); bytes[4 + k] = (uint8_t)(R32(2)[i] >> (8 * k)); }
                const int *row = spec_prmt[md][R32(3)[i] & 3];
                uint32_t want = (uint32_t)bytes[row[0]] << 24 | (uint32_t)bytes[row[1]] << 16 | (uint32_t)bytes[row[2]] << 8 | bytes[row[3]];
                ck_assert_uint_eq(R32(0)[i], want);
            }
        }
    }
    /* generic form: every selector nibble value in every byte position */
    for (int i = 0; i < 32; i++) { R32(1)[i] = 0x83027f01u ^ (uint32_t)i; R32(2)[i] = 0xff80407fu; }
    for (uint32_t sel = 0; sel < 65536; sel += 7) {
        for (int i = 0; i < 32; i++) R32(3)[i] = sel + (uint32_t)i * 0x10000u;
        RUN("prmt.b32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            uint32_t want = 0;
            for (int k = 0; k < 4; k++) {
                uint32_t s = sel >> (4 * k) & 15, src = s & 7;
                uint32_t byte = (src < 4 ? R32(1)[i] >> (8 * src) : R32(2)[i] >> (8 * (src - 4))) & 0xff;
                if (s & 8) byte = (byte >> 7) ? 0xff : 0;
                want |= byte << (8 * k);
            }
            ck_assert_uint_eq(R32(0)[i], want);
        }
    }
}
END_TEST

START_TEST(t_shifts)
{
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(3)[i] = (round & 1) ? rnd32() % 70 : edge32(); R64(4)[i] = edge64(); }
        RUN("shl.b32", EXEC_FULL, 0, 1, 3);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(3)[i] >= 32 ? 0 : R32(1)[i] << R32(3)[i]);
        RUN("shr.u32", EXEC_FULL, 0, 1, 3);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(3)[i] >= 32 ? 0 : R32(1)[i] >> R32(3)[i]);
        RUN("shr.s32", EXEC_FULL, 0, 1, 3);
        for (int i = 0; i < 32; i++) {
            long long v = (int32_t)R32(1)[i];
            uint32_t n = R32(3)[i] > 40 ? 40 : R32(3)[i];
            ck_assert_uint_eq(R32(0)[i], (uint32_t)(long long)floorl((long double)v / powl(2, n)));
        }
        RUN("shr.s64", EXEC_FULL, 5, 4, 3);
        for (int i = 0; i < 32; i++) {
            uint64_t v = R64(4)[i], sgn = v >> 63;
            uint64_t want = v;
            for (uint32_t k = 0; k < R32(3)[i] && k < 70; k++) want = (want >> 1) | (sgn << 63);
            ck_assert_uint_eq(R64(5)[i], want);
        }
        static const char *shf[4] = { "shf.l.wrap.b32", "shf.l.clamp.b32", "shf.r.wrap.b32", "shf.r.clamp.b32" };
        for (int f = 0; f < 4; f++) {
            RUN(shf[f], EXEC_FULL, 0, 1, 2, 3);
            for (int i = 0; i < 32; i++) {
                unsigned __int128 t = (unsigned __int128)((uint64_t)R32(2)[i] << 32 | R32(1)[i]);
                uint32_t n = (f & 1) ? (R32(3)[i] > 32 ? 32 : R32(3)[i]) : (R32(3)[i] & 31);
                uint32_t want = (f < 2) ? (uint32_t)((t << n) >> 32) : (uint32_t)(t >> n);
                ck_assert_uint_eq(R32(0)[i], want);
            }
        }
    }
}
END_TEST

START_TEST(t_logic_pred)
{
    predblk[1] = 0xf0f0f0f0; predblk[2] = 0xff00ff00; predblk[0] = 0x12345678;
    RUN("and.pred", 0x0000ffff, 0, 1, 2);
    ck_assert_uint_eq(predblk[0], 0x1234f000);
    RUN("xor.pred", EXEC_FULL, 3, 1, 2);
    ck_assert_uint_eq(predblk[3], 0x0ff00ff0);
    RUN("not.pred", EXEC_FULL, 3, 1);
    ck_assert_uint_eq(predblk[3], 0x0f0f0f0f);
    for (int i = 0; i < 32; i++) { R64(1)[i] = i & 1 ? 0 : edge64() | 1; R16(2)[i] = (uint16_t)(i & 2); }
    RUN("cnot.b64", EXEC_FULL, 3, 1);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R64(3)[i], (uint64_t)(i & 1));
    RUN("not.b16", EXEC_FULL, 4, 2);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R16(4)[i], (uint16_t)~(i & 2));
    DECODE_FAILS("cnot.pred", 0, 1);
    DECODE_FAILS("shl.s32", 0, 1, 2);
}
END_TEST

START_TEST(t_compare)
{
    static const char *ops[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };
    float vals[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 1e-40f, 3.0f };
    for (int i = 0; i < 32; i++) { RF(1)[i] = vals[i % 9]; RF(2)[i] = vals[(i / 3) % 9]; }
    predblk[5] = 0xaaaaaaaa;
    for (int k = 0; k < 14; k++) {
        char name[64];
        snprintf(name, sizeof name, "setp.%s.and.f32", ops[k]);
        RUN(name, EXEC_FULL, OP_PAIR(3, 4), 1, 2, 5);
        for (int i = 0; i < 32; i++) {
            float a = RF(1)[i], b = RF(2)[i];
            int un = isnan(a) || isnan(b), r;
            switch (k) {
            case 0: r = !un && a == b; break;
            case 1: r = !un && a != b; break;
            case 2: r = !un && a < b; break;
            case 3: r = !un && a <= b; break;
            case 4: r = !un && a > b; break;
            case 5: r = !un && a >= b; break;
            case 6: r = un || a == b; break;
            case 7: r = un || a != b; break;
            case 8: r = un || a < b; break;
            case 9: r = un || a <= b; break;
            case 10: r = un || a > b; break;
            case 11: r = un || a >= b; break;
            case 12: r = !un; break;
            default: r = un; break;
            }
            int c = (int)(predblk[5] >> i & 1);
            ck_assert_int_eq((int)(predblk[3] >> i & 1), r && c);
            ck_assert_int_eq((int)(predblk[4] >> i & 1), !r && c);
        }
    }
    /* integer unsigned operators on signed types, set to u32 / f32 */
    for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); }
    RUN("setp.lo.s32", EXEC_FULL, 3, 1, 2);
    RUN("set.lt.u32.s32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        ck_assert_int_eq((int)(predblk[3] >> i & 1), R32(1)[i] < R32(2)[i]);
        ck_assert_uint_eq(R32(0)[i], (int32_t)R32(1)[i] < (int32_t)R32(2)[i] ? 0xffffffffu : 0);
    }
    RUN("set.ge.f32.u32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(1)[i] >= R32(2)[i] ? 0x3f800000u : 0);
    /* selp / slct */
    predblk[6] = 0x0f0f0f0f;
    RUN("selp.b32", EXEC_FULL, 0, 1, 2, 6);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (0x0f0f0f0fu >> i & 1) ? R32(1)[i] : R32(2)[i]);
    for (int i = 0; i < 32; i++) RF(3)[i] = vals[i % 9];
    RUN("slct.b32.f32", EXEC_FULL, 0, 1, 2, 3);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], RF(3)[i] >= 0 ? R32(1)[i] : R32(2)[i]);
    DECODE_FAILS("setp.ltu.s32", 3, 1, 2);
    DECODE_FAILS("setp.lo.f32", 3, 1, 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alu_bits");
    TCase *tc = tcase_create("bits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_lop3_all);
    tcase_add_test(tc, t_prmt_all);
    tcase_add_test(tc, t_shifts);
    tcase_add_test(tc, t_logic_pred);
    tcase_add_test(tc, t_compare);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
