/* cmd_repl.c - reading commands: readline REPL with history and completion, scripts, source/echo/quit. */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <readline/history.h>
#include <readline/readline.h>
#include "cmd.h"

/* Set by SIGINT; run control polls it (exec_run_opts.interrupt). */
static volatile int interrupted;
static cmd_ctx *completion_ctx;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

void cmd_ctx_init(cmd_ctx *c, dbg_session *s)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->next_disp = 1;
    c->x_fmt = 'x';
    c->x_size = 'w';
    c->shown_launch = -1;
    dbg_set_demangler(s, cmd_demangle);
    dbg_set_interrupt_flag(s, &interrupted);
    cmd_install_cond_hooks(c);
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
    cmd_history_free(&c->hist);
    cmd_ptx_free(c);
}

/* ---- inputs ------------------------------------------------------------------------------------- */
static char *file_next(cmd_input *in, const char *prompt)
{
    (void)prompt;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, (FILE *)in->ctx);
    if (n < 0) {
        free(line);
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    return line;
}

static char *readline_next(cmd_input *in, const char *prompt)
{
    (void)in;
    interrupted = 0;
    char *line = readline(prompt);
    if (line && *line && !isspace((unsigned char)*line))
        add_history(line);
    return line;
}

/* Execute every line of `in`: the REPL and `source` both come here. */
int cmd_run_input(cmd_ctx *c, cmd_input *in, const char *prompt)
{
    cmd_input *saved = c->in;
    c->in = in;
    int rc = 0;
    while (!c->quit) {
        fflush(stdout);
        char *line = in->next(in, prompt);
        if (!line) {
            if (c->interactive && prompt)
                printf("quit\n");
            break;
        }
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        int r;
        if (!*p && c->interactive && c->repeat[0]) {
            r = cmd_execute(c, c->repeat);
        } else {
            if (*p && c->interactive)
                c->repeat[0] = 0;
            r = cmd_execute(c, line);
            if (*p && c->interactive && !c->repeat[0]) {
                /* repeatable commands: step/next/stepi/nexti/continue/until/x/list */
                char word[64];
                size_t n = strcspn(p, " \t/");
                snprintf(word, sizeof word, "%.*s", (int)n, p);
                const cmd_def *d = cmd_lookup(cmd_table, word, NULL, 0);
                if (d && d->repeat)
                    snprintf(c->repeat, sizeof c->repeat, "%s",
                             !strcmp(d->name, "x") || !strcmp(d->name, "list") ? d->name : p);
            }
        }
        if (r != 0)
            rc = -1;
        free(line);
    }
    c->in = saved;
    return rc;
}

int cmd_source(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    FILE *f = fopen(argv[0], "r");
    if (!f)
        return cmd_error(c, "%s: No such file or directory.", argv[0]);
    if (c->depth > 16) {
        fclose(f);
        return cmd_error(c, "Scripts nested too deeply.");
    }
    cmd_input in = {file_next, f};
    int interactive = c->interactive;
    c->interactive = 0;
    c->depth++;
    int rc = cmd_run_input(c, &in, NULL);
    c->depth--;
    c->interactive = interactive;
    fclose(f);
    return rc;
}

int cmd_echo(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)c;
    (void)argc;
    (void)argv;
    while (*args == ' ' || *args == '\t')
        args++;
    for (const char *p = args; *p; p++) {
        if (*p != '\\') {
            putchar(*p);
            continue;
        }
        p++;
        switch (*p) {
        case 'n': putchar('\n'); break;
        case 't': putchar('\t'); break;
        case '\\': putchar('\\'); break;
        case '"': putchar('"'); break;
        case 'a': putchar('\a'); break;
        case 0: p--; break; /* trailing backslash: nothing (gdb continues the line) */
        default: putchar(*p); break;
        }
    }
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
        c->quit = (int)(v & 0xff) | 0x100;
    } else {
        c->quit = 1;
    }
    return 0;
}

/* ---- completion --------------------------------------------------------------------------------- */
static char **cands;
static int ncands;

static void cand_add(const char *s)
{
    for (int i = 0; i < ncands; i++)
        if (!strcmp(cands[i], s))
            return;
    char **n = realloc(cands, (size_t)(ncands + 1) * sizeof *n);
    if (!n)
        return;
    cands = n;
    cands[ncands] = strdup(s);
    if (cands[ncands])
        ncands++;
}

static void cand_clear(void)
{
    for (int i = 0; i < ncands; i++)
        free(cands[i]);
    free(cands);
    cands = NULL;
    ncands = 0;
}

static void add_table(const cmd_def *t)
{
    for (const cmd_def *d = t; d->name; d++)
        cand_add(d->name);
}

static void add_symbols(cmd_ctx *c, int regs)
{
    const ptx_module *m = dbg_module(c->s);
    if (m)
        for (int i = 0; i < m->nfuncs; i++) {
            const ptx_func *f = m->funcs[i];
            if (f->is_prototype)
                continue;
            char base[512];
            dbg_func_name(c->s, f, 0, base, sizeof base);
            cand_add(base);
            cand_add(f->sym->name);
        }
    for (int i = 0; i < dbg_buffer_count(c->s); i++)
        cand_add(dbg_buffer_at(c->s, i)->name);
    if (!regs)
        return;
    static const char *builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
                                     "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ctaid.x",
                                     "%nctaid.x", "%laneid", "%warpid", "$pc", NULL};
    for (int i = 0; builtins[i]; i++)
        cand_add(builtins[i]);
    uint32_t pc;
    const ptx_func *f;
    const ptx_insn *in;
    if (dbg_focus_pc(c->s, &pc) == 0 && exec_pc_insn(dbg_machine(c->s), pc, &f, &in) == 0)
        for (int i = 0; i < f->nregs; i++)
            cand_add(f->regs[i]->name);
}

static char *generator(const char *text, int state)
{
    static int idx;
    static size_t len;
    if (!state) {
        idx = 0;
        len = strlen(text);
    }
    while (idx < ncands) {
        const char *s = cands[idx++];
        if (!strncmp(s, text, len))
            return strdup(s);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    cmd_ctx *c = completion_ctx;
    cand_clear();
    rl_attempted_completion_over = 1;
    char first[64] = "";
    const char *p = rl_line_buffer;
    while (isspace((unsigned char)*p))
        p++;
    size_t n = strcspn(p, " \t/");
    snprintf(first, sizeof first, "%.*s", (int)n, p);
    if (start <= (int)(p - rl_line_buffer)) {
        add_table(cmd_table);
    } else {
        const cmd_def *d = cmd_lookup(cmd_table, first, NULL, 0);
        const char *name = d ? d->name : "";
        if (!strcmp(name, "info")) {
            add_table(cmd_info_table);
        } else if (!strcmp(name, "delete") || !strcmp(name, "enable") ||
                   !strcmp(name, "disable") || !strcmp(name, "condition") ||
                   !strcmp(name, "ignore") || !strcmp(name, "commands")) {
            for (int i = 0; i < dbg_bp_count(c->s); i++) {
                char num[16];
                snprintf(num, sizeof num, "%d", dbg_bp_at(c->s, i)->num);
                cand_add(num);
            }
        } else if (!strcmp(name, "set")) {
            static const char *sets[] = {"var", "scheduler-locking", "step-granularity", NULL};
            for (int i = 0; sets[i]; i++)
                cand_add(sets[i]);
            add_symbols(c, 1);
        } else if (!strcmp(name, "cuda")) {
            static const char *w[] = {"kernel", "block", "thread", "warp", "lane", NULL};
            for (int i = 0; w[i]; i++)
                cand_add(w[i]);
        } else if (!strcmp(name, "file") || !strcmp(name, "source") || !strcmp(name, "dump")) {
            rl_attempted_completion_over = 0; /* file names */
            return NULL;
        } else {
            add_symbols(c, 1);
        }
    }
    return rl_completion_matches(text, generator);
}

static char *history_path(void)
{
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    size_t n = strlen(home) + 32;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/.ptxdbg_history", home);
    return p;
}

/* The interactive loop: readline on a terminal, plain lines otherwise. */
int cmd_repl(cmd_ctx *c)
{
    int tty = isatty(STDIN_FILENO);
    if (!tty) {
        cmd_input in = {file_next, stdin};
        c->interactive = 0;
        return cmd_run_input(c, &in, NULL);
    }
    c->interactive = 1;
    completion_ctx = c;
    rl_readline_name = "ptxdbg";
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = " \t\n\"'`><=;|&{(,*[]+-!~";
    char *hist = history_path();
    using_history();
    stifle_history(1000);
    if (hist)
        read_history(hist);
    cmd_input in = {readline_next, NULL};
    int rc = cmd_run_input(c, &in, "(ptxdbg) ");
    if (hist) {
        write_history(hist);
        free(hist);
    }
    cand_clear();
    return rc;
}
