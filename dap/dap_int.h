/* dap_int.h - inside the DAP server: the server state shared by the dap/ files, and the value layer's interface. */
#ifndef DAP_INT_H
#define DAP_INT_H

#include <stddef.h>
#include <stdint.h>
#include "dap_io.h"
#include "dap_json.h"
#include "dbg.h"
#include "dbg_rows.h"

/* ---------------------------------------------------------------------------------------------
 * The value layer (dap_values.c): expressions, variables, formatting, CLI commands. It is the
 * only file of dap/ that calls commands/; everything else uses the engine (dbg.h, dbg_rows.h).
 * ------------------------------------------------------------------------------------------- */
typedef struct dapv dapv;

typedef struct {
    uint32_t cta, warp, lane;
    int frame;                /* source-level frame (dbg_lane_frames numbering) */
} dap_lref;

enum { DAPV_SCALAR, DAPV_STRUCT, DAPV_ARRAY, DAPV_PTR };
typedef struct {
    char *text;               /* the formatted value (malloc'd) */
    char type[160];
    int kind;                 /* DAPV_* */
    int64_t nchildren;        /* STRUCT members, ARRAY elements, PTR 1 */
    int in_mem;               /* the value lives in memory: space:addr, size bytes */
    ptx_space space;
    uint64_t addr, size;
    int is_ptr;               /* a pointer value: points to pspace:paddr */
    ptx_space pspace;
    uint64_t paddr;
} dapv_val;

/* inproc: the session runs inside a CUDA program. */
dapv *dapv_new(dbg_session *s);
void dapv_free(dapv *v);
/* Run one CLI command line (its text goes to stdout/stderr; the caller captures them). 0 or -1. */
int dapv_command(dapv *v, const char *line);
/* The last command was `quit` (then cleared). */
int dapv_quit_requested(dapv *v);
/* Whether a command line steps (step, next, stepi, nexti, finish, until, advance). */
int dapv_command_steps(const char *line);
/* Whether word names a command exactly (name or alias). */
int dapv_is_command(const char *word);
/* Evaluate an expression in a lane's frame. 0, or -1 with the message. */
int dapv_eval(dapv *v, const dap_lref *r, const char *expr, int hex, dapv_val *out, char *err,
              size_t n);
void dapv_val_free(dapv_val *val);
/* Child i of an aggregate or pointer value of expr: its display name and expression (malloc'd). */
int dapv_child(dapv *v, const dap_lref *r, const char *expr, int64_t i, char *name, size_t nn,
               char **child);
/* Names of the source variables (arguments, then locals) visible in a lane's frame; *names is
 * malloc'd (each name borrowed from the debug info). -1 when the module has no debug info. */
int dapv_locals(dapv *v, const dap_lref *r, const char ***names);
/* The same, the arguments only. */
int dapv_params(dapv *v, const dap_lref *r, const char ***names);
/* A register value as text: natural and hexadecimal. */
void dapv_format_bits(uint64_t bits, ptx_type t, int hex, char *out, size_t n);
/* Whether a condition holds for a lane: 1, 0, or -1 with the message (an error). */
int dapv_cond_holds(dapv *v, const dap_lref *r, const char *cond, char *err, size_t n);
/* A breakpoint condition that parses and names only symbols known at pcs (gdb's check). */
int dapv_cond_check(dapv *v, const char *cond, const uint32_t *pcs, int npcs, char *err,
                    size_t n);
/* cuda-gdb's exception name and CUDA_EXCEPTION number. */
const char *dapv_exc_name(exec_exc e, int *num);
/* The display name of a function (demangled base name, or the signature when full). */
void dapv_func_name(dapv *v, const ptx_func *f, int full, char *out, size_t n);
/* Completion of line at point (the debug console): the word's start and its candidates
 * (NULL-terminated; free with dapv_complete_free); the count, or -1 when out of memory. */
int dapv_complete(dapv *v, const char *line, int point, int *start, char ***cands);
void dapv_complete_free(char **cands);
/* The folder holding the runtime library (libcudart.so.13): 0, or -1 (out: where it was
 * expected). */
int dapv_libdir(char *out, size_t n);

/* ---------------------------------------------------------------------------------------------
 * The server.
 * ------------------------------------------------------------------------------------------- */
enum { DAP_BP_SOURCE, DAP_BP_FUNCTION, DAP_BP_INSN, DAP_BP_DATA };
typedef struct {
    int id;                   /* DAP id */
    int kind;                 /* DAP_BP_* */
    int num;                  /* engine breakpoint number, 0 when it could not be set */
    char *source;             /* SOURCE: the client's path */
    int line;                 /* SOURCE: requested line */
    char *spec;               /* what was given to the engine */
    char *cond;               /* condition or NULL */
    char *hitcond;            /* hit condition or NULL */
    char *logmsg;             /* a logpoint's message or NULL */
    char *error;              /* why it could not be set, or NULL */
    int hits;                 /* stops whose condition held */
    int verified;             /* last state told to the client */
    int vline;
    int ever_verified;        /* it resolved once (at vline, vpc): it stays verified */
    int cond_checked;         /* cond was checked where it resolved */
    uint32_t vpc;
} dap_bp;

/* What a frame id and a variables reference stand for (valid until the next resume). */
typedef struct {
    dap_lref r;
} dap_frame_ref;
enum { DAP_VR_LOCALS, DAP_VR_REGS, DAP_VR_SHARED, DAP_VR_LANES, DAP_VR_LANE, DAP_VR_EXPR,
       DAP_VR_SHVAR };
typedef struct {
    int kind;
    dap_lref r;
    char *expr;               /* EXPR: the expression whose children are listed */
    int64_t n;                /* EXPR: children; SHVAR: elements */
    int indexed;              /* the children are elements ([i]), not named members */
    uint64_t addr;            /* SHVAR */
    ptx_type type;            /* SHVAR */
} dap_var_ref;

typedef struct dap_srv dap_srv;
struct dap_srv {
    dbg_session *s;
    dapv *v;
    int out_fd;               /* where protocol messages go */
    int64_t seq;              /* next outgoing seq */
    int inproc;               /* the server runs inside a CUDA program */
    int lines0;               /* the client counts lines from 0 */
    int cols0;                /* ... and columns */
    int client_invalidated;   /* the client takes `invalidated` events */
    int client_memory;        /* the client takes `memory` events */
    /* launch */
    int initialized, launched, configured, terminated, done;
    char *program;
    char **kernels;           /* PTX: launch lines still to run */
    int nkernels, next_kernel;
    int stop_on_entry;
    int no_debug;             /* launch's noDebug: run without breakpoints or stops */
    unsigned chk_nostop;      /* checkers (1u << chk_id) whose exception filter is off: their
                                 findings are reported on the console and do not stop */
    int exit_code;
    /* stops */
    int stopped;              /* a kernel is stopped (requests may inspect it) */
    dbg_event last;           /* the last stop */
    int kernel_over;          /* inproc: the kernel ended (the program goes on) */
    uint64_t progress;        /* dbg_progress at the last report */
    volatile int *pause_flag; /* the engine's interrupt flag (pause, disconnect, Ctrl-C) */
    volatile int *req_flag;   /* raised when a request waits in `in` (and with pause_flag); the
                                 engine's interrupt flag during a continue; NULL: requests
                                 wait for the next stop */
    dap_reader *in;           /* where requests come from */
    int running;              /* requests are served in the middle of a continue */
    int pause_req;            /* ... and one of them was `pause` */
    int woke;                 /* inproc: the adapter's ptxdbg/poke came (dap_prog.c) */
    int pause_pending;        /* inproc: a pause came between kernels: the next one stops */
    /* breakpoints */
    dap_bp *bps;
    int nbps, next_bp_id;
    int hit_ids[32];          /* the breakpoints of the stop being reported (dap_bp_stop) */
    int nhit;
    /* handles */
    dap_frame_ref *frames;
    int nframes;
    dap_var_ref *vars;
    int nvars;
    /* output capture: stdout and stderr of the server's process go to these files */
    int sink_out, sink_err;
    struct dap_prog *prog;    /* a CUDA program's session: the adapter relays (dap_prog.c) */
    int hold;                 /* keep outgoing messages (held, a JSON array's members) instead
                                 of sending them */
    dj_w held;
};

#define DAP_MAX_THREADS 128   /* warps listed as threads (VS Code slows down with hundreds) */
#define DAP_MAX_HANDLES 200000 /* frame ids and variables references until the next resume */

/* dap_launch.c */
void dap_launch(dap_srv *d, const dj *req);
void dap_configuration_done(dap_srv *d, const dj *req);
/* The launch arguments every program takes (setupCommands, checks): 0, or -1 after an error
 * response. */
int dap_launch_setup(dap_srv *d, const dj *req, const dj *a);

/* dap_server.c */
int dap_srv_stdio(dap_srv *d, dbg_session *s, int proto_fd);
void dap_srv_init(dap_srv *d, dbg_session *s, int out_fd);
void dap_srv_free(dap_srv *d);
/* Handle one request (a parsed message). */
void dap_handle(dap_srv *d, const dj *req);
/* Handle one message as read (malformed ones and the reader's framing notes become output
 * events), then flush the program's output. */
void dap_handle_text(dap_srv *d, const char *body, size_t n);
/* Serve the requests waiting in d->in now (never waits for one to come). d->done when the input
 * ended. */
void dap_serve_pending(dap_srv *d);
/* Serve one request, waiting for it: 0, or -1 at the end of the input (d->done). */
int dap_serve_one(dap_srv *d);
/* Messages. */
int dap_send(dap_srv *d, dj_w *w);          /* finishes the object w holds and sends it */
void dap_begin_event(dap_srv *d, dj_w *w, const char *event); /* then body members, dap_send */
void dap_begin_response(dap_srv *d, dj_w *w, const dj *req, int success, const char *msg);
void dap_respond_ok(dap_srv *d, const dj *req);
void dap_respond_err(dap_srv *d, const dj *req, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void dap_output(dap_srv *d, const char *category, const char *text, size_t n);
void dap_outputf(dap_srv *d, const char *category, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Program and command output written to stdout/stderr since the last call, as output events. */
void dap_flush_output(dap_srv *d);
/* Capture what a CLI command prints: begin, then end returns the text (malloc'd). */
int dap_capture_begin(dap_srv *d, int saved[2]);
char *dap_capture_end(dap_srv *d, int saved[2]);
int dap_client_line(const dap_srv *d, int line);     /* engine line -> client line */
int dap_engine_line(const dap_srv *d, int line);     /* client line -> engine line */
/* The end of a session: exited + terminated, once. */
void dap_terminate(dap_srv *d, int code);

/* dap_hits.c: a hit condition ("N", ">= N", "% N"...): 0 with its operator and N, else -1. */
int dap_hit_parse(const char *s, char *op, long *n);
/* dap_data.c: a dataId "SPACE:ADDR:LEN:TYPE": 0 with its parts, else -1. */
int dap_data_id_parse(const char *id, ptx_space *sp, uint64_t *addr, uint32_t *len, char *type,
                      size_t tn);

/* dap_bps.c */
void dap_bps_request(dap_srv *d, const dj *req, const char *cmd);  /* every set*Breakpoints */
void dap_bps_data_info(dap_srv *d, const dj *req);
/* After a module came (inproc launches): tell the client which breakpoints now resolve. */
void dap_bps_refresh(dap_srv *d);
dap_bp *dap_bp_by_num(dap_srv *d, int num);  /* by engine number */
dap_bp *dap_bp_by_id(dap_srv *d, int id);    /* by DAP id */
/* A breakpoint or watchpoint stop (ev): the client's breakpoints it stands for go to
 * d->hit_ids (those at its pc whose conditions hold, each counting its hits; logpoints print
 * their message); 1 to report it, 0 when hit conditions and logpoints say go on. */
int dap_bp_stop(dap_srv *d, const dbg_event *ev);
/* The client path a module file is shown as (a breakpoint's path that matched it, one on
 * line first), or NULL. */
const char *dap_bp_client_path(dap_srv *d, const char *file, int line);
void dap_bps_free(dap_srv *d);

/* dap_run.c */
enum { DAP_RUN_CONTINUE, DAP_RUN_NEXT, DAP_RUN_STEPIN, DAP_RUN_STEPOUT, DAP_RUN_NEXTI,
       DAP_RUN_STEPI };
/* Resume and report the stop (stopped event) or the kernel's end. */
void dap_resume(dap_srv *d, int how);
/* Report a stop the engine made (after a resume or a CLI command that ran the kernel). */
void dap_report_event(dap_srv *d, const dbg_event *ev);
/* Around a CLI command of the debug console: what it changed (a stop, the kernel's end, the
 * focus, a quit) is reported after it. */
typedef struct {
    uint64_t progress;        /* dbg_progress before */
    dbg_focus focus;
    struct dap_hits *hits;    /* breakpoint hit counts before */
    int nhits;
    int steps;                /* the command steps */
} dap_cmd_state;
void dap_before_command(dap_srv *d, const char *line, dap_cmd_state *st);
void dap_after_command(dap_srv *d, dap_cmd_state *st);
void dap_exception_info(dap_srv *d, const dj *req);
/* The launch's "check" (a string or an array of names) as "a,b,c" (dap_launch.c); -1 if bad. */
int dap_check_names(const dj *check, char *out, size_t n);
void dap_focus_request(dap_srv *d, const dj *req);
/* Launch the next kernel of the launch request (PTX programs); 0, or -1 with a message sent. */
int dap_next_kernel(dap_srv *d);
/* Forget frame ids and variables references (at every resume). */
void dap_handles_reset(dap_srv *d);
/* The thread id of a warp, and back. */
int64_t dap_thread_id(const dap_srv *d, uint32_t cta, uint32_t warp);
int dap_thread_warp(const dap_srv *d, int64_t id, uint32_t *cta, uint32_t *warp);

/* dap_inspect.c */
/* A variables reference for a lane's container (valid until the next resume; 0 when full). */
int64_t dap_new_var(dap_srv *d, int kind, const dap_lref *r, const char *expr, int64_t n);
/* The lane a request's frameId names: 1 (a frame), 0 (none given: the focus), 2 (none given and
 * no focus), -1 after an error response. */
int dap_get_frame(dap_srv *d, const dj *req, const char *what, dap_lref *r);
int dap_want_hex(const dj *args);  /* format.hex */
/* Tell a client that takes `invalidated` that values changed. */
void dap_invalidated(dap_srv *d);
void dap_threads(dap_srv *d, const dj *req);
void dap_stack_trace(dap_srv *d, const dj *req);
void dap_scopes(dap_srv *d, const dj *req);
void dap_variables(dap_srv *d, const dj *req);
void dap_set_variable(dap_srv *d, const dj *req);
void dap_set_expression(dap_srv *d, const dj *req);
void dap_completions(dap_srv *d, const dj *req);  /* dap_console.c */
void dap_source(dap_srv *d, const dj *req);       /* dap_console.c */

/* dap_console.c */
void dap_evaluate(dap_srv *d, const dj *req);

/* dap_mem.c */
void dap_disassemble(dap_srv *d, const dj *req);
void dap_read_memory(dap_srv *d, const dj *req);
void dap_write_memory(dap_srv *d, const dj *req);
/* A source location as the client sees it: key {name, path} (the client's own path for a file
 * a breakpoint named, else the file found on disk; the PTX file at its line when file is NULL),
 * then line and column. Nothing when pc has no line anywhere. */
void dap_write_source(dap_srv *d, dj_w *w, const char *key, const char *file, int line,
                      uint32_t pc);
/* "0x1234" / "@shared 0x40" memory references. */
void dap_memref(char *out, size_t n, ptx_space sp, uint64_t addr);
int dap_memref_parse(const char *s, ptx_space *sp, uint64_t *addr);
/* A frame id's lane reference (NULL when unknown); the focus when id is absent. */
const dap_frame_ref *dap_frame_get(dap_srv *d, int64_t id);
int dap_focus_lref(dap_srv *d, dap_lref *r);

#endif
