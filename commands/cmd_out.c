/* cmd_out.c - where output goes: the log file (set logging) and the interactive pager (set height). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "cmd.h"

/* While logging or paging, stdout and stderr are replaced by streams whose writes come here: each
 * goes to the log file (when logging), then to the terminal (unless redirected), counting lines
 * for the pager. Everything printed with printf/fprintf passes, so no command needs to know. */
static struct {
    FILE *term_out, *term_err; /* the process's own streams while ours are installed */
    FILE *log;
    int redirect;
    int paging;               /* the pager is on (interactive, terminal) */
    cmd_ctx *c;
    uint64_t lines;           /* lines shown on this page */
    unsigned col, cols;       /* column on the terminal's current line; its width (0: unknown) */
    int no_more;              /* answered c: no paging until the next command */
    int discard;              /* answered q: drop output until the next command */
    int quiet;                /* replaying a setup log: everything printed is dropped */
    int held;                 /* a program's session while the program runs: its own output
                                 goes straight to its streams (not logged, not paged) */
} out;

static void raw_write(int fd, const char *b, size_t n)
{
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        b += w;
        n -= (size_t)w;
    }
}

/* The page is full: ask, as gdb does. */
static void page_prompt(void)
{
    static const char q[] = "--Type <RET> for more, q to quit, c to continue without paging--";
    raw_write(STDOUT_FILENO, q, sizeof q - 1);
    char ch = '\n', first = 0;
    for (;;) {
        ssize_t r = read(STDIN_FILENO, &ch, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {         /* end of input: show the rest */
            out.no_more = 1;
            raw_write(STDOUT_FILENO, "\n", 1);
            break;
        }
        if (ch == '\n')
            break;
        if (!first && ch != ' ' && ch != '\t')
            first = ch;
    }
    out.lines = 0;
    if (first == 'q' || first == 'Q') { /* gdb's quit: the command stops, its output goes */
        out.discard = 1;
        cmd_interrupt();
        raw_write(STDOUT_FILENO, "Quit\n", 5);
    } else if (first == 'c' || first == 'C') {
        out.no_more = 1;
    }
}

static ssize_t stream_write(void *cookie, const char *b, size_t n)
{
    int fd = (int)(intptr_t)cookie;
    if (out.quiet)
        return (ssize_t)n;
    if (out.log) {
        fwrite(b, 1, n, out.log);
        fflush(out.log);
        if (out.redirect)
            return (ssize_t)n;
    }
    if (out.discard)
        return (ssize_t)n;
    uint64_t h = out.c ? out.c->opt.height : 0;
    if (!out.paging || out.no_more || !h || !out.c->opt.pagination) {
        raw_write(fd, b, n);
        return (ssize_t)n;
    }
    /* screen lines: a newline, or a line as wide as the terminal, which wraps */
    size_t i = 0;
    while (i < n && !out.discard) {
        if (out.lines + 1 >= h)
            page_prompt();
        if (out.discard || out.no_more) {
            if (!out.discard)
                raw_write(fd, b + i, n - i);
            break;
        }
        size_t k = i;
        while (k < n && out.lines + 1 < h) {
            char ch = b[k++];
            if (ch == '\n' || (out.cols && ++out.col >= out.cols)) {
                out.lines++;
                out.col = 0;
            }
        }
        raw_write(fd, b + i, k - i);
        i = k;
    }
    return (ssize_t)n;
}

static void install(void)
{
    if (out.term_out || out.held)
        return;
    cookie_io_functions_t io = {NULL, stream_write, NULL, NULL};
    fflush(stdout);
    fflush(stderr);
    FILE *o = fopencookie((void *)(intptr_t)STDOUT_FILENO, "w", io);
    FILE *e = fopencookie((void *)(intptr_t)STDERR_FILENO, "w", io);
    if (!o || !e) {
        if (o)
            fclose(o);
        if (e)
            fclose(e);
        return;
    }
    setvbuf(o, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
    setvbuf(e, NULL, _IONBF, 0);
    out.term_out = stdout;
    out.term_err = stderr;
    stdout = o;
    stderr = e;
}

static void uninstall_if_idle(void)
{
    if (!out.term_out || (!out.held && (out.log || out.paging || out.quiet)))
        return;
    fflush(stdout);
    fclose(stdout);
    fclose(stderr);
    stdout = out.term_out;
    stderr = out.term_err;
    out.term_out = out.term_err = NULL;
}

FILE *cmd_out_terminal(void) { return out.term_out ? out.term_out : stdout; }

void cmd_out_quiet(int on)
{
    fflush(stdout);
    fflush(stderr);
    if (on) {
        out.quiet++;
        install();
    } else if (out.quiet > 0) {
        out.quiet--;
        uninstall_if_idle();
    }
}

void cmd_out_hold(int on)
{
    fflush(stdout);
    fflush(stderr);
    if (on) {
        out.held = 1;
        uninstall_if_idle();
    } else {
        out.held = 0;
        if (out.log || out.paging || out.quiet)
            install();
    }
}

int cmd_out_log_start(cmd_ctx *c)
{
    if (out.log) {
        fclose(out.log);
        out.log = NULL;
    }
    fflush(stdout);
    /* gdb empties the file when logging is switched on with overwrite, never when a program's
       session or the parent replays the setup that switched it on; every writer appends, so
       the parent's and the program's session's lines interleave in the order printed */
    if (c->opt.log_overwrite && !c->replaying) {
        FILE *t = fopen(c->opt.log_file, "w");
        if (t)
            fclose(t);
    }
    out.log = fopen(c->opt.log_file, "a");
    if (!out.log) {
        c->opt.log_enabled = 0;
        uninstall_if_idle();
        return cmd_error(c, "%s: %s.", c->opt.log_file, strerror(errno));
    }
    out.c = c;
    if (c->opt.log_redirect)
        printf("Redirecting output to %s.\n", c->opt.log_file);
    else
        printf("Copying output to %s.\nCopying debug output to %s.\n", c->opt.log_file,
               c->opt.log_file);
    fflush(stdout);
    install();
    out.redirect = c->opt.log_redirect;
    return 0;
}

void cmd_out_log_stop(cmd_ctx *c)
{
    if (!out.log)
        return;
    fflush(stdout);
    fflush(stderr);
    fclose(out.log);
    out.log = NULL;
    out.redirect = 0;
    uninstall_if_idle();
    printf("Done logging to %s.\n", c->opt.log_file);
}

void cmd_out_pager(cmd_ctx *c, int on)
{
    out.c = c;
    if (on && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
        struct winsize ws;
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) {
            if (!c->opt.height_set && ws.ws_row > 0)
                c->opt.height = ws.ws_row;
            out.cols = ws.ws_col;
        }
        out.paging = 1;
        install();
    } else {
        out.paging = 0;
        uninstall_if_idle();
    }
}

void cmd_out_new_command(void)
{
    out.lines = 0;
    out.col = 0;
    out.no_more = 0;
    out.discard = 0;
}

int cmd_confirm(cmd_ctx *c, const char *question)
{
    if (c->batch || !c->interactive || !c->opt.confirm || !isatty(STDIN_FILENO))
        return 1;
    for (;;) {
        printf("%s (y or n) ", question);
        fflush(stdout);
        char buf[64];
        size_t k = 0;
        char ch;
        ssize_t r;
        while ((r = read(STDIN_FILENO, &ch, 1)) == 1 || (r < 0 && errno == EINTR)) {
            if (r < 0)
                continue;
            if (ch == '\n')
                break;
            if (k + 1 < sizeof buf)
                buf[k++] = ch;
        }
        buf[k] = 0;
        if (r == 0) {          /* end of input: gdb answers y */
            printf("[answered Y; input not from terminal]\n");
            return 1;
        }
        char *p = buf;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == 'y' || *p == 'Y')
            return 1;
        if (*p == 'n' || *p == 'N')
            return 0;
        printf("Please answer y or n.\n");
    }
}

int cmd_confirm_kill(cmd_ctx *c, const char *question)
{
    const exec_launch_info *li = dbg_launch_info(c->s);
    if (!li || !dbg_launch_alive(c->s))
        return 0;
    char name[600], q[1024];
    cmd_kernel_label(c, name, sizeof name);
    snprintf(q, sizeof q, "A debugging session is active.\n\n\tKernel %u (%s) will be killed.\n\n%s",
             li->launch_id, name, question);
    if (cmd_confirm(c, q))
        return 0;
    return cmd_error(c, "Not confirmed.");
}
