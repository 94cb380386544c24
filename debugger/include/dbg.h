/* dbg.h - the debugger session engine: module, buffers, launches, focus, breakpoints, run control. */
#ifndef DBG_H
#define DBG_H

#include <stddef.h>
#include <stdint.h>
#include "ptxdbg_types.h"

/* ---------------------------------------------------------------------------------------------
 * A dbg_session shows one module at a time with the exec machine running it: one it loaded and
 * owns, or one a CUDA program's runtime owns (dbg_use_module; the session switches to the
 * module of each launch). It also holds the user's global buffers
 * (with their contents at the last launch, so `run` can relaunch from there), the last launch request,
 * the focus (kernel, CTA, warp, lane, frame), breakpoints and watchpoints, and the line table
 * view (pc <-> PTX line <-> source line). It prints nothing: every operation returns 0 / -1 with
 * a message in dbg_errmsg(), and stops are reported as dbg_event values the front end (the
 * command interpreter, later a DAP server) turns into text.
 * Breakpoint conditions are the engine's own expressions (dbg_value.h), compiled once and
 * evaluated per lane; where they can they run in the core (exec_set_break_cond).
 * ------------------------------------------------------------------------------------------- */

typedef struct dbg_session dbg_session;

/* The vocabulary's properties (dbg_types.c): bits of a type (8..128; pred 1), its name ("u32",
 * no dot), a name to a type ("u32" or ".u32"; PTX_T_NONE if none), float / signed types, the
 * name of a state space ("global"). */
int dbg_type_bits(ptx_type t);
const char *dbg_type_name(ptx_type t);
ptx_type dbg_type_from_name(const char *s);
int dbg_type_is_float(ptx_type t);
int dbg_type_is_signed(ptx_type t);
const char *dbg_space_name(ptx_space s);
/* cuda-gdb's name of a CUDA exception ("Warp Illegal Address") and its CUDA_EXCEPTION_N number. */
const char *dbg_exc_name(exec_exc e, int *num);

dbg_session *dbg_new(void);
void dbg_free(dbg_session *s);
/* Kernel printf output of the machines the session owns (a loaded file's, the PTX REPL's) goes
 * to fn(ctx, text, n) instead of the process's stdout, in the order and bytes stdout had: one
 * call per printf instruction of a warp (its lanes' lines in lane order); a parallel run's
 * CTAs' output, joined in CTA order, in one call after the run; a piece beyond the stream's
 * 64 KiB buffer comes in several calls (split anywhere). On the thread that runs the kernel. fn NULL: stdout again. Machines a
 * caller lends (dbg_use_module) keep the output their owner gives them. -1 when out of memory. */
typedef void (*dbg_output_fn)(void *ctx, const char *text, size_t n);
int dbg_set_output(dbg_session *s, dbg_output_fn fn, void *ctx);
const char *dbg_errmsg(const dbg_session *s);

/* Load a module (from a file or from text); the previous module, machine and launch go; buffers
 * are reallocated on the new machine with their initial contents; breakpoints are re-resolved
 * (unresolvable ones become pending). Messages of parse errors are the parser's. */
int dbg_load_file(dbg_session *s, const char *path);
int dbg_load_text(dbg_session *s, const char *text, size_t len, const char *name);
/* Debug a module and machine that belong to the caller (a CUDA program's modules, run by the
 * runtime library): the session shows them until the next dbg_use_module / load and never
 * frees them; breakpoints are re-resolved in the module (those that do not resolve stay
 * pending, now and for breakpoints added later, since other modules may come). Each module's
 * DWARF is read once. dir: where its source files are looked for. dbg_forget_module: the
 * caller is about to free mod. */
int dbg_use_module(dbg_session *s, ptx_module *mod, exec_machine *m, const char *dir);
int dbg_forget_module(dbg_session *s, const ptx_module *mod);
/* The launch the caller started on the machine shown (exec_launch done) becomes the current
 * launch, numbered id (cuda-gdb's kernel number), as if dbg_launch had started it
 * (dbg_relaunch cannot repeat it). */
int dbg_adopt_launch(dbg_session *s, const ptx_func *kernel, uint32_t id);

/* Directory of the loaded file ("" for text), used to find source files beside it. */
const char *dbg_module_dir(const dbg_session *s);
/* What reading the module's debug info reported (corrupt DWARF), "" when nothing. */
const char *dbg_load_warnings(const dbg_session *s);
/* First time only for a given file: 1 (the caller warns "source file not found"), else 0. */
int dbg_source_missing_once(dbg_session *s, const char *file);

/* ---- buffers (global memory the user allocates by name) ------------------------------------ */
typedef struct {
    char name[64];
    ptx_type type;            /* element type */
    uint64_t count;           /* elements */
    uint64_t addr;            /* device address */
    uint64_t size;            /* bytes */
    uint8_t *init;            /* contents at the last launch (size bytes; NULL: all zero), what
                                 `run` restores */
} dbg_buffer;
/* `init` may be NULL (zeroed). Fails if the name exists or is not an identifier. */
int dbg_buffer_add(dbg_session *s, const char *name, ptx_type type, uint64_t count,
                   const void *init);
/* The same, taking ownership of init (malloc'd, count elements; freed on failure too). */
int dbg_buffer_adopt(dbg_session *s, const char *name, ptx_type type, uint64_t count,
                     uint8_t *init);
/* Could a buffer `name` be added now (valid, new name; a module loaded)? 0, or -1 + message. */
int dbg_buffer_check(dbg_session *s, const char *name);
const dbg_buffer *dbg_buffer_find(const dbg_session *s, const char *name);
int dbg_buffer_count(const dbg_session *s);
const dbg_buffer *dbg_buffer_at(const dbg_session *s, int i);
/* Read the buffer's current bytes (size bytes into buf). */
int dbg_buffer_read(dbg_session *s, const dbg_buffer *b, void *buf);

/* ---- kernels and launches ------------------------------------------------------------------ */
/* Find a function by mangled name or demangled base name (e.g. "saxpy"); NULL + message when
 * absent or ambiguous. The demangler is supplied by the front end (it is only display). */
typedef int (*dbg_demangle_fn)(const char *mangled, char *out, size_t n, int base_only);
void dbg_set_demangler(dbg_session *s, dbg_demangle_fn fn);

/* ---- the host side of a CUDA program (dbg_host.c) ------------------------------------------ */
/* dbg_adopt_launch notes the caller's host stack: the launch site of an in-process launch
 * ("main at app.cu:111", from the program's own DWARF; "main+0x4f (no host debug info)"
 * without it); -1 when the launch is not a program's (a PTX session's `launch`). */
int dbg_launch_site(dbg_session *s, char *out, size_t n);
/* A front end that runs a launch on another thread than the one that made it (the CUDA
 * runtime's stream threads) gives, for the launches this thread adopts next, the launching
 * thread's host stack (dbg_host_stack's); n = 0 goes back to this thread's own stack. */
void dbg_host_set_launch_stack(const uint64_t *pcs, int n);
/* This process's host stack outside ptxdbg's own library (return addresses, innermost
 * first, at most max); *api_pc (when wanted): a return address inside the library function
 * the program called, named by dbg_host_api_name ("cudaFree") when it is needed. */
#define DBG_HOST_PCS 16
int dbg_host_stack(uint64_t *pcs, int max, uint64_t *api_pc);
/* pcs, npcs: the stack dbg_host_stack gave with it (a program with the CUDA runtime linked in
 * statically called its own copy of the API: that one is named). */
void dbg_host_api_name(uint64_t api_pc, const uint64_t *pcs, int npcs, char *out, size_t n);
/* The program's frames of such a stack as text, past nvcc's launch glue (stubs, toolkit
 * headers, the kernel's host wrapper; kernel: its mangled name, or NULL): up to nframes
 * "f at app.cu:12" joined by ", called from ". 0, or -1 when nothing is known. */
int dbg_host_where(const uint64_t *pcs, int n, const char *kernel, dbg_demangle_fn dm,
                   int nframes, char *out, size_t len);
/* Whether this process's executable has host DWARF line tables. */
int dbg_host_has_debug_info(void);
/* A global address of machine m inside memory the program released (the runtime's record,
 * installed on the machine with dbg_target_set_freed_describer): 1 with "inside cudaMalloc#2
 * [...], which was freed by cudaFree, called from ..." in out; else 0. */
int dbg_freed_describe(const exec_machine *m, uint64_t addr, char *out, size_t n);
/* Whether SPEC (a break location: FUNC or FILE:LINE) is host code of the CUDA program at
 * path (NULL: this process, when the session shows a program's modules in-process): a
 * function of its ELF or a line of its host line table that none of its device modules
 * (the PTX of its .nv_fatbin) has. 1 with the message in why; 2 with a note in why when it is
 * not known as host code (a stripped program) but no device module has it either (the
 * breakpoint stays pending: a module loaded at run time may have it); else 0 (device code, or
 * not known). ptxdbg stops in device code only. */
int dbg_host_code(dbg_session *s, const char *program, const char *spec, char *why, size_t n);
const ptx_func *dbg_find_func(dbg_session *s, const char *name);
/* Display name: base name ("saxpy") or full signature ("saxpy(int, float, ...)"). */
void dbg_func_name(const dbg_session *s, const ptx_func *f, int full, char *out, size_t n);

/* Start a launch (params laid out by exec_param_layout). Nothing runs until dbg_continue. The
 * request is remembered for dbg_relaunch. */
int dbg_launch(dbg_session *s, const ptx_func *kernel, exec_dim3 grid, exec_dim3 block,
               uint32_t shmem, const void *params, size_t nbytes);
/* Restore every buffer to its contents at the last dbg_launch and repeat that launch request. */
int dbg_relaunch(dbg_session *s);
int dbg_has_last_launch(const dbg_session *s);
void dbg_kill(dbg_session *s);
/* The current launch (NULL if none) and whether it can still run (not done/trapped). */
const exec_launch_info *dbg_launch_info(const dbg_session *s);
int dbg_launch_alive(const dbg_session *s);
/* How many launches so far (cuda-gdb kernel numbers are 0..n-1). */
uint32_t dbg_nlaunches(const dbg_session *s);

/* ---- focus ---------------------------------------------------------------------------------- */
typedef struct {
    int valid;                /* a launch exists and the focus names one of its lanes */
    uint32_t kernel;          /* launch id */
    uint32_t cta, warp, lane;
    int frame;                /* selected frame, 0 = innermost */
} dbg_focus;
const dbg_focus *dbg_get_focus(const dbg_session *s);
/* Set the focus to a lane (checks it exists; keeps frame 0). */
int dbg_set_focus(dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane);
int dbg_set_frame(dbg_session *s, int frame);
/* Coordinates of the focused thread. */
exec_dim3 dbg_focus_block(const dbg_session *s);
exec_dim3 dbg_focus_thread(const dbg_session *s);
/* Lane -> (warp, lane) of a thread index in the focused launch. */
int dbg_thread_to_lane(const dbg_session *s, exec_dim3 tid, uint32_t *warp, uint32_t *lane);

/* ---- lines ---------------------------------------------------------------------------------- */
typedef struct {
    const ptx_func *func;
    int ptx_line;             /* line of the instruction in the .ptx */
    const char *file;         /* source path as the module names it, NULL without .loc */
    int line;                 /* source line, 0 when none */
} dbg_where;
int dbg_pc_where(const dbg_session *s, uint32_t pc, dbg_where *w);
/* The function source shows executing pc: the innermost function inlined there (as gdb's
 * breakpoint locations and frames name it), else pc's own function; full: the whole demangled
 * signature ("int row_sum<4>(int const*)"), else the base name ("row_sum<4>"). "??" and -1
 * when pc is no instruction. */
int dbg_pc_func_name(const dbg_session *s, uint32_t pc, int full, char *out, size_t n);
/* Whether the module has a source line table (.loc rows). */
int dbg_has_source(const dbg_session *s);
/* Source line text (without newline) of FILE (as the module names it) line N; NULL when the
 * file cannot be found (looked up as given, then beside the .ptx by base name). */
const char *dbg_source_line(dbg_session *s, const char *file, int line, int *len);
/* Number of lines of a source file, 0 when unreadable. */
int dbg_source_nlines(dbg_session *s, const char *file);
/* The file the user means by a bare LINE: the focus's, else the first .file of the module. */
const char *dbg_default_file(const dbg_session *s);
/* Resolve a location string (FUNC, FILE:LINE, LINE, ptx:LINE, *PC) to pcs (at most max);
 * returns the number found or -1 with the reason ("No line 99 in file \"k.cu\"."). */
int dbg_resolve_location(dbg_session *s, const char *spec, uint32_t *pcs, int max);

/* ---- breakpoints and watchpoints ------------------------------------------------------------ */
typedef enum { DBG_BP_BREAK, DBG_BP_WATCH, DBG_BP_RWATCH, DBG_BP_AWATCH } dbg_bp_type;

#define DBG_MAX_LOCS 32
typedef struct {
    int num;                  /* gdb number, 1.. */
    dbg_bp_type type;
    int temp;                 /* tbreak: deleted when hit */
    int enabled;
    char *spec;               /* the location as typed (or the watched expression) */
    char *cond;               /* condition text or NULL */
    void *cond_compiled;      /* the compiled condition */
    int ignore;               /* remaining hits to ignore */
    int hits;
    int pending;              /* no module (or no match yet) */
    uint32_t pcs[DBG_MAX_LOCS];
    int npcs;
    /* watchpoints */
    ptx_space space;
    uint64_t addr;
    uint32_t len;
    ptx_type wtype;           /* type the watched value is shown as */
    int exec_id;              /* exec_watch_add id or -1 */
    char **commands;          /* `commands N` lines */
    int ncommands;
    int disp_dis;             /* gdb's "dis" disposition (`enable once`, `enable count N`): a
                                 stop counts disable_after down and disables it at 0 */
    int disable_after;        /* stops left (a plain `enable` keeps the disposition, count 0) */
} dbg_bp;


/* Returns the new number or -1. A location that does not resolve while a module is loaded is an
 * error; without a module it is pending. */
int dbg_break_add(dbg_session *s, const char *spec, const char *cond, int temp);
/* Watch `len` bytes at space:addr (shared: the focused CTA when a launch exists, else all). */
int dbg_watch_add(dbg_session *s, dbg_bp_type type, const char *expr, ptx_space space,
                  uint64_t addr, uint32_t len, ptx_type shown_as);
int dbg_bp_delete(dbg_session *s, int num);          /* num 0 = all */
int dbg_bp_enable(dbg_session *s, int num, int on);  /* num 0 = all */
/* gdb's enable with a disposition: how 0 keeps the breakpoint's own (plain `enable`), 1 `once`
 * (disabled after its next stop), 2 `delete` (deleted after its next stop, as tbreak), 3
 * `count N` (disabled after N stops). num 0 = all. */
int dbg_bp_enable_disp(dbg_session *s, int num, int how, int count);
int dbg_bp_condition(dbg_session *s, int num, const char *cond);   /* NULL removes */
int dbg_bp_ignore(dbg_session *s, int num, int count);
int dbg_bp_set_commands(dbg_session *s, int num, char **lines, int n); /* takes ownership */
dbg_bp *dbg_bp_find(dbg_session *s, int num);
/* The number the next breakpoint gets; raise it (never lower: numbers are not reused). */
int dbg_bp_next_number(const dbg_session *s);
void dbg_bp_set_next_number(dbg_session *s, int num);
int dbg_bp_count(const dbg_session *s);
dbg_bp *dbg_bp_at(dbg_session *s, int i);

/* ---- running -------------------------------------------------------------------------------- */
typedef enum {
    DBG_EV_NONE = 0,
    DBG_EV_EXITED,            /* the kernel completed */
    DBG_EV_BREAKPOINT,        /* bp = breakpoint number */
    DBG_EV_STEP,              /* a step / next / finish / until / advance ended */
    DBG_EV_BRKPT,             /* the brkpt instruction */
    DBG_EV_TRAP,
    DBG_EV_ASSERT,
    DBG_EV_EXCEPTION,
    DBG_EV_WATCH,             /* bp = watchpoint number */
    DBG_EV_INTERRUPT,
    DBG_EV_LANE_EXITED,       /* a step ended because the focused lane exited */
    DBG_EV_LIMIT,             /* a continue or step ran opts.run_max_steps warp-instructions
                                 (resumable; the focus stays on a stepped lane) */
    DBG_EV_ENTRY,             /* the kernel's first line (break_on_launch, start) */
    DBG_EV_CHECK,             /* a checker's finding (`finding`): after the instruction, resumable
                                 (stop.kind EXEC_STOP_CHECK), or the fault it explains (stop.kind
                                 EXEC_STOP_EXCEPTION: the launch is over) */
} dbg_event_kind;

typedef struct {
    dbg_event_kind kind;
    exec_stop stop;           /* the core's description */
    int bp;                   /* breakpoint/watchpoint number, 0 = none */
    int temp_deleted;         /* the breakpoint was a tbreak (or `enable delete`) and is gone */
    int bp_disabled;          /* the stop disabled the breakpoint (`enable once`, `enable count`) */
    int focus_changed;        /* the stop moved the focus to another lane */
    uint32_t old_pc;          /* focused lane's pc before (steps) */
    int new_frame;            /* step entered / left a function: print the frame line */
    uint64_t steps;           /* LIMIT: warp-instructions the continue or step executed */
    char cond_error[512];     /* a breakpoint condition could not be evaluated (the stop is
                                 made there, as gdb does): the evaluator's message, else "" */
    const chk_finding *finding; /* CHECK: the finding (lives as long as the session's findings) */
} dbg_event;

typedef enum {
    DBG_STEP_INSN,            /* stepi: into calls */
    DBG_STEP_INSN_OVER,       /* nexti */
    DBG_STEP_LINE,            /* step */
    DBG_STEP_LINE_OVER,       /* next */
    DBG_STEP_FINISH,          /* until the current frame returns */
    DBG_STEP_UNTIL,           /* next, but never backwards (loops) */
} dbg_step_kind;

typedef struct {
    int scheduler_locking;    /* 1 (default): other warps frozen while stepping */
    int lane_steps;           /* 1: steps advance only the focused lane */
    uint64_t run_max_steps;   /* `set max-steps`: every resume (launch, run, continue, each
                                 step form, by warp and by lane) stops with DBG_EV_LIMIT after
                                 this many warp-instructions; 0 (default) = no limit */
    int threads;              /* `set threads`: worker threads of a continue that runs to
                                 completion (exec_set_threads); 0 (default) = one per CPU */
    int break_on_launch;      /* `set cuda break_on_launch`: DBG_BOL_* */
    int schedule_random;      /* `set scheduler random`: exec_set_schedule's EXEC_SCHED_RANDOM */
    uint64_t schedule_seed;   /* its seed */
    /* how values are formatted (dbg_format_at): set print elements / repeats (0 = no limit),
       set print pretty */
    uint64_t print_elements;  /* 200 */
    uint64_t print_repeats;   /* 10 */
    int print_pretty;
} dbg_options;
dbg_options *dbg_opts(dbg_session *s);

/* Stopping at kernel entry (cuda-gdb's break_on_launch, gdb's start). A launch that should stop
 * there stops before its first line runs, reported as DBG_EV_ENTRY with the focus on the first
 * thread of the first block. Every kernel of a PTX file is an application kernel; a front end
 * that launches kernels of a runtime asks dbg_stop_at_entry with system = 1 for its own. */
enum { DBG_BOL_NONE, DBG_BOL_APPLICATION, DBG_BOL_ALL };
int dbg_stop_at_entry(const dbg_session *s, int system);
/* on: the next launch or relaunch (only) stops at its kernel's entry, whatever break_on_launch
 * says (gdb's `start`); off: withdraw the request (the launch could not be made). */
void dbg_request_entry_stop(dbg_session *s, int on);

/* The flag a SIGINT handler sets; run/step poll it and stop with DBG_EV_INTERRUPT. */
void dbg_set_interrupt_flag(dbg_session *s, volatile int *flag);
/* Has the interrupt flag been raised (Ctrl-C)? Long host-side work polls it. */
int dbg_interrupted(const dbg_session *s);
/* A front end whose kernels share the process with other threads (the CUDA runtime) is
 * called around every exec_run of run control: before it with the run's options (st NULL),
 * after it with the stop (o NULL). After the run it returns 1 when it raised the interrupt flag
 * itself (to park the kernel while another thread needed the machine, not a Ctrl-C): run
 * control then lowers the flag and, when the stop is that interrupt, runs on as if nothing had
 * stopped it (the step budget still counts every instruction); else 0. */
typedef int (*dbg_run_hook)(void *ctx, const exec_run_opts *o, const exec_stop *st);
void dbg_set_run_hook(dbg_session *s, dbg_run_hook fn, void *ctx);

/* Run until something stops the kernel. `ignore` > 0 ignores the current breakpoint that many
 * more times (gdb's `continue N` sets it to N-1). */
int dbg_continue(dbg_session *s, int ignore, dbg_event *ev);
/* The breakpoint the focus stopped at (0: the stop was no breakpoint's). */
int dbg_stopped_bp(const dbg_session *s);
int dbg_step(dbg_session *s, dbg_step_kind kind, dbg_event *ev);
/* Run until one of pcs is reached by the focused warp or the current frame returns. */
int dbg_advance(dbg_session *s, const uint32_t *pcs, int npcs, dbg_event *ev);
/* The same, the location reached in any frame, callees included (gdb's `advance`; `until LOC`
 * stops there only in the current frame). */
int dbg_advance_any(dbg_session *s, const uint32_t *pcs, int npcs, dbg_event *ev);

/* ---- checkers (checkers/chk.h) -----------------------------------------------------------------
 * The session's checkers observe every machine it shows (the ones it loads and the ones a CUDA
 * program lends it); memcheck is on by default and findings stop the kernel (DBG_EV_CHECK). The
 * front end turns checkers on and off, reads the findings and formats them through chk.h, and
 * gives the function that prints findings that do not stop (`set check stop off`). */
chk_ctx *dbg_checks(dbg_session *s);
void dbg_set_check_reporter(dbg_session *s, void (*report)(void *ctx, const chk_finding *f),
                            void *ctx);

/* A fault's address in words (st: an EXCEPTION stop of the machine shown): "out-of-range access
 * to global address 0x... (4 bytes): 4 bytes after the end of cudaMalloc#1 [0x..., 4096 bytes)",
 * naming the space, the nearest buffer, variable, stack or parameter (dbg_faultaddr.c). */
void dbg_fault_addr_text(dbg_session *s, const exec_stop *st, char *out, size_t n);

/* ---- inspection helpers --------------------------------------------------------------------- */
/* The focused lane's state and current pc (of the selected frame). */
int dbg_focus_lane(const dbg_session *s, exec_lane_info *li);
int dbg_focus_pc(const dbg_session *s, uint32_t *pc);
/* Frames of the focused lane (physical: one per call). */
int dbg_backtrace(const dbg_session *s, exec_frame *frames, int max);

/* Source-level frames, innermost first: every physical frame expands into the functions inlined
 * at its pc (dw_inline_chain) followed by the function itself. dbg_focus.frame numbers these. */
typedef struct {
    const ptx_func *func;     /* the physical function */
    uint32_t pc;              /* physical frame 0: current pc; callers: the call instruction */
    int phys;                 /* physical frame index (exec_reg_get's frame) */
    int inl;                  /* inline depth at pc (0 innermost); == ninl: the function itself */
    int ninl;                 /* inlined frames at pc in this physical frame */
    const char *inl_name;     /* inlined function name, NULL for the function's own frame */
    const char *file;         /* position in this frame (file NULL: no line info) */
    int line;
    int show_addr;            /* a caller of a real call: gdb prints "0x... in" */
} dbg_frame;
#define DBG_MAX_FRAMES 128
int dbg_lane_frames(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane,
                    dbg_frame *out, int max);
int dbg_frames(const dbg_session *s, dbg_frame *out, int max);
/* The same for any machine and its module's debug info (dw may be NULL): front ends without a
 * session (the runtime's fault reports) use it with dbg_dwarf_load. */
int dbg_machine_frames(exec_machine *m, const dw_info *dw, uint32_t cta, uint32_t warp,
                       uint32_t lane, dbg_frame *out, int max);
dw_info *dbg_dwarf_load(const ptx_module *mod, dbg_demangle_fn dm);
void dbg_dwarf_release(dw_info *dw);
/* Whether a source path is a CUDA toolkit header (nvcc names them .../targets/ARCH/include/...
 * or .../cuda[-X.Y]/include/...): atomics, cooperative groups, math, cuda_runtime.h. */
int dbg_toolkit_file(const char *path);
/* The user's frame among source-level frames: the innermost with a line in a file that is no
 * toolkit header (a fault inside __iAtomicAdd, which has no line, called from atomicAdd in
 * device_atomic_functions.hpp, is the user's call of atomicAdd); else the innermost with a line;
 * -1 when none has one. */
int dbg_user_frame(const dbg_frame *fr, int n);
/* A frame's display name: the inlined function's, else the demangled base name. */
void dbg_frame_fn(dbg_demangle_fn dm, const dbg_frame *f, char *out, size_t n);
/* Where a lane stands, for reports: `at` its innermost frame ("file.cu:12", or
 * "MODULE:PTXLINE" without a line), with " in F, called from USER" when the user's frame is an
 * outer one; `user` the user's frame ("particles.cu:35 in advance"). */
typedef struct {
    char at[1400];
    char user[640];
    int user_frame;           /* its index among the source-level frames */
} dbg_site;
int dbg_site_of(exec_machine *m, const dw_info *dw, dbg_demangle_fn dm, const char *modpath,
                uint32_t cta, uint32_t warp, uint32_t lane, dbg_site *out);
int dbg_stop_site(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane,
                  dbg_site *out);
/* The selected frame of the focus (0 and -1 when there is no stack). */
int dbg_focus_frame(const dbg_session *s, dbg_frame *out);
/* Physical frame number (for exec_reg_get) of the selected frame; 0 without a stack. */
int dbg_focus_phys(const dbg_session *s);

/* ---- postmortem (dbg_core.c) ------------------------------------------------------------------ */
/* Write a core file: the machine's whole state (see core/exec_corefile.c), the module's source
 * files, buffers, focus and breakpoints. Works at any stop. */
int dbg_core_save(dbg_session *s, const char *path);
/* Replace the session by a core file's state; execution is impossible afterwards. */
int dbg_core_load(dbg_session *s, const char *path);
/* Whether the current launch was running at the stop shown: alive, or, in a core, written at
 * a stop that did not end it (a breakpoint, step, watchpoint, Ctrl-C, max-steps; not a fault,
 * trap, failed assertion or completion). The tables' "Active"/"running" states. */
int dbg_launch_running(const dbg_session *s);
/* The core file the session shows; NULL for a live session. */
const char *dbg_core_path(const dbg_session *s);
/* "core.KERNEL.N" for the current launch, "core.ptxdbg" without one. */
void dbg_core_default_name(const dbg_session *s, char *out, size_t n);
/* The message explaining why nothing can run (a core, a trapped or faulted launch); NULL when
 * running is possible as far as postmortem state goes. */
const char *dbg_cannot_run(dbg_session *s);
/* The last stop of the current launch; *over when the launch ended (done, trap, fault) or the
 * session shows a core. -1 without a launch. */
int dbg_last_stop(const dbg_session *s, exec_stop *st, int *over);

#endif
