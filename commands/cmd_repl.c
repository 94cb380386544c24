/* cmd_repl.c - reading commands: readline REPL (cmd_rl.c loads it) with history and completion, scripts, source/echo/quit. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_rl.h"
#include "cmd_ui.h"
#include "cmd_complete.h"

/* Set by SIGINT; run control polls it (exec_run_opts.interrupt). */
static volatile int interrupted;
static cmd_ctx *completion_ctx;
static char *hist_file;       /* NULL: history is not saved */
static const cmd_rl_api *R;   /* readline, once a terminal prompt loaded it (cmd_rl.c) */
static int hist_max = 1000;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

void cmd_interrupt(void) { interrupted = 1; }
int cmd_interrupt_pending(void) { return interrupted != 0; }
void cmd_interrupt_clear(void) { interrupted = 0; }

void cmd_ctx_init(cmd_ctx *c, dbg_session *s)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->next_disp = 1;
    c->x_fmt = 'x';
    c->x_size = 'w';
    c->shown_launch = -1;
    cmd_opts_init(&c->opt);
    dbg_set_interrupt_flag(s, &interrupted);
    cmd_check_init(c);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

void cmd_ctx_free(cmd_ctx *c)
{
    for (int i = 0; i < c->ndisp; i++)
        free(c->disp[i].text);
    free(c->disp);
    cmd_feed_free(c);
    cmd_users_free(c);
    cmd_ui_free(c);
    if (c->opt.log_enabled) /* the log belongs to the session that started it */
        cmd_out_log_stop(c);
}

/* ---- inputs ------------------------------------------------------------------------------------- */
/* Remember a line typed at the terminal: in memory, and appended to the history file at once
 * (so several sessions interleave and a killed session keeps its lines). Lines starting with a
 * blank and repeats of the previous line are not kept. */
static void remember(const char *line)
{
    if (!*line || isspace((unsigned char)*line))
        return;
    HIST_ENTRY *prev = *R->history_length > 0 ?
        R->history_get(*R->history_base + *R->history_length - 1) : NULL;
    if (prev && !strcmp(prev->line, line))
        return;
    R->add_history(line);
    if (!hist_file)
        return;
    int fd = open(hist_file, O_WRONLY | O_CREAT | O_APPEND, 0600); /* append_history needs it */
    if (fd >= 0) {
        close(fd);
        R->append_history(1, hist_file);
    }
}

static char *readline_next(const char *prompt)
{
    interrupted = 0;
    fflush(stdout);
    *R->rl_outstream = cmd_out_terminal(); /* the terminal, not the log */
    char *line = R->readline(prompt);
    interrupted = 0; /* a Ctrl-C at the prompt must not interrupt the command */
    cmd_out_new_command(); /* a fresh page */
    if (line)
        remember(line);
    return line;
}

/* `source FILE`: its lines become a script frame of the command feed, read whole (a script
 * that sources itself stops at 16 levels). An error ends it and the scripts that sourced it. */
int cmd_source(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    char why[160];
    if (dbg_file_regular(argv[0], 0, NULL, why, sizeof why) != 0)
        return cmd_error(c, "%s: %s.", argv[0], why);
    int scripts = 0;
    for (int i = 0; i < c->nframes; i++)
        scripts += (c->frames[i].flags & CMD_FF_SCRIPT) != 0;
    if (scripts >= 16)
        return cmd_error(c, "Scripts nested too deeply.");
    size_t len = 0;
    char *text = dbg_file_read_all(argv[0], &len);
    if (!text)
        return cmd_error(c, "%s: %s.", argv[0], strerror(errno ? errno : EIO));
    int base = c->nframes;
    int rc = cmd_feed_push(c, CMD_FR_TEXT, CMD_FF_NEST | CMD_FF_SCRIPT, argv[0], NULL, text, len);
    free(text);
    if (rc != 0 || c->feeding)
        return rc; /* the feed reads it next */
    return cmd_feed_run_local(c, base);
}

int cmd_echo(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    while (*args == ' ' || *args == '\t')
        args++;
    size_t n = strlen(args), k = 0;
    char *out = malloc(n + 1);  /* escapes only shrink the text */
    if (!out)
        return cmd_error(c, "Out of memory.");
    for (const char *p = args; *p; p++) {
        if (*p != '\\') {
            out[k++] = *p;
            continue;
        }
        p++;
        switch (*p) {
        case 'n': out[k++] = '\n'; break;
        case 't': out[k++] = '\t'; break;
        case '\\': out[k++] = '\\'; break;
        case '"': out[k++] = '"'; break;
        case 'a': out[k++] = '\a'; break;
        case 0: p--; break; /* trailing backslash: nothing (gdb continues the line) */
        default: out[k++] = *p; break;
        }
    }
    out[k] = 0;
    cmd_ui_text(c, out);        /* through the model: stdout, or JSON mode's "output" */
    free(out);
    fflush(stdout);
    return 0;
}

int cmd_quit(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc == 1) {
        char *end;
        long v = strtol(argv[0], &end, 0);
        if (*end)
            return cmd_error(c, "Usage: quit [STATUS]");
        if (cmd_confirm_kill(c, "Quit anyway?") != 0)
            return -1;
        c->quit = (int)(v & 0xff) | 0x100;
    } else {
        if (cmd_confirm_kill(c, "Quit anyway?") != 0)
            return -1;
        c->quit = 1;
    }
    return 0;
}

/* ---- completion (the candidates come from cmd_complete.c) ------------------------------------- */
static char **matches;

static char *next_match(const char *text, int state)
{
    static int idx;
    (void)text;
    if (!state)
        idx = 0;
    return matches && matches[idx] ? strdup(matches[idx++]) : NULL;
}

static char *word_breaks(void)
{
    static char breaks[64];
    snprintf(breaks, sizeof breaks, "%s", cmd_complete_breaks(*R->rl_line_buffer, *R->rl_point));
    return breaks;
}

static char **complete(const char *text, int start, int end)
{
    int flags;
    *R->rl_attempted_completion_over = 1;
    cmd_complete_free(matches);
    matches = cmd_complete(completion_ctx, *R->rl_line_buffer, start, end, &flags);
    if (flags & CMD_COMPLETE_FILES) {
        *R->rl_attempted_completion_over = 0; /* readline's file name completion */
        return NULL;
    }
    if (!matches || !matches[0])
        return NULL;
    /* "saxpy.cu:" and "ptx:" go on with a line number: no space after them */
    size_t l = strlen(matches[0]);
    if (!matches[1] && l && matches[0][l - 1] == ':')
        *R->rl_completion_append_character = 0;
    return R->rl_completion_matches(text, next_match);
}

/* Ctrl-C while readline waits for input: readline has echoed ^C; drop the line and give a fresh
 * prompt (the session goes on). */
static int signal_event(void)
{
    if (!interrupted)
        return 0;
    interrupted = 0;
    R->rl_replace_line("", 0);
    *R->rl_point = *R->rl_end = *R->rl_mark = 0;
    R->using_history(); /* back at the end of the history list */
    R->rl_crlf();
    R->rl_on_new_line();
    R->rl_redisplay();
    return 0;
}

/* PTXDBG_HISTORY names the history file ("" = none); else ~/.ptxdbg_history. PTXDBG_HISTSIZE
 * bounds it (default 1000 lines). */
static void history_setup(void)
{
    const char *e = getenv("PTXDBG_HISTSIZE");
    if (e && *e) {
        char *end;
        long v = strtol(e, &end, 10);
        if (!*end && v >= 0 && v <= 1000000)
            hist_max = (int)v;
    }
    free(hist_file);
    hist_file = NULL;
    const char *p = getenv("PTXDBG_HISTORY");
    if (p) {
        if (*p)
            hist_file = strdup(p);
    } else {
        const char *home = getenv("HOME");
        if (home && *home) {
            size_t n = strlen(home) + 32;
            hist_file = malloc(n);
            if (hist_file)
                snprintf(hist_file, n, "%s%s.ptxdbg_history", home,
                         home[strlen(home) - 1] == '/' ? "" : "/");
        }
    }
    R->using_history();
    R->stifle_history(hist_max);
    if (hist_file) {
        R->read_history(hist_file); /* absent the first time */
        R->history_truncate_file(hist_file, hist_max); /* sessions append; keep the file bounded */
    }
}

/* readline's setup for the terminal: completion, Ctrl-C at the prompt, history. */
static void terminal_setup(cmd_ctx *c)
{
    completion_ctx = c;
    R = cmd_rl();
    if (!R)
        return; /* plain lines */
    *R->rl_readline_name = "ptxdbg";
    *R->rl_attempted_completion_function = complete;
    *R->rl_completion_word_break_hook = word_breaks;
    *R->rl_signal_event_hook = signal_event;
    history_setup();
}

/* One line read from fd without buffering ahead, so that whoever reads the fd next (the parent
 * ptxdbg after the program) finds the rest. NULL at the end of input. */
static char *fd_line(int fd)
{
    size_t n = 0, cap = 128;
    char *line = malloc(cap);
    while (line) {
        char ch;
        ssize_t r = read(fd, &ch, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (n)
                break;
            free(line);
            return NULL;
        }
        if (ch == '\n')
            break;
        if (n + 2 > cap) {
            char *nl = cap < (1u << 20) ? realloc(line, cap * 2) : NULL;
            if (!nl) {
                free(line);
                return NULL;
            }
            line = nl;
            cap *= 2;
        }
        line[n++] = ch;
    }
    if (line) {
        while (n > 0 && line[n - 1] == '\r')
            n--;
        line[n] = 0;
    }
    return line;
}

char *cmd_read_line(cmd_ctx *c, const char *prompt)
{
    if (!isatty(STDIN_FILENO)) {
        c->interactive = 0;
        return fd_line(STDIN_FILENO);
    }
    if (completion_ctx != c) {
        terminal_setup(c);
        if (!c->inproc) /* a program's session pages only at its stops (cmd_inproc.c) */
            cmd_out_pager(c, 1);
    }
    c->interactive = 1;
    if (!R) { /* no readline: the prompt, then a plain line */
        FILE *t = cmd_out_terminal();
        interrupted = 0;
        fflush(stdout);
        fputs(prompt ? prompt : "(ptxdbg) ", t);
        fflush(t);
        char *line = fd_line(STDIN_FILENO);
        interrupted = 0;
        cmd_out_new_command();
        return line;
    }
    return readline_next(prompt ? prompt : "(ptxdbg) ");
}

void cmd_term_close(cmd_ctx *c)
{
    if (completion_ctx != c)
        return;
    cmd_out_pager(c, 0);
    if (hist_file && R)
        R->history_truncate_file(hist_file, hist_max);
    free(hist_file);
    hist_file = NULL;
    if (R)
        R->rl_clear_history(); /* also frees the undo lists readline keeps in entries */
    cmd_complete_free(matches);
    matches = NULL;
    completion_ctx = NULL;
}

/* The interactive loop: the terminal's lines (readline on a terminal, plain lines otherwise). */
int cmd_repl(cmd_ctx *c)
{
    int base = c->nframes;
    if (cmd_feed_push_term(c, NULL) != 0)
        return -1;
    int rc = cmd_feed_run(c, base);
    while (c->nframes > base)
        cmd_feed_pop(c);
    cmd_term_close(c);
    return rc;
}
