/* cmd_settings.c - the settings table (one source of truth for set, show, help set/show, completion). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "chk.h"
#include "cmd_ui.h"

typedef enum {
    ST_GROUP,                 /* a prefix: "print", "logging", "cuda" */
    ST_BOOL,                  /* int: on/off */
    ST_UINT,                  /* uint64_t: N; 0 or "unlimited" = no limit when `unlimited` */
    ST_ENUM,                  /* int: index into the blank-separated `values` */
    ST_STRING,                /* char[CMD_PATH_MAX] */
    ST_CUSTOM,                /* set/get functions only */
} st_kind;

typedef struct cmd_setting {
    const char *name;         /* words separated by one blank: "print elements" */
    st_kind kind;
    const char *values;       /* ENUM choices; UINT: NULL */
    const char *doc;          /* help text; the first sentence is the summary */
    const char *show;         /* `show` sentence, %s = the value */
    void *(*ref)(cmd_ctx *c); /* the storage of BOOL, UINT, ENUM, STRING */
    uint64_t max;             /* UINT: largest value (0: any) */
    int unlimited;            /* UINT: 0 and "unlimited" mean no limit */
    /* Optional: called after a new value is stored (BOOL..STRING), or to parse and apply it
     * (CUSTOM; `value` is the rest of the line). 0 or -1 (message printed). */
    int (*apply)(cmd_ctx *c, const char *value);
    void (*get)(cmd_ctx *c, char *out, size_t n); /* CUSTOM: the value as text */
} cmd_setting;

/* ---- storage accessors ----------------------------------------------------------------------- */
#define OPT(field) static void *ref_##field(cmd_ctx *c) { return &c->opt.field; }
OPT(listsize) OPT(height) OPT(width)
OPT(pagination) OPT(confirm) OPT(log_enabled) OPT(log_file) OPT(log_overwrite) OPT(log_redirect)
#undef OPT
#define DOPT(field) static void *ref_##field(cmd_ctx *c) { return &dbg_opts(c->s)->field; }
DOPT(print_elements) DOPT(print_repeats) DOPT(print_pretty)
DOPT(run_max_steps) DOPT(scheduler_locking) DOPT(lane_steps) DOPT(break_on_launch)
#undef DOPT

/* ---- custom settings ------------------------------------------------------------------------- */
static int set_threads(cmd_ctx *c, const char *v)
{
    long n;
    if (cmd_parse_long(v, 0, 256, &n) != 0)
        return cmd_error(c, "Usage: set threads N (worker threads, 1 to 256; 0: one per CPU)");
    dbg_opts(c->s)->threads = (int)n;
    return 0;
}

static void get_threads(cmd_ctx *c, char *out, size_t n)
{
    int t = dbg_opts(c->s)->threads;
    if (t)
        snprintf(out, n, "%d", t);
    else
        snprintf(out, n, "%d (one per CPU)", dbg_threads_in_effect(c->s));
}

/* set scheduler round-robin | random [SEED] (also random:SEED, as --schedule takes it) */
static int set_scheduler(cmd_ctx *c, const char *v)
{
    dbg_options *o = dbg_opts(c->s);
    char word[32];
    const char *p = v ? v : "";
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " :");
    if (n >= sizeof word)
        n = sizeof word - 1;
    memcpy(word, p, n);
    word[n] = 0;
    const char *rest = p + strcspn(p, " :");
    while (*rest == ' ' || *rest == ':')
        rest++;
    if (!strcmp(word, "round-robin") && !*rest) {
        o->schedule_random = 0;
        return 0;
    }
    if (!strcmp(word, "random")) {
        uint64_t seed = 1;
        if (*rest) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(rest, &end, 0);
            while (*end == ' ')
                end++;
            if (!isdigit((unsigned char)*rest) || *end || errno == ERANGE)
                return cmd_error(c, "Usage: set scheduler random [SEED] (SEED: a number, "
                                    "'%s' is not)", rest);
            seed = s;
        }
        o->schedule_random = 1;
        o->schedule_seed = seed;
        return 0;
    }
    return cmd_error(c, "Usage: set scheduler round-robin|random [SEED]");
}

static void get_scheduler(cmd_ctx *c, char *out, size_t n)
{
    const dbg_options *o = dbg_opts(c->s);
    if (o->schedule_random)
        snprintf(out, n, "random with seed %llu", (unsigned long long)o->schedule_seed);
    else
        snprintf(out, n, "round-robin");
}

static int set_auto_core(cmd_ctx *c, const char *v)
{
    char *words[1] = {(char *)v};
    return cmd_set_auto_core(c, v, 1, words);
}

static void get_auto_core(cmd_ctx *c, char *out, size_t n)
{
    (void)c;
    snprintf(out, n, "%s", cmd_auto_core_state() ? "on" : "off");
}

static int set_substitute(cmd_ctx *c, const char *v)
{
    char *buf;
    char **argv;
    char *line = malloc(strlen(v) + 20);
    if (!line)
        return cmd_error(c, "Out of memory.");
    sprintf(line, "substitute-path %s", v);
    int argc = cmd_split(line, &buf, &argv);
    int rc = cmd_set_substitute(c, argc, argv);
    free(argv);
    free(buf);
    free(line);
    return rc;
}

static void get_substitute(cmd_ctx *c, char *out, size_t n)
{
    (void)c;
    snprintf(out, n, "%s", "");
}

static int set_directories(cmd_ctx *c, const char *v)
{
    (void)v;
    return cmd_error(c, "Use \"directory DIR...\" to add source directories (\"directory\" alone "
                        "resets them).");
}

/* set check NAME on|off (cmd_check.c) */
#define CHECK_ROW(nm) \
    static int set_check_##nm(cmd_ctx *c, const char *v) { return cmd_check_set(c, #nm, v); } \
    static void get_check_##nm(cmd_ctx *c, char *out, size_t n) { cmd_check_get(c, #nm, out, n); }
CHECK_ROW(memcheck) CHECK_ROW(racecheck) CHECK_ROW(initcheck) CHECK_ROW(synccheck) CHECK_ROW(all)
CHECK_ROW(stop) CHECK_ROW(leaks)
#undef CHECK_ROW
static void *ref_check_report(cmd_ctx *c) { return c->opt.check_report; }

/* set fill BYTE|off: initcheck's companion (chk_set_fill; PTXDBG_FILL) */
static int set_fill(cmd_ctx *c, const char *v)
{
    char err[160];
    int byte;
    if (chk_parse_fill(v, &byte, err, sizeof err) != 0)
        return cmd_error(c, "%s.", err);
    chk_set_fill(dbg_checks(c->s), byte);
    return 0;
}
static void get_fill(cmd_ctx *c, char *out, size_t n)
{
    int b = chk_fill(dbg_checks(c->s));
    if (b < 0)
        snprintf(out, n, "zeros (off)");
    else
        snprintf(out, n, "the byte 0x%02X", (unsigned)b);
}

/* set logging FILE / overwrite / redirect while logging: gdb keeps the open log as it is */
static int log_changed(cmd_ctx *c, const char *v)
{
    (void)v;
    if (c->opt.log_enabled)
        printf("Currently logging to \"%s\".  Turn the logging off and on to make the new "
               "setting effective.\n", c->opt.log_file);
    return 0;
}

static int log_toggle(cmd_ctx *c, const char *v)
{
    (void)v;
    /* the value is already stored: start or stop */
    if (c->opt.log_enabled)
        return cmd_out_log_start(c);
    cmd_out_log_stop(c);
    return 0;
}

static int height_chosen(cmd_ctx *c, const char *v)
{
    (void)v;
    c->opt.height_set = 1;
    return 0;
}

static int set_output(cmd_ctx *c, const char *v) { return cmd_ui_set(c, v); }
static void get_output(cmd_ctx *c, char *out, size_t n) { snprintf(out, n, "%s", cmd_ui_mode(c)); }

static int set_width(cmd_ctx *c, const char *v)
{
    (void)v;
    if (c->opt.width) {
        c->opt.width = 0;
        return cmd_error(c, "ptxdbg does not wrap output: only \"set width 0\" (unlimited) is "
                            "supported.");
    }
    return 0;
}

static const cmd_setting settings[] = {
    {"auto-core", ST_CUSTOM, "on off",
     "Write a core file automatically when a kernel traps or faults (also PTXDBG_AUTO_CORE=1 "
     "or PTXDBG_COREDUMP=1).",
     "Writing a core file when a kernel traps or faults is %s.", NULL, 0, 0, set_auto_core,
     get_auto_core},
    {"check", ST_GROUP, NULL,
     "Checkers (docs/CHECKERS.md): set check NAME on|off (memcheck, racecheck, initcheck, "
     "synccheck, all), set check stop on|off, set check leaks on|off, set check report FILE.",
     NULL, NULL, 0, 0, NULL, NULL},
    {"check all", ST_CUSTOM, "on off", "Every checker implemented so far (info checks).",
     "Checking is %s.", NULL, 0, 0, set_check_all, get_check_all},
    {"check initcheck", ST_CUSTOM, "on off",
     "initcheck: reads of global, shared and local memory and of registers never written "
     "(docs/CHECKERS.md).",
     "initcheck is %s.", NULL, 0, 0, set_check_initcheck, get_check_initcheck},
    {"check leaks", ST_CUSTOM, "on off",
     "At the program's exit, report the allocations it never freed (cudaMalloc and the "
     "others) with where they were made (--leak-check full).",
     "The leak check at program exit is %s.", NULL, 0, 0, set_check_leaks, get_check_leaks},
    {"check memcheck", ST_CUSTOM, "on off",
     "memcheck (on by default): out-of-range, misaligned, null, freed and read-only accesses "
     "in every space, device heap errors. A finding stops at the lane and instruction and says "
     "whether a GPU would have faulted there.", "memcheck is %s.", NULL, 0, 0,
     set_check_memcheck, get_check_memcheck},
    {"check racecheck", ST_CUSTOM, "on off",
     "racecheck: hazards between threads with no ordering between them (not implemented yet).",
     "racecheck is %s.", NULL, 0, 0, set_check_racecheck, get_check_racecheck},
    {"check report", ST_STRING, NULL,
     "Write every finding as one JSON object per line to this file when the session (or the "
     "program) ends (\"\": none; --check-report=FILE).",
     "Findings are written to \"%s\".", ref_check_report, 0, 0, NULL, NULL},
    {"check stop", ST_CUSTOM, "on off",
     "A finding stops the kernel like a breakpoint (on, the default) or is only reported "
     "(off; the kernel goes on, a fault still ends it).",
     "Stopping at findings is %s.", NULL, 0, 0, set_check_stop, get_check_stop},
    {"check synccheck", ST_CUSTOM, "on off",
     "synccheck: divergent barriers, mismatched barrier counts, shuffles reading lanes that "
     "exited, __syncwarp outside its mask, mbarrier and cluster barrier misuse.",
     "synccheck is %s.", NULL, 0, 0, set_check_synccheck, get_check_synccheck},
    {"confirm", ST_BOOL, NULL,
     "Ask before launch, run or quit end a live kernel (interactive sessions only; -batch "
     "never asks).", "Whether to confirm potentially dangerous operations is %s.", ref_confirm,
     0, 0, NULL, NULL},
    {"cuda", ST_GROUP, NULL, "CUDA settings.", NULL, NULL, 0, 0, NULL, NULL},
    {"cuda break_on_launch", ST_ENUM, "none application all",
     "Stop at the first line of every kernel launched: none (the default), application (the "
     "kernels of the program; every kernel of a PTX file is one) or all (system kernels too). "
     "`start` stops there once.",
     "Stopping at the first line of launched kernels is \"%s\".", ref_break_on_launch, 0, 0, NULL, NULL},
    {"directories", ST_CUSTOM, NULL, "Source directories (change them with `directory`).",
     NULL, NULL, 0, 0, set_directories, NULL},
    {"fill", ST_CUSTOM, NULL,
     "Fill fresh memory with a byte instead of zeros: set fill 0xA5 | set fill off (also "
     "PTXDBG_FILL=0xA5). Device allocations (cudaMalloc and friends, device malloc), shared "
     "memory at each block's start and local frames then hold the byte, as glibc's "
     "MALLOC_PERTURB_ does, so a read of memory never written changes results visibly; module "
     "variables stay zero (the PTX ISA zero-initialises them).",
     "Fresh memory holds %s.", NULL, 0, 0, set_fill, get_fill},
    {"height", ST_UINT, NULL,
     "Lines in a page: interactive output stops after a page and asks \"--Type <RET> for more, "
     "q to quit, c to continue without paging--\" (0 or unlimited: never; the terminal's height "
     "by default).", "Number of lines ptxdbg thinks are in a page is %s.", ref_height, 0, 1,
     height_chosen, NULL},
    {"listsize", ST_UINT, NULL, "Lines `list` shows (0 or unlimited: the whole file).",
     "Number of source lines ptxdbg will list by default is %s.", ref_listsize, 0, 1, NULL,
     NULL},
    {"logging", ST_GROUP, NULL,
     "Copy output to a file: set logging on|off (or enabled on|off), file FILE, overwrite "
     "on|off, redirect on|off.", NULL, NULL, 0, 0, NULL, NULL},
    {"logging enabled", ST_BOOL, NULL,
     "Copy every line ptxdbg prints (messages and errors too) to the log file.",
     "Logging is %s.", ref_log_enabled, 0, 0, log_toggle, NULL},
    {"logging file", ST_STRING, NULL, "The log file (ptxdbg.txt by default).",
     "The current logfile is \"%s\".", ref_log_file, 0, 0, log_changed, NULL},
    {"logging overwrite", ST_BOOL, NULL,
     "Empty the log file when logging starts (off: append to it).",
     "Whether logging overwrites or appends to the log file is %s.", ref_log_overwrite, 0, 0,
     log_changed, NULL},
    {"logging redirect", ST_BOOL, NULL,
     "Send output only to the log file, not to the terminal.",
     "The logging output mode is %s.", ref_log_redirect, 0, 0, log_changed, NULL},
    {"max-steps", ST_UINT, NULL,
     "Stop a launch, run, continue or any step (step, next, stepi, nexti, finish, until, "
     "advance, by warp or -lane) after N warp-instructions (one instruction of one warp; 0 or "
     "unlimited: no limit); `continue` goes on for N more. The default is unlimited "
     "interactively (Ctrl-C stops a kernel) and 2^32 in -batch mode (or $PTXDBG_MAX_STEPS), "
     "where reaching the limit makes the exit status non-zero.",
     "Limit on warp-instructions per launch, run, continue or step is %s.",
     ref_run_max_steps, 0, 1, NULL, NULL},
    {"output", ST_CUSTOM, "text json",
     "How command results are written: text (as gdb) or json (one JSON object a line, "
     "docs/JSON.md; also --json).",
     "Command results are written as %s.", NULL, 0, 0, set_output, get_output},
    {"pagination", ST_BOOL, NULL, "Stop after every page of interactive output (see height).",
     "State of pagination is %s.", ref_pagination, 0, 0, NULL, NULL},
    {"print", ST_GROUP, NULL, "How values are printed.", NULL, NULL, 0, 0, NULL, NULL},
    {"print elements", ST_UINT, NULL,
     "Array elements and string characters printed before \"...\" (0 or unlimited: all).",
     "Limit on string chars or array elements to print is %s.", ref_print_elements, 0, 1,
     NULL, NULL},
    {"print pretty", ST_BOOL, NULL, "Print structures one member a line, indented.",
     "Pretty formatting of structures is %s.", ref_print_pretty, 0, 0, NULL, NULL},
    {"print repeats", ST_UINT, NULL,
     "Runs of at least N equal array elements print once with <repeats K times> (0 or "
     "unlimited: never).", "Threshold for repeated print elements is %s.", ref_print_repeats,
     0, 1, NULL, NULL},
    {"scheduler", ST_CUSTOM, NULL,
     "The order warps and blocks run in: round-robin (the default: each warp runs in turn for "
     "up to 65536 instructions, blocks one after another) or random [SEED] (warps run in "
     "slices of 1 to 64 instructions in a random order, blocks take turns of random length "
     "in a random order, drawn from SEED, 1 by default: the same seed gives the same run), to "
     "make races show (also --schedule=random:SEED). Not gdb's scheduler-locking: `set "
     "scheduler` names this setting exactly; abbreviations of both are ambiguous.",
     "The scheduler is %s.", NULL, 0, 0, set_scheduler, get_scheduler},
    {"scheduler-locking", ST_ENUM, "off on step",
     "Freeze the other warps while the focused one steps (on and step: while stepping; a "
     "continue always runs every warp).",
     "Mode for locking scheduler during execution is \"%s\".", ref_scheduler_locking, 0, 0,
     NULL, NULL},
    {"step-granularity", ST_ENUM, "warp lane",
     "What steps advance: the focused warp or only the focused lane.",
     "Steps advance the focused %s.", ref_lane_steps, 0, 0, NULL, NULL},
    {"substitute-path", ST_CUSTOM, NULL,
     "set substitute-path FROM TO: look for sources under TO where the module names FROM.",
     NULL, NULL, 0, 0, set_substitute, get_substitute},
    {"threads", ST_CUSTOM, NULL,
     "Worker threads (CPU cores) a continue may use to run a kernel's blocks to completion "
     "(0, the default: one per CPU; also -j N). Only runs with no breakpoint, watchpoint or "
     "step active, of kernels whose blocks cannot observe their order (no global atomics "
     "with used results, malloc, clock reads), go parallel; results are those of one thread.",
     "Kernels run on up to %s worker threads.", NULL, 0, 0, set_threads, get_threads},
    {"width", ST_UINT, NULL,
     "Characters in a line: ptxdbg never wraps output, so only 0 (unlimited) is accepted.",
     "Number of characters ptxdbg thinks are in a line is %s.", ref_width, 0, 1, set_width,
     NULL},
};
#define NSETTINGS ((int)(sizeof settings / sizeof settings[0]))

void cmd_opts_init(cmd_opts *o)
{
    memset(o, 0, sizeof *o);
    o->listsize = 10;
    o->pagination = 1;
    o->confirm = 1;
    snprintf(o->log_file, sizeof o->log_file, "ptxdbg.txt");
}

int cmd_list_centre(const cmd_ctx *c, int line)
{
    if (!c->opt.listsize || c->opt.listsize > 100000000)
        return 1;
    int first = line - (int)(c->opt.listsize / 2);
    return first < 1 ? 1 : first;
}

/* ---- names ----------------------------------------------------------------------------------- */
static int nwords(const char *name)
{
    int n = 1;
    for (const char *p = name; *p; p++)
        n += *p == ' ';
    return n;
}

/* Word k of a name (pointer and length). */
static const char *word_of(const char *name, int k, size_t *len)
{
    const char *p = name;
    for (int i = 0; i < k; i++)
        p = strchr(p, ' ') + 1;
    *len = strcspn(p, " ");
    return p;
}

/* Whether row r lies under group prefix g (NULL: top level) at word depth k. */
static int under(const cmd_setting *r, const cmd_setting *g, int k)
{
    if (nwords(r->name) != k + 1)
        return 0;
    if (!g)
        return k == 0;
    size_t l = strlen(g->name);
    return !strncmp(r->name, g->name, l) && r->name[l] == ' ';
}

/* The row word w names under group g at depth k: exact word, else unique prefix. NULL with a
 * message naming the command (`verb`) when unknown or ambiguous. */
static const cmd_setting *find_word(cmd_ctx *c, const char *verb, const cmd_setting *g, int k,
                                    const char *w)
{
    const cmd_setting *hit = NULL;
    int nhit = 0;
    char list[512] = "";
    if (!g && (!strcmp(w, "p") || !strcmp(w, "pr"))) /* gdb's aliases of set/show print */
        w = "print";
    size_t wl = strlen(w);
    for (int i = 0; i < NSETTINGS; i++) {
        const cmd_setting *r = &settings[i];
        if (!under(r, g, k))
            continue;
        size_t l;
        const char *rw = word_of(r->name, k, &l);
        if (l == wl && !strncmp(rw, w, l))
            return r;
        if (wl && wl < l && !strncmp(rw, w, wl)) {
            hit = r;
            nhit++;
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%.*s", n ? ", " : "", (int)l, rw);
        }
    }
    if (nhit == 1)
        return hit;
    char pre[128];
    snprintf(pre, sizeof pre, "%s%s%s", verb, g ? " " : "", g ? g->name : "");
    if (nhit > 1)
        cmd_error(c, "Ambiguous %s command \"%s\": %s.", pre, w, list);
    else
        cmd_error(c, "Undefined %s command: \"%s\".  Try \"help %s\".", pre, w, pre);
    return NULL;
}

/* Resolve the setting named by the first words of argv. *used = words consumed. A group with no
 * further word is returned as the group. NULL: message printed. */
static const cmd_setting *resolve(cmd_ctx *c, const char *verb, int argc, char **argv, int *used)
{
    const cmd_setting *g = NULL;
    int k = 0;
    while (k < argc) {
        const cmd_setting *r = find_word(c, verb, g, k, argv[k]);
        if (!r)
            return NULL;
        k++;
        /* gdb's older spelling: set logging on|off = set logging enabled on|off */
        if (r->kind == ST_GROUP && !strcmp(r->name, "logging") && k < argc &&
            (!strcmp(argv[k], "on") || !strcmp(argv[k], "off"))) {
            for (int i = 0; i < NSETTINGS; i++)
                if (!strcmp(settings[i].name, "logging enabled"))
                    r = &settings[i];
            *used = k;
            return r;
        }
        if (r->kind != ST_GROUP || k == argc) {
            *used = k;
            return r;
        }
        g = r;
    }
    *used = k;
    return g;
}

/* ---- values ---------------------------------------------------------------------------------- */
static int parse_bool(const char *v, int *out)
{
    static const char *on[] = {"on", "1", "yes", "enable", ""}, *off[] = {"off", "0", "no",
                                                                            "disable"};
    for (size_t i = 0; i < sizeof on / sizeof *on; i++)
        if (!strcmp(v, on[i])) {
            *out = 1;
            return 0;
        }
    for (size_t i = 0; i < sizeof off / sizeof *off; i++)
        if (!strcmp(v, off[i])) {
            *out = 0;
            return 0;
        }
    return -1;
}

static int enum_index(const char *values, const char *v)
{
    int i = 0;
    size_t vl = strlen(v);
    for (const char *p = values; *p; i++) {
        size_t l = strcspn(p, " ");
        if (l == vl && !strncmp(p, v, l))
            return i;
        p += l;
        p += *p == ' ';
    }
    return -1;
}

static void enum_name(const char *values, int idx, char *out, size_t n)
{
    const char *p = values;
    for (int i = 0; i < idx && *p; i++) {
        p += strcspn(p, " ");
        p += *p == ' ';
    }
    snprintf(out, n, "%.*s", (int)strcspn(p, " "), p);
}

static void value_text(cmd_ctx *c, const cmd_setting *r, char *out, size_t n)
{
    switch (r->kind) {
    case ST_BOOL:
        snprintf(out, n, "%s", *(int *)r->ref(c) ? "on" : "off");
        break;
    case ST_UINT: {
        uint64_t v = *(uint64_t *)r->ref(c);
        if (!v && r->unlimited)
            snprintf(out, n, "unlimited");
        else
            snprintf(out, n, "%llu", (unsigned long long)v);
        break;
    }
    case ST_ENUM:
        enum_name(r->values, *(int *)r->ref(c), out, n);
        break;
    case ST_STRING:
        snprintf(out, n, "%s", (char *)r->ref(c));
        break;
    case ST_CUSTOM:
        if (r->get)
            r->get(c, out, n);
        else
            out[0] = 0;
        break;
    case ST_GROUP:
        out[0] = 0;
        break;
    }
}

static int usage_of(cmd_ctx *c, const cmd_setting *r)
{
    switch (r->kind) {
    case ST_BOOL:
        return cmd_error(c, "\"on\" or \"off\" expected.");
    case ST_UINT:
        return cmd_error(c, "Usage: set %s N%s", r->name, r->unlimited ? "|unlimited" : "");
    case ST_ENUM: {
        char list[256];
        snprintf(list, sizeof list, "%s", r->values);
        for (char *p = list; *p; p++)
            if (*p == ' ')
                *p = '|';
        return cmd_error(c, "Usage: set %s %s", r->name, list);
    }
    default:
        return cmd_error(c, "Usage: set %s VALUE", r->name);
    }
}

/* Store `v` (the rest of the line, trimmed) into r. */
static int assign(cmd_ctx *c, const cmd_setting *r, const char *v)
{
    switch (r->kind) {
    case ST_BOOL: {
        int b;
        if (parse_bool(v, &b) != 0)
            return usage_of(c, r);
        *(int *)r->ref(c) = b;
        break;
    }
    case ST_UINT: {
        uint64_t n;
        char *end;
        if (r->unlimited && !strcmp(v, "unlimited")) {
            n = 0;
        } else {
            errno = 0;
            n = strtoull(v, &end, 0);
            if (!isdigit((unsigned char)*v) || *end || errno == ERANGE)
                return *v ? cmd_error(c, "Invalid number \"%s\" for \"set %s\" (N%s).", v,
                                      r->name, r->unlimited ? " or unlimited" : "")
                          : cmd_error(c, "Argument required (integer to set it to%s).",
                                      r->unlimited ? ", or \"unlimited\"" : "");
            if (r->max && n > r->max)
                return cmd_error(c, "Value %s is too large for \"set %s\" (at most %llu).", v,
                                 r->name, (unsigned long long)r->max);
        }
        *(uint64_t *)r->ref(c) = n;
        break;
    }
    case ST_ENUM: {
        int i = enum_index(r->values, v);
        if (i < 0)
            return usage_of(c, r);
        *(int *)r->ref(c) = i;
        break;
    }
    case ST_STRING: {
        if (!*v)
            return cmd_error(c, "Argument required (filename to set it to.).");
        char *s = r->ref(c);
        size_t l = strlen(v);
        if (l >= CMD_PATH_MAX)
            return cmd_error(c, "File name too long.");
        memcpy(s, v, l + 1);
        break;
    }
    case ST_CUSTOM:
        return r->apply(c, v);
    case ST_GROUP:
        return -1;
    }
    return r->apply ? r->apply(c, v) : 0;
}

static void list_group(const cmd_setting *g, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    for (int i = 0; i < NSETTINGS; i++)
        if (under(&settings[i], g, g ? nwords(g->name) : 0)) {
            size_t l;
            const char *w = word_of(settings[i].name, g ? nwords(g->name) : 0, &l);
            k += (size_t)snprintf(out + k, k < n ? n - k : 0, "%s%.*s", k ? ", " : "", (int)l,
                                  w);
        }
}

/* set SETTING VALUE (everything but var/variable, which cmd_set handles first) */
static int set_setting(cmd_ctx *c, const char *args, int argc, char **argv)
{
    int used;
    const cmd_setting *r = resolve(c, "set", argc, argv, &used);
    if (!r)
        return -1;
    if (r->kind == ST_GROUP) {
        char list[512];
        list_group(r, list, sizeof list);
        return cmd_error(c, "\"set %s\" must be followed by the name of a subcommand: %s.",
                         r->name, list);
    }
    /* the value: the text after the words that named the setting */
    const char *v = args;
    for (int i = 0; i < used; i++) {
        while (isspace((unsigned char)*v))
            v++;
        v += strcspn(v, " \t");
    }
    while (isspace((unsigned char)*v))
        v++;
    char val[CMD_PATH_MAX + 64];
    snprintf(val, sizeof val, "%s", v);
    size_t l = strlen(val);
    while (l && isspace((unsigned char)val[l - 1]))
        val[--l] = 0;
    if (r->kind == ST_BOOL && !strcmp(r->name, "logging enabled") && !strcmp(argv[used - 1], "on"))
        snprintf(val, sizeof val, "on"); /* set logging on */
    else if (r->kind == ST_BOOL && !strcmp(r->name, "logging enabled") &&
             !strcmp(argv[used - 1], "off"))
        snprintf(val, sizeof val, "off");
    if (r->kind != ST_BOOL && r->kind != ST_CUSTOM && !val[0] && r->kind != ST_STRING)
        return usage_of(c, r);
    return assign(c, r, val);
}

int cmd_set(cmd_ctx *c, const char *args, int argc, char **argv)
{
    if (!strcmp(argv[0], "var") || !strcmp(argv[0], "variable")) {
        while (isspace((unsigned char)*args))
            args++;
        const char *rest = args + strlen(argv[0]);
        return argc > 1 ? cmd_set_var(c, rest, argc - 1, argv + 1)
                        : cmd_error(c, "Argument required (expression to compute).");
    }
    /* gdb: "set EXPR = VALUE" without "var" ($v = 1, x[3] = 2, ...): a first word that is no
     * setting's name */
    if (strchr(args, '=')) {
        int exact = 0;
        size_t wl = strcspn(argv[0], "=");
        for (int i = 0; i < NSETTINGS; i++)
            exact |= nwords(settings[i].name) == 1 && strlen(settings[i].name) == wl &&
                     !strncmp(settings[i].name, argv[0], wl);
        if (!exact)
            return cmd_set_var(c, args, argc, argv);
    }
    return set_setting(c, args, argc, argv);
}

static void show_one(cmd_ctx *c, const cmd_setting *r)
{
    if (r->kind == ST_GROUP) {
        int k = nwords(r->name);
        for (int i = 0; i < NSETTINGS; i++)
            if (under(&settings[i], r, k)) {
                size_t l;
                const char *w = word_of(settings[i].name, k, &l);
                cmd_ui_textf(c, "%s %.*s:  ", r->name, (int)l, w);
                show_one(c, &settings[i]);
            }
        return;
    }
    if (!strcmp(r->name, "substitute-path") || !strcmp(r->name, "directories")) {
        cmd_show_src(c, r->name);
        return;
    }
    char v[CMD_PATH_MAX + 64];
    value_text(c, r, v, sizeof v);
    cmd_ui_textf(c, r->show, v);
    cmd_ui_textf(c, "\n");
}

/* gdb's show values [N | +]: ten history values, the last ten, centered on N, or after the
 * ones shown last. */
static int show_values(cmd_ctx *c, int argc, char **argv)
{
    const dbg_history *h = dbg_session_history(c->s);
    int n = h->nhist, first = n - 9;
    if (argc == 2 && !strcmp(argv[1], "+")) {
        first = c->values_next;
    } else if (argc == 2) {
        char *end;
        long v = strtol(argv[1], &end, 10);
        if (*end || end == argv[1])
            return cmd_error(c, "Usage: show values [N | +]");
        first = v < INT_MIN + 5 ? INT_MIN : (int)v - 5;
    } else if (argc > 2) {
        return cmd_error(c, "Usage: show values [N | +]");
    }
    if (first < 1)
        first = 1;
    int i = first;
    for (; i < first + 10 && i <= n; i++) {
        char out[8192];
        if (dbg_format_focus(c->s, &h->hist[i - 1], 0, out, sizeof out) != 0)
            snprintf(out, sizeof out, "<unavailable>");
        cmd_ui_textf(c, "$%d = %s\n", i, out);
    }
    c->values_next = i;
    return 0;
}

int cmd_show(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc >= 1 && !strcmp(argv[0], "values"))
        return show_values(c, argc, argv);
    if (argc == 0) {
        for (int i = 0; i < NSETTINGS; i++)
            if (nwords(settings[i].name) == 1) {
                if (settings[i].kind != ST_GROUP) /* a group's members name themselves */
                    cmd_ui_textf(c, "%s:  ", settings[i].name);
                show_one(c, &settings[i]);
            }
        return 0;
    }
    int used;
    const cmd_setting *r = resolve(c, "show", argc, argv, &used);
    if (!r)
        return -1;
    if (used < argc)
        return cmd_error(c, "Usage: show %s", r->name);
    show_one(c, r);
    return 0;
}

/* ---- help set / help show ------------------------------------------------------------------- */
static void summary(const char *doc, char *out, size_t n)
{
    const char *e = strstr(doc, ". ");
    size_t l = e ? (size_t)(e - doc + 1) : strlen(doc);
    snprintf(out, n, "%.*s", (int)l, doc);
}

int cmd_help_settings(cmd_ctx *c, const char *verb, int argc, char **argv)
{
    if (argc == 0) {
        cmd_ui_textf(c, "%s\n\nList of %s subcommands:\n\n",
               !strcmp(verb, "set") ? "Evaluate expression EXP and assign result to variable "
                                      "VAR (set var VAR = EXP), or change a setting."
                                    : "Generic command for showing things about the debugger.",
               verb);
        if (!strcmp(verb, "set"))
            cmd_ui_textf(c,
                "set var -- Assign to a register, memory or convenience variable: set var "
                   "LVALUE = EXPR.\n");
        for (int i = 0; i < NSETTINGS; i++) {
            char s[512];
            summary(settings[i].doc, s, sizeof s);
            cmd_ui_textf(c, "%s %s -- %s\n", verb, settings[i].name, s);
        }
        return 0;
    }
    if (!strcmp(verb, "set") && (!strcmp(argv[0], "var") || !strcmp(argv[0], "variable"))) {
        cmd_ui_textf(c,
            "Assign to a register, memory or convenience variable.\nUsage: set var LVALUE = "
               "EXPR\n");
        return 0;
    }
    int used;
    const cmd_setting *r = resolve(c, verb, argc, argv, &used);
    if (!r)
        return -1;
    cmd_ui_textf(c, "%s\n", r->doc);
    if (r->kind == ST_GROUP) {
        char list[512];
        list_group(r, list, sizeof list);
        cmd_ui_textf(c, "Subcommands: %s.\n", list);
        return 0;
    }
    if (!strcmp(verb, "show")) {
        cmd_ui_textf(c, "Usage: show %s\n", r->name);
        return 0;
    }
    switch (r->kind) {
    case ST_BOOL: cmd_ui_textf(c, "Usage: set %s on|off\n", r->name); break;
    case ST_UINT: cmd_ui_textf(c,
        "Usage: set %s N%s\n", r->name, r->unlimited ? "|unlimited" : ""); break;
    case ST_ENUM: {
        char list[256];
        snprintf(list, sizeof list, "%s", r->values);
        for (char *p = list; *p; p++)
            if (*p == ' ')
                *p = '|';
        cmd_ui_textf(c, "Usage: set %s %s\n", r->name, list);
        break;
    }
    case ST_STRING: cmd_ui_textf(c, "Usage: set %s FILE\n", r->name); break;
    default: break;
    }
    return 0;
}

/* ---- completion ------------------------------------------------------------------------------ */
int cmd_settings_complete(const char *const *words, int nw, const char *verb,
                          void (*add)(void *k, const char *cand), void *k)
{
    /* walk the complete words: groups descend; a leaf offers its values */
    const cmd_setting *g = NULL;
    int depth = 0;
    for (int i = 0; i < nw; i++) {
        const cmd_setting *hit = NULL;
        for (int j = 0; j < NSETTINGS; j++) {
            size_t l;
            const char *w;
            if (!under(&settings[j], g, depth))
                continue;
            w = word_of(settings[j].name, depth, &l);
            if (l == strlen(words[i]) && !strncmp(w, words[i], l))
                hit = &settings[j];
        }
        if (!hit)
            return 0;
        if (hit->kind != ST_GROUP) {
            if (i != nw - 1 || strcmp(verb, "set"))
                return 0;
            if (hit->kind == ST_BOOL) {
                add(k, "on");
                add(k, "off");
            } else if (hit->kind == ST_ENUM) {
                for (const char *p = hit->values; *p;) {
                    char v[64];
                    size_t l = strcspn(p, " ");
                    snprintf(v, sizeof v, "%.*s", (int)l, p);
                    add(k, v);
                    p += l;
                    p += *p == ' ';
                }
            } else if (hit->kind == ST_UINT && hit->unlimited) {
                add(k, "unlimited");
            } else if (hit->values) {
                add(k, "on");
                add(k, "off");
            }
            return 1;
        }
        g = hit;
        depth++;
    }
    for (int j = 0; j < NSETTINGS; j++)
        if (under(&settings[j], g, depth)) {
            size_t l;
            const char *w = word_of(settings[j].name, depth, &l);
            char v[64];
            snprintf(v, sizeof v, "%.*s", (int)l, w);
            add(k, v);
        }
    if (g && !strcmp(g->name, "logging") && !strcmp(verb, "set")) {
        add(k, "on");
        add(k, "off");
    }
    if (!g && !strcmp(verb, "set"))
        add(k, "var");
    return 1;
}

