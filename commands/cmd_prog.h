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

/* ---- inside the program ---------------------------------------------------------------------------- */
/* The session inside a CUDA program is an in-process front end (debugger/include/dbg_frontend.h):
 * cmd_inproc.c registers its hooks ("cli") with the engine, and the runtime library calls only
 * through them. What the commands typed at a stop there call: */
/* run / start (entry = 1) / kill / quit typed at a stop inside the program. */
int cmd_inproc_rerun(cmd_ctx *c, int argc, char **argv, int entry);
int cmd_inproc_kill(cmd_ctx *c);
int cmd_inproc_quit(cmd_ctx *c);
/* `continue` after a kernel fault: the program goes on with the sticky error. */
int cmd_inproc_leave(cmd_ctx *c);

#endif
