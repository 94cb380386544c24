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
    /* lanes 30 and 31 exited: a full membermask names them, and the instructions wait only
       for the non-exited threads of the mask (PTX ISA shfl.sync/redux.sync), so they complete
       over lanes 0-29; redux.max sees lanes 16-29 only. (Lanes 14 and 15 read exited lanes:
       undefined, not checked.) */
    p.out = t_buf(&t, 32 * 16);
    p.bad = 1;
    t_launch(&t, "k", 1, 32, &p, 12);
    st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    t_read(&t, p.out, v, sizeof v);
    for (uint32_t l = 0; l < 30; l++) {
        uint32_t j = l ^ 16;
        if (l != 14 && l != 15)
            ck_assert_uint_eq(v[l][0], j + (j < 16 ? 200 : 100));
        if (l < 8) {
            ck_assert_uint_eq(v[l][1], 0xff);
            ck_assert_uint_eq(v[l][2], 1);
        }
        if (l >= 16)
            ck_assert_uint_eq(v[l][3], 29);
    }
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

/* 128-bit cas/exch and vector float additions (sm_90 forms), lanes applied in lane order as
 * every atomic: thread t exchanges the 128-bit slot X for {t, ~t} (so it sees t-1's pair), and
 * compare-and-swaps slot Y from {t, 0} to {t+1, 0} (a chain that succeeds for every thread in
 * order); .v4.f32 and .v8.bf16 additions into one vector (exact small integers) return the
 * running sums; red.v2.f32 too. Reference: C, in lane order. */
static const char *k_atomx = ".version 8.5\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 buf, .param .u64 out)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<12>; .reg .b128 %q<4>; .reg .f32 %f<8>; .reg .b16 %h<8>;\n"
    " ld.param.u64 %rd1, [buf]; ld.param.u64 %rd2, [out];\n"
    " mov.u32 %r1, %tid.x; cvt.u64.u32 %rd3, %r1; not.b64 %rd4, %rd3;\n"
    " mov.b128 %q0, {%rd3, %rd4};\n"
    " atom.global.exch.b128 %q1, [%rd1], %q0;\n"
    " mov.u64 %rd5, 0; add.u64 %rd6, %rd3, 1;\n"
    " mov.b128 %q2, {%rd3, %rd5}; mov.b128 %q3, {%rd6, %rd5};\n"
    " atom.relaxed.gpu.global.cas.b128 %q2, [%rd1+16], %q2, %q3;\n"
    " mov.b128 {%rd7, %rd8}, %q1; mov.b128 {%rd9, %rd10}, %q2;\n"
    " cvt.rn.f32.u32 %f0, %r1; mov.f32 %f1, 0f3F800000;\n"
    " atom.global.v4.f32.add {%f2, %f3, %f4, %f5}, [%rd1+32], {%f0, %f1, %f0, %f1};\n"
    " red.global.v2.f32.add [%rd1+48], {%f1, %f0};\n"
    " cvt.rn.bf16.f32 %h0, %f1;\n"
    " atom.global.v8.bf16.add.noftz {%h1, _, _, _, _, _, _, %h2}, [%rd1+64], {%h0, %h0, %h0, %h0, %h0, %h0, %h0, %h0};\n"
    " mul.wide.u32 %rd11, %r1, 64; add.s64 %rd11, %rd2, %rd11;\n"
    " st.global.v2.u64 [%rd11], {%rd7, %rd8};\n st.global.v2.u64 [%rd11+16], {%rd9, %rd10};\n"
    " st.global.v4.f32 [%rd11+32], {%f2, %f3, %f4, %f5};\n"
    " st.global.v2.b16 [%rd11+48], {%h1, %h2};\n"
    " cvt.rn.f16.u32 %h3, %r1; mov.b32 %r2, {%h3, %h3}; neg.f16 %h4, %h3; mov.b32 %r3, {%h4, %h4};\n"
    " atom.global.v2.f16x2.max.noftz {%r4, _}, [%rd1+80], {%r2, %r2};\n"
    " red.global.v2.f16x2.min.noftz [%rd1+88], {%r3, %r3};\n"
    " st.global.u32 [%rd11+52], %r4;\n"
    " ret;\n}\n";

START_TEST(test_atomics_wide)
{
    T t;
    ck_assert_msg(t_load(&t, k_atomx) == 0, "%s", t.err);
    enum { N = 40 };
    uint64_t init[12] = { 0xaaaa, 0xbbbb, 0, 0 };
    uint64_t a[2] = { t_buf_init(&t, init, sizeof init), t_buf(&t, N * 64) };
    t_launch(&t, "k", 1, N, a, sizeof a);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint64_t mem[12];
    t_read(&t, a[0], mem, sizeof mem);
    struct { uint64_t x[2], y[2]; float v[4]; uint16_t h[2]; uint32_t mx; uint8_t pad[8]; } o[N];
    t_read(&t, a[1], o, sizeof o);
    for (uint32_t i = 0; i < N; i++) {
        ck_assert_uint_eq(o[i].x[0], i ? i - 1 : 0xaaaa);
        ck_assert_uint_eq(o[i].x[1], i ? ~(uint64_t)(i - 1) : 0xbbbb);
        ck_assert_uint_eq(o[i].y[0], i);          /* old value: {i, 0}, so the swap happened */
        ck_assert_uint_eq(o[i].y[1], 0);
        float s = (float)(i * (i - 1) / 2);
        ck_assert(o[i].v[0] == s && o[i].v[2] == s);
        ck_assert(o[i].v[1] == (float)i && o[i].v[3] == (float)i);
        uint16_t hb = 0;                          /* bf16 of i (exact: i < 256) */
        float fi = (float)i;
        uint32_t fb;
        memcpy(&fb, &fi, 4);
        hb = (uint16_t)(fb >> 16);
        ck_assert_uint_eq(o[i].h[0], hb);
        ck_assert_uint_eq(o[i].h[1], hb);
        _Float16 prev = (_Float16)(i ? i - 1 : 0);   /* running max of 0, 0, 1, ... */
        uint16_t pb;
        memcpy(&pb, &prev, 2);
        ck_assert_uint_eq(o[i].mx, (uint32_t)pb << 16 | pb);
    }
    /* max of +0 and 0..N-1 in every half; min of +0 and -0..-(N-1): -(N-1) */
    _Float16 top = (_Float16)(N - 1), bot = (_Float16)-(N - 1);
    uint16_t tb, bb;
    memcpy(&tb, &top, 2);
    memcpy(&bb, &bot, 2);
    ck_assert_uint_eq(mem[10] & 0xffffffffu, (uint32_t)tb << 16 | tb);
    ck_assert_uint_eq(mem[10] >> 32, (uint32_t)tb << 16 | tb);   /* both vector elements */
    ck_assert_uint_eq(mem[11] & 0xffffffffu, (uint32_t)bb << 16 | bb);
    ck_assert_uint_eq(mem[0], N - 1);
    ck_assert_uint_eq(mem[1], ~(uint64_t)(N - 1));
    ck_assert_uint_eq(mem[2], N);
    float v[6];
    memcpy(v, &mem[4], sizeof v);
    ck_assert(v[0] == (float)(N * (N - 1) / 2) && v[1] == (float)N);
    ck_assert(v[4] == (float)N && v[5] == (float)(N * (N - 1) / 2));
    t_free(&t);
}
END_TEST

/* ---- per-lane membermasks -------------------------------------------------------------------
 * Lanes executing one warp-synchronous instruction with different membermasks (the tiles of
 * tiled_partition, the groups of labeled_partition, coalesced groups) synchronise in separate
 * sets, each lane with the lanes of its own mask. */

/* The reproducer: two 16-lane tiles, a bfly shuffle and a redux within each half. */
static const char *k_tilemask = HDR
    ".visible .entry tilemask(.param .u64 out, .param .u64 sum)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [sum];\n"
    " mov.u32 %r1, %tid.x;\n"
    " and.b32 %r2, %r1, 16;\n"
    " mov.u32 %r3, 65535;\n"
    " shl.b32 %r4, %r3, %r2;\n"
    " shfl.sync.bfly.b32 %r5, %r1, 1, 31, %r4;\n"
    " redux.sync.add.u32 %r6, %r1, %r4;\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd1, %rd3; st.global.u32 [%rd4], %r5;\n"
    " add.s64 %rd5, %rd2, %rd3; st.global.u32 [%rd5], %r6;\n"
    " ret;\n}\n";

START_TEST(test_tile_masks_repro)
{
    T t;
    ck_assert_msg(t_load(&t, k_tilemask) == 0, "%s", t.err);
    uint64_t p[2] = { t_buf(&t, 32 * 4), t_buf(&t, 32 * 4) };
    t_launch(&t, "tilemask", 1, 32, p, sizeof p);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t out[32], sum[32];
    t_read(&t, p[0], out, sizeof out);
    t_read(&t, p[1], sum, sizeof sum);
    ck_assert_uint_eq(out[17], 16);
    ck_assert_uint_eq(sum[20], 376);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(out[l], l ^ 1);
        ck_assert_uint_eq(sum[l], l < 16 ? 120 : 376);
    }
    t_free(&t);
}
END_TEST

/* Every warp-synchronous operation with per-lane a, b, c, membermask, key and branch
 * condition (in: 8 words per lane); the lanes with cond != 0 run a second copy of the block
 * in the other arm of an if/else. out: 16 words per lane. */
#define WS_BLOCK(L) \
    " activemask.b32 %%r25;\n" \
    " shfl.sync.%s.b32 %%r10|%%p1, %%r2, %%r3, %%r4, %%r5;\n" \
    " selp.u32 %%r11, 1, 0, %%p1;\n" \
    " and.b32 %%r20, %%r2, 1; setp.ne.u32 %%p2, %%r20, 0;\n" \
    " vote.sync.ballot.b32 %%r12, %%p2, %%r5;\n" \
    " vote.sync.all.pred %%p3, %%p2, %%r5;\n" \
    " vote.sync.any.pred %%p4, %%p2, %%r5;\n" \
    " vote.sync.uni.pred %%p5, %%p2, %%r5;\n" \
    " selp.u32 %%r13, 1, 0, %%p3; selp.u32 %%r14, 2, 0, %%p4; selp.u32 %%r15, 4, 0, %%p5;\n" \
    " or.b32 %%r13, %%r13, %%r14; or.b32 %%r13, %%r13, %%r15;\n" \
    " match.any.sync.b32 %%r14, %%r6, %%r5;\n" \
    " match.all.sync.b32 %%r15|%%p6, %%r6, %%r5;\n" \
    " selp.u32 %%r16, 1, 0, %%p6;\n" \
    " redux.sync.add.u32 %%r17, %%r2, %%r5;\n" \
    " redux.sync.min.s32 %%r18, %%r2, %%r5;\n" \
    " redux.sync.max.u32 %%r19, %%r2, %%r5;\n" \
    " redux.sync.xor.b32 %%r21, %%r2, %%r5;\n" \
    " elect.sync %%r22|%%p6, %%r5;\n" \
    " selp.u32 %%r23, 1, 0, %%p6;\n" \
    " bar.warp.sync %%r5;\n" \
    " vote.sync.ballot.b32 %%r24, %%p2, %%r5;\n"

static const char *k_ws_fmt = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %%r<40>; .reg .b64 %%rd<8>; .reg .pred %%p<8>;\n"
    " ld.param.u64 %%rd1, [in]; ld.param.u64 %%rd2, [out];\n"
    " mov.u32 %%r1, %%laneid;\n"
    " mul.wide.u32 %%rd3, %%r1, 32; add.s64 %%rd4, %%rd1, %%rd3;\n"
    " mul.wide.u32 %%rd3, %%r1, 64; add.s64 %%rd5, %%rd2, %%rd3;\n"
    " ld.global.v4.u32 {%%r2, %%r3, %%r4, %%r5}, [%%rd4];\n"
    " ld.global.v4.u32 {%%r6, %%r7, %%r8, %%r9}, [%%rd4+16];\n"
    " setp.ne.u32 %%p7, %%r7, 0;\n"
    " @%%p7 bra ELSE;\n"
    WS_BLOCK(A)
    " bra JOIN;\n"
    "ELSE:\n"
    " add.s32 %%r2, %%r2, 0;\n"
    WS_BLOCK(B)
    "JOIN:\n"
    " st.global.v4.u32 [%%rd5], {%%r10, %%r11, %%r12, %%r13};\n"
    " st.global.v4.u32 [%%rd5+16], {%%r14, %%r15, %%r16, %%r17};\n"
    " st.global.v4.u32 [%%rd5+32], {%%r18, %%r19, %%r21, %%r22};\n"
    " st.global.v4.u32 [%%rd5+48], {%%r23, %%r24, %%r25, %%r1};\n"
    " ret;\n}\n";

typedef struct {
    uint32_t a, b, c, mask, key, cond, pad[2];
} ws_in;

/* C model of one lane's results (spec semantics, each lane synchronising with the lanes of
 * its membermask, which all name the same mask). */
static void c_ws_lane(int mode, const ws_in *in, uint32_t l, uint32_t *o)
{
    uint32_t m = in[l].mask, a[32];
    for (int j = 0; j < 32; j++)
        a[j] = in[j].a;
    int pv;
    o[0] = c_shfl(mode, a, l, in[l].b, in[l].c, &pv);
    o[1] = (uint32_t)pv;
    uint32_t bal = 0, keys = 0, same = 1, sum = 0, mx = 0, x = 0;
    int32_t mn = INT32_MAX;
    for (uint32_t j = 0; j < 32; j++) {
        if (!(m >> j & 1))
            continue;
        bal |= (in[j].a & 1) << j;
        keys |= (uint32_t)(in[j].key == in[l].key) << j;
        same &= in[j].key == in[l].key;
        sum += in[j].a;
        mn = (int32_t)in[j].a < mn ? (int32_t)in[j].a : mn;
        mx = in[j].a > mx ? in[j].a : mx;
        x ^= in[j].a;
    }
    o[2] = bal;
    o[3] = (bal == m) | (bal != 0) << 1 | (bal == m || bal == 0) << 2;
    o[4] = keys;
    o[5] = same ? m : 0;
    o[6] = same;
    o[7] = sum;
    o[8] = (uint32_t)mn;
    o[9] = mx;
    o[10] = x;
    o[11] = (uint32_t)__builtin_ctz(m);
    o[12] = l == (uint32_t)__builtin_ctz(m);
    o[13] = bal;
    uint32_t act = 0;
    for (uint32_t j = 0; j < 32; j++)
        act |= (uint32_t)((in[j].cond != 0) == (in[l].cond != 0)) << j;
    o[14] = act;
    o[15] = l;
}

static uint32_t ws_rand(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* Run the kernel with shuffle mode `mode` on `in` and compare every lane with the model. */
static void ws_check(int mode, ws_in *in, const char *what)
{
    static const char *const modes[] = { "up", "down", "bfly", "idx" };
    char src[8192];
    snprintf(src, sizeof src, k_ws_fmt, modes[mode], modes[mode]);
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t p[2] = { t_buf_init(&t, in, 32 * sizeof *in), t_buf(&t, 32 * 64) };
    t_launch(&t, "k", 1, 32, p, sizeof p);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s: %s", what, st.msg);
    uint32_t out[32][16];
    t_read(&t, p[1], out, sizeof out);
    static const char *const names[] = {
        "shfl", "shfl pred", "ballot", "all|any|uni", "match.any", "match.all", "match.all pred",
        "redux.add", "redux.min", "redux.max", "redux.xor", "elect", "elect pred",
        "ballot after bar.warp.sync", "activemask", "laneid" };
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t want[16];
        c_ws_lane(mode, in, l, want);
        for (int k = 0; k < 16; k++)
            ck_assert_msg(out[l][k] == want[k], "%s: lane %u %s: got 0x%08x, want 0x%08x", what,
                          l, names[k], out[l][k], want[k]);
    }
    t_free(&t);
}

/* Fill a, key and cond; keys are uniform within the sets whose lowest lane is even. */
static void ws_fill(ws_in *in, uint32_t *seed, int diverge)
{
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t lo = (uint32_t)__builtin_ctz(in[l].mask);
        in[l].a = ws_rand(seed) * 2654435761u;
        in[l].key = (lo & 1) == 0 ? 7 + lo : ws_rand(seed) % 3;
        in[l].cond = diverge ? ws_rand(seed) % 3 == 0 : 0;
        in[l].pad[0] = in[l].pad[1] = 0;
    }
}

/* Tiles of w lanes as cooperative_groups makes them: mask of the tile; c = segment mask and
 * the clamp (0 for up). */
static void ws_tiles(ws_in *in, uint32_t w, int mode, uint32_t delta)
{
    uint32_t tm = w == 32 ? 0xffffffffu : (1u << w) - 1;
    for (uint32_t l = 0; l < 32; l++) {
        in[l].mask = tm << (l & ~(w - 1));
        in[l].b = delta;
        in[l].c = (32 - w) << 8 | (mode == 0 ? 0 : 31);
    }
}

START_TEST(test_tiles16)
{
    uint32_t seed = 99;
    for (int div = 0; div < 2; div++)
        for (uint32_t d = 1; d < 16; d <<= 1) {
            ws_in in[32];
            ws_tiles(in, 16, 2, d);
            ws_fill(in, &seed, div);
            ws_check(2, in, div ? "tiles of 16, bfly, divergent" : "tiles of 16, bfly");
        }
}
END_TEST

START_TEST(test_tiles8)
{
    uint32_t seed = 7;
    for (int div = 0; div < 2; div++)
        for (int mode = 0; mode < 4; mode++) {
            ws_in in[32];
            ws_tiles(in, 8, mode, mode == 3 ? 5 : 3);
            ws_fill(in, &seed, div);
            ws_check(mode, in, div ? "tiles of 8, divergent" : "tiles of 8");
        }
    /* tiles of 4 and of 2 */
    for (uint32_t w = 2; w <= 4; w <<= 1) {
        ws_in in[32];
        ws_tiles(in, w, 1, 1);
        ws_fill(in, &seed, 1);
        ws_check(1, in, "small tiles, down");
    }
}
END_TEST

/* A partition by tid % 3 (labeled_partition): shfl.idx reads the next member of the lane's
 * own group, cyclically. */
static void ws_labeled(ws_in *in, uint32_t (*label)(uint32_t), uint32_t *seed)
{
    uint32_t sets[32];
    memset(sets, 0, sizeof sets);
    for (uint32_t l = 0; l < 32; l++)
        sets[label(l)] |= 1u << l;
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t m = sets[label(l)], after = m & ~((2u << l) - 1);
        uint32_t pick = ws_rand(seed) % 2 ? (after ? after : m) : m;
        in[l].mask = m;
        in[l].b = (uint32_t)__builtin_ctz(pick);
        in[l].c = 31;
    }
}

static uint32_t lab_mod3(uint32_t l) { return l % 3; }
static uint32_t lab_mixed(uint32_t l)
{
    /* {0..15}, {16..23}, the even lanes of 24..31, the odd ones */
    return l < 16 ? 0 : l < 24 ? 1 : 2 + (l & 1);
}
static uint32_t lab_scatter(uint32_t l) { return (l * 11 + 3) % 7 % 5; }

START_TEST(test_labeled)
{
    uint32_t seed = 4242;
    static uint32_t (*const labels[])(uint32_t) = { lab_mod3, lab_mixed, lab_scatter };
    static const char *const names[] = { "labeled by tid%3", "mixed masks", "scattered sets" };
    for (int k = 0; k < 3; k++)
        for (int div = 0; div < 2; div++)
            for (int round = 0; round < 3; round++) {
                ws_in in[32];
                ws_labeled(in, labels[k], &seed);
                ws_fill(in, &seed, div);
                ws_check(3, in, names[k]);
            }
}
END_TEST

/* What the hardware tolerates, counted by a warp-sync hook (exec_set_ws_hook). */
typedef struct { int n[4]; uint32_t lanes[4], mask[4]; } ws_events;
static void ws_hook(void *ctx, exec_ws_event ev, uint32_t cta, uint32_t warp, uint32_t pc,
                    uint32_t lanes, uint32_t mask)
{
    ws_events *e = ctx;
    (void)cta; (void)warp; (void)pc;
    e->n[ev]++;
    e->lanes[ev] |= lanes;
    e->mask[ev] = mask;
}

/* Masks the ISA leaves undefined complete as on the hardware: a mask naming lanes past the end
 * of a partial warp (they count as exited), and lanes that run the instruction together with
 * different masks (lane 2 names lanes 0 and 1, which pass another mask); the hook hears both. */
static const char *k_wsbad = HDR
    ".visible .entry k(.param .u64 in)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [in];\n"
    " mov.u32 %r1, %laneid;\n"
    " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " ld.global.u32 %r2, [%rd3];\n"
    " add.u32 %r4, %r1, 100;\n"
    " shfl.sync.idx.b32 %r3, %r4, 0, 31, %r2;\n"
    " st.global.u32 [%rd3], %r3;\n"
    " ret;\n}\n";

START_TEST(test_ws_bad_masks)
{
    T t;
    ck_assert_msg(t_load(&t, k_wsbad) == 0, "%s", t.err);
    ws_events ev;
    memset(&ev, 0, sizeof ev);
    exec_set_ws_hook(t.m, ws_hook, &ev);
    uint32_t m1[24];
    for (int l = 0; l < 24; l++)
        m1[l] = l < 16 ? 0xffffu : 0xffff0000u;
    uint64_t p = t_buf_init(&t, m1, sizeof m1);
    t_launch(&t, "k", 1, 24, &p, sizeof p);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t r1[24];
    t_read(&t, p, r1, sizeof r1);
    for (int l = 0; l < 24; l++)
        ck_assert_uint_eq(r1[l], 100);   /* every lane reads lane 0's source */
    ck_assert_int_eq(ev.n[EXEC_WS_ABSENT], 1);
    ck_assert_uint_eq(ev.lanes[EXEC_WS_ABSENT], 0x00ff0000u);
    ck_assert_uint_eq(ev.mask[EXEC_WS_ABSENT], 0xffff0000u);
    ck_assert_int_eq(ev.n[EXEC_WS_MASKS_DIFFER], 0);
    ck_assert_int_eq(ev.n[EXEC_WS_NOT_MEMBER], 0);
    exec_free(t.m);
    t.m = exec_new(t.mod, t.err, sizeof t.err);
    memset(&ev, 0, sizeof ev);
    exec_set_ws_hook(t.m, ws_hook, &ev);
    uint32_t m2[3] = { 3, 3, 7 };
    p = t_buf_init(&t, m2, sizeof m2);
    t_launch(&t, "k", 1, 3, &p, sizeof p);
    st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t r2[3];
    t_read(&t, p, r2, sizeof r2);
    for (int l = 0; l < 3; l++)
        ck_assert_uint_eq(r2[l], 100);
    ck_assert_int_eq(ev.n[EXEC_WS_ABSENT], 0);
    ck_assert_int_eq(ev.n[EXEC_WS_MASKS_DIFFER], 1);
    ck_assert_uint_eq(ev.lanes[EXEC_WS_MASKS_DIFFER], 4);
    ck_assert_uint_eq(ev.mask[EXEC_WS_MASKS_DIFFER], 7);
    t_free(&t);
}
END_TEST

/* The whole warp shuffles with a mask naming lanes 0..15 only (HeCBench's btree splits a node
 * with __shfl_up_sync(0x0000ffff, v, 16)): lanes 16..31, outside the mask, get lanes 0..15's
 * values, as on the hardware; a vote's lanes outside the mask get the mask's result. */
static const char *k_wshalf = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %laneid;\n mul.lo.u32 %r2, %r1, 7;\n"
    " shfl.sync.up.b32 %r3|%p1, %r2, 16, 0, 0x0000ffff;\n selp.u32 %r4, 1, 0, %p1;\n"
    " setp.lt.u32 %p2, %r1, 5;\n vote.sync.ballot.b32 %r5, %p2, 0x0000ffff;\n"
    " mul.wide.u32 %rd2, %r1, 12; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r3; st.global.u32 [%rd3+4], %r4; st.global.u32 [%rd3+8], %r5;\n"
    " ret;\n}\n";

START_TEST(test_ws_outside_mask)
{
    T t;
    ck_assert_msg(t_load(&t, k_wshalf) == 0, "%s", t.err);
    ws_events ev;
    memset(&ev, 0, sizeof ev);
    exec_set_ws_hook(t.m, ws_hook, &ev);
    uint64_t out = t_buf(&t, 32 * 12);
    t_launch(&t, "k", 1, 32, &out, sizeof out);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t o[32][3];
    t_read(&t, out, o, sizeof o);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(o[l][0], l >= 16 ? (l - 16) * 7 : l * 7);
        ck_assert_uint_eq(o[l][1], l >= 16);
        ck_assert_uint_eq(o[l][2], 0x1fu);
    }
    ck_assert_int_eq(ev.n[EXEC_WS_NOT_MEMBER], 2);
    ck_assert_uint_eq(ev.lanes[EXEC_WS_NOT_MEMBER], 0xffff0000u);
    t_free(&t);
}
END_TEST

/* Each lane passes its own mask, as HeCBench's bscan does (__ballot_sync(lanemask_lt(), p)):
 * lanes executing together complete the instruction, each over its own mask's lanes (lane 0's
 * mask %lanemask_lt is empty). Block sizes 32, 20 and 8 (partial warps). Reference: C over
 * the lanes of each mask. */
static const char *k_wslt = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %r<24>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"
    " ld.param.u64 %rd1, [in]; ld.param.u64 %rd4, [out];\n"
    " mov.u32 %r1, %laneid; mov.u32 %r2, %lanemask_lt; mov.u32 %r3, %lanemask_le;\n"
    " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " ld.global.u32 %r4, [%rd3];\n"
    " and.b32 %r5, %r4, 1; setp.ne.u32 %p1, %r5, 0;\n"
    " vote.sync.ballot.b32 %r6, %p1, %r2;\n"
    " popc.b32 %r7, %r6;\n"
    " vote.sync.any.pred %p2, %p1, %r2; selp.u32 %r8, 1, 0, %p2;\n"
    " vote.sync.all.pred %p3, %p1, %r3; selp.u32 %r9, 1, 0, %p3;\n"
    " redux.sync.add.u32 %r10, %r4, %r3;\n"
    " and.b32 %r11, %r4, 3;\n"
    " match.any.sync.b32 %r12, %r11, %r3;\n"
    " shfl.sync.up.b32 %r13|%p4, %r4, 1, 0, %r3; selp.u32 %r14, 1, 0, %p4;\n"
    " mul.wide.u32 %rd5, %r1, 32; add.s64 %rd6, %rd4, %rd5;\n"
    " st.global.v4.u32 [%rd6], {%r6, %r7, %r8, %r9};\n"
    " st.global.v4.u32 [%rd6+16], {%r10, %r12, %r13, %r14};\n"
    " ret;\n}\n";

START_TEST(test_ws_own_masks)
{
    static const uint32_t sizes[] = { 32, 20, 8 };
    uint32_t seed = 777;
    for (int k = 0; k < 3; k++) {
        uint32_t n = sizes[k], in[32], o[32][8];
        for (uint32_t l = 0; l < 32; l++)
            in[l] = ws_rand(&seed) % 1000;
        T t;
        ck_assert_msg(t_load(&t, k_wslt) == 0, "%s", t.err);
        ws_events ev;
        memset(&ev, 0, sizeof ev);
        exec_set_ws_hook(t.m, ws_hook, &ev);
        uint64_t p[2] = { t_buf_init(&t, in, sizeof in), t_buf(&t, sizeof o) };
        t_launch(&t, "k", 1, n, p, sizeof p);
        exec_stop st = t_run(&t);
        ck_assert_msg(st.kind == EXEC_STOP_DONE, "block %u: %s", n, st.msg);
        t_read(&t, p[1], o, sizeof o);
        for (uint32_t l = 0; l < n; l++) {
            uint32_t ballot = 0, all = 1, sum = 0, match = 0;
            for (uint32_t j = 0; j < l; j++)
                ballot |= (in[j] & 1) << j;
            for (uint32_t j = 0; j <= l; j++) {
                all &= in[j] & 1;
                sum += in[j];
                match |= (uint32_t)((in[j] & 3) == (in[l] & 3)) << j;
            }
            const uint32_t want[8] = { ballot, (uint32_t)__builtin_popcount(ballot),
                                       ballot != 0, all, sum, match, l ? in[l - 1] : in[l],
                                       l > 0 };
            for (int i = 0; i < 8; i++)
                ck_assert_msg(o[l][i] == want[i], "block %u, lane %u, value %d: %u, want %u",
                              n, l, i, o[l][i], want[i]);
        }
        /* every lane's mask differs from its neighbours': each instruction but lane 0's and
           lane 1's sets (their masks name only lanes of their own set or none) */
        ck_assert_int_gt(ev.n[EXEC_WS_MASKS_DIFFER], 0);
        ck_assert_int_eq(ev.n[EXEC_WS_ABSENT], 0);
        ck_assert_int_gt(ev.n[EXEC_WS_NOT_MEMBER], 0);   /* %lanemask_lt omits the lane */
        t_free(&t);
    }
}
END_TEST

/* Full-mask vote/shfl/match/redux/elect/bar.warp.sync in a warp whose lanes >= E exited:
 * per the ISA they wait only for the non-exited threads of the mask and compute over them.
 * %s is the exit form: `@%p1 exit;` before the operations (exited already), or a branch to an
 * exit after them (the others reach the first operation, wait, and are released when these
 * lanes exit). Reference: the ISA's definitions over the live lanes 0..E-1. */
static const char *k_wsexit_fmt = HDR
    ".visible .entry k(.param .u64 out, .param .u32 e)\n{\n"
    " .reg .b32 %%r<24>; .reg .b64 %%rd<8>; .reg .pred %%p<8>;\n"
    " ld.param.u64 %%rd1, [out]; ld.param.u32 %%r9, [e];\n"
    " mov.u32 %%r1, %%laneid;\n"
    " setp.ge.u32 %%p1, %%r1, %%r9;\n"
    " %s\n"
    " and.b32 %%r2, %%r1, 1; setp.ne.u32 %%p2, %%r2, 0;\n"
    " vote.sync.ballot.b32 %%r3, %%p2, 0xffffffff;\n"
    " vote.sync.all.pred %%p3, %%p2, 0xffffffff; selp.u32 %%r4, 1, 0, %%p3;\n"
    " vote.sync.any.pred %%p3, %%p2, 0xffffffff; selp.u32 %%r5, 1, 0, %%p3;\n"
    " mul.lo.u32 %%r6, %%r1, 3;\n"
    " shfl.sync.idx.b32 %%r7|%%p4, %%r6, 0, 31, 0xffffffff; selp.u32 %%r8, 1, 0, %%p4;\n"
    " rem.u32 %%r10, %%r1, 3;\n"
    " match.any.sync.b32 %%r11, %%r10, 0xffffffff;\n"
    " match.all.sync.b32 %%r12|%%p5, 5, 0xffffffff; selp.u32 %%r13, 1, 0, %%p5;\n"
    " redux.sync.add.u32 %%r14, %%r1, 0xffffffff;\n"
    " redux.sync.max.u32 %%r15, %%r6, 0xffffffff;\n"
    " bar.warp.sync 0xffffffff;\n"
    " elect.sync %%r16|%%p6, 0xffffffff; selp.u32 %%r17, 1, 0, %%p6;\n"
    " mul.wide.u32 %%rd2, %%r1, 64; add.s64 %%rd3, %%rd1, %%rd2;\n"
    " st.global.v4.u32 [%%rd3], {%%r3, %%r4, %%r5, %%r7};\n"
    " st.global.v4.u32 [%%rd3+16], {%%r8, %%r11, %%r12, %%r13};\n"
    " st.global.v4.u32 [%%rd3+32], {%%r14, %%r15, %%r16, %%r17};\n"
    " ret;\n"
    "LATE:\n exit;\n}\n";

START_TEST(test_ws_exited_lanes)
{
    /* form 2: a block of E threads, whose lanes >= E do not exist (they count as exited) */
    static const char *const forms[] = { "@%p1 exit;", "@%p1 bra LATE;", "" };
    static const uint32_t es[] = { 1, 2, 7, 16, 29, 31, 32 };
    for (int f = 0; f < 3; f++)
        for (size_t k = 0; k < sizeof es / sizeof es[0]; k++) {
            uint32_t e = es[k], live = e == 32 ? 0xffffffffu : (1u << e) - 1;
            char src[4096];
            snprintf(src, sizeof src, k_wsexit_fmt, forms[f]);
            T t;
            ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
            struct { uint64_t out; uint32_t e, pad; } p = { t_buf(&t, 32 * 64), e, 0 };
            t_launch(&t, "k", 1, f == 2 ? e : 32, &p, 12);
            exec_stop st = t_run(&t);
            ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s exit, E=%u: %s", forms[f], e, st.msg);
            uint32_t o[32][16];
            t_read(&t, p.out, o, sizeof o);
            uint32_t odd = live & 0xaaaaaaaau, sum = 0, mx = 0;
            for (uint32_t l = 0; l < e; l++) {
                sum += l;
                mx = 3 * l > mx ? 3 * l : mx;
            }
            for (uint32_t l = 0; l < e; l++) {
                uint32_t same = 0;
                for (uint32_t j = 0; j < e; j++)
                    same |= (uint32_t)(j % 3 == l % 3) << j;
                const uint32_t want[12] = { odd, odd == live, odd != 0, 0, 1, same, live, 1,
                                            sum, mx, 0, l == 0 };
                for (int i = 0; i < 12; i++)
                    ck_assert_msg(o[l][i] == want[i], "%s exit, E=%u, lane %u, value %d: %#x, "
                                  "want %#x", forms[f], e, l, i, o[l][i], want[i]);
            }
            t_free(&t);
        }
}
END_TEST

/* nvcc output (tests/fixtures/kernels/warptiles.cu) in the three builds, against C: a row
 * scan by blocks of 8 and 16 threads with full-mask shuffles (the lanes past the block do not
 * exist), a ballot over each lane's %lanemask_lt, and cooperative groups' tiles of 64 threads,
 * whose reductions keep state in the reserved shared memory (%reserved_smem_offset_1). */
static void run_warptiles(const char *path)
{
    T t;
    t_load_file(&t, path);
    int32_t in[256];
    for (int i = 0; i < 256; i++)
        in[i] = (int32_t)(i * 7919 % 1000) - 500;
    uint64_t src = t_buf_init(&t, in, sizeof in);
    for (uint64_t width = 8; width <= 16; width *= 2) {
        int32_t r[48];
        uint64_t a[3] = { src, t_buf(&t, sizeof r), width };
        t_launch_args(&t, "_Z8row_scanPKiPii", 3, (unsigned)width, a, 3);
        exec_stop st = t_run(&t);
        ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s: %s", path, st.msg);
        t_read(&t, a[1], r, (size_t)(3 * width * 4));
        for (uint64_t row = 0; row < 3; row++)
            for (uint64_t k = 0, acc = 0; k < width; k++) {
                acc += (uint64_t)(int64_t)in[row * width + k];
                ck_assert_int_eq(r[row * width + k], (int32_t)acc);
            }
    }
    int32_t cnt[64];
    uint64_t b[2] = { src, t_buf(&t, sizeof cnt) };
    t_launch_args(&t, "_Z5belowPKiPi", 2, 32, b, 2);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s: %s", path, st.msg);
    t_read(&t, b[1], cnt, sizeof cnt);
    for (int i = 0; i < 64; i++) {
        int want = 0;
        for (int j = i / 32 * 32; j < i; j++)
            want += in[j] % 3 != 0;
        ck_assert_int_eq(cnt[i], want);
    }
    int32_t sums[4];
    uint64_t c[2] = { src, t_buf(&t, sizeof sums) };
    t_launch_args(&t, "_Z10tile64_sumPKiPi", 2, 128, c, 2);
    st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s: %s", path, st.msg);
    t_read(&t, c[1], sums, sizeof sums);
    for (int k = 0; k < 4; k++) {
        int32_t want = 0;
        for (int j = 0; j < 64; j++)
            want += in[k * 64 + j];
        ck_assert_int_eq(sums[k], want);
    }
    t_free(&t);
}

START_TEST(test_warptiles_fixture)
{
    run_warptiles("tests/fixtures/kernels/warptiles.G.ptx");
    run_warptiles("tests/fixtures/kernels/warptiles.O3.ptx");
    run_warptiles("tests/fixtures/kernels/warptiles.lineinfo.ptx");
}
END_TEST

/* nvcc output using warpSize (tests/fixtures/kernels/warpsize.cu: the PTX reads WARP_SZ) in
 * the three builds, against C: lane/warp numbers of a grid with a partial last block, a
 * shuffle warp-sum whose offsets come from warpSize, and a strided loop. */
static void run_warpsize(const char *path)
{
    T t;
    t_load_file(&t, path);
    enum { N = 100 };
    uint64_t out = t_buf(&t, 3 * 4 * N);
    uint64_t a1[2] = { out, N };
    t_launch_args(&t, "_Z9warp_infoPji", 2, 64, a1, 2);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s: %s", path, st.msg);
    uint32_t o[N][3];
    t_read(&t, out, o, sizeof o);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t tid = i % 64;
        ck_assert_uint_eq(o[i][0], 32);
        ck_assert_uint_eq(o[i][1], tid % 32);
        ck_assert_uint_eq(o[i][2], tid / 32);
    }
    int32_t in[128], sums[4];
    for (int i = 0; i < 128; i++)
        in[i] = (int32_t)(i * 7919 % 1000) - 500;
    uint64_t a2[2] = { t_buf_init(&t, in, sizeof in), t_buf(&t, sizeof sums) };
    t_launch_args(&t, "_Z8warp_sumPKiPi", 2, 64, a2, 2);
    st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s: %s", path, st.msg);
    t_read(&t, a2[1], sums, sizeof sums);
    for (int w = 0; w < 4; w++) {
        int32_t want = 0;
        for (int l = 0; l < 32; l++)
            want += in[w * 32 + l];
        ck_assert_int_eq(sums[w], want);
    }
    int32_t d[77];
    for (int i = 0; i < 77; i++)
        d[i] = i - 30;
    uint64_t a3[2] = { t_buf_init(&t, d, sizeof d), 77 };
    t_launch_args(&t, "_Z7stridedPii", 1, 32, a3, 2);
    st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s: %s", path, st.msg);
    int32_t r[77];
    t_read(&t, a3[0], r, sizeof r);
    for (int i = 0; i < 77; i++)
        ck_assert_int_eq(r[i], (i - 30) * 2 + 32);
    t_free(&t);
}

START_TEST(test_warpsize_fixture)
{
    run_warpsize("tests/fixtures/kernels/warpsize.G.ptx");
    run_warpsize("tests/fixtures/kernels/warpsize.O3.ptx");
    run_warpsize("tests/fixtures/kernels/warpsize.lineinfo.ptx");
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
    tcase_add_test(tc, test_ws_exited_lanes);
    tcase_add_test(tc, test_warpsize_fixture);
    tcase_add_test(tc, test_atomics);
    tcase_add_test(tc, test_atomics_wide);
    tcase_add_test(tc, test_tile_masks_repro);
    tcase_add_test(tc, test_tiles16);
    tcase_add_test(tc, test_tiles8);
    tcase_add_test(tc, test_labeled);
    tcase_add_test(tc, test_ws_bad_masks);
    tcase_add_test(tc, test_ws_own_masks);
    tcase_add_test(tc, test_ws_outside_mask);
    tcase_add_test(tc, test_warptiles_fixture);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
