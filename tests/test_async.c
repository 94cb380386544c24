/* test_async.c - mbarrier, cp.async (plain, bulk, reduce), mapa/getctarank/setmaxnreg/multimem, tcgen05 Tensor Memory allocation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 8.6\n.target sm_100a\n.address_size 64\n"
#define FIX "tests/fixtures/async/"
#define T_MAX_STEPS 200000000
#include "core_harness.h"

/* ---- mbarrier: phases, tokens, parity, counts, tx-count (one thread) --------------------------
 * Results written to out[] in order; the expected values follow the PTX ISA definitions. */
static const char *k_mbar_basic = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .shared .align 8 .b64 bar;\n"
    " .shared .align 8 .b64 bar2;\n"
    " .reg .b32 %r<40>; .reg .b64 %rd<20>; .reg .pred %p<20>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mbarrier.init.shared::cta.b64 [bar], 3;\n"
    " mbarrier.arrive.shared.b64 %rd2, [bar];\n"                   /* pending 2 */
    " mbarrier.pending_count.b64 %r1, %rd2;\n"                      /* 2 */
    " mbarrier.test_wait.shared.b64 %p1, [bar], %rd2;\n"            /* 0 */
    " mbarrier.arrive.release.cta.shared::cta.b64 %rd3, [bar], 2;\n"/* completes phase 0 */
    " mbarrier.pending_count.b64 %r2, %rd3;\n"                      /* 0 */
    " mbarrier.test_wait.shared.b64 %p2, [bar], %rd2;\n"            /* 1 */
    " mbarrier.test_wait.acquire.cta.shared.b64 %p3, [bar], %rd3;\n"/* 1 */
    " mbarrier.test_wait.parity.shared.b64 %p4, [bar], 0;\n"        /* 1: phase 0 done */
    " mbarrier.try_wait.parity.shared.b64 %p5, [bar], 1;\n"         /* 0: phase 1 current */
    /* arrive_drop: phase 1 needs 3, one thread drops out -> later phases need 2 */
    " mbarrier.arrive_drop.shared.b64 %rd4, [bar];\n"
    " mbarrier.pending_count.b64 %r3, %rd4;\n"                      /* 2 */
    " mbarrier.arrive.shared.b64 %rd5, [bar], 2;\n"                 /* completes phase 1 */
    " mbarrier.test_wait.parity.shared.b64 %p6, [bar], 1;\n"        /* 1 */
    " mbarrier.arrive.shared.b64 %rd6, [bar];\n"                    /* phase 2: pending 1 of 2 */
    " mbarrier.pending_count.b64 %r4, %rd6;\n"                      /* 1 */
    /* arrive.noComplete that does not complete */
    " mbarrier.init.shared.b64 [bar2], 4;\n"
    " mbarrier.arrive.noComplete.shared.b64 %rd7, [bar2], 3;\n"
    " mbarrier.pending_count.b64 %r5, %rd7;\n"                      /* 1 */
    /* tx-count: arrivals done but bytes outstanding keep the phase open */
    " mbarrier.init.shared.b64 [bar2], 1;\n"
    " mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar2], 100;\n"
    " mbarrier.arrive.shared.b64 %rd8, [bar2];\n"
    " mbarrier.test_wait.parity.shared.b64 %p7, [bar2], 0;\n"       /* 0 */
    " mbarrier.complete_tx.shared.b64 [bar2], 60;\n"
    " mbarrier.test_wait.parity.shared.b64 %p8, [bar2], 0;\n"       /* 0 */
    " mbarrier.complete_tx.shared.b64 [bar2], 40;\n"
    " mbarrier.test_wait.parity.shared.b64 %p9, [bar2], 0;\n"       /* 1 */
    " mbarrier.test_wait.shared.b64 %p10, [bar2], %rd8;\n"          /* 1 */
    /* arrive.expect_tx in phase 1: +64 bytes and the only arrival; complete_tx ends it */
    " mbarrier.arrive.expect_tx.shared.b64 %rd9, [bar2], 64;\n"
    " mbarrier.test_wait.parity.shared.b64 %p11, [bar2], 1;\n"      /* 0 */
    " mbarrier.complete_tx.shared.b64 [bar2], 64;\n"
    " mbarrier.test_wait.parity.shared.b64 %p12, [bar2], 1;\n"      /* 1 */
    /* generic addressing */
    " mov.u64 %rd10, bar2;\n"
    " cvta.shared.u64 %rd11, %rd10;\n"
    " mbarrier.arrive.b64 %rd12, [%rd11];\n"                        /* completes phase 2 */
    " mbarrier.test_wait.parity.b64 %p13, [%rd11], 0;\n"            /* 1 (phase 2 done) */
    " mbarrier.inval.shared.b64 [bar2];\n"
    " ld.shared.u64 %rd13, [bar2];\n"                               /* 0: invalid object */
    " st.global.u32 [%rd1], %r1; st.global.u32 [%rd1+4], %r2;\n"
    " st.global.u32 [%rd1+8], %r3; st.global.u32 [%rd1+12], %r4;\n"
    " st.global.u32 [%rd1+16], %r5;\n"
    " selp.u32 %r10, 1, 0, %p1; st.global.u32 [%rd1+20], %r10;\n"
    " selp.u32 %r10, 1, 0, %p2; st.global.u32 [%rd1+24], %r10;\n"
    " selp.u32 %r10, 1, 0, %p3; st.global.u32 [%rd1+28], %r10;\n"
    " selp.u32 %r10, 1, 0, %p4; st.global.u32 [%rd1+32], %r10;\n"
    " selp.u32 %r10, 1, 0, %p5; st.global.u32 [%rd1+36], %r10;\n"
    " selp.u32 %r10, 1, 0, %p6; st.global.u32 [%rd1+40], %r10;\n"
    " selp.u32 %r10, 1, 0, %p7; st.global.u32 [%rd1+44], %r10;\n"
    " selp.u32 %r10, 1, 0, %p8; st.global.u32 [%rd1+48], %r10;\n"
    " selp.u32 %r10, 1, 0, %p9; st.global.u32 [%rd1+52], %r10;\n"
    " selp.u32 %r10, 1, 0, %p10; st.global.u32 [%rd1+56], %r10;\n"
    " selp.u32 %r10, 1, 0, %p11; st.global.u32 [%rd1+60], %r10;\n"
    " selp.u32 %r10, 1, 0, %p12; st.global.u32 [%rd1+64], %r10;\n"
    " selp.u32 %r10, 1, 0, %p13; st.global.u32 [%rd1+68], %r10;\n"
    " cvt.u32.u64 %r10, %rd13; st.global.u32 [%rd1+72], %r10;\n"
    " ret;\n}\n";

START_TEST(test_mbar_basic)
{
    T t;
    t_open(&t, k_mbar_basic);
    uint64_t out = t_buf(&t, 19 * 4);
    t_launch_args(&t, "k", 1, 1, &out, 1);
    t_run_done(&t);
    uint32_t r[19];
    t_read(&t, out, r, sizeof r);
    static const uint32_t want[19] = { 2, 0, 2, 1, 1, 0, 1, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0 };
    for (int i = 0; i < 19; i++)
        ck_assert_msg(r[i] == want[i], "result %d: %u, want %u", i, r[i], want[i]);
    t_free(&t);
}
END_TEST

/* ---- mbarrier across warps: producer warp 0, consumer warps 1..3 spinning on try_wait ------
 * Round k: warp 0 writes data[lane] = k * 100 + lane and arrives on `full` (32 arrivals);
 * consumers wait for phase k of `full`, add data[lane] and arrive on `empty` (96 arrivals),
 * which the producer waits for before the next round. */
static const char *k_prodcons = HDR
    ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
    " .shared .align 8 .b64 full;\n"
    " .shared .align 8 .b64 empty;\n"
    " .shared .align 4 .b32 data[32];\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<10>; .reg .pred %p<6>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u32 %r9, [n];\n"
    " mov.u32 %r1, %tid.x; shr.u32 %r2, %r1, 5; and.b32 %r3, %r1, 31;\n"
    " setp.ne.u32 %p1, %r1, 0;\n"
    " @%p1 bra INITD;\n"
    " mbarrier.init.shared.b64 [full], 32;\n"
    " mbarrier.init.shared.b64 [empty], 96;\n"
    "INITD:\n"
    " bar.sync 0;\n"
    " mov.u32 %r4, 0;\n"            /* k */
    " mov.u32 %r5, 0;\n"            /* acc */
    " shl.b32 %r6, %r3, 2; mov.u32 %r7, data; add.u32 %r7, %r7, %r6;\n"
    " setp.ne.u32 %p2, %r2, 0;\n"
    " @%p2 bra CONS;\n"
    "PROD:\n"
    " mad.lo.u32 %r8, %r4, 100, %r3;\n"
    " st.shared.u32 [%r7], %r8;\n"
    " mbarrier.arrive.shared.b64 %rd2, [full];\n"
    " and.b32 %r10, %r4, 1;\n"
    "PWAIT:\n"
    " mbarrier.try_wait.parity.shared.b64 %p3, [empty], %r10;\n"
    " @!%p3 bra PWAIT;\n"
    " add.u32 %r4, %r4, 1;\n"
    " setp.lt.u32 %p4, %r4, %r9;\n"
    " @%p4 bra PROD;\n"
    " ret;\n"
    "CONS:\n"
    " and.b32 %r10, %r4, 1;\n"
    "CWAIT:\n"
    " mbarrier.try_wait.parity.shared.b64 %p3, [full], %r10;\n"
    " @!%p3 bra CWAIT;\n"
    " ld.shared.u32 %r8, [%r7];\n"
    " add.u32 %r5, %r5, %r8;\n"
    " mbarrier.arrive.shared.b64 %rd2, [empty];\n"
    " add.u32 %r4, %r4, 1;\n"
    " setp.lt.u32 %p4, %r4, %r9;\n"
    " @%p4 bra CONS;\n"
    " sub.u32 %r11, %r1, 32;\n"
    " mul.wide.u32 %rd3, %r11, 4; add.s64 %rd4, %rd1, %rd3;\n"
    " st.global.u32 [%rd4], %r5;\n"
    " ret;\n}\n";

START_TEST(test_mbar_prodcons)
{
    T t;
    t_open(&t, k_prodcons);
    uint32_t n = 7;
    uint64_t p[2] = { t_buf(&t, 96 * 4), n };
    t_launch_args(&t, "k", 2, 128, p, 2);
    t_run_done(&t);
    uint32_t r[96];
    t_read(&t, p[0], r, sizeof r);
    for (uint32_t i = 0; i < 96; i++) {
        uint32_t lane = i % 32, want = 0;
        for (uint32_t k = 0; k < n; k++)
            want += k * 100 + lane;
        ck_assert_uint_eq(r[i], want);
    }
    t_free(&t);
}
END_TEST

/* ---- mbarrier misuse ----------------------------------------------------------------------- */
static const char *k_mbar_misuse = HDR
    ".visible .entry k(.param .u32 mode, .param .u64 g)\n{\n"
    " .shared .align 8 .b64 bar;\n"
    " .shared .align 8 .b64 pad;\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"
    " ld.param.u32 %r1, [mode]; ld.param.u64 %rd5, [g];\n"
    " setp.eq.u32 %p1, %r1, 0; @%p1 bra M0;\n"
    " setp.eq.u32 %p1, %r1, 1; @%p1 bra M1;\n"
    " setp.eq.u32 %p1, %r1, 2; @%p1 bra M2;\n"
    " setp.eq.u32 %p1, %r1, 3; @%p1 bra M3;\n"
    " setp.eq.u32 %p1, %r1, 4; @%p1 bra M4;\n"
    " setp.eq.u32 %p1, %r1, 5; @%p1 bra M5;\n"
    " setp.eq.u32 %p1, %r1, 6; @%p1 bra M6;\n"
    " ret;\n"
    "M0: mbarrier.arrive.shared.b64 %rd1, [bar]; ret;\n"              /* never initialised */
    "M1: mbarrier.init.shared.b64 [bar], 2; mbarrier.arrive.shared.b64 %rd1, [bar], 3; ret;\n"
    "M2: mbarrier.init.shared.b64 [bar], 2; mbarrier.inval.shared.b64 [bar];\n"
    "    mbarrier.test_wait.parity.shared.b64 %p2, [bar], 0; ret;\n"
    "M3: mov.u32 %r2, 0; mbarrier.init.shared.b64 [bar], %r2; ret;\n"
    "M4: mbarrier.init.b64 [%rd5], 1; ret;\n"                         /* global address */
    "M5: mbarrier.init.shared.b64 [bar], 2; mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 2; ret;\n"
    "M6: mov.u32 %r3, bar; add.u32 %r3, %r3, 4; mbarrier.init.shared.b64 [%r3], 1; ret;\n"
    "}\n";

START_TEST(test_mbar_misuse)
{
    static const struct { exec_exc e; const char *msg; } cases[] = {
        { EXEC_EXC_ILLEGAL_INSN, "mbarrier.arrive on shared 0x0, which is not an initialised mbarrier" },
        { EXEC_EXC_ILLEGAL_INSN, "3 arrivals but only 2 pending" },
        { EXEC_EXC_ILLEGAL_INSN, "mbarrier.test_wait on shared 0x0, which is not an initialised" },
        { EXEC_EXC_ILLEGAL_INSN, "init count 0 outside 1..1048575" },
        { EXEC_EXC_ILLEGAL_ADDRESS, "is not in shared memory" },
        { EXEC_EXC_ILLEGAL_INSN, "arrive.noComplete completed phase 0" },
        { EXEC_EXC_MISALIGNED, "misaligned" },
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        T t;
        t_open(&t, k_mbar_misuse);
        uint64_t p[2] = { c, t_buf(&t, 64) };
        t_launch_args(&t, "k", 1, 1, p, 2);
        t_run_exc(&t, cases[c].e, cases[c].msg);
        t_free(&t);
    }
}
END_TEST

/* ---- cp.async (plain): sizes, zero fill, ignore-src, commit/wait ------------------------------
 * Thread t: 4 bytes at s4[t], 8 at s8[t], 16 at s16[t] with src-size (t % 17), and 16 at z[t]
 * with ignore-src = (t odd). out gets the shared arrays back. */
static const char *k_cp = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    " .shared .align 16 .b8 s4[128];\n"
    " .shared .align 16 .b8 s8[256];\n"
    " .shared .align 16 .b8 s16[512];\n"
    " .shared .align 16 .b8 z[512];\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd3, %r1, 16; add.s64 %rd4, %rd1, %rd3;\n"   /* in + 16t */
    " shl.b32 %r2, %r1, 2; mov.u32 %r3, s4; add.u32 %r3, %r3, %r2;\n"
    " cp.async.ca.shared.global [%r3], [%rd4], 4;\n"
    " shl.b32 %r2, %r1, 3; mov.u32 %r4, s8; add.u32 %r4, %r4, %r2;\n"
    " cp.async.ca.shared::cta.global.L2::128B [%r4], [%rd4], 8, 8;\n"
    " rem.u32 %r5, %r1, 17;\n"
    " shl.b32 %r2, %r1, 4; mov.u32 %r6, s16; add.u32 %r6, %r6, %r2;\n"
    " createpolicy.fractional.L2::evict_last.b64 %rd9, 1.0;\n"
    " cp.async.cg.shared.global.L2::cache_hint [%r6], [%rd4], 16, %r5, %rd9;\n"
    " cp.async.commit_group;\n"
    " and.b32 %r7, %r1, 1; setp.ne.u32 %p1, %r7, 0;\n"
    " mov.u32 %r8, z; add.u32 %r8, %r8, %r2;\n"
    " cp.async.ca.shared.global [%r8], [%rd4], 16, %p1;\n"
    " cp.async.commit_group;\n"
    " cp.async.wait_group 1;\n"
    " cp.async.wait_all;\n"
    " bar.sync 0;\n"
    " setp.ne.u32 %p2, %r1, 0; @%p2 ret;\n"
    " mov.u32 %r9, 0;\n"
    "CPY:\n"
    " mov.u32 %r10, s4; add.u32 %r10, %r10, %r9; ld.shared.u8 %r11, [%r10];\n"
    " cvt.u64.u32 %rd5, %r9; add.s64 %rd6, %rd2, %rd5; st.global.u8 [%rd6], %r11;\n"
    " add.u32 %r9, %r9, 1; setp.lt.u32 %p3, %r9, 1408; @%p3 bra CPY;\n"
    " ret;\n}\n";

START_TEST(test_cp_async)
{
    T t;
    t_open(&t, k_cp);
    uint8_t in[32 * 16], out[1408], want[1408];
    for (int i = 0; i < (int)sizeof in; i++)
        in[i] = (uint8_t)(i * 7 + 3);
    uint64_t p[2] = { t_buf(&t, sizeof in), t_buf(&t, sizeof out) };
    t_write(&t, p[0], in, sizeof in);
    t_launch_args(&t, "k", 1, 32, p, 2);
    t_run_done(&t);
    t_read(&t, p[1], out, sizeof out);
    memset(want, 0, sizeof want);
    for (int th = 0; th < 32; th++) {
        const uint8_t *src = in + 16 * th;
        memcpy(want + 4 * th, src, 4);                       /* s4 */
        memcpy(want + 128 + 8 * th, src, 8);                 /* s8 */
        memcpy(want + 384 + 16 * th, src, (size_t)(th % 17)); /* s16: rest zero */
        if (!(th & 1))
            memcpy(want + 896 + 16 * th, src, 16);           /* z: odd threads all zero */
    }
    for (int i = 0; i < (int)sizeof out; i++)
        ck_assert_msg(out[i] == want[i], "byte %d: %u, want %u", i, out[i], want[i]);
    t_free(&t);
}
END_TEST

/* cp.async.mbarrier.arrive: with .noinc the copy's arrival counts towards the init count (one
 * per thread, so the phase completes with no explicit arrive); without it the count is raised
 * first (net zero) and the explicit arrive completes the phase. */
static const char *k_cp_mbar = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    " .shared .align 8 .b64 b1;\n"
    " .shared .align 8 .b64 b2;\n"
    " .shared .align 4 .b32 s[64];\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.ne.u32 %p1, %r1, 0; @%p1 bra GO;\n"
    " mbarrier.init.shared.b64 [b1], 32; mbarrier.init.shared.b64 [b2], 32;\n"
    "GO:\n"
    " bar.sync 0;\n"
    " mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd1, %rd3;\n"
    " shl.b32 %r2, %r1, 2; mov.u32 %r3, s; add.u32 %r3, %r3, %r2;\n"
    " cp.async.ca.shared.global [%r3], [%rd4], 4;\n"
    " cp.async.mbarrier.arrive.noinc.shared.b64 [b1];\n"
    " add.s64 %rd5, %rd4, 128; add.u32 %r4, %r3, 128;\n"
    " cp.async.ca.shared.global [%r4], [%rd5], 4;\n"
    " cp.async.mbarrier.arrive.shared::cta.b64 [b2];\n"
    " mbarrier.test_wait.parity.shared.b64 %p2, [b2], 0;\n"   /* not yet: 32 pending */
    " mbarrier.arrive.shared.b64 %rd6, [b2];\n"
    "W1: mbarrier.try_wait.parity.shared.b64 %p3, [b1], 0; @!%p3 bra W1;\n"
    "W2: mbarrier.try_wait.shared.b64 %p3, [b2], %rd6; @!%p3 bra W2;\n"
    " sub.u32 %r5, 31, %r1; shl.b32 %r5, %r5, 2; mov.u32 %r6, s; add.u32 %r6, %r6, %r5;\n"
    " ld.shared.u32 %r7, [%r6]; ld.shared.u32 %r8, [%r6+128];\n"
    " selp.u32 %r9, 1000000, 0, %p2;\n"
    " add.u32 %r7, %r7, %r8; add.u32 %r7, %r7, %r9;\n"
    " add.s64 %rd7, %rd2, %rd3; st.global.u32 [%rd7], %r7;\n"
    " ret;\n}\n";

START_TEST(test_cp_mbarrier_arrive)
{
    T t;
    t_open(&t, k_cp_mbar);
    uint32_t in[64], out[32];
    for (int i = 0; i < 64; i++)
        in[i] = (uint32_t)(i * i + 1);
    uint64_t p[2] = { t_buf(&t, sizeof in), t_buf(&t, sizeof out) };
    t_write(&t, p[0], in, sizeof in);
    t_launch_args(&t, "k", 1, 32, p, 2);
    t_run_done(&t);
    t_read(&t, p[1], out, sizeof out);
    for (int i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], in[31 - i] + in[63 - i]);
    t_free(&t);
}
END_TEST

static const char *k_cp_bad = HDR
    ".visible .entry k(.param .u32 mode, .param .u64 in)\n{\n"
    " .shared .align 16 .b8 s[64];\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"
    " ld.param.u32 %r1, [mode]; ld.param.u64 %rd1, [in];\n"
    " mov.u32 %r2, s;\n"
    " setp.eq.u32 %p1, %r1, 0; @%p1 bra M0;\n"
    " setp.eq.u32 %p1, %r1, 1; @%p1 bra M1;\n"
    " setp.eq.u32 %p1, %r1, 2; @%p1 bra M2;\n"
    " setp.eq.u32 %p1, %r1, 3; @%p1 bra M3;\n"
    " ret;\n"
    "M0: mov.u32 %r3, 9; cp.async.ca.shared.global [%r2], [%rd1], 8, %r3; ret;\n"
    "M1: add.u32 %r2, %r2, 4; cp.async.cg.shared.global [%r2], [%rd1], 16; ret;\n"
    "M2: add.s64 %rd1, %rd1, 4096; cp.async.ca.shared.global [%r2], [%rd1], 16; ret;\n"
    "M3: add.u32 %r2, %r2, 64; cp.async.ca.shared.global [%r2], [%rd1], 4; ret;\n"
    "}\n";

START_TEST(test_cp_async_errors)
{
    static const struct { exec_exc e; const char *msg; } cases[] = {
        { EXEC_EXC_ILLEGAL_INSN, "src-size 9 exceeds cp-size 8" },
        { EXEC_EXC_MISALIGNED, "misaligned" },
        { EXEC_EXC_OUT_OF_RANGE, "out-of-range global" },
        { EXEC_EXC_OUT_OF_RANGE, "outside the CTA's shared memory" },
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        T t;
        t_open(&t, k_cp_bad);
        uint64_t p[2] = { c, t_buf(&t, 64) };
        t_launch_args(&t, "k", 1, 1, p, 2);
        t_run_exc(&t, cases[c].e, cases[c].msg);
        t_free(&t);
    }
    t_load_fails(HDR ".visible .entry k(.param .u64 a)\n{\n .shared .align 16 .b8 s[64];\n"
               " .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [a];\n"
               " cp.async.cg.shared.global [s], [%rd1], 8;\n ret;\n}\n",
               "cp-size must be 16 for .cg");
    t_load_fails(HDR ".visible .entry k(.param .u64 a)\n{\n .shared .align 16 .b8 s[64];\n"
               " .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [a];\n"
               " cp.async.ca.shared.global [s], [%rd1], 4, 8;\n ret;\n}\n",
               "src-size 8 exceeds cp-size 4");
    t_load_fails(HDR ".visible .entry k(.param .u64 a)\n{\n .shared .align 128 .b8 s[64];\n"
               " .shared .align 8 .b64 bar;\n .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [a];\n"
               " cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [s], [%rd1, {0}], [bar];\n ret;\n}\n",
               "tensor map");
}
END_TEST

/* ---- bulk copies and reductions (hand-written) ------------------------------------------------
 * Thread 0: bulk copy 256 bytes global->shared (complete_tx on an mbarrier that has not been
 * told to expect them yet: tx-count goes negative), then arrive.expect_tx completes the phase;
 * shared->shared::cluster bulk reduce (.max.s32) into a second tile with complete_tx on a
 * second mbarrier (waiters use parity 0 on each: a parity wait cannot tell phase 0 from 2);
 * shared->global bulk copy; global bulk reductions .add.u32 / .min.s32 / .add.f32. */
static const char *k_bulk = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out, .param .u64 racc, .param .u64 facc)\n{\n"
    " .shared .align 16 .b32 a[64];\n"
    " .shared .align 16 .b32 b[64];\n"
    " .shared .align 8 .b64 bar;\n"
    " .shared .align 8 .b64 bar2;\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out]; ld.param.u64 %rd3, [racc];\n"
    " ld.param.u64 %rd4, [facc];\n"
    " mov.u32 %r1, %tid.x; setp.ne.u32 %p1, %r1, 0; @%p1 bra SYNC;\n"
    " mbarrier.init.shared.b64 [bar], 1;\n"
    " mbarrier.init.shared.b64 [bar2], 1;\n"
    " fence.proxy.async.shared::cta;\n"
    " fence.mbarrier_init.release.cluster;\n"
    "SYNC:\n"
    " bar.sync 0;\n"
    " @%p1 bra WAIT;\n"
    " mov.u32 %r2, 256;\n"
    " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [a], [%rd1], %r2, [bar];\n"
    " mbarrier.test_wait.parity.shared.b64 %p2, [bar], 0;\n"
    " selp.u32 %r9, 1, 0, %p2; st.shared.u32 [b], %r9;\n"          /* b[0] = 0 (not complete) */
    " mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd5, [bar], 256;\n"
    /* b[i] = 0 except b[0] (the flag) and b[1] = 5: reduce max with a */
    " mov.u32 %r10, 5; st.shared.u32 [b+4], %r10;\n"
    " mbarrier.expect_tx.shared.b64 [bar2], 256;\n"
    " cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.max.s32 [b], [a], 256, [bar2];\n"
    " mbarrier.arrive.shared.b64 %rd6, [bar2];\n"                    /* bar2 phase 0 completes */
    " cp.async.bulk.global.shared::cta.bulk_group [%rd2], [a], 256;\n"
    " add.s64 %rd7, %rd2, 256;\n"
    " cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd7], [b], 256, %rd9;\n"
    " cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd3], [a], 256;\n"
    " add.s64 %rd8, %rd3, 256;\n"
    " cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%rd8], [b], 256;\n"
    " cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd4], [a], 16;\n"
    " cp.async.bulk.commit_group;\n"
    " cp.async.bulk.wait_group.read 0;\n"
    " cp.async.bulk.wait_group 0;\n"
    " cp.async.bulk.prefetch.L2.global [%rd1], 256;\n"
    "WAIT:\n"
    " mbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;\n"
    " @!%p3 bra WAIT;\n"
    "WAIT1:\n"
    " mbarrier.try_wait.parity.shared.b64 %p3, [bar2], 0;\n"
    " @!%p3 bra WAIT1;\n"
    " ret;\n}\n";

START_TEST(test_bulk)
{
    T t;
    t_open(&t, k_bulk);
    int32_t in[64], racc[128];
    float facc[4] = { 0.5f, 1.5f, -2.0f, 1e8f };
    for (int i = 0; i < 64; i++) {
        in[i] = (i * 37) % 23 - 11;
        racc[i] = 1000 + i;
        racc[64 + i] = i - 3;
    }
    static const float fin[4] = { 1.25f, -3.5f, 2.0f, 1e-3f };
    memcpy(in, fin, sizeof fin);   /* a[0..3] also feed the .add.f32 reduction */
    uint64_t p[4] = { t_buf(&t, 256), t_buf(&t, 512), t_buf(&t, 512), t_buf(&t, 16) };
    t_write(&t, p[0], in, 256);
    t_write(&t, p[2], racc, 512);
    t_write(&t, p[3], facc, 16);
    t_launch_args(&t, "k", 1, 64, p, 4);
    t_run_done(&t);
    int32_t out[128], rr[128];
    float fr[4];
    t_read(&t, p[1], out, 512);
    t_read(&t, p[2], rr, 512);
    t_read(&t, p[3], fr, 16);
    for (int i = 0; i < 64; i++) {
        int32_t b = i == 1 ? 5 : 0;          /* b[0] = 0 flag: phase 0 was not complete */
        int32_t bm = in[i] > b ? in[i] : b;
        ck_assert_int_eq(out[i], in[i]);
        ck_assert_int_eq(out[64 + i], bm);
        ck_assert_int_eq(rr[i], (int32_t)((uint32_t)(1000 + i) + (uint32_t)in[i]));
        ck_assert_int_eq(rr[64 + i], (i - 3) < bm ? i - 3 : bm);
    }
    for (int i = 0; i < 4; i++) {
        float a;
        memcpy(&a, &in[i], 4);
        float w = facc[i] + a;
        ck_assert(memcmp(&fr[i], &w, 4) == 0);
    }
    t_free(&t);
}
END_TEST

static const char *k_bulk_bad = HDR
    ".visible .entry k(.param .u32 mode, .param .u64 in)\n{\n"
    " .shared .align 16 .b8 s[256];\n"
    " .shared .align 8 .b64 bar;\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<8>; .reg .b16 %rs<4>;\n"
    " ld.param.u32 %r1, [mode]; ld.param.u64 %rd1, [in];\n"
    " setp.eq.u32 %p1, %r1, 0; @%p1 bra M0;\n"
    " setp.eq.u32 %p1, %r1, 1; @%p1 bra M1;\n"
    " setp.eq.u32 %p1, %r1, 2; @%p1 bra M2;\n"
    " ret;\n"
    "M0: mbarrier.init.shared.b64 [bar], 1;\n"
    "    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [%rd1], 24, [bar]; ret;\n"
    "M1: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [%rd1], 32, [bar]; ret;\n"
    "M2: mbarrier.init.shared.b64 [bar], 1; mov.u16 %rs1, 2;\n"
    "    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [s], [%rd1], 32, [bar], %rs1; ret;\n"
    "}\n";

START_TEST(test_bulk_errors)
{
    static const struct { exec_exc e; const char *msg; } cases[] = {
        { EXEC_EXC_ILLEGAL_INSN, "must be multiples of 16" },
        { EXEC_EXC_ILLEGAL_INSN, "not an initialised mbarrier" },
        { EXEC_EXC_ILLEGAL_ADDRESS, "not in the cluster" },
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        T t;
        t_open(&t, k_bulk_bad);
        uint64_t p[2] = { c, t_buf(&t, 256) };
        t_launch_args(&t, "k", 1, 1, p, 2);
        t_run_exc(&t, cases[c].e, cases[c].msg);
        t_free(&t);
    }
}
END_TEST

/* ---- mapa / getctarank / setmaxnreg / multimem ------------------------------------------------ */
static const char *k_cluster = HDR
    ".visible .entry k(.param .u64 out, .param .u32 rank)\n{\n"
    " .shared .align 8 .b32 sv[4];\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<12>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u32 %r9, [rank];\n"
    " setmaxnreg.inc.sync.aligned.u32 240;\n"
    " setmaxnreg.dec.sync.aligned.u32 24;\n"
    " mov.u32 %r1, sv; add.u32 %r1, %r1, 8;\n"
    " mapa.shared::cluster.u32 %r2, %r1, %r9;\n"
    " mapa.shared::cluster.u32 %r3, sv, 0;\n"
    " getctarank.shared::cluster.u32 %r4, %r2;\n"
    " mov.u64 %rd3, sv; cvta.shared.u64 %rd4, %rd3;\n"
    " mapa.u64 %rd5, %rd4, 0;\n"
    " getctarank.u64 %r5, %rd5;\n"
    " mov.u32 %r6, 77; st.shared::cluster.u32 [%r2], %r6;\n"
    " ld.shared.u32 %r7, [sv+8];\n"
    " sub.s64 %rd6, %rd5, %rd4; cvt.u32.u64 %r8, %rd6;\n"
    " sub.u32 %r2, %r2, %r1; sub.u32 %r3, %r3, %r1;\n"
    " st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};\n"
    " st.global.v2.u32 [%rd1+16], {%r7, %r8};\n"
    " ret;\n}\n";

START_TEST(test_cluster_ops)
{
    T t;
    t_open(&t, k_cluster);
    uint64_t p[2] = { t_buf(&t, 24), 0 };
    t_launch_args(&t, "k", 2, 32, p, 2);
    t_run_done(&t);
    uint32_t r[6];
    t_read(&t, p[0], r, sizeof r);
    ck_assert_uint_eq(r[0], 0);                    /* mapa rank 0: same address */
    ck_assert_uint_eq(r[1], (uint32_t)-8);         /* sv = (sv + 8) - 8 */
    ck_assert_uint_eq(r[2], 0);                    /* getctarank */
    ck_assert_uint_eq(r[3], 0);
    ck_assert_uint_eq(r[4], 77);                   /* store through the mapped address */
    ck_assert_uint_eq(r[5], 0);                    /* generic mapa: same address */
    t_free(&t);
    /* rank 1 is no CTA of a one-CTA cluster */
    t_open(&t, k_cluster);
    p[0] = t_buf(&t, 24);
    p[1] = 1;
    t_launch_args(&t, "k", 1, 32, p, 2);
    t_run_exc(&t, EXEC_EXC_ILLEGAL_ADDRESS, "no such CTA in cluster");
    t_free(&t);
    t_load_fails(HDR ".visible .entry k()\n{\n setmaxnreg.inc.sync.aligned.u32 250;\n ret;\n}\n",
               "register count 250 must be in 24..256 and a multiple of 8");
    t_load_fails(HDR ".visible .entry k()\n{\n setmaxnreg.dec.sync.aligned.u32 16;\n ret;\n}\n",
               "register count 16");
    t_load_fails(HDR ".visible .entry k(.param .u64 a)\n{\n .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
               " ld.param.u64 %rd1, [a];\n"
               " multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];\n ret;\n}\n",
               "multimem requires multicast memory objects, which ptxdbg does not model");
}
END_TEST

/* ---- st.async / red.async: stores and reductions into (this CTA's) shared::cluster memory
 * that complete-tx on an mbarrier. Lane 0 arms the barrier for 32 4-byte stores and 32 4-byte
 * reductions (256 bytes); every lane st.async's 3*tid into buf[tid] and red.async.add's tid
 * into cnt, then waits on the phase. The phase can only complete when the tx-count reaches 0,
 * so the run finishing proves the counting; the values are checked against C. */
static const char *k_stasync = ".version 8.5\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .shared .align 8 .b64 mb;\n .shared .align 16 .b32 buf[32];\n .shared .align 4 .b32 cnt;\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x; setp.eq.u32 %p1, %r1, 0;\n"
    " @%p1 mbarrier.init.shared::cta.b64 [mb], 1;\n @%p1 st.shared.u32 [cnt], 5;\n"
    " bar.sync 0;\n"
    " @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd7, [mb], 256;\n"
    " bar.sync 0;\n"
    " mov.u64 %rd2, buf; mul.wide.u32 %rd3, %r1, 4; add.u64 %rd4, %rd2, %rd3;\n"
    " mul.lo.u32 %r2, %r1, 3;\n"
    " st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd4], %r2, [mb];\n"
    " red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [cnt], %r1, [mb];\n"
    "WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [mb], 0;\n @!%p2 bra WAIT;\n"
    " add.u32 %r3, %r1, 1; and.b32 %r3, %r3, 31; mul.wide.u32 %rd5, %r3, 4; add.u64 %rd5, %rd2, %rd5;\n"
    " ld.shared.u32 %r4, [%rd5];\n ld.shared.u32 %r5, [cnt];\n"
    " mul.wide.u32 %rd6, %r1, 8; add.u64 %rd6, %rd1, %rd6;\n"
    " st.global.v2.u32 [%rd6], {%r4, %r5};\n ret;\n}\n";

START_TEST(test_st_red_async)
{
    T t;
    t_open(&t, k_stasync);
    uint64_t out = t_buf(&t, 32 * 8);
    t_launch(&t, "k", 1, 32, &out, sizeof out);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t o[32][2];
    t_read(&t, out, o, sizeof o);
    for (uint32_t i = 0; i < 32; i++) {
        ck_assert_uint_eq(o[i][0], ((i + 1) % 32) * 3);
        ck_assert_uint_eq(o[i][1], 5 + 31 * 32 / 2);
    }
    t_free(&t);
    /* an st.async whose mbarrier was never initialised is an error at that instruction */
    static const char *bad = ".version 8.5\n.target sm_90\n.address_size 64\n"
        ".visible .entry k()\n{\n .shared .align 8 .b64 mb;\n .shared .align 4 .b32 v;\n"
        " st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [v], 1, [mb];\n ret;\n}\n";
    t_open(&t, bad);
    t_launch(&t, "k", 1, 1, NULL, 0);
    st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_msg(strstr(st.msg, "st.async completes on shared"), "%s", st.msg);
    t_free(&t);
}
END_TEST

/* ---- tcgen05 Tensor Memory allocation ---------------------------------------------------------
 * Model: 512 columns, first free run of nCols columns at a multiple of nCols; address = lane
 * 0 << 16 | column. Warp 0: alloc 128 (col 0), 64 (128), 32 (192); dealloc the 64; alloc 32
 * (128); alloc 32 (160); free all, relinquish. */
static const char *k_tmem = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .shared .align 4 .b32 ta[8];\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x; setp.ge.u32 %p1, %r1, 32; @%p1 bra DONE;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 128;\n"
    " mov.u32 %r2, 64;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta+4], %r2;\n"
    " mov.u32 %r3, ta; add.u32 %r3, %r3, 8; cvt.u64.u32 %rd2, %r3; cvta.shared.u64 %rd3, %rd2;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.b32 [%rd3], 32;\n"          /* generic dst */
    " ld.shared.u32 %r4, [ta+4];\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 64;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta+12], 32;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta+16], 32;\n"
    " tcgen05.fence::before_thread_sync;\n"
    " tcgen05.wait::ld;\n"
    " ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [ta];\n"
    " ld.shared.u32 %r9, [ta+16];\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r5, 128;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r7, 32;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r8, 32;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r9, 32;\n"
    " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
    " setp.ne.u32 %p2, %r1, 0; @%p2 bra DONE;\n"
    " st.global.v4.u32 [%rd1], {%r5, %r6, %r7, %r8};\n"
    " st.global.u32 [%rd1+16], %r9;\n"
    "DONE:\n"
    " ret;\n}\n";

START_TEST(test_tmem_alloc)
{
    T t;
    t_open(&t, k_tmem);
    uint64_t out = t_buf(&t, 20);
    t_launch_args(&t, "k", 3, 64, &out, 1);
    t_run_done(&t);
    uint32_t r[5];
    t_read(&t, out, r, sizeof r);
    ck_assert_uint_eq(r[0], 0);
    ck_assert_uint_eq(r[1], 128);
    ck_assert_uint_eq(r[2], 192);
    ck_assert_uint_eq(r[3], 128);
    ck_assert_uint_eq(r[4], 160);
    t_free(&t);
}
END_TEST

/* Blocking: warp 0 takes all 512 columns, signals, works a while (longer than a scheduling
 * slice) and frees them; warp 1 waits for the signal, then its alloc blocks until the free. */
static const char *k_tmem_block = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .shared .align 4 .b32 ta[2];\n"
    " .shared .align 4 .b32 flag;\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x; shr.u32 %r2, %r1, 5;\n"
    " setp.ne.u32 %p1, %r2, 0; @%p1 bra W1;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 512;\n"
    " mov.u32 %r3, 1; st.volatile.shared.u32 [flag], %r3;\n"
    " mov.u32 %r4, 0;\n"
    "BUSY: add.u32 %r4, %r4, 1; setp.lt.u32 %p2, %r4, 50000; @%p2 bra BUSY;\n"
    " ld.shared.u32 %r5, [ta];\n"
    " mov.u32 %r6, 2; st.volatile.shared.u32 [flag], %r6;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r5, 512;\n"
    " ret;\n"
    "W1: ld.volatile.shared.u32 %r7, [flag]; setp.eq.u32 %p3, %r7, 0; @%p3 bra W1;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta+4], 256;\n"
    " ld.volatile.shared.u32 %r8, [flag];\n"           /* 2: the free happened first */
    " ld.shared.u32 %r9, [ta+4];\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r9, 256;\n"
    " setp.ne.u32 %p3, %r1, 32; @%p3 ret;\n"
    " st.global.v2.u32 [%rd1], {%r8, %r9};\n"
    " ret;\n}\n";

START_TEST(test_tmem_block)
{
    T t;
    t_open(&t, k_tmem_block);
    uint64_t out = t_buf(&t, 8);
    t_launch_args(&t, "k", 1, 64, &out, 1);
    t_run_done(&t);
    uint32_t r[2];
    t_read(&t, out, r, sizeof r);
    ck_assert_uint_eq(r[0], 2);
    ck_assert_uint_eq(r[1], 0);
    t_free(&t);
}
END_TEST

static const char *k_tmem_bad = HDR
    ".visible .entry k(.param .u32 mode)\n{\n"
    " .shared .align 4 .b32 ta[2];\n"
    " .reg .b32 %r<8>; .reg .pred %p<8>;\n"
    " ld.param.u32 %r1, [mode];\n"
    " setp.eq.u32 %p1, %r1, 0; @%p1 bra M0;\n"
    " setp.eq.u32 %p1, %r1, 1; @%p1 bra M1;\n"
    " setp.eq.u32 %p1, %r1, 2; @%p1 bra M2;\n"
    " setp.eq.u32 %p1, %r1, 3; @%p1 bra M3;\n"
    " setp.eq.u32 %p1, %r1, 4; @%p1 bra M4;\n"
    " setp.eq.u32 %p1, %r1, 5; @%p1 bra M5;\n"
    " setp.eq.u32 %p1, %r1, 6; @%p1 bra M6;\n"
    " setp.eq.u32 %p1, %r1, 7; @%p1 bra M7;\n"
    " ret;\n"
    "M0: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
    "    tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 32; ret;\n"
    "M1: mov.u32 %r2, 64; tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r2, 32; ret;\n"
    "M2: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 64;\n"
    "    ld.shared.u32 %r2, [ta]; tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r2, 32; ret;\n"
    "M3: mov.u32 %r2, 48; tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], %r2; ret;\n"
    "M4: mov.u32 %r3, %laneid; setp.lt.u32 %p2, %r3, 16;\n"
    "    @%p2 tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 32; ret;\n"
    "M5: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 512;\n"
    "    tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta+4], 32; ret;\n"
    "M6: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 32;\n"
    "    tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta+4], 64; ret;\n"
    "M7: mov.u32 %r3, %laneid; mov.u32 %r2, 32; setp.eq.u32 %p2, %r3, 5; @%p2 mov.u32 %r2, 64;\n"
    "    tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], %r2; ret;\n"
    "}\n";

START_TEST(test_tmem_errors)
{
    static const struct { exec_exc e; const char *msg; } cases[] = {
        { EXEC_EXC_ILLEGAL_INSN, "tcgen05.alloc after tcgen05.relinquish_alloc_permit" },
        { EXEC_EXC_ILLEGAL_INSN, "not an allocation of that size (allocated columns: none)" },
        { EXEC_EXC_ILLEGAL_INSN, "not an allocation of that size (allocated columns: 0-63)" },
        { EXEC_EXC_ILLEGAL_INSN, "nCols 48 must be a power of 2 in 32..512" },
        { EXEC_EXC_ILLEGAL_INSN, "only lanes 0x0000ffff did" },
        { EXEC_EXC_BARRIER_DEADLOCK, "blocks forever" },
        { EXEC_EXC_ILLEGAL_INSN, "must not increase between allocations" },
        { EXEC_EXC_ILLEGAL_INSN, "lanes disagree on nCols" },
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        T t;
        t_open(&t, k_tmem_bad);
        uint64_t p = c;
        t_launch_args(&t, "k", 1, 32, &p, 1);
        t_run_exc(&t, cases[c].e, cases[c].msg);
        t_free(&t);
    }
    t_load_fails(HDR ".visible .entry k()\n{\n .shared .align 4 .b32 ta;\n"
               " tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [ta], 32;\n ret;\n}\n",
               "ptxdbg runs every CTA as a cluster of one: only .cta_group::1 is supported");
    t_load_fails(HDR ".visible .entry k()\n{\n .shared .align 4 .b32 ta;\n"
               " tcgen05.alloc.sync.aligned.shared::cta.b32 [ta], 32;\n ret;\n}\n",
               "needs .cta_group::1.sync.aligned");
    t_load_fails(HDR ".visible .entry k()\n{\n .reg .b32 %r<3>;\n"
               " tcgen05.shift.cta_group::1.down [%r1];\n ret;\n}\n",
               "tcgen05.shift is not supported");
}
END_TEST

/* The CTA-exit check: one warp allocates 64 columns and never frees them; the exception comes
 * when the CTA's last thread exits (the other warp, which exits later). */
static const char *k_tmem_leak = HDR
    ".visible .entry k()\n{\n"
    " .shared .align 4 .b32 ta;\n"
    " .reg .b32 %r<4>; .reg .pred %p<2>;\n"
    " mov.u32 %r1, %tid.x; setp.lt.u32 %p1, %r1, 32; @%p1 bra W0;\n"
    " mov.u32 %r2, 0;\n"
    "BUSY: add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, 1000; @%p1 bra BUSY;\n"
    " ret;\n"
    "W0: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 64;\n"
    " ret;\n}\n";

START_TEST(test_tmem_leak_at_exit)
{
    T t;
    t_open(&t, k_tmem_leak);
    t_launch_args(&t, "k", 2, 64, NULL, 0);
    exec_stop st = t_run_exc(&t, EXEC_EXC_ILLEGAL_INSN,
                         "CTA 0 exited with Tensor Memory still allocated (columns 0-63)");
    ck_assert_uint_eq(st.cta, 0);
    ck_assert_uint_eq(st.warp, 1);     /* raised by the last thread to exit */
    t_free(&t);
}
END_TEST

/* EXEC_YIELD: two warps both block in tcgen05.alloc (each can see the other as runnable, so
 * neither reports right away); once every runnable warp only yields, the scheduler reports a
 * deadlock naming where each waits. */
static const char *k_tmem_both_block = HDR
    ".visible .entry k()\n{\n"
    " .shared .align 4 .b32 ta[2];\n"
    " .shared .align 4 .b32 flag;\n"
    " .reg .b32 %r<8>; .reg .pred %p<4>;\n"
    " mov.u32 %r1, %tid.x; shr.u32 %r2, %r1, 5;\n"
    " setp.ne.u32 %p1, %r2, 0; @%p1 bra W1;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 512;\n"
    " mov.u32 %r3, 1; st.volatile.shared.u32 [flag], %r3;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta+4], 32;\n"
    " ret;\n"
    "W1: ld.volatile.shared.u32 %r7, [flag]; setp.eq.u32 %p3, %r7, 0; @%p3 bra W1;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta+4], 32;\n"
    " ret;\n}\n";

START_TEST(test_tmem_yield_deadlock)
{
    T t;
    t_open(&t, k_tmem_both_block);
    t_launch_args(&t, "k", 1, 64, NULL, 0);
    exec_stop st = t_run_exc(&t, EXEC_EXC_BARRIER_DEADLOCK, "no thread can proceed");
    ck_assert_msg(strstr(st.msg, "warp 0 lanes 0xffffffff wait in tcgen05 (pc") != NULL, "%s",
                  st.msg);
    ck_assert_msg(strstr(st.msg, "warp 1 lanes 0xffffffff wait in tcgen05 (pc") != NULL, "%s",
                  st.msg);
    exec_lane_info li;
    ck_assert_int_eq(exec_lane_get(t.m, 0, 0, 0, &li), 0);
    ck_assert_uint_eq(st.pc, li.pc);   /* the stop is where a yielding warp waits */
    t_free(&t);
}
END_TEST

/* Parallel CTAs (exec_set_threads) are refused for a module with a surface reduction: every
 * thread of 64 CTAs adds 1 to one surface element 100 times; with CTAs on several host threads the
 * read-modify-writes would race and lose updates. */
START_TEST(test_sured_not_parallel)
{
    const char *src = HDR
        ".visible .entry k(.param .u64 surf)\n{\n"
        " .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p1;\n"
        " ld.param.u64 %rd1, [surf]; mov.u32 %r1, 0; mov.u32 %r2, 1; mov.u32 %r3, 0;\n"
        "L: sured.b.add.1d.u32.trap [%rd1, {%r1}], %r2;\n"
        " add.u32 %r3, %r3, 1; setp.lt.u32 %p1, %r3, 100; @%p1 bra L;\n"
        " ret;\n}\n";
    for (int rep = 0; rep < 4; rep++) {
        T t;
        t_open(&t, src);
        uint64_t cell = t_buf(&t, 16), h = 0;
        exec_tex_desc dsc;
        memset(&dsc, 0, sizeof dsc);
        dsc.addr = cell;
        dsc.chtype = PTX_T_U32;
        dsc.channels = 1;
        dsc.geom = EXEC_TEX_1D;
        dsc.width = dsc.height = dsc.depth = dsc.layers = 1;
        ck_assert_msg(exec_tex_create(t.m, 1, &dsc, &h) == 0, "%s", exec_errmsg(t.m));
        exec_set_threads(t.m, 8);
        const ptx_func *f = ptx_find_func(t.mod, "k");
        exec_dim3 g = { 64, 1, 1 }, b = { 256, 1, 1 };
        ck_assert_int_eq(exec_launch(t.m, f, g, b, 0, &h, 8), 0);
        exec_run_opts o;
        memset(&o, 0, sizeof o);
        exec_stop st;
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
        uint32_t v;
        t_read(&t, cell, &v, 4);
        ck_assert_uint_eq(v, 64 * 256 * 100);
        t_free(&t);
    }
}
END_TEST

/* ---- nvcc-generated kernels ---------------------------------------------------------------- */
static const char *const variants[] = { "O3", "G", "lineinfo" };

/* __pipeline_memcpy_async with zero fill; see pipeline.cu. */
START_TEST(test_nvcc_pipeline_prim)
{
    for (int v = 0; v < 3; v++) {
        char path[128];
        snprintf(path, sizeof path, FIX "pipeline.%s.ptx", variants[v]);
        T t;
        t_load_file(&t, path);
        enum { NB = 2, NT = 64, N = NB * NT };
        float in[N], in4[N * 4], out[N];
        for (int i = 0; i < N; i++)
            in[i] = (float)(i % 13) - 4.0f;
        for (int i = 0; i < N * 4; i++)
            in4[i] = (float)(i % 7) * 0.5f;
        uint64_t tail = 8;   /* the last 8 bytes (two floats) are zero-filled */
        uint64_t p[4] = { t_buf(&t, sizeof in), t_buf(&t, sizeof in4), t_buf(&t, sizeof out), tail };
        t_write(&t, p[0], in, sizeof in);
        t_write(&t, p[1], in4, sizeof in4);
        t_launch_args(&t, "_Z4primPKfPK6float4Pfi", NB, NT, p, 4);
        t_run_done(&t);
        t_read(&t, p[2], out, sizeof out);
        for (int b = 0; b < NB; b++)
            for (int th = 0; th < NT; th++) {
                int g = b * NT + th, r = b * NT + (NT - 1 - th);
                float w = in[r] * 2.0f + in4[4 * r] + in4[4 * r + 1] + 0.0f + 0.0f;
                ck_assert_msg(out[g] == w, "%s: out[%d] = %g, want %g", path, g, out[g], w);
            }
        t_free(&t);
    }
}
END_TEST

/* cuda::pipeline double buffering and cooperative_groups::memcpy_async. */
START_TEST(test_nvcc_pipeline_staged_tile)
{
    for (int v = 0; v < 3; v++) {
        char path[128];
        snprintf(path, sizeof path, FIX "pipeline.%s.ptx", variants[v]);
        T t;
        t_load_file(&t, path);
        enum { NS = 5 };
        int32_t in[NS * 128], out[128];
        for (int i = 0; i < NS * 128; i++)
            in[i] = (i * 31) % 101 - 50;
        uint64_t p[3] = { t_buf(&t, sizeof in), t_buf(&t, sizeof out), NS };
        t_write(&t, p[0], in, sizeof in);
        t_launch_args(&t, "_Z6stagedPKiPii", 1, 128, p, 3);
        t_run_done(&t);
        t_read(&t, p[1], out, sizeof out);
        for (int th = 0; th < 128; th++) {
            int32_t w = 0;
            for (int k = 0; k < NS; k++)
                w += in[k * 128 + 127 - th] * (k + 1);
            ck_assert_int_eq(out[th], w);
        }
        /* tile: 2 blocks of 512 ints */
        int32_t tin[1024], tout[1024];
        for (int i = 0; i < 1024; i++)
            tin[i] = i * 3 - 700;
        uint64_t q[2] = { t_buf(&t, sizeof tin), t_buf(&t, sizeof tout) };
        t_write(&t, q[0], tin, sizeof tin);
        t_launch_args(&t, "_Z4tilePKiPi", 2, 256, q, 2);
        t_run_done(&t);
        t_read(&t, q[1], tout, sizeof tout);
        for (int b = 0; b < 2; b++) {
            const int32_t *s = tin + b * 512;
            for (int th = 0; th < 256; th++) {
                ck_assert_int_eq(tout[b * 512 + th], s[511 - th] + s[th]);
                ck_assert_int_eq(tout[b * 512 + 256 + th], s[255 - th] - s[256 + th]);
            }
        }
        t_free(&t);
    }
}
END_TEST

/* cuda::barrier + memcpy_async, and the mbarrier producer/consumer ring. */
START_TEST(test_nvcc_barrier)
{
    for (int v = 0; v < 3; v++) {
        char path[128];
        snprintf(path, sizeof path, FIX "barrier.%s.ptx", variants[v]);
        T t;
        t_load_file(&t, path);
        int32_t in[512], out[512];
        for (int i = 0; i < 512; i++)
            in[i] = i * 5 - 17;
        uint64_t p[2] = { t_buf(&t, sizeof in), t_buf(&t, sizeof out) };
        t_write(&t, p[0], in, sizeof in);
        t_launch_args(&t, "_Z5bcopyPKiPi", 2, 256, p, 2);
        t_run_done(&t);
        t_read(&t, p[1], out, sizeof out);
        for (int b = 0; b < 2; b++)
            for (int th = 0; th < 256; th++)
                ck_assert_int_eq(out[b * 256 + th], in[b * 256 + 255 - th] * 3);
        enum { NK = 9 };
        int32_t rin[NK * 32], rout[96];
        for (int i = 0; i < NK * 32; i++)
            rin[i] = (i * 13) % 29;
        uint64_t q[3] = { t_buf(&t, sizeof rin), t_buf(&t, sizeof rout), NK };
        t_write(&t, q[0], rin, sizeof rin);
        t_launch_args(&t, "_Z4ringPKiPii", 1, 128, q, 3);
        t_run_done(&t);
        t_read(&t, q[1], rout, sizeof rout);
        for (int w = 1; w <= 3; w++)
            for (int lane = 0; lane < 32; lane++) {
                int32_t want = 0;
                for (int k = 0; k < NK; k++)
                    want += (rin[k * 32 + lane] + k) * w;
                ck_assert_int_eq(rout[(w - 1) * 32 + lane], want);
            }
        t_free(&t);
    }
}
END_TEST

/* cp.async.bulk with complete_tx, bulk store and bulk reduction. */
START_TEST(test_nvcc_bulk)
{
    for (int v = 0; v < 3; v++) {
        char path[128];
        snprintf(path, sizeof path, FIX "bulk.%s.ptx", variants[v]);
        T t;
        t_load_file(&t, path);
        enum { NB = 3, N = 256 };
        int32_t in[NB * N], out[NB * N];
        uint32_t acc[N];
        for (int i = 0; i < NB * N; i++)
            in[i] = (i * 7) % 1000 - 300;
        for (int i = 0; i < N; i++)
            acc[i] = (uint32_t)i;
        uint64_t p[4] = { t_buf(&t, sizeof in), t_buf(&t, sizeof out), t_buf(&t, sizeof acc), N };
        t_write(&t, p[0], in, sizeof in);
        t_write(&t, p[2], acc, sizeof acc);
        t_launch_args(&t, "_Z4bulkPKiPiPji", NB, 128, p, 4);
        t_run_done(&t);
        uint32_t racc[N];
        t_read(&t, p[1], out, sizeof out);
        t_read(&t, p[2], racc, sizeof racc);
        for (int i = 0; i < NB * N; i++)
            ck_assert_int_eq(out[i], in[i] * 2);
        for (int i = 0; i < N; i++) {
            uint32_t w = (uint32_t)i;
            for (int b = 0; b < NB; b++)
                w += (uint32_t)(in[b * N + i] * 2);
            ck_assert_uint_eq(racc[i], w);
        }
        t_free(&t);
    }
}
END_TEST

/* tcgen05.alloc/dealloc/relinquish from cuda::ptx (sm_100a). */
START_TEST(test_nvcc_tmem)
{
    for (int v = 0; v < 3; v++) {
        char path[128];
        snprintf(path, sizeof path, FIX "tmem.%s.ptx", variants[v]);
        T t;
        t_load_file(&t, path);
        static const uint32_t cols[] = { 32, 128, 256 };
        for (int c = 0; c < 3; c++) {
            uint32_t out[4];
            uint64_t p[2] = { t_buf(&t, sizeof out), cols[c] };
            t_launch_args(&t, "_Z4tmemPjj", 2, 96, p, 2);
            t_run_done(&t);
            t_read(&t, p[0], out, sizeof out);
            for (int b = 0; b < 2; b++) {
                ck_assert_uint_eq(out[2 * b], 0);
                ck_assert_uint_eq(out[2 * b + 1], cols[c]);  /* first free 32 after nCols */
            }
        }
        t_free(&t);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("async");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_mbar_basic);
    tcase_add_test(tc, test_mbar_prodcons);
    tcase_add_test(tc, test_mbar_misuse);
    tcase_add_test(tc, test_cp_async);
    tcase_add_test(tc, test_cp_mbarrier_arrive);
    tcase_add_test(tc, test_cp_async_errors);
    tcase_add_test(tc, test_bulk);
    tcase_add_test(tc, test_bulk_errors);
    tcase_add_test(tc, test_cluster_ops);
    tcase_add_test(tc, test_st_red_async);
    tcase_add_test(tc, test_tmem_alloc);
    tcase_add_test(tc, test_tmem_block);
    tcase_add_test(tc, test_tmem_errors);
    tcase_add_test(tc, test_tmem_leak_at_exit);
    tcase_add_test(tc, test_tmem_yield_deadlock);
    tcase_add_test(tc, test_sured_not_parallel);
    tcase_add_test(tc, test_nvcc_pipeline_prim);
    tcase_add_test(tc, test_nvcc_pipeline_staged_tile);
    tcase_add_test(tc, test_nvcc_barrier);
    tcase_add_test(tc, test_nvcc_bulk);
    tcase_add_test(tc, test_nvcc_tmem);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
