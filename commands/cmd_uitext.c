/* cmd_uitext.c - the output model's text backend: text, typed fields, tables with columns. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_uiint.h"

/* ---- the model's text and fields -------------------------------------------------------- */
/* Where the model's text goes: stdout (so logging and the pager apply), or in JSON mode while
 * a command runs uncaptured, the command's own buffer (its "output"); text held for the
 * debugger's own use (cmd_ui_hold: the core check's views) goes to stdout, where its caller
 * collects it. */
static FILE *sink(const cmd_ui *u)
{
    return u && u->json && u->depth && u->outm && !u->held ? u->outm : stdout;
}

static void out_text(const cmd_ui *u, const char *s, size_t n) { fwrite(s, 1, n, sink(u)); }

static void pad(FILE *f, int k)
{
    static const char sp[] = "                                ";
    while (k > 0) {
        int m = k < (int)sizeof sp - 1 ? k : (int)sizeof sp - 1;
        fwrite(sp, 1, (size_t)m, f);
        k -= m;
    }
}

/* One cell at column col of a row: the gap, then the text padded to the width. */
static void cell(FILE *f, int col, int gap, int width, int align, const char *s)
{
    size_t n = strlen(s);
    if (col > 0)
        pad(f, gap);
    int k = width > (int)n ? width - (int)n : 0;
    if (align == CMD_UI_RIGHT)
        pad(f, k);
    fwrite(s, 1, n, f);
    if (align != CMD_UI_RIGHT)
        pad(f, k);
}

void cmd_ui_render_row(char *out, size_t n, int ncols, const int *width, const int *align,
                       const char *const *cells)
{
    char *b = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&b, &len);
    if (!m) {
        if (n)
            out[0] = 0;
        return;
    }
    for (int i = 0; i < ncols; i++)
        cell(m, i, 1, width[i], align[i], cells[i]);
    fputc('\n', m);
    fclose(m);
    snprintf(out, n, "%s", b ? b : "");
    free(b);
}

/* The table's heading, once, before its first row or text. */
static void heading(cmd_ui *u)
{
    if (!u || !u->table || u->headed)
        return;
    u->headed = 1;
    if (u->no_heading)
        return;
    if (u->heading) {
        out_text(u, u->heading, strlen(u->heading));
        out_text(u, "\n", 1);
        return;
    }
    for (int i = 0; i < u->ncols; i++)
        cell(sink(u), i, u->gap, u->width[i], u->align[i], u->header[i] ? u->header[i] : "");
    out_text(u, "\n", 1);
}

void cmd_ui_text(cmd_ctx *c, const char *s)
{
    heading(c->ui);
    if (c->ui && c->ui->in_row)
        c->ui->cells_done = 1;
    out_text(c->ui, s, strlen(s));
}

void cmd_ui_textf(cmd_ctx *c, const char *fmt, ...)
{
    char b[1024], *big = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof b) {
        big = malloc((size_t)n + 1);
        if (big) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
        }
    }
    cmd_ui_text(c, big ? big : b);
    free(big);
}

/* The text of a field: the next cell of a row, else as it is. */
static void field_text(cmd_ctx *c, const char *s)
{
    cmd_ui *u = c->ui;
    if (u && u->table && u->in_row && !u->cells_done) {
        int i = u->col++;
        int w = i < u->ncols ? u->width[i] : 0, a = i < u->ncols ? u->align[i] : CMD_UI_LEFT;
        cell(sink(u), i, u->gap, w, a, s);
        return;
    }
    cmd_ui_text(c, s);
}

void cmd_ui_cell(cmd_ctx *c, const char *text) { field_text(c, text); }

void cmd_ui_field_str(cmd_ctx *c, const char *name, const char *v)
{
    field_text(c, v ? v : "");
    cmd_ui_str(c, name, v);
}

void cmd_ui_field_fmt(cmd_ctx *c, const char *name, const char *fmt, ...)
{
    char b[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    cmd_ui_field_str(c, name, b);
}

void cmd_ui_field_int(cmd_ctx *c, const char *name, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    field_text(c, b);
    cmd_ui_int(c, name, v);
}

void cmd_ui_field_uint(cmd_ctx *c, const char *name, unsigned long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%llu", v);
    field_text(c, b);
    cmd_ui_uint(c, name, v);
}

void cmd_ui_field_addr(cmd_ctx *c, const char *name, unsigned long long v)
{
    char b[32];
    snprintf(b, sizeof b, "0x%llx", v);
    field_text(c, b);
    cmd_ui_str(c, name, b);
}

void cmd_ui_field_hex(cmd_ctx *c, const char *name, unsigned long long v, int digits)
{
    char b[40];
    snprintf(b, sizeof b, "0x%0*llx", digits, v);
    field_text(c, b);
    cmd_ui_uint(c, name, v);
}

void cmd_ui_field_bool(cmd_ctx *c, const char *name, int v, const char *yes, const char *no)
{
    field_text(c, v ? yes : no);
    cmd_ui_bool(c, name, v);
}

/* ---- tables ------------------------------------------------------------------------------ */
void cmd_ui_table_begin(cmd_ctx *c, const char *id)
{
    cmd_ui *u = cmd_ui_get(c);
    if (!u)
        return;
    for (int i = 0; i < UI_COLS; i++) {
        free(u->header[i]);
        u->header[i] = NULL;
    }
    free(u->heading);
    u->heading = NULL;
    u->table = 1;
    u->ncols = u->col = u->in_row = u->rows = u->headed = u->no_heading = 0;
    u->rows_json = id != NULL;
    u->gap = 1;
    if (id)
        cmd_ui_open(c, id, 1);
}

void cmd_ui_table_col(cmd_ctx *c, int width, int align, const char *header)
{
    cmd_ui *u = c->ui;
    if (!u || !u->table || u->ncols >= UI_COLS)
        return;
    u->width[u->ncols] = width;
    u->align[u->ncols] = align;
    u->header[u->ncols] = strdup(header ? header : "");
    u->ncols++;
}

void cmd_ui_table_gap(cmd_ctx *c, int gap)
{
    if (c->ui && c->ui->table && gap >= 0)
        c->ui->gap = gap;
}

void cmd_ui_table_heading(cmd_ctx *c, const char *line)
{
    cmd_ui *u = c->ui;
    if (!u || !u->table)
        return;
    free(u->heading);
    u->heading = strdup(line ? line : "");
    u->no_heading = !line;
}

void cmd_ui_row_begin(cmd_ctx *c)
{
    cmd_ui *u = c->ui;
    if (!u || !u->table)
        return;
    heading(u);
    u->in_row = 1;
    u->cells_done = 0;
    u->col = 0;
    u->rows++;
    if (u->rows_json)
        cmd_ui_open(c, NULL, 0);
}

void cmd_ui_row_end(cmd_ctx *c)
{
    cmd_ui *u = c->ui;
    if (!u || !u->table || !u->in_row)
        return;
    u->in_row = 0;
    out_text(u, "\n", 1);
    if (u->rows_json)
        cmd_ui_close(c);
}

int cmd_ui_table_end(cmd_ctx *c)
{
    cmd_ui *u = c->ui;
    if (!u || !u->table)
        return 0;
    if (u->in_row)
        cmd_ui_row_end(c);
    u->table = 0;
    if (u->rows_json)
        cmd_ui_close(c);
    return u->rows;
}

