/* dbg_rows.h - the engine's tables as data rows (warps in flight, lanes, registers, shared variables, instructions) and memory access for front ends. */
#ifndef DBG_ROWS_H
#define DBG_ROWS_H

#include "dbg.h"

/* ---------------------------------------------------------------------------------------------
 * What a front end (the DAP server, later JSON output) shows about a stopped launch, as rows it
 * formats itself, so it needs no core/ call. Every function reads the session shown (its
 * current launch and machine); without a launch the row functions return 0 rows.
 * ------------------------------------------------------------------------------------------- */

/* One warp of a CTA in flight (started and not finished). */
typedef struct {
    uint32_t cta, warp;
    exec_dim3 block;          /* the CTA's coordinates */
    uint32_t live;            /* lanes that are threads and have not exited */
    uint32_t active;          /* lanes of the group that runs next */
    uint32_t pc;              /* the active group's pc */
    int focused;              /* holds the focused lane */
} dbg_warp_row;
/* Warps with live lanes of the CTAs in flight, in CTA then warp order, at most max rows; the
 * focused warp is always among them (the last row when the cap would leave it out). *more: 1
 * when warps were left out. Returns the number of rows (0 without a launch). The scan for CTAs
 * in flight is bounded (it never walks a grid's CTAs that have not started). */
int dbg_warp_rows(const dbg_session *s, dbg_warp_row *out, int max, int *more);

/* The 32 lanes of a warp. */
typedef struct {
    uint32_t lane;
    exec_lane_state state;    /* EXEC_LANE_INVALID: no thread */
    exec_dim3 tid;
    uint32_t pc;
    dbg_where where;          /* pc's function, PTX line and source line */
} dbg_lane_row;
int dbg_lane_rows(const dbg_session *s, uint32_t cta, uint32_t warp, dbg_lane_row out[32]);
/* The lane a front end shows for a warp: the focused lane of the focused warp, else its first
 * active lane, else its first live lane; -1 when the warp has none. */
int dbg_warp_show_lane(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t *lane);
/* The linear index of a CTA by coordinates (-1 + message when outside the grid). */
int dbg_block_to_cta(dbg_session *s, exec_dim3 block, uint32_t *cta);
/* The CTA's coordinates; the number of warps per CTA and CTAs of the grid (0 without a launch). */
exec_dim3 dbg_cta_coord(const dbg_session *s, uint32_t cta);
uint32_t dbg_nwarps(const dbg_session *s);
uint32_t dbg_ncta(const dbg_session *s);
/* Whether a CTA is in flight (started and not finished). */
int dbg_cta_in_flight(const dbg_session *s, uint32_t cta);

/* Registers of the function of physical frame `phys` of a lane, in declaration order; a vector
 * register gives one row per element ("%q.x"). *total: how many there are. */
typedef struct {
    char name[72];
    ptx_type type;
    uint64_t bits;            /* zero-extended; predicates 0/1 */
    int ok;                   /* 0: unreadable here (msg holds why) */
    char msg[96];
} dbg_reg_row;
int dbg_reg_rows(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane, int phys,
                 dbg_reg_row *out, int max, int *total);

/* Static shared variables of the current launch's kernel and the dynamic part ("" name). */
typedef struct {
    const char *name;         /* PTX name, "" for the dynamic part */
    uint64_t addr, size;      /* @shared offset and bytes */
    ptx_type type;            /* element type (NONE for the dynamic part: bytes) */
    uint64_t count;           /* elements (size / element size) */
} dbg_shared_row;
int dbg_shared_rows(const dbg_session *s, dbg_shared_row *out, int max);
/* The same with the static part's bytes (alignment included); -1 with the message when the
 * layout cannot be read (no launch). */
int dbg_shared_layout(dbg_session *s, dbg_shared_row *out, int max, uint64_t *static_bytes);
/* The linear index of the CTA at grid coordinates b (0), -1 outside the grid. */
int dbg_cta_index(const dbg_session *s, exec_dim3 b, uint32_t *cta);

/* Memory of a state space as a lane sees it (shared: its CTA; local: its stack). Reads stop at
 * the first byte that cannot be read: returns the bytes read (0..n), -1 + message when none. */
int64_t dbg_mem_read(dbg_session *s, ptx_space space, uint64_t addr, void *buf, size_t n,
                     uint32_t cta, uint32_t warp, uint32_t lane);
int dbg_mem_write(dbg_session *s, ptx_space space, uint64_t addr, const void *buf, size_t n,
                  uint32_t cta, uint32_t warp, uint32_t lane);
/* How many bytes from addr (at most n) cannot be read before the first one that can: 0 when
 * addr reads, n when nothing in [addr, addr+n) does. Readable memory comes in runs (global
 * regions start 256-aligned, shared and local blocks are one run each), so it probes every
 * 256 bytes and bisects the edge: O(n / 256) reads. */
int64_t dbg_mem_readable_from(dbg_session *s, ptx_space space, uint64_t addr, size_t n,
                              uint32_t cta, uint32_t warp, uint32_t lane);

/* The state space and address a generic address names (global when it is in no window). */
ptx_space dbg_generic_decode(uint64_t generic, uint64_t *addr);

/* Disassembly: the instruction at pc as PTX text, with its function and lines. -1 outside the
 * module's code. dbg_ninsns: the number of pcs. */
int dbg_insn_text(const dbg_session *s, uint32_t pc, char *text, size_t n, dbg_where *w);
uint32_t dbg_ninsns(const dbg_session *s);
/* The first pc of a function's body (-1: none). */
int64_t dbg_func_first_pc(const dbg_session *s, const ptx_func *f);
/* Warp-instructions executed so far on the machine shown (tells a front end that a command
 * ran the kernel). */
uint64_t dbg_progress(const dbg_session *s);

/* The device code of a CUDA program at path before it runs: fn gets the PTX of each of its
 * fat binary containers (SASS-only ones are skipped). Returns how many, -1 when the file is no
 * ELF with a .nv_fatbin section. A front end loads each into a session of its own to tell
 * where breakpoints will resolve. */
typedef void (*dbg_ptx_fn)(void *ctx, const char *ptx, size_t len);
int dbg_program_ptx(const char *path, dbg_ptx_fn fn, void *ctx);

/* Source files the module names (.file paths), at most max; returns how many there are. */
int dbg_source_files(const dbg_session *s, const char **out, int max);
/* Where a source file of the module is found on disk (as dbg_source_line looks it up): the path
 * in buf, NULL when not found. */
const char *dbg_source_resolve(const dbg_session *s, const char *file, char *buf, size_t n);
/* The path of the loaded PTX file ("" when the module came from text). */
const char *dbg_module_path(const dbg_session *s);

/* A kernel's parameters as a launch fills them: name, type, byte offset and size, and whether
 * it is an aggregate (array, vector or more than 8 bytes: given as {V, ...}). Returns the
 * parameter buffer's bytes, -1 when they cannot be laid out; at most max rows (the kernel's
 * count is dbg_func_info.nparams). */
typedef struct {
    const char *name;
    ptx_type type;
    uint64_t offset, size;
    int aggregate;
} dbg_param_row;
int64_t dbg_kernel_params(const ptx_func *k, dbg_param_row *out, int max);
/* Later launches of the machine shown use thread block clusters of dims (0: none loaded). */
int dbg_set_cluster_dims(dbg_session *s, exec_dim3 dims);
/* The nearest buffer or symbol of an address and the offset ("buf+12"), as the core names it
 * (0), -1 when nothing is loaded. */
int dbg_addr_describe(const dbg_session *s, ptx_space space, uint64_t addr, char *out, size_t n);
/* Exactly n bytes or nothing (0, or -1 with the message), as a lane sees the space. */
int dbg_mem_read_exact(dbg_session *s, ptx_space space, uint64_t addr, void *buf, size_t n,
                       uint32_t cta, uint32_t warp, uint32_t lane);

/* ---- source-level information (dbg_srcinfo.c) -------------------------------------------------- */
/* 0 when the module shown has DWARF variables, else -1 with gdb's message ("No symbol table is
 * loaded.  Use the \"file\" command." / "No symbol table info available."). */
int dbg_need_symbols(dbg_session *s);
int dbg_has_dwarf_vars(const dbg_session *s);
int dbg_has_lines(const dbg_session *s);    /* line tables read (DWARF or .loc) */
/* The locals (params 0) or arguments (1) of the selected frame with their values as print
 * shows them, each handed to fn; how many, or -1 (no frame) with the message. */
int dbg_frame_vars_each(dbg_session *s, int params,
                        void (*fn)(void *ctx, const char *name, const char *value), void *ctx);
/* Every variable in scope at pc and where it lives ("Symbol i is a variable in register %r3,
 * length 4."), each line handed to fn; how many. */
int dbg_scope_each(dbg_session *s, uint32_t pc, void (*fn)(void *ctx, const char *line),
                   void *ctx);
/* info address NAME: the line gdb prints (0), -1 with "No symbol ... in current context.". */
int dbg_var_address(dbg_session *s, const char *name, char *out, size_t n);
/* The source line holding pc and its step range [lo, hi) (0), -1 without line information. */
int dbg_pc_line_range(const dbg_session *s, uint32_t pc, const char **file, int *line,
                      uint32_t *lo, uint32_t *hi);
/* FILE:LINE's code: 1 with its first range [lo, hi); 2 when the line has none but a breakpoint
 * there would go to lo; 0 when the file is known but the line is not; -1 unknown file. */
int dbg_line_code(const dbg_session *s, const char *file, int line, uint32_t *lo, uint32_t *hi);
/* Where function name's code starts (0), -1 not defined, -2 no code. */
int dbg_func_code_start(dbg_session *s, const char *name, uint32_t *lo);
/* The path a source file is read from (NULL: not found). */
const char *dbg_source_locate(dbg_session *s, const char *file, char *buf, size_t n);
/* Source search paths: `directory` entries and `set substitute-path` rules (they outlive
 * modules); dbg_src_flush forgets cached files after a change. */
int dbg_src_ndirs(const dbg_session *s);
const char *dbg_src_dir(const dbg_session *s, int i);
void dbg_src_clear_dirs(dbg_session *s);
int dbg_src_add_dir(dbg_session *s, const char *dir);
int dbg_src_add_subst(dbg_session *s, const char *from, const char *to);
int dbg_src_del_subst(dbg_session *s, const char *from);     /* NULL: all; -1 none */
int dbg_src_nsubst(const dbg_session *s);
int dbg_src_subst(const dbg_session *s, int i, const char **from, const char **to);
void dbg_src_flush(dbg_session *s);

/* ---- completion candidates (dbg_complete.c) ---------------------------------------------------- */
/* Source variables visible at the focus (module globals without one), or the members after
 * "var." / "var.member.", each handed to add; the module's .file paths (i = 0, 1, ... until
 * NULL; "" for an unnamed slot); a function's registers (every scope) the same way. */
void dbg_complete_vars(dbg_session *s, const char *text, void (*add)(void *ctx, const char *name),
                       void *ctx);
const char *dbg_module_file_at(const dbg_session *s, int i);
const char *dbg_func_reg_name(const ptx_func *f, int i);
const char *dbg_module_var_name(const dbg_session *s, int i);   /* module-scope variables */

/* ---- small queries (dbg_query.c) ------------------------------------------------------------- */
/* Files: 0 when path is a regular file of at most limit bytes (0: any; size in *size), else -1
 * with why ("Is a directory", "No such file or directory", ...); the whole of a file (malloc'd,
 * NUL-terminated, at most 64 MB). */
int dbg_file_regular(const char *path, uint64_t limit, uint64_t *size, char *why, size_t n);
char *dbg_file_read_all(const char *path, size_t *len);
/* The module shown: loaded at all, with a machine; its path as it names itself (NULL: none). */
int dbg_has_module(const dbg_session *s);
int dbg_has_machine(const dbg_session *s);
const char *dbg_module_name(const dbg_session *s);
/* Its functions (.entry, .func, prototypes) in order, and what a front end reads of one. */
int dbg_nfuncs(const dbg_session *s);
const ptx_func *dbg_func_at(const dbg_session *s, int i);
typedef struct {
    const char *name;         /* the mangled name */
    int kernel, has_body, prototype;
    int ninsns, nparams, nrets;
    int line, end_line;       /* the .entry/.func line and its closing brace */
} dbg_func_info;
void dbg_func_info_of(const ptx_func *f, dbg_func_info *out);
int dbg_func_is_kernel(const ptx_func *f);   /* a .entry */
/* The function holding instruction pc (0), -1 when pc is no instruction. */
int dbg_pc_func(const dbg_session *s, uint32_t pc, const ptx_func **f);
/* The instruction at pc: its function, the function's first pc, its PTX line and base opcode
 * (0), -1 when pc is no instruction of the module shown. */
typedef struct {
    const ptx_func *func;
    uint32_t func_pc;
    int line;
    const char *opcode;
} dbg_insn_info;
int dbg_insn_at(const dbg_session *s, uint32_t pc, dbg_insn_info *out);
/* Where the source (DWARF) declares the function named spec, else the PTX function of that
 * name: file, line and first pc (0), -1 when the debug info has no declaration for it. */
int dbg_func_decl(dbg_session *s, const char *spec, char *file, size_t n, int *line,
                  uint32_t *pc);
/* Whether the instruction at pc has this base opcode ("ret"). */
int dbg_pc_opcode_is(const dbg_session *s, uint32_t pc, const char *opcode);
/* PTX text line `line` (1-based, no newline) of the module and how many lines it has. */
const char *dbg_ptx_text_line(const dbg_session *s, int line, int *len);
int dbg_ptx_text_nlines(const dbg_session *s);
/* Lanes, warps and CTAs of the current launch (-1 / NOT_STARTED without one). */
int dbg_lane_get(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane,
                 exec_lane_info *li);
int dbg_warp_get(const dbg_session *s, uint32_t cta, uint32_t warp, exec_warp_info *wi);
exec_cta_state dbg_cta_state(const dbg_session *s, uint32_t cta);
/* The first running CTA at or after `from` (dbg_ncta when none); the last CTA j >= cta with
 * every CTA of [cta, j] in cta's state (*st). Costs do not grow with the grid. */
uint32_t dbg_cta_next_running(const dbg_session *s, uint32_t from);
uint32_t dbg_cta_state_span(const dbg_session *s, uint32_t cta, exec_cta_state *st);
/* A special register (ptx_sreg_id, component 0..2) of a lane; the SM a CTA runs on. */
int dbg_sreg(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane, int id, int comp,
             uint64_t *val);
int dbg_sm_of(const dbg_session *s, uint32_t cta, uint64_t *sm);
/* A register by name in physical frame phys of a lane (0, or -1 with the message). */
int dbg_reg(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane, int phys,
            const char *name, uint64_t *bits, ptx_type *type);
/* Worker threads a continue would use (`set threads`, 0 resolved to one per CPU). */
int dbg_threads_in_effect(const dbg_session *s);

#endif
