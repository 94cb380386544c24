/* cmd_complete.c - tab completion: commands, sub-commands, settings, locations, registers, numbers, variables. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_complete.h"
#include "dbg_ops.h"

#define MAXW 32   /* words looked at before the one being completed */
#define WLEN 128

/* ---- candidate list ------------------------------------------------------------------------- */
typedef struct {
    char **v;
    int n, cap;
    const char *prefix;       /* only names beginning with it are kept */
    size_t plen;
} cands;

static void add(cands *k, const char *s)
{
    if (!s || !*s || strncmp(s, k->prefix, k->plen) != 0)
        return;
    for (int i = 0; i < k->n; i++)
        if (!strcmp(k->v[i], s))
            return;
    if (k->n + 2 > k->cap) {
        int cap = k->cap ? k->cap * 2 : 32;
        char **nv = realloc(k->v, (size_t)cap * sizeof *nv);
        if (!nv)
            return;
        k->v = nv;
        k->cap = cap;
    }
    char *d = strdup(s);
    if (d)
        k->v[k->n++] = d;
}

static void addf(cands *k, const char *fmt, const char *a, const char *b)
{
    char buf[512];
    snprintf(buf, sizeof buf, fmt, a, b);
    add(k, buf);
}

static void add_any(void *k, const char *s) { add(k, s); }

static void add_list(cands *k, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        add(k, list[i]);
}

static void add_table(cands *k, const cmd_def *t)
{
    for (const cmd_def *d = t; d->name; d++)
        add(k, d->name);
}

/* ---- what the session knows ------------------------------------------------------------------ */
/* The PTX base opcodes of the opcode table (`help bra`, `help instructions bra`). */
static void add_opcodes(cands *k)
{
    dbg_opcode op;
    for (int i = 0; dbg_opcode_get(i, &op) == 0; i++)
        add(k, op.name);
}

static void add_functions(cands *k, cmd_ctx *c, int kernels_only)
{
    for (int i = 0; i < dbg_nfuncs(c->s); i++) {
        const ptx_func *f = dbg_func_at(c->s, i);
        dbg_func_info fi;
        dbg_func_info_of(f, &fi);
        if (fi.prototype || !fi.has_body || (kernels_only && !fi.kernel))
            continue;
        char base[512];
        dbg_func_name(c->s, f, 0, base, sizeof base);
        add(k, base);
        add(k, fi.name);
    }
}

static void add_files(cands *k, cmd_ctx *c)
{
    if (!dbg_has_module(c->s))
        return;
    const char *p;
    for (int i = 0; (p = dbg_module_file_at(c->s, i)) != NULL; i++) {
        if (!*p)
            continue;
        const char *b = strrchr(p, '/');
        addf(k, "%s:%s", b ? b + 1 : p, "");
    }
    add(k, "ptx:");
}

static void add_bps(cands *k, cmd_ctx *c)
{
    for (int i = 0; i < dbg_bp_count(c->s); i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", dbg_bp_at(c->s, i)->num);
        add(k, num);
    }
}

static void add_displays(cands *k, cmd_ctx *c)
{
    for (int i = 0; i < c->ndisp; i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", c->disp[i].num);
        add(k, num);
    }
}

static void add_buffers(cands *k, cmd_ctx *c)
{
    for (int i = 0; i < dbg_buffer_count(c->s); i++)
        add(k, dbg_buffer_at(c->s, i)->name);
}

/* The function the focus is in (NULL without a live focus). */
static const ptx_func *focus_func(cmd_ctx *c, uint32_t *pc)
{
    const ptx_func *f;
    if (dbg_focus_pc(c->s, pc) != 0 || dbg_pc_func(c->s, *pc, &f) != 0)
        return NULL;
    return f;
}

/* Registers of the focused function; without a focus, of every function. */
static void add_registers(cands *k, cmd_ctx *c)
{
    uint32_t pc;
    const ptx_func *f = focus_func(c, &pc);
    const char *r;
    if (f) {
        for (int i = 0; (r = dbg_func_reg_name(f, i)) != NULL; i++)
            add(k, r);
        return;
    }
    for (int j = 0; j < dbg_nfuncs(c->s); j++)
        for (int i = 0; (r = dbg_func_reg_name(dbg_func_at(c->s, j), i)) != NULL; i++)
            add(k, r);
}

static void add_sregs(cands *k)
{
    static const char *const vec[] = {"tid", "ntid", "ctaid", "nctaid", "clusterid", "nclusterid",
                                      "cluster_ctaid", "cluster_nctaid", NULL};
    static const char *const scalar[] = {
        "laneid", "warpid", "nwarpid", "smid", "nsmid", "gridid", "lanemask_eq", "lanemask_le",
        "lanemask_lt", "lanemask_ge", "lanemask_gt", "clock", "clock_hi", "clock64",
        "globaltimer", "globaltimer_lo", "globaltimer_hi", "total_smem_size",
        "dynamic_smem_size", "aggr_smem_size", "cluster_ctarank", "cluster_nctarank", NULL};
    int id, comp;
    char name[64];
    for (int i = 0; vec[i]; i++)
        for (const char *x = "xyz"; *x; x++) {
            snprintf(name, sizeof name, "%%%s.%c", vec[i], *x);
            if (dbg_sreg_lookup(name, &id, &comp) == 0) /* only what expressions understand */
                add(k, name);
        }
    for (int i = 0; scalar[i]; i++) {
        snprintf(name, sizeof name, "%%%s", scalar[i]);
        if (dbg_sreg_lookup(name, &id, &comp) == 0)
            add(k, name);
    }
}

/* Source variables visible at the focus (module globals without one), and struct members
 * after "var." or "var.member." (the engine's candidates). */
static void add_one(void *ctx, const char *name) { add(ctx, name); }

static void add_source_vars(cands *k, cmd_ctx *c, const char *text)
{
    dbg_complete_vars(c->s, text, add_one, k);
}

static void add_expression(cands *k, cmd_ctx *c, const char *text)
{
    static const char *const dims[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", NULL};
    if (text[0] == '%') {
        add_registers(k, c);
        add_sregs(k);
        return;
    }
    if (text[0] == '$') {
        add(k, "$pc");
        for (int i = 0; i < dbg_session_history(c->s)->nconv; i++)
            addf(k, "$%s%s", dbg_session_history(c->s)->conv[i].name, "");
        return;
    }
    if (strchr(text, '.')) {
        for (int i = 0; dims[i]; i++)
            for (const char *x = "xyz"; *x; x++) {
                char n[32];
                snprintf(n, sizeof n, "%s.%c", dims[i], *x);
                add(k, n);
            }
        add_source_vars(k, c, text);
        return;
    }
    add_list(k, dims);
    add(k, "warpSize");
    add_buffers(k, c);
    add_source_vars(k, c, text);
    const char *v;
    for (int i = 0; (v = dbg_module_var_name(c->s, i)) != NULL; i++)
        add(k, v);
}

/* ---- context ----------------------------------------------------------------------------------- */
typedef enum {
    K_NONE, K_COMMAND, K_HELP, K_TABLE, K_CUDA_INFO, K_LIST, K_SETTINGS, K_LOCATION, K_FUNCS,
    K_KERNELS, K_BPS, K_DISPLAYS, K_REGS, K_EXPR, K_FILE, K_BUFFERS, K_OPCODES
} kind;

typedef struct {
    kind k;
    const cmd_def *table;             /* K_TABLE */
    const char *const *list;          /* K_LIST */
    const char *verb;                 /* K_SETTINGS: "set" or "show" */
    char sw[MAXW][WLEN];              /* K_SETTINGS: the words after the verb */
    int nsw;
} context;

static void no_add(void *k, const char *cand)
{
    (void)k;
    (void)cand;
}

/* K_SETTINGS after `verb` and the words w[from, nw), when they name settings (else 0). */
static int settings_ctx(context *x, const char *verb, char w[MAXW][WLEN], int from, int nw)
{
    const char *words[MAXW] = {NULL};
    for (int i = from; i < nw; i++)
        words[i - from] = w[i];
    if (!cmd_settings_complete(words, nw - from, verb, no_add, NULL))
        return 0;
    x->k = K_SETTINGS;
    x->verb = verb;
    x->nsw = nw - from;
    for (int i = from; i < nw; i++)
        snprintf(x->sw[i - from], WLEN, "%s", w[i]);
    return 1;
}
static const char *const cuda_keys[] = {"kernel", "grid", "block", "thread", "device", "sm",
                                        "warp", "lane", NULL};
static const char *const types[] = {"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
                                    "b8", "b16", "b32", "b64", "f16", "f32", "f64", NULL};
static const char *const buf_init[] = {"file", "fill", "iota", NULL};

static int is_one_of(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

/* Split line[0, point) at blanks: the finished words, and where the last (unfinished) one
 * starts. The command word loses a "/FMT" suffix (print/x, x/4xw). */
static int split_words(const char *line, int point, char w[MAXW][WLEN])
{
    int n = 0;
    int i = 0;
    for (;;) {
        while (i < point && isspace((unsigned char)line[i]))
            i++;
        int s = i;
        while (i < point && !isspace((unsigned char)line[i]))
            i++;
        if (i >= point)
            return n; /* line[s, point) is the word being typed (maybe empty) */
        if (n < MAXW) {
            int len = i - s;
            if (n == 0) {
                const char *slash = memchr(line + s, '/', (size_t)len);
                if (slash && slash > line + s)
                    len = (int)(slash - (line + s));
            }
            snprintf(w[n], WLEN, "%.*s", len, line + s);
            n++;
        }
    }
}

static context classify(const char *line, int point)
{
    char w[MAXW][WLEN];
    int nw = split_words(line, point, w);
    context x;
    memset(&x, 0, sizeof x);
    if (nw == 0) {
        x.k = K_COMMAND;
        return x;
    }
    const cmd_def *d = cmd_lookup(cmd_table, w[0], NULL, 0);
    if (!d)
        return x;
    const char *n = d->name;
    int na = nw - 1;               /* finished arguments */
    const char *last = nw > 1 ? w[nw - 1] : "";
    if (!strcmp(n, "info")) {
        if (na == 0) {
            x.k = K_TABLE;
            x.table = cmd_info_table;
            return x;
        }
        const cmd_def *s = cmd_lookup(cmd_info_table, w[1], NULL, 0);
        if (!s)
            return x;
        if (!strcmp(s->name, "cuda"))
            x.k = na == 1 ? K_CUDA_INFO : K_NONE;
        else if (!strcmp(s->name, "breakpoints"))
            x.k = K_BPS;
        else if (!strcmp(s->name, "registers"))
            x.k = K_REGS;
        else if (!strcmp(s->name, "functions"))
            x.k = na == 1 ? K_FUNCS : K_NONE;
        else if (!strcmp(s->name, "lanes"))
            x.k = K_EXPR;
        return x;
    }
    if (!strcmp(n, "help")) {
        if (na == 0) {
            x.k = K_HELP;
        } else if (na == 1) {
            const cmd_def *s = cmd_lookup(cmd_table, w[1], NULL, 0);
            if (!strcmp(w[1], "instructions"))
                x.k = K_OPCODES;
            else if (s && s->sub) {
                x.k = K_TABLE;
                x.table = s->sub;
            }
        }
        const cmd_def *s = na >= 1 ? cmd_lookup(cmd_table, w[1], NULL, 0) : NULL;
        if (s && (s->fn == cmd_set || s->fn == cmd_show))
            settings_ctx(&x, "show", w, 2, nw);
        return x;
    }
    if (!strcmp(n, "set")) {
        if (na >= 1 && (!strcmp(w[1], "var") || !strcmp(w[1], "variable")))
            x.k = K_EXPR;
        else if (!settings_ctx(&x, "set", w, 1, nw))
            x.k = K_EXPR; /* set EXPR = VALUE */
        return x;
    }
    if (!strcmp(n, "show")) {
        settings_ctx(&x, "show", w, 1, nw);
        return x;
    }
    if (!strcmp(n, "break") || !strcmp(n, "tbreak") || !strcmp(n, "until") ||
        !strcmp(n, "advance") || !strcmp(n, "list")) {
        for (int i = 2; i < nw; i++)
            if (!strcmp(w[i], "if")) {
                x.k = K_EXPR;
                return x;
            }
        x.k = na == 0 ? K_LOCATION : K_NONE;
        if (na == 1 && (!strcmp(n, "break") || !strcmp(n, "tbreak"))) {
            static const char *const kw_if[] = {"if", NULL};
            x.k = K_LIST;
            x.list = kw_if;
        }
        return x;
    }
    if (!strcmp(n, "disassemble")) {
        x.k = na == 0 ? K_FUNCS : K_NONE;
        return x;
    }
    if (!strcmp(n, "launch")) {
        x.k = na == 0 && !strchr(line, '<') ? K_KERNELS : K_EXPR;
        return x;
    }
    if (!strcmp(n, "delete") || !strcmp(n, "disable") || !strcmp(n, "enable")) {
        x.k = K_BPS;
        return x;
    }
    if (!strcmp(n, "condition")) {
        x.k = na == 0 ? K_BPS : K_EXPR;
        return x;
    }
    if (!strcmp(n, "ignore") || !strcmp(n, "commands")) {
        x.k = na == 0 ? K_BPS : K_NONE;
        return x;
    }
    if (!strcmp(n, "undisplay")) {
        x.k = K_DISPLAYS;
        return x;
    }
    if (!strcmp(n, "cuda")) {
        x.k = na == 0 || !is_one_of(last, cuda_keys) ? K_LIST : K_NONE;
        x.list = cuda_keys;
        return x;
    }
    if (!strcmp(n, "file") || !strcmp(n, "source")) {
        x.k = na == 0 ? K_FILE : K_NONE;
        return x;
    }
    if (!strcmp(n, "dump")) {
        x.k = na == 0 ? K_BUFFERS : na == 1 ? K_FILE : K_NONE;
        return x;
    }
    if (!strcmp(n, "buffer")) {
        if (na == 1) {
            x.k = K_LIST;
            x.list = types;
        } else if (na >= 3 && !strcmp(last, "=")) {
            x.k = K_LIST;
            x.list = buf_init;
        } else if (na >= 4 && !strcmp(last, "file") && !strcmp(w[nw - 2], "=")) {
            x.k = K_FILE;
        }
        return x;
    }
    if (!strcmp(n, "print") || !strcmp(n, "output") || !strcmp(n, "x") ||
        !strcmp(n, "display") || !strcmp(n, "watch") || !strcmp(n, "rwatch") ||
        !strcmp(n, "awatch") || !strcmp(n, "ptype") || !strcmp(n, "eval")) {
        x.k = K_EXPR;
        return x;
    }
    return x;
}

const char *cmd_complete_breaks(const char *line, int point)
{
    switch (classify(line, point).k) {
    case K_EXPR: return " \t\n\"'`><=;|&{(,*[]+-!~/?^:)";
    case K_FILE: return " \t\n\"'";
    default: return " \t\n";
    }
}

int cmd_complete_word_start(const char *line, int point)
{
    const char *br = cmd_complete_breaks(line, point);
    int s = point;
    while (s > 0 && !strchr(br, line[s - 1]))
        s--;
    return s;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cmd_complete(cmd_ctx *c, const char *line, int start, int end, int *flags)
{
    *flags = 0;
    char text[WLEN];
    snprintf(text, sizeof text, "%.*s", end > start ? end - start : 0, line + start);
    cands k = {NULL, 0, 0, text, strlen(text)};
    context x = classify(line, end);
    switch (x.k) {
    case K_NONE: break;
    case K_COMMAND: add_table(&k, cmd_table); break;
    case K_HELP:
        add_table(&k, cmd_table);
        for (int i = 0; i < CMD_CLASS__COUNT; i++)
            add(&k, cmd_class_name((cmd_class)i));
        add(&k, "instructions");
        add_opcodes(&k);
        break;
    case K_OPCODES: add_opcodes(&k); break;
    case K_TABLE: add_table(&k, x.table); break;
    case K_CUDA_INFO:
        for (const cmd_def *d = cmd_info_table; d->name; d++)
            if (d->cls == CMD_CLASS_CUDA && d->fn != cmd_info_cuda)
                add(&k, d->name);
        break;
    case K_LIST: add_list(&k, x.list); break;
    case K_SETTINGS: {
        const char *words[MAXW] = {NULL};
        for (int i = 0; i < x.nsw; i++)
            words[i] = x.sw[i];
        cmd_settings_complete(words, x.nsw, x.verb, add_any, &k);
        break;
    }
    case K_LOCATION:
        add_functions(&k, c, 0);
        add_files(&k, c);
        break;
    case K_FUNCS: add_functions(&k, c, 0); break;
    case K_KERNELS: add_functions(&k, c, 1); break;
    case K_BPS: add_bps(&k, c); break;
    case K_DISPLAYS: add_displays(&k, c); break;
    case K_REGS:
        add_registers(&k, c);
        add(&k, "%pc");
        break;
    case K_EXPR: add_expression(&k, c, text); break;
    case K_FILE: *flags |= CMD_COMPLETE_FILES; break;
    case K_BUFFERS: add_buffers(&k, c); break;
    }
    if (!k.v) {
        k.v = calloc(1, sizeof *k.v);
        return k.v;
    }
    qsort(k.v, (size_t)k.n, sizeof *k.v, cmp_str);
    k.v[k.n] = NULL;
    return k.v;
}

void cmd_complete_free(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
}
