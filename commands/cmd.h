/* cmd.h - the command interpreter's shared declarations: context, command table, values, expressions. */
#ifndef CMD_H
#define CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dbg.h"

#include "dbg_value.h"
#include "dbg_rows.h"

/* ---- command context ------------------------------------------------------------------------- */
typedef struct cmd_input cmd_input;
typedef struct cmd_ctx cmd_ctx;
struct cmd_input {
    /* Next line (malloc'd, without newline) or NULL at end. */
    char *(*next)(cmd_input *in, const char *prompt);
    void *ctx;
    int stop_on_error;        /* a script (source, -x): the first failing command ends it */
};

/* ---- where command lines come from (cmd_feed.c) ------------------------------------------------
 * One stack of frames read by one loop: the terminal, main's -ex/-x list, scripts, user command
 * bodies, `if` branches, `while` loops, breakpoint commands (see cmd_feed.c). */
enum { CMD_FR_TERM, CMD_FR_TEXT, CMD_FR_LOOP };
enum {
    CMD_FF_NEST = 1,          /* an error ends it and the nested frames it runs in */
    CMD_FF_ACTS = 2,          /* main's -ex/-x list: lines "e COMMAND" / "x SCRIPT" */
    CMD_FF_BPCMD = 4,         /* a breakpoint's commands: a resume drops what is left */
    CMD_FF_DONE = 8,          /* dropped: popped when reached */
    CMD_FF_USER = 16,         /* a user command's body (loop_break does not cross it) */
    CMD_FF_SCRIPT = 32,       /* a script file (-x, source): at most 16 nested */
};
typedef struct cmd_feed_frame {
    int kind, flags;
    char *name;               /* the script's path, the user command, "if", "while" */
    char *cond;               /* LOOP: the condition tested before every pass */
    char *args;               /* "COUNT\nARG0\n...": $argc/$argN of the user command it runs in */
    char *text;               /* TEXT: its lines; LOOP: the body */
    size_t len, pos;
    cmd_input *src;           /* TERM: a caller's line source (NULL: the session's terminal) */
    int interactive;          /* TERM with src: the session's interactive flag when pushed */
} cmd_feed_frame;
int cmd_feed_push(cmd_ctx *c, int kind, int flags, const char *name, const char *cond,
                  const char *text, size_t len);
int cmd_feed_push_term(cmd_ctx *c, cmd_input *src);
void cmd_feed_pop(cmd_ctx *c);
void cmd_feed_free(cmd_ctx *c);
/* Run lines while more than `base` frames are left (the hold hook may stop it earlier, the
 * frames kept); -1 when an error ended nested frames. */
int cmd_feed_run(cmd_ctx *c, int base);
/* The same without the hold hook, then the frames above base dropped: lines brought by a command
 * run from outside the feed (a test, a front end, the setup replay) run to their end. */
int cmd_feed_run_local(cmd_ctx *c, int base);
/* The next line of the top frame, for commands that read a body; NULL at its end. */
char *cmd_feed_read(cmd_ctx *c, const char *prompt);
/* A command resumed the kernel: breakpoint commands still to run are dropped (gdb). */
void cmd_feed_resumed(cmd_ctx *c);
/* gdb's from_tty for the running line: typed at the terminal (or piped to it), or a -ex
 * command outside -batch; 0 in scripts (-x, source), breakpoint commands, user commands' bodies
 * and -batch. Messages such as "Continuing." follow it as gdb's do. */
int cmd_from_tty(const cmd_ctx *c);
int cmd_feed_loop_control(cmd_ctx *c, int brk);
/* The frames above the terminal as text, and back (a program's `run` hands them over). */
int cmd_feed_export(const cmd_ctx *c, char **out, size_t *len);
int cmd_feed_import(cmd_ctx *c, const char *text, size_t len);

/* ---- user-defined commands (cmd_define.c) ---------------------------------------------------- */
typedef struct cmd_user cmd_user;
/* A block's lines up to its `end` (nested blocks need their own), read from c->in; else_at:
 * the index of the top-level `else` (-1: none), or NULL where `else` is an ordinary line. */
int cmd_read_block(cmd_ctx *c, char ***lines, int *n, int *else_at);
const cmd_user *cmd_user_find(const cmd_ctx *c, const char *name);
const cmd_user *cmd_user_lookup(const cmd_ctx *c, const char *word, char *err, size_t n);
int cmd_user_run(cmd_ctx *c, const cmd_user *u, const char *args);
char *cmd_user_subst(const char *line, const char *args, char *err, size_t en);
void cmd_user_describe(const cmd_user *u, FILE *out, int whole);
/* The same through the output model (help). */
void cmd_user_show(cmd_ctx *c, const cmd_user *u, int full);
/* The definition (doc 0) or documentation (doc 1) of user command name as setup-log lines. */
int cmd_user_log(const cmd_ctx *c, const char *name, int doc, char **text, size_t *len);
void cmd_users_free(cmd_ctx *c);
int cmd_help_user(cmd_ctx *c);
/* `help instructions [NAME]`: the opcode table by family, or one instruction (cmd_ophelp.c). */
int cmd_help_instructions(cmd_ctx *c, int argc, char **argv);
/* `help OPCODE` for a base opcode that is no command's name: 0, or -1 when name is no opcode. */
int cmd_help_opcode(cmd_ctx *c, const char *name);

typedef struct {
    int num;
    char fmt[16];             /* "/x" style, "" for none */
    char *text;
    int enabled;
} cmd_disp;

/* Front-end settings (the table is cmd_settings.c). UINT settings: 0 = unlimited. */
#define CMD_PATH_MAX 512
typedef struct {
    uint64_t listsize;        /* set listsize (10) */
    uint64_t height;          /* set height: lines a page (interactive pager) */
    int height_set;           /* the user chose height (else the terminal's) */
    uint64_t width;           /* set width: only 0 (no wrapping) */
    int pagination;           /* set pagination */
    int confirm;              /* set confirm */
    int log_enabled, log_overwrite, log_redirect;
    char log_file[CMD_PATH_MAX];
    int check_leaks;          /* set check leaks: leak check at program exit (--leak-check) */
    char check_report[CMD_PATH_MAX]; /* set check report: findings as JSON lines at the end */
    uint64_t schedules;       /* --schedules=N: a finished launch is rerun under N random
                                 schedules (cmd_schedules.c) */
} cmd_opts;

typedef struct cmd_ctx {
    dbg_session *s;
    cmd_opts opt;             /* settings (set/show) */
    int batch;                /* -batch */
    int interactive;          /* reading a terminal */
    int failed;               /* some command failed (batch exit status) */
    int kernel_failed;        /* a kernel ended in a trap, assert or exception */
    int quit;
    cmd_disp *disp;
    int ndisp, next_disp;
    cmd_input *in;            /* where `commands`/`end` blocks read from */
    /* `x` continues where it stopped */
    ptx_space x_space;
    uint64_t x_next;
    char x_fmt, x_size;
    int x_valid;
    /* `list` continues where it stopped */
    char list_file[512];
    int list_line;
    int list_first;           /* first line of the last listing (for `list -`) */
    int list_valid;
    char list_missing[512];   /* the source a listing fell back to the PTX for, "" none */
    int list_missing_line;
    /* the last focus announced */
    dbg_focus shown_focus;
    int shown_launch;
    int kernel_events;        /* print [Launch of ...] / [Kernel N exited] lines */
    char repeat[256];         /* the command an empty line repeats */
    /* debugging a CUDA program (cmd_prog.c: the parent; cmd_inproc.c: inside the program) */
    struct cmd_prog *prog;    /* the program, its arguments and the setup log; NULL: PTX */
    int replaying;            /* replaying the setup log: not recorded again */
    int inproc;               /* this session runs inside the program */
    int prog_exited, prog_status; /* the last run's exit status */
    int corecheck_busy;       /* cmd_corecheck is comparing (no nested checks) */
    /* where lines come from (cmd_feed.c) */
    cmd_feed_frame *frames;
    int nframes, capframes;
    int feeding;              /* cmd_feed_run is reading: commands push frames, it runs them */
    int line_frame;           /* the frame the running line came from */
    int values_next;          /* show values +: the history number after the last shown */
    /* inside a program: 1 when the stop is over (the kernel completed): the feed stops */
    int (*hold)(struct cmd_ctx *c);
    /* inside a program: the terminal's line at a stop (NULL: cmd_read_line) */
    char *(*term_hook)(struct cmd_ctx *c, const char *prompt);
    struct cmd_user *users;   /* user-defined commands (cmd_define.c) */
    int nusers;
    struct cmd_ui *ui;        /* the output model's JSON backend (cmd_ui.h); NULL: text */
} cmd_ctx;

typedef int (*cmd_fn)(cmd_ctx *c, const char *args, int argc, char **argv);

typedef enum {
    CMD_CLASS_FILES, CMD_CLASS_RUNNING, CMD_CLASS_BREAKPOINTS, CMD_CLASS_DATA, CMD_CLASS_STACK,
    CMD_CLASS_STATUS, CMD_CLASS_CUDA, CMD_CLASS_SUPPORT, CMD_CLASS__COUNT
} cmd_class;

/* A command's flags (cmd_def.flags): what the command table says about a command, read
 * centrally instead of lists of names in the places that decide. Each bit names its readers.
 * The preconditions are checked by the dispatcher (cmd_table.c: cmd_preconditions) after the
 * arity check and before the handler, in this order; each message lives there once:
 *   CMD_F_PTX_ONLY      refused in a CUDA program's session (ptxdbg PROGRAM, and inside the
 *                       program at its stops): "\"NAME\" is for a PTX file: a CUDA program
 *                       allocates its own memory and launches its own kernels."
 *   CMD_F_NEEDS_MODULE  a PTX module is loaded: "No symbol table is loaded.  Use the \"file\"
 *                       command." (gdb's)
 *   CMD_F_NEEDS_KERNEL  a launch exists, live or stopped: "Focus not set on any active CUDA
 *                       kernel." (cuda-gdb's)
 *   CMD_F_NEEDS_STACK   the focused lane has frames: "No stack." (gdb's)
 *   CMD_F_NEEDS_LIVE    a live launch: "The program is not being run." (gdb's). Not checked
 *                       inside a CUDA program's session (c->inproc), where commands run only at
 *                       a stop or after a fault: there `continue` returns to the host code and
 *                       `kill` ends the program (the handlers route them; cmd_core_guard
 *                       refuses the others after a fault)
 * Handlers keep their own checks only where they test something finer (info registers: a valid
 * focus, "The program has no registers now."; info line: line information).
 * The other bits:
 *   CMD_F_REPEAT        an empty terminal line repeats it (cmd_feed.c; x and list go on where
 *                       they stopped)
 *   CMD_F_SETUP         session setup a CUDA program's later runs replay (cmd_prog.c: the setup
 *                       log). The documented exception: `set` is setup only for a setting, not
 *                       for `set var`, `set $conv = ...` or `set *ADDR = ...` (cmd_prog.c);
 *                       `commands`, `define` and `document` are logged with their bodies
 *   CMD_F_RESUMES       run control: the current launch runs (continue, step, ..., advance).
 *                       It ends the breakpoint command list it runs in, as gdb's resuming
 *                       commands do (cmd_table.c, before it runs); cmd_core_guard refuses it
 *                       where nothing can run (a trapped launch, a core file)
 *   CMD_F_STEPS         RESUMES, and the stop that ends it is the end of a stepping range
 *                       (DAP reports the stop a debug-console command made as "step")
 *   CMD_F_FORMAT        a /FMT may stick to the name (print/x, x/4xw): not an argument word
 *   CMD_F_STRUCTURED    JSON mode: the result carries fields of its own beyond "output"
 *                       (docs/JSON.md, "Structured commands", lists exactly these rows;
 *                       tests/test_cmdflags.c holds them equal)
 *   CMD_F_MODEL_ONLY    everything it writes (text, fields, errors, messages, the stops it
 *                       reports, kernel printf) goes through the output model: JSON mode
 *                       runs it without the descriptor-level capture (cmd_uirun.c); lines
 *                       nested in it that are not MODEL_ONLY are captured on their own */
#define CMD_MSG_NO_SYMBOLS "No symbol table is loaded.  Use the \"file\" command."
#define CMD_MSG_NO_KERNEL "Focus not set on any active CUDA kernel."
#define CMD_MSG_NOT_RUN "The program is not being run."
enum {
    CMD_F_REPEAT = 1 << 0,
    CMD_F_SETUP = 1 << 1,
    CMD_F_NEEDS_MODULE = 1 << 2,
    CMD_F_NEEDS_KERNEL = 1 << 3,
    CMD_F_NEEDS_STACK = 1 << 4,
    CMD_F_RESUMES = 1 << 5,
    CMD_F_STEPS = 1 << 6,
    CMD_F_PTX_ONLY = 1 << 7,
    CMD_F_FORMAT = 1 << 8,
    CMD_F_STRUCTURED = 1 << 9,
    CMD_F_NEEDS_LIVE = 1 << 10,
    CMD_F_MODEL_ONLY = 1 << 11,
    CMD_F__ALL = (1 << 12) - 1
};

typedef struct cmd_def {
    const char *name;
    const char *aliases;      /* space-separated, e.g. "b br" */
    cmd_fn fn;
    int min_args, max_args;   /* whitespace-separated words after the name; -1 = unlimited */
    const char *usage;
    const char *help;
    cmd_class cls;
    unsigned flags;           /* CMD_F_* */
    const struct cmd_def *sub; /* subcommand table (info) or NULL */
} cmd_def;

/* cmd_table.c */
extern const cmd_def cmd_table[];
extern const cmd_def cmd_info_table[];
const char *cmd_class_name(cmd_class c);
/* Look up a word in a table: exact name, alias, then unique prefix. NULL + *ambig set when
 * ambiguous (message written into err). */
const cmd_def *cmd_lookup(const cmd_def *table, const char *word, char *err, size_t n);
/* The preconditions of d's flags (CMD_F_PTX_ONLY, CMD_F_NEEDS_*): 0, or -1 with the message
 * printed. The dispatcher checks them for every row it runs; a handler that dispatches to a
 * table row itself (info cuda X) calls this first. */
int cmd_preconditions(cmd_ctx *c, const cmd_def *d);
/* The command a line runs (its first word looked up in cmd_table; NULL: none, a user command,
 * PTX). */
const cmd_def *cmd_line_def(const char *line);
/* Execute one command line; 0 ok, -1 failed (message already printed). */
int cmd_execute(cmd_ctx *c, const char *line);
/* Error to stderr, gdb style; returns -1. */
int cmd_error(cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The whole of s (blanks around allowed) as a decimal, 0x or 0 integer within [lo, hi]: 0, else -1
 * (not a number, trailing text, overflow or out of range; the caller says which argument). */
int cmd_parse_long(const char *s, long lo, long hi, long *out);
/* "N" or "(x)", "(x,y)", "(x,y,z)" of unsigned 32-bit numbers into v (components not given keep
 * the caller's defaults); returns the text after it, or NULL. */
const char *cmd_parse_dim3(const char *p, unsigned long v[3]);
/* Run every line of an input until it ends (or quit), as the terminal's lines run. */
int cmd_run_input(cmd_ctx *c, cmd_input *in, const char *prompt);
/* Stop the running command as Ctrl-C does (a kernel run stops at its next check). */
void cmd_interrupt(void);
/* Ctrl-C was pressed (not yet cleared); clear it. */
int cmd_interrupt_pending(void);
void cmd_interrupt_clear(void);
/* The end of the session's terminal: pager off, history saved. */
void cmd_term_close(cmd_ctx *c);
/* Whether name is a built-in command's name or alias. */
int cmd_is_builtin(const char *name);
/* cmd_repl.c: the interactive loop (readline on a terminal, plain lines otherwise). */
int cmd_repl(cmd_ctx *c);
/* One command line for a session inside a program (the terminal with readline, else fd 0
 * read unbuffered); NULL at the end of input. */
char *cmd_read_line(cmd_ctx *c, const char *prompt);
int cmd_help(cmd_ctx *c, const char *args, int argc, char **argv);
void cmd_ctx_init(cmd_ctx *c, dbg_session *s);
void cmd_ctx_free(cmd_ctx *c);
/* Split "a b c" into words (modifies a copy); returns argc; argv points into *buf. */
int cmd_split(const char *args, char **buf, char ***argv);

/* A location of the form *EXPR (gdb's address locations: *$pc, *0x2e0 + 4) with EXPR evaluated
 * at the focus, written to out as *N; any other location is copied. 0, or -1 with the error
 * printed. */
int cmd_loc_addr(cmd_ctx *c, const char *spec, char *out, size_t n);
/* "y+4" for a data address (buffers first, then the core's symbols); "" when unknown. */
void cmd_describe_addr(cmd_ctx *c, ptx_space space, uint64_t a, char *out, size_t n);
/* Breakpoint conditions that could not be evaluated during a run: one error line each. */
void cmd_report_cond_errors(cmd_ctx *c, const dbg_event *ev);

/* cmd_show.c: presenting stops, frames, focus */
void cmd_report_event(cmd_ctx *c, const dbg_event *ev);
void cmd_print_frame_line(cmd_ctx *c, int frame_no, int with_source);
/* The same, in_list 1: a row of the open list (backtrace's "frames"), else the "frame" tuple. */
void cmd_frame_line(cmd_ctx *c, int frame_no, int with_source, int in_list);
/* JSON data of pc's place: "function", "file", "line" (when known), "ptx_line" (cmd_cuda.c). */
void cmd_where_data(cmd_ctx *c, uint32_t pc);
void cmd_print_source_at(cmd_ctx *c, uint32_t pc);
void cmd_announce_focus(cmd_ctx *c, int force);
void cmd_kernel_label(cmd_ctx *c, char *out, size_t n);
void cmd_do_displays(cmd_ctx *c);
int cmd_print_value_line(cmd_ctx *c, const char *expr, const char *fmt, int record);

/* cmd_launch.c: run the current launch until it stops and report the stop. */
int cmd_resume(cmd_ctx *c, int ignore);
/* --schedules=N after a launch finished: rerun it under random schedules 1..N, report the first
 * result that differs (and racecheck's racing pairs). */
int cmd_schedules(cmd_ctx *c);

/* handlers, by file */
#define H(name) int name(cmd_ctx *c, const char *args, int argc, char **argv)
/* cmd_launch.c */
H(cmd_file); H(cmd_buffer); H(cmd_launch); H(cmd_run); H(cmd_kill); H(cmd_dump);
H(cmd_source); H(cmd_echo); H(cmd_define); H(cmd_document); H(cmd_if); H(cmd_while);
H(cmd_loop_break); H(cmd_loop_continue); H(cmd_block_end); H(cmd_clear); H(cmd_printf); H(cmd_quit); H(cmd_info_functions); H(cmd_info_buffers);
/* cmd_exec.c */
H(cmd_continue); H(cmd_step); H(cmd_next); H(cmd_stepi); H(cmd_nexti); H(cmd_finish);
H(cmd_until); H(cmd_advance); H(cmd_start);
/* cmd_break.c */
H(cmd_break); H(cmd_tbreak); H(cmd_condition); H(cmd_ignore); H(cmd_delete); H(cmd_disable);
H(cmd_enable); H(cmd_commands); H(cmd_watch); H(cmd_rwatch); H(cmd_awatch);
H(cmd_info_breakpoints);
/* cmd_data.c */
H(cmd_print); H(cmd_call); H(cmd_output); H(cmd_x); H(cmd_display); H(cmd_undisplay); H(cmd_set_var);
H(cmd_info_display); H(cmd_info_registers); H(cmd_info_lanes_expr); H(cmd_ptype);
/* cmd_settings.c (the settings table); cmd_info in cmd_table.c */
H(cmd_set); H(cmd_show); H(cmd_info);
/* cmd_stack.c */
H(cmd_backtrace); H(cmd_frame); H(cmd_up); H(cmd_down); H(cmd_list); H(cmd_disassemble);
H(cmd_info_frame);
/* cmd_src.c */
H(cmd_info_locals); H(cmd_info_args); H(cmd_info_scope); H(cmd_info_line); H(cmd_info_source);
H(cmd_info_address); H(cmd_directory); H(cmd_whatis);
int cmd_set_substitute(cmd_ctx *c, int argc, char **argv);
int cmd_unset(cmd_ctx *c, const char *args, int argc, char **argv);
int cmd_show_src(cmd_ctx *c, const char *what);
/* After a file failed to load: a hint when it is CUDA source or a cubin/fatbin (nvcc -ptx). */
void cmd_program_hint(const char *path);
/* After loading a module: its debug-info problems as "warning: ..." lines on stderr. */
void cmd_load_warnings(cmd_ctx *c);   /* 1 handled, 0 not a source setting */
/* "name (a=1, b=2)" argument list of a frame; function return type for finish */
void cmd_frame_args(cmd_ctx *c, const dbg_frame *f, char *out, size_t n);
/* cmd_cuda.c */
H(cmd_cuda); H(cmd_info_warps); H(cmd_info_lanes); H(cmd_info_blocks); H(cmd_info_threads);
H(cmd_info_kernels); H(cmd_info_sharedmem); H(cmd_info_cuda);
/* the PTX REPL (cmd_data.c; dbg_ptx.c runs it) */
H(cmd_eval_ptx);
int cmd_ptx_repl_line(cmd_ctx *c, const char *line);
/* cmd_tex.c */
H(cmd_texture); H(cmd_surface); H(cmd_bind); H(cmd_info_textures);
#undef H

/* cmd_settings.c */
void cmd_opts_init(cmd_opts *o);
/* The first line of a listing centred on `line` (set listsize). */
int cmd_list_centre(const cmd_ctx *c, int line);
/* help set|show [SETTING...]: the table's documentation. */
int cmd_help_settings(cmd_ctx *c, const char *verb, int argc, char **argv);
/* Completion after "set"/"show" (verb) and the complete words `words`: the names under them,
 * or a setting's values; calls add for each. 0 when the words name nothing. */
int cmd_settings_complete(const char *const *words, int nw, const char *verb,
                          void (*add)(void *k, const char *cand), void *k);

/* cmd_out.c: where output goes. Logging (set logging) copies stdout and stderr to a file, or
 * sends them only there (redirect); the pager stops interactive output after each page (set
 * height, set pagination). */
int cmd_out_log_start(cmd_ctx *c);       /* 0, or -1 (message printed; logging stays off) */
void cmd_out_log_stop(cmd_ctx *c);
/* Interactive sessions: a new command starts a fresh page; the pager is on while the terminal
 * is stdout. on=0 at the end of the session. */
void cmd_out_pager(cmd_ctx *c, int on);
void cmd_out_new_command(void);
/* The terminal's stdout (not the log): for readline. */
FILE *cmd_out_terminal(void);
/* on: drop everything printed (nested: count) until off; replaying a setup log. */
void cmd_out_quiet(int on);
/* on: a program's session gives the streams back while the program runs (its output is not
 * the debugger's: not logged or paged); off: at a stop, logging and paging apply again. */
void cmd_out_hold(int on);
/* Ask a yes/no question on the terminal (confirm): 1 yes. Non-interactive sessions, -batch and
 * "set confirm off": 1 without asking. */
int cmd_confirm(cmd_ctx *c, const char *question);
/* Before launch/run/start/quit end a live kernel: ask (cmd_confirm); 0 go on, -1 refused
 * ("Not confirmed." printed). `question` ends the message ("Quit anyway?"). */
int cmd_confirm_kill(cmd_ctx *c, const char *question);

/* cmd_check.c: the checkers (findings as stops and reports, set/show check, info checks) */
void cmd_check_init(cmd_ctx *c);
void cmd_check_report_stop(cmd_ctx *c, const dbg_event *ev);
int cmd_check_set(cmd_ctx *c, const char *name, const char *value);
void cmd_check_get(cmd_ctx *c, const char *name, char *out, size_t n);
int cmd_info_checks(cmd_ctx *c, const char *args, int argc, char **argv);
/* The end of a session: leak and error summaries, the JSON report (set check report). */
void cmd_check_finish(cmd_ctx *c);
/* cmd_corecheck.c: with PTXDBG_CORE_CHECK set, every stop is saved as a core, reopened in a
 * scratch session and compared (focus, backtrace, info cuda threads, every frame's args and
 * locals); a difference is an error. */
int cmd_corecheck_on(void);
void cmd_corecheck(cmd_ctx *c);

/* cmd_core.c: postmortem (trap/exception reports, core files, info trap) */
/* After a fault was reported: the automatic core file, when on (set auto-core). */
void cmd_core_auto_save(cmd_ctx *c);
void cmd_core_report_stop(cmd_ctx *c, const dbg_event *ev);
/* Refuse an execution command when nothing can run (trapped launch, core file): -1. */
int cmd_core_guard(cmd_ctx *c, const struct cmd_def *d);
/* Open a core file in the session and print what it shows. */
int cmd_core_open(cmd_ctx *c, const char *path);
int cmd_generate_core(cmd_ctx *c, const char *args, int argc, char **argv);
int cmd_core_file(cmd_ctx *c, const char *args, int argc, char **argv);
int cmd_target(cmd_ctx *c, const char *args, int argc, char **argv);
int cmd_info_trap(cmd_ctx *c, const char *args, int argc, char **argv);
int cmd_set_auto_core(cmd_ctx *c, const char *args, int argc, char **argv);
int cmd_auto_core_state(void);        /* 1 when a trap or fault writes a core file */

/* The watchdog of -batch mode: `set max-steps` starts at this many warp-instructions (2^32)
 * per launch/continue/run, or at $PTXDBG_MAX_STEPS when that is set; interactive sessions
 * start unlimited (Ctrl-C stops a runaway kernel). 2^32 lets a legitimate heavy kernel run
 * (about 10^11 thread-instructions) and still ends a hung batch run: one spinning warp reaches
 * it in a minute or two. Counting instructions, not seconds, keeps stops deterministic. */
#define CMD_BATCH_MAX_STEPS 4294967296ull

#endif
