/* cmd_ui.c - the output model's JSON backend: result objects, stop events, string escaping. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "cmd_ui.h"
#include "chk.h"

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
    int base_fd;              /* where objects go: 1, or in a CUDA program's session the
                                 debugger's stdout inherited from the parent (PTXDBG_JSON_FD) */
};

static void put(cmd_ui *u, const char *s, size_t n)
{
    if (u->len + n + 1 > u->cap) {
        size_t cap = u->cap ? u->cap : 256;
        while (u->len + n + 1 > cap)
            cap *= 2;
        char *b = realloc(u->buf, cap);
        if (!b)
            return;
        u->buf = b;
        u->cap = cap;
    }
    memcpy(u->buf + u->len, s, n);
    u->len += n;
    u->buf[u->len] = 0;
}

static void puts_(cmd_ui *u, const char *s) { put(u, s, strlen(s)); }

/* The length of a valid UTF-8 sequence at p (at most n bytes), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t k = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (!k || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if (k == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0)))
        return 0;             /* overlong, surrogate */
    if (k == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
        return 0;             /* overlong, beyond U+10FFFF */
    return k;
}

void cmd_ui_escape(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    cmd_ui u = {.buf = *buf, .len = *len, .cap = *cap};
    put(&u, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned ch = p[i];
        char esc[8];
        if (ch == '"' || ch == '\\') {
            esc[0] = '\\';
            esc[1] = (char)ch;
            put(&u, esc, 2);
        } else if (ch == '\n') {
            put(&u, "\\n", 2);
        } else if (ch == '\t') {
            put(&u, "\\t", 2);
        } else if (ch == '\r') {
            put(&u, "\\r", 2);
        } else if (ch < 0x20 || ch == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", ch);
            put(&u, esc, 6);
        } else if (ch < 0x80) {
            put(&u, (const char *)p + i, 1);
        } else {
            size_t k = utf8_len(p + i, n - i);
            if (!k) {         /* invalid UTF-8: U+FFFD, one byte consumed */
                put(&u, "\xef\xbf\xbd", 3);
                i++;
                continue;
            }
            put(&u, (const char *)p + i, k);
            i += k;
            continue;
        }
        i++;
    }
    put(&u, "\"", 1);
    *buf = u.buf;
    *len = u.len;
    *cap = u.cap;
}

static void put_str(cmd_ui *u, const char *s, size_t n)
{
    cmd_ui_escape(&u->buf, &u->len, &u->cap, s, n);
}

/* ---- the mode ---------------------------------------------------------------------------- */
int cmd_ui_json(const cmd_ctx *c) { return c->ui && c->ui->json; }
int cmd_ui_top(const cmd_ctx *c)
{
    return cmd_ui_json(c) && !c->ui->depth && !c->ui->held && !c->replaying;
}
const char *cmd_ui_mode(const cmd_ctx *c) { return cmd_ui_json(c) ? "json" : "text"; }

/* The session's model (made on first use: the text backend). */
static cmd_ui *model(cmd_ctx *c)
{
    if (!c->ui) {
        c->ui = calloc(1, sizeof *c->ui);
        if (c->ui) {
            c->ui->out_fd = -1;
            c->ui->base_fd = 1;
        }
    }
    return c->ui;
}

static void to_text(cmd_ui *u)
{
    u->json = 0;
    u->level = 0;
    u->depth = 0;
    u->len = 0;
}

int cmd_ui_set(cmd_ctx *c, const char *mode)
{
    if (!strcmp(mode, "text")) {
        if (cmd_ui_json(c) && c->ui->depth)
            c->ui->level = -1; /* the running line's object is still written; then text */
        else if (c->ui)
            to_text(c->ui);
        return 0;
    }
    if (strcmp(mode, "json") != 0)
        return cmd_error(c, "Undefined item: \"%s\".", mode);
    if (!cmd_ui_json(c)) {
        if (!model(c))
            return cmd_error(c, "out of memory");
        c->ui->json = 1;
        c->ui->out_fd = -1;
        c->ui->base_fd = 1;
        /* a CUDA program's session: the parent's stdout, while the parent's `run` captures
           the program's own output */
        const char *e = getenv("PTXDBG_JSON_FD");
        char *end;
        long fd = e ? strtol(e, &end, 10) : -1;
        if (e && *e && !*end && fd > 2 && fd < 65536 && fcntl((int)fd, F_GETFD) >= 0)
            c->ui->base_fd = (int)fd;
    }
    return 0;
}

void cmd_ui_hold(cmd_ctx *c, int hold)
{
    if (c->ui)
        c->ui->held += hold ? 1 : -1;
}

void cmd_ui_free(cmd_ctx *c)
{
    if (!c->ui)
        return;
    for (int i = 0; i < UI_COLS; i++)
        free(c->ui->header[i]);
    free(c->ui->heading);
    free(c->ui->buf);
    free(c->ui);
    c->ui = NULL;
}

/* ---- fields ------------------------------------------------------------------------------ */
static cmd_ui *field(cmd_ctx *c, const char *name)
{
    cmd_ui *u = c->ui;
    if (!u || !u->json || u->held || u->level < 0 || !u->depth || u->skip)
        return NULL;
    int in_list = u->level > 0 && u->list[u->level];
    if (!in_list && !name)
        return NULL;          /* a tuple's member needs a name: dropped, the JSON stays valid */
    if (in_list)
        name = NULL;          /* a list's members are values */
    if (u->level > 0) {
        if (!u->first[u->level])
            puts_(u, ",");
        u->first[u->level] = 0;
    } else {
        puts_(u, ",");
    }
    if (name) {
        put_str(u, name, strlen(name));
        puts_(u, ":");
    }
    return u;
}

void cmd_ui_str(cmd_ctx *c, const char *name, const char *v)
{
    cmd_ui *u = field(c, name);
    if (u)
        put_str(u, v ? v : "", v ? strlen(v) : 0);
}

void cmd_ui_int(cmd_ctx *c, const char *name, long long v)
{
    cmd_ui *u = field(c, name);
    char b[32];
    if (u) {
        snprintf(b, sizeof b, "%lld", v);
        puts_(u, b);
    }
}

void cmd_ui_bool(cmd_ctx *c, const char *name, int v)
{
    cmd_ui *u = field(c, name);
    if (u)
        puts_(u, v ? "true" : "false");
}

void cmd_ui_uint(cmd_ctx *c, const char *name, unsigned long long v)
{
    cmd_ui *u = field(c, name);
    char b[32];
    if (u) {
        snprintf(b, sizeof b, "%llu", v);
        puts_(u, b);
    }
}

void cmd_ui_raw(cmd_ctx *c, const char *name, const char *json, size_t n)
{
    cmd_ui *u = field(c, name);
    if (u)
        put(u, json, n);
}

void cmd_ui_open(cmd_ctx *c, const char *name, int list)
{
    cmd_ui *u = c->ui;
    if (!u || !u->json || u->held || u->level < 0 || !u->depth)
        return;
    if (u->level + 1 >= UI_DEPTH || !field(c, name)) {
        u->skip++;
        return;
    }
    puts_(u, list ? "[" : "{");
    u->level++;
    u->first[u->level] = 1;
    u->list[u->level] = (char)(list != 0);
}

void cmd_ui_close(cmd_ctx *c)
{
    cmd_ui *u = c->ui;
    if (!u || !u->json || u->held || u->level < 0 || !u->depth)
        return;
    if (u->skip) {
        u->skip--;
        return;
    }
    if (u->level <= 0)
        return;
    puts_(u, u->list[u->level] ? "]" : "}");
    u->level--;
}

void cmd_ui_value(cmd_ctx *c, const dbg_value *v, const char *text, int hist)
{
    cmd_ui_field_str(c, "value", text);
    if (!cmd_ui_json(c))
        return;
    dbg_value_info vi;
    dbg_value_describe(v, &vi);
    cmd_ui_str(c, "type", vi.type);
    if (hist > 0)
        cmd_ui_int(c, "history", hist);
}

/* ---- the model's text and fields -------------------------------------------------------- */
/* Where the model's text goes: stdout (so logging and the pager apply), or in JSON mode while
 * a command runs uncaptured, the command's own buffer (its "output"). */
static FILE *sink(const cmd_ui *u)
{
    return u && u->json && u->depth && u->outm ? u->outm : stdout;
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
    cmd_ui *u = model(c);
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

/* ---- result objects ---------------------------------------------------------------------- */
static void write_fd(int fd, const char *b, size_t n)
{
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w <= 0)
            return;
        b += w;
        n -= (size_t)w;
    }
}

static char *slurp(FILE *f, size_t *n)
{
    fflush(f);
    long end = ftell(f);
    *n = 0;
    if (end <= 0)
        return NULL;
    char *b = malloc((size_t)end + 1);
    if (!b)
        return NULL;
    rewind(f);
    *n = fread(b, 1, (size_t)end, f);
    b[*n] = 0;
    return b;
}

/* The command's result object on fd: its fields, its text ("output") and its stderr text
 * ("error" when it failed, else "messages"). */
static void write_result(cmd_ctx *c, const char *line, int rc, const char *ot, size_t on,
                         const char *et, size_t en, int fd)
{
    cmd_ui *u = c->ui;
    int back = u->level < 0;
    cmd_ui r = {0};
    put(&r, "{\"command\":", 11);
    cmd_ui_escape(&r.buf, &r.len, &r.cap, line, strlen(line));
    puts_(&r, rc == 0 ? ",\"ok\":true" : ",\"ok\":false");
    if (rc != 0) {
        size_t k = en;
        while (k && et[k - 1] == '\n')
            k--;
        puts_(&r, ",\"error\":");
        if (k)
            cmd_ui_escape(&r.buf, &r.len, &r.cap, et, k);
        else
            puts_(&r, "\"command failed\"");
    }
    if (u->buf && u->len)
        put(&r, u->buf, u->len);
    if (on) {
        puts_(&r, ",\"output\":");
        cmd_ui_escape(&r.buf, &r.len, &r.cap, ot, on);
    }
    if (rc == 0 && en) {      /* warnings and notes of a command that succeeded */
        puts_(&r, ",\"messages\":");
        cmd_ui_escape(&r.buf, &r.len, &r.cap, et, en);
    }
    puts_(&r, "}\n");
    write_fd(fd, r.buf, r.len);
    free(r.buf);
    if (back)
        to_text(u);
}

/* The commands whose every output (text, fields, errors, messages) goes through the model, so
 * they run without the capture. A command not listed, or a line that does not resolve to one
 * of these handlers (a user command, the PTX REPL, an error), runs captured. */
static const cmd_fn modelled_fns[] = {
    cmd_backtrace, cmd_info_breakpoints, cmd_info_warps, cmd_info_lanes, cmd_info_blocks,
    cmd_info_threads, cmd_info_kernels, cmd_info_sharedmem, cmd_print, cmd_output, cmd_call,
    cmd_x, cmd_list, cmd_disassemble, cmd_info_frame, cmd_info_functions, cmd_info_buffers,
    cmd_ptype, cmd_whatis, cmd_info_line, cmd_info_display, cmd_info_checks,
    cmd_info_registers, cmd_info_locals, cmd_info_args,
};

/* The next word of *p as the dispatcher reads a command name (letters, digits, '_', '-'). */
static size_t word_at(const char **p, char *w, size_t n)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    size_t k = 0;
    while (((**p >= 'a' && **p <= 'z') || (**p >= 'A' && **p <= 'Z') ||
            (**p >= '0' && **p <= '9') || **p == '_' || **p == '-') && k + 1 < n)
        w[k++] = *(*p)++;
    w[k] = 0;
    return k;
}

/* Whether line runs one of modelled_fns (as the dispatcher would resolve it). */
static int modelled(cmd_ctx *c, const char *line)
{
    char w[64], err[256];
    const char *p = line;
    if (!word_at(&p, w, sizeof w) || *p == '.' || cmd_user_find(c, w))
        return 0;
    const cmd_def *d = cmd_lookup(cmd_table, w, err, sizeof err);
    while (d && (d->fn == cmd_info || d->fn == cmd_info_cuda)) {
        if (!word_at(&p, w, sizeof w) || *p == '.')
            return 0;
        d = cmd_lookup(cmd_info_table, w, err, sizeof err);
    }
    if (!d || (*p && *p != ' ' && *p != '\t' && *p != '/'))
        return 0;
    for (size_t i = 0; i < sizeof modelled_fns / sizeof modelled_fns[0]; i++)
        if (d->fn == modelled_fns[i])
            return 1;
    return 0;
}

int cmd_ui_errorv(cmd_ctx *c, const char *fmt, va_list ap)
{
    cmd_ui *u = c->ui;
    if (!u || !u->json || !u->depth || !u->errm)
        return 0;
    vfprintf(u->errm, fmt, ap);
    fputc('\n', u->errm);
    return 1;
}

void cmd_ui_message(cmd_ctx *c, const char *fmt, ...)
{
    cmd_ui *u = c->ui;
    FILE *f = u && u->json && u->depth && u->errm ? u->errm : stderr;
    va_list ap;
    va_start(ap, fmt);
    if (f == stderr)
        fflush(stdout);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

/* A command rendering only through the model: nothing process-global changes while it runs;
 * its text and messages collect in the model's buffers. */
static int run_uncaptured(cmd_ctx *c, const char *line, int (*run)(cmd_ctx *, const char *))
{
    cmd_ui *u = c->ui;
    u->outb = u->errb = NULL;
    u->outn = u->errn = 0;
    u->outm = open_memstream(&u->outb, &u->outn);
    u->errm = open_memstream(&u->errb, &u->errn);
    if (!u->outm || !u->errm) {
        if (u->outm)
            fclose(u->outm);
        if (u->errm)
            fclose(u->errm);
        free(u->outb);
        free(u->errb);
        u->outm = u->errm = NULL;
        return -2;
    }
    u->depth = 1;
    u->len = 0;
    u->level = 0;
    u->skip = 0;
    put(u, "", 0);
    int rc = run(c, line);
    while (u->level > 0)
        cmd_ui_close(c);
    u->depth = 0;
    fclose(u->outm);
    fclose(u->errm);
    u->outm = u->errm = NULL;
    fflush(stdout);
    write_result(c, line, rc, u->outb ? u->outb : "", u->outn, u->errb ? u->errb : "", u->errn,
                 u->base_fd);
    free(u->outb);
    free(u->errb);
    u->outb = u->errb = NULL;
    return rc;
}

int cmd_ui_execute(cmd_ctx *c, const char *line, int (*run)(cmd_ctx *, const char *))
{
    cmd_ui *u = c->ui;
    if (!u || !u->json || u->depth)
        return run(c, line);
    /* a CUDA program's session keeps the capture (its `run` hands the fds on) */
    if (!c->prog && modelled(c, line)) {
        int rc = run_uncaptured(c, line, run);
        if (rc != -2)
            return rc;
    }
    FILE *fo = tmpfile(), *fe = tmpfile();
    fflush(stdout);
    fflush(stderr);
    int so = dup(u->base_fd), se = dup(2), s1 = dup(1);
    if (!fo || !fe || so < 0 || se < 0 || s1 < 0) {
        if (fo)
            fclose(fo);
        if (fe)
            fclose(fe);
        if (so >= 0)
            close(so);
        if (se >= 0)
            close(se);
        if (s1 >= 0)
            close(s1);
        return run(c, line);
    }
    dup2(fileno(fo), 1);
    dup2(fileno(fe), 2);
    u->depth = 1;
    u->len = 0;
    u->level = 0;
    u->skip = 0;
    u->out_fd = so;
    put(u, "", 0);
    char fdname[16];
    snprintf(fdname, sizeof fdname, "%d", so);
    if (c->prog)              /* the program's session writes its objects there (run) */
        setenv("PTXDBG_JSON_FD", fdname, 1);
    int rc = run(c, line);
    if (c->prog)
        unsetenv("PTXDBG_JSON_FD");
    fflush(stdout);
    fflush(stderr);
    dup2(s1, 1);
    dup2(se, 2);
    close(s1);
    close(se);
    u->out_fd = -1;
    while (u->level > 0)      /* a command that failed inside a list: the fields stay valid */
        cmd_ui_close(c);
    u->depth = 0;
    size_t on, en;
    char *ot = slurp(fo, &on), *et = slurp(fe, &en);
    fclose(fo);
    fclose(fe);
    if (!ot)
        on = 0;
    if (!et)
        en = 0;
    write_result(c, line, rc, ot, on, et, en, so);
    close(so);
    free(ot);
    free(et);
    return rc;
}

/* ---- stop events ------------------------------------------------------------------------- */
static const char *reason(const dbg_event *ev)
{
    switch (ev->kind) {
    case DBG_EV_EXITED: return "exited";
    case DBG_EV_BREAKPOINT: return "breakpoint";
    case DBG_EV_STEP: return "end-stepping-range";
    case DBG_EV_BRKPT: return "brkpt";
    case DBG_EV_TRAP: return "trap";
    case DBG_EV_ASSERT: return "assert";
    case DBG_EV_EXCEPTION: return "exception";
    case DBG_EV_WATCH: return "watchpoint";
    case DBG_EV_INTERRUPT: return "signal";
    case DBG_EV_LANE_EXITED: return "lane-exited";
    case DBG_EV_LIMIT: return "step-limit";
    case DBG_EV_ENTRY: return "entry";
    case DBG_EV_CHECK: return "finding";
    default: return "none";
    }
}

void cmd_ui_stop(cmd_ctx *c, const dbg_event *ev)
{
    if (!cmd_ui_json(c) || c->ui->level < 0)
        return;
    cmd_ui r = {0};
    char b[640];
    put(&r, "{\"event\":\"stop\",\"reason\":", 25);
    const char *rs = reason(ev);
    put_str(&r, rs, strlen(rs));
    if (ev->bp) {
        snprintf(b, sizeof b, ",\"breakpoint\":%d", ev->bp);
        puts_(&r, b);
    }
    const dbg_focus *f = dbg_get_focus(c->s);
    const exec_launch_info *li = dbg_launch_info(c->s);
    if (ev->kind == DBG_EV_EXITED) {
        snprintf(b, sizeof b, ",\"kernel\":%u", li ? li->launch_id : dbg_nlaunches(c->s) - 1);
        puts_(&r, b);
    } else if (f && f->valid) {
        exec_dim3 bl = dbg_focus_block(c->s), th = dbg_focus_thread(c->s);
        snprintf(b, sizeof b,
                 ",\"kernel\":%u,\"block\":[%u,%u,%u],\"thread\":[%u,%u,%u],\"warp\":%u,"
                 "\"lane\":%u", f->kernel, bl.x, bl.y, bl.z, th.x, th.y, th.z, f->warp, f->lane);
        puts_(&r, b);
        uint32_t pc;
        if (dbg_focus_pc(c->s, &pc) == 0) {
            snprintf(b, sizeof b, ",\"pc\":%u", pc);
            puts_(&r, b);
            if (dbg_pc_func_name(c->s, pc, 0, b, sizeof b) >= 0) {
                puts_(&r, ",\"function\":");
                put_str(&r, b, strlen(b));
            }
            dbg_where w;
            if (dbg_pc_where(c->s, pc, &w) == 0) {
                if (w.file && w.line) {
                    puts_(&r, ",\"file\":");
                    put_str(&r, w.file, strlen(w.file));
                    snprintf(b, sizeof b, ",\"line\":%d", w.line);
                    puts_(&r, b);
                }
                snprintf(b, sizeof b, ",\"ptx_line\":%d", w.ptx_line);
                puts_(&r, b);
            }
        }
    }
    if (ev->kind == DBG_EV_EXCEPTION || (ev->kind == DBG_EV_CHECK && ev->stop.exc)) {
        int num = 0;
        const char *en = dbg_exc_name(ev->stop.exc, &num);
        puts_(&r, ",\"exception\":");
        put_str(&r, en ? en : "", en ? strlen(en) : 0);
        snprintf(b, sizeof b, ",\"exception_number\":%d,\"space\":\"%s\",\"address\":\"0x%llx\"", num,
                 dbg_space_name(ev->stop.space), (unsigned long long)ev->stop.addr);
        puts_(&r, b);
    }
    if ((ev->kind == DBG_EV_TRAP || ev->kind == DBG_EV_ASSERT || ev->kind == DBG_EV_EXCEPTION) &&
        ev->stop.msg[0]) {
        puts_(&r, ",\"message\":");
        put_str(&r, ev->stop.msg, strnlen(ev->stop.msg, sizeof ev->stop.msg));
    }
    if (ev->kind == DBG_EV_CHECK && ev->finding) {
        char *fj = NULL;
        size_t fl = 0;
        FILE *m = open_memstream(&fj, &fl);
        if (m) {
            chk_write_json(ev->finding, m);
            fclose(m);
            puts_(&r, ",\"finding\":");
            put(&r, fj, fl);
        }
        free(fj);
    }
    if (ev->cond_error[0]) {
        puts_(&r, ",\"condition_error\":");
        put_str(&r, ev->cond_error, strnlen(ev->cond_error, sizeof ev->cond_error));
    }
    puts_(&r, "}");
    cmd_ui_event(c, r.buf, r.len);
    free(r.buf);
}

void cmd_ui_event(cmd_ctx *c, const char *json, size_t n)
{
    if (!cmd_ui_json(c) || c->ui->level < 0)
        return;
    int fd = c->ui->out_fd >= 0 ? c->ui->out_fd : c->ui->base_fd;
    fflush(stdout);
    write_fd(fd, json, n);
    write_fd(fd, "\n", 1);
}

/* ---- findings ------------------------------------------------------------------------------ */
/* The finding as chk_write_json writes it (malloc'd), NULL when out of memory. */
static char *finding_json(const chk_finding *f, size_t *n)
{
    char *j = NULL;
    *n = 0;
    FILE *m = open_memstream(&j, n);
    if (!m)
        return NULL;
    chk_write_json(f, m);
    fclose(m);
    return j;
}

void cmd_ui_finding_data(cmd_ctx *c, const chk_finding *f)
{
    if (!cmd_ui_json(c))
        return;
    size_t n;
    char *j = finding_json(f, &n);
    if (j)
        cmd_ui_raw(c, NULL, j, n);
    free(j);
}

void cmd_ui_finding(cmd_ctx *c, const chk_finding *f)
{
    if (!cmd_ui_json(c))
        return;
    size_t n;
    char *j = finding_json(f, &n);
    static const char head[] = "{\"event\":\"finding\",\"finding\":";
    char *line = j ? malloc(sizeof head + n + 2) : NULL;
    if (line) {
        memcpy(line, head, sizeof head - 1);
        memcpy(line + sizeof head - 1, j, n);
        line[sizeof head - 1 + n] = '}';
        cmd_ui_event(c, line, sizeof head + n);
    }
    free(line);
    free(j);
}
