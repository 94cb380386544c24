/* exec_insn.h - inside the core: decoded instructions, warp register storage, handler contract. */
#ifndef EXEC_INSN_H
#define EXEC_INSN_H

#include <stdint.h>
#include <string.h>
#include "ptx.h"
#include "exec.h"

/* ---------------------------------------------------------------------------------------------
 * Register storage (structure of arrays). Every register of a frame owns one SLOT of
 * EXEC_SLOT bytes. A register declared W bits wide stores lane i as element i of a W-bit array:
 *   .b16/.u16/.s16/.f16/.bf16      -> uint16_t lanes[32]
 *   .b32/.u32/.s32/.f32/.f16x2/... -> uint32_t lanes[32]   (float lanes[32] for .f32)
 *   .b64/.u64/.s64/.f64            -> uint64_t lanes[32]   (double lanes[32] for .f64)
 *   .b8/.u8/.s8                    -> uint8_t  lanes[32]
 *   .b128                          -> two consecutive slots (lo 64 bits, hi 64 bits)
 * Predicates are not slots: each is one uint32_t lane mask in the frame's predicate array.
 * Handlers therefore always see operands as contiguous arrays of the instruction type's width;
 * the decoder guarantees it (an operand register wider than the type is converted by a
 * wrapper, see exec_decode.c), so handlers never switch on types or widths per lane.
 *
 * Built with -fno-strict-aliasing: a slot is read as float[] by one handler and uint32_t[] by
 * another.
 * ------------------------------------------------------------------------------------------- */
#define EXEC_LANES 32
#define EXEC_SLOT  256
#define EXEC_FULL  0xffffffffu

typedef struct exec_warp exec_warp;
typedef struct exec_insn exec_insn;

/* A handler executes one decoded instruction for the lanes in `m` (the active group already
 * masked by the guard predicate; never 0). It returns one of: */
enum {
    EXEC_NEXT = 0,    /* done; the group moves to pc+1 */
    EXEC_JUMPED,      /* the handler set the warp's next pc / group itself (branches, calls) */
    EXEC_STOPPED,     /* the warp must stop here: barrier wait, trap, fault, brkpt, watch */
    EXEC_YIELD,       /* cannot proceed yet (e.g. a blocking allocation): leave the pc
                         unchanged; the warp gives up the rest of its slice so other warps
                         run, and the instruction is retried later. If every runnable warp
                         of the CTA only yields, the CTA is reported as deadlocked (a
                         barrier-deadlock exception naming where each warp waits). */
};
typedef int (*exec_fn)(exec_warp *w, const exec_insn *in, uint32_t m);

/* Operand kinds of a decoded instruction. */
enum {
    EXEC_O_NONE = 0,
    EXEC_O_REG,       /* off = byte offset of the slot within the frame's register block */
    EXEC_O_IMM,       /* imm = EXEC_SLOT bytes holding the value broadcast to 32 lanes,
                         already converted to the operand's type */
    EXEC_O_SREG,      /* off = byte offset of the slot within the warp's special-reg block */
    EXEC_O_PRED,      /* off = predicate index in the frame's predicate array; neg = '!' */
    EXEC_O_SINK,      /* `_`: destination discarded (handlers write to w->sink) */
};

typedef struct {
    uint8_t kind;
    uint8_t neg;
    uint16_t type;    /* ptx_type the operand is read/written as */
    uint32_t off;
    const void *imm;
} exec_opnd;

#define EXEC_MAXOPS 8

struct exec_insn {
    exec_fn fn;               /* chosen at decode time; a breakpoint swaps in a stopping stub */
    exec_fn real;             /* the real handler (fn may be a wrapper or a breakpoint stub) */
    uint16_t opc;             /* index in the opcode table (ptx_ops.def): PTX_OPC_* */
    uint8_t type, type2;      /* instruction type(s): e.g. cvt.f32.s32 -> F32, S32 */
    uint8_t nops;
    uint8_t cmp;              /* comparison operator (setp/set/slct/vset...) */
    uint8_t bop;              /* boolean combine op (setp .and/.or/.xor), rounding mode etc. */
    uint8_t flags;            /* family-specific bits (ftz, sat, approx, ...) */
    int32_t guard;            /* guard predicate index, -1 for none */
    uint8_t guard_neg;
    exec_opnd op[EXEC_MAXOPS];
    int64_t aux[4];           /* family-specific immediates: target pc, offset, space, ... */
    void *ext;                /* family-specific extra data, owned by the decoded function */
    const ptx_insn *src;      /* the parsed instruction */
    uint32_t pc;              /* module-wide instruction index */
    /* additions (execution core) */
    const void *wrap;         /* operand wrapper data when fn is the decoder's wrapper */
};

/* The part of the warp handlers may touch directly. The core adds its own fields after. */
struct exec_warp_regs {
    uint8_t *regs;            /* register block of the active group's frame */
    uint32_t *preds;          /* predicate masks of that frame */
    uint8_t *sregs;           /* special registers of this warp (slots) */
    uint32_t cc;              /* carry flag per lane (add.cc/addc/...) */
    uint8_t sink[EXEC_SLOT * 2]; /* where writes to `_` go */
};

/* Operand access for handlers (one branch per operand per instruction, never per lane). */
static inline void *exec_opnd_ptr(const struct exec_warp_regs *r, const exec_opnd *o)
{
    switch (o->kind) {
    case EXEC_O_REG:  return r->regs + o->off;
    case EXEC_O_IMM:  return (void *)o->imm;
    case EXEC_O_SREG: return r->sregs + o->off;
    default:          return (void *)r->sink;
    }
}
/* Every exec_warp begins with `struct exec_warp_regs r;` so these work on it. */
#define EXEC_R(w)        ((struct exec_warp_regs *)(void *)(w))
#define EXEC_SRC(w, in, k) exec_opnd_ptr(EXEC_R(w), &(in)->op[(k)])
#define EXEC_DST(w, in, k) exec_opnd_ptr(EXEC_R(w), &(in)->op[(k)])
/* Predicate operand k as a lane mask (negation applied) / destination pointer. */
static inline uint32_t exec_pred_get(const exec_warp *w, const exec_opnd *o)
{
    if (o->kind == EXEC_O_IMM)
        return *(const uint32_t *)o->imm ? EXEC_FULL : 0;
    uint32_t v = EXEC_R(w)->preds[o->off];
    return o->neg ? ~v : v;
}
static inline void exec_pred_set(exec_warp *w, const exec_opnd *o, uint32_t val, uint32_t m)
{
    if (o->kind != EXEC_O_PRED)
        return; /* sink */
    uint32_t *p = &EXEC_R(w)->preds[o->off];
    *p = (*p & ~m) | (val & m);
}
/* Value of operand k for one lane: a predicate (register or immediate) as 0/1, else the
 * register, immediate or special register at its type's width (8..64 bits), zero-extended. */
static inline uint64_t exec_lane_val(exec_warp *w, const exec_insn *in, int k, uint32_t lane)
{
    const exec_opnd *o = &in->op[k];
    if (o->kind == EXEC_O_PRED || (o->kind == EXEC_O_IMM && o->type == PTX_T_PRED))
        return (exec_pred_get(w, o) >> lane) & 1;
    const void *p = exec_opnd_ptr(EXEC_R(w), o);
    switch (ptx_type_bits((ptx_type)o->type)) {
    case 8:  return ((const uint8_t *)p)[lane];
    case 16: return ((const uint16_t *)p)[lane];
    case 32: return ((const uint32_t *)p)[lane];
    default: return ((const uint64_t *)p)[lane];
    }
}

/* ---------------------------------------------------------------------------------------------
 * Decoding. The decoder walks each function's ptx_insns; for each it looks up the opcode in
 * the opcode table and calls that entry's decode function, which checks the modifiers and
 * operands, fills the exec_insn and picks the handler. A decode function returns 0, or -1
 * after exec_dec_error() (message naming the instruction and its line).
 * ------------------------------------------------------------------------------------------- */
typedef struct exec_dec exec_dec;
typedef int (*exec_decode_fn)(exec_dec *d, const ptx_insn *pi, exec_insn *in);

/* Resolve parsed operand `o` into in->op[k]:
 *  - as a source of type t: registers of t's width are used in place; a wider register is
 *    truncated by a wrapper (decoder-internal); immediates are converted to t (integer
 *    immediates to float types by value, 0f/0d literals by bits) and broadcast; special
 *    registers map to the warp's sreg block.
 *  - as a destination of type t: registers of t's width in place, wider ones zero/sign-extended
 *    (by t's signedness) by the wrapper; `_` becomes EXEC_O_SINK.
 * Return 0 or -1 (error already reported). */
int exec_dec_src(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, ptx_type t);
int exec_dec_dst(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, ptx_type t);
/* Predicate operands (source may be an immediate 0/1; destination may be `_`). */
int exec_dec_psrc(exec_dec *d, exec_insn *in, int k, const ptx_operand *o);
int exec_dec_pdst(exec_dec *d, exec_insn *in, int k, const ptx_operand *o);
/* Report "FILE:LINE:COL: error: <opcode text>: MESSAGE"; returns -1. */
int exec_dec_error(exec_dec *d, const ptx_insn *pi, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The k-th type modifier of the instruction (k = 0, 1...), PTX_T_NONE if absent. */
ptx_type exec_dec_type(const ptx_insn *pi, int k);
/* Allocate family-specific data that lives as long as the decoded module. */
void *exec_dec_alloc(exec_dec *d, size_t n);

/* The opcode table: one row per base opcode (ptx_ops.def). */
typedef struct {
    const char *name;          /* "add" */
    exec_decode_fn decode;     /* NULL: parsed but not executable -> clear error at load */
    const char *family;        /* "integer", "float", ... (conformance table and help) */
    const char *summary;       /* one line for `help` and the docs */
} exec_opinfo;
extern const exec_opinfo exec_ops[];
extern const int exec_nops;
int exec_op_lookup(const char *name);   /* index or -1 */

/* Declare every decode function named in the table. */
#define OP(name, dec, fam, fl, sum) int dec(exec_dec *d, const ptx_insn *pi, exec_insn *in);
#define OPX(name, fam, fl, sum)
#include "ptx_ops.def"
#undef OP
#undef OPX

#endif
