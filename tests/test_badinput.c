/* test_badinput.c - the bad-input matrix: every bad file, command or kernel ends in a clear error and a live session. */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd.h"
#include "test_util.h"

/* Each row runs `PTXDBG -batch ... -ex 'echo badinput-alive\n' [FILE.ptx]` (PTXDBG from the
 * environment, default ./ptxdbg; run from the repository root) in a scratch directory where
 * B/ is tests/badinput/, under `timeout`, and requires:
 *   - no hang and no death by a signal: the row's work is bounded, not its wall time: ptxdbg
 *     gets 10 s of CPU time (ulimit -t; a loaded machine stretches the wall time, not this),
 *     and a wall-clock backstop of 300 s catches a process blocked without using CPU;
 *   - no sanitizer report ("AddressSanitizer", "LeakSanitizer", "runtime error") when PTXDBG
 *     is a sanitizer build;
 *   - the exit status (S0: zero, S1: non-zero, as -batch reports a failed command or a faulted
 *     kernel; SANY: either);
 *   - the message: an extended regular expression (case-insensitive) on stderr, or on stdout
 *     or stderr for kernel exceptions, which cuda-gdb prints on stdout;
 *   - the session is alive afterwards: the final echo's marker is on stdout.
 * Rows with a "bug:" comment expose a defect that was open when the row was written. */

enum { S0, S1, SANY };
#define ROW_CPU_S "10"
enum { ERR, ANY };
/* SMALLWD: the batch watchdog's default is lowered through PTXDBG_MAX_STEPS (the real default
 * takes a minute of a spinning warp; the row checks the mechanism, not the figure). */
enum { NOALIVE = 1, MEMLIMIT = 2, CORE = 4, NOSAN = 8, SMALLWD = 16, WDNEG = 32, WDBIG = 64 };
/* WDNEG, WDBIG: PTXDBG_MAX_STEPS is -1 / 2^64 + 1 instead (refused: the watchdog keeps its
 * default, so the row still ends) */

typedef struct {
    const char *name;
    const char *ptx;     /* B/FILE, /dev/null, or NULL for none */
    const char *cmds;    /* one per line: "-x SCRIPT", else an -ex command; @TOP@ @TMP@ @LOAD@ */
    int status;
    int where;
    const char *re;      /* expected message, NULL for none */
    const char *out_re;  /* expected on stdout, NULL for none */
    int flags;
} row;

#define OK "B/ok.ptx"
#define AX "B/access.ptx"
#define FAULT(k, off, re) \
    {"fault-" k "-" #off, AX, "buffer b u32 16\nlaunch " k "<<<1,1>>>(b, " #off ")", S1, ANY, re, NULL, 0}
#define MIS "Misaligned Address"
#define OOR "Out-of-range Address|Illegal Address"
#define STOP "buffer o u32 128\nbreak fill\nlaunch fill<<<2,64>>>(o, 128)\n"

static const row rows[] = {
    /* ---- malformed and truncated PTX (the file given on the command line) ---------------- */
    {"ptx-missing-file", "B/no-such-file.ptx", "", S1, ERR, "no-such-file\\.ptx.*(cannot open|no such file)", NULL, 0},
    {"ptx-directory", "B", "", S1, ERR, "B.*(directory|cannot (open|read))", NULL, 0},
    /* as ptxas: a module starts with .version (empty or comment-only text is no module) */
    {"ptx-empty-file", "/dev/null", "info functions", S1, ERR, "not a regular file", NULL, 0},
    {"ptx-comment-only", "B/comment-only.ptx", "info functions", S1, ERR, "missing \\.version", NULL, 0},
    {"ptx-no-version", "B/no-version.ptx", "", SANY, ERR, NULL, NULL, 0},
    /* bug: a .version/.target ptxdbg cannot know is accepted silently (ptxas refuses it) */
    {"ptx-bad-version", "B/bad-version.ptx", "", S1, ERR, "version|target", NULL, 0},
    {"ptx-garbage", "B/garbage.ptx", "", S1, ERR, "garbage\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-trunc-mid-insn", "B/trunc-mid-insn.ptx", "", S1, ERR, "trunc-mid-insn\\.ptx:9:[0-9]+: error:", NULL, 0},
    {"ptx-trunc-open-brace", "B/trunc-open-brace.ptx", "", S1, ERR, "trunc-open-brace\\.ptx:[0-9]+:[0-9]+: error:.*(unterminated|})", NULL, 0},
    {"ptx-entry-no-body", "B/entry-no-body.ptx", "", S1, ERR, "entry-no-body\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-stray-close", "B/stray-close.ptx", "", S1, ERR, "stray-close\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-unterminated-comment", "B/unterminated-comment.ptx", "", S1, ERR, "error: unterminated comment", NULL, 0},
    {"ptx-unterminated-string", "B/unterminated-string.ptx", "", S1, ERR, "error: unterminated string", NULL, 0},
    {"ptx-deep-braces", "B/deep-braces.ptx", "", S1, ERR, "deep-braces\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-deep-expr", "B/deep-expr.ptx", "", S1, ERR, "deep-expr\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-long-ident", "B/long-ident.ptx", "", S1, ERR, "long-ident\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    /* ---- unknown instructions, wrong operands -------------------------------------------- */
    {"ptx-unknown-insn", "B/unknown-insn.ptx", "", S1, ERR, "unknown-insn\\.ptx:11:2: error: unknown instruction 'frobnicate'", NULL, 0},
    {"ptx-unknown-type", "B/unknown-type.ptx", "", S1, ERR, "unknown-type\\.ptx:11:[0-9]+: error:.*s33", NULL, 0},
    {"ptx-few-operands", "B/few-operands.ptx", "", S1, ERR, "few-operands\\.ptx:11:[0-9]+: error:.*operands", NULL, 0},
    {"ptx-many-operands", "B/many-operands.ptx", "", S1, ERR, "many-operands\\.ptx:11:[0-9]+: error:.*operands", NULL, 0},
    /* bug: add.s32 with a 64-bit register operand is accepted (ptxas: "Arguments mismatch") */
    {"ptx-width-mismatch", "B/width-mismatch.ptx", "", S1, ERR, "width-mismatch\\.ptx:11:[0-9]+: error:", NULL, 0},
    {"ptx-operand-kind", "B/operand-kind.ptx", "", S1, ERR, "operand-kind\\.ptx:11:[0-9]+: error:", NULL, 0},
    {"ptx-bad-predicate", "B/bad-predicate.ptx", "", S1, ERR, "bad-predicate\\.ptx:11:[0-9]+: error:.*predicate", NULL, 0},
    {"ptx-bad-vector", "B/bad-vector.ptx", "", S1, ERR, "bad-vector\\.ptx:11:[0-9]+: error:", NULL, 0},
    {"ptx-call-args", "B/call-args.ptx", "", S1, ERR, "call-args\\.ptx:[0-9]+:[0-9]+: error:.*argument", NULL, 0},
    {"ptx-call-kernel", "B/call-kernel.ptx", "", S1, ERR, "call-kernel\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    /* ---- undefined and duplicate names -------------------------------------------------- */
    {"ptx-undef-label", "B/undef-label.ptx", "", S1, ERR, "undef-label\\.ptx:11:[0-9]+: error:.*NOWHERE", NULL, 0},
    {"ptx-undef-symbol", "B/undef-symbol.ptx", "", S1, ERR, "undef-symbol\\.ptx:11:[0-9]+: error:.*nosuch", NULL, 0},
    {"ptx-undef-reg", "B/undef-reg.ptx", "", S1, ERR, "undef-reg\\.ptx:11:[0-9]+: error:.*%q9", NULL, 0},
    {"ptx-undef-func", "B/undef-func.ptx", "", S1, ERR, "undef-func\\.ptx:[0-9]+:[0-9]+: error:.*nosuchfunc", NULL, 0},
    {"ptx-label-other-func", "B/label-other-func.ptx", "", S1, ERR, "label-other-func\\.ptx:[0-9]+:[0-9]+: error:.*LA", NULL, 0},
    {"ptx-dup-reg", "B/dup-reg.ptx", "", S1, ERR, "dup-reg\\.ptx:9:[0-9]+: error:.*%r1", NULL, 0},
    {"ptx-dup-label", "B/dup-label.ptx", "", S1, ERR, "dup-label\\.ptx:[0-9]+:[0-9]+: error:.*L1", NULL, 0},
    {"ptx-dup-param", "B/dup-param.ptx", "", S1, ERR, "dup-param\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-dup-entry", "B/dup-entry.ptx", "", S1, ERR, "dup-entry\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-dup-global", "B/dup-global.ptx", "", S1, ERR, "dup-global\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    /* ---- huge, negative and overflowing sizes --------------------------------------------- */
    {"ptx-huge-regs", "B/huge-regs.ptx", "", S1, ERR, "huge-regs\\.ptx:[0-9]+:[0-9]+: error:.*registers", NULL, 0},
    {"ptx-huge-shared", "B/huge-shared.ptx", "", S1, ERR, "huge-shared\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-huge-local", "B/huge-local.ptx", "", S1, ERR, "huge-local\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-huge-global", "B/huge-global.ptx", "", S1, ERR, "huge-global\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-neg-array", "B/neg-array.ptx", "", S1, ERR, "neg-array\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-zero-neg-regs", "B/zero-regs.ptx", "", S1, ERR, "zero-regs\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-overflow-array", "B/overflow-array.ptx", "", S1, ERR, "overflow-array\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    {"ptx-huge-init", "B/huge-init.ptx", "", S1, ERR, "huge-init\\.ptx:[0-9]+:[0-9]+: error:", NULL, 0},
    /* bug: 70000 bytes of .const (the constant bank holds 64 KB) load without complaint */
    {"ptx-huge-const", "B/huge-const.ptx", "", S1, ERR, "const", NULL, 0},
    /* ---- a bad `file` mid-session keeps the module, buffers and launch ------------------- */
    {"file-bad-keeps-module", OK, "file B/unknown-insn.ptx\ninfo functions", S1, ERR, "unknown instruction", "printloop", 0},
    {"file-missing-keeps-module", OK, "file B/no-such.ptx\ninfo functions", S1, ERR, "no-such\\.ptx.*(cannot open|no such)", "printloop", 0},
    {"file-bad-keeps-buffers", OK, "buffer o u32 4 = {1,2,3,4}\nfile B/garbage.ptx\nprint o[3]", S1, ERR, "garbage\\.ptx", "\\$1 = 4", 0},
    {"file-bad-keeps-launch", OK, STOP "file B/dup-reg.ptx\ndelete\ncontinue\nprint o[63]", S1, ERR, "dup-reg\\.ptx", "= 63", 0},
    /* bug: "B: error: read error" says neither what nor why (also ptx-directory) */
    {"file-directory", OK, "file B\ninfo functions", S1, ERR, "(directory|cannot (open|read))", "printloop", 0},
    /* bug: a leading '/' makes the argument count as a /FMT, so absolute paths give "Usage:" */
    {"file-absolute-path", NULL, "file @TOP@/tests/badinput/ok.ptx\ninfo functions", S0, ERR, NULL, "printloop", 0},
    {"source-absolute-path", NULL, "source @TMP@/hello.cmd", S0, ERR, NULL, "hello-from-script", 0},
    /* bug: files that never end (/dev/zero here, also FIFOs) are read until memory runs out:
     * ptxdbg should refuse what is not a regular file, or cap the size it reads; under the
 * 2 GB limit these rows end in "out of memory" (or, for -x, silently with status 0) */
    {"ptx-dev-zero", "zero", "", S1, ERR, "zero.*(regular file|too large)", NULL, MEMLIMIT | NOSAN},
    {"file-dev-zero", OK, "file zero\ninfo functions", S1, ERR, "zero.*(regular file|too large)", "printloop", MEMLIMIT | NOSAN},
    {"script-dev-zero", OK, "-x zero", S1, ERR, "zero.*(regular file|too (large|long))", NULL, MEMLIMIT | NOSAN},
    /* ---- launch configurations ---------------------------------------------------------- */
    {"launch-block-1025", OK, "buffer o u32 64\nlaunch fill<<<1,1025>>>(o, 0)", S1, ERR, "block.*1024", NULL, 0},
    {"launch-block-2048-3d", OK, "buffer o u32 64\nlaunch fill<<<1,(32,32,2)>>>(o, 0)", S1, ERR, "block.*1024", NULL, 0},
    {"launch-block-z-65", OK, "buffer o u32 64\nlaunch fill<<<1,(1,1,65)>>>(o, 0)", S1, ERR, "block|launch configuration", NULL, 0},
    {"launch-grid-x-2^31", OK, "buffer o u32 64\nlaunch fill<<<2147483648,32>>>(o, 0)", S1, ERR, "grid", NULL, 0},
    {"launch-grid-y-65536", OK, "buffer o u32 64\nlaunch fill<<<(1,65536),32>>>(o, 0)", S1, ERR, "grid", NULL, 0},
    {"launch-grid-z-65536", OK, "buffer o u32 64\nlaunch fill<<<(1,1,65536),32>>>(o, 0)", S1, ERR, "grid", NULL, 0},
    {"launch-grid-zero", OK, "buffer o u32 64\nlaunch fill<<<0,32>>>(o, 0)", S1, ERR, "grid", NULL, 0},
    {"launch-grid-y-zero", OK, "buffer o u32 64\nlaunch fill<<<(1,0,1),32>>>(o, 0)", S1, ERR, "grid", NULL, 0},
    {"launch-block-zero", OK, "buffer o u32 64\nlaunch fill<<<1,0>>>(o, 0)", S1, ERR, "block", NULL, 0},
    {"launch-negative", OK, "buffer o u32 64\nlaunch fill<<<-1,32>>>(o, 0)\nlaunch fill<<<1,-32>>>(o, 0)", S1, ERR, "grid", NULL, 0},
    {"launch-grid-20-digits", OK, "buffer o u32 64\nlaunch fill<<<99999999999999999999,1>>>(o, 0)", S1, ERR, "grid", NULL, 0},
    {"launch-grid-4-dims", OK, "buffer o u32 64\nlaunch fill<<<(1,2,3,4),1>>>(o, 0)", S1, ERR, "grid", NULL, 0},
    {"launch-syntax", OK, "buffer o u32 64\nlaunch fill<<<1,1>>(o, 0)\nlaunch fill<<<>>>()\nlaunch fill<<<1,1>>>(o", S1, ERR, "Usage: launch", NULL, 0},
    {"launch-arg-count", OK, "buffer o u32 64\nlaunch fill<<<1,1>>>(o)", S1, ERR, "2 arguments", NULL, 0},
    {"launch-arg-too-big", OK, "buffer o u32 64\nlaunch fill<<<1,1>>>(o, 99999999999999999999)", S1, ERR, "Argument 2", NULL, 0},
    {"launch-arg-unknown", OK, "launch fill<<<1,1>>>(nosuch, 1)", S1, ERR, "Argument 1.*nosuch", NULL, 0},
    {"launch-unknown-kernel", OK, "launch nosuch<<<1,1>>>()", S1, ERR, "nosuch", NULL, 0},
    {"launch-absurd-grid", OK, "buffer o u32 64\nlaunch fill<<<(2147483647,65535,65535),1024>>>(o, 0)", S1, ERR, "grid|launch configuration", NULL, MEMLIMIT},
    /* ---- shared memory limits: static .shared over 48 KB is a ptxas error; static + dynamic
     * may reach the target's opt-in maximum (sm_80: 163 KB = 166912 bytes, sm_90: 227 KB =
     * 232448 bytes), as with cudaFuncSetAttribute(MaxDynamicSharedMemorySize), which ptxdbg
     * implies since it has no such call. ---------------------------------------------------- */
    {"shmem-dynamic-negative", OK, "buffer o u32 64\nlaunch fill<<<1,32,-1>>>(o, 0)", S1, ERR, "shared", NULL, 0},
    {"shmem-dynamic-4G", OK, "buffer o u32 64\nlaunch fill<<<1,32,4294967295>>>(o, 0)", S1, ERR, "shared", NULL, 0},
    {"shmem-sm80-at-limit", OK, "buffer o u32 64\nlaunch fill<<<1,32,166912>>>(o, 32)\nprint o[31]", S0, ERR, NULL, "= 31", 0},
    /* bug: no limit on dynamic shared memory below 4 GB */
    {"shmem-sm80-over-limit", OK, "buffer o u32 64\nlaunch fill<<<1,32,166913>>>(o, 0)", S1, ERR, "shared", NULL, 0},
    {"shmem-sm90-at-limit", "B/shared90.ptx", "buffer o u32 64\nlaunch sh90<<<1,32,231424>>>(o)", S0, ERR, NULL, NULL, 0},
    /* bug: as above */
    {"shmem-sm90-over-limit", "B/shared90.ptx", "buffer o u32 64\nlaunch sh90<<<1,32,231425>>>(o)", S1, ERR, "shared", NULL, 0},
    /* what ptxas and the driver refuse at load: a static .shared of 48 KB + 4, parameters
       past 32764 bytes (4352 before PTX ISA 8.1), a .local frame past 512 KB per thread */
    {"shmem-static-over-48K", "B/big-shared.ptx", "launch k<<<1,32>>>(0)", S1, ERR, "big-shared\\.ptx:6: error: entry function 'k' uses too much shared data \\(0xc004 bytes, 0xc000 max", NULL, 0},
    {"params-over-32764", "B/big-params.ptx", "", S1, ERR, "too much parameter space \\(0x8000 bytes, 0x7ffc max", NULL, 0},
    {"params-over-4352-ptx80", "B/old-params.ptx", "", S1, ERR, "too much parameter space \\(0x2000 bytes, 0x1100 max", NULL, 0},
    {"local-over-512K", "B/big-local.ptx", "", S1, ERR, "too much local data \\(0x80004 bytes per thread, 0x80000 max", NULL, 0},
    /* ---- kernels that never end, recurse, deadlock --------------------------------------- */
    /* bug: no watchdog: an endless kernel hangs a -batch run (there is no set max-steps) */
    {"watchdog-default", OK, "launch spin<<<1,32>>>()", S1, ANY, "limit|max-steps|watchdog", NULL, SMALLWD},
    {"watchdog-max-steps", OK, "set max-steps 100000\nlaunch spin<<<1,32>>>()", S1, ANY, "limit|max-steps|watchdog", NULL, 0},
    {"watchdog-lazy-huge-grid", OK, "set max-steps 1000000\nbuffer o u32 64\nlaunch fill<<<2147483647,1024>>>(o, 0)", S1, ANY, "limit|max-steps|watchdog", NULL, MEMLIMIT},
    {"watchdog-printf-flood", OK, "set max-steps 1000000\nlaunch printloop<<<1,32>>>(1000000000)", S1, ANY, "limit|max-steps|watchdog", NULL, 0},
    {"runaway-recursion", OK, "launch recurse<<<1,32>>>()\nbt 3", S1, ANY, "stack overflow", NULL, 0},
    {"barrier-deadlock", OK, "launch deadlock<<<1,64>>>()\ninfo warps", S1, ANY, "deadlock", NULL, 0},
    /* exited threads count as arrived at a barrier, as on the GPU: this one completes */
    {"barrier-after-exit", OK, "launch halfexit<<<1,64>>>()", S0, ERR, NULL, NULL, 0},
    {"fault-then-commands", OK, "launch recurse<<<1,32>>>()\ncontinue\nstepi\nprint %r1\nbt 2\nkill\nrun\ninfo warps", S1, ANY, "stack overflow", NULL, 0},
    /* a million declared registers would need 8 GB per 1024-thread block: a load error */
    {"regs-out-of-memory", "B/many-regs.ptx", "launch k<<<4,1024>>>(0)", S1, ERR, "many-regs\\.ptx:[0-9]+: error: function k declares 1000000 registers", NULL, MEMLIMIT},
    /* ---- out-of-range and misaligned accesses in every space ------------------------------ */
    FAULT("gld", 1, MIS), FAULT("gld", 65536, OOR), FAULT("gld", -8, OOR),
    FAULT("gst", 2, MIS), FAULT("gst", 1099511627776, OOR),
    FAULT("gld64", 4, MIS), FAULT("atom", 2, MIS), FAULT("atom", 65536, OOR),
    FAULT("sld", 1, MIS), FAULT("sld", 65536, OOR), FAULT("sst", 4, MIS), FAULT("sst", 1099511627776, OOR),
    FAULT("lld", 1, MIS), FAULT("lld", 64, OOR), FAULT("lst", 2, MIS), FAULT("lst", -8, OOR),
    FAULT("cld", 1, MIS), FAULT("cld", 65536, OOR),
    FAULT("pld", 1, MIS), FAULT("pld", 64, OOR),
    FAULT("genld", 1, MIS), FAULT("genld", 65536, OOR), FAULT("genst", 2, MIS), FAULT("genst", -8, OOR),
    {"fault-generic-null", AX, "launch genld<<<1,32>>>(0, 0)", S1, ANY, OOR, NULL, 0},
    /* ---- commands and expressions ---------------------------------------------------------- */
    {"cmd-unknown", OK, "frobnicate 1 2", S1, ERR, "Undefined command: \"frobnicate\"", NULL, 0},
    {"cmd-ambiguous", OK, "co", S1, ERR, "Ambiguous command", NULL, 0},
    {"cmd-junk-chars", OK, "!!! )(", S1, ERR, "Undefined command", NULL, 0},
    {"cmd-info-unknown", OK, "info nosuch", S1, ERR, "Undefined info command", NULL, 0},
    {"cmd-set-unknown", OK, "set nosuch 1", S1, ERR, "Undefined set command", NULL, 0},
    {"cmd-quit-bad", OK, "quit abc", S1, ERR, "Usage: quit", NULL, 0},
    {"expr-incomplete", OK, "print 1 +", S1, ERR, "syntax error", NULL, 0},
    {"expr-open-paren", OK, "print (", S1, ERR, "syntax error", NULL, 0},
    {"expr-close-paren", OK, "print )", S1, ERR, "syntax error", NULL, 0},
    {"expr-ternary", OK, "print 1 ? 2", S1, ERR, "syntax error", NULL, 0},
    {"expr-string", OK, "print \"unterminated", S1, ERR, "character|string", NULL, 0},
    {"expr-char", OK, "print 'a", S1, ERR, "character", NULL, 0},
    {"expr-convenience-void", OK, "print $nonexistent", S0, ERR, NULL, "= void", 0},
    {"expr-history-empty", OK, "print $1", S1, ERR, "History", NULL, 0},
    {"expr-div-zero", OK, "print 1/0", S1, ERR, "Division by zero", NULL, 0},
    {"expr-mod-zero", OK, "print 7 % 0", S1, ERR, "Division by zero", NULL, 0},
    {"expr-intmin-div", OK, "print (-9223372036854775807-1)/-1\nprint (-9223372036854775807-1)%-1\nprint -(-9223372036854775807-1)", S0, ERR, NULL, NULL, 0},
    {"expr-shifts", OK, "print 1 << 64\nprint 1 << -1\nprint -1 >> 65\nprint 2147483647 * 2147483647 * 4", S0, ERR, NULL, NULL, 0},
    {"expr-float-div-zero", OK, "print 1.0/0\nprint -1.0/0\nprint 0.0/0", S0, ERR, NULL, "inf", 0},
    {"expr-bad-format", OK, "print/Q 1", S1, ERR, "format", NULL, 0},
    {"expr-index-range", OK, "buffer o u32 64\nprint o[99999999999]", S1, ERR, "out of range", NULL, 0},
    {"expr-index-negative", OK, "buffer o u32 64\nprint o[-1]\nprint o[18446744073709551615]", S1, ERR, "Cannot access memory", NULL, 0},
    {"expr-null-deref", OK, "print *(int*)0", S1, ERR, "Cannot access", NULL, 0},
    {"expr-no-registers", OK, "print %r1\nprint $pc\ninfo registers", S1, ERR, "registers", NULL, 0},
    /* bug: the expression parser recurses without a bound: 10000 parentheses or unary
     * operators overflow the stack (commands/dbg_expr.c parse_binary/parse_unary) */
    {"expr-deep-parens", OK, "-x deep-parens.cmd", SANY, ERR, NULL, NULL, 0},
    {"expr-deep-unary", OK, "-x deep-unary.cmd", SANY, ERR, NULL, NULL, 0},
    {"x-bad-format", OK, "x/zz 0", S1, ERR, "format|Cannot access memory", NULL, 0},
    {"x-null", OK, "x/4x 0\nx/s 0", S1, ERR, "Cannot access memory at address 0x0", NULL, 0},
    {"x-huge-count", OK, "buffer o u32 64\nx/100000000xw o", S1, ERR, "too large", NULL, 0},
    {"x-bad-insn", OK, "x/4i 99999999", S1, ERR, "Cannot access", NULL, 0},
    {"no-stack", OK, "frame 99\nup 100000\ndown 5\nbacktrace -1\ninfo frame\nfinish\ncontinue\nstepi\nkill", S1, ERR, "No stack|not being run", NULL, 0},
    {"run-without-launch", OK, "run", S1, ERR, "launch", NULL, 0},
    {"break-bad", OK, "break nosuchfunc\nbreak 99999\nbreak *99999999\nbreak ptx:0\nbreak ptx:-5\ntbreak", S1, ERR, "nosuchfunc", NULL, 0},
    {"break-admin-bad", OK, "delete 99\ndelete abc\ncondition 99 1\nignore 1 -5\nenable 42\ndisable x", S1, ERR, "No breakpoint number 99", NULL, 0},
    {"break-bad-condition", OK, "break fill\ncondition 1 (((\ninfo breakpoints", S1, ERR, "syntax error", NULL, 0},
    {"break-condition-faults", OK, "buffer o u32 64\nbreak fill if *(int*)0 == 1\nlaunch fill<<<1,32>>>(o, 32)\ncontinue", S1, ERR, "Error in testing condition", NULL, 0},
    {"break-condition-div-zero", OK, "buffer o u32 64\nbreak fill if 1/0\nlaunch fill<<<1,32>>>(o, 32)", S1, ERR, "Division by zero", NULL, 0},
    {"watch-bad", OK, "buffer o u32 64\nwatch 1 +\nwatch o[9999999]\nwatch *(int*)0\nrwatch $nonexistent", S1, ERR, "syntax error", NULL, 0},
    {"display-bad", OK, "display 1 +\nundisplay 99", S1, ERR, "syntax error", NULL, 0},
    {"display-errors-each-stop", OK, STOP "display *(int*)0\ndisplay 1/0\nstepi\nstepi", SANY, ANY, "Division by zero", NULL, 0},
    {"set-var-bad", OK, "buffer o u32 64\nset var o[0] =\nset var 1 = 2\nset var o[99999] = 1", S1, ERR, "syntax error", NULL, 0},
    {"set-bad-value", OK, "set scheduler-locking maybe", S1, ERR, "Usage", NULL, 0},
    {"list-bad", OK, "list nosuchfunc\nlist -5\ndisassemble nosuchfunc", S1, ERR, "nosuchfunc", NULL, 0},
    {"help-unknown", OK, "help nosuch", S1, ERR, "Undefined command", NULL, 0},
    {"stopped-bad-focus", OK, STOP "frame 99\nup 100000\ndown 5\ncuda block 99999\ncuda lane 32\ncuda warp 99\ncuda thread (1024,0,0)\ncuda kernel 7", S1, ERR, "Invalid coordinates", NULL, 0},
    {"stopped-bad-registers", OK, STOP "print %r99\nprint %tid.w\ninfo registers %nosuch\nset var %r1 = 1 +", S1, ERR, "register", NULL, 0},
    {"stopped-bad-memory", OK, STOP "x/4x @shared 99999999\nx/4x @local 99999999\nx/4x @param 99999\nx/4x @const 99999\nx/4i 999999\nx/2xg 1", S1, ERR, "Cannot access", NULL, 0},
    /* bug: numbers beyond long/int wrapped (to -1, or to PTX line 0, where a breakpoint landed) */
    {"numbers-overflow", OK, STOP "condition 99999999999999999999999 1\nignore 1 99999999999999999999\ncontinue 99999999999999999999\nframe 99999999999999999999\nup 99999999999999999999\nbacktrace 99999999999999999999999\ninfo breakpoints 99999999999999999999\nundisplay 99999999999999999999", S1, ERR, "Bad breakpoint argument: '99999999999999999999999'", NULL, 0},
    {"line-overflow", OK, "break 99999999999999999999\nbreak ptx:99999999999999999999\nlist 99999999999999999999\ninfo line 99999999999999999999\ninfo breakpoints", S1, ERR, "Line number 99999999999999999999 out of range", "No breakpoints", 0},
    /* bug: 4294967296 truncated to 0 and focused block/lane 0 */
    {"cuda-coord-overflow", OK, STOP "cuda block 4294967296\ncuda lane 4294967296\ncuda thread (4294967297,0,0)\ncuda block (1,99999999999999999999999)", S1, ERR, "Invalid coordinates for \"block\"", NULL, 0},
    {"stopped-then-finishes", OK, STOP "print 1/0\ndelete\ncontinue\nprint o[60]", S1, ERR, "Division by zero", "= 60", 0},
    /* ---- buffers ------------------------------------------------------------------------- */
    {"buffer-huge", OK, "buffer x u8 99999999999999", S1, ERR, "too large", NULL, 0},
    {"buffer-huge-u64", OK, "buffer x u64 2305843009213693952\nbuffer y u8 18446744073709551615\nbuffer z u8 99999999999999999999999", S1, ERR, "too large", NULL, 0},
    {"buffer-count-bad", OK, "buffer x u8 -1\nbuffer x u8 0\nbuffer x u8 abc", S1, ERR, "count", NULL, 0},
    {"buffer-type-bad", OK, "buffer x u7 4", S1, ERR, "type|u7", NULL, 0},
    {"buffer-name-bad", OK, "buffer 9x u8 4", S1, ERR, "name", NULL, 0},
    {"buffer-duplicate", OK, "buffer o u8 4\nbuffer o u8 4", S1, ERR, "already exists", NULL, 0},
    {"buffer-init-too-many", OK, "buffer x u8 4 = {1,2,3,4,5}", S1, ERR, "Too many values", NULL, 0},
    {"buffer-init-unclosed", OK, "buffer x u8 4 = {1,2,", S1, ERR, "}", NULL, 0},
    {"buffer-init-bad-value", OK, "buffer x f32 4 = {abc}", S1, ERR, "abc", NULL, 0},
    {"buffer-init-syntax", OK, "buffer x u8 4 = garbage\nbuffer x u8 4 = fill", S1, ERR, "Usage: buffer", NULL, 0},
    {"buffer-file-missing", OK, "buffer x u8 4 = file no-such.bin", S1, ERR, "no-such\\.bin.*No such file", NULL, 0},
    {"buffer-file-short", OK, "buffer x u8 4 = file short.bin", S1, ERR, "short\\.bin.*fewer bytes", NULL, 0},
    {"buffer-file-directory", OK, "buffer x u8 4 = file dir", S1, ERR, "dir.*(directory|fewer bytes|cannot)", NULL, 0},
    {"dump-bad", OK, "buffer o u8 4\ndump nosuch out.bin\ndump o no-such-dir/out.bin", S1, ERR, "nosuch", NULL, 0},
    /* ---- scripts ------------------------------------------------------------------------ */
    {"script-missing", OK, "-x no-such.cmd", S1, ERR, "no-such\\.cmd", NULL, 0},
    /* bug: -x on a directory runs nothing and reports nothing */
    {"script-directory", OK, "-x dir", S1, ERR, "dir", NULL, 0},
    {"source-missing", OK, "source no-such.cmd", S1, ERR, "no-such\\.cmd", NULL, 0},
    {"source-recursive", OK, "source self.cmd", S1, ERR, "nested too deeply", NULL, 0},
    {"script-garbage", OK, "-x garbage.cmd", S1, ERR, "Undefined command", NULL, 0},
    {"script-long-line", OK, "-x long-line.cmd", S0, ERR, NULL, "aaaaaaaaaa", 0},
    {"script-empty", OK, "-x empty.cmd", S0, ERR, NULL, NULL, 0},
    {"script-no-newline", OK, "-x nonl.cmd", S0, ERR, NULL, "no-newline", 0},
    {"script-commands-unterminated", OK, "-x unterminated-commands.cmd\ninfo breakpoints", SANY, ERR, NULL, NULL, 0},
    {"script-commands-with-errors", OK, "-x commands-errors.cmd", S1, ERR, "syntax error", NULL, 0},
    /* ---- the PTX REPL ------------------------------------------------------------------- */
    {"repl-bad", OK, "eval frob.u32 %r1;\neval add.s32 %r1, %r2;\n.reg .b32 %zz<100000000>;\nadd.s32 %nosuch, 1, 2;\n@%nope bra X;", S1, ERR, "unknown instruction", NULL, 0},
    {"repl-real-memory", OK, STOP "eval ld.global.u32 %r1, [0];\neval st.global.u32 [0], 1;", S1, ERR, "Cannot access global memory at address 0x0(.*\n)*.*'st' is refused", NULL, 0},
    {"repl-faults", OK, "eval ld.global.u32 %r1, [0];\neval trap;\neval exit;\neval bra L;\neval call fill;\neval st.shared.u32 [99999999], 1;", S1, ERR, "fault", NULL, 0},
    /* ---- nonsense DWARF: a warning, then PTX-level debugging works ------------------------ */
    /* bug (while dwarf loading was not wired in): no warning at all */
    {"dwarf-bad-info", "B/dwarf-badinfo.G.ptx", "buffer o s32 64\nbreak inl_kernel\nlaunch inl_kernel<<<1,32>>>(o, 3)\nstepi\ninfo registers %r1\nbt\ndelete\ncontinue\nprint o[5]", S0, ERR, "warning.*(dwarf|debug)", "= 95", 0},
    {"dwarf-bad-abbrev", "B/dwarf-badabbrev.G.ptx", "buffer o s32 64\nbreak inl_kernel\nlaunch inl_kernel<<<1,32>>>(o, 3)\nstepi\ninfo registers %r1\nbt\ndelete\ncontinue\nprint o[5]", S0, ERR, "warning.*(dwarf|debug)", "= 95", 0},
    {"dwarf-truncated-info", "B/dwarf-truncinfo.G.ptx", "buffer o s32 64\nbreak inl_kernel\nlaunch inl_kernel<<<1,32>>>(o, 3)\nstepi\ninfo registers %r1\nbt\ndelete\ncontinue\nprint o[5]", S0, ERR, "warning.*(dwarf|debug)", "= 95", 0},
    /* ---- crashes and hangs found by fuzzing; limits that must be enforced -------------------- */
    {"x-after-failed-load", "B/garbage.ptx", "x/4xw 0\nx/s 0\nx/i 0\ninfo functions", S1, ERR, "Cannot access", NULL, 0},
    {"bp-range-intmax", OK, "break fill\ndelete 2147483647\ndisable 2147483647\nenable 2147483647\ndisable 1-2147483647\nenable 1-2147483647\nenable once 2-2147483647\ndelete 1-2147483647\ninfo breakpoints", S1, ERR, "No breakpoint number 2147483647", "No breakpoints", 0},
    {"bp-range-inverted", OK, "delete 5-2", S1, ERR, "Inverted breakpoint range", NULL, 0},
    {"bp-range-past-int", OK, "delete 1-2147483648", S1, ERR, "Bad breakpoint argument", NULL, 0},
    {"history-after-file", "B/../fixtures/postmortem/postmortem.G.ptx", "buffer in s32 128 = iota\nbuffer out s32 128\nbreak check\nlaunch trap_range<<<2,64>>>(in, out, 96, 112)\nprint i\nset $v = i\nfile B/ok.ptx\nprint $1\nprint $v\nwhatis $1\nptype $v\nprint $1 + $v", S0, ERR, NULL, "\\$[0-9]+ = [0-9]+\n(.*\n)*type = (const )?(int|unsigned int)", 0},
    {"printf-huge-width", OK, "printf \"%999999999d\\n\", 1", S1, ERR, "width or precision too large", NULL, 0},
    {"printf-huge-precision", OK, "printf \"%.2000000000f\\n\", 1.5", S1, ERR, "width or precision too large", NULL, 0},
    {"printf-device-huge-width", "B/devprintf.ptx", "buffer f u8 32 = {37,57,57,57,57,57,57,57,57,57,100,124,37,46,57,57,57,57,57,57,57,57,57,102,10,0}\nbuffer a u32 4 = {7, 0, 0, 0}\nlaunch pf<<<1,1>>>(f, a)", S0, ERR, NULL, "[ ]{1000}7\\|", 0},
    {"x-count-past-int", OK, "buffer b u32 4\nx/4294967297xw b", S1, ERR, "Invalid number", NULL, 0},
    {"x-count-too-large", OK, "buffer b u32 4\nx/200000xw b", S1, ERR, "too large", NULL, 0},
    {"x-count-negative", OK, "buffer b u32 4 = {1, 2, 3, 4}\nx/-2dw &b[3]", S0, ERR, NULL, ":\t2\t3\n", 0},
    {"x-count-negative-string", OK, "buffer b u8 4\nx/-2s b", S1, ERR, "negative count", NULL, 0},
    {"launch-reqntid", "B/launch-bounds.ptx", "launch req64<<<1,32>>>()", S1, ERR, "invalid configuration argument.*exactly \\(64,1,1\\).*\\.reqntid", NULL, 0},
    {"launch-reqntid-ok", "B/launch-bounds.ptx", "launch req64<<<2,64>>>()", S0, ERR, NULL, NULL, 0},
    {"launch-maxntid", "B/launch-bounds.ptx", "launch max128<<<1,(16,16)>>>()", S1, ERR, "too many resources requested for launch.*\\.maxntid", NULL, 0},
    {"load-maxntid-zero", "B/maxntid-zero.ptx", "", S1, ERR, "maxntid-zero\\.ptx:6:[0-9]+: error: \\.maxntid 0,0,0", NULL, 0},
    {"load-bar-count", "B/bar-count.ptx", "", S1, ERR, "bar-count\\.ptx:8:[0-9]+: error: bar\\.sync: barrier thread count 33", NULL, 0},
    {"run-bar-count", "B/launch-bounds.ptx", "launch barreg<<<1,64>>>(33)", S1, ANY, "barrier thread count 33", NULL, 0},
    {"watchdog-negative", OK, "show max-steps", S0, ERR, "ignoring PTXDBG_MAX_STEPS='-1'", "per launch, run, continue or step is 4294967296\\.", WDNEG},
    {"watchdog-past-2-64", OK, "show max-steps", S0, ERR, "ignoring PTXDBG_MAX_STEPS='18446744073709551617'", "per launch, run, continue or step is 4294967296\\.", WDBIG},
    {"shared-own-array", "B/shared-kernels.ptx", "buffer o u32 4\nlaunch b<<<1,1>>>(o)\nlaunch a<<<1,1>>>(o, 7)\nprint o[0]", S0, ERR, NULL, "\\$1 = 0", 0},
    {"shared-info-own-vars", "B/shared-kernels.ptx", "buffer o u32 4\nbreak a\nlaunch a<<<1,1>>>(o, 7)\ninfo sharedmem", S0, ERR, NULL, "32 static bytes, 0 dynamic bytes\nAddress +Size +Variable\n0x10 +32 +sa\nbadinput-alive", 0},
    {"shared-other-kernel", "B/shared-kernels.ptx", "buffer o u32 4\nlaunch a<<<1,1>>>(o, 8)", S1, ANY, "Out-of-range Address", NULL, 0},
    {"conv-many-variables", OK, "-x many-conv.cmd", S0, ERR, NULL, "\\$1 = 200006", 0},
    {"buffer-huge-short-init", OK, "buffer z u8 0xdeadbeef = {1,2,3}\nprint z[2]\nprint z[3735928558]", S0, ERR, NULL, "\\$1 = 3\n\\$2 = 0", NOSAN},
    {"buffer-exists-before-fill", OK, "buffer z u8 16\nbuffer z u8 4294967295 = iota", S1, ERR, "already exists", NULL, 0},
    {"buffer-bad-name-before-fill", OK, "buffer 9z u8 4294967295 = iota", S1, ERR, "Invalid buffer name", NULL, 0},
    /* ---- corrupted core files (pending until generate-core-file exists) ------------------- */
    {"core-truncated", OK, "@LOAD@ truncated.core", S1, ERR, "truncated\\.core", NULL, CORE},
    {"core-flipped", OK, "@LOAD@ flipped.core", S1, ERR, "flipped\\.core", NULL, CORE},
    {"core-empty", OK, "@LOAD@ empty.core", S1, ERR, "empty\\.core", NULL, CORE},
    {"core-garbage", OK, "@LOAD@ garbage.core", S1, ERR, "garbage\\.core", NULL, CORE},
    {"core-is-ptx", OK, "@LOAD@ B/ok.ptx", S1, ERR, "ok\\.ptx", NULL, CORE},
    {"core-missing", OK, "@LOAD@ no-such.core", S1, ERR, "no-such\\.core", NULL, CORE},
    {"core-directory", OK, "@LOAD@ dir", S1, ERR, "dir", NULL, CORE},
    {"core-dev-zero", OK, "@LOAD@ zero", S1, ERR, "zero.*(regular file|too large)", NULL, CORE | MEMLIMIT | NOSAN},
    /* ---- inputs found by the fuzz harnesses (tests/fuzz.sh; B/fuzz-HARNESS-N.*) ----------- */
    /* bug: an initializer of an array with an unsized first dimension writes past the buffer
     * it grows (core/ptx_parse_data.c ensure/put_bytes: ASan reports memcpy-param-overlap in
     * ensure; found by fuzz_parser, minimised) */
    {"fuzz-parser-1", "B/fuzz-parser-1.ptx", "x/26dw mat", S0, ERR, NULL, "<mat\\+96>:[[:space:]]+5[[:space:]]+6", 0},
    /* bug: `enable` with no argument computes argv + 0 with argv NULL (commands/cmd_break.c
     * cmd_enable; UBSan: applying zero offset to null pointer; found by fuzz_commands) */
    {"fuzz-commands-1", OK, "-x B/fuzz-commands-1.cmd", S0, ERR, NULL, NULL, 0},
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

static char top[PATH_MAX], tmp[PATH_MAX], ptxdbg[PATH_MAX];
static int sanitized;           /* PTXDBG is an ASan build: no address-space limit */
static char core_load[64];      /* the command that loads a core file, "" when none */

/* Append `s` single-quoted for sh. */
static void sh_quote(char *out, size_t n, const char *s)
{
    size_t k = strlen(out);
    if (k + 1 < n)
        out[k++] = '\'';
    for (; *s && k + 5 < n; s++) {
        if (*s == '\'') {
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = *s;
        }
    }
    if (k + 1 < n)
        out[k++] = '\'';
    out[k] = 0;
}

/* Replace @TOP@, @TMP@ and @LOAD@ in a line. */
static void expand(char *out, size_t n, const char *in)
{
    size_t k = 0;
    while (*in && k + 1 < n) {
        const char *rep = NULL;
        size_t skip = 0;
        if (!strncmp(in, "@TOP@", 5))
            rep = top, skip = 5;
        else if (!strncmp(in, "@TMP@", 5))
            rep = tmp, skip = 5;
        else if (!strncmp(in, "@LOAD@", 6))
            rep = core_load, skip = 6;
        if (rep) {
            k += (size_t)snprintf(out + k, n - k, "%s", rep);
            if (k >= n)
                k = n - 1;
            in += skip;
        } else {
            out[k++] = *in++;
        }
    }
    out[k] = 0;
}

/* Run ptxdbg with the row's arguments in tmp; fills rc, out and err (malloc'd). */
static void run_row(const row *r, const char *dir, int *rc, char **out, char **err)
{
    static char cmd[1 << 16];
    char line[8192], ex[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && ulimit -t " ROW_CPU_S " && %s %s timeout -k 5 300 "
             "'%s' -batch", dir,
             (r->flags & MEMLIMIT) && !sanitized ? "ulimit -v 2000000;" : "",
             (r->flags & WDNEG) ? "PTXDBG_MAX_STEPS=-1"
             : (r->flags & WDBIG) ? "PTXDBG_MAX_STEPS=18446744073709551617"
             : (r->flags & SMALLWD) ? "PTXDBG_MAX_STEPS=4000000" : "", ptxdbg);
    for (const char *p = r->cmds; *p;) {
        size_t l = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)l, p);
        p += l + (p[l] == '\n');
        expand(ex, sizeof ex, line);
        strcat(cmd, !strncmp(ex, "-x ", 3) ? " -x " : " -ex ");
        sh_quote(cmd, sizeof cmd, !strncmp(ex, "-x ", 3) ? ex + 3 : ex);
    }
    strcat(cmd, " -ex 'echo badinput-alive\\n'");
    if (r->ptx) {
        strcat(cmd, " ");
        sh_quote(cmd, sizeof cmd, r->ptx);
    }
    strcat(cmd, " </dev/null >stdout 2>stderr; echo $? >rc");
    int st = system(cmd);
    (void)st;
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/rc", dir);
    char *rcs = tu_read_file(path, NULL);
    *rc = rcs ? atoi(rcs) : -1;
    free(rcs);
    snprintf(path, sizeof path, "%s/stdout", dir);
    *out = tu_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/stderr", dir);
    *err = tu_read_file(path, NULL);
    if (!*out)
        *out = strdup("");
    if (!*err)
        *err = strdup("");
}

static int matches(const char *re, const char *text)
{
    regex_t rx;
    if (regcomp(&rx, re, REG_EXTENDED | REG_ICASE | REG_NOSUB | REG_NEWLINE) != 0)
        return 0;
    int ok = regexec(&rx, text, 0, NULL, 0) == 0;
    regfree(&rx);
    return ok;
}

/* First line of text containing `what`, for messages. */
static const char *line_with(const char *text, const char *what, char *buf, size_t n)
{
    const char *p = strstr(text, what);
    if (!p) {
        snprintf(buf, n, "(none)");
        return buf;
    }
    while (p > text && p[-1] != '\n')
        p--;
    snprintf(buf, n, "%.*s", (int)strcspn(p, "\n"), p);
    return buf;
}

START_TEST(matrix_row)
{
    const row *r = &rows[_i];
    if ((r->flags & CORE) && !core_load[0]) {
        printf("badinput: %s skipped: generate-core-file or a core loading command does not "
               "exist yet\n", r->name);
        return;
    }
    if ((r->flags & NOSAN) && sanitized) {
        printf("badinput: %s skipped: it needs an address-space limit, which a sanitizer build "
               "cannot run under\n", r->name);
        return;
    }
    int rc;
    char *out, *err, buf[400];
    run_row(r, tmp, &rc, &out, &err);
    static const char *const san[] = {"AddressSanitizer", "LeakSanitizer", "runtime error", NULL};
    for (int k = 0; san[k]; k++)
        if (strstr(err, san[k]) || strstr(out, san[k]))
            ck_abort_msg("%s: sanitizer report: %s", r->name,
                         line_with(strstr(err, san[k]) ? err : out, san[k], buf, sizeof buf));
    ck_assert_msg(rc != 128 + SIGXCPU && rc != 137, "%s: used up its " ROW_CPU_S " s of CPU "
                  "time (hang)", r->name);
    ck_assert_msg(rc != 124, "%s: blocked for 300 s without finishing (hang)", r->name);
    ck_assert_msg(rc >= 0 && rc < 128, "%s: killed by signal %d (crash); stderr: %.200s", r->name,
                  rc - 128, err);
    if (r->status == S0)
        ck_assert_msg(rc == 0, "%s: exit status %d, expected 0; stderr: %.300s", r->name, rc, err);
    if (r->status == S1)
        ck_assert_msg(rc != 0, "%s: exit status 0, expected a failure; stderr: %.300s", r->name,
                      err);
    if (r->re) {
        int ok = matches(r->re, err) || (r->where == ANY && matches(r->re, out));
        ck_assert_msg(ok, "%s: no message matching /%s/; stderr: %.300s", r->name, r->re, err);
    }
    if (r->out_re)
        ck_assert_msg(matches(r->out_re, out), "%s: stdout lacks /%s/; stdout: %.300s", r->name,
                      r->out_re, out);
    if (!(r->flags & NOALIVE))
        ck_assert_msg(strstr(out, "badinput-alive") != NULL,
                      "%s: the session did not go on after the error", r->name);
    free(out);
    free(err);
}
END_TEST

/* ---- scratch directory --------------------------------------------------------------------- */
static void put(const char *name, const void *data, size_t n)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(data, 1, n, f);
    fclose(f);
}

static void puts_file(const char *name, const char *text)
{
    put(name, text, strlen(text));
}

static void make_scratch(void)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/B", tmp);
    char target[PATH_MAX + 32];
    snprintf(target, sizeof target, "%s/tests/badinput", top);
    if (symlink(target, path) != 0)
        perror("symlink");
    snprintf(path, sizeof path, "%s/dir", tmp);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/zero", tmp);
    if (symlink("/dev/zero", path) != 0)
        perror("symlink");
    puts_file("hello.cmd", "echo hello-from-script\\n\n");
    puts_file("self.cmd", "echo x\nsource self.cmd\n");
    puts_file("empty.cmd", "");
    puts_file("nonl.cmd", "echo no-newline\\n");
    puts_file("unterminated-commands.cmd", "break fill\ncommands\nprint 1\n");
    puts_file("commands-errors.cmd",
              "buffer o u32 64\nbreak fill\ncommands\nprint 1 +\nfrobnicate\nprint 42\nend\n"
              "launch fill<<<1,32>>>(o, 32)\ncontinue\n");
    put("short.bin", "\1\2", 2);
    /* deep nesting: 50000 parentheses, 100000 unary operators */
    size_t n = 50000;
    char *b = malloc(2 * n + 64);
    if (b) {
        strcpy(b, "print ");
        size_t k = strlen(b);
        memset(b + k, '(', n);
        k += n;
        b[k++] = '1';
        memset(b + k, ')', n);
        k += n;
        b[k++] = '\n';
        put("deep-parens.cmd", b, k);
        strcpy(b, "print ");
        k = strlen(b);
        for (size_t i = 0; i < n; i++) {
            b[k++] = i % 2 ? '~' : '!';
            b[k++] = i % 2 ? '-' : '~';
        }
        b[k++] = '1';
        b[k++] = '\n';
        put("deep-unary.cmd", b, k);
        free(b);
    }
    b = malloc(300016);
    if (b) {
        strcpy(b, "echo ");
        memset(b + 5, 'a', 300000);
        strcpy(b + 300005, "\\n\n");
        put("long-line.cmd", b, strlen(b));
        free(b);
    }
    unsigned char g[4096];
    unsigned x = 12345;
    for (size_t i = 0; i < sizeof g; i++) {
        x = x * 1103515245u + 12345u;
        g[i] = (unsigned char)(x >> 16);
    }
    put("garbage.cmd", g, sizeof g);
    /* 200000 convenience variables: linear work (quadratic work would use up the CPU budget) */
    FILE *mc = NULL;
    char mcp[PATH_MAX + 32];
    snprintf(mcp, sizeof mcp, "%s/many-conv.cmd", tmp);
    if ((mc = fopen(mcp, "w")) != NULL) {
        for (int i = 0; i < 200000; i++)
            fprintf(mc, "set $v%d = %d\n", i, i);
        fprintf(mc, "print $v199999 + $v7\n");
        fclose(mc);
    }
    put("garbage.core", g, sizeof g);
    put("empty.core", "", 0);
}

/* Does the binary have generate-core-file, and which command loads a core? */
static void probe_core(void)
{
    static char cmd[3 * PATH_MAX + 512];
    snprintf(cmd, sizeof cmd, "cd '%s' && ulimit -t 10 && timeout 300 '%s' -batch -ex 'help generate-core-file' "
             ">/dev/null 2>&1", tmp, ptxdbg);
    if (system(cmd) != 0)
        return;
    static const char *const loaders[] = {"core-file", "target core", NULL};
    const char *load = NULL;
    for (int i = 0; loaders[i] && !load; i++) {
        char first[32];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(loaders[i], " "), loaders[i]);
        snprintf(cmd, sizeof cmd, "cd '%s' && ulimit -t 10 && timeout 300 '%s' -batch -ex 'help %s' >/dev/null 2>&1",
                 tmp, ptxdbg, first);
        if (system(cmd) == 0)
            load = loaders[i];
    }
    if (!load)
        return;
    snprintf(cmd, sizeof cmd,
             "cd '%s' && ulimit -t 10 && timeout 300 '%s' -batch -ex 'buffer o u32 128' -ex 'break fill' "
             "-ex 'launch fill<<<2,64>>>(o, 128)' -ex 'generate-core-file good.core' B/ok.ptx "
             ">/dev/null 2>&1", tmp, ptxdbg);
    if (system(cmd) != 0)
        return;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/good.core", tmp);
    size_t len;
    char *core = tu_read_file(path, &len);
    if (!core || len < 16) {
        free(core);
        return;
    }
    put("truncated.core", core, len / 2);
    for (size_t i = 64; i < len; i += 7)
        core[i] ^= 0x5a;
    put("flipped.core", core, len);
    free(core);
    snprintf(core_load, sizeof core_load, "%s", load);
}

static int is_sanitized(const char *path)
{
    size_t n;
    char *bin = tu_read_file(path, &n);
    if (!bin)
        return 0;
    int yes = memmem(bin, n, "__asan_init", 11) != NULL;
    free(bin);
    return yes;
}

/* Every command and subcommand of the tables, with argument shapes a fuzzer tries (none, 0, 1,
 * -1, INT_MAX, past INT_MAX, a range to INT_MAX, a name, an address), in the states without a
 * program: no file, a file that failed to load, and after "kill". One ptxdbg per state runs
 * them all; it must not die by a signal, hang (CPU budget), or stop going on. */
static FILE *sweep_f;
static const char *const *sweep_shapes;
static void sweep_setting(void *k, const char *name)
{
    for (int i = 0; sweep_shapes[i]; i++, ++*(int *)k)
        fprintf(sweep_f, " -ex 'set %s%s'", name, sweep_shapes[i]);
}

START_TEST(command_sweep_no_program)
{
    static const char *const shapes[] = {"", " 0", " 1", " -1", " 2147483647", " 2147483648",
                                         " 1-2147483647", " x", " *0", " &x", " $1", " 0x0",
                                         NULL};
    static const char *const skip[] = {"quit", "shell", "commands", "source", "file",
                                       "core-file", "target", "directory", "dump", NULL};
    static const char *const states[] = {"", "B/garbage.ptx", "B/ok.ptx"};
    char path[PATH_MAX + 32];
    /* one -ex per command (a -x script would stop at its first error, as gdb's does) */
    snprintf(path, sizeof path, "%s/sweep.args", tmp);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    const struct { const char *prefix; const cmd_def *t; } tabs[] = {
        {"", cmd_table}, {"info ", cmd_info_table}};
    int n = 0;
    /* every setting of the settings table (what "set <TAB>" offers), and set var */
    sweep_f = f;
    sweep_shapes = shapes;
    ck_assert_int_ne(cmd_settings_complete(NULL, 0, "set", sweep_setting, &n), 0);
    for (int i = 0; shapes[i]; i++, n++)
        fprintf(f, " -ex 'set var%s'", shapes[i]);
    for (size_t k = 0; k < sizeof tabs / sizeof tabs[0]; k++)
        for (const cmd_def *d = tabs[k].t; d->name; d++) {
            int sk = 0;
            for (int i = 0; skip[i]; i++)
                sk |= !strcmp(d->name, skip[i]);
            if (sk)
                continue;
            for (int i = 0; shapes[i]; i++, n++)
                fprintf(f, " -ex '%s%s%s'", tabs[k].prefix, d->name, shapes[i]);
        }
    fclose(f);
    ck_assert_int_gt(n, 300);
    for (size_t st = 0; st < sizeof states / sizeof states[0]; st++) {
        static char cmd[3 * PATH_MAX + 512];
        snprintf(cmd, sizeof cmd, "cd '%s' && ulimit -t " ROW_CPU_S " && eval timeout -k 5 300 "
                 "\"'%s'\" -batch %s \"$(cat sweep.args)\" -ex \"'echo sweep-alive\\n'\" %s "
                 "</dev/null >sweep.out 2>&1; echo $? >sweep.rc", tmp, ptxdbg,
                 st == 2 ? "-ex kill" : "", states[st]);
        ck_assert_int_eq(system(cmd), 0);
        snprintf(path, sizeof path, "%s/sweep.rc", tmp);
        char *rcs = tu_read_file(path, NULL);
        int rc = rcs ? atoi(rcs) : -1;
        free(rcs);
        snprintf(path, sizeof path, "%s/sweep.out", tmp);
        char *out = tu_read_file(path, NULL);
        ck_assert_ptr_nonnull(out);
        ck_assert_msg(rc >= 0 && rc < 128, "state %zu: ptxdbg died (status %d); last output: %s",
                      st, rc, strlen(out) > 400 ? out + strlen(out) - 400 : out);
        ck_assert_msg(strstr(out, "AddressSanitizer") == NULL && strstr(out, "runtime error") ==
                      NULL, "state %zu: sanitizer report", st);
        ck_assert_msg(strstr(out, "sweep-alive") != NULL, "state %zu: the session did not go on",
                      st);
        free(out);
    }
}
END_TEST

int main(void)
{
    if (!getcwd(top, sizeof top))
        return 2;
    const char *p = getenv("PTXDBG");
    if (!p || !*p)
        p = "./ptxdbg";
    if (!realpath(p, ptxdbg)) {
        fprintf(stderr, "test_badinput: %s: %s\n", p, strerror(errno));
        snprintf(ptxdbg, sizeof ptxdbg, "%s", p);
    }
    const char *t = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/ptxdbg-badinput.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmp))
        return 2;
    sanitized = is_sanitized(ptxdbg);
    make_scratch();
    probe_core();
    if (!core_load[0])
        printf("badinput: generate-core-file does not exist yet: the core-file rows are "
               "skipped\n");

    Suite *s = suite_create("badinput");
    TCase *tc = tcase_create("matrix");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, matrix_row, 0, NROWS);
    tcase_add_test(tc, command_sweep_no_program);
    suite_add_tcase(s, tc);
    int rc = tu_run_suite(s);

    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "test_badinput: could not remove %s\n", tmp);
    return rc;
}
