/* cmd_uirun.c - JSON mode's result objects (run uncaptured or captured), stop and finding events. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd_uiint.h"
#include "chk.h"

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
    cmd_ui_put(&r, "{\"command\":", 11);
    cmd_ui_escape(&r.buf, &r.len, &r.cap, line, strlen(line));
    cmd_ui_puts(&r, rc == 0 ? ",\"ok\":true" : ",\"ok\":false");
    if (rc != 0) {
        size_t k = en;
        while (k && et[k - 1] == '\n')
            k--;
        cmd_ui_puts(&r, ",\"error\":");
        if (k)
            cmd_ui_escape(&r.buf, &r.len, &r.cap, et, k);
        else
            cmd_ui_puts(&r, "\"command failed\"");
    }
    if (u->buf && u->len)
        cmd_ui_put(&r, u->buf, u->len);
    if (on) {
        cmd_ui_puts(&r, ",\"output\":");
        cmd_ui_escape(&r.buf, &r.len, &r.cap, ot, on);
    }
    if (rc == 0 && en) {      /* warnings and notes of a command that succeeded */
        cmd_ui_puts(&r, ",\"messages\":");
        cmd_ui_escape(&r.buf, &r.len, &r.cap, et, en);
    }
    cmd_ui_puts(&r, "}\n");
    write_fd(fd, r.buf, r.len);
    free(r.buf);
    if (back)
        cmd_ui_totext(u);
}

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

/* Whether line runs a command whose every output goes through the model (CMD_F_MODEL_ONLY),
 * as the dispatcher would resolve it: a user command, the PTX REPL or an error runs captured. */
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
    /* in a CUDA program's own session, running hands control back to the program, whose
       output shares the descriptors: keep the capture there */
    if (c->inproc && d->cls == CMD_CLASS_RUNNING)
        return 0;
    return (d->flags & CMD_F_MODEL_ONLY) != 0;
}

int cmd_ui_errorv(cmd_ctx *c, const char *fmt, va_list ap)
{
    cmd_ui *u = c->ui;
    if (!u || !u->json || !u->depth || !u->errm || u->held)
        return 0;
    vfprintf(u->errm, fmt, ap);
    fputc('\n', u->errm);
    return 1;
}

void cmd_ui_message(cmd_ctx *c, const char *fmt, ...)
{
    cmd_ui *u = c->ui;
    FILE *f = u && u->json && u->depth && u->errm && !u->held ? u->errm : stderr;
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
    cmd_ui_put(u, "", 0);
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

/* The process's stdout and stderr redirected (dup2) to out and err (one file for both: the two
 * streams in the order written), then back: the one capture cmd_ui_execute and cmd_ui_console
 * share. -1 when the descriptors cannot be saved (nothing redirected). */
typedef struct {
    int s1, s2;               /* the saved stdout and stderr */
} ui_redirect;

static int redirect_begin(cmd_ui *u, ui_redirect *r, FILE *out, FILE *err)
{
    fflush(stdout);
    fflush(stderr);
    r->s1 = dup(1);
    r->s2 = dup(2);
    if (r->s1 < 0 || r->s2 < 0) {
        if (r->s1 >= 0)
            close(r->s1);
        if (r->s2 >= 0)
            close(r->s2);
        return -1;
    }
    u->captures++;
    dup2(fileno(out), 1);
    dup2(fileno(err), 2);
    return 0;
}

static void redirect_end(ui_redirect *r)
{
    fflush(stdout);
    fflush(stderr);
    dup2(r->s1, 1);
    dup2(r->s2, 2);
    close(r->s1);
    close(r->s2);
}

/* Run line with the process's stdout and stderr redirected to two temporary files; their text
 * comes back in *ot and *et (malloc'd; NULL and 0 when none). Events written meanwhile go to
 * the real stdout (out_fd). -2 when the capture cannot be set up (nothing ran). */
static int run_captured(cmd_ctx *c, const char *line, int (*run)(cmd_ctx *, const char *),
                        char **ot, size_t *on, char **et, size_t *en)
{
    cmd_ui *u = c->ui;
    *ot = *et = NULL;
    *on = *en = 0;
    FILE *fo = tmpfile(), *fe = tmpfile();
    fflush(stdout);
    int so = dup(u->out_fd >= 0 ? u->out_fd : u->base_fd);
    ui_redirect r;
    if (!fo || !fe || so < 0 || redirect_begin(u, &r, fo, fe) != 0) {
        if (fo)
            fclose(fo);
        if (fe)
            fclose(fe);
        if (so >= 0)
            close(so);
        return -2;
    }
    int saved_fd = u->out_fd;
    u->out_fd = so;
    int rc = run(c, line);    /* a program's `run` relays its session's objects (cmd_prog.c) */
    redirect_end(&r);
    u->out_fd = saved_fd;
    close(so);
    *ot = slurp(fo, on);
    *et = slurp(fe, en);
    fclose(fo);
    fclose(fe);
    if (!*ot)
        *on = 0;
    if (!*et)
        *en = 0;
    return rc;
}

int cmd_ui_execute(cmd_ctx *c, const char *line, int (*run)(cmd_ctx *, const char *))
{
    cmd_ui *u = c->ui;
    if (u && u->json && u->depth && u->outm) {
        /* a line nested in an uncaptured command (a breakpoint's commands after a stop, a
           display's x): one that does not render only through the model runs captured, its
           text and messages joining the command's buffers in order */
        u->passing = 1;       /* execute_line does not ask again for this line */
        if (modelled(c, line))
            return run(c, line);
        FILE *om = u->outm, *em = u->errm;
        fflush(om);
        fflush(em);
        u->outm = u->errm = NULL;   /* meanwhile the model writes to the captured streams */
        char *ot, *et;
        size_t on, en;
        int rc = run_captured(c, line, run, &ot, &on, &et, &en);
        u->outm = om;
        u->errm = em;
        if (rc == -2)
            return run(c, line);
        fwrite(ot ? ot : "", 1, on, om);
        fwrite(et ? et : "", 1, en, em);
        free(ot);
        free(et);
        return rc;
    }
    if (!u || !u->json || u->depth)
        return run(c, line);
    /* a CUDA program's session keeps the capture (its `run` hands the fds on) */
    if (!c->prog && modelled(c, line)) {
        int rc = run_uncaptured(c, line, run);
        if (rc != -2)
            return rc;
    }
    u->depth = 1;
    u->len = 0;
    u->level = 0;
    u->skip = 0;
    cmd_ui_put(u, "", 0);
    char *ot, *et;
    size_t on, en;
    int so = dup(u->base_fd);
    int rc = so < 0 ? -2 : run_captured(c, line, run, &ot, &on, &et, &en);
    if (rc == -2) {
        if (so >= 0)
            close(so);
        u->depth = 0;
        return run(c, line);
    }
    while (u->level > 0)      /* a command that failed inside a list: the fields stay valid */
        cmd_ui_close(c);
    u->depth = 0;
    write_result(c, line, rc, ot, on, et, en, so);
    close(so);
    free(ot);
    free(et);
    return rc;
}

int cmd_ui_nested(cmd_ctx *c)
{
    cmd_ui *u = c->ui;
    if (u && u->passing) {
        u->passing = 0;
        return 0;
    }
    return u && u->json && u->depth && u->outm;
}

unsigned long cmd_ui_captures(const cmd_ctx *c) { return c->ui ? c->ui->captures : 0; }

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
    cmd_ui_put(&r, "{\"event\":\"stop\",\"reason\":", 25);
    const char *rs = reason(ev);
    cmd_ui_putstr(&r, rs, strlen(rs));
    if (ev->bp) {
        snprintf(b, sizeof b, ",\"breakpoint\":%d", ev->bp);
        cmd_ui_puts(&r, b);
    }
    const dbg_focus *f = dbg_get_focus(c->s);
    const exec_launch_info *li = dbg_launch_info(c->s);
    if (ev->kind == DBG_EV_EXITED) {
        snprintf(b, sizeof b, ",\"kernel\":%u", li ? li->launch_id : dbg_nlaunches(c->s) - 1);
        cmd_ui_puts(&r, b);
    } else if (f && f->valid) {
        exec_dim3 bl = dbg_focus_block(c->s), th = dbg_focus_thread(c->s);
        snprintf(b, sizeof b,
                 ",\"kernel\":%u,\"block\":[%u,%u,%u],\"thread\":[%u,%u,%u],\"warp\":%u,"
                 "\"lane\":%u", f->kernel, bl.x, bl.y, bl.z, th.x, th.y, th.z, f->warp, f->lane);
        cmd_ui_puts(&r, b);
        uint32_t pc;
        if (dbg_focus_pc(c->s, &pc) == 0) {
            snprintf(b, sizeof b, ",\"pc\":%u", pc);
            cmd_ui_puts(&r, b);
            if (dbg_pc_func_name(c->s, pc, 0, b, sizeof b) >= 0) {
                cmd_ui_puts(&r, ",\"function\":");
                cmd_ui_putstr(&r, b, strlen(b));
            }
            dbg_where w;
            if (dbg_pc_where(c->s, pc, &w) == 0) {
                if (w.file && w.line) {
                    cmd_ui_puts(&r, ",\"file\":");
                    cmd_ui_putstr(&r, w.file, strlen(w.file));
                    snprintf(b, sizeof b, ",\"line\":%d", w.line);
                    cmd_ui_puts(&r, b);
                }
                snprintf(b, sizeof b, ",\"ptx_line\":%d", w.ptx_line);
                cmd_ui_puts(&r, b);
            }
        }
    }
    if (ev->kind == DBG_EV_EXCEPTION || (ev->kind == DBG_EV_CHECK && ev->stop.exc)) {
        int num = 0;
        const char *en = dbg_exc_name(ev->stop.exc, &num);
        cmd_ui_puts(&r, ",\"exception\":");
        cmd_ui_putstr(&r, en ? en : "", en ? strlen(en) : 0);
        snprintf(b, sizeof b, ",\"exception_number\":%d,\"space\":\"%s\",\"address\":\"0x%llx\"", num,
                 dbg_space_name(ev->stop.space), (unsigned long long)ev->stop.addr);
        cmd_ui_puts(&r, b);
    }
    if ((ev->kind == DBG_EV_TRAP || ev->kind == DBG_EV_ASSERT || ev->kind == DBG_EV_EXCEPTION) &&
        ev->stop.msg[0]) {
        cmd_ui_puts(&r, ",\"message\":");
        cmd_ui_putstr(&r, ev->stop.msg, strnlen(ev->stop.msg, sizeof ev->stop.msg));
    }
    if (ev->kind == DBG_EV_CHECK && ev->finding) {
        char *fj = NULL;
        size_t fl = 0;
        FILE *m = open_memstream(&fj, &fl);
        if (m) {
            chk_write_json(ev->finding, m);
            fclose(m);
            cmd_ui_puts(&r, ",\"finding\":");
            cmd_ui_put(&r, fj, fl);
        }
        free(fj);
    }
    if (ev->cond_error[0]) {
        cmd_ui_puts(&r, ",\"condition_error\":");
        cmd_ui_putstr(&r, ev->cond_error, strnlen(ev->cond_error, sizeof ev->cond_error));
    }
    cmd_ui_puts(&r, "}");
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

void cmd_ui_output(cmd_ctx *c, const char *category, const char *text, size_t n)
{
    if (!cmd_ui_json(c) || c->ui->level < 0)
        return;
    cmd_ui r = {0};
    cmd_ui_puts(&r, "{\"event\":\"output\",\"category\":");
    cmd_ui_putstr(&r, category, strlen(category));
    cmd_ui_puts(&r, ",\"text\":");
    cmd_ui_putstr(&r, text, n);
    cmd_ui_puts(&r, "}");
    if (r.buf)
        cmd_ui_event(c, r.buf, r.len);
    free(r.buf);
}

/* Kernel printf, handed over by the engine (dbg_set_output) as the kernel writes it. Text mode:
 * stdout, flushed, as the core wrote it before. JSON mode: an output event at once (before the
 * stop that follows it) and the running command's text as well ("output", as before). */
static void kernel_output(void *ctx, const char *text, size_t n)
{
    cmd_ctx *c = ctx;
    cmd_ui *u = c->ui;
    if (u && u->json && u->level >= 0) {
        cmd_ui_output(c, "stdout", text, n);
        if (!u->depth)
            return;
        FILE *f = u->outm ? u->outm : stdout;
        fwrite(text, 1, n, f);
        fflush(f);
        return;
    }
    fwrite(text, 1, n, stdout);
    fflush(stdout);
}

int cmd_ui_attach_output(cmd_ctx *c)
{
    return dbg_set_output(c->s, kernel_output, c);
}

int cmd_ui_console(cmd_ctx *c, int (*fn)(cmd_ctx *c))
{
    if (!cmd_ui_json(c) || c->ui->depth || c->ui->level < 0)
        return fn(c);
    FILE *fo = tmpfile();
    ui_redirect r;
    if (!fo || redirect_begin(c->ui, &r, fo, fo) != 0) {   /* both streams, in order */
        if (fo)
            fclose(fo);
        return fn(c);
    }
    int rc = fn(c);
    redirect_end(&r);
    size_t n;
    char *t = slurp(fo, &n);
    fclose(fo);
    if (t && n)
        cmd_ui_output(c, "console", t, n);
    free(t);
    return rc;
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
