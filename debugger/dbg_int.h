/* dbg_int.h - inside the debugger: the session structure shared by the debugger/ files. */
#ifndef DBG_INT_H
#define DBG_INT_H

#include "dbg.h"
#include "dbg_value.h"
#include "dbg_rows.h"
#include "exec.h"
#include "ptx.h"
#include "dw.h"
#include "chk.h"

struct dbg_session {
    char err[1024];
    ptx_module *mod;
    exec_machine *m;
    char *dir;
    dbg_demangle_fn demangle;
    /* buffers */
    dbg_buffer *bufs;
    int nbufs;
    /* last launch request */
    int has_last;
    const ptx_func *last_kernel;
    exec_dim3 last_grid, last_block;
    uint32_t last_shmem;
    uint8_t *last_params;
    size_t last_nparams;
    int alive;                /* the current launch can still run */
    uint32_t nlaunches;
    /* focus */
    dbg_focus focus;
    /* breakpoints */
    dbg_bp **bps;
    int nbps;
    int next_bp;
    char cond_err[512];       /* the last breakpoint condition that could not be evaluated */
    /* run control */
    dbg_options opts;
    volatile int *interrupt;
    dbg_run_hook run_hook;    /* dbg_set_run_hook: around every exec_run */
    void *run_hook_ctx;
    int stopped_at_bp;        /* last stop was a BREAKPOINT stop (its number) */
    int landed_bp;            /* a step ended on a breakpoint pc (the core did not stop there) */
    /* stop at kernel entry (break_on_launch, start): armed at launch, disarmed by the stop */
    int entry_once;           /* dbg_request_entry_stop: the next launch only */
    int entry_armed;
    uint32_t entry_pcs[DBG_MAX_LOCS];
    int nentry;
    /* source-level debug info of the module and the source search rules */
    dw_info *dw;
    char dwarn[2048];         /* warnings of dw_load */
    dw_srcpath *srcp;         /* outlives modules: `directory` rules stay */
    char **missing;           /* sources already reported missing */
    int nmissing;
    struct dbg_core_state *core; /* postmortem: the core file shown (dbg_core.c), or NULL */
    /* modules owned by the caller (dbg_use_module: a CUDA program's modules) */
    int borrowed;             /* mod and m are the caller's: never freed here */
    int multi;                /* modules come and go: unresolved breakpoints stay pending */
    struct dbg_dwcache { const ptx_module *mod; dw_info *dw; } *dwc; /* DWARF read per module */
    int ndwc;
    /* a CUDA program's host side (dbg_host.c) */
    FILE *out;                /* dbg_set_output: kernel printf's stream (dbg_output.c), or NULL */
    dbg_output_fn out_fn;
    void *out_ctx;
    struct dbg_hostprog *hostprog;  /* its ELF and device modules, for host-code checks */
    uint64_t launch_pcs[DBG_HOST_PCS]; /* the host stack of the current launch (in-process) */
    int nlaunch_pcs;
    char launch_kernel[512];
    char launch_site[1024];   /* its text, once asked for */
    /* values: the value history and convenience variables; texture and surface objects
       (dbg_tex.c); the PTX REPL's declarations and standalone registers (dbg_ptx.c) */
    dbg_history hist;
    struct dbg_tex_table *tex;
    struct dbg_ptx_repl *ptx;
    chk_ctx *chk;             /* the checkers (dbg_checks) */
    void (*chk_report)(void *ctx, const chk_finding *f);
    void *chk_report_ctx;
};
/* A lane (or the host) of a session, where values are read (dbg_vsrc.c). */
typedef struct {
    dbg_session *s;
    uint32_t cta, warp, lane;
    int frame;
    int host;
} dbg_lane_ref;
dbg_lane_ref dbg_ref_at(dbg_session *s, const dbg_at *at);
void dbg_vsrc_lane(dbg_lane_ref *ref, dbg_vsrc *src);
int dbg_ref_frame(dbg_lane_ref *ref, dbg_frame *out);
int dbg_ref_var_value(dbg_lane_ref *ref, const dw_var *v, const dbg_frame *f, dbg_value *out,
                      char *err, size_t n);
int dbg_ref_var_where(dbg_lane_ref *ref, const dw_var *v, const dbg_frame *f, char *out,
                      size_t n);
int dbg_ref_format(dbg_lane_ref *ref, const dbg_value *v, char fmt, char *out, size_t n);
/* Breakpoint conditions: compiled once; 1 true, 0 false, -1 error (message in err). */
void *dbg_cond_compile(dbg_session *s, const char *text, char *err, size_t n);
int dbg_cond_eval(dbg_session *s, void *compiled, uint32_t cta, uint32_t warp, uint32_t lane,
                  char *err, size_t n);
void dbg_cond_release(void *compiled);
void dbg_tex_free(dbg_session *s);
void dbg_ptx_free(dbg_session *s);
void dbg_hostprog_free(struct dbg_hostprog *p);
/* dbg_output.c: the session's printf stream onto a machine of its own (m NULL: nothing); closed. */
void dbg_output_apply(dbg_session *s, exec_machine *m);
void dbg_output_free(dbg_session *s);
/* dbg_adopt_launch: the caller's host stack is the launch's site. */
void dbg_host_note_launch(dbg_session *s, const char *kernel);
/* Walk this thread's host stack (dbg_unwind.c): visit(pc) for the caller's frame and each one
 * out from it (the pcs _Unwind_Backtrace would give there), until it gives 0 (or with pc 0 at
 * the end of the stack). 0, or -1 when a frame needs libgcc's unwinder (the visits made so far
 * are then void). */
int dbg_unwind_fast(int (*visit)(uint64_t pc, void *arg), void *arg);

/* The module, machine and debug info shown: the engine's own (front ends use engine functions). */
const ptx_module *dbg_module(const dbg_session *s);
exec_machine *dbg_machine(const dbg_session *s);
dw_info *dbg_dwarf(const dbg_session *s);
/* `directory` / `set substitute-path` rules (kept across modules). */
dw_srcpath *dbg_srcpath(dbg_session *s);
/* dbg_ccond.c: a condition as a core program for a breakpoint in f (ops, or -1 when it reads
 * more than registers, special registers, CUDA built-ins and literals). */
int dbg_cond_core(exec_machine *m, const dbg_expr *e, const ptx_func *f, exec_cond *prog,
                  int max);

int dbg_err(dbg_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Apply the breakpoints' pcs to the machine (after load / changes). */
void dbg_bp_sync(dbg_session *s);
void dbg_bp_resolve_all(dbg_session *s);
void dbg_bp_free_all(dbg_session *s);
void dbg_src_free_all(dbg_session *s);
/* Whether b is an enabled breakpoint (not a watchpoint) at pc. */
int dbg_bp_breaks_at(const dbg_bp *b, uint32_t pc);
/* Whether pc is an armed kernel-entry stop (dbg_stop_at_entry). */
int dbg_entry_at(const dbg_session *s, uint32_t pc);
/* The number of the first enabled breakpoint at pc, 0 if none. */
int dbg_bp_at_pc(dbg_session *s, uint32_t pc);
/* dbg_load_text with the machine's global window at [base, limit) (limit 0: unbounded), as
 * exec_new_at takes it: a reopened core keeps the addresses of the machine that wrote it. */
int dbg_load_text_at(dbg_session *s, const char *text, size_t len, const char *name,
                     uint64_t base, uint64_t limit);
/* dbg_core.c: forget the core state (on unload); sources embedded in the core, looked up
 * before the file system (NULL / -1 when the core has no such file). */
void dbg_core_unload(dbg_session *s);
const char *dbg_core_source_line(dbg_session *s, const char *file, int line, int *len);
int dbg_core_source_nlines(dbg_session *s, const char *file);

#endif
