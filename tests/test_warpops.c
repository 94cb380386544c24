/* test_warpops.c - warp operations: shfl modes vs the spec's pseudo code, votes, match, redux, elect, atomics. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core_harness.h"

/* C model of shfl.sync (the spec's pseudo code) for one full warp. */
static uint32_t c_shfl(int mode, const uint32_t *a, uint32_t lane, uint32_t b, uint32_t c,
                       int *pv)
{
    uint32_t bval = b & 31, cval = c & 31, seg = (c >> 8) & 31;
    int maxl = (int)((lane & seg) | (cval & ~seg)), minl = (int)(lane & seg), j, p;
    switch (mode) {
    case 0: j = (int)lane - (int)bval; p = j >= maxl; break;
    case 1: j = (int)lane + (int)bval; p = j <= maxl; break;
    case 2: j = (int)(lane ^ bval); p = j <= maxl; break;
    default: j = minl | (int)(bval & ~seg); p = j <= maxl; break;
    }
    if (!p)
        j = (int)lane;
    *pv = p;
    return a[j];
}

/* shfl.sync.MODE.b32 d|p, a, b, c with per-lane b and c read from memory. */
static const char *k_shfl_fmt = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %%r<10>; .reg .b64 %%rd<8>; .reg .pred %%p<2>;\n"
    " ld.param.u64 %%rd1, [in]; ld.param.u64 %%rd2, [out];\n"
    " mov.u32 %%r1, %%laneid;\n"
    " mul.wide.u32 %%rd3, %%r1, 16; add.s64 %%rd4, %%rd1, %%rd3; add.s64 %%rd5, %%rd2, %%rd3;\n"
    " ld.global.v4.u32 {%%r2, %%r3, %%r4, _}, [%%rd4];\n"
    " shfl.sync.%s.b32 %%r5|%%p1, %%r2, %%r3, %%r4, -1;\n"
    " selp.u32 %%r6, 1, 0, %%p1;\n"
    " shfl.%s.b32 %%r7, %%r2, %%r3, %%r4;\n"
    " st.global.v4.u32 [%%rd5], {%%r5, %%r6, %%r7, %%r1};\n"
    " ret;\n}\n";

START_TEST(test_shfl_modes)
{
    static const char *const modes[] = { "up", "down", "bfly", "idx" };
    uint32_t seed = 12345;
    for (int mode = 0; mode < 4; mode++)
        for (int round = 0; round < 6; round++) {
            char src[4096];
            snprintf(src, sizeof src, k_shfl_fmt, modes[mode], modes[mode]);
            T t;
            ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
            uint32_t in[32][4], out[32][4], a[32];
            static const uint32_t cs[] = { 0x1f, 0x0, 0x181f, 0x1c1f, 0x1e07, 0x1003 };
            for (int l = 0; l < 32; l++) {
                seed = seed * 1103515245u + 12345u;
                a[l] = in[l][0] = seed;
                in[l][1] = round == 5 ? (seed >> 7) % 40 : (uint32_t)(round * 3 + l % 3) % 33;
                in[l][2] = cs[round];
                in[l][3] = 0;
            }
            uint64_t p[2] = { t_buf(&t, sizeof in), t_buf(&t, sizeof out) };
            t_write(&t, p[0], in, sizeof in);
            t_launch(&t, "k", 1, 32, p, sizeof p);
            exec_stop st = t_run(&t);
            ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
            t_read(&t, p[1], out, sizeof out);
            for (uint32_t l = 0; l < 32; l++) {
                int pv;
                uint32_t want = c_shfl(mode, a, l, in[l][1], in[l][2], &pv);
                ck_assert_uint_eq(out[l][0], want);
                ck_assert_uint_eq(out[l][1], (uint32_t)pv);
                ck_assert_uint_eq(out[l][2], want);
            }
            t_free(&t);
        }
}
END_TEST

/* nvcc output of tests/fixtures/kernels/warp.cu: shuffles, votes, reductions, match, scan. */
static void run_warp(const char *path)
{
    size_t len;
    char *src = tu_read_file(path, &len);
    ck_assert_msg(src != NULL, "cannot read %s", path);
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    free(src);
    enum { N = 64 };
    int in[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 37 + 11) % 1001;
    uint64_t p[2] = { t_buf(&t, sizeof in), t_buf(&t, N * 16 * 4) };
    t_write(&t, p[0], in, sizeof in);
    t_launch(&t, "_Z8warp_opsPKiPi", 2, 32, p, sizeof p);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    static int out[N * 16];
    t_read(&t, p[1], out, sizeof out);
    for (int w = 0; w < 2; w++) {
        const int *v = in + w * 32;
        for (int l = 0; l < 32; l++) {
            const int *o = out + (w * 32 + l) * 16;
            int s = 0, any = 0, all = 1, ra = 0, mn = v[0], sc = 0;
            unsigned mx = 0, bal = 0, ro = 0, ma = 0;
            for (int k = 0; k < 32; k++) {
                s += v[k];
                mx = (unsigned)v[k] > mx ? (unsigned)v[k] : mx;
                bal |= (unsigned)(v[k] & 1) << k;
                any |= v[k] > 900;
                all &= v[k] >= 0;
                ra += v[k] & 0xff;
                mn = v[k] < mn ? v[k] : mn;
                ro |= (unsigned)v[k];
                ma |= (unsigned)(v[k] % 5 == v[l] % 5) << k;
                sc += k <= l ? v[k] : 0;
            }
            ck_assert_int_eq(o[0], v[0]);
            ck_assert_int_eq(o[1], v[(l * 7 + 3) & 31]);
            ck_assert_int_eq(o[2], v[(l & ~7) | ((l + 1) & 7)]);
            ck_assert_int_eq(o[3], l >= 3 ? v[l - 3] : v[l]);
            ck_assert_int_eq(o[4], (l % 16) + 5 < 16 ? v[l + 5] : v[l]);
            ck_assert_int_eq(o[5], v[l ^ 6]);
            if (l == 0)
                ck_assert_int_eq(o[6], s);
            ck_assert_uint_eq((unsigned)o[7], mx);
            ck_assert_uint_eq((unsigned)o[8], bal);
            ck_assert_int_eq(o[9], any);
            ck_assert_int_eq(o[10], all);
            ck_assert_int_eq(o[11], ra);
            ck_assert_int_eq(o[12], mn);
            ck_assert_uint_eq((unsigned)o[13], ro);
            ck_assert_uint_eq((unsigned)o[14], ma);
            ck_assert_int_eq(o[15], sc);
        }
    }
    /* votes inside divergent branches with member masks naming each side */
    uint64_t q[2] = { p[0], t_buf(&t, N * 4) };
    t_launch(&t, "_Z20warp_divergent_votesPKiPj", 2, 32, q, sizeof q);
    st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    unsigned r[N];
    t_read(&t, q[1], r, sizeof r);
    for (int w = 0; w < 2; w++) {
        const int *v = in + w * 32;
        unsigned b2 = 0, b4 = 0;
        int allb = 1;
        for (int k = 0; k < 20; k++)
            b2 |= (unsigned)((v[k] & 2) != 0) << k;
        for (int k = 20; k < 32; k++) {
            b4 |= (unsigned)((v[k] & 4) != 0) << k;
            allb &= v[k] < 1000;
        }
        for (int l = 0; l < 32; l++) {
            unsigned want = l < 20 ? b2 ^ ((unsigned)v[19 - l] << 20)
                                   : (b4 | 1u) + (allb ? 0x100u : 0u);
            ck_assert_uint_eq(r[w * 32 + l], want);
        }
    }
    t_free(&t);
}

START_TEST(test_warp_G) { run_warp("tests/fixtures/kernels/warp.G.ptx"); }
END_TEST
START_TEST(test_warp_O3) { run_warp("tests/fixtures/kernels/warp.O3.ptx"); }
END_TEST

/* Warp ops in divergent code: a full-mask shfl executed by the two halves of an if/else at
 * different instructions waits until both have arrived; match.all and redux; elect. */
static const char *k_div = HDR
    ".visible .entry k(.param .u64 out, .param .u32 bad)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " ld.param.u32 %r9, [bad];\n"
    " mov.u32 %r1, %laneid;\n"
    " setp.eq.u32 %p3, %r9, 0;\n"
    " @%p3 bra GO;\n"
    " setp.gt.u32 %p2, %r1, 29;\n"
    " @%p2 exit;\n"
    "GO:\n"
    " setp.lt.u32 %p1, %r1, 16;\n"
    " @%p1 bra LO;\n"
    " add.s32 %r2, %r1, 100;\n"
    " shfl.sync.bfly.b32 %r3, %r2, 16, 31, -1;\n"
    " bra J;\n"
    "LO:\n"
    " add.s32 %r2, %r1, 200;\n"
    " shfl.sync.bfly.b32 %r3, %r2, 16, 31, -1;\n"
    "J:\n"
    " shr.u32 %r4, %r1, 3;\n"
    " mov.u32 %r5, 0; mov.u32 %r6, 0; mov.u32 %r7, 0;\n"
    " setp.lt.u32 %p3, %r1, 8;\n"
    " @%p3 match.all.sync.b32 %r5|%p2, %r4, 0xff;\n"
    " @%p3 selp.u32 %r6, 1, 0, %p2;\n"
    " setp.ge.u32 %p3, %r1, 16;\n"
    " @%p3 redux.sync.max.u32 %r7, %r1, 0xffff0000;\n"
    " mul.wide.u32 %rd2, %r1, 16; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3], {%r3, %r5, %r6, %r7};\n"
    " ret;\n}\n";

START_TEST(test_divergent_warp_ops)
{
    T t;
    ck_assert_msg(t_load(&t, k_div) == 0, "%s", t.err);
    struct { uint64_t out; uint32_t bad, pad; } p = { t_buf(&t, 32 * 16), 0, 0 };
    t_launch(&t, "k", 1, 32, &p, 12);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t v[32][4];
    t_read(&t, p.out, v, sizeof v);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t j = l ^ 16;
        ck_assert_uint_eq(v[l][0], j + (j < 16 ? 200 : 100));
        if (l < 8) {
            ck_assert_uint_eq(v[l][1], 0xff);
            ck_assert_uint_eq(v[l][2], 1);
        }
        if (l >= 16)
            ck_assert_uint_eq(v[l][3], 31);
    }
    exec_free(t.m);
    t.m = exec_new(t.mod, t.err, sizeof t.err);
    /* lanes 30 and 31 exited: a full membermask names them */
    p.out = t_buf(&t, 32 * 16);
    p.bad = 1;
    t_launch(&t, "k", 1, 32, &p, 12);
    st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_WARP_SYNC);
    t_free(&t);
}
END_TEST

/* Atomics applied in lane order on global and shared memory. */
static const char *k_atom = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .shared .align 4 .b32 s[4];\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<8>; .reg .f32 %f<3>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " atom.global.add.u32 %r2, [%rd1], %r1;\n"
    " atom.global.max.s32 %r3, [%rd1+4], %r1;\n"
    " atom.global.inc.u32 %r4, [%rd1+8], 5;\n"
    " atom.global.cas.b32 %r5, [%rd1+12], %r1, 100;\n"
    " cvt.rn.f32.u32 %f1, %r1;\n"
    " atom.global.add.f32 %f2, [%rd1+16], %f1;\n"
    " atom.shared.exch.b32 %r6, [s], %r1;\n"
    " red.shared.xor.b32 [s+4], %r1;\n"
    " atom.global.dec.u32 %r7, [%rd1+20], 3;\n"
    " bar.sync 0;\n"
    " ld.shared.u32 %r8, [s+4];\n"
    " st.global.u32 [%rd1+24], %r8;\n"
    " mul.wide.u32 %rd2, %r1, 16; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3+32], {%r2, %r4, %r5, %r6};\n"
    " ret;\n}\n";

START_TEST(test_atomics)
{
    T t;
    ck_assert_msg(t_load(&t, k_atom) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 32 + 40 * 16);
    uint32_t init[8] = { 0, 0x80000000u, 0, 7, 0, 0, 0, 0 };
    t_write(&t, out, init, sizeof init);
    t_launch(&t, "k", 1, 40, &out, 8);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t h[8], per[40][4];
    t_read(&t, out, h, sizeof h);
    t_read(&t, out + 32, per, sizeof per);
    ck_assert_uint_eq(h[0], 40 * 39 / 2);
    ck_assert_uint_eq(h[1], 39);
    float f;
    memcpy(&f, &h[4], 4);
    ck_assert(f == 780.0f);
    uint32_t x = 0, sum = 0, inc = 0, dec = 0, cas = 7;
    for (uint32_t i = 0; i < 40; i++) {
        x ^= i;
        ck_assert_uint_eq(per[i][0], sum);
        sum += i;
        ck_assert_uint_eq(per[i][1], inc);
        inc = inc >= 5 ? 0 : inc + 1;
        ck_assert_uint_eq(per[i][2], cas);
        cas = cas == i ? 100 : cas;
        dec = (dec == 0 || dec > 3) ? 3 : dec - 1;
    }
    ck_assert_uint_eq(h[2], inc);
    ck_assert_uint_eq(h[3], cas);
    ck_assert_uint_eq(h[5], dec);
    ck_assert_uint_eq(h[6], x);
    /* exch: lanes in order, each sees its predecessor's value */
    for (uint32_t i = 1; i < 40; i++)
        ck_assert_uint_eq(per[i][3], i - 1);
    t_free(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("warpops");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_shfl_modes);
    tcase_add_test(tc, test_warp_G);
    tcase_add_test(tc, test_warp_O3);
    tcase_add_test(tc, test_divergent_warp_ops);
    tcase_add_test(tc, test_atomics);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
