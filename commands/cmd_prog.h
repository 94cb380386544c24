/* cmd_prog.h - debugging a CUDA program: the parent's `run` (cmd_prog.c), the session inside it (cmd_inproc.c). */
#ifndef CMD_PROG_H
#define CMD_PROG_H

#include "cmd.h"

/* ---- the parent: ptxdbg holding the program ----------------------------------------------------- */
/* Whether path is an executable (ELF) rather than a PTX file. */
int cmd_is_executable(const char *path);
/* The program to debug and its arguments (copied). */
int cmd_prog_set(cmd_ctx *c, const char *path, char **args, int nargs);
void cmd_prog_free(cmd_ctx *c);
const char *cmd_prog_path(const cmd_ctx *c);
/* `run [ARGS]`: start the program under the session; returns when it has exited (reported as
 * gdb does) or was killed. */
int cmd_prog_run(cmd_ctx *c, int argc, char **argv);
/* `start [ARGS]`: the same, stopping at the entry of the first kernel it launches. */
int cmd_prog_start(cmd_ctx *c, int argc, char **argv);
/* After a command succeeded: keep it in the setup log when it changed session state. */
void cmd_prog_record(cmd_ctx *c, const struct cmd_def *d, const char *line, const char *args);
/* A change of session state that no typed line makes (a tbreak deleted by its stop, `enable
 * once` disabling, what `clear` deleted): the line that makes it, for the setup log. */
void cmd_prog_note(cmd_ctx *c, const char *line);
/* cmd_state.c: breakpoint counters, value history and convenience variables as lines of the
 * session folder ("bp ...", "hist ...", "conv ..."); reading applies the lines it knows (the
 * values only when `values`). */
int cmd_state_write(cmd_ctx *c, FILE *f);
void cmd_state_read(cmd_ctx *c, const char *text, int values);
/* Replay setup-log lines in the session with nothing printed (a program's session at its
 * start, the parent after the program ended with the lines typed at its stops). */
void cmd_prog_replay(cmd_ctx *c, const char *text);
/* The folder holding libcudart.so.13 (0), or where it was expected (-1). */
int cmd_prog_libdir(char *out, size_t n);
/* A file of the session folder: write / read whole (NUL-terminated, NULL when unreadable). */
int cmd_prog_file_write(const char *dir, const char *name, const char *text, size_t n);
char *cmd_prog_file_read(const char *dir, const char *name, size_t *len);
/* The setup log (lines). */
const char *cmd_prog_log(const cmd_ctx *c, size_t *len);
void cmd_prog_set_log(cmd_ctx *c, const char *text, size_t len);

/* ---- inside the program (the runtime library calls these) ------------------------------------------ */
/* Start the session PTXDBG_SESSION names, once: 1 debugging, 0 not asked to, -1 failed (said on
 * stderr; the program then runs plainly). */
int cmd_inproc_start(void);
/* Run a launch the runtime started on machine m of module mod (exec_launch done) under the
 * session: stops, the user's commands, until the kernel completes or faulted and the user goes
 * on. id: the process-wide kernel number; dir: where the sources are. *out: the final stop;
 * *reported: the fault was shown. 0, or -1 when it could not run. */
int cmd_inproc_launch(ptx_module *mod, exec_machine *m, const char *dir, const ptx_func *k,
                      uint32_t id, exec_stop *out, int *reported);
/* The runtime is about to free mod. */
void cmd_inproc_forget(const ptx_module *mod);
/* Kernels run on the runtime's stream threads while host threads go on: the runtime's hook
 * around every exec_run of the session (dbg_set_run_hook), and the session's interrupt flag
 * raised for it (a kernel the runtime needs to park), as Ctrl-C would. */
void cmd_inproc_set_run_hook(dbg_run_hook fn, void *ctx);
void cmd_inproc_interrupt(void);
/* run / start (entry = 1) / kill / quit typed at a stop inside the program. */
int cmd_inproc_rerun(cmd_ctx *c, int argc, char **argv, int entry);
int cmd_inproc_kill(cmd_ctx *c);
int cmd_inproc_quit(cmd_ctx *c);
/* `continue` after a kernel fault: the program goes on with the sticky error. */
int cmd_inproc_leave(cmd_ctx *c);
/* The session's checkers (NULL when not debugging), and the function that lists the program's
 * allocations still live for the leak check at exit (set check leaks). */
chk_ctx *cmd_inproc_checks(void);
void cmd_inproc_set_leak_lister(void (*fn)(chk_ctx *k));

#endif
