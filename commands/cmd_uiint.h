/* cmd_uiint.h - the output model's state, shared by cmd_ui.c, cmd_uitext.c and cmd_uirun.c. */
#ifndef CMD_UIINT_H
#define CMD_UIINT_H

#include <stdio.h>
#include "cmd_ui.h"

#define UI_DEPTH 16
#define UI_COLS 16
struct cmd_ui {
    int json;                 /* the backend: 1 JSON, 0 text */
    int held;                 /* cmd_ui_hold: fields are dropped */
    /* the table being written (text backend: its columns; both: its rows) */
    int table;                /* a table is open */
    int ncols, col, in_row, rows, headed;
    int cells_done;
    int rows_json;            /* the table's rows are JSON tuples (it has an id) */
    int gap;                  /* spaces between columns (1) */           /* text was written in the row: later fields are not cells */
    int width[UI_COLS], align[UI_COLS];
    char *header[UI_COLS];
    char *heading;            /* a heading given whole (cmd_ui_table_heading), else NULL */
    int no_heading;           /* a table shown without a heading (a listing) */
    int depth;                /* nested command lines inside the running top-level one */
    char *buf;                /* the running command's fields (",\"a\":1,...") */
    size_t len, cap;
    int level;                /* open tuples/lists inside buf */
    int first[UI_DEPTH];      /* no member yet at that level */
    char list[UI_DEPTH];      /* that level is a list [..] (else a tuple {..}) */
    int skip;                 /* opened tuples/lists dropped (unnamed in a tuple, too deep):
                                 their members are dropped with them */
    int out_fd;               /* the real stdout while a command's output is captured, else -1 */
    FILE *outm, *errm;        /* a command that renders only through the model runs uncaptured:
                                 its text and its messages/errors collect here */
    char *outb, *errb;
    size_t outn, errn;
    int passing;              /* a nested line checked by cmd_ui_execute, running now */
    unsigned long captures;   /* descriptor-level captures made (for tests) */
    int base_fd;              /* where objects go: 1, or in a CUDA program's session the
                                 pipe to the parent's `run` (PTXDBG_JSON_FD), which relays
                                 them with the program's output (cmd_prog.c) */
};

/* The session's model (made on first use: the text backend); NULL when out of memory. */
cmd_ui *cmd_ui_get(cmd_ctx *c);
/* Back to the text backend. */
void cmd_ui_totext(cmd_ui *u);
/* The growing JSON text of u: bytes, a C string, an RFC 8259 string of n bytes. */
void cmd_ui_put(cmd_ui *u, const char *s, size_t n);
void cmd_ui_puts(cmd_ui *u, const char *s);
void cmd_ui_putstr(cmd_ui *u, const char *s, size_t n);

#endif
