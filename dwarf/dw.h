/* dw.h - source-level debug info of a PTX module: line tables, DWARF DIE tables, types, values. */
#ifndef DW_H
#define DW_H

#include <stddef.h>
#include <stdint.h>
#include "ptx.h"

/* ---------------------------------------------------------------------------------------------
 * Design
 * dw_load() reads everything once: the .file/.loc tables of the module (every module has them
 * or not, DWARF or not) and, when the module has `.section .debug_*` blocks, the DWARF in them
 * (reassembled into byte streams and handed to libdwarf from memory). After loading, all
 * lookups are table searches; nothing here touches libdwarf again. libdwarf is used only inside
 * the dwarf/ sources; this header does not include it.
 *
 * Addresses ("address model"): a pc is the module-wide instruction index of exec.h (the
 * instructions of the functions with a body, in module->funcs order, from 0). In the DWARF:
 *  - a code label or a function with a body has the address of the pc it precedes (a label
 *    after the last instruction of a function = one past it, i.e. an exclusive end);
 *  - a data symbol (module variable, kernel/function parameter, __local_depotN, demoted
 *    .shared) has the address DW_SYMADDR(k, off) which decodes back to symbol k + off
 *    (dw_symaddr_decode); the core translates the symbol to its real address;
 *  - a section name (".debug_abbrev") is offset 0 of that section; a label inside a section is
 *    its byte offset in that section; `a - b` is the difference of the two addresses;
 *  - a name that resolves to nothing is 0, with a warning.
 * .debug_line is not synthesised: line information comes from .loc directly (DW_AT_stmt_list
 * refers to a section that does not exist in PTX and is ignored).
 * ------------------------------------------------------------------------------------------- */

typedef struct dw_info dw_info;

/* Load line tables and DWARF of a parsed module (borrowed: keep it alive). Never NULL for a
 * non-NULL module; problems with the DWARF are reported in `warn` (may be NULL) as text (one
 * warning per line), and whatever could be read stays available. */
dw_info *dw_load(const ptx_module *m, char *warn, size_t n);
/* The same, with display names (inlined functions of -lineinfo chains, functions without
 * DWARF) demangled by dm (base names: "row_sum<4>", "ns::f"); dw_demangle_base where dm fails
 * or is NULL. The demangler is the front end's (it is only display). */
typedef int (*dw_demangle_fn)(const char *mangled, char *out, size_t n, int base_only);
dw_info *dw_load_dm(const ptx_module *m, dw_demangle_fn dm, char *warn, size_t n);
/* dw_free releases one reference: the one dw_load gave, or one taken by dw_retain (values that
 * keep their types after the module is replaced, as gdb's value history does). Types, names and
 * synthetic types stay valid while a reference is held; the module may be gone by then. */
void dw_free(dw_info *d);
void dw_retain(dw_info *d);
const ptx_module *dw_module(const dw_info *d);
int dw_has_dwarf(const dw_info *d);          /* DIE tables were read (at least partially) */
uint32_t dw_npcs(const dw_info *d);          /* number of pcs of the module */
/* pc <-> PTX function and instruction. */
int dw_pc_insn(const dw_info *d, uint32_t pc, const ptx_func **f, const ptx_insn **in);
int64_t dw_func_first_pc(const dw_info *d, const ptx_func *f);   /* -1: no body */

/* ---- symbols of the address model ---------------------------------------------------------- */
#define DW_SYMADDR_TAG 0xC000000000000000ull
#define DW_SYMADDR(k, off) (DW_SYMADDR_TAG | ((uint64_t)((k) + 1) << 32) | (uint32_t)(off))
/* An address of the model -> data symbol name and offset; 0 ok, -1 not a symbol address. */
int dw_symaddr_decode(const dw_info *d, uint64_t addr, const char **sym, uint64_t *off);
/* Reassembled bytes of a section (".debug_info"); 0 ok, -1 absent. */
int dw_section_bytes(const dw_info *d, const char *name, const uint8_t **data, size_t *len);

/* ---- line table ----------------------------------------------------------------------------- */
typedef struct {
    const char *file;        /* the .file path as written (absolute, unnormalised); NULL: none */
    int file_num;            /* .file number, 0 when no .loc applies */
    int line, col;           /* line 0: code the compiler does not attribute to a line */
    int is_stmt;             /* a row starts here: a .loc precedes this instruction (or it is
                                the first of its function) and its line is not 0 */
} dw_line;
/* Position of pc; -1 when pc is out of range. A pc without .loc gets file NULL, line 0. */
int dw_line_at(const dw_info *d, uint32_t pc, dw_line *out);
/* Step range of pc: the maximal run [*lo, *hi) of pcs in pc's function around pc that have the
 * same file and line (line-0 pcs inside the run are included). -1 when pc has line 0. */
int dw_line_range(const dw_info *d, uint32_t pc, uint32_t *lo, uint32_t *hi);
/* Is pc where a new source line starts (is_stmt row start with a non-zero line)? */
int dw_is_stmt(const dw_info *d, uint32_t pc);

typedef struct { uint32_t lo, hi; } dw_pc_range;   /* [lo, hi) */
/* Does `file` (user text: full path, basename or path suffix) name .file number `num`? */
int dw_file_matches(const dw_info *d, int num, const char *file);
/* All pc ranges whose line is exactly `line` in files matching `file`. Returns the count
 * (which may exceed max; only max are stored). */
int dw_line_pcs(const dw_info *d, const char *file, int line, dw_pc_range *out, int max);
/* Breakpoint locations for file:line as gdb picks them: if no code has exactly that line, the
 * nearest following line that has code; then per function (and per inlined instance) the lowest
 * row-start pc of that line. *actual_line gets the line used. Returns the count of pcs. */
int dw_line_breakpoints(const dw_info *d, const char *file, int line, uint32_t *pcs, int max,
                        int *actual_line);
/* First pc after the prologue of function f: its second line-table row (a row of another line,
 * or a second row of the opening line, as nvcc starts a one-line function's body after the
 * parameter loads); the function's first pc when there is no such row; -1 no body. */
int64_t dw_func_body_pc(const dw_info *d, const ptx_func *f);
/* .file table lookups. */
const char *dw_file_path(const dw_info *d, int num);

/* Inlined frames at pc (from -lineinfo inline chains, else DWARF inlined subroutines (-G)):
 * innermost first. Frame i executes `name` at file:line:col, and was called from
 * call_file:call_line:call_col, which is a position in frame i+1 (or in the real function for
 * the last one). Returns the number of inlined frames (0 = none). */
typedef struct {
    const char *name;          /* display name (demangled base name) */
    const char *linkage_name;  /* mangled name as in .debug_str, or NULL */
    const char *file; int line, col;
    const char *call_file; int call_line, call_col;
} dw_inline_frame;
int dw_inline_chain(const dw_info *d, uint32_t pc, dw_inline_frame *out, int max);

/* ---- types ---------------------------------------------------------------------------------- */
typedef enum {
    DW_TY_VOID, DW_TY_BASE, DW_TY_POINTER, DW_TY_REFERENCE, DW_TY_CONST, DW_TY_VOLATILE,
    DW_TY_TYPEDEF, DW_TY_ARRAY, DW_TY_STRUCT, DW_TY_UNION, DW_TY_CLASS, DW_TY_ENUM,
    DW_TY_FUNC, DW_TY_UNKNOWN
} dw_type_kind;

typedef enum {                 /* base type encodings */
    DW_BT_NONE, DW_BT_SIGNED, DW_BT_UNSIGNED, DW_BT_SIGNED_CHAR, DW_BT_UNSIGNED_CHAR,
    DW_BT_BOOL, DW_BT_FLOAT,
    DW_BT_HALF, DW_BT_BF16    /* __half / __nv_bfloat16 (structs of 2 bytes) print as floats */
} dw_base_enc;

struct dw_type;
typedef struct {
    const char *name;          /* NULL for anonymous members */
    const struct dw_type *type;
    uint64_t offset;           /* byte offset in the aggregate */
    int bit_size, bit_offset;  /* bit fields (0 = not a bit field), bit_offset from LSB */
} dw_member;

typedef struct { const char *name; int64_t value; } dw_enumerator;

typedef struct dw_type {
    dw_type_kind kind;
    const char *name;          /* "int", "Pair", NULL for unnamed */
    uint64_t size;             /* bytes (pointer 8; array: total; 0 unknown) */
    dw_base_enc enc;           /* BASE (and ENUM: signedness of its values) */
    const struct dw_type *target; /* pointee, referent, qualified, typedef'd, element type */
    int addr_class;            /* POINTER/REFERENCE: DW_AT_address_class as written, 0 none */
    ptx_space space;           /* POINTER/REFERENCE: state space pointed to (GENERIC default) */
    int ndims;                 /* ARRAY */
    uint64_t dims[8];          /* element counts; 0 = unknown ([]) */
    const dw_member *members;  int nmembers;    /* STRUCT/UNION/CLASS */
    const dw_enumerator *enums; int nenums;     /* ENUM */
    uint64_t die;              /* DIE offset (identity) */
} dw_type;

/* Strip typedefs and cv-qualifiers. */
const dw_type *dw_type_strip(const dw_type *t);
/* Size in bytes through typedefs/qualifiers. */
uint64_t dw_type_size(const dw_type *t);
/* C-like name: "float *", "const Pair", "int [5]", "float [2][3]", "enum Color". */
int dw_type_name(const dw_type *t, char *buf, size_t n);
/* Member by name (through typedef/cv); NULL if none. */
const dw_member *dw_type_member(const dw_type *t, const char *name);
/* Element type of an array of `ndims` dims after dropping the first `drop` dims: for
 * float[2][3], drop 1 -> float[3] (a synthetic type owned by d), drop 2 -> float. */
const dw_type *dw_type_subarray(dw_info *d, const dw_type *t, int drop);
/* Synthetic pointer to t in `space` (owned by d), for `&x` in expressions. */
const dw_type *dw_type_pointer_to(dw_info *d, const dw_type *t, ptx_space space);
/* Named type lookup ("Pair", "struct Pair", "Color", "int"); NULL if none. */
const dw_type *dw_type_lookup(const dw_info *d, const char *name);

/* ---- variables, functions, scopes ---------------------------------------------------------- */
typedef enum { DW_VAR_LOCAL, DW_VAR_PARAM, DW_VAR_GLOBAL } dw_var_kind;

typedef struct dw_var {
    const char *name;
    const dw_type *type;
    dw_var_kind kind;
    int addr_class;            /* DW_AT_address_class of the variable, 0 when absent */
    const char *decl_file; int decl_line;
    uint32_t scope_lo, scope_hi; /* pcs where visible (enclosing block/function); globals: all */
    int func;                  /* index of the owning dw_func, -1 for globals */
    int artificial;
    uint64_t die;
    /* location (private to dwarf/): expression bytes or a .debug_loc offset */
    const uint8_t *loc_expr; size_t loc_len;
    int64_t loclist;           /* -1: none */
    int has_loc;
    int inlined;               /* belongs to an inlined subroutine instance */
    int inl_scope;             /* that instance (private index), -1 for the function's own */
} dw_var;

typedef struct dw_func {
    const char *name;          /* DW_AT_name, or the demangled base of the PTX name */
    const char *linkage_name;  /* mangled (PTX) name */
    const ptx_func *ptx;       /* NULL for DWARF-only (inlined/abstract) functions */
    uint32_t lo, hi;           /* [lo, hi) pcs; lo == hi when none */
    int is_kernel;
    const char *decl_file; int decl_line;
    const dw_type *ret_type;   /* NULL = void or unknown */
    const dw_var **params; int nparams;  /* in declaration order */
    uint64_t die;              /* 0 without DWARF */
} dw_func;

int dw_nfuncs(const dw_info *d);
const dw_func *dw_func_get(const dw_info *d, int i);
const dw_func *dw_func_at(const dw_info *d, uint32_t pc);          /* NULL outside code */
const dw_func *dw_func_by_name(const dw_info *d, const char *name); /* DW name or linkage */
const dw_func *dw_func_of_ptx(const dw_info *d, const ptx_func *f);

/* Lexical scopes containing pc, innermost first (function last). */
typedef struct { uint32_t lo, hi; int is_inlined; const char *name; } dw_scope;
int dw_scopes_at(const dw_info *d, uint32_t pc, dw_scope *out, int max);

/* Variables visible at pc: flags select DW_VARS_LOCALS (locals of the innermost scopes first,
 * shadowed names dropped), DW_VARS_PARAMS, DW_VARS_GLOBALS (module-scope variables).
 * Returns the count (may exceed max). */
enum { DW_VARS_LOCALS = 1, DW_VARS_PARAMS = 2, DW_VARS_GLOBALS = 4, DW_VARS_ALL = 7 };
int dw_vars_at(const dw_info *d, uint32_t pc, unsigned flags, const dw_var **out, int max);
/* The same for inline frame `depth` at pc (0 = innermost, as numbered by dw_inline_chain; the
 * function's own frame is depth == number of inlined frames). dw_vars_at is depth 0. */
int dw_vars_at_frame(const dw_info *d, uint32_t pc, int depth, unsigned flags,
                     const dw_var **out, int max);
/* Name lookup as an expression would see it at pc: innermost local, then params, globals. */
const dw_var *dw_var_lookup(const dw_info *d, uint32_t pc, const char *name);
const dw_var *dw_var_lookup_frame(const dw_info *d, uint32_t pc, int depth, const char *name);
int dw_nglobals(const dw_info *d);
const dw_var *dw_global_get(const dw_info *d, int i);

/* ---- locations -------------------------------------------------------------------------------- */
typedef enum {
    DW_LOCK_NONE,              /* <not available> here (outside its location list ranges) */
    DW_LOCK_REG,               /* in PTX register `reg` */
    DW_LOCK_MEM,               /* in memory: space, symbol (or NULL = absolute) + offset */
    DW_LOCK_UNSUPPORTED        /* an expression we cannot evaluate; why in `reg` */
} dw_loc_kind;

typedef struct {
    dw_loc_kind kind;
    char reg[256];             /* REG: "%r1", "%rd5", "%f3" (UNSUPPORTED: reason) */
    ptx_space space;           /* MEM */
    const char *sym;           /* MEM: "__local_depot3", "_Z4kern..._param_0", "ctab" or NULL */
    uint64_t offset;           /* MEM: from sym (or the absolute address) */
} dw_loc;

/* Evaluate the variable's location at pc. 0 ok (check kind), -1 no location at all. */
int dw_var_location(const dw_info *d, const dw_var *v, uint32_t pc, dw_loc *out);
/* Decode a DW_OP_regx operand that packs the ASCII of a register name: 0x257231 -> "%r1".
 * Returns 0, or -1 when the value is not such a name. */
int dw_regname_unpack(uint64_t v, char *buf, size_t n);
/* ULEB128 / SLEB128 decoding; returns bytes consumed, 0 on truncation. */
size_t dw_uleb(const uint8_t *p, size_t n, uint64_t *v);
size_t dw_sleb(const uint8_t *p, size_t n, int64_t *v);
/* DW_AT_address_class value -> state space (2 reg, 4 const, 5 global, 6 local, 7 param,
 * 8 shared, 12 generic; anything else -> PTX_SPACE_NONE). */
ptx_space dw_addr_class_space(int addr_class);

/* ---- values ----------------------------------------------------------------------------------- */
/* Memory reader for pointer targets (strings behind char *): returns 0 on success. */
typedef int (*dw_read_mem_fn)(void *ctx, ptx_space space, uint64_t addr, void *buf, size_t n);
/* Print `len` bytes of a value of type t like gdb: {a = 1, b = 2.5}, {1, 2, 3}, 0x7f..,
 * true, RED, 1.5 (for __half). fmt: 0 natural, or one of 'x' 'd' 'u' 'o' 't' 'c' 'f' 'a'.
 * `top` = 1 for a top-level value (pointers get their type prefix "(float *) 0x..").
 * read may be NULL. Returns the length written (truncated to n-1) or -1. */
int dw_format_value(const dw_type *t, const uint8_t *bytes, size_t len, int fmt, int top,
                    dw_read_mem_fn read, void *ctx, char *out, size_t n);
/* gdb's print settings: elements (array elements and string characters shown, then "...";
 * 0 unlimited), repeats (runs of at least this many equal elements print as <repeats N times>;
 * 0 never), pretty (one struct member a line, indented two spaces a level). */
typedef struct {
    uint64_t elements, repeats;
    int pretty;
} dw_format_opts;
#define DW_FORMAT_OPTS_DEFAULT {200, 10, 0}
int dw_format_value_opts(const dw_type *t, const uint8_t *bytes, size_t len, int fmt, int top,
                         const dw_format_opts *opts, dw_read_mem_fn read, void *ctx, char *out,
                         size_t n);
/* Half-precision bits -> float. */
float dw_half_to_float(uint16_t h);

/* Demangled display name of a mangled C++ name: the qualified base name without parameters
 * ("_ZN2ns3fooEi" -> "ns::foo"); unmangled names are copied. */
int dw_demangle_base(const char *mangled, char *buf, size_t n);
/* A display name through d's demangler (dw_load_dm), else dw_demangle_base. */
int dw_display_name(const dw_info *d, const char *mangled, char *buf, size_t n);

/* ---- a program's host ELF (dw_host.c) -------------------------------------------------------- */
/* A CUDA program's own executable: its function symbols (.symtab, else .dynsym), sections, and
 * its host DWARF (line tables, inlined calls) when it was built with -g. Addresses are the
 * file's (link-time) addresses. */
typedef struct dw_host dw_host;
dw_host *dw_host_open(const char *path);      /* NULL when unreadable or not ELF64 LE */
void dw_host_close(dw_host *h);
int dw_host_has_lines(const dw_host *h);       /* host DWARF present */
/* The function symbol containing addr (offset into it in *off), or NULL. */
const char *dw_host_symbol(const dw_host *h, uint64_t addr, uint64_t *off);
int dw_host_nsymbols(const dw_host *h);
const char *dw_host_symbol_name(const dw_host *h, int i);
/* Raw bytes of a section (".nv_fatbin"); -1 when absent. */
int dw_host_section(const dw_host *h, const char *name, const uint8_t **data, size_t *len);
/* Source frames at addr, innermost first: inlined functions, then the function itself; each
 * at file:line (line 0, file NULL: unknown). name: linkage (mangled) name where the DWARF has
 * one, else the plain name or the symbol. Returns the count (0: addr is in no function). */
typedef struct { const char *name; const char *file; int line; } dw_host_frame;
int dw_host_frames(dw_host *h, uint64_t addr, dw_host_frame *out, int max);
/* The first line >= line of FILE (a path or its trailing part) with a row in the host line
 * table, 0 when none (a breakpoint on a line without code goes to the next one that has). */
int dw_host_next_line(dw_host *h, const char *file, int line);
/* Whether the host DWARF has a function (with code, or inlined everywhere) of that name:
 * its DW_AT_name, linkage name, or demangled base name. */
int dw_host_func_named(dw_host *h, const char *name, dw_demangle_fn dm);
/* Whether path ends with name at a '/' boundary ("a/b.cu" matches "b.cu", not "xb.cu"). */
int dw_path_matches(const char *path, const char *name);

/* ---- source files ------------------------------------------------------------------------- */
/* gdb's `directory DIR` and `set substitute-path FROM TO` rules, a resolver and a line cache. */
typedef struct dw_srcpath dw_srcpath;
dw_srcpath *dw_src_new(void);
void dw_src_free(dw_srcpath *s);
int dw_src_add_dir(dw_srcpath *s, const char *dir);        /* searched in the order added */
void dw_src_clear_dirs(dw_srcpath *s);
int dw_src_ndirs(const dw_srcpath *s);
const char *dw_src_dir(const dw_srcpath *s, int i);
/* Rules apply to a path that starts with FROM followed by '/' or its end (gdb semantics);
 * adding an existing FROM replaces its TO. */
int dw_src_add_subst(dw_srcpath *s, const char *from, const char *to);
int dw_src_del_subst(dw_srcpath *s, const char *from);     /* from NULL: all; -1 none */
int dw_src_nsubst(const dw_srcpath *s);
int dw_src_subst(const dw_srcpath *s, int i, const char **from, const char **to);
/* Find a readable file for `path` (from .file): the substituted path, the path itself, its
 * basename in ptx_dir (the PTX file's directory, may be NULL), then the basename (and the path
 * when relative) in each directory. Returns buf, or NULL when not found. */
const char *dw_src_resolve(const dw_srcpath *s, const char *path, const char *ptx_dir,
                           char *buf, size_t n);
/* Line `line` (1-based) of the resolved source of `path`, without newline, *len set; cached
 * per path. NULL when the file cannot be found or the line is out of range. */
const char *dw_src_line(dw_srcpath *s, const char *path, const char *ptx_dir, int line,
                        int *len);
int dw_src_nlines(dw_srcpath *s, const char *path, const char *ptx_dir); /* -1 not found */
void dw_src_flush(dw_srcpath *s);        /* forget cached files (after rule changes) */

#endif
