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
struct cmd_ui {
    int depth;                /* nested command lines inside the running top-level one */
    char *buf;                /* the running command's fields (",\"a\":1,...") */
    size_t len, cap;
    int level;                /* open tuples/lists inside buf */
    int first[UI_DEPTH];      /* no member yet at that level */
    int out_fd;               /* the real stdout while a command's output is captured, else -1 */
    int base_fd;              /* where objects go: 1, or in a CUDA program's session the
                                 pipe to the parent's `run` (PTXDBG_JSON_FD), which relays
                                 them with the program's output (cmd_prog.c) */
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
int cmd_ui_json(const cmd_ctx *c) { return c->ui != NULL; }
int cmd_ui_top(const cmd_ctx *c) { return c->ui && !c->ui->depth && !c->replaying; }
const char *cmd_ui_mode(const cmd_ctx *c) { return c->ui ? "json" : "text"; }

int cmd_ui_set(cmd_ctx *c, const char *mode)
{
    if (!strcmp(mode, "text")) {
        if (c->ui && c->ui->depth)
            c->ui->level = -1; /* the running line's object is still written; then text */
        else
            cmd_ui_free(c);
        return 0;
    }
    if (strcmp(mode, "json") != 0)
        return cmd_error(c, "Undefined item: \"%s\".", mode);
    if (!c->ui) {
        c->ui = calloc(1, sizeof *c->ui);
        if (!c->ui)
            return cmd_error(c, "out of memory");
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

void cmd_ui_free(cmd_ctx *c)
{
    if (!c->ui)
        return;
    free(c->ui->buf);
    free(c->ui);
    c->ui = NULL;
}

/* ---- fields ------------------------------------------------------------------------------ */
static cmd_ui *field(cmd_ctx *c, const char *name)
{
    cmd_ui *u = c->ui;
    if (!u || u->level < 0 || !u->depth)
        return NULL;
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
    cmd_ui *u = field(c, name);
    if (!u || u->level + 1 >= UI_DEPTH)
        return;
    puts_(u, list ? "[" : "{");
    u->level++;
    u->first[u->level] = list ? 2 : 1;   /* 2: a list (closed with ]) */
}

void cmd_ui_close(cmd_ctx *c)
{
    cmd_ui *u = c->ui;
    if (!u || u->level <= 0 || !u->depth)
        return;
    /* the kind is remembered in the sign of first: 2/0 list, 1/0 tuple is lost once a member
       is written, so the opening bracket is looked up instead */
    int depth = 0;
    char kind = '{';
    for (size_t i = u->len; i-- > 0;) {
        /* skip back over strings: cheap enough for the sizes here, and exact */
        char ch = u->buf[i];
        if (ch == '"') {
            size_t j = i;
            while (j-- > 0) {
                if (u->buf[j] == '"') {
                    size_t bs = 0;
                    while (j > bs && u->buf[j - 1 - bs] == '\\')
                        bs++;
                    if (bs % 2 == 0)
                        break;
                }
            }
            i = j;
            continue;
        }
        if (ch == '}' || ch == ']')
            depth++;
        else if (ch == '{' || ch == '[') {
            if (!depth) {
                kind = ch;
                break;
            }
            depth--;
        }
    }
    puts_(u, kind == '[' ? "]" : "}");
    u->level--;
}

void cmd_ui_value(cmd_ctx *c, const dbg_value *v, const char *text, int hist)
{
    if (!cmd_ui_json(c))
        return;
    dbg_value_info vi;
    dbg_value_describe(v, &vi);
    cmd_ui_str(c, "value", text);
    cmd_ui_str(c, "type", vi.type);
    if (hist > 0)
        cmd_ui_int(c, "history", hist);
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

int cmd_ui_execute(cmd_ctx *c, const char *line, int (*run)(cmd_ctx *, const char *))
{
    cmd_ui *u = c->ui;
    if (!u || u->depth)
        return run(c, line);
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
    u->out_fd = so;
    put(u, "", 0);
    int rc = run(c, line);    /* a program's `run` relays its session's objects (cmd_prog.c) */
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
    int to_text = u->level < 0;
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
    write_fd(so, r.buf, r.len);
    close(so);
    free(r.buf);
    free(ot);
    free(et);
    if (to_text)
        cmd_ui_free(c);
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
    if (!c->ui || c->ui->level < 0)
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
    if (!c->ui || c->ui->level < 0)
        return;
    int fd = c->ui->out_fd >= 0 ? c->ui->out_fd : c->ui->base_fd;
    fflush(stdout);
    write_fd(fd, json, n);
    write_fd(fd, "\n", 1);
}

void cmd_ui_output(cmd_ctx *c, const char *category, const char *text, size_t n)
{
    if (!c->ui || c->ui->level < 0)
        return;
    cmd_ui r = {0};
    puts_(&r, "{\"event\":\"output\",\"category\":");
    put_str(&r, category, strlen(category));
    puts_(&r, ",\"text\":");
    put_str(&r, text, n);
    puts_(&r, "}");
    if (r.buf)
        cmd_ui_event(c, r.buf, r.len);
    free(r.buf);
}

int cmd_ui_console(cmd_ctx *c, int (*fn)(cmd_ctx *c))
{
    if (!c->ui || c->ui->depth || c->ui->level < 0)
        return fn(c);
    FILE *fo = tmpfile();
    fflush(stdout);
    fflush(stderr);
    int s1 = dup(1), s2 = dup(2);
    if (!fo || s1 < 0 || s2 < 0) {
        if (fo)
            fclose(fo);
        if (s1 >= 0)
            close(s1);
        if (s2 >= 0)
            close(s2);
        return fn(c);
    }
    dup2(fileno(fo), 1);      /* both streams, in the order written */
    dup2(fileno(fo), 2);
    int rc = fn(c);
    fflush(stdout);
    fflush(stderr);
    dup2(s1, 1);
    dup2(s2, 2);
    close(s1);
    close(s2);
    size_t n;
    char *t = slurp(fo, &n);
    fclose(fo);
    if (n)
        cmd_ui_output(c, "console", t, n);
    free(t);
    return rc;
}
