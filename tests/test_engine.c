/* test_engine.c - the engine driven directly through its public API, no CLI in between: load, launch, break, step by warp and by lane, evaluate, watch, core round trip, two sessions in one process, a runtime's targets, the in-process front-end registry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <check.h>
/* the engine's public headers only (debugger/include/), as every front end */
#include "dbg.h"
#include "dbg_frontend.h"
#include "dbg_rows.h"
#include "dbg_target.h"
#include "dbg_value.h"

/* out[i] = 3 * i + 1 for i < n (the C reference is tri_ref). pcs: 5 the mul, 6 the add,
 * 10 the store, 11 the ret. */
static const char tri_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry tri(.param .u64 out, .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"         /* 0 */
    " ld.param.u32 %r1, [n];\n"            /* 1 */
    " mov.u32 %r2, %tid.x;\n"              /* 2 */
    " setp.ge.u32 %p1, %r2, %r1;\n"        /* 3 */
    " @%p1 bra DONE;\n"                    /* 4 */
    " mul.lo.u32 %r3, %r2, 3;\n"           /* 5 */
    " add.u32 %r4, %r3, 1;\n"              /* 6 */
    " cvta.to.global.u64 %rd2, %rd1;\n"    /* 7 */
    " mul.wide.u32 %rd3, %r2, 4;\n"        /* 8 */
    " add.s64 %rd2, %rd2, %rd3;\n"         /* 9 */
    " st.global.u32 [%rd2], %r4;\n"        /* 10 */
    "DONE:\n ret;\n}\n";                   /* 11 */

static uint32_t tri_ref(uint32_t i) { return 3 * i + 1; }

/* A session with tri loaded, a buffer `out` of 64 u32 and the launch tri<<<1,64>>>(out, n)
 * started (nothing run yet). */
static dbg_session *tri_session(uint32_t n)
{
    dbg_session *s = dbg_new();
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(dbg_load_text(s, tri_ptx, strlen(tri_ptx), "tri.ptx"), 0);
    ck_assert_int_eq(dbg_buffer_add(s, "out", PTX_T_U32, 64, NULL), 0);
    const ptx_func *k = dbg_find_func(s, "tri");
    ck_assert_ptr_nonnull(k);
    dbg_param_row p[2];
    int64_t total = dbg_kernel_params(k, p, 2);
    ck_assert_int_eq(total, 12);
    ck_assert_str_eq(p[0].name, "out");
    ck_assert_int_eq(p[1].offset, 8);
    uint8_t params[12];
    uint64_t addr = dbg_buffer_find(s, "out")->addr;
    memcpy(params + p[0].offset, &addr, 8);
    memcpy(params + p[1].offset, &n, 4);
    exec_dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    ck_assert_int_eq(dbg_launch(s, k, grid, block, 0, params, sizeof params), 0);
    return s;
}

static int64_t eval(dbg_session *s, const char *text)
{
    dbg_value v;
    char err[256];
    ck_assert_msg(dbg_eval_focus(s, text, &v, err, sizeof err) == 0, "%s: %s", text, err);
    ck_assert_int_eq(v.kind, DBG_V_INT);
    return dbg_value_int(&v);
}

static uint32_t lane_pc(dbg_session *s, uint32_t lane)
{
    exec_lane_info li;
    ck_assert_int_eq(dbg_lane_get(s, 0, 0, lane, &li), 0);
    return li.pc;
}

static void check_out(dbg_session *s, uint32_t n)
{
    uint32_t out[64];
    ck_assert_int_eq(dbg_buffer_read(s, dbg_buffer_find(s, "out"), out), 0);
    for (uint32_t i = 0; i < 64; i++)
        ck_assert_uint_eq(out[i], i < n ? tri_ref(i) : 0);
}

/* break at an instruction, evaluate at several lanes, step by warp and by lane, run to the end */
START_TEST(break_step_eval)
{
    dbg_session *s = tri_session(64);
    ck_assert_int_gt(dbg_break_add(s, "*6", NULL, 0), 0);
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_BREAKPOINT);
    ck_assert_uint_eq(ev.stop.pc, 6);
    ck_assert_int_eq(dbg_set_focus(s, 0, 0, 5), 0);
    ck_assert_int_eq(eval(s, "%r3"), 15);
    ck_assert_int_eq(eval(s, "%r2 * 3 + 1"), tri_ref(5));
    /* by warp: every lane of warp 0 executes the add */
    dbg_opts(s)->lane_steps = 0;
    ck_assert_int_eq(dbg_step(s, DBG_STEP_INSN, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_STEP);
    ck_assert_int_eq(eval(s, "%r4"), tri_ref(5));
    ck_assert_uint_eq(lane_pc(s, 5), 7);
    ck_assert_uint_eq(lane_pc(s, 9), 7);
    /* by lane: only lane 9 goes on */
    dbg_opts(s)->lane_steps = 1;
    ck_assert_int_eq(dbg_set_focus(s, 0, 0, 9), 0);
    ck_assert_int_eq(dbg_step(s, DBG_STEP_INSN, &ev), 0);
    ck_assert_uint_eq(lane_pc(s, 9), 8);
    ck_assert_uint_eq(lane_pc(s, 5), 7);
    ck_assert_int_eq(dbg_bp_delete(s, 0), 0);
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_EXITED);
    check_out(s, 64);
    dbg_free(s);
}
END_TEST

/* a watchpoint on out[20]: the store of thread 20 stops after it with the new value */
START_TEST(watch_store)
{
    dbg_session *s = tri_session(64);
    uint64_t a = dbg_buffer_find(s, "out")->addr + 20 * 4;
    ck_assert_int_gt(dbg_watch_add(s, DBG_BP_WATCH, "out[20]", PTX_SPACE_GLOBAL, a, 4, PTX_T_U32),
                     0);
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_WATCH);
    ck_assert_uint_eq(ev.stop.pc, 10);
    uint32_t now;
    memcpy(&now, ev.stop.new_bytes, 4);
    ck_assert_uint_eq(now, tri_ref(20));
    ck_assert_int_eq(eval(s, "out[20]"), tri_ref(20));
    dbg_free(s);
}
END_TEST

/* a core saved at a breakpoint reopens in another session with the same registers and memory */
START_TEST(core_round_trip)
{
    dbg_session *s = tri_session(40);
    ck_assert_int_gt(dbg_break_add(s, "*11", NULL, 0), 0);
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_BREAKPOINT);
    ck_assert_int_eq(dbg_set_focus(s, 0, 0, 7), 0);
    int64_t r4 = eval(s, "%r4");
    ck_assert_int_eq(r4, tri_ref(7));
    /* what has been stored so far (lane 7 has stored; threads from 40 on never store) */
    uint32_t live[64];
    ck_assert_int_eq(dbg_buffer_read(s, dbg_buffer_find(s, "out"), live), 0);
    ck_assert_uint_eq(live[7], tri_ref(7));
    char path[] = "/tmp/test_engine_coreXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_msg(dbg_core_save(s, path) == 0, "%s", dbg_errmsg(s));
    dbg_free(s);
    dbg_session *c = dbg_new();
    ck_assert_msg(dbg_core_load(c, path) == 0, "%s", dbg_errmsg(c));
    unlink(path);
    ck_assert_int_eq(dbg_set_focus(c, 0, 0, 7), 0);
    ck_assert_int_eq(eval(c, "%r4"), r4);
    for (int i = 0; i < 64; i++) {
        char e[32];
        snprintf(e, sizeof e, "out[%d]", i);
        ck_assert_int_eq(eval(c, e), i < 40 ? live[i] : 0);
    }
    dbg_free(c);
}
END_TEST

/* two sessions in one process share nothing: each its module, buffers, launch, breakpoints,
 * focus, value history, convenience variables and print settings */
START_TEST(two_sessions)
{
    dbg_session *a = tri_session(64), *b = tri_session(10);
    ck_assert_int_gt(dbg_break_add(a, "*6", NULL, 0), 0);
    ck_assert_int_gt(dbg_break_add(b, "*10", NULL, 0), 0);
    ck_assert_int_eq(dbg_bp_count(a), 1);
    ck_assert_int_eq(dbg_bp_count(b), 1);
    dbg_event ea, eb;
    ck_assert_int_eq(dbg_continue(a, 0, &ea), 0);
    ck_assert_int_eq(dbg_continue(b, 0, &eb), 0);
    ck_assert_uint_eq(ea.stop.pc, 6);
    ck_assert_uint_eq(eb.stop.pc, 10);
    ck_assert_int_eq(dbg_set_focus(a, 0, 0, 3), 0);
    ck_assert_int_eq(dbg_set_focus(b, 0, 1, 2), 0);   /* warp 1 exists in both launches */
    ck_assert_uint_eq(dbg_get_focus(a)->lane, 3);
    ck_assert_uint_eq(dbg_get_focus(b)->warp, 1);
    /* convenience variables and the value history are the session's */
    ck_assert_int_eq(eval(a, "$x = 41"), 41);
    dbg_value v;
    char err[256];
    ck_assert_int_eq(dbg_eval_focus(b, "$x", &v, err, sizeof err), 0);
    ck_assert_int_eq(v.kind, DBG_V_VOID);
    dbg_history_push(a, &v);
    ck_assert_int_eq(dbg_session_history(a)->nhist, 1);
    ck_assert_int_eq(dbg_session_history(b)->nhist, 0);
    /* print settings */
    dbg_opts(a)->print_elements = 3;
    ck_assert_uint_eq(dbg_opts(b)->print_elements, 200);
    /* each runs to its own end */
    dbg_bp_delete(a, 0);
    dbg_bp_delete(b, 0);
    ck_assert_int_eq(dbg_continue(b, 0, &eb), 0);
    ck_assert_int_eq(eb.kind, DBG_EV_EXITED);
    ck_assert_int_eq(dbg_continue(a, 0, &ea), 0);
    ck_assert_int_eq(ea.kind, DBG_EV_EXITED);
    check_out(a, 64);
    check_out(b, 10);
    /* freeing one leaves the other whole */
    dbg_free(a);
    ck_assert_int_eq(eval(b, "out[9]"), tri_ref(9));
    dbg_free(b);
}
END_TEST

/* The synthetic types of casts and VALUE@N belong to the session whose history holds the
 * values: equal ones are made once per session, two sessions share none, and a value of one
 * keeps its types when the other is freed. (sizeof of a written array type makes two.) */
START_TEST(synthetic_types_per_session)
{
    dbg_session *a = dbg_new(), *b = dbg_new();
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    const dbg_history *ha = dbg_session_history(a), *hb = dbg_session_history(b);
    ck_assert_int_eq(ha->nsynth, 0);
    /* a written array type: the scalar and the array are made in a's history only */
    ck_assert_int_eq(eval(a, "sizeof(unsigned int[3])"), 12);
    ck_assert_int_eq(ha->nsynth, 2);
    ck_assert_int_eq(hb->nsynth, 0);
    ck_assert_int_eq(eval(a, "sizeof(unsigned int[3]) + 1"), 13);
    ck_assert_int_eq(ha->nsynth, 2);                  /* equal types are made once */
    ck_assert_int_eq(eval(b, "sizeof(unsigned int[3][2])"), 24);
    ck_assert_int_eq(hb->nsynth, 2);
    for (int i = 0; i < ha->nsynth; i++)
        for (int j = 0; j < hb->nsynth; j++)
            ck_assert_ptr_ne(ha->synth[i], hb->synth[j]);
    /* freeing one session leaves the other's types whole (ASan/valgrind see any stale use) */
    dbg_free(a);
    ck_assert_int_eq(eval(b, "sizeof(unsigned int[3][2]) * 2"), 48);
    ck_assert_int_eq(hb->nsynth, 2);
    dbg_free(b);
}
END_TEST

/* ---- a program's runtime: targets (dbg_target.h), as the CUDA runtime library drives them -------
 * out[i] = in[i] * scale + bias for i < n, scale a module .global, bias a module .const (the C
 * reference is axpb_ref). pc 16 is the store, on PTX line 25. */
static const char axpb_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".global .align 4 .u32 scale;\n"
    ".const .align 4 .u32 bias;\n"
    ".visible .entry axpb(.param .u64 out, .param .u64 in, .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<10>; .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [out];\n ld.param.u64 %rd2, [in];\n ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ntid.x;\n"
    " mad.lo.u32 %r5, %r3, %r4, %r2;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
    " mul.wide.u32 %rd3, %r5, 4;\n add.s64 %rd4, %rd2, %rd3;\n ld.global.u32 %r6, [%rd4];\n"
    " ld.global.u32 %r7, [scale];\n ld.const.u32 %r8, [bias];\n"
    " mad.lo.u32 %r9, %r6, %r7, %r8;\n add.s64 %rd5, %rd1, %rd3;\n"
    " st.global.u32 [%rd5], %r9;\n"
    "DONE:\n ret;\n}\n";

static uint32_t axpb_ref(uint32_t in, uint32_t scale, uint32_t bias) { return in * scale + bias; }

#define AXPB_N 100          /* threads that store; the grid has 128 */
#define AXPB_IN  0x10000000000ull   /* where the test maps its arrays (1 TB up) */
#define AXPB_OUT 0x10000100000ull

/* The .param block of axpb(out, in, n) laid out as the engine says. */
static void axpb_params(const ptx_func *k, uint8_t *p, uint64_t out, uint64_t in, uint32_t n)
{
    uint64_t off[3], size[3];
    ck_assert_int_eq(dbg_kernel_param_layout(k, off, size, 3), 20);
    ck_assert_uint_eq(size[0], 8);
    ck_assert_uint_eq(size[2], 4);
    memcpy(p + off[0], &out, 8);
    memcpy(p + off[1], &in, 8);
    memcpy(p + off[2], &n, 4);
}

static int freed_a(void *ctx, uint64_t addr, char *out, size_t n)
{
    return snprintf(out, n, "%s 0x%llx", (const char *)ctx, (unsigned long long)addr) > 0;
}

START_TEST(target_runtime)
{
    char err[1024];
    dbg_target_err kind;
    dbg_target *t = dbg_target_load(axpb_ptx, strlen(axpb_ptx), "axpb.ptx", 0, 0, &kind, err,
                                    sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    const char *names[4];
    ck_assert_int_eq(dbg_target_kernels(t, names, 4), 1);
    ck_assert_str_eq(names[0], "axpb");
    const ptx_func *k = dbg_target_kernel(t, "axpb");
    ck_assert_ptr_nonnull(k);
    ck_assert_ptr_null(dbg_target_kernel(t, "scale"));
    dbg_kernel_info ki;
    ck_assert_int_eq(dbg_kernel_info_get(t, k, &ki), 0);
    ck_assert_int_eq(ki.nparams, 3);
    ck_assert_uint_eq(ki.param_bytes, 20);
    ck_assert_int_eq(ki.target_sm, 70);
    /* the module's variables: set through their host bytes */
    dbg_var_info vs, vb;
    ck_assert_int_eq(dbg_target_var(t, "scale", &vs), 0);
    ck_assert_int_eq(vs.space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(dbg_target_var(t, "bias", &vb), 0);
    ck_assert_int_eq(vb.space, PTX_SPACE_CONST);
    ck_assert_ptr_nonnull(vs.host);
    ck_assert_ptr_nonnull(vb.host);
    ck_assert_int_eq(dbg_target_var(t, "nothing", &vb) != 0, 1);
    ck_assert_int_eq(dbg_target_var(t, "bias", &vb), 0);
    uint32_t scale = 2654435761u, bias = 12345;
    memcpy(vs.host, &scale, 4);
    memcpy(vb.host, &bias, 4);
    /* the const bank's generic address round-trips */
    unsigned tag;
    uint64_t off;
    ck_assert_int_eq(dbg_addr_const_decode(dbg_addr_const(5, vb.addr), &tag, &off), 0);
    ck_assert_uint_eq(tag, 5);
    ck_assert_uint_eq(off, vb.addr);
    ck_assert_int_eq(dbg_addr_const_decode(AXPB_IN, NULL, NULL), -1);
    /* the program's memory, mapped at addresses of its choosing */
    static uint32_t in[128], out[128];
    for (uint32_t i = 0; i < 128; i++) {
        in[i] = i * i + 7;
        out[i] = 0xdeadbeef;
    }
    ck_assert_int_eq(dbg_target_map(t, AXPB_IN, sizeof in, in, "in", 0, 0), 0);
    ck_assert_int_eq(dbg_target_map(t, AXPB_OUT, sizeof out, out, "out", 0, 0), 0);
    ck_assert_int_eq(dbg_target_map(t, AXPB_OUT + 4, 4, out, "overlap", 0, 0), -1);
    ck_assert_ptr_eq(dbg_target_global_host(t, AXPB_OUT + 8, 4), &out[2]);
    uint8_t params[20];
    axpb_params(k, params, AXPB_OUT, AXPB_IN, AXPB_N);
    dbg_launch_cfg c = { .kernel = k, .grid = { 2, 1, 1 }, .block = { 64, 1, 1 },
                         .params = params, .param_bytes = sizeof params };
    ck_assert_int_eq(dbg_target_launch(t, &c), 0);
    uint32_t ncta, nw;
    dbg_target_grid(t, &ncta, &nw);
    ck_assert_uint_eq(ncta, 2);
    ck_assert_uint_eq(nw, 2);
    exec_stop st;
    uint64_t before = dbg_target_steps(t);
    ck_assert_int_eq(dbg_target_run(t, 1u << 20, NULL, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    ck_assert_uint_gt(dbg_target_steps(t), before);
    for (uint32_t i = 0; i < 128; i++)
        ck_assert_uint_eq(out[i], i < AXPB_N ? axpb_ref(in[i], scale, bias) : 0xdeadbeefu);
    dbg_pc_place pl;
    ck_assert_int_eq(dbg_target_pc_place(t, 16, &pl), 0);
    ck_assert_ptr_eq(pl.func, k);
    ck_assert_str_eq(pl.func_name, "axpb");
    ck_assert_int_eq(pl.ptx_line, 25);
    ck_assert_str_eq(pl.src, "");

    /* the freed-memory describer is the target's own: a second target in the same process
       has none, and a fault on unmapped memory reads the target's */
    dbg_target *u = dbg_target_load(axpb_ptx, strlen(axpb_ptx), "axpb2.ptx", 0, 0, &kind, err,
                                    sizeof err);
    ck_assert_msg(u != NULL, "%s", err);
    dbg_target_set_freed_describer(t, freed_a, "released-by-t");
    char d[128];
    uint64_t gone = AXPB_IN + (64ull << 20);
    ck_assert_int_eq(dbg_freed_describe(dbg_target_machine(t), gone, d, sizeof d), 1);
    ck_assert_str_eq(d, "released-by-t 0x10004000000");
    ck_assert_int_eq(dbg_freed_describe(dbg_target_machine(u), gone, d, sizeof d), 0);
    axpb_params(k, params, AXPB_OUT, gone, AXPB_N);
    ck_assert_int_eq(dbg_target_launch(t, &c), 0);
    ck_assert_int_eq(dbg_target_run(t, 1u << 20, NULL, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_uint_eq(st.addr, gone);
    ck_assert_msg(strstr(st.msg, "released-by-t") != NULL, "%s", st.msg);
    /* the same launch on the other target: no describer, another explanation */
    const ptx_func *ku = dbg_target_kernel(u, "axpb");
    ck_assert_int_eq(dbg_target_map(u, AXPB_OUT, sizeof out, out, "out", 0, 0), 0);
    axpb_params(ku, params, AXPB_OUT, gone, AXPB_N);
    c.kernel = ku;
    ck_assert_int_eq(dbg_target_launch(u, &c), 0);
    ck_assert_int_eq(dbg_target_run(u, 1u << 20, NULL, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_msg(strstr(st.msg, "released-by-t") == NULL, "%s", st.msg);
    dbg_target_free(u);
    dbg_target_free(t);

    /* errors are values */
    ck_assert_ptr_null(dbg_target_load("not ptx", 7, "bad.ptx", 0, 0, &kind, err, sizeof err));
    ck_assert_int_eq(kind, DBG_TARGET_ERR_PTX);
    static const char newer[] = ".version 99.0\n.target sm_70\n.address_size 64\n";
    ck_assert_ptr_null(dbg_target_load(newer, strlen(newer), "new.ptx", 0, 0, &kind, err,
                                       sizeof err));
    ck_assert_int_eq(kind, DBG_TARGET_ERR_VERSION);
    static const char undef[] =
        ".version 7.0\n.target sm_70\n.address_size 64\n.extern .func f();\n"
        ".visible .entry e()\n{\n call f, ();\n ret;\n}\n";
    ck_assert_int_eq(dbg_ptx_check_linked(undef, strlen(undef), "l.ptx", err, sizeof err), 1);
    ck_assert_str_eq(err, "unresolved extern function 'f'");
    ck_assert_int_eq(dbg_ptx_check_linked(axpb_ptx, strlen(axpb_ptx), "l.ptx", err, sizeof err),
                     0);
}
END_TEST

/* ---- in-process front ends: registration in priority order, the first that takes the process -- */
static int fe_calls[3];   /* how often each test front end's start was asked */
static int fe_start_hi(void) { fe_calls[0]++; return -1; }   /* asked to, but failed */
static int fe_start_mid(void) { fe_calls[1]++; return 1; }   /* takes it */
static int fe_start_lo(void) { fe_calls[2]++; return 1; }    /* would, but is asked last */
static int fe_launch(ptx_module *mod, exec_machine *m, const char *dir, const ptx_func *k,
                     uint32_t id, exec_stop *out, int *reported)
{
    (void)mod, (void)m, (void)dir, (void)k, (void)id, (void)out, (void)reported;
    return -1;
}

static int fe_pos(const dbg_frontend *const *tab, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(tab[i]->name, name))
            return i;
    return -1;
}

START_TEST(frontend_registry)
{
    static const dbg_frontend lo = {.name = "t-lo", .priority = -100, .start = fe_start_lo,
                                    .launch = fe_launch};
    static const dbg_frontend mid = {.name = "t-mid", .priority = 1000, .start = fe_start_mid,
                                     .launch = fe_launch};
    static const dbg_frontend hi = {.name = "t-hi", .priority = 2000, .start = fe_start_hi,
                                    .launch = fe_launch};
    static const dbg_frontend nolaunch = {.name = "t-bad", .priority = 5, .start = fe_start_lo};
    static const dbg_frontend again = {.name = "t-mid", .priority = 3, .start = fe_start_lo,
                                       .launch = fe_launch};
    char err[160] = "";
    /* registered out of order; the front ends linked into this test (the CLI's, if any) stay */
    ck_assert_int_eq(dbg_frontend_register(&lo, err, sizeof err), 0);
    ck_assert_int_eq(dbg_frontend_register(&hi, err, sizeof err), 0);
    ck_assert_int_eq(dbg_frontend_register(&mid, err, sizeof err), 0);
    ck_assert_int_eq(dbg_frontend_register(&nolaunch, err, sizeof err), -1);
    ck_assert_str_eq(err, "an in-process front end needs a name, start and launch");
    ck_assert_int_eq(dbg_frontend_register(&again, err, sizeof err), -1);
    ck_assert_str_eq(err, "in-process front end \"t-mid\" registered twice");
    const dbg_frontend *tab[DBG_FRONTEND_MAX];
    int n = dbg_frontend_list(tab, DBG_FRONTEND_MAX);
    ck_assert_int_ge(n, 3);
    ck_assert_int_le(n, DBG_FRONTEND_MAX);
    for (int i = 1; i < n; i++)   /* highest priority first */
        ck_assert_int_ge(tab[i - 1]->priority, tab[i]->priority);
    ck_assert_int_eq(fe_pos(tab, n, "t-hi"), 0);
    ck_assert_int_eq(fe_pos(tab, n, "t-mid"), 1);
    ck_assert_int_eq(fe_pos(tab, n, "t-lo"), n - 1);
    ck_assert_int_eq(fe_pos(tab, n, "t-bad"), -1);
    /* t-hi fails (the next is asked), t-mid takes the process, t-lo is never asked */
    ck_assert_ptr_eq(dbg_frontend_attach(), &mid);
    ck_assert_int_eq(fe_calls[0], 1);
    ck_assert_int_eq(fe_calls[1], 1);
    ck_assert_int_eq(fe_calls[2], 0);
    ck_assert_ptr_eq(dbg_frontend_attach(), &mid);   /* asked once */
    ck_assert_int_eq(fe_calls[1], 1);
}
END_TEST

static Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, break_step_eval);
    tcase_add_test(tc, watch_store);
    tcase_add_test(tc, core_round_trip);
    tcase_add_test(tc, two_sessions);
    tcase_add_test(tc, synthetic_types_per_session);
    tcase_add_test(tc, target_runtime);
    tcase_add_test(tc, frontend_registry);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(engine_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
