/* fuzz_exec.c - libFuzzer harness: whole-kernel execution of small PTX programs generated from the input. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "ptx.h"

/* The input is a program over a fixed register set: every instruction takes an opcode byte
 * and operand bytes from the input and becomes one template of the menu below (integer,
 * float, logic, cvt, setp, selp, shfl, vote, ld/st/atom on a 1 KB global buffer, a shared
 * array and a local array, forward branches, counted backward branches, bar.sync, calls).
 * Loop counters %c0..%c3 are written only by the backward-branch template, so every loop is
 * bounded; MAX_STEPS warp-instructions bound the rest (per exec_run, at most 4 runs). The
 * kernel runs on one or two CTAs (config byte bit 0) of one warp, or of two warps when bits 1
 * and 2 are both set (a quarter of the inputs: barriers and shared memory across warps).
 * Faults, traps and deadlocks are expected outcomes; only crashes, hangs and sanitizer
 * reports are failures. FUZZ_EXEC_PRINT=1 prints each generated program. */

#define MAX_INSNS 32
#define MAX_STEPS 3000
#define NLABELS 16

typedef struct {
    const uint8_t *d;
    size_t n, at;
} src;

static unsigned byte(src *s)
{
    return s->at < s->n ? s->d[s->at++] : 0;
}

typedef struct {
    char *buf;
    size_t len, cap;
} text;

static void emit(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if (t->len + (size_t)k < t->cap) {
            t->len += (size_t)k;
            return;
        }
        size_t nc = (t->cap + (size_t)k) * 2;
        char *nb = realloc(t->buf, nc);
        if (!nb)
            abort();
        t->buf = nb;
        t->cap = nc;
    }
}

#define R(s) (byte(s) % 8)  /* %r0..%r7 */
#define F(s) (byte(s) % 4)  /* %f0..%f3 */
#define D(s) (byte(s) % 2)  /* %fd0..%fd1 */
#define P(s) (byte(s) % 4)  /* %p0..%p3 */
#define L(s) (byte(s) % 4)  /* %rd4..%rd7: 64-bit scratch */

/* An address of `size` bytes into a region of `span` bytes: mostly aligned and in range,
 * sometimes misaligned, sometimes anywhere. Leaves the byte offset in %r8. */
static void offset(text *t, src *s, unsigned size, unsigned span)
{
    unsigned mode = byte(s) % 8, r = R(s);
    if (mode < 6)
        emit(t, "\tand.b32 %%r8, %%r%u, %u;\n", r, (span - 1) & ~(size - 1));
    else if (mode == 6)
        emit(t, "\tand.b32 %%r8, %%r%u, %u;\n", r, span - 1);
    else
        emit(t, "\tmov.b32 %%r8, %%r%u;\n", r);
}

static void gen_insn(text *t, src *s, int idx, int *next_label)
{
    static const char *const ibin[] = {"add.s32", "sub.s32", "mul.lo.s32", "mul.hi.u32",
                                       "div.s32", "div.u32", "rem.s32", "rem.u32", "min.s32",
                                       "max.u32", "and.b32", "or.b32", "xor.b32", "shl.b32",
                                       "shr.s32", "shr.u32", "add.sat.s32", "sub.sat.s32",
                                       "mul24.lo.s32", "mul.hi.s32"};
    static const char *const iun[] = {"not.b32", "neg.s32", "abs.s32", "popc.b32", "clz.b32",
                                      "brev.b32", "cnot.b32", "bfind.u32"};
    static const char *const fbin[] = {"add.f32", "sub.f32", "mul.f32", "div.rn.f32",
                                       "div.approx.f32", "min.f32", "max.f32", "add.rz.f32",
                                       "mul.sat.f32", "copysign.f32"};
    static const char *const fun[] = {"sqrt.rn.f32", "rcp.rn.f32", "rcp.approx.f32",
                                      "ex2.approx.f32", "lg2.approx.f32", "sin.approx.f32",
                                      "cos.approx.f32", "abs.f32", "neg.f32", "rsqrt.approx.f32",
                                      "cvt.rni.f32.f32", "sqrt.approx.f32"};
    static const char *const cmp[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    static const char *const ucmp[] = {"lo", "ls", "hi", "hs", "eq", "ne"};
    static const char *const fcmp[] = {"lt", "equ", "neu", "ge", "num", "nan"};
    static const char *const shfl[] = {"idx", "up", "down", "bfly"};
    static const char *const vote[] = {"all", "any", "uni"};
    static const char *const atom[] = {"add.u32", "min.s32", "max.u32", "exch.b32", "and.b32",
                                       "or.b32", "xor.b32", "inc.u32", "dec.u32"};
    unsigned op = byte(s) % 24;
    switch (op) {
    case 0: case 1: case 2:
        emit(t, "\t%s %%r%u, %%r%u, %%r%u;\n", ibin[byte(s) % 20], R(s), R(s), R(s));
        break;
    case 3:
        emit(t, "\t%s %%r%u, %%r%u;\n", iun[byte(s) % 8], R(s), R(s));
        break;
    case 4: {
        unsigned a = byte(s), b = byte(s);
        emit(t, "\tmov.b32 %%r%u, %u;\n", R(s), (a << 24) | (b << 8) | a);
        break;
    }
    case 5:
        emit(t, "\tmad.lo.s32 %%r%u, %%r%u, %%r%u, %%r%u;\n", R(s), R(s), R(s), R(s));
        break;
    case 6:
        switch (byte(s) % 4) {
        case 0: emit(t, "\tbfe.u32 %%r%u, %%r%u, %%r%u, %%r%u;\n", R(s), R(s), R(s), R(s)); break;
        case 1: emit(t, "\tbfi.b32 %%r%u, %%r%u, %%r%u, %%r%u, %%r%u;\n", R(s), R(s), R(s), R(s), R(s)); break;
        case 2: emit(t, "\tprmt.b32 %%r%u, %%r%u, %%r%u, %%r%u;\n", R(s), R(s), R(s), R(s)); break;
        default: emit(t, "\tshf.l.wrap.b32 %%r%u, %%r%u, %%r%u, %%r%u;\n", R(s), R(s), R(s), R(s)); break;
        }
        break;
    case 7:
        emit(t, "\t%s %%f%u, %%f%u, %%f%u;\n", fbin[byte(s) % 10], F(s), F(s), F(s));
        break;
    case 8:
        if (byte(s) % 3)
            emit(t, "\t%s %%f%u, %%f%u;\n", fun[byte(s) % 12], F(s), F(s));
        else
            emit(t, "\tfma.rn.f32 %%f%u, %%f%u, %%f%u, %%f%u;\n", F(s), F(s), F(s), F(s));
        break;
    case 9:
        switch (byte(s) % 4) {
        case 0: emit(t, "\tadd.f64 %%fd%u, %%fd%u, %%fd%u;\n", D(s), D(s), D(s)); break;
        case 1: emit(t, "\tdiv.rn.f64 %%fd%u, %%fd%u, %%fd%u;\n", D(s), D(s), D(s)); break;
        case 2: emit(t, "\tfma.rn.f64 %%fd%u, %%fd%u, %%fd%u, %%fd%u;\n", D(s), D(s), D(s), D(s)); break;
        default: emit(t, "\tsqrt.rn.f64 %%fd%u, %%fd%u;\n", D(s), D(s)); break;
        }
        break;
    case 10:
        switch (byte(s) % 10) {
        case 0: emit(t, "\tcvt.rn.f32.s32 %%f%u, %%r%u;\n", F(s), R(s)); break;
        case 1: emit(t, "\tcvt.rzi.s32.f32 %%r%u, %%f%u;\n", R(s), F(s)); break;
        case 2: emit(t, "\tcvt.rni.sat.u32.f32 %%r%u, %%f%u;\n", R(s), F(s)); break;
        case 3: emit(t, "\tcvt.f64.f32 %%fd%u, %%f%u;\n", D(s), F(s)); break;
        case 4: emit(t, "\tcvt.rn.f32.f64 %%f%u, %%fd%u;\n", F(s), D(s)); break;
        case 5: emit(t, "\tcvt.rzi.s64.f64 %%rd%u, %%fd%u;\n", 4 + L(s), D(s)); break;
        case 6: emit(t, "\tcvt.u32.u64 %%r%u, %%rd%u;\n", R(s), 4 + L(s)); break;
        case 7: emit(t, "\tcvt.s64.s32 %%rd%u, %%r%u;\n", 4 + L(s), R(s)); break;
        case 8: emit(t, "\tcvt.s8.s32 %%r%u, %%r%u;\n", R(s), R(s)); break;
        default: emit(t, "\tmov.b32 %%f%u, %%r%u;\n", F(s), R(s)); break;
        }
        break;
    case 11:
        switch (byte(s) % 3) {
        case 0: emit(t, "\tsetp.%s.s32 %%p%u, %%r%u, %%r%u;\n", cmp[byte(s) % 6], P(s), R(s), R(s)); break;
        case 1: emit(t, "\tsetp.%s.u32 %%p%u, %%r%u, %%r%u;\n", ucmp[byte(s) % 6], P(s), R(s), R(s)); break;
        default: emit(t, "\tsetp.%s.f32 %%p%u, %%f%u, %%f%u;\n", fcmp[byte(s) % 6], P(s), F(s), F(s)); break;
        }
        break;
    case 12:
        if (byte(s) % 2)
            emit(t, "\tselp.b32 %%r%u, %%r%u, %%r%u, %%p%u;\n", R(s), R(s), R(s), P(s));
        else
            emit(t, "\tand.pred %%p%u, %%p%u, %%p%u;\n", P(s), P(s), P(s));
        break;
    case 13: {
        unsigned k = byte(s);
        emit(t, "\tshfl.sync.%s.b32 %%r%u, %%r%u, %%r%u, %u, 0xffffffff;\n", shfl[k % 4], R(s),
             R(s), R(s), k & 0x40 ? 0x1f : 0);
        break;
    }
    case 14: {
        unsigned k = byte(s) % 4;
        unsigned mask = byte(s) % 4 ? 0xffffffffu : 0x0000ffffu;
        if (k == 3)
            emit(t, "\tvote.sync.ballot.b32 %%r%u, %%p%u, 0x%x;\n", R(s), P(s), mask);
        else
            emit(t, "\tvote.sync.%s.pred %%p%u, %%p%u, 0x%x;\n", vote[k], P(s), P(s), mask);
        break;
    }
    case 15: /* global: %rd0 is the 1 KB buffer */
        offset(t, s, 4, 1024);
        emit(t, "\tcvt.u64.u32 %%rd1, %%r8;\n\tadd.s64 %%rd1, %%rd0, %%rd1;\n");
        switch (byte(s) % 4) {
        case 0: emit(t, "\tld.global.u32 %%r%u, [%%rd1];\n", R(s)); break;
        case 1: emit(t, "\tst.global.u32 [%%rd1], %%r%u;\n", R(s)); break;
        case 2: emit(t, "\tatom.global.%s %%r%u, [%%rd1], %%r%u;\n", atom[byte(s) % 9], R(s), R(s)); break;
        default: emit(t, "\tld.global.f32 %%f%u, [%%rd1];\n", F(s)); break;
        }
        break;
    case 16: /* shared: 256 bytes */
        offset(t, s, 4, 256);
        emit(t, "\tmov.u32 %%r9, sh;\n\tadd.u32 %%r9, %%r9, %%r8;\n");
        switch (byte(s) % 3) {
        case 0: emit(t, "\tld.shared.u32 %%r%u, [%%r9];\n", R(s)); break;
        case 1: emit(t, "\tst.shared.u32 [%%r9], %%r%u;\n", R(s)); break;
        default: emit(t, "\tatom.shared.%s %%r%u, [%%r9], %%r%u;\n", atom[byte(s) % 9], R(s), R(s)); break;
        }
        break;
    case 17: /* local: 64 bytes, through a generic address sometimes */
        offset(t, s, 4, 64);
        emit(t, "\tcvt.u64.u32 %%rd2, %%r8;\n\tmov.u64 %%rd3, depot;\n\tadd.s64 %%rd2, %%rd3, %%rd2;\n");
        switch (byte(s) % 3) {
        case 0: emit(t, "\tld.local.u32 %%r%u, [%%rd2];\n", R(s)); break;
        case 1: emit(t, "\tst.local.u32 [%%rd2], %%r%u;\n", R(s)); break;
        default: emit(t, "\tcvta.local.u64 %%rd2, %%rd2;\n\tld.u32 %%r%u, [%%rd2];\n", R(s)); break;
        }
        break;
    case 18: /* forward branch, maybe guarded */
        if (*next_label < NLABELS) {
            int target = *next_label + (int)(byte(s) % (NLABELS - *next_label));
            if (byte(s) % 2)
                emit(t, "\t@%s%%p%u bra L%d;\n", byte(s) % 2 ? "!" : "", P(s), target);
            else
                emit(t, "\tbra.uni L%d;\n", target);
        }
        break;
    case 19: /* counted backward branch to the last label placed */
        if (*next_label > 0) {
            unsigned c = byte(s) % 4, lim = byte(s) % 16 + 1;
            emit(t, "\tadd.u32 %%c%u, %%c%u, 1;\n\tsetp.lt.u32 %%q0, %%c%u, %u;\n"
                    "\t@%%q0 bra L%d;\n", c, c, c, lim, *next_label - 1);
        }
        break;
    case 20:
        emit(t, "\tbar.sync 0;\n");
        break;
    case 21: {
        static const char *const sreg[] = {"%tid.x", "%laneid", "%warpid", "%ctaid.x",
                                           "%ntid.x", "%nctaid.x", "%clock", "%lanemask_lt"};
        emit(t, "\tmov.u32 %%r%u, %s;\n", R(s), sreg[byte(s) % 8]);
        break;
    }
    case 22:
        emit(t, "\t{\n\t.param .b32 p0;\n\t.param .b32 r0;\n\tst.param.b32 [p0], %%r%u;\n"
                "\tcall (r0), helper, (p0);\n\tld.param.b32 %%r%u, [r0];\n\t}\n", R(s), R(s));
        break;
    default:
        if (byte(s) % 8 == 0)
            emit(t, "\t@%%p%u bra DONE;\n", P(s));
        else
            emit(t, "\tmov.b32 %%r%u, %%f%u;\n", R(s), F(s));
        break;
    }
    /* place a label now and then, so forward targets exist and loops have a head */
    if (*next_label < NLABELS && (idx % 6 == 5))
        emit(t, "L%d:\n", (*next_label)++);
}

static char *generate(const uint8_t *data, size_t size, unsigned *cfg)
{
    src s = {data, size, 0};
    text t = {malloc(8192), 0, 8192};
    if (!t.buf)
        abort();
    *cfg = byte(&s);
    emit(&t, ".version 7.0\n.target sm_80\n.address_size 64\n\n"
             ".func (.param .b32 r) helper(.param .b32 a)\n{\n\t.reg .b32 %%h<3>;\n"
             "\tld.param.b32 %%h1, [a];\n\tmul.lo.s32 %%h2, %%h1, 3;\n\tst.param.b32 [r], %%h2;\n"
             "\tret;\n}\n\n"
             ".visible .entry k(.param .u64 k_buf)\n{\n"
             "\t.shared .align 4 .b8 sh[256];\n\t.local .align 8 .b8 depot[64];\n"
             "\t.reg .pred %%p<4>;\n\t.reg .pred %%q<1>;\n\t.reg .b32 %%r<10>;\n"
             "\t.reg .b32 %%c<4>;\n\t.reg .f32 %%f<4>;\n\t.reg .f64 %%fd<2>;\n\t.reg .b64 %%rd<8>;\n"
             "\tld.param.u64 %%rd0, [k_buf];\n\tcvta.to.global.u64 %%rd0, %%rd0;\n"
             "\tmov.u32 %%r0, %%tid.x;\n\tmov.u32 %%r1, %%ctaid.x;\n\tshl.b32 %%r2, %%r0, 2;\n"
             "\tadd.u32 %%r3, %%r0, 7;\n\tmul.lo.u32 %%r4, %%r0, 2654435761;\n\tmov.u32 %%r5, 1;\n"
             "\tmov.u32 %%r6, -1;\n\tmov.u32 %%r7, 0x80000000;\n\tmov.u32 %%r8, 0;\n"
             "\tmov.u32 %%r9, 0;\n\tmov.u32 %%c0, 0;\n\tmov.u32 %%c1, 0;\n\tmov.u32 %%c2, 0;\n"
             "\tmov.u32 %%c3, 0;\n\tcvt.rn.f32.u32 %%f0, %%r0;\n\tmov.f32 %%f1, 0f3FC00000;\n"
             "\tmov.f32 %%f2, 0f7F800000;\n\tmov.f32 %%f3, 0fBF800000;\n"
             "\tcvt.f64.f32 %%fd0, %%f0;\n\tmov.f64 %%fd1, 0d3FE0000000000000;\n"
             "\tsetp.lt.u32 %%p0, %%r0, 16;\n\tsetp.eq.u32 %%p1, %%r1, 0;\n"
             "\tsetp.ne.u32 %%p2, %%r0, 3;\n\tsetp.gt.u32 %%p3, %%r0, 40;\n"
             "\tcvt.u64.u32 %%rd4, %%r0;\n\tmov.u64 %%rd5, 0;\n\tmov.u64 %%rd6, -1;\n"
             "\tmov.u64 %%rd7, 1;\n");
    int next_label = 0;
    for (int i = 0; i < MAX_INSNS && s.at < s.n; i++)
        gen_insn(&t, &s, i, &next_label);
    while (next_label < NLABELS)
        emit(&t, "L%d:\n", next_label++);
    emit(&t, "DONE:\n\tshl.b32 %%r8, %%r0, 2;\n\tand.b32 %%r8, %%r8, 1020;\n"
             "\tcvt.u64.u32 %%rd1, %%r8;\n\tadd.s64 %%rd1, %%rd0, %%rd1;\n"
             "\tst.global.u32 [%%rd1], %%r4;\n\tret;\n}\n");
    return t.buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 2048)
        return 0;
    unsigned cfg;
    char *ptx = generate(data, size, &cfg);
    if (!ptx)
        return 0;
    if (getenv("FUZZ_EXEC_PRINT"))
        fputs(ptx, stderr);
    ptx_error err;
    ptx_module *m = ptx_parse(ptx, strlen(ptx), "gen.ptx", &err);
    if (!m) {
        /* a generator bug, not a finding about ptxdbg: show it */
        fprintf(stderr, "fuzz_exec: generated PTX does not parse:\n%s\n", ptx);
        abort();
    }
    char msg[512];
    exec_machine *em = exec_new(m, msg, sizeof msg);
    if (!em) {
        fprintf(stderr, "fuzz_exec: exec_new: %s\n%s\n", msg, ptx);
        abort();
    }
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    exec_set_output(em, null);
    uint64_t buf;
    const ptx_func *kernel = NULL;
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->is_entry)
            kernel = m->funcs[i];
    if (kernel && exec_global_alloc(em, 1024, &buf) == 0) {
        exec_dim3 grid = {cfg & 1 ? 2 : 1, 1, 1}, block = {(cfg & 6) == 6 ? 64 : 32, 1, 1};
        if (exec_launch(em, kernel, grid, block, 0, &buf, sizeof buf) == 0) {
            exec_run_opts o;
            memset(&o, 0, sizeof o);
            o.mode = EXEC_RUN_CONTINUE;
            o.max_steps = MAX_STEPS;
            exec_stop st;
            for (int k = 0; k < 4; k++) {
                if (exec_run(em, &o, &st) != 0)
                    break;
                if (st.kind != EXEC_STOP_BREAKPOINT && st.kind != EXEC_STOP_BRKPT)
                    break;
            }
            /* inspect what is left, as a debugger would after a stop */
            exec_warp_info wi;
            exec_lane_info li;
            uint64_t v;
            ptx_type ty;
            for (uint32_t c = 0; c < exec_ncta(em); c++)
                for (uint32_t w = 0; w < exec_nwarps(em); w++) {
                    exec_warp_get(em, c, w, &wi);
                    exec_lane_get(em, c, w, 5, &li);
                    exec_reg_get(em, c, w, 5, 0, "%r4", &v, &ty);
                }
            exec_kill(em);
        }
    }
    exec_free(em);
    ptx_module_free(m);
    free(ptx);
    return 0;
}
