/* cmd_ui.c - the output model's mode and JSON data: string escaping, fields, tuples and lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include "cmd_uiint.h"

void cmd_ui_put(cmd_ui *u, const char *s, size_t n)
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

void cmd_ui_puts(cmd_ui *u, const char *s) { cmd_ui_put(u, s, strlen(s)); }

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
    cmd_ui_put(&u, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned ch = p[i];
        char esc[8];
        if (ch == '"' || ch == '\\') {
            esc[0] = '\\';
            esc[1] = (char)ch;
            cmd_ui_put(&u, esc, 2);
        } else if (ch == '\n') {
            cmd_ui_put(&u, "\\n", 2);
        } else if (ch == '\t') {
            cmd_ui_put(&u, "\\t", 2);
        } else if (ch == '\r') {
            cmd_ui_put(&u, "\\r", 2);
        } else if (ch < 0x20 || ch == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", ch);
            cmd_ui_put(&u, esc, 6);
        } else if (ch < 0x80) {
            cmd_ui_put(&u, (const char *)p + i, 1);
        } else {
            size_t k = utf8_len(p + i, n - i);
            if (!k) {         /* invalid UTF-8: U+FFFD, one byte consumed */
                cmd_ui_put(&u, "\xef\xbf\xbd", 3);
                i++;
                continue;
            }
            cmd_ui_put(&u, (const char *)p + i, k);
            i += k;
            continue;
        }
        i++;
    }
    cmd_ui_put(&u, "\"", 1);
    *buf = u.buf;
    *len = u.len;
    *cap = u.cap;
}

void cmd_ui_putstr(cmd_ui *u, const char *s, size_t n)
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
cmd_ui *cmd_ui_get(cmd_ctx *c)
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

void cmd_ui_totext(cmd_ui *u)
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
            cmd_ui_totext(c->ui);
        return 0;
    }
    if (strcmp(mode, "json") != 0)
        return cmd_error(c, "Undefined item: \"%s\".", mode);
    if (!cmd_ui_json(c)) {
        if (!cmd_ui_get(c))
            return cmd_error(c, "out of memory");
        c->ui->json = 1;
        c->ui->out_fd = -1;
        c->ui->base_fd = 1;
        /* a CUDA program's session: the pipe to the parent's `run`, which relays the objects
           and the program's own output in the order they were written */
        const char *e = getenv("PTXDBG_JSON_FD");
        char *end;
        long fd = e ? strtol(e, &end, 10) : -1;
        if (e && *e && !*end && fd > 2 && fd < 65536 && fcntl((int)fd, F_GETFD) >= 0) {
            c->ui->base_fd = (int)fd;
            fcntl((int)fd, F_SETFD, FD_CLOEXEC);   /* not for programs this one starts */
        }
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
            cmd_ui_puts(u, ",");
        u->first[u->level] = 0;
    } else {
        cmd_ui_puts(u, ",");
    }
    if (name) {
        cmd_ui_putstr(u, name, strlen(name));
        cmd_ui_puts(u, ":");
    }
    return u;
}

void cmd_ui_str(cmd_ctx *c, const char *name, const char *v)
{
    cmd_ui *u = field(c, name);
    if (u)
        cmd_ui_putstr(u, v ? v : "", v ? strlen(v) : 0);
}

void cmd_ui_int(cmd_ctx *c, const char *name, long long v)
{
    cmd_ui *u = field(c, name);
    char b[32];
    if (u) {
        snprintf(b, sizeof b, "%lld", v);
        cmd_ui_puts(u, b);
    }
}

void cmd_ui_bool(cmd_ctx *c, const char *name, int v)
{
    cmd_ui *u = field(c, name);
    if (u)
        cmd_ui_puts(u, v ? "true" : "false");
}

void cmd_ui_uint(cmd_ctx *c, const char *name, unsigned long long v)
{
    cmd_ui *u = field(c, name);
    char b[32];
    if (u) {
        snprintf(b, sizeof b, "%llu", v);
        cmd_ui_puts(u, b);
    }
}

void cmd_ui_raw(cmd_ctx *c, const char *name, const char *json, size_t n)
{
    cmd_ui *u = field(c, name);
    if (u)
        cmd_ui_put(u, json, n);
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
    cmd_ui_puts(u, list ? "[" : "{");
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
    cmd_ui_puts(u, u->list[u->level] ? "]" : "}");
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

