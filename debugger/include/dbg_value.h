/* dbg_value.h - the engine's values: expressions, evaluation, formatting, value history, convenience variables, demangling. */
#ifndef DBG_VALUE_H
#define DBG_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include "dbg.h"

/* ---------------------------------------------------------------------------------------------
 * Values and expressions (dbg_expr.c parses, dbg_eval.c evaluates, dbg_format.c prints).
 * Expressions read the machine only through a dbg_vsrc, so tests can give a fake one and the
 * source-level layer can add variables through `ident`.
 * ------------------------------------------------------------------------------------------- */
typedef enum { DBG_V_VOID = 0, DBG_V_INT, DBG_V_FLOAT, DBG_V_PTR, DBG_V_DIM3, DBG_V_CODE, DBG_V_AGG } dbg_vkind;
typedef enum { DBG_LV_NONE = 0, DBG_LV_REG, DBG_LV_MEM, DBG_LV_CONV } dbg_lvkind;

typedef struct {
    dbg_vkind kind;
    ptx_type type;            /* INT: U8..S64 or PRED; FLOAT: F16/F32/F64; PTR: pointee (NONE=void) */
    ptx_space space;          /* PTR: the pointee's space */
    uint64_t u;               /* INT bits (sign-extended to 64 for signed types), PTR address,
                                 CODE pc */
    double f;                 /* FLOAT */
    uint32_t d3[3];           /* DIM3 */
    uint64_t count;           /* PTR naming a buffer: element count (0 = plain pointer) */
    dbg_lvkind lv;            /* where the value lives, for assignment and watchpoints */
    char reg[40];             /* REG: register name; CONV: convenience variable name */
    ptx_space mspace;         /* MEM */
    uint64_t maddr;
    /* source level (DWARF): the value's declared type, NULL for PTX-level values. AGG values
       (structs, unions, arrays) have a type and live in memory (lv MEM). */
    const dw_type *dt;
    int optout;               /* VOID: a variable with no location at this pc */
} dbg_value;

typedef struct {
    void *ctx;
    /* 0 ok, -1 error (message in err) */
    int (*reg_get)(void *ctx, const char *name, uint64_t *bits, ptx_type *t, char *err, size_t n);
    int (*reg_set)(void *ctx, const char *name, uint64_t bits, char *err, size_t n);
    int (*sreg_get)(void *ctx, int id, int comp, uint64_t *val, char *err, size_t n);
    int (*mem_read)(void *ctx, ptx_space sp, uint64_t addr, void *buf, size_t len, char *err,
                    size_t n);
    int (*mem_write)(void *ctx, ptx_space sp, uint64_t addr, const void *buf, size_t len,
                     char *err, size_t n);
    /* Names: buffers, module variables, (source-level) variables. 1 found, 0 unknown, -1 error. */
    int (*ident)(void *ctx, const char *name, dbg_value *out, char *err, size_t n);
    int (*pc)(void *ctx, uint64_t *pc, char *err, size_t n);
    dw_info *dw;              /* source-level types (synthetic pointer/array types), or NULL */
} dbg_vsrc;

typedef struct dbg_expr dbg_expr;

/* Value history and convenience variables ($N, $, $$, $$N, $name). */
typedef struct {
    dbg_value *hist;
    int nhist, histcap;
    struct { char name[40]; dbg_value v; } *conv;
    int nconv, convcap;
    int *convhash;            /* open addressing: index + 1 into conv, 0 empty */
    int hashcap;              /* a power of two, at least twice nconv */
    /* debug info whose types stored values use: retained (dw_retain) until the history is
       freed, so $N and $name keep their types after "file" or "core-file", as in gdb */
    dw_info **keep;
    int nkeep;
    /* synthetic types (artificial arrays VALUE@N, written casts, pointers to PTX-level
       values): made by evaluations, owned here as the values that point at them are, so two
       sessions share none; equal ones are made once */
    dw_type **synth;
    int nsynth, synthcap;
} dbg_history;

/* Parse an expression; NULL with a gdb-like message ("A syntax error in expression, near
 * `)'.") in err. */
dbg_expr *dbg_expr_parse(const char *text, char *err, size_t n);
/* The same with an oracle naming types, so "(T) -x" and "(T) *p" parse as C++ casts when T is
 * a type (a lone "(T) operand" is a cast without one). */
typedef int (*dbg_type_oracle)(void *ctx, const char *name);
dbg_expr *dbg_expr_parse_typed(const char *text, dbg_type_oracle is_type, void *tctx, char *err,
                               size_t n);
/* Parse with the debug info of dw (may be NULL) as the oracle. */
dbg_expr *dbg_expr_parse_dw(const char *text, const dw_info *dw, char *err, size_t n);
/* The same with the session's debug info (its source types in casts). */
dbg_expr *dbg_expr_parse_at(const dbg_session *s, const char *text, char *err, size_t n);
void dbg_expr_free(dbg_expr *e);
/* Evaluate. hist may be NULL (then expressions that need a synthetic type, such as casts and
 * VALUE@N, are refused). Returns 0 or -1 with the message in err. */
/* The type a value of PTX type t has in expressions: bit types b8..b64 as u8..u64. */
ptx_type dbg_type_norm(ptx_type t);
int dbg_eval(const dbg_expr *e, const dbg_vsrc *src, dbg_history *hist, dbg_value *out,
             char *err, size_t n);
/* Parse + evaluate in one go. */
int dbg_eval_text(const char *text, const dbg_vsrc *src, dbg_history *hist, dbg_value *out,
                  char *err, size_t n);
/* Source-level values: scalar (base, enum, pointer) of DWARF type t from raw bits; a value of
 * type t read from memory (aggregates stay in memory as AGG). 0 ok, -1 (message in err). */
int dbg_value_from_dw(dbg_value *v, const dw_type *t, uint64_t bits);
int dbg_load_typed(const dbg_vsrc *src, const dw_type *t, ptx_space sp, uint64_t addr,
                   dbg_value *out, char *err, size_t n);
/* The PTX scalar type a DWARF scalar type maps to (NONE for aggregates). */
ptx_type dbg_dw_scalar_type(const dw_type *t);
/* Truth of a value (for conditions). */
int dbg_value_true(const dbg_value *v);
/* Value as integer / double. */
int64_t dbg_value_int(const dbg_value *v);
double dbg_value_double(const dbg_value *v);
/* Bytes a value of this kind/type occupies in memory (1..8), 0 for none. */
int dbg_value_size(const dbg_value *v);
/* Make a value of scalar type t from raw little-endian bits. */
void dbg_value_from_bits(dbg_value *v, ptx_type t, uint64_t bits);
/* The value's raw bits as type t (converting numerically). */
uint64_t dbg_value_to_bits(const dbg_value *v, ptx_type t);
/* dw: the debug info that owns v->dt (the current one), kept alive while the history is. */
void dbg_history_add(dbg_history *h, const dbg_value *v, dw_info *dw);
/* The convenience variable `name` (created void when absent and create is set); NULL if none or
 * out of memory. The value's type, if any, must be owned by dw (or by a kept one). */
dbg_value *dbg_history_conv(dbg_history *h, const char *name, int create);
/* Set a convenience variable to an int (gdb's $bpnum, $_exitcode). */
void dbg_history_set_int(dbg_history *h, const char *name, int64_t v);
void dbg_history_keep(dbg_history *h, const dbg_value *v, dw_info *dw);
void dbg_history_free(dbg_history *h);
/* Type names: "int", "unsigned int", "float", "u32", "f32", ... -> ptx_type; NONE if unknown. */
ptx_type dbg_type_from_c(const char *name);
const char *dbg_type_c_name(ptx_type t);          /* "int", "float", "unsigned long" */
/* Special register names: "%tid.x" -> id, comp. -1 when not a special register. */
int dbg_sreg_lookup(const char *name, int *id, int *comp);
/* "shared", "global", "local", "param"/"parameter", "const", "generic" -> space; NONE. */
ptx_space dbg_space_from_name(const char *s);

/* ---- formatting (dbg_format.c) --------------------------------------------------------------- */
/* Format a value gdb-style with /FMT letter fmt (0 = natural): x d u o t a c f s z. Returns 0 or
 * -1 (bad format, message in out). `code` describes a pc ("<saxpy+5>") or NULL. */
typedef void (*dbg_describe_pc_fn)(void *ctx, uint64_t pc, char *out, size_t n);
int dbg_format_value(const dbg_value *v, char fmt, dbg_describe_pc_fn describe, void *dctx,
                     char *out, size_t n);
/* Scalar of type t from bits, formatted (used by x and info registers). */
void dbg_format_bits(uint64_t bits, ptx_type t, char fmt, char *out, size_t n);
/* Parse a number literal of type t (integers, floats, hex, 0f/0d bit patterns, negative). */
int dbg_parse_literal(const char *text, ptx_type t, uint64_t *bits);
/* float <-> half */
uint16_t dbg_f32_to_f16(float f);
float dbg_f16_to_f32(uint16_t h);
/* "/FMT" parsing for print/x/display: count, format letter, size letter. Returns 0 or -1. */
int dbg_parse_fmt(const char *spec, int *count, char *fmt, char *size);

/* ---- demangler (dbg_demangle.c) -------------------------------------------------------------- */
/* Itanium demangling of the common cases. base_only: "saxpy" instead of the full signature.
 * Returns 0, or -1 when `mangled` is not a mangled name it understands. */
int dbg_demangle(const char *mangled, char *out, size_t n, int base_only);



/* ---- values of the session (dbg_vsrc.c) ---------------------------------------------------------
 * Where an expression is evaluated: a lane of the current launch and a source-level frame of
 * it (dbg_lane_frames numbering), or the host (host = 1: a launch argument: buffer names,
 * module globals, convenience variables and history, never a stopped kernel's variables or
 * registers, so a parameter `x` of the focused kernel does not hide buffer x). The session's
 * value history ($N) and convenience variables ($name) are shared by every front end. */
typedef struct {
    uint32_t cta, warp, lane;
    int frame;
    int host;
} dbg_at;
dbg_at dbg_at_focus(const dbg_session *s);
dbg_history *dbg_session_history(dbg_session *s);
int dbg_eval_at(dbg_session *s, const dbg_at *at, const char *text, dbg_value *out, char *err,
                size_t n);
int dbg_eval_expr_at(dbg_session *s, const dbg_at *at, const dbg_expr *e, dbg_value *out,
                     char *err, size_t n);
int dbg_eval_focus(dbg_session *s, const char *text, dbg_value *out, char *err, size_t n);
int dbg_eval_host(dbg_session *s, const char *text, dbg_value *out, char *err, size_t n);
/* Format a value for one lane: DWARF-typed values like gdb (structs, arrays, enums; the print
 * options of dbg_opts), others as dbg_format_value. 0 or -1 (message in out). */
int dbg_format_at(dbg_session *s, const dbg_at *at, const dbg_value *v, char fmt, char *out,
                  size_t n);
int dbg_format_focus(dbg_session *s, const dbg_value *v, char fmt, char *out, size_t n);
/* Value of a DWARF variable in a frame (f NULL: globals only, no lane). 0 ok, -1 error. */
int dbg_var_value(dbg_session *s, const dbg_at *at, const dw_var *v, const dbg_frame *f,
                  dbg_value *out, char *err, size_t n);
/* Where a variable lives in frame f, as text ("register %r1", "@local 0x10 ..."). */
int dbg_var_where(dbg_session *s, const dbg_at *at, const dw_var *v, const dbg_frame *f,
                  char *out, size_t n);
/* Read memory as the lane sees it (registers' spaces need a live thread): 0, or -1 with
 * "Cannot access memory at address 0x..." (or why no thread can) in err. */
int dbg_value_read(dbg_session *s, const dbg_at *at, ptx_space sp, uint64_t addr, void *buf,
                   size_t len, char *err, size_t n);
/* "<saxpy+5>" for a pc ("" when it is no instruction). */
void dbg_describe_pc(const dbg_session *s, uint64_t pc, char *out, size_t n);
/* A breakpoint condition at pcs: it parses and every name in it means something at one of them
 * at least (a variable in scope, a buffer, a global, a built-in), as gdb checks; 0 or -1 with
 * gdb's message ("No symbol \"foo\" in current context."). */
int dbg_cond_check(dbg_session *s, const char *cond, const uint32_t *pcs, int npcs, char *err,
                   size_t n);

/* ---- browsing values (dbg_inspect.c) ----------------------------------------------------------
 * What a front end shows of a value: its type name, whether it expands (struct members,
 * array elements, the pointee of a typed non-null pointer) and where it lives. */
enum { DBG_VAL_SCALAR, DBG_VAL_STRUCT, DBG_VAL_ARRAY, DBG_VAL_PTR };
typedef struct {
    char type[160];           /* "int", "struct Cell", "float *", "dim3" */
    int kind;                 /* DBG_VAL_* */
    int64_t nchildren;        /* STRUCT members, ARRAY elements, PTR 1 */
    int in_mem;               /* the value lives in memory: space:addr, size bytes */
    ptx_space space;
    uint64_t addr, size;
    int is_ptr;               /* a pointer value: points to pspace:paddr */
    ptx_space pspace;
    uint64_t paddr;
} dbg_value_info;
void dbg_value_describe(const dbg_value *v, dbg_value_info *out);
/* Child i of the value of expr (evaluated at `at`): its display name ("x", "[3]", "*p") and
 * an expression for it (malloc'd). 0, or -1 when there is no such child. */
int dbg_value_child(dbg_session *s, const dbg_at *at, const char *expr, int64_t i, char *name,
                    size_t nn, char **child);
/* A frame line's arguments, "n=1024, a=2, x=0x..." (gdb's print frame-arguments scalars): the
 * source parameters of frame f with DWARF, else the PTX parameters of the kernel (param space)
 * or device function (its registers) of the focused lane. dbg_frame_shows_addr: gdb prints
 * "0x... in" before the function (callers, a pc that starts no line). */
void dbg_frame_args(dbg_session *s, const dbg_frame *f, char *out, size_t n);
int dbg_frame_shows_addr(const dbg_session *s, const dbg_frame *f);

/* ptype (expand 1) and whatis (0): the type of a named source type or of expression text at
 * the focus, as gdb prints it after "type = " (0), or -1 with err. */
int dbg_type_text(dbg_session *s, const char *text, int expand, char *out, size_t n, char *err,
                  size_t en);

/* finish (dbg_finish.c): the DWARF return type of frame f when it is a real (not inlined)
 * function that returns a value (NULL otherwise); the pcs of a function's ret instructions; the
 * bits it returns when the focused lane stands at one of them (the register or immediate the
 * last st.param [func_retval0] stored; -1 unknown). dbg_history_push: v becomes $N, its type
 * kept alive with the session's debug info. */
const dw_type *dbg_frame_return_type(dbg_session *s, const dbg_frame *f);
int dbg_func_ret_pcs(dbg_session *s, const ptx_func *fn, uint32_t *pcs, int max);
int dbg_return_bits(dbg_session *s, const ptx_func *fn, uint32_t pc, uint64_t *bits);
void dbg_history_push(dbg_session *s, const dbg_value *v);

/* Names of the source variables (arguments, then locals unless params_only) visible in the
 * frame of `at`; *names is malloc'd (each name borrowed from the debug info). -1 when the
 * module has no debug info. */
int dbg_frame_var_names(dbg_session *s, const dbg_at *at, int params_only, const char ***names);

/* ---- texture and surface objects of the session (dbg_tex.c) -----------------------------------
 * Objects are named and describe a buffer; the machine holds them, and after a reload (a new
 * machine, buffers reallocated) they and the bindings are recreated with the same handles the
 * first time they are needed. A NAME evaluates to its handle (.u64). */
/* Can an object `name` over buffer `buffer` be made now? 0, or -1 + message. */
int dbg_tex_check(dbg_session *s, const char *name, const char *buffer, int surface);
/* Make it (d->addr is filled from the buffer); *handle: the handle it got. */
int dbg_tex_create(dbg_session *s, const char *name, const char *buffer, int surface,
                   const exec_tex_desc *d, uint64_t *handle);
/* Bind a module .texref/.samplerref/.surfref variable to an object (obj NULL: unbind). */
int dbg_tex_bind(dbg_session *s, const char *var, const char *obj);
typedef struct {
    const char *name, *buffer;
    int surface;
    exec_tex_desc d;
    uint64_t handle;
    int live;                 /* the machine holds it (its buffer exists) */
} dbg_tex_row;
int dbg_tex_count(dbg_session *s);      /* objects (after recreating them when needed) */
int dbg_tex_row_at(dbg_session *s, int i, dbg_tex_row *row);
int dbg_tex_nbindings(const dbg_session *s);
int dbg_tex_binding_at(const dbg_session *s, int i, const char **var, const char **obj);
/* A texture/surface name as a value (its .u64 handle): 1 found, 0 not a texture name. */
int dbg_tex_ident(dbg_session *s, const char *name, dbg_value *out);

/* ---- the PTX REPL (dbg_ptx.c) ------------------------------------------------------------------
 * One typed instruction (or `.reg` declaration) runs on scratch registers reading the real
 * memory (see dbg_ptx.c); the destination registers come back as rows. */
typedef struct {
    char name[40];
    char value[128];          /* natural format */
    char hex[64];             /* the bits in hex ("" for predicates) */
} dbg_ptx_row;
/* Returns the number of rows (0 for a declaration), or -1 with the message. */
int dbg_ptx_line(dbg_session *s, const char *line, dbg_ptx_row *rows, int max);
/* A register the standalone PTX REPL set (no kernel running): 0, or -1 if it has none. */
int dbg_ptx_repl_reg(dbg_session *s, const char *name, uint64_t *bits, ptx_type *type);

#endif
