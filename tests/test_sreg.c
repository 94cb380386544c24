/* test_sreg.c - special registers (PTX ISA chapter 10) read by kernels of 1D/2D/3D shapes with partial warps, checked per thread against the definitions. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "test_util.h"

/* ---- helpers --------------------------------------------------------------------------------- */
#define HDR ".version 8.5\n.target sm_90\n.address_size 64\n"
#include "core_harness.h"

/* Launch kernel `k` with one u64 parameter and run it to completion. */
static void t_go(T *t, const char *k, exec_dim3 g, exec_dim3 b, uint32_t dyn, uint64_t arg)
{
    t_launch_dims(t, k, g, b, dyn, &arg, 8);
    exec_stop st = t_run_steps(t, 50000000);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "stop %d exc %d: %s", (int)st.kind, (int)st.exc,
                  st.msg);
}

/* ---- one record of every special register per thread ------------------------------------------
 * Thread (cta, t) writes REC words at out + ((cta_linear * nthreads + t_linear) * REC) * 4. */
enum {
    W_TID = 0, W_NTID = 4, W_CTAID = 8, W_NCTAID = 12,           /* .x .y .z .w each */
    W_LANE = 16, W_WARP, W_NWARP, W_SM, W_NSM, W_GRID_LO, W_GRID_HI, W_GRID32,
    W_LM_EQ = 24, W_LM_LE, W_LM_LT, W_LM_GE, W_LM_GT,
    W_CLID = 29, W_NCLID = 32, W_CLCTA = 35, W_CLNCTA = 38, W_CLRANK = 41, W_CLNRANK,
    W_EXPLICIT, W_TOTAL_SMEM, W_DYN_SMEM, W_AGGR_SMEM, W_RES_BEGIN, W_RES_END, W_RES_CAP,
    W_RES0, W_RES1, W_TID16X, W_TIDZ_CVT, W_NTID16, W_CTAID16, W_GRAPH_LO, W_GRAPH_HI,
    W_PM = 64, W_PM64 = 72, W_PM64HI = 80, W_ENV = 88,
    REC = 128
};

static const char *k_sregs = HDR
    ".shared .align 4 .b8 sbuf[100];\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<40>; .reg .b64 %rd<8>; .reg .b16 %h<4>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [out];\n"
    /* linear thread and CTA numbers */
    " mov.u32 %r1, %tid.x; mov.u32 %r2, %tid.y; mov.u32 %r3, %tid.z;\n"
    " mov.u32 %r4, %ntid.x; mov.u32 %r5, %ntid.y; mov.u32 %r6, %ntid.z;\n"
    " mad.lo.u32 %r7, %r3, %r5, %r2;\n"
    " mad.lo.u32 %r7, %r7, %r4, %r1;\n"                     /* t_linear */
    " mul.lo.u32 %r8, %r4, %r5;\n mul.lo.u32 %r8, %r8, %r6;\n" /* nthreads */
    " mov.u32 %r9, %ctaid.x; mov.u32 %r10, %ctaid.y; mov.u32 %r11, %ctaid.z;\n"
    " mov.u32 %r12, %nctaid.x; mov.u32 %r13, %nctaid.y;\n"
    " mad.lo.u32 %r14, %r11, %r13, %r10;\n"
    " mad.lo.u32 %r14, %r14, %r12, %r9;\n"                  /* cta_linear */
    " mad.lo.u32 %r15, %r14, %r8, %r7;\n"
    " mul.wide.u32 %rd2, %r15, 512;\n"
    " add.u64 %rd1, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd1+0], {%r1, %r2, %r3, %r3};\n"
    " mov.u32 %r16, %tid.w; st.global.u32 [%rd1+12], %r16;\n"
    " st.global.v2.u32 [%rd1+16], {%r4, %r5};\n st.global.u32 [%rd1+24], %r6;\n"
    " mov.u32 %r16, %ntid.w; st.global.u32 [%rd1+28], %r16;\n"
    " st.global.v2.u32 [%rd1+32], {%r9, %r10};\n st.global.u32 [%rd1+40], %r11;\n"
    " mov.u32 %r16, %ctaid.w; st.global.u32 [%rd1+44], %r16;\n"
    " mov.u32 %r16, %nctaid.z;\n"
    " st.global.v4.u32 [%rd1+48], {%r12, %r13, %r16, %r16};\n"
    " mov.u32 %r16, %nctaid.w; st.global.u32 [%rd1+60], %r16;\n"
    " mov.u32 %r16, %laneid; mov.u32 %r17, %warpid; mov.u32 %r18, %nwarpid; mov.u32 %r19, %smid;\n"
    " st.global.v4.u32 [%rd1+64], {%r16, %r17, %r18, %r19};\n"
    " mov.u32 %r16, %nsmid; mov.u64 %rd3, %gridid; mov.b64 {%r17, %r18}, %rd3;\n"
    " mov.u32 %r19, %gridid;\n"
    " st.global.v4.u32 [%rd1+80], {%r16, %r17, %r18, %r19};\n"
    " mov.u32 %r16, %lanemask_eq; mov.u32 %r17, %lanemask_le; mov.u32 %r18, %lanemask_lt;\n"
    " mov.u32 %r19, %lanemask_ge; mov.u32 %r20, %lanemask_gt;\n"
    " st.global.u32 [%rd1+96], %r16; st.global.u32 [%rd1+100], %r17;\n"
    " st.global.u32 [%rd1+104], %r18; st.global.u32 [%rd1+108], %r19;\n"
    " st.global.u32 [%rd1+112], %r20;\n"
    " mov.u32 %r16, %clusterid.x; mov.u32 %r17, %clusterid.y; mov.u32 %r18, %clusterid.z;\n"
    " st.global.u32 [%rd1+116], %r16; st.global.u32 [%rd1+120], %r17; st.global.u32 [%rd1+124], %r18;\n"
    " mov.u32 %r16, %nclusterid.x; mov.u32 %r17, %nclusterid.y; mov.u32 %r18, %nclusterid.z;\n"
    " st.global.u32 [%rd1+128], %r16; st.global.u32 [%rd1+132], %r17; st.global.u32 [%rd1+136], %r18;\n"
    " mov.u32 %r16, %cluster_ctaid.x; mov.u32 %r17, %cluster_ctaid.y; mov.u32 %r18, %cluster_ctaid.z;\n"
    " st.global.u32 [%rd1+140], %r16; st.global.u32 [%rd1+144], %r17; st.global.u32 [%rd1+148], %r18;\n"
    " mov.u32 %r16, %cluster_nctaid.x; mov.u32 %r17, %cluster_nctaid.y; mov.u32 %r18, %cluster_nctaid.z;\n"
    " st.global.u32 [%rd1+152], %r16; st.global.u32 [%rd1+156], %r17; st.global.u32 [%rd1+160], %r18;\n"
    " mov.u32 %r16, %cluster_ctarank; mov.u32 %r17, %cluster_nctarank;\n"
    " st.global.u32 [%rd1+164], %r16; st.global.u32 [%rd1+168], %r17;\n"
    " mov.pred %p1, %is_explicit_cluster;\n"
    " selp.u32 %r16, 1, 0, %p1; st.global.u32 [%rd1+172], %r16;\n"
    " mov.u32 %r16, %total_smem_size; mov.u32 %r17, %dynamic_smem_size; mov.u32 %r18, %aggr_smem_size;\n"
    " st.global.u32 [%rd1+176], %r16; st.global.u32 [%rd1+180], %r17; st.global.u32 [%rd1+184], %r18;\n"
    " mov.u32 %r16, %reserved_smem_offset_begin; mov.u32 %r17, %reserved_smem_offset_end;\n"
    " mov.u32 %r18, %reserved_smem_offset_cap; mov.u32 %r19, %reserved_smem_offset_0;\n"
    " mov.u32 %r20, %reserved_smem_offset_1;\n"
    " st.global.u32 [%rd1+188], %r16; st.global.u32 [%rd1+192], %r17; st.global.u32 [%rd1+196], %r18;\n"
    " st.global.u32 [%rd1+200], %r19; st.global.u32 [%rd1+204], %r20;\n"
    /* legacy 16-bit reads of the lower halves */
    " mov.u16 %h1, %tid.x; cvt.u32.u16 %r16, %h1; st.global.u32 [%rd1+208], %r16;\n"
    " cvt.u32.u16 %r16, %tid.z; st.global.u32 [%rd1+212], %r16;\n"
    " mov.u16 %h2, %ntid.y; st.global.u16 [%rd1+216], %h2;\n"
    " mov.u16 %h3, %ctaid.y; st.global.u16 [%rd1+220], %h3;\n"
    " mov.u64 %rd4, %current_graph_exec; st.global.u64 [%rd1+224], %rd4;\n"
    /* performance counters and environment registers */
    " mov.u32 %r20, %pm0; mov.u32 %r21, %pm1; mov.u32 %r22, %pm2; mov.u32 %r23, %pm3;\n"
    " st.global.v4.u32 [%rd1+256], {%r20, %r21, %r22, %r23};\n"
    " mov.u32 %r20, %pm4; mov.u32 %r21, %pm5; mov.u32 %r22, %pm6; mov.u32 %r23, %pm7;\n"
    " st.global.v4.u32 [%rd1+272], {%r20, %r21, %r22, %r23};\n"
    " mov.u64 %rd4, %pm0_64; st.global.u32 [%rd1+288], %rd4; shr.u64 %rd4, %rd4, 32; st.global.u32 [%rd1+320], %rd4;\n"
    " mov.u64 %rd4, %pm1_64; st.global.u32 [%rd1+292], %rd4; shr.u64 %rd4, %rd4, 32; st.global.u32 [%rd1+324], %rd4;\n"
    " mov.u64 %rd4, %pm2_64; st.global.u32 [%rd1+296], %rd4; shr.u64 %rd4, %rd4, 32; st.global.u32 [%rd1+328], %rd4;\n"
    " mov.u64 %rd4, %pm3_64; st.global.u32 [%rd1+300], %rd4; shr.u64 %rd4, %rd4, 32; st.global.u32 [%rd1+332], %rd4;\n"
    " mov.u64 %rd4, %pm4_64; st.global.u32 [%rd1+304], %rd4; shr.u64 %rd4, %rd4, 32; st.global.u32 [%rd1+336], %rd4;\n"
    " mov.u64 %rd4, %pm5_64; st.global.u32 [%rd1+308], %rd4; shr.u64 %rd4, %rd4, 32; st.global.u32 [%rd1+340], %rd4;\n"
    " mov.u64 %rd4, %pm6_64; st.global.u32 [%rd1+312], %rd4; shr.u64 %rd4, %rd4, 32; st.global.u32 [%rd1+344], %rd4;\n"
    " mov.u64 %rd4, %pm7_64; st.global.u32 [%rd1+316], %rd4; shr.u64 %rd4, %rd4, 32; st.global.u32 [%rd1+348], %rd4;\n"
    " mov.b32 %r20, %envreg0; st.global.u32 [%rd1+352], %r20;\n"
    " mov.b32 %r20, %envreg1; st.global.u32 [%rd1+356], %r20;\n"
    " mov.b32 %r20, %envreg2; st.global.u32 [%rd1+360], %r20;\n"
    " mov.b32 %r20, %envreg3; st.global.u32 [%rd1+364], %r20;\n"
    " mov.b32 %r20, %envreg4; st.global.u32 [%rd1+368], %r20;\n"
    " mov.b32 %r20, %envreg5; st.global.u32 [%rd1+372], %r20;\n"
    " mov.b32 %r20, %envreg6; st.global.u32 [%rd1+376], %r20;\n"
    " mov.b32 %r20, %envreg7; st.global.u32 [%rd1+380], %r20;\n"
    " mov.b32 %r20, %envreg8; st.global.u32 [%rd1+384], %r20;\n"
    " mov.b32 %r20, %envreg9; st.global.u32 [%rd1+388], %r20;\n"
    " mov.b32 %r20, %envreg10; st.global.u32 [%rd1+392], %r20;\n"
    " mov.b32 %r20, %envreg11; st.global.u32 [%rd1+396], %r20;\n"
    " mov.b32 %r20, %envreg12; st.global.u32 [%rd1+400], %r20;\n"
    " mov.b32 %r20, %envreg13; st.global.u32 [%rd1+404], %r20;\n"
    " mov.b32 %r20, %envreg14; st.global.u32 [%rd1+408], %r20;\n"
    " mov.b32 %r20, %envreg15; st.global.u32 [%rd1+412], %r20;\n"
    " mov.b32 %r20, %envreg16; st.global.u32 [%rd1+416], %r20;\n"
    " mov.b32 %r20, %envreg17; st.global.u32 [%rd1+420], %r20;\n"
    " mov.b32 %r20, %envreg18; st.global.u32 [%rd1+424], %r20;\n"
    " mov.b32 %r20, %envreg19; st.global.u32 [%rd1+428], %r20;\n"
    " mov.b32 %r20, %envreg20; st.global.u32 [%rd1+432], %r20;\n"
    " mov.b32 %r20, %envreg21; st.global.u32 [%rd1+436], %r20;\n"
    " mov.b32 %r20, %envreg22; st.global.u32 [%rd1+440], %r20;\n"
    " mov.b32 %r20, %envreg23; st.global.u32 [%rd1+444], %r20;\n"
    " mov.b32 %r20, %envreg24; st.global.u32 [%rd1+448], %r20;\n"
    " mov.b32 %r20, %envreg25; st.global.u32 [%rd1+452], %r20;\n"
    " mov.b32 %r20, %envreg26; st.global.u32 [%rd1+456], %r20;\n"
    " mov.b32 %r20, %envreg27; st.global.u32 [%rd1+460], %r20;\n"
    " mov.b32 %r20, %envreg28; st.global.u32 [%rd1+464], %r20;\n"
    " mov.b32 %r20, %envreg29; st.global.u32 [%rd1+468], %r20;\n"
    " mov.b32 %r20, %envreg30; st.global.u32 [%rd1+472], %r20;\n"
    " mov.b32 %r20, %envreg31; st.global.u32 [%rd1+476], %r20;\n"
    /* touch the static shared variable so that it belongs to the kernel */
    " st.shared.u32 [sbuf], %r7;\n"
    " ret;\n}\n";

/* Run k_sregs with the given shape and check every thread's record. */
static void check_shape(exec_dim3 g, exec_dim3 b, uint32_t dyn)
{
    T t;
    ck_assert_msg(t_load(&t, k_sregs) == 0, "%s", t.err);
    uint32_t nt = b.x * b.y * b.z, nc = g.x * g.y * g.z;
    size_t n = (size_t)nt * nc * REC;
    uint64_t out = t_buf(&t, n * 4);
    t_go(&t, "k", g, b, dyn, out);
    uint32_t *r = malloc(n * 4);
    ck_assert_int_eq(exec_mem_read(t.m, PTX_SPACE_GLOBAL, out, r, n * 4, 0, 0, 0), 0);
    /* shared memory: 100 static bytes, then the dynamic part at a 16-byte aligned offset,
     * allocated in units of 256 bytes (sm_3x and later) */
    uint32_t total = (112 + dyn + 255) / 256 * 256;
    uint32_t warp_of_first[64], nwarps = (nt + 31) / 32;
    uint32_t sm_of_cta = 0;
    uint64_t grid = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint32_t cx = c % g.x, cy = c / g.x % g.y, cz = c / (g.x * g.y);
        for (uint32_t i = 0; i < nt; i++) {
            const uint32_t *w = r + ((size_t)c * nt + i) * REC;
            uint32_t tx = i % b.x, ty = i / b.x % b.y, tz = i / (b.x * b.y);
            uint32_t lane = i % 32, wp = i / 32;
#define EQ(k, v) ck_assert_msg(w[k] == (uint32_t)(v), "shape %ux%ux%u/%ux%ux%u cta %u thread %u word %d: got %#x want %#x", \
                              g.x, g.y, g.z, b.x, b.y, b.z, c, i, (int)(k), w[k], (uint32_t)(v))
            EQ(W_TID, tx); EQ(W_TID + 1, ty); EQ(W_TID + 2, tz); EQ(W_TID + 3, 0);
            EQ(W_NTID, b.x); EQ(W_NTID + 1, b.y); EQ(W_NTID + 2, b.z); EQ(W_NTID + 3, 0);
            EQ(W_CTAID, cx); EQ(W_CTAID + 1, cy); EQ(W_CTAID + 2, cz); EQ(W_CTAID + 3, 0);
            EQ(W_NCTAID, g.x); EQ(W_NCTAID + 1, g.y); EQ(W_NCTAID + 2, g.z); EQ(W_NCTAID + 3, 0);
            /* warps are formed from consecutive linear thread numbers */
            EQ(W_LANE, lane);
            EQ(W_LM_EQ, 1u << lane);
            EQ(W_LM_LE, lane == 31 ? 0xffffffffu : (2u << lane) - 1);
            EQ(W_LM_LT, (1u << lane) - 1);
            EQ(W_LM_GE, ~((1u << lane) - 1));
            EQ(W_LM_GT, lane == 31 ? 0 : ~((2u << lane) - 1));
            /* %warpid: the same within a warp, distinct between the warps of a CTA, below
             * %nwarpid; %smid: the same for the whole CTA, below %nsmid */
            ck_assert_uint_lt(w[W_WARP], w[W_NWARP]);
            if (lane == 0) {
                warp_of_first[wp] = w[W_WARP];
                for (uint32_t k = 0; k < wp; k++)
                    ck_assert_uint_ne(warp_of_first[k], w[W_WARP]);
            } else {
                EQ(W_WARP, warp_of_first[wp]);
            }
            ck_assert_uint_ge(w[W_NWARP], nwarps);
            ck_assert_uint_lt(w[W_SM], w[W_NSM]);
            if (i == 0)
                sm_of_cta = w[W_SM];
            EQ(W_SM, sm_of_cta);
            /* %gridid: one value for the whole grid; 32-bit reads give its low half */
            uint64_t gid = (uint64_t)w[W_GRID_HI] << 32 | w[W_GRID_LO];
            if (c == 0 && i == 0)
                grid = gid;
            ck_assert_uint_eq(gid, grid);
            EQ(W_GRID32, (uint32_t)grid);
            /* no cluster launch: every CTA is its own 1x1x1 cluster */
            EQ(W_CLID, cx); EQ(W_CLID + 1, cy); EQ(W_CLID + 2, cz);
            EQ(W_NCLID, g.x); EQ(W_NCLID + 1, g.y); EQ(W_NCLID + 2, g.z);
            EQ(W_CLCTA, 0); EQ(W_CLCTA + 1, 0); EQ(W_CLCTA + 2, 0);
            EQ(W_CLNCTA, 1); EQ(W_CLNCTA + 1, 1); EQ(W_CLNCTA + 2, 1);
            EQ(W_CLRANK, 0); EQ(W_CLNRANK, 1);
            EQ(W_EXPLICIT, 0);
            EQ(W_TOTAL_SMEM, total);
            EQ(W_DYN_SMEM, dyn);
            EQ(W_AGGR_SMEM, total);
            /* the system's 1 KB (sm_80+), away from the kernel's bytes (just below the cluster
               windows at 2 GB); _0 is its start, _1 its second half */
            uint32_t res = 0x80000000u - 1024;
            EQ(W_RES_BEGIN, res); EQ(W_RES_END, res + 1024); EQ(W_RES_CAP, 1024);
            EQ(W_RES0, res); EQ(W_RES1, res + 512);
            EQ(W_TID16X, tx & 0xffff);
            EQ(W_TIDZ_CVT, tz & 0xffff);
            EQ(W_NTID16, b.y & 0xffff);
            EQ(W_CTAID16, cy & 0xffff);
            EQ(W_GRAPH_LO, 0); EQ(W_GRAPH_HI, 0);  /* not launched from a graph */
            /* %pmN_64: the low 32 bits are %pmN */
            for (int k = 0; k < 8; k++)
                EQ(W_PM64 + k, w[W_PM + k]);
            /* %envreg: driver-defined values, the same for every thread of the grid */
            for (int k = 0; k < 32; k++)
                EQ(W_ENV + k, r[W_ENV + k]);
#undef EQ
        }
    }
    free(r);
    t_free(&t);
}

START_TEST(test_sreg_1d)
{
    check_shape((exec_dim3){ 3, 1, 1 }, (exec_dim3){ 70, 1, 1 }, 0);   /* partial third warp */
    check_shape((exec_dim3){ 1, 1, 1 }, (exec_dim3){ 1, 1, 1 }, 0);
    check_shape((exec_dim3){ 2, 1, 1 }, (exec_dim3){ 32, 1, 1 }, 156);
}
END_TEST

START_TEST(test_sreg_2d)
{
    check_shape((exec_dim3){ 3, 2, 1 }, (exec_dim3){ 7, 5, 1 }, 200);  /* 35 threads */
    check_shape((exec_dim3){ 1, 4, 1 }, (exec_dim3){ 16, 4, 1 }, 0);
}
END_TEST

START_TEST(test_sreg_3d)
{
    check_shape((exec_dim3){ 2, 3, 2 }, (exec_dim3){ 5, 3, 2 }, 0);    /* 30 threads, 12 CTAs */
    check_shape((exec_dim3){ 1, 2, 3 }, (exec_dim3){ 8, 4, 3 }, 1000); /* 96 threads */
    check_shape((exec_dim3){ 2, 1, 2 }, (exec_dim3){ 3, 3, 7 }, 412);  /* 63 threads */
}
END_TEST

/* %gridid differs between launches. */
START_TEST(test_sreg_gridid_per_launch)
{
    T t;
    const char *src = HDR
        ".visible .entry k(.param .u64 out)\n{\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u64 %rd2, %gridid;\n st.global.u64 [%rd1], %rd2;\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 16), g1, g2;
    exec_dim3 one = { 1, 1, 1 };
    t_go(&t, "k", one, one, 0, out);
    ck_assert_int_eq(exec_mem_read(t.m, PTX_SPACE_GLOBAL, out, &g1, 8, 0, 0, 0), 0);
    t_go(&t, "k", one, one, 0, out);
    ck_assert_int_eq(exec_mem_read(t.m, PTX_SPACE_GLOBAL, out, &g2, 8, 0, 0, 0), 0);
    ck_assert_uint_ne(g1, g2);
    t_free(&t);
}
END_TEST

/* Clocks: %clock64 is monotonic and its halves are %clock and %clock_hi; the same for
 * %globaltimer, %globaltimer_lo and %globaltimer_hi. Each thread reads a, lo, hi, b with a
 * loop in between. */
START_TEST(test_sreg_clocks)
{
    T t;
    const char *src = HDR
        ".visible .entry k(.param .u64 out)\n{\n"
        " .reg .b32 %r<8>; .reg .b64 %rd<12>; .reg .pred %p<2>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " mul.wide.u32 %rd2, %r1, 64;\n add.u64 %rd1, %rd1, %rd2;\n"
        " mov.u64 %rd3, %clock64;\n"
        " mov.u32 %r2, %clock;\n mov.u32 %r3, %clock_hi;\n"
        " mov.u32 %r4, 0;\n"
        "L: add.u32 %r4, %r4, 1;\n setp.lt.u32 %p1, %r4, 50;\n @%p1 bra L;\n"
        " mov.u64 %rd4, %clock64;\n"
        " mov.u64 %rd5, %globaltimer;\n"
        " mov.u32 %r5, %globaltimer_lo;\n mov.u32 %r6, %globaltimer_hi;\n"
        " add.u32 %r4, %r4, 1;\n"
        " mov.u64 %rd6, %globaltimer;\n"
        " st.global.u64 [%rd1], %rd3;\n st.global.u32 [%rd1+8], %r2;\n st.global.u32 [%rd1+12], %r3;\n"
        " st.global.u64 [%rd1+16], %rd4;\n st.global.u64 [%rd1+24], %rd5;\n"
        " st.global.u32 [%rd1+32], %r5;\n st.global.u32 [%rd1+36], %r6;\n st.global.u64 [%rd1+40], %rd6;\n"
        " ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 64 * 40);
    t_go(&t, "k", (exec_dim3){ 1, 1, 1 }, (exec_dim3){ 40, 1, 1 }, 0, out);
    uint64_t r[40][8];
    ck_assert_int_eq(exec_mem_read(t.m, PTX_SPACE_GLOBAL, out, r, sizeof r, 0, 0, 0), 0);
    for (int i = 0; i < 40; i++) {
        uint64_t a = r[i][0], b = r[i][2], g0 = r[i][3], g1 = r[i][5];
        uint32_t lo = (uint32_t)r[i][1], hi = (uint32_t)(r[i][1] >> 32);
        uint32_t glo = (uint32_t)r[i][4], ghi = (uint32_t)(r[i][4] >> 32);
        ck_assert_uint_gt(b, a);            /* 50 loop iterations later: strictly later */
        uint64_t c = (uint64_t)hi << 32 | lo;
        ck_assert_uint_ge(c, a & ~0xffffffffull);
        ck_assert_uint_le(lo - (uint32_t)a, (uint32_t)(b - a)); /* a <= %clock <= b, mod 2^32 */
        ck_assert_uint_ge(hi, (uint32_t)(a >> 32));
        ck_assert_uint_le(hi, (uint32_t)(b >> 32));
        ck_assert_uint_gt(g1, g0);
        ck_assert_uint_le(glo - (uint32_t)g0, (uint32_t)(g1 - g0));
        ck_assert_uint_ge(ghi, (uint32_t)(g0 >> 32));
        ck_assert_uint_le(ghi, (uint32_t)(g1 >> 32));
    }
    t_free(&t);
}
END_TEST

/* Special registers are read-only, and a register narrower than a 64-bit one is fine only
 * for the legacy reads the chapter allows (handled above); writing one is a load error. */
START_TEST(test_sreg_readonly)
{
    T t;
    const char *src = HDR
        ".visible .entry k()\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, 1;\n mov.u32 %laneid, %r1;\n"
        " ret;\n}\n";
    ck_assert_int_ne(t_load(&t, src), 0);
    ck_assert_msg(strstr(t.err, "%laneid") != NULL, "%s", t.err);
    t_free(&t);
}
END_TEST

/* The inspection API reports the same values as the kernel reads (a 3D shape, mid-run). */
START_TEST(test_sreg_api)
{
    T t;
    const char *src = HDR
        ".visible .entry k()\n{\n brkpt;\n ret;\n}\n";
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    const ptx_func *f = ptx_find_func(t.mod, "k");
    exec_dim3 g = { 2, 2, 2 }, b = { 3, 4, 5 };
    ck_assert_int_eq(exec_launch(t.m, f, g, b, 64, NULL, 0), 0);
    exec_run_opts o;
    exec_stop st;
    memset(&o, 0, sizeof o);
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_BRKPT);
    uint64_t v;
    /* CTA 0, warp 1, lane 5 = linear thread 37: tid (1, 0, 3) of a 3x4x5 block */
    ck_assert_int_eq(exec_sreg_get(t.m, 0, 1, 5, PTX_SREG_TID, 0, &v), 0);
    ck_assert_uint_eq(v, 37 % 3);
    ck_assert_int_eq(exec_sreg_get(t.m, 0, 1, 5, PTX_SREG_TID, 1, &v), 0);
    ck_assert_uint_eq(v, 37 / 3 % 4);
    ck_assert_int_eq(exec_sreg_get(t.m, 0, 1, 5, PTX_SREG_TID, 2, &v), 0);
    ck_assert_uint_eq(v, 37 / 12);
    ck_assert_int_eq(exec_sreg_get(t.m, 0, 1, 5, PTX_SREG_LANEID, 0, &v), 0);
    ck_assert_uint_eq(v, 5);
    ck_assert_int_eq(exec_sreg_get(t.m, 0, 1, 5, PTX_SREG_LANEMASK_LT, 0, &v), 0);
    ck_assert_uint_eq(v, 0x1f);
    ck_assert_int_eq(exec_sreg_get(t.m, 0, 1, 5, PTX_SREG_NTID, 2, &v), 0);
    ck_assert_uint_eq(v, 5);
    ck_assert_int_eq(exec_sreg_get(t.m, 0, 1, 5, PTX_SREG_DYNAMIC_SMEM_SIZE, 0, &v), 0);
    ck_assert_uint_eq(v, 64);
    ck_assert_int_eq(exec_sreg_get(t.m, 0, 1, 5, PTX_SREG_TOTAL_SMEM_SIZE, 0, &v), 0);
    ck_assert_uint_eq(v, 256);
    t_free(&t);
}
END_TEST

static Suite *sreg_suite(void)
{
    Suite *s = suite_create("sreg");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sreg_1d);
    tcase_add_test(tc, test_sreg_2d);
    tcase_add_test(tc, test_sreg_3d);
    tcase_add_test(tc, test_sreg_gridid_per_launch);
    tcase_add_test(tc, test_sreg_clocks);
    tcase_add_test(tc, test_sreg_readonly);
    tcase_add_test(tc, test_sreg_api);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(sreg_suite());
}
