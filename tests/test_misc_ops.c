/* test_misc_ops.c - end-to-end tests of mad24, ldu, prefetch(u), createpolicy, discard, applypriority, membar/fence, elect, griddepcontrol, pmevent and nanosleep. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "test_util.h"

/* ---- helpers --------------------------------------------------------------------------------- */
#define HDR ".version 8.8\n.target sm_100\n.address_size 64\n"
#include "core_harness.h"

/* The kernel every test uses: k(.param .u64 out, .param .u64 in) with a few registers
 * declared and %rd1 = out, %rd2 = in, %r0 = %tid.x, %rd3 = out + 8 * tid, %rd4 = in + 8 * tid. */
#define KDECL " .reg .b16 %%h<8>; .reg .b32 %%r<16>; .reg .b64 %%rd<16>; .reg .f32 %%f<8>;\n" \
              " .reg .f64 %%fd<4>; .reg .pred %%p<8>; .reg .b128 %%q<2>;\n"
static char *kernel(const char *body)
{
    size_t n = strlen(body) + 1024;
    char *s = malloc(n);
    snprintf(s, n, HDR ".global .align 16 .b8 gbuf[256];\n"
             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n" KDECL
             " .shared .align 16 .b8 sbuf[256];\n .local .align 16 .b8 lbuf[64];\n"
             " ld.param.u64 %%rd1, [out];\n ld.param.u64 %%rd2, [in];\n mov.u32 %%r0, %%tid.x;\n"
             " mul.wide.u32 %%rd5, %%r0, 8;\n add.u64 %%rd3, %%rd1, %%rd5;\n"
             " add.u64 %%rd4, %%rd2, %%rd5;\n%s\n ret;\n}\n", body);
    return s;
}

/* Run body with nthreads threads of one CTA; `in` (n bytes) is copied to a buffer first; the
 * out buffer (outn bytes) is copied back. Returns the stop. */
static exec_stop run_body(const char *body, unsigned nthreads, const void *in, size_t n,
                          void *out, size_t outn)
{
    char *src = kernel(body);
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s\n%s", t.err, body);
    uint64_t a[2];
    ck_assert_int_eq(exec_global_alloc(t.m, outn ? outn : 8, &a[0]), 0);
    ck_assert_int_eq(exec_global_alloc(t.m, n ? n : 8, &a[1]), 0);
    if (n)
        ck_assert_int_eq(exec_mem_write(t.m, PTX_SPACE_GLOBAL, a[1], in, n, 0, 0, 0), 0);
    const ptx_func *f = ptx_find_func(t.mod, "k");
    exec_dim3 g = { 1, 1, 1 }, b = { nthreads, 1, 1 };
    ck_assert_msg(exec_launch(t.m, f, g, b, 0, a, 16) == 0, "%s", exec_errmsg(t.m));
    exec_run_opts o;
    exec_stop st;
    memset(&o, 0, sizeof o);
    o.max_steps = 1000000;
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    if (outn)
        ck_assert_int_eq(exec_mem_read(t.m, PTX_SPACE_GLOBAL, a[0], out, outn, 0, 0, 0), 0);
    t_free(&t);
    free(src);
    return st;
}

static void done(exec_stop st, const char *what)
{
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s: stop %d exc %d: %s", what, (int)st.kind,
                  (int)st.exc, st.msg);
}

/* Each line of `bad` must fail to load, with a message naming its line (line 17). */
static void rejects(const char *const *bad, size_t n)
{
    char log[4096];
    size_t ml = 0;
    int nbad = 0;
    log[0] = 0;
    for (size_t i = 0; i < n; i++) {
        char *src = kernel(bad[i]);
        T t;
        int rc = t_load(&t, src);
        if (rc == 0 || !strstr(t.err, "t.ptx:17:")) {
            nbad++;
            if (ml < sizeof log - 200)
                ml += (size_t)snprintf(log + ml, sizeof log - ml, "\n  %s: %s", bad[i],
                                       rc == 0 ? "accepted" : t.err);
        }
        t_free(&t);
        free(src);
    }
    ck_assert_msg(nbad == 0, "%d invalid forms not rejected:%s", nbad, log);
}

/* Each line of `good` loads and runs (one warp) to completion. */
static void accepts(const char *const *good, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t in[32] = { 0 }, out[32];
        done(run_body(good[i], 32, in, sizeof in, out, sizeof out), good[i]);
    }
}

/* ---- mad24 ------------------------------------------------------------------------------------
 * t = a[23:0] * b[23:0] (48 bits, signed or unsigned); .lo: d = t[31:0] + c; .hi: d = t[47:16]
 * + c; .hi.sat.s32: the sum clamped to the s32 range. */
static int64_t sx24(uint32_t v) { return (int64_t)((int32_t)(v << 8) >> 8); }
static uint32_t mad24_ref(uint32_t a, uint32_t b, uint32_t c, int hi, int sgn, int sat)
{
    int64_t t = sgn ? sx24(a) * sx24(b) : (int64_t)((uint64_t)(a & 0xffffff) * (b & 0xffffff));
    uint32_t part = hi ? (uint32_t)((uint64_t)t >> 16) : (uint32_t)t;
    if (!sat)
        return part + c;
    int64_t s = (int64_t)(int32_t)part + (int64_t)(int32_t)c;
    return (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
}

START_TEST(test_mad24)
{
    enum { N = 64 };
    uint32_t in[N * 2][3];
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    static const uint32_t edge[] = { 0, 1, 0x7fffff, 0x800000, 0xffffff, 0x1000000, 0xff800000,
                                     0x7fffffff, 0x80000000, 0xffffffff, 0x00abcdef };
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 3; k++) {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
            in[i][k] = i < 33 ? edge[(size_t)(i * 3 + k) % (sizeof edge / sizeof edge[0])]
                              : (uint32_t)seed;
        }
    const char *body =
        " mul.wide.u32 %rd6, %r0, 12;\n add.u64 %rd6, %rd2, %rd6;\n"
        " ld.global.u32 %r1, [%rd6];\n ld.global.u32 %r2, [%rd6+4];\n ld.global.u32 %r3, [%rd6+8];\n"
        " mul.wide.u32 %rd7, %r0, 24;\n add.u64 %rd7, %rd1, %rd7;\n"
        " mad24.lo.s32 %r4, %r1, %r2, %r3;\n mad24.hi.s32 %r5, %r1, %r2, %r3;\n"
        " mad24.hi.sat.s32 %r6, %r1, %r2, %r3;\n mad24.lo.u32 %r7, %r1, %r2, %r3;\n"
        " mad24.hi.u32 %r8, %r1, %r2, %r3;\n mad24.lo.s32 %r9, %r1, -3, 100;\n"
        " st.global.v2.u32 [%rd7], {%r4, %r5};\n st.global.v2.u32 [%rd7+8], {%r6, %r7};\n"
        " st.global.v2.u32 [%rd7+16], {%r8, %r9};\n";
    uint32_t out[N][6];
    done(run_body(body, N, in, sizeof in, out, sizeof out), "mad24");
    for (int i = 0; i < N; i++) {
        uint32_t a = in[i][0], b = in[i][1], c = in[i][2];
        ck_assert_uint_eq(out[i][0], mad24_ref(a, b, c, 0, 1, 0));
        ck_assert_uint_eq(out[i][1], mad24_ref(a, b, c, 1, 1, 0));
        ck_assert_uint_eq(out[i][2], mad24_ref(a, b, c, 1, 1, 1));
        ck_assert_uint_eq(out[i][3], mad24_ref(a, b, c, 0, 0, 0));
        ck_assert_uint_eq(out[i][4], mad24_ref(a, b, c, 1, 0, 0));
        ck_assert_uint_eq(out[i][5], mad24_ref(a, (uint32_t)-3, 100, 0, 1, 0));
    }
    static const char *const bad[] = {
        " mad24.lo.sat.s32 %r4, %r1, %r2, %r3;",   /* .sat only with .hi */
        " mad24.hi.sat.u32 %r4, %r1, %r2, %r3;",   /* .sat only for .s32 */
        " mad24.s32 %r4, %r1, %r2, %r3;",          /* a mode is required */
        " mad24.lo.s64 %rd6, %rd1, %rd2, %rd3;",   /* 32-bit types only */
        " mad24.wide.s32 %rd6, %r1, %r2, %rd3;",
    };
    rejects(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

/* ---- ldu ------------------------------------------------------------------------------------
 * ldu{.global}{.vec}.type d, [a]: a load of a value the same for the warp; global or generic
 * addressing (to global memory) only. */
START_TEST(test_ldu)
{
    uint64_t in[32];
    for (int i = 0; i < 32; i++)
        in[i] = 0x0101010101010101ull * (uint64_t)(i + 1) + 0x0f0e0d0c0b0a0908ull;
    const char *body =
        " mul.wide.u32 %rd6, %r0, 64;\n add.u64 %rd6, %rd1, %rd6;\n"
        " ldu.global.u32 %r1, [%rd2+8];\n"
        " ldu.global.v2.u32 {%r2, %r3}, [%rd2+16];\n"
        " ldu.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd2+32];\n"
        " ldu.global.b64 %rd7, [%rd2+56];\n"
        " ldu.global.f32 %f1, [%rd2+4];\n"
        " ldu.global.u8 %h1, [%rd2+3];\n"
        " ldu.u64 %rd8, [%rd2+64];\n"                 /* generic */
        " ldu.global.v2.f64 {%fd1, %fd2}, [%rd2+80];\n"
        " ldu.global.b128 %q1, [%rd2+96];\n"
        " mov.b128 {%rd9, %rd10}, %q1;\n"
        " ldu.global.s16 %r8, [%rd2+6];\n"           /* sign-extended into 32 bits */
        " ldu.global.u32 %r9, [gbuf+4];\n"           /* a global variable */
        " st.global.u32 [%rd6], %r1;\n st.global.u32 [%rd6+4], %r2;\n st.global.u32 [%rd6+8], %r3;\n"
        " st.global.u32 [%rd6+12], %r7;\n st.global.u64 [%rd6+16], %rd7;\n"
        " st.global.f32 [%rd6+24], %f1;\n st.global.u16 [%rd6+28], %h1;\n"
        " st.global.u64 [%rd6+32], %rd8;\n st.global.f64 [%rd6+40], %fd2;\n"
        " st.global.u64 [%rd6+48], %rd10;\n st.global.u32 [%rd6+56], %r8;\n"
        " st.global.u32 [%rd6+60], %r9;\n";
    uint8_t out[32 * 64];
    done(run_body(body, 32, in, sizeof in, out, sizeof out), "ldu");
    const uint8_t *ib = (const uint8_t *)in;
    for (int i = 0; i < 32; i++) {
        const uint8_t *o = out + 64 * i;
        ck_assert_int_eq(memcmp(o, ib + 8, 4), 0);
        ck_assert_int_eq(memcmp(o + 4, ib + 16, 8), 0);
        ck_assert_int_eq(memcmp(o + 12, ib + 44, 4), 0);
        ck_assert_int_eq(memcmp(o + 16, ib + 56, 8), 0);
        ck_assert_int_eq(memcmp(o + 24, ib + 4, 4), 0);
        ck_assert_uint_eq(o[28], ib[3]);
        ck_assert_uint_eq(o[29], 0);
        ck_assert_int_eq(memcmp(o + 32, ib + 64, 8), 0);
        ck_assert_int_eq(memcmp(o + 40, ib + 88, 8), 0);
        ck_assert_int_eq(memcmp(o + 48, ib + 104, 8), 0);
        int16_t h;
        memcpy(&h, ib + 6, 2);
        uint32_t w;
        memcpy(&w, o + 56, 4);
        ck_assert_uint_eq(w, (uint32_t)(int32_t)h);
        memcpy(&w, o + 60, 4);
        ck_assert_uint_eq(w, 0);
    }
    static const char *const bad[] = {
        " ldu.shared.u32 %r1, [sbuf];",
        " ldu.local.u32 %r1, [lbuf];",
        " ldu.const.u32 %r1, [%rd2];",
        " ldu.param.u64 %rd6, [in];",
        " ldu.global.v8.u32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd2];",
        " ldu.global.u32 %r1, [%rd2], %rd3;",           /* no cache-policy operand */
        " ldu.relaxed.gpu.global.u32 %r1, [%rd2];",     /* no memory-order qualifiers */
    };
    rejects(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

/* ---- prefetch / prefetchu: every form decodes and has no visible effect --------------------- */
START_TEST(test_prefetch)
{
    static const char *const good[] = {
        " prefetch.global.L1 [%rd2];\n prefetch.global.L2 [%rd2+64];\n"
        " prefetch.local.L1 [lbuf];\n prefetch.local.L2 [lbuf+16];\n"
        " prefetch.L1 [%rd2];\n prefetch.L2 [%rd2];\n"
        " prefetch.global.L2::evict_last [%rd2];\n prefetch.global.L2::evict_normal [gbuf];\n"
        " prefetch.L2::evict_last [%rd2];\n"
        " prefetchu.L1 [%rd2];\n prefetchu.L1 [gbuf+32];\n"
        " prefetch.tensormap [%rd2];\n prefetch.const.tensormap [%rd2];\n"
        " prefetch.param.tensormap [in];\n"
        " st.global.u32 [%rd3], %r0;",
    };
    accepts(good, 1);
    uint64_t in[32] = { 0 }, out[32];
    done(run_body(good[0], 32, in, sizeof in, out, sizeof out), "prefetch");
    for (uint32_t i = 0; i < 32; i++)
        ck_assert_uint_eq((uint32_t)out[i], i);
    static const char *const bad[] = {
        " prefetch.shared.L1 [sbuf];",        /* .global or .local only */
        " prefetch.global [%rd2];",            /* a level is required */
        " prefetch.global.L3 [%rd2];",
        " prefetchu.L2 [%rd2];",               /* prefetchu: .L1 only */
        " prefetch.local.L2::evict_last [lbuf];", /* eviction priority: .global only */
        " prefetch.global.L1 %rd2;",           /* an address operand */
    };
    rejects(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

/* ---- createpolicy, discard, applypriority ---------------------------------------------------- */
START_TEST(test_cache_policy_ops)
{
    uint64_t in[32];
    for (int i = 0; i < 32; i++)
        in[i] = 0x1111111111111111ull * (uint64_t)(i % 15 + 1);
    const char *body =
        " createpolicy.fractional.L2::evict_last.b64 %rd6, 1.0;\n"
        " createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd7, 0.5;\n"
        " createpolicy.fractional.L2::evict_first.b64 %rd8;\n"
        " createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %rd9, 0.25;\n"
        " createpolicy.fractional.L2::evict_unchanged.b64 %rd10, 0.125;\n"
        " createpolicy.range.L2::evict_last.L2::evict_first.b64 %rd11, [%rd2], 64, 256;\n"
        " createpolicy.range.global.L2::evict_normal.b64 %rd12, [%rd2], 128, 128;\n"
        " createpolicy.cvt.L2.b64 %rd13, %rd6;\n"
        " ld.global.L2::cache_hint.u64 %rd14, [%rd4], %rd7;\n"
        " add.u64 %rd14, %rd14, 1;\n"
        " st.global.L2::cache_hint.u64 [%rd3], %rd14, %rd11;\n"
        " discard.global.L2 [%rd2+128], 128;\n"
        " discard.L2 [%rd2+128], 128;\n"
        " applypriority.global.L2::evict_normal [%rd2], 128;\n"
        " applypriority.L2::evict_normal [%rd2+128], 128;\n";
    uint64_t out[32];
    done(run_body(body, 32, in, sizeof in, out, sizeof out), "createpolicy");
    for (int i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], in[i] + 1);
    static const char *const bad[] = {
        " createpolicy.fractional.L2::evict_last.b32 %r1, 0.5;",     /* .b64 only */
        " createpolicy.fractional.L2::evict_last.b64 %rd6, 1.5;",    /* fraction in (0, 1] */
        " createpolicy.fractional.L2::evict_last.b64 %rd6, 0.0;",
        " createpolicy.fractional.L2::evict_last.L2::evict_last.b64 %rd6, 0.5;", /* secondary */
        " createpolicy.range.L2::evict_last.b64 %rd6, [%rd2];",      /* sizes missing */
        " createpolicy.fractional.L2::evict_sometimes.b64 %rd6, 0.5;",
        " createpolicy.b64 %rd6, 0.5;",
        " discard.global.L2 [%rd2], 64;",                            /* 128 only */
        " discard.shared.L2 [sbuf], 128;",                           /* global / generic */
        " discard.global.L1 [%rd2], 128;",
        " applypriority.global.L2::evict_last [%rd2], 128;",         /* evict_normal only */
        " applypriority.global.L2::evict_normal [%rd2], 256;",
    };
    rejects(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

/* ---- membar / fence: every form runs (ordering only: the emulator is sequentially
 * consistent); values written before a fence are seen after it by the other warp. */
START_TEST(test_membar_fence)
{
    static const char *const good[] = {
        " membar.cta;\n membar.gl;\n membar.sys;\n membar.proxy.alias;",
        " fence.sc.cta;\n fence.sc.cluster;\n fence.sc.gpu;\n fence.sc.sys;",
        " fence.acq_rel.cta;\n fence.acq_rel.cluster;\n fence.acq_rel.gpu;\n fence.acq_rel.sys;",
        " fence.cta;\n fence.gpu;\n fence.acquire.cta;\n fence.release.sys;",
        " fence.proxy.alias;\n fence.proxy.async;\n fence.proxy.async.global;\n"
        " fence.proxy.async.shared::cta;\n fence.proxy.async.shared::cluster;",
        " fence.proxy.tensormap::generic.release.cta;\n fence.proxy.tensormap::generic.release.gpu;\n"
        " fence.proxy.tensormap::generic.acquire.sys [%rd2], 128;",
        " fence.mbarrier_init.release.cluster;\n fence.op_restrict.release.cluster;",
        " fence.acquire.sync_restrict::shared::cluster.cluster;\n"
        " fence.release.sync_restrict::shared::cta.cluster;\n"
        " fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;\n"
        " fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
    };
    accepts(good, sizeof good / sizeof good[0]);
    /* message passing between two warps: flag after data, fenced on both sides */
    const char *body =
        " setp.eq.u32 %p1, %r0, 0;\n setp.eq.u32 %p2, %r0, 32;\n"
        " @!%p1 bra RD;\n st.global.u32 [gbuf], 1234;\n fence.acq_rel.gpu;\n"
        " st.volatile.global.u32 [gbuf+4], 1;\n bra END;\n"
        "RD: @!%p2 bra END;\n"
        "SPIN: ld.volatile.global.u32 %r1, [gbuf+4];\n setp.eq.u32 %p3, %r1, 0;\n @%p3 bra SPIN;\n"
        " membar.gl;\n ld.global.u32 %r2, [gbuf];\n st.global.u32 [%rd1], %r2;\n"
        "END:";
    uint32_t out[2];
    done(run_body(body, 64, NULL, 0, out, sizeof out), "message passing");
    ck_assert_uint_eq(out[0], 1234);
    static const char *const bad[] = {
        " membar;", " membar.gpu;", " membar.cta.sys;", " membar.cta %r1;",
        " fence;", " fence.sc;", " fence.acq_rel;", " fence.sc.acq_rel.gpu;", " fence.sc.gpu.sys;",
        " fence.relaxed.gpu;", " fence.sc.device;", " fence.proxy;", " fence.proxy.generic;",
        " fence.proxy.async.local;", " fence.proxy.tensormap::generic.acquire.gpu;",
        " fence.proxy.tensormap::generic.release.gpu [%rd2], 128;",
        " fence.mbarrier_init.release.cta;", " fence.op_restrict.acquire.cluster;",
        " fence.sc.sync_restrict::shared::cluster.cluster;",
    };
    rejects(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

/* ---- elect.sync: every thread of membermask gets the leader's laneid in d; p is true for the
 * leader only. The leader is the same for the same mask: the lowest lane of the mask. */
START_TEST(test_elect)
{
    static const uint32_t masks[] = { 0xffffffffu, 0x0000ffffu, 0xf0f0f0f0u, 0x80000000u,
                                      0x00000001u, 0x12345678u, 0xaaaaaaaau };
    for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
        char body[1024];
        snprintf(body, sizeof body,
                 " mov.u32 %%r1, 0x%08x;\n shr.u32 %%r2, %%r1, %%r0;\n and.b32 %%r2, %%r2, 1;\n"
                 " mov.u32 %%r3, 0xdead;\n mov.u32 %%r4, 0xdead;\n mov.u32 %%r5, 0xdead;\n"
                 " setp.eq.u32 %%p1, %%r2, 0;\n @%%p1 bra OUT;\n"
                 " elect.sync %%r3|%%p2, %%r1;\n selp.u32 %%r4, 1, 0, %%p2;\n"
                 " elect.sync _|%%p3, 0x%08x;\n selp.u32 %%r5, 1, 0, %%p3;\n"
                 "OUT:\n st.global.v2.u32 [%%rd3], {%%r3, %%r4};\n"
                 " st.global.u32 [%%rd1+256], %%r5;\n", masks[k], masks[k]);
        uint32_t out[66];
        memset(out, 0, sizeof out);
        done(run_body(body, 32, NULL, 0, out, sizeof out), body);
        uint32_t leader = (uint32_t)__builtin_ctz(masks[k]);
        int nlead = 0;
        for (uint32_t i = 0; i < 32; i++) {
            if (!(masks[k] >> i & 1)) {
                ck_assert_uint_eq(out[2 * i], 0xdead);
                ck_assert_uint_eq(out[2 * i + 1], 0xdead);
                continue;
            }
            ck_assert_uint_eq(out[2 * i], leader);
            ck_assert_uint_eq(out[2 * i + 1], i == leader);
            nlead += out[2 * i + 1] != 0;
        }
        ck_assert_int_eq(nlead, 1);
    }
    /* the threads of a partial warp; members that arrive at different times (divergence) */
    const char *body =
        " and.b32 %r1, %r0, 1;\n setp.eq.u32 %p1, %r1, 0;\n"
        " @%p1 bra EVEN;\n elect.sync %r3|%p2, 0x000fffff;\n bra JOIN;\n"
        "EVEN: elect.sync %r3|%p2, 0x000fffff;\n"
        "JOIN: selp.u32 %r4, 1, 0, %p2;\n st.global.v2.u32 [%rd3], {%r3, %r4};\n";
    uint32_t out[40];
    done(run_body(body, 20, NULL, 0, out, sizeof out), "partial");
    for (uint32_t i = 0; i < 20; i++) {
        ck_assert_uint_eq(out[2 * i], 0);
        ck_assert_uint_eq(out[2 * i + 1], i == 0);
    }
    /* a mask naming threads that do not exist: they count as exited, as on the hardware */
    done(run_body(" elect.sync %r3|%p2, 0xffffffff;\n selp.u32 %r4, 1, 0, %p2;\n"
                  " st.global.v2.u32 [%rd3], {%r3, %r4};\n", 20, NULL, 0, out, sizeof out),
         "absent lanes");
    for (uint32_t i = 0; i < 20; i++) {
        ck_assert_uint_eq(out[2 * i], 0);
        ck_assert_uint_eq(out[2 * i + 1], i == 0);
    }
    static const char *const bad[] = {
        " elect %r3|%p2, 0xffffffff;",        /* .sync is mandatory */
        " elect.sync %r3|%p2;",
        " elect.sync.b32 %r3|%p2, 0xffffffff;",
    };
    rejects(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

/* ---- griddepcontrol, pmevent, nanosleep: no visible effect, but decoded strictly ----------- */
START_TEST(test_griddep_pmevent_nanosleep)
{
    static const char *const good[] = {
        " griddepcontrol.launch_dependents;\n griddepcontrol.wait;\n st.global.u32 [%rd3], %r0;",
        " pmevent 0;\n pmevent 15;\n pmevent.mask 0x1;\n pmevent.mask 0xffff;\n"
        " st.global.u32 [%rd3], %r0;",
        " nanosleep.u32 100;\n mov.u32 %r1, 1000000;\n nanosleep.u32 %r1;\n"
        " st.global.u32 [%rd3], %r0;",
    };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        uint64_t out[32];
        memset(out, 0xff, sizeof out);
        done(run_body(good[k], 32, NULL, 0, out, sizeof out), good[k]);
        for (uint32_t i = 0; i < 32; i++)
            ck_assert_uint_eq((uint32_t)out[i], i);
    }
    static const char *const bad[] = {
        " griddepcontrol;", " griddepcontrol.launch;", " griddepcontrol.wait %r1;",
        " griddepcontrol.wait.launch_dependents;",
        " pmevent 16;", " pmevent -1;", " pmevent %r1;", " pmevent.mask 0x10000;",
        " pmevent.all 1;",
        " nanosleep 100;", " nanosleep.u64 %rd1;", " nanosleep.u32 %r1, %r2;",
    };
    rejects(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

static Suite *misc_suite(void)
{
    Suite *s = suite_create("misc_ops");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_mad24);
    tcase_add_test(tc, test_ldu);
    tcase_add_test(tc, test_prefetch);
    tcase_add_test(tc, test_cache_policy_ops);
    tcase_add_test(tc, test_membar_fence);
    tcase_add_test(tc, test_elect);
    tcase_add_test(tc, test_griddep_pmevent_nanosleep);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(misc_suite());
}
