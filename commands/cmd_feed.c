/* cmd_feed.c - where command lines come from: one stack of frames (terminal, -ex/-x, scripts, bodies, loops, breakpoint commands) read by one loop. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"

/* ---------------------------------------------------------------------------------------------
 * Every way of feeding commands goes through this stack, so every one sees the same state after
 * every command: the terminal (readline, or stdin read without buffering ahead), main's -ex/-x
 * list, scripts (-x, source), the body of a user-defined command, the branch of an `if`, a
 * `while` loop, a breakpoint's `commands`. One loop (cmd_feed_run) reads the next line of the
 * top frame and executes it; a command that brings more lines (source, a user command, if,
 * while, a breakpoint stop with commands) pushes a frame, so nothing nests on the C stack and
 * the position of every source is data:
 *   - a CUDA program's `run` hands the frames above the terminal to the program's session
 *     (cmd_feed_export), which goes on with them at the program's stops, and hands back what is
 *     left when the program ends (cmd_feed_import): a script's lines after `run` run at the
 *     stop, whether the script came from -x, source or a breakpoint's commands;
 *   - inside the program, the session leaves the loop when the kernel completes (the hold
 *     hook) with the frames intact, and resumes them at the next stop.
 * An error in a nested frame (script, body, loop, breakpoint commands) ends it and the nested
 * frames it was called from, as gdb's error ends the scripts up to the command loop; the -ex
 * list and the terminal go on. After a command that resumes the kernel the rest of a
 * breakpoint's commands is dropped (gdb), the frames of the new stop's commands run next.
 * ------------------------------------------------------------------------------------------- */

#define FEED_MAX 1024         /* frames: scripts sourcing scripts, user commands calling others */

static cmd_feed_frame *top(cmd_ctx *c) { return c->nframes ? &c->frames[c->nframes - 1] : NULL; }

int cmd_feed_push(cmd_ctx *c, int kind, int flags, const char *name, const char *cond,
                  const char *text, size_t len)
{
    if (c->nframes >= FEED_MAX)
        return cmd_error(c, "%s", flags & CMD_FF_USER ? "Max user call depth exceeded -- command "
                                                        "aborted." : "Scripts nested too deeply.");
    if (c->nframes == c->capframes) {
        int cap = c->capframes ? c->capframes * 2 : 8;
        cmd_feed_frame *nf = realloc(c->frames, sizeof *nf * (size_t)cap);
        if (!nf)
            return cmd_error(c, "Out of memory.");
        c->frames = nf;
        c->capframes = cap;
    }
    cmd_feed_frame *f = &c->frames[c->nframes];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->flags = flags;
    f->name = strdup(name ? name : "");
    f->cond = cond ? strdup(cond) : NULL;
    f->text = malloc(len + 1);
    if (!f->name || (cond && !f->cond) || !f->text) {
        free(f->name);
        free(f->cond);
        free(f->text);
        return cmd_error(c, "Out of memory.");
    }
    if (len)
        memcpy(f->text, text, len);
    f->text[len] = 0;
    f->len = len;
    f->pos = kind == CMD_FR_LOOP ? len : 0; /* a loop tests its condition first */
    f->interactive = c->interactive;
    c->nframes++;
    return 0;
}

int cmd_feed_push_term(cmd_ctx *c, cmd_input *src)
{
    if (cmd_feed_push(c, CMD_FR_TERM, 0, "terminal", NULL, "", 0) != 0)
        return -1;
    top(c)->src = src;
    return 0;
}

void cmd_feed_pop(cmd_ctx *c)
{
    cmd_feed_frame *f = top(c);
    if (!f)
        return;
    free(f->name);
    free(f->cond);
    free(f->args);
    free(f->text);
    c->nframes--;
}

void cmd_feed_free(cmd_ctx *c)
{
    while (c->nframes)
        cmd_feed_pop(c);
    free(c->frames);
    c->frames = NULL;
    c->capframes = 0;
}

/* The next line of a text frame (its end: NULL), without the newline. */
static char *frame_line(cmd_feed_frame *f)
{
    if (f->pos >= f->len)
        return NULL;
    const char *p = f->text + f->pos;
    const char *nl = memchr(p, '\n', f->len - f->pos);
    size_t n = nl ? (size_t)(nl - p) : f->len - f->pos;
    f->pos += n + (nl != NULL); /* always forward, whatever bytes the text holds */
    while (n && p[n - 1] == '\r')
        n--;
    return strndup(p, n);
}

/* A line of the terminal frame f (its own source, or the terminal of the session). */
static char *term_line(cmd_ctx *c, cmd_feed_frame *f, const char *prompt)
{
    if (f->src) {
        c->interactive = f->interactive;
        return f->src->next(f->src, prompt);
    }
    if (c->term_hook)
        return c->term_hook(c, prompt);
    return cmd_read_line(c, prompt);
}

int cmd_from_tty(const cmd_ctx *c)
{
    if (c->line_frame < 0 || c->line_frame >= c->nframes)
        return 0;
    const cmd_feed_frame *f = &c->frames[c->line_frame];
    if (f->kind == CMD_FR_TERM)
        return !c->batch;
    return (f->flags & CMD_FF_ACTS) && !c->batch;
}

/* The next line of the top frame, for the commands that read a body (commands, define,
 * document, if, while): a text frame's next line (NULL at its end: the body is cut short), or
 * the terminal's with the continuation prompt. */
char *cmd_feed_read(cmd_ctx *c, const char *prompt)
{
    cmd_feed_frame *f = top(c);
    /* a -ex command's body comes from the terminal, as gdb reads it (none in -batch: the body
       is cut short) */
    for (int i = c->nframes - 1; f && (f->flags & CMD_FF_ACTS); i--)
        f = i > 0 ? &c->frames[i - 1] : NULL;
    if (f && f->kind != CMD_FR_TERM && f != top(c))
        f = NULL;
    if (!f)
        return NULL;
    if (f->kind == CMD_FR_TERM)
        return term_line(c, f, f->src || c->interactive ? prompt : NULL);
    return frame_line(f);
}

static char *feed_next(cmd_input *in, const char *prompt)
{
    return cmd_feed_read(in->ctx, prompt);
}

/* An error in a nested frame ends it and the nested frames it runs in (not below base). */
static void unwind(cmd_ctx *c, int base)
{
    while (c->nframes > base && (top(c)->flags & CMD_FF_NEST))
        cmd_feed_pop(c);
}

/* The innermost loop frame above base and below any user command body, or -1. */
static int loop_frame(cmd_ctx *c, int base)
{
    for (int i = c->nframes - 1; i >= base; i--) {
        if (c->frames[i].kind == CMD_FR_LOOP)
            return i;
        if (c->frames[i].flags & CMD_FF_USER)
            return -1;
    }
    return -1;
}

int cmd_feed_loop_control(cmd_ctx *c, int brk)
{
    int i = loop_frame(c, 0);
    if (i < 0)
        return cmd_error(c, "%s can only be used in a \"while\" loop.",
                         brk ? "loop_break" : "loop_continue");
    while (c->nframes - 1 > i)
        cmd_feed_pop(c);
    if (brk)
        cmd_feed_pop(c);
    else
        c->frames[i].pos = c->frames[i].len; /* the condition again */
    return 0;
}

void cmd_feed_resumed(cmd_ctx *c)
{
    /* gdb: the commands of a breakpoint after one that resumes the program are not run */
    for (int i = 0; i < c->nframes; i++)
        if (c->frames[i].flags & CMD_FF_BPCMD)
            c->frames[i].flags |= CMD_FF_DONE;
}

/* The repeat logic of a terminal line: an empty line repeats the last repeatable command. */
static void remember_repeat(cmd_ctx *c, const char *p)
{
    const cmd_def *d = cmd_line_def(p);
    const char *arg = p + strcspn(p, " \t/");
    while (isspace((unsigned char)*arg))
        arg++;
    if (d && (d->flags & CMD_F_REPEAT)) {
        /* x and list go on where they stopped (gdb); "list -" goes on backwards */
        int cont = !strcmp(d->name, "x") || (!strcmp(d->name, "list") && strcmp(arg, "-") != 0);
        snprintf(c->repeat, sizeof c->repeat, "%s", cont ? d->name : p);
    }
}

int cmd_feed_run(cmd_ctx *c, int base)
{
    int feeding = c->feeding;
    cmd_input *in = c->in;
    cmd_input feed = {feed_next, c, 0};
    c->feeding = 1;
    c->in = &feed;
    int rc = 0;
    while (!c->quit && c->nframes > base) {
        if (c->hold && c->hold(c))
            break; /* inside a program: the kernel is over, the frames wait for the next stop */
        int k = c->nframes - 1;
        cmd_feed_frame *f = &c->frames[k];
        if (f->flags & CMD_FF_DONE) {
            cmd_feed_pop(c);
            continue;
        }
        char *line;
        if (f->kind == CMD_FR_TERM) {
            line = term_line(c, f, c->batch && c->inproc ? NULL : "(ptxdbg) ");
            f = &c->frames[k]; /* the stack may have moved */
            if (!line) {
                if (c->interactive && !f->src && !c->inproc)
                    printf("quit\n");
                cmd_feed_pop(c);
                continue;
            }
        } else {
            line = frame_line(f);
            if (!line && f->kind == CMD_FR_LOOP) {
                /* the end of the body, or the start: the condition decides */
                dbg_value v;
                char err[512];
                if (cmd_interrupt_pending()) {
                    cmd_error(c, "Quit");
                    unwind(c, base);
                    rc = -1;
                } else if (dbg_eval_focus(c->s, f->cond, &v, err, sizeof err) != 0) {
                    cmd_error(c, "%s", err);
                    unwind(c, base);
                    rc = -1;
                } else if (dbg_value_true(&v)) {
                    f->pos = 0;
                } else {
                    cmd_feed_pop(c);
                }
                continue;
            }
            if (!line) {
                cmd_feed_pop(c);
                continue;
            }
            c->interactive = 0;
            if (f->args) { /* a user command's body: $argc, $argN */
                char err[256];
                char *sub = cmd_user_subst(line, f->args, err, sizeof err);
                free(line);
                if (!sub) {
                    cmd_error(c, "%s", err);
                    unwind(c, base);
                    rc = -1;
                    continue;
                }
                line = sub;
            }
        }
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        /* the command may push frames (the array moves): f is not used after it runs */
        int nested = (f->flags & CMD_FF_NEST) != 0, acts = (f->flags & CMD_FF_ACTS) != 0;
        int term = f->kind == CMD_FR_TERM;
        if (cmd_interrupt_pending() && loop_frame(c, base) >= 0) {
            /* Ctrl-C while a loop runs: it ends (the kernel's own stop was reported) */
            free(line);
            cmd_error(c, "Quit");
            unwind(c, base);
            rc = -1;
            continue;
        }
        cmd_interrupt_clear(); /* a Ctrl-C already reported must not stop the next command */
        c->line_frame = k;
        int r;
        if (acts) {
            /* main's -ex/-x list: "e COMMAND" or "x SCRIPT" */
            if (p[0] == 'x' && p[1] == ' ') {
                char *argv[1] = {(char *)p + 2};
                r = cmd_source(c, p + 2, 1, argv);
            } else {
                r = cmd_execute(c, p[0] && p[1] ? p + 2 : "");
            }
        } else if (term && !*p && c->interactive && c->repeat[0]) {
            r = cmd_execute(c, c->repeat);
        } else {
            if (term && *p && c->interactive)
                c->repeat[0] = 0;
            r = cmd_execute(c, line);
            if (term && *p && c->interactive && !c->repeat[0])
                remember_repeat(c, p);
        }
        free(line);
        if (r != 0 && nested) {
            unwind(c, base);
            rc = -1;
        }
    }
    c->feeding = feeding;
    c->in = in;
    return rc;
}

int cmd_feed_run_local(cmd_ctx *c, int base)
{
    int (*hold)(cmd_ctx *) = c->hold;
    c->hold = NULL; /* lines run here to their end, whatever a program's stop does */
    int rc = cmd_feed_run(c, base);
    c->hold = hold;
    while (c->nframes > base)
        cmd_feed_pop(c);
    return rc;
}

int cmd_run_input(cmd_ctx *c, cmd_input *in, const char *prompt)
{
    (void)prompt;
    int base = c->nframes;
    if (cmd_feed_push_term(c, in) != 0)
        return -1;
    int failed = c->failed;
    c->failed = 0;
    cmd_feed_run_local(c, base);
    while (c->nframes > base)
        cmd_feed_pop(c);
    int rc = c->failed ? -1 : 0;
    c->failed |= failed;
    return rc;
}

/* ---- handing frames to a program's session and back ------------------------------------------
 * "frame KIND FLAGS POS NAMELEN CONDLEN ARGSLEN TEXTLEN\n" then the name, the condition, the
 * arguments and the text, for
 * every frame above the terminal, bottom first. A text frame goes as what is left of it. */
int cmd_feed_export(const cmd_ctx *c, char **out, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m)
        return -1;
    for (int i = 0; i < c->nframes; i++) {
        const cmd_feed_frame *f = &c->frames[i];
        if (f->kind == CMD_FR_TERM || (f->flags & CMD_FF_DONE))
            continue;
        size_t from = f->kind == CMD_FR_LOOP ? 0 : f->pos;
        size_t pos = f->kind == CMD_FR_LOOP ? f->pos : 0;
        fprintf(m, "frame %d %d %zu %zu %zu %zu %zu\n", f->kind, f->flags, pos, strlen(f->name),
                f->cond ? strlen(f->cond) : 0, f->args ? strlen(f->args) : 0, f->len - from);
        fputs(f->name, m);
        if (f->cond)
            fputs(f->cond, m);
        if (f->args)
            fputs(f->args, m);
        fwrite(f->text + from, 1, f->len - from, m);
    }
    if (fclose(m) != 0) {
        free(buf);
        return -1;
    }
    *out = buf;
    *len = n;
    return 0;
}

int cmd_feed_import(cmd_ctx *c, const char *text, size_t len)
{
    /* the terminal frames stay (at the bottom); the others are replaced */
    int keep = 0;
    while (keep < c->nframes && c->frames[keep].kind == CMD_FR_TERM)
        keep++;
    while (c->nframes > keep)
        cmd_feed_pop(c);
    size_t off = 0;
    while (off < len) {
        int kind, flags;
        size_t pos, nl, cl, al, tl;
        const char *eol = memchr(text + off, '\n', len - off);
        char head[160];
        if (!eol || (size_t)(eol - (text + off)) >= sizeof head)
            return -1;
        snprintf(head, sizeof head, "%.*s", (int)(eol - (text + off)), text + off);
        if (sscanf(head, "frame %d %d %zu %zu %zu %zu %zu", &kind, &flags, &pos, &nl, &cl, &al,
                   &tl) != 7 || (kind != CMD_FR_TEXT && kind != CMD_FR_LOOP))
            return -1;
        off = (size_t)(eol - text) + 1;
        size_t left = len - off;
        if (nl > left || cl > left - nl || al > left - nl - cl || tl > left - nl - cl - al ||
            pos > tl)
            return -1;
        const char *q = text + off;
        char *name = strndup(q, nl);
        char *cond = kind == CMD_FR_LOOP ? strndup(q + nl, cl) : NULL;
        char *args = al ? strndup(q + nl + cl, al) : NULL;
        int rc = name && (kind != CMD_FR_LOOP || cond) && (!al || args)
                     ? cmd_feed_push(c, kind, flags & ~CMD_FF_DONE, name, cond,
                                     q + nl + cl + al, tl)
                     : -1;
        free(name);
        free(cond);
        if (rc != 0) {
            free(args);
            return -1;
        }
        top(c)->pos = pos;
        top(c)->args = args;
        off += nl + cl + al + tl;
    }
    return 0;
}
