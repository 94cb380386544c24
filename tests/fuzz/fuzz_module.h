/* fuzz_module.h - the PTX shared by the fuzz harnesses that run a session on a small module
 * (fuzz_commands.c, fuzz_core.c): its header and globals, and the kernel `work` (a loop, a
 * call of the device function twice, shared, local and const memory), each harness giving
 * twice its own body in between. String literals, so `sizeof module - 1` stays the length. */
#ifndef FUZZ_MODULE_H
#define FUZZ_MODULE_H

/* .version/.target, the const table ktab and the global counter gcount */
#define FUZZ_MODULE_HEAD                               \
    ".version 7.0\n.target sm_80\n.address_size 64\n"  \
    ".const .align 4 .b32 ktab[4] = {3, 5, 7, 11};\n"  \
    ".global .align 4 .b32 gcount;\n"

/* .entry work(out, n, x): out[tid] = 2 * (sum of 0..n-1 + ktab[tid & 3]) * x, gcount += 1 */
#define FUZZ_MODULE_WORK                                                                         \
    ".visible .entry work(.param .u64 work_out, .param .u32 work_n, .param .f32 work_x)\n{\n"    \
    "\t.local .align 8 .b8 depot[32];\n\t.shared .align 4 .b32 sh[64];\n"                        \
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<12>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n"        \
    "\tld.param.u64 %rd1, [work_out];\n\tld.param.u32 %r1, [work_n];\n"                          \
    "\tld.param.f32 %f1, [work_x];\n\tcvta.to.global.u64 %rd2, %rd1;\n"                          \
    "\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, 0;\n\tmov.u32 %r4, 0;\n"                             \
    "\tmov.u64 %rd3, depot;\n\tst.local.u32 [%rd3], %r2;\n"                                      \
    "\tshl.b32 %r5, %r2, 2;\n\tmov.u32 %r6, sh;\n\tadd.u32 %r6, %r6, %r5;\n"                     \
    "\tst.shared.u32 [%r6], %r2;\n\tbar.sync 0;\n"                                               \
    "LOOP:\n\tsetp.ge.u32 %p1, %r3, %r1;\n\t@%p1 bra DONE;\n"                                    \
    "\tadd.u32 %r4, %r4, %r3;\n\tadd.u32 %r3, %r3, 1;\n\tbra LOOP;\n"                            \
    "DONE:\n\tand.b32 %r7, %r2, 3;\n\tshl.b32 %r7, %r7, 2;\n\tmov.u64 %rd4, ktab;\n"             \
    "\tcvt.u64.u32 %rd5, %r7;\n\tadd.s64 %rd4, %rd4, %rd5;\n\tld.const.u32 %r8, [%rd4];\n"       \
    "\tadd.u32 %r4, %r4, %r8;\n"                                                                 \
    "\t{\n\t.param .b32 p0;\n\t.param .b32 r0;\n\tst.param.b32 [p0], %r4;\n"                     \
    "\tcall (r0), twice, (p0);\n\tld.param.b32 %r9, [r0];\n\t}\n"                                \
    "\tcvt.rn.f32.u32 %f2, %r9;\n\tmul.f32 %f3, %f2, %f1;\n"                                     \
    "\tmul.wide.u32 %rd6, %r2, 4;\n\tadd.s64 %rd7, %rd2, %rd6;\n\tst.global.f32 [%rd7], %f3;\n"  \
    "\tatom.global.add.u32 %r10, [gcount], 1;\n\tret;\n}\n"

#endif
