/* cmd_ui.h - the output model: commands give values, rows and messages to a text or JSON backend. */
#ifndef CMD_UI_H
#define CMD_UI_H

#include <stdarg.h>
#include "cmd.h"

/* The model (gdb's ui_out): a command renders its result once, as text, typed fields, tuples,
 * lists, tables and messages (below); the TEXT backend (cmd_uitext.c) writes the text as the
 * commands always printed it, byte for byte; the JSON backend (cmd_ui.c, cmd_uirun.c) collects
 * the same calls as the fields of the command's result object and keeps the text in its
 * "output". The model lives in the command context (c->ui, made on first use), never in a
 * global. docs/JSON.md is the schema. */
typedef struct cmd_ui cmd_ui;

/* set output json|text (0, or -1 with the message printed), and the current name. */
int cmd_ui_set(cmd_ctx *c, const char *mode);
const char *cmd_ui_mode(const cmd_ctx *c);
int cmd_ui_json(const cmd_ctx *c);
void cmd_ui_free(cmd_ctx *c);
/* hold 1: commands run for the debugger's own use (the core check's views) render text only,
 * their fields kept out of the running command's object; hold 0 ends it. */
void cmd_ui_hold(cmd_ctx *c, int hold);

/* Data: fields of the running command's JSON result only (name NULL inside a list). */
void cmd_ui_str(cmd_ctx *c, const char *name, const char *v);
void cmd_ui_int(cmd_ctx *c, const char *name, long long v);
void cmd_ui_bool(cmd_ctx *c, const char *name, int v);
void cmd_ui_uint(cmd_ctx *c, const char *name, unsigned long long v);
/* A JSON text written as the field's value as it is (a finding from chk_write_json). */
void cmd_ui_raw(cmd_ctx *c, const char *name, const char *json, size_t n);
void cmd_ui_open(cmd_ctx *c, const char *name, int list);   /* a tuple {..} or list [..] */
void cmd_ui_close(cmd_ctx *c);

/* ---- the model: what a command shows -----------------------------------------------------
 * A command renders its result once through these calls. The TEXT backend writes the text
 * (to stdout, so logging and the pager apply): fields as their text, table cells padded to
 * their column; the JSON backend adds the named fields to the command's result object (and the
 * text still goes to its "output"). The calls above (cmd_ui_str ... cmd_ui_close) are data:
 * JSON only. Text-only pieces (labels, punctuation, group lines) go through cmd_ui_text. */
void cmd_ui_text(cmd_ctx *c, const char *s);
void cmd_ui_textf(cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fields: JSON name:value (name NULL inside a list; JSON-less when the backend is text), text
 * the value; in a table row each fills the next column. */
void cmd_ui_field_str(cmd_ctx *c, const char *name, const char *v);
void cmd_ui_field_fmt(cmd_ctx *c, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cmd_ui_field_int(cmd_ctx *c, const char *name, long long v);
void cmd_ui_field_uint(cmd_ctx *c, const char *name, unsigned long long v);
/* An address: "0x..." (JSON: that string, beyond what a JSON number holds exactly). */
void cmd_ui_field_addr(cmd_ctx *c, const char *name, unsigned long long v);
/* A mask or a number shown in hex: text 0x with digits digits (0: as needed); JSON a number. */
void cmd_ui_field_hex(cmd_ctx *c, const char *name, unsigned long long v, int digits);
/* A flag: text yes/no ("y"/"n", the focus mark "*"/" "); JSON true/false. */
void cmd_ui_field_bool(cmd_ctx *c, const char *name, int v, const char *yes, const char *no);
/* A cell of text only (a table row's column that has no JSON field). */
void cmd_ui_cell(cmd_ctx *c, const char *text);

/* Tables (gdb's ui_out tables): id names the JSON list of rows (NULL: the rows are text only); columns are declared with their
 * width (0: not padded, the last column) and alignment, separated by one space; the heading is
 * written before the first row or text inside the table (none for an empty table), built from
 * the column headers or, for tables whose heading is not aligned with its columns, given whole
 * (NULL: none, a listing).
 * A row is a JSON tuple; text inside the table (group lines) is text only. */
enum { CMD_UI_LEFT, CMD_UI_RIGHT };
void cmd_ui_table_begin(cmd_ctx *c, const char *id);
void cmd_ui_table_col(cmd_ctx *c, int width, int align, const char *header);
void cmd_ui_table_heading(cmd_ctx *c, const char *line);
/* Spaces between the columns (1 unless set; 0: the widths alone separate them). */
void cmd_ui_table_gap(cmd_ctx *c, int gap);
void cmd_ui_row_begin(cmd_ctx *c);
void cmd_ui_row_end(cmd_ctx *c);
/* The rows written. */
int cmd_ui_table_end(cmd_ctx *c);
/* The text of a table's heading or row as the text backend writes it (for tests: cells,
 * widths, alignments; n columns). */
void cmd_ui_render_row(char *out, size_t n, int ncols, const int *width, const int *align,
                       const char *const *cells);

/* Messages: a warning or note (stderr; JSON: the result's "messages"); an error's text
 * (cmd_error: 1 when the model took it, the JSON result's "error"). */
void cmd_ui_message(cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cmd_ui_errorv(cmd_ctx *c, const char *fmt, va_list ap);

/* A printed value: its text; JSON "value" (as printed), "type", "history" (N of $N; omitted
 * when 0). */
void cmd_ui_value(cmd_ctx *c, const dbg_value *v, const char *text, int hist);


/* Run one top-level command line in JSON mode: its stdout and stderr are captured, then one
 * object is written: {"command","ok",fields...,"output"} or {"command","ok":false,"error"}.
 * Nested lines (user commands, scripts) belong to the outer line's object. */
/* JSON mode and no line running: the next line gets its own object. */
int cmd_ui_top(const cmd_ctx *c);
/* A line nested in a command that runs uncaptured (a breakpoint's commands, a display): it goes
 * through cmd_ui_execute too, which captures it when it does not render only through the
 * model. */
int cmd_ui_nested(cmd_ctx *c);
/* How many times the session's output was captured at the descriptor level (dup2): tests. */
unsigned long cmd_ui_captures(const cmd_ctx *c);
int cmd_ui_execute(cmd_ctx *c, const char *line, int (*run)(cmd_ctx *, const char *));
/* A stop reported by the engine: {"event":"stop",...} on its own line (JSON mode only). */
void cmd_ui_stop(cmd_ctx *c, const dbg_event *ev);

/* An event object (one line, newline added) on the real stdout, also while a command's output
 * is captured. */
void cmd_ui_event(cmd_ctx *c, const char *json, size_t n);
/* A CUDA program's own output as it is written (JSON mode's `run`, cmd_prog.c):
 * {"event":"output","category":"stdout"|"stderr","text":...}. */
void cmd_ui_output(cmd_ctx *c, const char *category, const char *text, size_t n);
/* The session's kernel printf goes through the model (dbg_set_output): text mode, stdout as
 * before; JSON mode, {"event":"output","category":"stdout","text":...} as it is written, and
 * the running command's "output" too. -1 when out of memory (stdout stays). */
int cmd_ui_attach_output(cmd_ctx *c);
/* Run fn outside any command with its stdout and stderr text captured, then written as an
 * output object of category "console" (the debugger's text, not the program's: a CUDA
 * program's session reporting the stop a launch ran to). Text mode, or inside a command: fn
 * alone. */
int cmd_ui_console(cmd_ctx *c, int (*fn)(cmd_ctx *c));
/* Findings: a finding that does not stop as {"event":"finding","finding":{...}}; a finding
 * object as the next member of the open list (info checks' "findings"). */
void cmd_ui_finding(cmd_ctx *c, const chk_finding *f);
void cmd_ui_finding_data(cmd_ctx *c, const chk_finding *f);

/* RFC 8259 string (quotes included) of s into a growing buffer. */
void cmd_ui_escape(char **buf, size_t *len, size_t *cap, const char *s, size_t n);

#endif
