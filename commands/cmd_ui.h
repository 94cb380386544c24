/* cmd_ui.h - the output model: commands give values, rows and messages to a text or JSON backend. */
#ifndef CMD_UI_H
#define CMD_UI_H

#include "cmd.h"

/* The model (gdb's ui_out): a command's result is a tuple of named fields, which may hold
 * tuples and lists (rows). The TEXT backend is the commands' own text (what they print is
 * today's output, byte for byte), so the field calls are no-ops there; the JSON backend
 * collects the fields into the command's result object, and the text a command printed goes
 * in its "output" field, so nothing is dropped. The backend lives in the command context
 * (c->ui; NULL: text). docs/JSON.md is the schema. */
typedef struct cmd_ui cmd_ui;

/* set output json|text (0, or -1 with the message printed), and the current name. */
int cmd_ui_set(cmd_ctx *c, const char *mode);
const char *cmd_ui_mode(const cmd_ctx *c);
int cmd_ui_json(const cmd_ctx *c);
void cmd_ui_free(cmd_ctx *c);

/* Fields of the running command's result (name NULL inside a list). */
void cmd_ui_str(cmd_ctx *c, const char *name, const char *v);
void cmd_ui_int(cmd_ctx *c, const char *name, long long v);
void cmd_ui_bool(cmd_ctx *c, const char *name, int v);
void cmd_ui_uint(cmd_ctx *c, const char *name, unsigned long long v);
/* A JSON text written as the field's value as it is (a finding from chk_write_json). */
void cmd_ui_raw(cmd_ctx *c, const char *name, const char *json, size_t n);
void cmd_ui_open(cmd_ctx *c, const char *name, int list);   /* a tuple {..} or list [..] */
void cmd_ui_close(cmd_ctx *c);

/* A printed value: "value" (as printed), "type", "history" (N of $N; omitted when 0). */
void cmd_ui_value(cmd_ctx *c, const dbg_value *v, const char *text, int hist);

/* Rows (cmd_uirows.c): "breakpoints" (nums: the numbers asked for, none: all), "frames" of
 * the focused lane (levels first..last-1), "warps" in flight, "lanes" of the focused warp or
 * (threads 1) "threads": the live lanes of the warps in flight. */
void cmd_ui_breakpoints(cmd_ctx *c, const long *nums, int nnums);
void cmd_ui_frames(cmd_ctx *c, int first, int last);
void cmd_ui_warps(cmd_ctx *c);
void cmd_ui_lanes(cmd_ctx *c, int threads);
/* info locals/args: one {"name", "value"} of the open "variables" list. */
void cmd_ui_var(cmd_ctx *c, const char *name, const char *value);
/* info registers: "registers": [{"name", "type", "hex", "value"}] (unreadable ones left out). */
void cmd_ui_registers(cmd_ctx *c, const dbg_reg_row *rows, int n);
/* x: "space", "address" (hex string), "unit_bytes", then opens the "values" list (the units as
 * printed; the caller adds them and closes it). */
void cmd_ui_memory(cmd_ctx *c, ptx_space space, uint64_t addr, int unit_bytes);

/* Run one top-level command line in JSON mode: its stdout and stderr are captured, then one
 * object is written: {"command","ok",fields...,"output"} or {"command","ok":false,"error"}.
 * Nested lines (user commands, scripts) belong to the outer line's object. */
/* JSON mode and no line running: the next line gets its own object. */
int cmd_ui_top(const cmd_ctx *c);
int cmd_ui_execute(cmd_ctx *c, const char *line, int (*run)(cmd_ctx *, const char *));
/* A stop reported by the engine: {"event":"stop",...} on its own line (JSON mode only). */
void cmd_ui_stop(cmd_ctx *c, const dbg_event *ev);

/* An event object (one line, newline added) on the real stdout, also while a command's output
 * is captured. */
void cmd_ui_event(cmd_ctx *c, const char *json, size_t n);
/* A CUDA program's own output as it is written (JSON mode's `run`, cmd_prog.c):
 * {"event":"output","category":"stdout"|"stderr","text":...}. */
void cmd_ui_output(cmd_ctx *c, const char *category, const char *text, size_t n);
/* Run fn outside any command with its stdout and stderr text captured, then written as an
 * output object of category "console" (the debugger's text, not the program's: a CUDA
 * program's session reporting the stop a launch ran to). Text mode, or inside a command: fn
 * alone. */
int cmd_ui_console(cmd_ctx *c, int (*fn)(cmd_ctx *c));
/* Findings: a finding that does not stop as {"event":"finding","finding":{...}}; info checks'
 * "checkers" and "findings" rows. */
void cmd_ui_finding(cmd_ctx *c, const chk_finding *f);
void cmd_ui_checks(cmd_ctx *c);

/* RFC 8259 string (quotes included) of s into a growing buffer. */
void cmd_ui_escape(char **buf, size_t *len, size_t *cap, const char *s, size_t n);

#endif
