/* ptx.h - the parsed PTX module: symbols, functions, instructions, data sections, line info. */
#ifndef PTX_H
#define PTX_H

#include <stddef.h>
#include <stdint.h>
#include "ptxdbg_types.h"

/* ---------------------------------------------------------------------------------------------
 * Design
 * The parser turns PTX text into a ptx_module. It is purely syntactic plus name resolution:
 *  - every declared name (register, variable, function, label, parameter) becomes a ptx_sym;
 *  - every operand that names something points at its ptx_sym (scopes `{ }` resolved, so the
 *    two `param0` of two call sequences are two different syms);
 *  - instructions keep their opcode and modifiers as interned strings; the decoder in
 *    exec_decode.c gives them meaning through the opcode table (ptx_ops.def).
 * All strings and arrays live in the module's arena and are freed by ptx_module_free().
 * ------------------------------------------------------------------------------------------- */



/* Properties of a type (implemented in ptx_module.c). */
int ptx_type_bits(ptx_type t);          /* 8..128; pred = 1; refs = 64 */
const char *ptx_type_name(ptx_type t);  /* "u32" (no dot) */
ptx_type ptx_type_from_name(const char *s); /* "u32" or ".u32" -> PTX_T_U32; PTX_T_NONE if not a type */
int ptx_type_is_float(ptx_type t);      /* f16 f16x2 bf16 bf16x2 tf32 f32 f64 e4m3 ... */
int ptx_type_is_signed(ptx_type t);     /* s8..s64 */
const char *ptx_space_name(ptx_space s); /* "global" (no dot) */

typedef enum {
    PTX_SYM_REG,      /* .reg variable (incl. predicates) */
    PTX_SYM_SREG,     /* special register (%tid, %laneid, ...); static, shared by all modules */
    PTX_SYM_VAR,      /* variable in const/global/local/shared/param/tex space */
    PTX_SYM_FUNC,     /* .entry or .func (also .callprototype, see ptx_func.is_prototype) */
    PTX_SYM_LABEL,    /* code label (index = instruction index) or label inside a .section */
} ptx_symkind;

/* Linkage / attribute flags of declarations. */
enum {
    PTX_LINK_VISIBLE = 1 << 0,
    PTX_LINK_EXTERN  = 1 << 1,
    PTX_LINK_WEAK    = 1 << 2,
    PTX_LINK_COMMON  = 1 << 3,
    PTX_ATTR_MANAGED = 1 << 4,
    PTX_ATTR_UNIFIED = 1 << 5,
};

struct ptx_func;
struct ptx_sym;

/* One relocation in a variable initializer: the bytes at `offset` (size `size`) hold the
 * address of `sym` (+ addend); generic(sym) initializers set `generic`. */
typedef struct {
    uint64_t offset;
    int size;
    struct ptx_sym *sym;
    int64_t addend;
    int generic;
} ptx_reloc;

typedef struct ptx_sym {
    ptx_symkind kind;
    const char *name;        /* interned, e.g. "%r1", "_Z5saxpyifPKfPf_param_0", "$L__BB0_2" */
    ptx_space space;         /* REG for registers, SREG, the var's space, NONE for funcs/labels */
    ptx_type type;           /* element type; PTX_T_NONE for funcs/labels */
    int vec;                 /* 1, 2, 4 or 8 (.v2/.v4/.v8 variables and registers) */
    int ndims;               /* array dimensions; 0 = scalar */
    uint64_t dims[4];        /* 0 in dims[0] = unsized `[]` (extern / dynamic shared) */
    uint64_t size;           /* total bytes of the variable (elements * vec * type bytes) */
    int align;               /* bytes; 0 = natural */
    unsigned flags;          /* PTX_LINK_* */
    /* initializer (vars only): `init_size` bytes, little-endian, plus relocations */
    uint8_t *init;
    uint64_t init_size;
    ptx_reloc *relocs;
    int nrelocs;
    /* kernel parameter attributes (.ptr .space .align N) */
    ptx_space ptr_space;     /* PTX_SPACE_NONE unless .ptr given */
    int ptr_align;
    /* ownership and position */
    struct ptx_func *owner;  /* NULL at module scope */
    int index;               /* REG: index in owner->regs; VAR: index in owner->vars or
                                module->vars; FUNC: index in module->funcs; LABEL: index of the
                                instruction it precedes in owner->insns (or datum index in a
                                section, see ptx_section) */
    int sreg_id;             /* SREG: see ptx_sreg_id enum below */
    struct ptx_func *func;   /* FUNC: the function */
    int section;             /* LABEL inside a .section: index in module->sections; else -1 */
    int line, col;           /* declaration position in the PTX file */
} ptx_sym;

/* Special registers. Vector ones (%tid etc.) are addressed with a component: %tid.x. */
typedef enum {
    PTX_SREG_TID, PTX_SREG_NTID, PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID,
    PTX_SREG_CTAID, PTX_SREG_NCTAID, PTX_SREG_SMID, PTX_SREG_NSMID, PTX_SREG_GRIDID,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_GE,
    PTX_SREG_LANEMASK_GT, PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64,
    PTX_SREG_PM0, PTX_SREG_PM1, PTX_SREG_PM2, PTX_SREG_PM3, PTX_SREG_PM4, PTX_SREG_PM5,
    PTX_SREG_PM6, PTX_SREG_PM7, PTX_SREG_PM0_64, PTX_SREG_PM1_64, PTX_SREG_PM2_64,
    PTX_SREG_PM3_64, PTX_SREG_PM4_64, PTX_SREG_PM5_64, PTX_SREG_PM6_64, PTX_SREG_PM7_64,
    PTX_SREG_ENVREG,        /* %envreg0..31: component holds the number */
    PTX_SREG_GLOBALTIMER, PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI,
    PTX_SREG_TOTAL_SMEM_SIZE, PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_AGGR_SMEM_SIZE,
    PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN, PTX_SREG_RESERVED_SMEM_OFFSET_END,
    PTX_SREG_RESERVED_SMEM_OFFSET_CAP, PTX_SREG_RESERVED_SMEM_OFFSET_2,
    PTX_SREG_CLUSTERID, PTX_SREG_NCLUSTERID, PTX_SREG_CLUSTER_CTAID, PTX_SREG_CLUSTER_NCTAID,
    PTX_SREG_CLUSTER_CTARANK, PTX_SREG_CLUSTER_NCTARANK, PTX_SREG_IS_EXPLICIT_CLUSTER,
    PTX_SREG_CURRENT_GRAPH_EXEC,
    PTX_SREG__COUNT
} ptx_sreg_id;

/* Operands ------------------------------------------------------------------------------ */
typedef enum {
    PTX_OP_REG,      /* sym (REG or SREG); comp = component 0..3 for .x/.y/.z/.w, -1 none;
                        neg = '!' (predicate operand) */
    PTX_OP_IMM,      /* integer immediate (constant expression already folded): ival */
    PTX_OP_FIMM,     /* floating immediate: fval; fbits holds the exact bits, fsize 32 or 64
                        (0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX / decimal literal -> 64) */
    PTX_OP_SYM,      /* a variable/function/label name used as a value: sym + ival (offset) */
    PTX_OP_ADDR,     /* [base + ival]: base is a REG sym, a VAR sym, or NULL (absolute) */
    PTX_OP_VEC,      /* { e0, e1, ... }: elems/nelems (each REG, IMM, FIMM or SINK) */
    PTX_OP_SINK,     /* `_` */
    PTX_OP_LIST,     /* parenthesised list of a call: ( a, b, c ): elems/nelems */
    PTX_OP_PAIR,     /* a|b destination pair of setp/set etc: elems[0], elems[1] (either may
                        be SINK) */
} ptx_opkind;

typedef struct ptx_operand {
    ptx_opkind kind;
    ptx_sym *sym;
    int comp;                  /* -1 or component index (.x .y .z .w / .r .g .b .a);
                                  addition: on registers of video instructions (v*), a byte
                                  or half-word selector .b0-.b3/.b3210/.b7654.../.h1/.h10...
                                  is PTX_SEL_B or PTX_SEL_H | digit count << 16 | the digits
                                  as nibbles, the last written in the lowest nibble (see
                                  PTX_SEL_* after this struct) */
    int neg;                   /* '!' before a predicate, or unary '-' on a register (rare) */
    int reg_add;               /* REG: the operand is `reg + ival` (an address-free register
                                  plus a constant, e.g. `st.u64 [a], r + 1;`) */
    int64_t ival;
    double fval;
    uint64_t fbits;
    int fsize;
    struct ptx_operand *elems;
    int nelems;
    int line, col;
} ptx_operand;

/* Video selectors in ptx_operand.comp: `.b3210` -> PTX_SEL_B | 4 << 16 | 0x3210; `.h1` ->
 * PTX_SEL_H | 1 << 16 | 0x1. Digit k (counted from the right, k = 0 first) is element k. */
#define PTX_SEL_B            0x100000
#define PTX_SEL_H            0x200000
#define PTX_SEL_KIND(c)      ((c) < 0 ? 0 : (c) & 0x300000)
#define PTX_SEL_LEN(c)       (((c) >> 16) & 0xf)
#define PTX_SEL_DIGIT(c, k)  (((c) >> (4 * (k))) & 0xf)

/* One .loc directive. A .loc that follows another .loc with no instruction in between is
 * part of an inline chain: `prev` points at that earlier .loc, else -1. */
typedef struct {
    int file;                 /* .file number */
    int line, col;
    const char *function_name;/* label named by `function_name` (e.g. "$L__info_string0") or NULL */
    int inl_file, inl_line, inl_col; /* `inlined_at F L C`; inl_file = 0 when absent */
    int prev;
    int ptx_line;             /* where the .loc is in the PTX text */
} ptx_loc;

typedef struct {
    int num;                  /* .file N */
    const char *path;
    uint64_t mtime, size;     /* optional timestamp and size, 0 when absent */
} ptx_file;

/* The opcode table (ptx_ops.def) -------------------------------------------------------------
 * One row per base opcode: its name, family, property flags and summary. Each parsed
 * instruction keeps its row's index (ptx_insn.opc, a PTX_OPC_* constant); properties are read
 * through the flags (ptx_op_is(insn, PTX_OPF_BRANCH)) as Lua reads its opmodes with
 * testOpMode; a comparison with one PTX_OPC_* constant is for sites that mean that opcode's
 * own syntax (call's operand lists, st's operand layout). The bits are documented at the top
 * of ptx_ops.def. */
#define PTX_OPF_LIST(X)                                                                       \
    X(BRANCH, "branch") X(CALL, "call") X(RETURN, "return") X(BARRIER, "barrier")             \
    X(ATOMIC, "atomic") X(FENCE, "fence") X(COLLECTIVE, "collective")                         \
    X(NOPAR, "serial-only") X(SRC0, "no-destination") X(PASS, "passes-value")                 \
    X(WIDE, "wide-registers") X(VSEL, "video-selectors") X(U32DST, "u32-result")
enum {
#define PTX_OPF_BIT_(n, word) PTX_OPF_BIT_##n,
    PTX_OPF_LIST(PTX_OPF_BIT_)
#undef PTX_OPF_BIT_
    PTX_OPF__NBITS
};
enum {
#define PTX_OPF_(n, word) PTX_OPF_##n = 1u << PTX_OPF_BIT_##n,
    PTX_OPF_LIST(PTX_OPF_)
#undef PTX_OPF_
};
/* PTX_OPC_add, PTX_OPC_call, ... (the suffix is the opcode as written in PTX). */
typedef enum {
#define OP(name, dec, fam, fl, sum) PTX_OPC_##name,
#define OPX(name, fam, fl, sum) PTX_OPC_##name,
#include "ptx_ops.def"
#undef OP
#undef OPX
    PTX_OPC__COUNT
} ptx_opc;
typedef struct {
    const char *name;          /* "add" */
    const char *family;        /* "integer", "float", ... */
    unsigned flags;            /* PTX_OPF_* */
    const char *summary;       /* one line for `help` and the docs */
} ptx_opinfo;
extern const ptx_opinfo ptx_ops[PTX_OPC__COUNT];
int ptx_op_lookup(const char *name);          /* PTX_OPC_* or -1 */
const char *ptx_opf_word(int bit);            /* "branch" for PTX_OPF_BIT_BRANCH; NULL past the end */

/* Instructions ------------------------------------------------------------------------- */
typedef struct ptx_insn {
    const char *opcode;       /* interned base opcode: "add", "ld", "bar" ("cp.async": "cp") */
    int opc;                  /* its row in the opcode table: PTX_OPC_add... (set by the parser) */
    const char **mods;        /* interned modifiers in source order, without the dot:
                                 {"global","nc","v4","f32"}; "::" parts kept whole:
                                 "shared::cta", "L2::cache_hint", "param::func" */
    int nmods;
    ptx_sym *guard;           /* @%p / @!%p guard predicate or NULL */
    int guard_neg;
    ptx_operand *ops;         /* operands in source order (call: see below) */
    int nops;
    int loc;                  /* index in module->locs of the .loc in force, or -1 */
    int line, col;            /* position in the PTX file */
    /* `call`: ops are [ret-list?] func-or-reg [arg-list?] [prototype-or-targets?]; each
       list is a PTX_OP_LIST; has_ret tells whether the first operand is the return list. */
    int call_has_ret;
    uint32_t used_bytes_mask; /* a .pragma "used_bytes_mask N" right before it: the bytes of its
                                 load that it uses (bit k: byte k); 0 none (all) */
} ptx_insn;

/* Functions ---------------------------------------------------------------------------- */
typedef struct ptx_func {
    ptx_sym *sym;
    int is_entry;             /* .entry (kernel) vs .func */
    int is_prototype;         /* .callprototype label */
    int has_body;             /* false for declarations (.extern or forward) */
    unsigned flags;           /* PTX_LINK_* */
    ptx_sym **params;  int nparams;   /* PARAM-space (kernel) or PARAM/REG (func) */
    ptx_sym **rets;    int nrets;
    ptx_sym **regs;    int nregs;     /* every .reg in the body, all scopes */
    ptx_sym **vars;    int nvars;     /* .local/.shared/.param/.const declared in the body */
    ptx_sym **labels;  int nlabels;
    ptx_insn *insns;   int ninsns;
    /* performance directives */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg, maxclusterrank, reqnctapercluster[3];
    int noreturn;
    int explicitcluster;      /* .explicitcluster: launched with cluster dimensions */
    /* .branchtargets / .calltargets lists (labels or funcs), by name */
    struct { ptx_sym *sym; ptx_sym **items; int nitems; } *targets;
    int ntargets;
    const char **pragmas; int npragmas;
    int line, col;            /* the .entry/.func line */
    int end_line;             /* closing brace */
} ptx_func;

/* Data in a .section: each datum is .b8/.b16/.b32/.b64 of a value. */
typedef enum { PTX_DATUM_INT, PTX_DATUM_SYM, PTX_DATUM_DIFF } ptx_datum_kind;
typedef struct {
    ptx_datum_kind kind;
    int size;                 /* 1, 2, 4 or 8 bytes */
    uint64_t value;           /* INT */
    const char *sym, *sym2;   /* SYM: sym + addend; DIFF: sym - sym2 + addend. Names may be code
                                 labels, section labels, section names (".debug_abbrev"),
                                 functions or variables; resolved by the consumer (dwarf/). */
    int64_t addend;
    int line;
} ptx_datum;

typedef struct {
    const char *name;         /* ".debug_info" */
    ptx_datum *data; int ndata;
    ptx_sym **labels; int nlabels; /* labels inside; sym->index = datum index they precede */
    int line;
} ptx_section;

typedef struct ptx_module {
    const char *path;         /* file it was read from ("<string>" otherwise) */
    char *text;               /* the whole source (owned), for listings and error carets */
    int version_major, version_minor;
    const char *target;       /* "sm_80" */
    int target_debug;         /* `, debug` */
    int texmode_independent;  /* texmode_independent / unified */
    int address_size;         /* 32 or 64 */
    ptx_sym **vars;  int nvars;   /* module-scope variables (const, global, shared, tex...) */
    ptx_func **funcs; int nfuncs; /* every .entry/.func/.callprototype in order of appearance */
    ptx_file *files; int nfiles;
    ptx_loc *locs;   int nlocs;
    ptx_section *sections; int nsections;
    struct { ptx_sym *alias, *target; } *aliases; int naliases;
    void *arena;              /* opaque allocator */
} ptx_module;

/* Parse errors: FILE:LINE:COL: error: MESSAGE, then the source line and a caret. */
typedef enum {
    PTX_ERR_SYNTAX = 0,       /* anything ptxas would call invalid PTX */
    PTX_ERR_VERSION,          /* a .version newer than the newest this release knows (the
                                 driver's CUDA_ERROR_UNSUPPORTED_PTX_VERSION) */
} ptx_error_kind;
typedef struct {
    char msg[1024];           /* the full formatted three-line text */
    int line, col;
    ptx_error_kind kind;
} ptx_error;

/* The newest PTX ISA version accepted, as CUDA 13.0's ptxas and driver (9.0). */
#define PTX_MAX_VERSION_MAJOR 9
#define PTX_MAX_VERSION_MINOR 0
/* Parse `text` (len bytes, need not be NUL-terminated); `path` is used in messages. As in
 * ptxas, a module starts with .version, then .target (comments aside), so empty or
 * comment-only text is an error.
 * Returns NULL and fills *err on the first error. Never exits; never crashes. */
ptx_module *ptx_parse(const char *text, size_t len, const char *path, ptx_error *err);
/* Read and parse a file; I/O errors reported through *err as well. */
ptx_module *ptx_parse_file(const char *path, ptx_error *err);

/* ---- fat binaries (ptx_fatbin.c) ------------------------------------------------------------- */
#define PTX_FATBIN_MAGIC 0xBA55ED50u   /* an nvcc .nv_fatbin container */
/* The size of the container at image (header + payload), 0 when it is none. */
size_t ptx_fatbin_size(const void *image, size_t maxlen);
/* The PTX of the best entry for compute capability cc among the containers at image (the
 * highest target <= cc, else the lowest), NUL-terminated and malloc'd; -1 with the reason
 * (unreadable compression, corrupt) in err, -2 when it has no PTX entry (only SASS). */
int ptx_fatbin_ptx(const void *image, size_t len, unsigned cc, char **ptx, size_t *ptx_len,
                   char *err, size_t errlen);
/* The SASS (an ELF cubin) of the highest architecture <= cc among the containers at image,
 * inflated and malloc'd: 0, 1 when there is none, -1 with the reason in err. */
int ptx_fatbin_sass(const void *image, size_t len, unsigned cc, uint8_t **elf, size_t *elf_len,
                    char *err, size_t errlen);
void ptx_module_free(ptx_module *m);

/* Lookups. */
ptx_func *ptx_find_func(const ptx_module *m, const char *name);
ptx_sym *ptx_find_var(const ptx_module *m, const char *name);   /* module scope */
int ptx_insn_has_mod(const ptx_insn *in, const char *mod);       /* mod without the dot */
/* The property flags of the instruction's opcode (0 for an index outside the table). */
static inline unsigned ptx_op_flags(const ptx_insn *in)
{
    return (unsigned)in->opc < PTX_OPC__COUNT ? ptx_ops[in->opc].flags : 0;
}
static inline int ptx_op_is(const ptx_insn *in, unsigned flag) { return (ptx_op_flags(in) & flag) != 0; }
/* Whether the instruction writes its first operand: not for SRC0 opcodes (bar/barrier.red
 * excepted) nor tcgen05.dealloc; a call writes its return list when it has one. The caller
 * still checks the operand is a register, a vector or a pair. */
int ptx_insn_writes_op0(const ptx_insn *in);
/* Source text of PTX line `line` (1-based) without the newline; *len set; NULL if out of range. */
const char *ptx_source_line(const ptx_module *m, int line, int *len);

/* Print an instruction back as PTX text (`@%p1 add.s32 %r1, %r2, 7;`) into buf. */
int ptx_insn_format(const ptx_insn *in, char *buf, size_t n);
/* Golden dump of a whole module (used by parser tests). */
void ptx_module_dump(const ptx_module *m, void *FILE_out);

#endif
