/* test_checkers.c - the observer seams (memory, sync), allocation padding, the checker framework, memcheck, initcheck. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core_harness.h"
#include "chk.h"

/* ---- an observer that records what it sees ------------------------------------------------- */
#define REC_MAX 4096
typedef struct {
    int n;
    struct { uint32_t cta, warp, lane, pc; uint8_t kind, status, flags; ptx_space sp;
             uint64_t addr, size; uint32_t before; } a[REC_MAX];
    int nsync;
    exec_sync_ev s[REC_MAX];
} rec;

static int rec_access(void *ctx, exec_machine *m, const exec_mem_ev *ev)
{
    (void)m;
    rec *r = ctx;
    for (uint32_t l = 0; l < 32; l++)
        if ((ev->lanes >> l) & 1 && r->n < REC_MAX) {
            r->a[r->n].cta = ev->cta;
            r->a[r->n].warp = ev->warp;
            r->a[r->n].lane = l;
            r->a[r->n].pc = ev->pc;
            r->a[r->n].kind = ev->kind;
            r->a[r->n].status = ev->status;
            r->a[r->n].flags = ev->flags;
            r->a[r->n].sp = ev->space;
            r->a[r->n].addr = exec_mem_ev_addr(ev, l);
            r->a[r->n].size = ev->size;
            const uint8_t *b = exec_mem_ev_bytes(ev, l);
            r->a[r->n].before = 0xdeadbeefu;
            if (b && ev->size >= 4)
                memcpy(&r->a[r->n].before, b, 4);
            r->n++;
        }
    return EXEC_OBS_GO;
}

static void rec_sync(void *ctx, exec_machine *m, const exec_sync_ev *ev)
{
    (void)m;
    rec *r = ctx;
    if (r->nsync < REC_MAX)
        r->s[r->nsync++] = *ev;
}

static int rec_count(const rec *r, ptx_space sp, int kind)
{
    int n = 0;
    for (int i = 0; i < r->n; i++)
        n += r->a[i].sp == sp && r->a[i].kind == kind;
    return n;
}

static int rec_has(const rec *r, ptx_space sp, int kind, uint32_t lane, uint64_t addr)
{
    for (int i = 0; i < r->n; i++)
        if (r->a[i].sp == sp && r->a[i].kind == kind && r->a[i].lane == lane &&
            r->a[i].addr == addr)
            return 1;
    return 0;
}

static int sync_count(const rec *r, exec_sync_kind k)
{
    int n = 0;
    for (int i = 0; i < r->nsync; i++)
        n += r->s[i].kind == k;
    return n;
}

/* Every access path: the warp-wide fast path (one buffer), the checked path (two buffers in
 * one instruction), generic addresses into shared memory, local memory, atomics, a barrier. */
static const char *k_paths = HDR
    ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n"
    " .shared .align 4 .b32 sm[64];\n"
    " .local .align 4 .b8 __local_depot0[8];\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<12>; .reg .pred %p<2>; .reg .b64 %SPL;\n"
    " mov.u64 %SPL, __local_depot0;\n"
    " ld.param.u64 %rd1, [a];\n"
    " ld.param.u64 %rd2, [b];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd1, %rd3;\n"
    " ld.global.u32 %r2, [%rd4];\n"                 /* fast path: a[t] */
    " setp.lt.u32 %p1, %r1, 16;\n"
    " selp.b64 %rd5, %rd1, %rd2, %p1;\n"
    " add.s64 %rd6, %rd5, %rd3;\n"
    " st.global.u32 [%rd6], %r1;\n"                 /* lanes < 16 into a, the others into b */
    " mov.u64 %rd7, sm;\n"
    " cvta.shared.u64 %rd8, %rd7;\n"
    " add.s64 %rd9, %rd8, %rd3;\n"
    " st.u32 [%rd9], %r2;\n"                        /* generic store into shared */
    " st.local.u32 [%SPL+4], %r1;\n"
    " bar.sync 0;\n"
    " atom.global.add.u32 %r3, [%rd1], 1;\n"
    " ret;\n}\n";

START_TEST(seam_paths)
{
    T t;
    ck_assert_msg(t_load(&t, k_paths) == 0, "%s", t.err);
    uint64_t a = t_buf(&t, 256), b = t_buf(&t, 256);
    uint32_t init[64];
    for (int i = 0; i < 64; i++)
        init[i] = 1000u + (uint32_t)i;
    t_write(&t, a, init, sizeof init);
    rec *r = calloc(1, sizeof *r);
    exec_observer o = { .name = "test",
                        .spaces = 1u << PTX_SPACE_GLOBAL | 1u << PTX_SPACE_SHARED |
                                  1u << PTX_SPACE_LOCAL,
                        .want = EXEC_OBS_SYNC, .access = rec_access, .sync = rec_sync,
                        .ctx = r };
    ck_assert_int_ge(exec_observer_add(t.m, &o), 0);
    uint64_t args[2] = { a, b };
    t_launch_args(&t, "k", 1, 64, args, 2);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    /* every lane of every instruction, whatever the path */
    ck_assert_int_eq(rec_count(r, PTX_SPACE_GLOBAL, EXEC_ACC_READ), 64);
    ck_assert_int_eq(rec_count(r, PTX_SPACE_GLOBAL, EXEC_ACC_WRITE), 64);
    ck_assert_int_eq(rec_count(r, PTX_SPACE_SHARED, EXEC_ACC_WRITE), 64);
    ck_assert_int_eq(rec_count(r, PTX_SPACE_LOCAL, EXEC_ACC_WRITE), 64);
    ck_assert_int_eq(rec_count(r, PTX_SPACE_GLOBAL, EXEC_ACC_ATOMIC), 64);
    for (uint32_t t0 = 0; t0 < 64; t0++) {
        uint32_t l = t0 % 32;
        ck_assert(rec_has(r, PTX_SPACE_GLOBAL, EXEC_ACC_READ, l, a + 4 * t0));
        ck_assert(rec_has(r, PTX_SPACE_GLOBAL, EXEC_ACC_WRITE, l, (t0 < 16 ? a : b) + 4 * t0));
        ck_assert(rec_has(r, PTX_SPACE_SHARED, EXEC_ACC_WRITE, l, 4 * t0)); /* space address */
        ck_assert(rec_has(r, PTX_SPACE_GLOBAL, EXEC_ACC_ATOMIC, l, a));
    }
    for (int i = 0; i < r->n; i++) {
        if (r->a[i].sp == PTX_SPACE_SHARED)
            ck_assert(r->a[i].flags & EXEC_ACC_F_GENERIC);
        /* observers run before the access: the bytes hold what a read gets */
        if (r->a[i].sp == PTX_SPACE_GLOBAL && r->a[i].kind == EXEC_ACC_READ)
            ck_assert_uint_eq(r->a[i].before, 1000u + (uint32_t)((r->a[i].addr - a) / 4));
        /* the order an access states: plain ones weak, an atomic without qualifiers relaxed at
           gpu scope (PTX memory consistency model) */
        uint8_t sem, scope;
        ck_assert_int_eq(exec_pc_order(t.m, r->a[i].pc, &sem, &scope), 0);
        if (r->a[i].kind == EXEC_ACC_ATOMIC) {
            ck_assert_int_eq(sem, EXEC_SEM_RELAXED);
            ck_assert_int_eq(scope, EXEC_SCOPE_GPU);
        } else {
            ck_assert_int_eq(sem, EXEC_SEM_WEAK);
        }
    }
    for (int i = 0; i < r->nsync; i++)
        if (r->s[i].kind == EXEC_SYNC_BAR_ARRIVE) {
            ck_assert_int_eq(r->s[i].op, EXEC_BAR_SYNC);
            ck_assert_int_eq(r->s[i].id, 0);
            ck_assert_uint_eq(r->s[i].lanes, 0xffffffffu);
        }
    /* sync: launch, one CTA, both warps at the barrier, it completes, every lane exits */
    ck_assert_int_eq(sync_count(r, EXEC_SYNC_LAUNCH), 1);
    ck_assert_int_eq(sync_count(r, EXEC_SYNC_CTA_BEGIN), 1);
    ck_assert_int_eq(sync_count(r, EXEC_SYNC_BAR_ARRIVE), 2);
    ck_assert_int_eq(sync_count(r, EXEC_SYNC_BAR_DONE), 1);
    ck_assert_int_eq(sync_count(r, EXEC_SYNC_CTA_END), 1);
    ck_assert_int_eq(sync_count(r, EXEC_SYNC_LAUNCH_END), 1);
    uint32_t exited[2] = { 0, 0 };
    for (int i = 0; i < r->nsync; i++)
        if (r->s[i].kind == EXEC_SYNC_EXIT)
            exited[r->s[i].warp] |= r->s[i].lanes;
    ck_assert_uint_eq(exited[0], 0xffffffffu);
    ck_assert_uint_eq(exited[1], 0xffffffffu);
    free(r);
    t_free(&t);
}
END_TEST

/* A shuffle whose membermask names lanes that exited: the sync event says which took part and
 * which the mask names in vain. */
static const char *k_shfl = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.ge.u32 %p1, %r1, 16;\n"
    " @%p1 exit;\n"
    " shfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n"
    " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r2;\n"
    " ret;\n}\n";

START_TEST(seam_warp_sync)
{
    T t;
    ck_assert_msg(t_load(&t, k_shfl) == 0, "%s", t.err);
    rec *r = calloc(1, sizeof *r);
    exec_observer o = { .name = "test", .want = EXEC_OBS_SYNC, .sync = rec_sync, .ctx = r };
    ck_assert_int_ge(exec_observer_add(t.m, &o), 0);
    uint64_t args[1] = { t_buf(&t, 128) };
    t_launch_args(&t, "k", 1, 32, args, 1);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    int found = 0;
    for (int i = 0; i < r->nsync; i++)
        if (r->s[i].kind == EXEC_SYNC_WARP) {
            ck_assert_uint_eq(r->s[i].mask, 0xffffffffu);
            ck_assert_uint_eq(r->s[i].lanes, 0x0000ffffu);
            ck_assert_uint_eq(r->s[i].absent, 0xffff0000u);
            ck_assert_str_eq(r->s[i].what, "shfl");
            found++;
        }
    ck_assert_int_eq(found, 1);
    free(r);
    t_free(&t);
}
END_TEST

/* ---- the hardware's granularity --------------------------------------------------------------- */
START_TEST(padding_model)
{
    /* small allocations: to the next 256-byte boundary and 256 bytes more; large ones: to the end
       of their 2 MB page and one more page */
    ck_assert_uint_eq(exec_alloc_padding(1), 255 + 256);
    ck_assert_uint_eq(exec_alloc_padding(256), 256);
    ck_assert_uint_eq(exec_alloc_padding(1000), 24 + 256);
    ck_assert_uint_eq(exec_alloc_padding(9u << 18), (4u << 20) - (9u << 18) + (2u << 20));
    ck_assert_uint_eq(exec_alloc_padding(4u << 20), 2u << 20);
}
END_TEST

static const char *k_past = HDR
    ".visible .entry k(.param .u64 a, .param .u32 off, .param .u32 v)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [a];\n"
    " ld.param.u32 %r1, [off];\n"
    " ld.param.u32 %r2, [v];\n"
    " cvt.u64.u32 %rd2, %r1; add.s64 %rd3, %rd1, %rd2;\n"
    " ld.global.u32 %r3, [%rd3];\n"
    " add.u32 %r3, %r3, %r2;\n"
    " st.global.u32 [%rd3], %r3;\n"
    " ret;\n}\n";

START_TEST(padding_accesses)
{
    T t;
    ck_assert_msg(t_load(&t, k_past) == 0, "%s", t.err);
    uint64_t a = t_buf(&t, 64), b = t_buf(&t, 64);
    /* 64 bytes + 448 of padding: b starts right after a's padding */
    ck_assert_uint_eq(b, a + 512);
    uint32_t zero[16] = { 0 };
    t_write(&t, b, zero, sizeof zero);
    for (int run = 0; run < 2; run++) {   /* one past the end, twice: reads what was written */
        uint64_t args[3] = { a, 64, 5 };
        t_launch_args(&t, "k", 1, 1, args, 3);
        exec_stop st = t_run(&t);
        ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    }
    ck_assert_uint_eq(exec_pad_accesses(t.m), 4);
    uint64_t args2[3] = { a, 508, 1 };     /* the padding's last word */
    t_launch_args(&t, "k", 1, 1, args2, 3);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t got[16];
    t_read(&t, b, got, sizeof got);
    ck_assert_mem_eq(got, zero, sizeof zero);   /* the neighbour never saw the writes */
    /* the padding held the value: a read-modify-write of 5 twice gave 10 (read back through a
       kernel: the padding is no part of the buffer for the debugger) */
    uint64_t args3[3] = { a, 64, 0 };
    t_launch_args(&t, "k", 1, 1, args3, 3);
    st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    /* past the padding: the next region, which is a valid access; before the first region:
       a fault */
    uint64_t args4[3] = { a, 4096, 0 };
    t_launch_args(&t, "k", 1, 1, args4, 3);
    st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_OUT_OF_RANGE);
    t_free(&t);
}
END_TEST

/* ---- memcheck through the framework --------------------------------------------------------- */
typedef struct { int n; chk_finding last; } reports;
static void on_report(void *ctx, const chk_finding *f)
{
    reports *r = ctx;
    r->n++;
    r->last = *f;
}

/* CTA 5 of 16 writes one past its buffer; the others stay inside. */
static const char *k_cta5 = HDR
    ".visible .entry k(.param .u64 a)\n{\n"
    " .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [a];\n"
    " mov.u32 %r1, %ctaid.x; mov.u32 %r2, %tid.x; mov.u32 %r5, %ntid.x;\n"
    " mad.lo.u32 %r3, %r1, %r5, %r2;\n"
    " setp.eq.u32 %p1, %r1, 5;\n"
    " and.b32 %r4, %r2, 63;\n"
    " @%p1 add.u32 %r3, %r4, 2048;\n"
    " mul.wide.u32 %rd2, %r3, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r2;\n"
    " ret;\n}\n";

/* Run k_cta5 with n worker threads under memcheck (reports, no stops); the findings. */
static void run_cta5(int nthreads, reports *rep, uint32_t *mem, uint64_t *count)
{
    T t;
    ck_assert_msg(t_load(&t, k_cta5) == 0, "%s", t.err);
    chk_ctx *c = chk_new();
    char err[256];
    ck_assert_int_eq(chk_set(c, "memcheck", 1, err, sizeof err), 0);
    chk_set_stop(c, 0);
    chk_hooks h = { .ctx = rep, .report = on_report };
    chk_set_hooks(c, &h);
    ck_assert_int_eq(chk_attach(c, t.m), 0);
    exec_set_threads(t.m, nthreads);
    uint64_t a = t_buf(&t, 16 * 128 * 4);
    uint64_t args[1] = { a };
    t_launch_args(&t, "k", 16, 128, args, 1);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    t_read(&t, a, mem, 16 * 128 * 4);
    ck_assert_int_eq(chk_count(c), 1);
    *count = chk_at(c, 0)->count;
    chk_free(c);
    t_free(&t);
}

START_TEST(memcheck_threads)
{
    /* every thread of CTA 5 writes a[2048 + t % 64], in the 256 bytes of padding after the
       8 KB buffer: the same findings (128 occurrences at one pc) on 1 and 4 threads */
    reports r1 = { 0 }, r4 = { 0 };
    static uint32_t m1[2048], m4[2048];
    uint64_t c1, c4;
    run_cta5(1, &r1, m1, &c1);
    run_cta5(4, &r4, m4, &c4);
    ck_assert_int_eq(r1.n, 1);
    ck_assert_int_eq(r4.n, 1);
    ck_assert_uint_eq(c1, 128);
    ck_assert_uint_eq(c4, 128);
    ck_assert_uint_eq(r1.last.party[0].cta, 5);
    ck_assert_uint_eq(r4.last.party[0].cta, 5);
    ck_assert_uint_eq(r1.last.party[0].lane, r4.last.party[0].lane);
    ck_assert_uint_eq(r1.last.addr, r4.last.addr);
    ck_assert_int_eq(r1.last.gpu_faults, 0);
    ck_assert_mem_eq(m1, m4, sizeof m1);
}
END_TEST

/* ---- racecheck -------------------------------------------------------------------------------
 * k_race: every CTA stores its number at a[tid] (blocks race on global memory, write-write);
 * then thread t reads s[t ^ 32] after writing s[t]: a shared read-after-write race between the
 * two warps unless `bar` is set (then bar.sync 0 orders them). */
static const char *k_race = HDR
    ".visible .entry k(.param .u64 a, .param .u32 bar)\n{\n"
    " .reg .b32 %r<9>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " .shared .align 4 .b8 s[256];\n"
    " ld.param.u64 %rd1, [a]; ld.param.u32 %r8, [bar];\n"
    " mov.u32 %r1, %ctaid.x; mov.u32 %r2, %tid.x;\n"
    " setp.ne.u32 %p1, %r8, 0;\n"
    " @%p1 bra SKIPG;\n"
    " mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r1;\n"
    "SKIPG:\n"
    " shl.b32 %r3, %r2, 2; mov.u32 %r4, s; add.u32 %r5, %r4, %r3;\n"
    " st.shared.u32 [%r5], %r2;\n"
    " @%p1 bar.sync 0;\n"
    " xor.b32 %r6, %r3, 128; add.u32 %r7, %r4, %r6;\n"
    " ld.shared.u32 %r6, [%r7];\n"
    " ret;\n}\n";

/* Run kernel k of src, `ctas` blocks of 64 threads, with a buffer of `bytes` and the barrier
 * flag as its arguments, on nthreads worker threads under racecheck (reports, no stops). */
static chk_ctx *run_racecheck(const char *src, int ctas, uint64_t bytes, int nthreads,
                              uint32_t bar, T *t)
{
    ck_assert_msg(t_load(t, src) == 0, "%s", t->err);
    chk_ctx *c = chk_new();
    char err[256];
    ck_assert_int_eq(chk_set(c, "racecheck", 1, err, sizeof err), 0);
    chk_set_stop(c, 0);
    ck_assert_int_eq(chk_attach(c, t->m), 0);
    exec_set_threads(t->m, nthreads);
    uint64_t args[2] = { t_buf(t, bytes), bar };
    t_launch_args(t, "k", ctas, 64, args, 2);
    exec_stop st = t_run(t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    return c;
}

/* Run k_race with n worker threads under racecheck (reports, no stops). */
static chk_ctx *run_race(int nthreads, uint32_t bar, T *t)
{
    return run_racecheck(k_race, 4, 64 * 4, nthreads, bar, t);
}

START_TEST(racecheck_kinds)
{
    T t1, t4, tb;
    chk_ctx *c1 = run_race(1, 0, &t1), *c4 = run_race(4, 0, &t4), *cb = run_race(1, 1, &tb);
    /* the global write-write race between blocks; in shared memory warp 0 reads s[32..63]
       before warp 1 writes them (write-after-read) and warp 1 reads what warp 0 wrote
       (read-after-write); the same on 1 and 4 worker threads; with the barrier none */
    ck_assert_int_eq(chk_count(c1), 3);
    ck_assert_int_eq(chk_count(c4), 3);
    const chk_finding *ww = NULL, *wr = NULL, *rw = NULL;
    for (int i = 0; i < 3; i++) {
        const chk_finding *f = chk_at(c1, i), *g = chk_at(c4, i);
        ck_assert_int_eq(f->kind, g->kind);
        ck_assert_uint_eq(f->count, g->count);
        ck_assert_uint_eq(f->party[0].pc, g->party[0].pc);
        ck_assert_uint_eq(f->party[1].pc, g->party[1].pc);
        ck_assert_int_eq(f->nparties, 2);
        if (f->kind == CHK_K_RACE_WW)
            ww = f;
        else if (f->kind == CHK_K_RACE_WR)
            wr = f;
        else if (f->kind == CHK_K_RACE_RW)
            rw = f;
    }
    ck_assert_ptr_nonnull(ww);
    ck_assert_ptr_nonnull(wr);
    ck_assert_ptr_nonnull(rw);
    ck_assert_int_eq(ww->space, PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(ww->party[0].cta, 0);   /* block 0 wrote first, block 1 second */
    ck_assert_uint_eq(ww->party[1].cta, 1);
    ck_assert_uint_eq(ww->count, 3 * 64);     /* blocks 1..3, 64 threads each */
    ck_assert_int_eq(wr->space, PTX_SPACE_SHARED);
    ck_assert_int_eq(wr->severity, CHK_SEV_ERROR);
    ck_assert_uint_eq(wr->party[0].warp, 0);
    ck_assert_uint_eq(wr->party[1].warp, 1);
    ck_assert_uint_eq(rw->party[0].warp, 0);   /* warp 0 read, then warp 1 wrote */
    ck_assert_uint_eq(rw->party[1].warp, 1);
    char buf[4096];
    chk_format(ww, "", buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "Error: Race reported between Write access at k+0x"));
    ck_assert_ptr_nonnull(strstr(buf, "[192 hazards]"));
    ck_assert_int_eq(chk_count(cb), 0);
    chk_free(c1);
    chk_free(c4);
    chk_free(cb);
    t_free(&t1);
    t_free(&t4);
    t_free(&tb);
}
END_TEST

/* k_bcast: thread 0 writes s[0], all 64 threads load s[0] (a broadcast load: one run of lanes
 * per warp on one granule), then thread 0 writes s[0] again; with `bar` set, bar.sync 0 between
 * each step. Without barriers warp 0 runs to its end before warp 1 starts (one thread: a warp
 * runs until it waits), and by racecheck's rules (docs/CHECKERS.md): lanes 1..31 read what lane
 * 0 wrote unordered (read-after-write in one warp, 31 hazards, first at lane 1); the granule
 * keeps two reads, lane 0's own and the last lane's (lanes after the first two of a warp replace
 * slot 1), so lane 0's second write races with lane 31's read only (write-after-read, 1 hazard);
 * then warp 1's 32 lanes read that write unordered (read-after-write between warps, 32). The
 * same on 4 worker threads; with the barriers nothing. */
static const char *k_bcast = HDR
    ".visible .entry k(.param .u64 a, .param .u32 bar)\n{\n"
    " .reg .b32 %r<9>; .reg .pred %p<4>;\n"
    " .shared .align 4 .b8 s[16];\n"
    " ld.param.u32 %r8, [bar];\n"
    " mov.u32 %r2, %tid.x; mov.u32 %r4, s;\n"
    " setp.ne.u32 %p1, %r8, 0; setp.eq.u32 %p2, %r2, 0;\n"
    " @%p2 st.shared.u32 [%r4], %r2;\n"
    " @%p1 bar.sync 0;\n"
    " ld.shared.u32 %r6, [%r4];\n"
    " @%p1 bar.sync 0;\n"
    " @%p2 st.shared.u32 [%r4], %r6;\n"
    " ret;\n}\n";

static chk_ctx *run_bcast(int nthreads, uint32_t bar, T *t)
{
    return run_racecheck(k_bcast, 1, 16, nthreads, bar, t);
}

START_TEST(racecheck_broadcast)
{
    T t1, t4, tb;
    chk_ctx *c1 = run_bcast(1, 0, &t1), *c4 = run_bcast(4, 0, &t4), *cb = run_bcast(1, 1, &tb);
    for (int k = 0; k < 2; k++) {
        chk_ctx *c = k ? c4 : c1;
        ck_assert_int_eq(chk_count(c), 3);
        const chk_finding *wr0 = NULL, *wr1 = NULL, *rw = NULL;
        for (int i = 0; i < 3; i++) {
            const chk_finding *f = chk_at(c, i);
            if (f->kind == CHK_K_RACE_WR && f->party[1].warp == 0)
                wr0 = f;
            else if (f->kind == CHK_K_RACE_WR)
                wr1 = f;
            else if (f->kind == CHK_K_RACE_RW)
                rw = f;
        }
        ck_assert_ptr_nonnull(wr0);
        ck_assert_ptr_nonnull(wr1);
        ck_assert_ptr_nonnull(rw);
        ck_assert_uint_eq(wr0->count, 31);
        ck_assert_uint_eq(wr0->party[0].lane, 0);
        ck_assert_uint_eq(wr0->party[1].lane, 1);
        ck_assert_uint_eq(wr1->count, 32);
        ck_assert_uint_eq(wr1->party[0].warp, 0);
        ck_assert_uint_eq(wr1->party[0].lane, 0);
        ck_assert_uint_eq(wr1->party[1].warp, 1);
        ck_assert_uint_eq(wr1->party[1].lane, 0);
        ck_assert_uint_eq(rw->count, 1);
        ck_assert_uint_eq(rw->party[0].warp, 0);   /* lane 31's read, the run's last */
        ck_assert_uint_eq(rw->party[0].lane, 31);
        ck_assert_uint_eq(rw->party[1].warp, 0);   /* lane 0's second write */
        ck_assert_uint_eq(rw->party[1].lane, 0);
    }
    ck_assert_int_eq(chk_count(cb), 0);
    chk_free(c1);
    chk_free(c4);
    chk_free(cb);
    t_free(&t1);
    t_free(&t4);
    t_free(&tb);
}
END_TEST

/* The registry: names known, ones not written yet refused, "all" = the implemented ones. */
START_TEST(registry)
{
    chk_ctx *c = chk_new();
    char err[256];
    ck_assert_int_eq(chk_lookup("memcheck"), CHK_MEMCHECK);
    ck_assert_int_eq(chk_lookup("racecheck"), CHK_RACECHECK);
    ck_assert_int_eq(chk_lookup("nope"), -1);
    /* a checker not written yet (if any is left) is known and refused by name */
    unsigned impl = 0;
    for (int i = 0; i < CHK_N; i++)
        if (chk_implemented(i))
            impl |= 1u << i;
    for (int i = 0; i < CHK_N; i++) {
        if (chk_implemented(i))
            continue;
        ck_assert_int_eq(chk_set(c, chk_name(i), 1, err, sizeof err), -1);
        ck_assert_ptr_nonnull(strstr(err, "not implemented yet"));
        ck_assert_int_eq(chk_set(c, chk_name(i), 0, err, sizeof err), 0);
    }
    ck_assert_int_eq(chk_set(c, "nope", 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown checker"));
    /* all = every implemented checker: memcheck and synccheck at least */
    ck_assert_uint_eq(impl & ((1u << CHK_MEMCHECK) | (1u << CHK_SYNCCHECK)),
                      (1u << CHK_MEMCHECK) | (1u << CHK_SYNCCHECK));
    ck_assert_int_eq(chk_set_list(c, "all", err, sizeof err), 0);
    ck_assert_uint_eq(chk_enabled(c), impl);
    ck_assert_int_eq(chk_set_list(c, "none", err, sizeof err), 0);
    ck_assert_uint_eq(chk_enabled(c), 0);
    ck_assert_int_eq(chk_set_list(c, "memcheck,synccheck", err, sizeof err), 0);
    ck_assert_uint_eq(chk_enabled(c), (1u << CHK_MEMCHECK) | (1u << CHK_SYNCCHECK));
    chk_free(c);
}
END_TEST

/* ---- initcheck ---------------------------------------------------------------------------------- */
/* Every CTA: lanes 0..15 write sm[t]; then every lane reads sm[t + 16], which nobody wrote,
 * a[t] (a buffer without an initialiser: lanes with t % 4 == 1 wrote
 * theirs first), and %r7, which only odd lanes wrote. */
static const char *k_init = HDR
    ".visible .entry k(.param .u64 a, .param .u64 o)\n{\n"
    " .shared .align 4 .b32 sm[48];\n"
    " .reg .b32 %r<10>; .reg .b64 %rd<6>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [a]; ld.param.u64 %rd5, [o];\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x;\n"
    " mad.lo.u32 %r3, %r2, 32, %r1;\n"
    " mul.wide.u32 %rd2, %r3, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " and.b32 %r4, %r1, 3; setp.eq.u32 %p1, %r4, 1;\n"
    " @%p1 st.global.u32 [%rd3], %r1;\n"
    " shl.b32 %r5, %r1, 2; mov.u32 %r6, sm; add.u32 %r6, %r6, %r5;\n"
    " setp.lt.u32 %p2, %r1, 16;\n"
    " @%p2 st.shared.u32 [%r6], %r1;\n"
    " bar.sync 0;\n"
    " ld.shared.u32 %r8, [%r6+64];\n"
    " ld.global.u32 %r9, [%rd3];\n"
    " and.b32 %r4, %r1, 1; setp.eq.u32 %p3, %r4, 1;\n"
    " @%p3 mov.u32 %r7, 5;\n"
    " add.u32 %r9, %r9, %r7;\n"
    " add.u32 %r9, %r9, %r8;\n"
    " add.s64 %rd4, %rd5, %rd2;\n"
    " st.global.u32 [%rd4], %r9;\n"
    " ret;\n}\n";

/* k_init on 8 CTAs with n worker threads under initcheck: the findings' kinds, spaces, counts. */
static void run_init(int nthreads, uint64_t counts[3], int fill)
{
    T t;
    ck_assert_msg(t_load(&t, k_init) == 0, "%s", t.err);
    chk_ctx *c = chk_new();
    char err[256];
    reports rep = { 0 };
    ck_assert_int_eq(chk_set(c, "initcheck", 1, err, sizeof err), 0);
    chk_set_stop(c, 0);
    chk_hooks h = { .ctx = &rep, .report = on_report };
    chk_set_hooks(c, &h);
    if (fill >= 0)
        chk_set_fill(c, fill);
    ck_assert_int_eq(chk_attach(c, t.m), 0);
    ck_assert_int_eq(exec_get_fill(t.m), fill);
    exec_set_threads(t.m, nthreads);
    uint64_t a = t_buf(&t, 8 * 32 * 4), o = t_buf(&t, 8 * 32 * 4);
    uint64_t args[2] = { a, o };
    t_launch_args(&t, "k", 8, 32, args, 2);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    ck_assert_int_eq(chk_count(c), 3);
    ck_assert_int_eq(rep.n, 3);
    memset(counts, 0, 3 * sizeof *counts);
    for (int i = 0; i < 3; i++) {
        const chk_finding *f = chk_at(c, i);
        ck_assert_int_eq(f->checker, CHK_INITCHECK);
        if (f->kind == CHK_K_UNINIT_REG) {
            ck_assert_str_eq(f->reg, "%r7");
            ck_assert_uint_eq(f->party[0].lane, 0);   /* even lanes never wrote it */
            counts[2] = f->count;
        } else {
            ck_assert_int_eq(f->kind, CHK_K_UNINIT);
            ck_assert_uint_eq(f->undef, 4);
            counts[f->space == PTX_SPACE_SHARED ? 0 : 1] = f->count;
        }
    }
    uint32_t out[8 * 32];
    t_read(&t, o, out, sizeof out);
    /* lane 0 of CTA 0: a[0] (0) + %r7 (0) + sm[16] (zeros, or the fill byte four times) */
    ck_assert_uint_eq(out[0], fill < 0 ? 0u : (uint32_t)fill * 0x01010101u);
    chk_free(c);
    t_free(&t);
}

START_TEST(initcheck_threads)
{
    /* 32 lanes per CTA read shared bytes nobody wrote, 24 read a[t] unwritten, 16 read %r7
       before writing it: the same findings and counts on 1 and 4 threads */
    uint64_t c1[3], c4[3];
    run_init(1, c1, -1);
    run_init(4, c4, -1);
    ck_assert_uint_eq(c1[0], 8 * 32);
    ck_assert_uint_eq(c1[1], 8 * 24);
    ck_assert_uint_eq(c1[2], 8 * 16);
    ck_assert_mem_eq(c1, c4, sizeof c1);
    run_init(1, c1, 0xA5);   /* set fill: fresh shared memory holds the byte */
}
END_TEST

START_TEST(initcheck_words)
{
    char err[160];
    int b = 0;
    ck_assert_int_eq(chk_parse_fill("0xA5", &b, err, sizeof err), 0);
    ck_assert_int_eq(b, 0xA5);
    ck_assert_int_eq(chk_parse_fill("off", &b, err, sizeof err), 0);
    ck_assert_int_eq(b, -1);
    ck_assert_int_eq(chk_parse_fill("256", &b, err, sizeof err), -1);
    ck_assert_int_eq(chk_parse_fill("x", &b, err, sizeof err), -1);
    chk_finding f;
    memset(&f, 0, sizeof f);
    f.checker = CHK_INITCHECK;
    f.kind = CHK_K_UNINIT;
    f.space = PTX_SPACE_SHARED;
    f.size = 4;
    f.undef = 2;
    f.access = EXEC_ACC_READ;
    char out[2048];
    chk_headline(&f, out, sizeof out);
    ck_assert_str_eq(out, "Uninitialized __shared__ memory read of size 4 bytes");
    chk_format(&f, "", out, sizeof out);
    ck_assert_ptr_nonnull(strstr(out, "2 of its 4 bytes were never written (partially initialised)"));
    f.kind = CHK_K_UNINIT_REG;
    snprintf(f.reg, sizeof f.reg, "%%r5");
    snprintf(f.var, sizeof f.var, "sum");
    chk_headline(&f, out, sizeof out);
    ck_assert_str_eq(out, "Uninitialized register %r5 read (variable sum)");
}
END_TEST

/* compute-sanitizer's words and the JSON line of a finding made by hand. */
START_TEST(format)
{
    chk_finding f;
    memset(&f, 0, sizeof f);
    f.kind = CHK_K_OOB;
    f.space = PTX_SPACE_SHARED;
    f.access = EXEC_ACC_READ;
    f.size = 4;
    f.addr = 0x104;
    f.count = 3;
    f.gpu_faults = 1;
    f.nparties = 1;
    f.party[0].thread.x = 5;
    snprintf(f.party[0].func, sizeof f.party[0].func, "k");
    snprintf(f.party[0].file, sizeof f.party[0].file, "sm_20_atomic_functions.hpp");
    f.party[0].line = 7;
    snprintf(f.party[0].ufile, sizeof f.party[0].ufile, "a\"b.cu");
    f.party[0].uline = 42;
    snprintf(f.where, sizeof f.where, "4 bytes past the end of the block's shared memory");
    char buf[2048];
    chk_format(&f, "== ", buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "== Invalid __shared__ read of size 4 bytes\n"));
    ck_assert_ptr_nonnull(strstr(buf, "==     Address 0x104 is out of bounds\n"));
    ck_assert_ptr_nonnull(strstr(buf, "==     called from a\"b.cu:42\n"));
    ck_assert_ptr_nonnull(strstr(buf, "==     A GPU would fault here.\n"));
    ck_assert_ptr_nonnull(strstr(buf, "==     (3 occurrences)\n"));
    f.kind = CHK_K_MISALIGNED;
    chk_format(&f, "", buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "    Address 0x104 is misaligned\n"));
    char *js = NULL;
    size_t jn = 0;
    FILE *fp = open_memstream(&js, &jn);
    chk_write_json(&f, fp);
    fclose(fp);
    ck_assert_ptr_nonnull(strstr(js, "\"kind\":\"misaligned\""));
    ck_assert_ptr_nonnull(strstr(js, "\"user_file\":\"a\\\"b.cu\",\"user_line\":42"));
    ck_assert_ptr_nonnull(strstr(js, "\"count\":3"));
    free(js);
    /* a truncated buffer still ends with a NUL and reports the length it needs */
    char small[16];
    int need = chk_format(&f, "", small, sizeof small);
    ck_assert_int_gt(need, (int)sizeof small);
    ck_assert_uint_lt(strlen(small), sizeof small);
}
END_TEST

/* A const store and a misaligned shared access: memcheck's kinds and spaces; stop on. */
static const char *k_kinds = HDR
    ".const .align 4 .b32 cv[2] = {1, 2};\n"
    ".visible .entry k(.param .u32 mode)\n{\n"
    " .shared .align 4 .b32 sm[8];\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
    " ld.param.u32 %r1, [mode];\n"
    " mov.u64 %rd1, cv; cvta.const.u64 %rd2, %rd1;\n"
    " setp.eq.u32 %p1, %r1, 1;\n"
    " @%p1 st.u32 [%rd2], %r1;\n"
    " setp.eq.u32 %p2, %r1, 2;\n"
    " @%p2 st.shared.u32 [sm+2], %r1;\n"
    " ret;\n}\n";

START_TEST(memcheck_kinds)
{
    static const struct { uint32_t mode; chk_kind kind; ptx_space sp; const char *head; } c[] = {
        { 1, CHK_K_READONLY, PTX_SPACE_CONST, "Invalid __constant__ write of size 4 bytes" },
        { 2, CHK_K_MISALIGNED, PTX_SPACE_SHARED, "Invalid __shared__ write of size 4 bytes" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        T t;
        ck_assert_msg(t_load(&t, k_kinds) == 0, "%s", t.err);
        chk_ctx *k = chk_new();
        char err[256];
        ck_assert_int_eq(chk_set(k, "memcheck", 1, err, sizeof err), 0);
        ck_assert_int_eq(chk_attach(k, t.m), 0);
        uint64_t args[1] = { c[i].mode };
        t_launch_args(&t, "k", 1, 1, args, 1);
        exec_stop st = t_run(&t);
        /* the fault carries the finding */
        ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
        const chk_finding *f = chk_by_id(k, st.tag);
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(f->kind, c[i].kind);
        ck_assert_int_eq(f->space, c[i].sp);
        ck_assert_int_eq(f->gpu_faults, 1);
        char head[256];
        chk_headline(f, head, sizeof head);
        ck_assert_str_eq(head, c[i].head);
        chk_detach(k, t.m);
        chk_free(k);
        t_free(&t);
    }
}
END_TEST

/* ---- synccheck ----------------------------------------------------------------------------- */
/* mode 0: lanes 16-31 return first, then a full-mask shfl.down by 1: lane 15 reads lane 16,
 * which the mask names and which exited (PTX ISA: undefined). mode 1: threads of warp 1 leave
 * after the first barrier while warp 0 waits at the second (divergent). mode 2: the two warps
 * reach barrier 0 at different instructions. mode 3: they meet at barrier 1 with counts 64 and
 * 96. mode 4: warp 1 returns before any barrier (correct: exited threads do not count). */
static const char *k_sync = HDR
    ".visible .entry k(.param .u64 out, .param .u32 mode)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u32 %r7, [mode];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " setp.ne.u32 %p1, %r7, 0;\n"
    " @%p1 bra M1;\n"
    " setp.ge.u32 %p2, %r1, 16;\n"
    " @%p2 ret;\n"
    " shfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n"
    " st.global.u32 [%rd3], %r2;\n"
    " ret;\n"
    "M1: setp.ge.u32 %p2, %r1, 32;\n"
    " setp.ne.u32 %p1, %r7, 1;\n"
    " @%p1 bra M2;\n"
    " bar.sync 0;\n"
    " @%p2 ret;\n"
    " bar.sync 0;\n"
    " st.global.u32 [%rd3], %r1;\n"
    " ret;\n"
    "M2: setp.ne.u32 %p1, %r7, 2;\n"
    " @%p1 bra M3;\n"
    " @%p2 bra B2;\n"
    " bar.sync 0;\n"
    " ret;\n"
    "B2: bar.sync 0;\n"
    " ret;\n"
    "M3: setp.ne.u32 %p1, %r7, 3;\n"
    " @%p1 bra M4;\n"
    " @%p2 bra C2;\n"
    " bar.sync 1, 64;\n"
    " ret;\n"
    "C2: bar.sync 1, 96;\n"
    " ret;\n"
    "M4: @%p2 ret;\n"
    " bar.sync 0;\n"
    " st.global.u32 [%rd3], %r1;\n"
    " ret;\n}\n";

/* Run k_sync in `mode` with synccheck (stop: findings stop the kernel); the stop. */
static exec_stop run_sync(chk_ctx *k, T *t, uint32_t mode, int stop)
{
    char err[256];
    ck_assert_msg(t_load(t, k_sync) == 0, "%s", t->err);
    ck_assert_int_eq(chk_set_list(k, "synccheck", err, sizeof err), 0);
    chk_set_stop(k, stop);
    ck_assert_int_eq(chk_attach(k, t->m), 0);
    uint64_t args[2] = { t_buf(t, 64 * 4), mode };
    t_launch_args(t, "k", 1, 64, args, 2);
    return t_run(t);
}

START_TEST(synccheck_kinds)
{
    static const struct { uint32_t mode; chk_kind kind; uint32_t lane0, warp1; int nparties; }
        c[] = {
        { 0, CHK_K_SHFL_UNDEF, 15, 0, 1 },       /* lane 15 reads lane 16 */
        { 1, CHK_K_BAR_DIVERGENT, 0, 1, 2 },     /* warp 0 waits, warp 1 leaves */
        { 2, CHK_K_BAR_DIVERGENT, 0, 1, 2 },     /* two barrier instructions */
        { 3, CHK_K_BAR_COUNT, 0, 1, 2 },         /* 64 and 96 */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        T t;
        chk_ctx *k = chk_new();
        exec_stop st = run_sync(k, &t, c[i].mode, 1);
        ck_assert_msg(st.kind == EXEC_STOP_CHECK, "mode %u: %s", c[i].mode, st.msg);
        const chk_finding *f = chk_by_id(k, st.tag);
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(f->checker, CHK_SYNCCHECK);
        ck_assert_int_eq(f->kind, c[i].kind);
        ck_assert_int_eq(f->nparties, c[i].nparties);
        ck_assert_uint_eq(f->party[0].lane, c[i].lane0);
        ck_assert_uint_eq(f->party[0].warp, 0);
        if (c[i].nparties == 2) {
            ck_assert_uint_eq(f->party[1].warp, c[i].warp1);
            ck_assert_uint_ne(f->party[0].pc, f->party[1].pc);
        }
        ck_assert_ptr_nonnull(strstr(f->sync_detail, c[i].mode ? "barrier" : "lane 15 reads lane 16"));
        /* the run goes on after the stop and ends */
        st = t_run(&t);
        ck_assert_msg(st.kind == EXEC_STOP_DONE, "mode %u: %s", c[i].mode, st.msg);
        chk_free(k);
        t_free(&t);
    }
    /* an early return before any barrier is correct */
    T t;
    chk_ctx *k = chk_new();
    exec_stop st = run_sync(k, &t, 4, 1);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    ck_assert_int_eq(chk_count(k), 0);
    chk_free(k);
    t_free(&t);
}
END_TEST

/* Findings that do not stop are reported once per (kind, pc) and counted. */
START_TEST(synccheck_reports)
{
    reports r = { 0 };
    T t;
    chk_ctx *k = chk_new();
    chk_hooks h = { .ctx = &r, .report = on_report };
    chk_set_hooks(k, &h);
    exec_stop st = run_sync(k, &t, 1, 0);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(chk_count(k), 1);
    ck_assert_int_eq(r.last.kind, CHK_K_BAR_DIVERGENT);
    char head[256], text[4096];
    chk_headline(chk_at(k, 0), head, sizeof head);
    ck_assert_str_eq(head, "Barrier error detected. Divergent thread(s) in block");
    chk_format(chk_at(k, 0), "", text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "warp 1 lanes 0-31 exited at "));
    ck_assert_ptr_nonnull(strstr(text, "warp 0 lanes 0-31 reached barrier 0 at "));
    chk_free(k);
    t_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("checkers");
    TCase *tc = tcase_create("seams");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, seam_paths);
    tcase_add_test(tc, seam_warp_sync);
    tcase_add_test(tc, padding_model);
    tcase_add_test(tc, padding_accesses);
    suite_add_tcase(s, tc);
    TCase *tm = tcase_create("memcheck");
    tcase_set_timeout(tm, 120);
    tcase_add_test(tm, memcheck_threads);
    tcase_add_test(tm, registry);
    tcase_add_test(tm, format);
    tcase_add_test(tm, memcheck_kinds);
    tcase_add_test(tm, racecheck_kinds);
    tcase_add_test(tm, racecheck_broadcast);
    tcase_add_test(tm, initcheck_threads);
    tcase_add_test(tm, initcheck_words);
    suite_add_tcase(s, tm);
    TCase *ts = tcase_create("synccheck");
    tcase_set_timeout(ts, 120);
    tcase_add_test(ts, synccheck_kinds);
    tcase_add_test(ts, synccheck_reports);
    suite_add_tcase(s, ts);
    return tu_run_suite(s);
}
