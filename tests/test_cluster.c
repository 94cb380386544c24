/* test_cluster.c - thread block clusters: launch shape, co-scheduling, barrier.cluster,
 * distributed shared memory (mapa, getctarank, ld/st/atom .shared::cluster, generic windows),
 * cluster special registers, misuse errors; the corpus cluster fixture through the core API
 * and through the batch contract. */
#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core_harness.h"
#include "run_ptxdbg.h"

static exec_stop t_exc(T *t, exec_exc e, const char *want)
{
    exec_stop st = t_run(t);
    ck_assert_msg(st.kind == EXEC_STOP_EXCEPTION, "stop %d: %s", st.kind, st.msg);
    ck_assert_msg(st.exc == e, "exc %d (want %d): %s", st.exc, e, st.msg);
    ck_assert_msg(strstr(st.msg, want) != NULL, "'%s' not in '%s'", want, st.msg);
    return st;
}

static void t_done(T *t)
{
    exec_stop st = t_run(t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "stop %d: %s", st.kind, st.msg);
}

/* Launch with explicit grid/block/cluster dims and one pointer parameter (+ optional int). */
static int t_launch3(T *t, const char *k, exec_dim3 g, exec_dim3 b, exec_dim3 cl, uint64_t p0,
                     int32_t p1, int nparams)
{
    const ptx_func *f = ptx_find_func(t->mod, k);
    ck_assert_ptr_nonnull(f);
    uint8_t buf[16];
    memset(buf, 0, sizeof buf);
    memcpy(buf, &p0, 8);
    memcpy(buf + 8, &p1, 4);
    ck_assert_int_eq(exec_set_cluster_dims(t->m, cl), 0);
    return exec_launch(t->m, f, g, b, 0, buf, nparams == 2 ? 12 : 8);
}

static const exec_dim3 D1 = { 1, 1, 1 }, D0 = { 0, 0, 0 };

/* ---- DSMEM ring: every CTA reads its right neighbour's shared array through mapa --------- */
static const char *k_ring = HDR
    ".visible .entry ring(.param .u64 out)\n"
    ".explicitcluster\n.reqnctapercluster 4, 1, 1\n{\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<10>; .reg .pred %p<2>;\n"
    " .shared .align 4 .b32 s[64];\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, %cluster_ctarank; mov.u32 %r3, %cluster_nctarank;\n"
    " mov.u32 %r4, %ctaid.x;\n"
    " mad.lo.u32 %r5, %r2, 1000, %r1;\n"
    " mov.u32 %r6, s; shl.b32 %r7, %r1, 2; add.u32 %r8, %r6, %r7;\n"
    " st.shared.u32 [%r8], %r5;\n"
    " barrier.cluster.arrive.release.aligned;\n"
    " barrier.cluster.wait.acquire.aligned;\n"
    " add.u32 %r9, %r2, 1; rem.u32 %r9, %r9, %r3;\n"
    /* shared::cluster form: s[63 - tid] of rank r+1 */
    " sub.u32 %r10, 63, %r1; shl.b32 %r10, %r10, 2; add.u32 %r10, %r6, %r10;\n"
    " mapa.shared::cluster.u32 %r11, %r10, %r9;\n"
    " ld.shared::cluster.u32 %r12, [%r11];\n"
    " getctarank.shared::cluster.u32 %r13, %r11;\n"
    /* generic form: s[tid] of rank r+1 via cvta + mapa.u64 + generic ld */
    " cvt.u64.u32 %rd3, %r8; cvta.shared.u64 %rd3, %rd3;\n"
    " mapa.u64 %rd4, %rd3, %r9;\n"
    " ld.u32 %r14, [%rd4];\n"
    " getctarank.u64 %r15, %rd4;\n"
    " barrier.cluster.arrive; barrier.cluster.wait;\n"
    " mov.u32 %r16, %ntid.x; mad.lo.u32 %r17, %r4, %r16, %r1; mul.wide.u32 %rd5, %r17, 16;\n"
    " add.u64 %rd6, %rd1, %rd5;\n"
    " st.global.v4.u32 [%rd6], {%r12, %r13, %r14, %r15};\n"
    " ret;\n}\n";

START_TEST(test_ring)
{
    T t;
    ck_assert_msg(t_load(&t, k_ring) == 0, "%s", t.err);
    enum { G = 8, B = 64 };
    uint64_t out = t_buf(&t, G * B * 16);
    exec_dim3 g = { G, 1, 1 }, b = { B, 1, 1 };
    ck_assert_msg(t_launch3(&t, "ring", g, b, D0, out, 0, 1) == 0, "%s", exec_errmsg(t.m));
    ck_assert_uint_eq(exec_current_launch(t.m)->cluster.x, 4);
    t_done(&t);
    static uint32_t o[G * B * 4];
    t_read(&t, out, o, sizeof o);
    for (int c = 0; c < G; c++)
        for (int i = 0; i < B; i++) {
            uint32_t nb = (uint32_t)(c % 4 + 1) % 4, *v = &o[(c * B + i) * 4];
            ck_assert_uint_eq(v[0], nb * 1000 + 63 - (uint32_t)i);
            ck_assert_uint_eq(v[1], nb);
            ck_assert_uint_eq(v[2], nb * 1000 + (uint32_t)i);
            ck_assert_uint_eq(v[3], nb);
        }
    t_free(&t);
}
END_TEST

/* ---- barrier.cluster ordering: rank 0 is slow; its value is seen after the wait ---------- */
static const char *k_order = HDR
    ".visible .entry order(.param .u64 out)\n"
    ".reqnctapercluster 2, 2, 1\n{\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<10>; .reg .pred %p<4>;\n"
    " .shared .align 4 .b32 v;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, %cluster_ctarank; mov.u32 %r19, 0;\n"
    " setp.ne.u32 %p1, %r2, 0; @%p1 bra ARR;\n"
    " mov.u32 %r3, 0;\n"
    "SPIN: add.u32 %r3, %r3, 1; setp.lt.u32 %p2, %r3, 5000; @%p2 bra SPIN;\n"
    " setp.ne.u32 %p3, %r1, 0; @%p3 bra ARR;\n"
    " mov.u32 %r4, 4242; st.shared.u32 [v], %r4;\n"
    "ARR: barrier.cluster.arrive.relaxed;\n"
    /* independent work between arrive and wait */
    " add.u32 %r19, %r1, 7;\n"
    " barrier.cluster.wait;\n"
    " mov.u32 %r5, v; mapa.shared::cluster.u32 %r6, %r5, 0;\n"
    " ld.shared::cluster.u32 %r7, [%r6];\n"
    " add.u32 %r7, %r7, %r19;\n"
    /* a second and a third phase: ranks add into rank 0's v one after the other */
    " barrier.cluster.arrive; barrier.cluster.wait;\n"
    " setp.ne.u32 %p3, %r1, 0; @%p3 bra SKIP;\n"
    " atom.shared::cluster.add.u32 %r8, [%r6], 1;\n"
    "SKIP: barrier.cluster.arrive; barrier.cluster.wait;\n"
    " ld.shared::cluster.u32 %r9, [%r6];\n"
    " mov.u32 %r10, %ctaid.x; mov.u32 %r11, %ctaid.y; mov.u32 %r12, %nctaid.x;\n"
    " mad.lo.u32 %r13, %r11, %r12, %r10; mov.u32 %r14, %ntid.x; mad.lo.u32 %r13, %r13, %r14, %r1;\n"
    " mul.wide.u32 %rd2, %r13, 8; add.u64 %rd3, %rd1, %rd2;\n"
    " st.global.v2.u32 [%rd3], {%r7, %r9};\n"
    " barrier.cluster.arrive; barrier.cluster.wait;\n"
    " ret;\n}\n";

START_TEST(test_barrier_order)
{
    T t;
    ck_assert_msg(t_load(&t, k_order) == 0, "%s", t.err);
    exec_dim3 g = { 4, 2, 1 }, b = { 40, 1, 1 };
    uint64_t out = t_buf(&t, 8 * 40 * 8);
    ck_assert_msg(t_launch3(&t, "order", g, b, D0, out, 0, 1) == 0, "%s", exec_errmsg(t.m));
    t_done(&t);
    static uint32_t o[8 * 40 * 2];
    t_read(&t, out, o, sizeof o);
    for (int c = 0; c < 8; c++)
        for (int i = 0; i < 40; i++) {
            ck_assert_uint_eq(o[(c * 40 + i) * 2], 4242u + (uint32_t)i + 7);
            ck_assert_uint_eq(o[(c * 40 + i) * 2 + 1], 4242u + 4);
        }
    t_free(&t);
}
END_TEST

/* ---- special registers per CTA, 1D and 2D cluster shapes ---------------------------------- */
static const char *k_sregs = HDR
    ".visible .entry sregs(.param .u64 out)\n{\n"
    " .reg .b32 %r<24>; .reg .b64 %rd<6>; .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x; setp.ne.u32 %p1, %r1, 0; @%p1 bra DONE;\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ctaid.y; mov.u32 %r4, %nctaid.x;\n"
    " mad.lo.u32 %r5, %r3, %r4, %r2; mul.wide.u32 %rd2, %r5, 64; add.u64 %rd3, %rd1, %rd2;\n"
    " mov.u32 %r6, %clusterid.x; mov.u32 %r7, %clusterid.y; mov.u32 %r8, %clusterid.z;\n"
    " mov.u32 %r9, %nclusterid.x; mov.u32 %r10, %nclusterid.y; mov.u32 %r11, %nclusterid.z;\n"
    " mov.u32 %r12, %cluster_ctaid.x; mov.u32 %r13, %cluster_ctaid.y; mov.u32 %r14, %cluster_ctaid.z;\n"
    " mov.u32 %r15, %cluster_nctaid.x; mov.u32 %r16, %cluster_nctaid.y; mov.u32 %r17, %cluster_nctaid.z;\n"
    " mov.u32 %r18, %cluster_ctarank; mov.u32 %r19, %cluster_nctarank;\n"
    " mov.pred %p2, %is_explicit_cluster; selp.u32 %r20, 1, 0, %p2;\n"
    " st.global.v4.u32 [%rd3], {%r6, %r7, %r8, %r9};\n"
    " st.global.v4.u32 [%rd3+16], {%r10, %r11, %r12, %r13};\n"
    " st.global.v4.u32 [%rd3+32], {%r14, %r15, %r16, %r17};\n"
    " st.global.v4.u32 [%rd3+48], {%r18, %r19, %r20, %r5};\n"
    "DONE: ret;\n}\n";

static void check_sregs(exec_dim3 cd, int expl)
{
    T t;
    ck_assert_msg(t_load(&t, k_sregs) == 0, "%s", t.err);
    exec_dim3 g = { 4, 4, 1 }, b = { 32, 1, 1 };
    uint64_t out = t_buf(&t, 16 * 64);
    ck_assert_msg(t_launch3(&t, "sregs", g, b, expl ? cd : D0, out, 0, 1) == 0, "%s",
                  exec_errmsg(t.m));
    t_done(&t);
    uint32_t o[16 * 16];
    t_read(&t, out, o, sizeof o);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            const uint32_t *v = &o[(y * 4 + x) * 16];
            uint32_t want[16] = { x / cd.x, y / cd.y, 0, 4 / cd.x, 4 / cd.y, 1, x % cd.x,
                                  y % cd.y, 0, cd.x, cd.y, 1, x % cd.x + (y % cd.y) * cd.x,
                                  cd.x * cd.y, (uint32_t)expl, y * 4 + x };
            for (int k = 0; k < 16; k++)
                ck_assert_msg(v[k] == want[k], "CTA (%u,%u) cluster (%u,%u) field %d: %u, want %u",
                              x, y, cd.x, cd.y, k, v[k], want[k]);
        }
    t_free(&t);
}

START_TEST(test_sregs_shapes)
{
    exec_dim3 c1 = { 4, 1, 1 }, c2 = { 2, 2, 1 }, c3 = { 1, 4, 1 };
    check_sregs(D1, 0);     /* no clusters: each CTA its own 1x1x1 cluster */
    check_sregs(c1, 1);
    check_sregs(c2, 1);
    check_sregs(c3, 1);
    check_sregs(D1, 1);     /* explicit 1x1x1 clusters: the one-CTA path, explicit */
}
END_TEST

/* ---- histogram spread over the cluster's shared memories ---------------------------------- */
/* Bin b (0..16*n-1) lives in rank b/16's shared bins[b%16]; every thread adds its values with
 * atom.shared::cluster; then each CTA writes its 16 bins. */
static const char *k_hist = HDR
    ".visible .entry hist(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %r<30>; .reg .b64 %rd<10>; .reg .pred %p<3>;\n"
    " .shared .align 4 .b32 bins[16];\n"
    " ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, %cluster_ctarank; mov.u32 %r3, %cluster_nctarank;\n"
    " setp.lt.u32 %p1, %r1, 16; mov.u32 %r4, bins; shl.b32 %r5, %r1, 2; add.u32 %r5, %r4, %r5;\n"
    " mov.u32 %r6, 0; @%p1 st.shared.u32 [%r5], %r6;\n"
    " barrier.cluster.arrive; barrier.cluster.wait;\n"
    " mov.u32 %r7, %ctaid.x; mov.u32 %r8, %ntid.x; mad.lo.u32 %r9, %r7, %r8, %r1;\n"
    " mul.wide.u32 %rd3, %r9, 4; add.u64 %rd4, %rd1, %rd3; ld.global.u32 %r10, [%rd4];\n"
    " shl.b32 %r11, %r3, 4; rem.u32 %r12, %r10, %r11;\n"      /* bin */
    " shr.u32 %r13, %r12, 4; and.b32 %r14, %r12, 15;\n"       /* owner rank, local bin */
    " shl.b32 %r15, %r14, 2; add.u32 %r15, %r4, %r15;\n"
    " mapa.shared::cluster.u32 %r16, %r15, %r13;\n"
    " red.shared::cluster.add.u32 [%r16], 1;\n"
    " barrier.cluster.arrive; barrier.cluster.wait;\n"
    " @!%p1 bra DONE;\n"
    " ld.shared.u32 %r17, [%r5];\n"
    " shl.b32 %r18, %r7, 4; add.u32 %r18, %r18, %r1; mul.wide.u32 %rd5, %r18, 4;\n"
    " add.u64 %rd6, %rd2, %rd5; st.global.u32 [%rd6], %r17;\n"
    "DONE: ret;\n}\n";

START_TEST(test_histogram)
{
    enum { G = 8, B = 96, CL = 4 };
    T t;
    ck_assert_msg(t_load(&t, k_hist) == 0, "%s", t.err);
    static uint32_t in[G * B], out[G * 16], want[G * 16];
    uint32_t x = 12345;
    for (int i = 0; i < G * B; i++) {
        x = x * 1103515245u + 12345u;
        in[i] = x >> 8;
    }
    memset(want, 0, sizeof want);
    for (int i = 0; i < G * B; i++) {
        int cta = i / B, cl0 = cta / CL * CL, bin = (int)(in[i] % (16 * CL));
        want[(cl0 + bin / 16) * 16 + bin % 16]++;
    }
    uint64_t ain = t_buf_init(&t, in, sizeof in), aout = t_buf(&t, sizeof out);
    const ptx_func *f = ptx_find_func(t.mod, "hist");
    uint64_t p[2] = { ain, aout };
    exec_dim3 g = { G, 1, 1 }, b = { B, 1, 1 }, cd = { CL, 1, 1 };
    ck_assert_int_eq(exec_set_cluster_dims(t.m, cd), 0);
    ck_assert_msg(exec_launch(t.m, f, g, b, 0, p, sizeof p) == 0, "%s", exec_errmsg(t.m));
    t_done(&t);
    t_read(&t, aout, out, sizeof out);
    for (int i = 0; i < G * 16; i++)
        ck_assert_msg(out[i] == want[i], "bin %d: %u, want %u", i, out[i], want[i]);
    t_free(&t);
}
END_TEST

/* ---- debugging inside a cluster: breakpoint, inspection of a peer CTA, steps ---------------- */
START_TEST(test_break_step)
{
    T t;
    ck_assert_msg(t_load(&t, k_ring) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 8 * 64 * 16);
    exec_dim3 g = { 8, 1, 1 }, b = { 64, 1, 1 };
    ck_assert_int_eq(t_launch3(&t, "ring", g, b, D0, out, 0, 1), 0);
    /* the pc of the first barrier.cluster.wait */
    const ptx_func *f = ptx_find_func(t.mod, "ring");
    int64_t pc0 = exec_func_pc(t.m, f);
    uint32_t wpc = UINT32_MAX;
    for (int i = 0; i < f->ninsns && wpc == UINT32_MAX; i++)
        if (!strcmp(f->insns[i].opcode, "barrier") && ptx_insn_has_mod(&f->insns[i], "wait"))
            wpc = (uint32_t)(pc0 + i);
    ck_assert_uint_ne(wpc, UINT32_MAX);
    ck_assert_int_eq(exec_set_break(t.m, wpc + 1, 1), 0);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_BREAKPOINT, "%d %s", st.kind, st.msg);
    /* every CTA of cluster 0 is running; cluster 1 has not started */
    for (uint32_t c = 0; c < 4; c++)
        ck_assert_int_eq(exec_cta_get_state(t.m, c), EXEC_CTA_RUNNING);
    ck_assert_int_eq(exec_cta_get_state(t.m, 4), EXEC_CTA_NOT_STARTED);
    /* a peer CTA's warp can be inspected: all its lanes are past the arrive */
    exec_warp_info wi;
    ck_assert_int_eq(exec_warp_get(t.m, 2, 1, &wi), 0);
    ck_assert_uint_eq(wi.valid, 0xffffffffu);
    /* step a warp of CTA 3 across the second barrier: the other CTAs run to release it */
    ck_assert_int_eq(exec_set_break(t.m, wpc + 1, 0), 0);
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_STEP_WARP;
    o.cta = 3;
    o.warp = 1;
    int steps = 0;
    for (; steps < 100; steps++) {
        ck_assert_int_eq(exec_warp_get(t.m, 3, 1, &wi), 0);
        if (wi.exited == wi.valid)
            break;
        ck_assert_msg(exec_run(t.m, &o, &st) == 0, "step %d: %s", steps, exec_errmsg(t.m));
        ck_assert_msg(st.kind == EXEC_STOP_STEP, "%d %s", st.kind, st.msg);
        ck_assert_uint_eq(st.cta, 3);
    }
    ck_assert_int_gt(steps, 5);
    ck_assert_int_lt(steps, 100);
    t_done(&t);
    static uint32_t ov[8 * 64 * 4];
    t_read(&t, out, ov, sizeof ov);
    for (int c = 0; c < 8; c++)
        for (int i = 0; i < 64; i++)
            ck_assert_uint_eq(ov[(c * 64 + i) * 4 + 2], (uint32_t)(c % 4 + 1) % 4 * 1000 + (uint32_t)i);
    t_free(&t);
}
END_TEST

/* ---- misuse -------------------------------------------------------------------------------- */
START_TEST(test_launch_errors)
{
    T t;
    ck_assert_msg(t_load(&t, k_ring) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 4096);
    exec_dim3 b = { 32, 1, 1 }, g6 = { 6, 1, 1 }, g32 = { 32, 1, 1 };
    ck_assert_int_eq(t_launch3(&t, "ring", g6, b, D0, out, 0, 1), -1);
    ck_assert_msg(strstr(exec_errmsg(t.m), "not a multiple of the cluster") != NULL, "%s",
                  exec_errmsg(t.m));
    ck_assert_ptr_null(exec_current_launch(t.m));
    exec_dim3 c2 = { 2, 1, 1 };
    ck_assert_int_eq(t_launch3(&t, "ring", g32, b, c2, out, 0, 1), -1);
    ck_assert_msg(strstr(exec_errmsg(t.m), "differ from ring's .reqnctapercluster") != NULL,
                  "%s", exec_errmsg(t.m));
    t_free(&t);

    ck_assert_msg(t_load(&t, k_sregs) == 0, "%s", t.err);
    out = t_buf(&t, 64 * 64);
    exec_dim3 c17 = { 17, 1, 1 }, g34 = { 34, 1, 1 }, c16 = { 4, 4, 1 }, g16 = { 4, 4, 1 };
    ck_assert_int_eq(t_launch3(&t, "sregs", g34, b, c17, out, 0, 1), -1);
    ck_assert_msg(strstr(exec_errmsg(t.m), "a cluster holds 1 to 16 CTAs") != NULL, "%s",
                  exec_errmsg(t.m));
    ck_assert_int_eq(t_launch3(&t, "sregs", g16, b, c16, out, 0, 1), 0);  /* 16: accepted */
    t_done(&t);
    exec_dim3 bad = { 2, 0, 1 };
    ck_assert_int_eq(exec_set_cluster_dims(t.m, bad), -1);
    t_free(&t);

    /* .explicitcluster without any dimensions */
    static const char *k_expl = HDR
        ".visible .entry e(.param .u64 out)\n.explicitcluster\n{\n ret;\n}\n";
    ck_assert_msg(t_load(&t, k_expl) == 0, "%s", t.err);
    ck_assert_int_eq(t_launch3(&t, "e", g6, b, D0, 0, 0, 1), -1);
    ck_assert_msg(strstr(exec_errmsg(t.m), ".explicitcluster") != NULL, "%s", exec_errmsg(t.m));
    exec_dim3 c3 = { 3, 1, 1 };
    ck_assert_int_eq(t_launch3(&t, "e", g6, b, c3, 0, 0, 1), 0);
    t_done(&t);
    t_free(&t);
}
END_TEST

static const char *k_bad = HDR
    ".visible .entry bad(.param .u64 out, .param .u32 mode)\n"
    ".reqnctapercluster 4\n{\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<6>; .reg .pred %p<6>;\n"
    " .shared .align 4 .b32 s[8];\n"
    " ld.param.u32 %r1, [mode]; mov.u32 %r2, s; mov.u32 %r3, %cluster_ctarank;\n"
    " mov.u32 %r4, %tid.x;\n"
    " setp.eq.u32 %p1, %r1, 0; @%p1 bra M0;\n"
    " setp.eq.u32 %p1, %r1, 1; @%p1 bra M1;\n"
    " setp.eq.u32 %p1, %r1, 2; @%p1 bra M2;\n"
    " setp.eq.u32 %p1, %r1, 3; @%p1 bra M3;\n"
    " setp.eq.u32 %p1, %r1, 4; @%p1 bra M4;\n"
    " bra M5;\n"
    /* peer rank out of range */
    "M0: mapa.shared::cluster.u32 %r5, %r2, 4; ret;\n"
    /* a window past the last rank / past the shared block of a rank */
    "M1: mov.u32 %r5, 0x85000000; ld.shared::cluster.u32 %r6, [%r5]; ret;\n"
    "M2: mapa.shared::cluster.u32 %r5, %r2, 1; ld.shared::cluster.u32 %r6, [%r5+32]; ret;\n"
    /* wait without arrive; arrive twice */
    "M3: barrier.cluster.wait; ret;\n"
    "M4: barrier.cluster.arrive; barrier.cluster.arrive; ret;\n"
    /* deadlock: in rank 2, lanes 0-15 wait at barrier.cluster while the rest wait at bar.sync */
    "M5: setp.ne.u32 %p2, %r3, 2; @%p2 bra CL;\n"
    " setp.lt.u32 %p3, %r4, 16; @%p3 bra CL;\n"
    " bar.sync 1;\n"
    "CL: barrier.cluster.arrive; barrier.cluster.wait; ret;\n}\n";

START_TEST(test_runtime_errors)
{
    static const struct { int mode; exec_exc e; const char *msg; } cases[] = {
        { 0, EXEC_EXC_ILLEGAL_ADDRESS, "no such CTA in cluster: rank 4 (the cluster has 4" },
        { 1, EXEC_EXC_ILLEGAL_ADDRESS, "names CTA rank 5, but the cluster has 4 CTAs" },
        { 2, EXEC_EXC_OUT_OF_RANGE, "out-of-range shared::cluster access" },
        { 3, EXEC_EXC_ILLEGAL_INSN, "barrier.cluster.wait without a preceding" },
        { 4, EXEC_EXC_ILLEGAL_INSN, "already arrived" },
        { 5, EXEC_EXC_BARRIER_DEADLOCK, "wait at barrier.cluster" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        T t;
        ck_assert_msg(t_load(&t, k_bad) == 0, "%s", t.err);
        exec_dim3 g = { 8, 1, 1 }, b = { 32, 1, 1 };
        ck_assert_int_eq(t_launch3(&t, "bad", g, b, D0, 0, cases[c].mode, 2), 0);
        exec_stop st = t_exc(&t, cases[c].e, cases[c].msg);
        if (cases[c].mode == 5)
            ck_assert_msg(strstr(st.msg, "barrier 1") != NULL, "%s", st.msg);
        t_free(&t);
    }
}
END_TEST

/* ---- the corpus fixture (cluster.cu) through the core API ----------------------------------- */
static void corpus_expect(const int32_t *a, int32_t *o, int n)
{
    for (int bl = 0; bl < 8; bl++) {
        int rank = bl % 4, base = bl - rank, nb = (rank + 1) % 4, t0 = 0;
        for (int k = 0; k < 64; k++)
            t0 += a[base * 64 + k];
        for (int t = 0; t < 64; t++) {
            int i = bl * 64 + t;
            if (i >= n)
                continue;
            o[2 * i] = a[(base + nb) * 64 + 63 - t] * 10 + nb;
            o[2 * i + 1] = t0 + rank * 1000000 + 4;
        }
    }
}

START_TEST(test_corpus_core)
{
    static const char *const v[] = { "G", "O3", "lineinfo" };
    for (int k = 0; k < 3; k++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fixtures/corpus/cluster.%s.ptx", v[k]);
        T t;
        t_load_file(&t, path);
        static int32_t a[512], o[1000], want[1000];
        memset(a, 0, sizeof a);
        for (int i = 0; i < 500; i++)
            a[i] = (i * 37) % 2001 - 1000;
        memset(want, 0, sizeof want);
        corpus_expect(a, want, 500);
        uint64_t ain = t_buf_init(&t, a, sizeof a), aout = t_buf(&t, sizeof o);
        uint64_t p[3] = { ain, aout, 500 };
        t_launch_args(&t, "_Z11cluster_sumPKiPii", 8, 64, p, 3);
        t_done(&t);
        t_read(&t, aout, o, sizeof o);
        ck_assert_msg(!memcmp(o, want, sizeof o), "cluster.%s: results differ", v[k]);
        t_free(&t);
    }
}
END_TEST

/* ---- the batch contract -------------------------------------------------------------------- */
START_TEST(test_corpus_batch)
{
    char dir[] = "/tmp/ptxdbg-cluster.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    static int32_t a[512], want[1000], got[1000];   /* a[500..511]: zero, read by the formula */
    for (int i = 0; i < 500; i++)
        a[i] = (i * 53) % 1999 - 999;
    memset(want, 0, sizeof want);
    corpus_expect(a, want, 500);
    char p[512], cmd[4096];
    snprintf(p, sizeof p, "%s/in.bin", dir);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(a, 4, 500, f), 500);
    fclose(f);
    snprintf(p, sizeof p, "%s/c.cmd", dir);
    f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("buffer in s32 500 = file in.bin\nbuffer out s32 1000\n"
          "launch _Z11cluster_sumPKiPii<<<8, 64, cluster=(4,1,1)>>>(in, out, 500)\n"
          "dump out out.bin\n", f);
    fclose(f);
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    const char *bin = rp_ptxdbg();
    char abs_bin[1200];
    if (bin[0] == '/')
        snprintf(abs_bin, sizeof abs_bin, "%s", bin);
    else
        snprintf(abs_bin, sizeof abs_bin, "%s/%s", cwd, bin);
    snprintf(cmd, sizeof cmd, "cd %s && %s -batch -x c.cmd %s/tests/fixtures/corpus/cluster.O3.ptx "
             "2>&1", dir, abs_bin, cwd);
    int st = -1;
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(st == 0, "status %d: %s", st, out);
    free(out);
    snprintf(p, sizeof p, "%s/out.bin", dir);
    f = fopen(p, "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fread(got, 4, 1000, f), 1000);
    fclose(f);
    ck_assert_msg(!memcmp(got, want, sizeof got), "batch results differ");
    /* misuse through the command: grid not a multiple, mismatching cluster dims */
    snprintf(cmd, sizeof cmd, "cd %s && %s -batch -ex 'buffer in s32 500 = file in.bin' "
             "-ex 'buffer out s32 1000' -ex 'launch _Z11cluster_sumPKiPii<<<6, 64>>>(in, out, 500)' "
             "%s/tests/fixtures/corpus/cluster.O3.ptx 2>&1", dir, abs_bin, cwd);
    out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(st != 0 && strstr(out, "not a multiple of the cluster dimensions"), "%d: %s",
                  st, out);
    free(out);
    snprintf(cmd, sizeof cmd, "cd %s && %s -batch -ex 'buffer in s32 500 = file in.bin' "
             "-ex 'buffer out s32 1000' "
             "-ex 'launch _Z11cluster_sumPKiPii<<<8, 64, 0, cluster=(2,1,1)>>>(in, out, 500)' "
             "%s/tests/fixtures/corpus/cluster.O3.ptx 2>&1", dir, abs_bin, cwd);
    out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(st != 0 && strstr(out, "reqnctapercluster"), "%d: %s", st, out);
    free(out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cluster");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_ring);
    tcase_add_test(tc, test_barrier_order);
    tcase_add_test(tc, test_sregs_shapes);
    tcase_add_test(tc, test_histogram);
    tcase_add_test(tc, test_break_step);
    tcase_add_test(tc, test_launch_errors);
    tcase_add_test(tc, test_runtime_errors);
    tcase_add_test(tc, test_corpus_core);
    tcase_add_test(tc, test_corpus_batch);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
