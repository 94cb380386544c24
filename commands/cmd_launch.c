/* cmd_launch.c - the batch contract: file, buffer, launch, run, kill, dump, info functions/buffers. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd.h"
#include "cmd_ui.h"
#include "cmd_prog.h"

int cmd_file(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    if (c->inproc)
        return cmd_error(c, "The program is running; \"kill\" it before choosing another file.");
    if (cmd_is_executable(argv[0])) { /* a CUDA program: `run` starts it */
        if (cmd_prog_set(c, argv[0], NULL, 0) != 0)
            return -1;
        printf("Reading symbols from %s...\n", argv[0]);
        return 0;
    }
    if (dbg_load_file(c->s, argv[0]) != 0) {
        cmd_error(c, "%s", dbg_errmsg(c->s));
        cmd_program_hint(argv[0]);
        return -1;
    }
    cmd_load_warnings(c);
    c->list_valid = 0;
    c->x_valid = 0;
    if (c->interactive)
        printf("Reading symbols from %s...\n", argv[0]);
    return 0;
}

/* Split "a, {b, c}, d" at top-level commas; returns count; items are trimmed copies in buf. */
static int split_commas(const char *s, char *buf, size_t bufn, char **items, int max)
{
    int n = 0, depth = 0;
    size_t k = 0;
    const char *start = s;
    for (const char *p = s;; p++) {
        if (*p == '{' || *p == '(' || *p == '[')
            depth++;
        else if ((*p == '}' || *p == ')' || *p == ']') && depth > 0)
            depth--;
        if ((*p == ',' && depth == 0) || !*p) {
            const char *a = start, *b = p;
            while (a < b && isspace((unsigned char)*a))
                a++;
            while (b > a && isspace((unsigned char)b[-1]))
                b--;
            if (n >= max || k + (size_t)(b - a) + 1 > bufn)
                return -1;
            items[n++] = buf + k;
            memcpy(buf + k, a, (size_t)(b - a));
            k += (size_t)(b - a);
            buf[k++] = 0;
            start = p + 1;
            if (!*p)
                break;
        }
    }
    return n;
}

static ptx_type buffer_type(const char *s)
{
    static const char *ok[] = {"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16",
                               "f32", "f64", "b8", "b16", "b32", "b64", NULL};
    for (int i = 0; ok[i]; i++)
        if (!strcmp(s, ok[i]) || (s[0] == '.' && !strcmp(s + 1, ok[i])))
            return dbg_type_from_name(s);
    return PTX_T_NONE;
}

/* A value for type t: a literal, or an expression (buffer names, arithmetic). */
/* Whether a number fits type t without being truncated: integers within the type's range
 * (negative ones down to -2^(bits-1) also for unsigned types, as in C), floats finite where the
 * text was, floats into integer types only when integral (never with int_only). 0 or -1 with
 * the reason in err (no final period). */
static int fits(const dbg_value *v, ptx_type t, int int_only, const char *text, char *err,
                size_t n)
{
    int b = dbg_type_bits(t);
    const char *tn = dbg_type_name(t);
    if (dbg_type_is_float(t)) {
        double lim = b == 16 ? 65504.0 : b == 32 ? FLT_MAX : DBL_MAX;
        double d = v->kind == DBG_V_FLOAT ? v->f : v->kind == DBG_V_INT ? dbg_value_double(v) : 0;
        if ((isinf(d) && !strpbrk(text, "iI")) || (isfinite(d) && fabs(d) > lim)) {
            snprintf(err, n, "value %s out of range for %s", text, tn);
            return -1;
        }
        return 0;
    }
    if (t == PTX_T_PRED || b <= 0 || b > 64)
        return 0;
    if (v->kind == DBG_V_FLOAT) {
        if (int_only) {
            snprintf(err, n, "a floating-point value for a %s parameter", tn);
            return -1;
        }
        if (isinf(v->f) || v->f < -ldexp(1.0, b - 1) || v->f >= ldexp(1.0, b)) {
            snprintf(err, n, "value %s out of range for %s", text, tn);
            return -1;
        }
        if (v->f != trunc(v->f)) { /* also NaN */
            snprintf(err, n, "value %s is not an integer (%s)", text, tn);
            return -1;
        }
        return 0;
    }
    if (v->kind != DBG_V_INT || b == 64)
        return 0;
    int64_t s = (int64_t)v->u;
    int neg = dbg_type_is_signed(v->type) && s < 0;
    if (neg ? s < -(INT64_C(1) << (b - 1)) : v->u > (UINT64_C(1) << b) - 1) {
        snprintf(err, n, "value %s out of range for %s", text, tn);
        return -1;
    }
    return 0;
}

/* The bits of a value of type t given as TEXT (a literal or an expression); -1 with the reason
 * in err (no final period) when it is not a value or does not fit t (see fits). int_only:
 * refuse floating-point values for integer types (kernel parameters: pointers, counts). */
static int value_of(cmd_ctx *c, const char *text, ptx_type t, int int_only, uint64_t *bits,
                    char *err, size_t n)
{
    err[0] = 0;
    /* integer literals and PTX bit patterns (0f3f800000): range-checked by the literal parser */
    int lit = dbg_parse_literal(text, t, bits) == 0;
    int floaty = strpbrk(text, ".eEnN") && !strstr(text, "0x") && !strstr(text, "0X");
    if (lit && !floaty && !dbg_type_is_float(t))
        return 0;
    dbg_value v;
    if (dbg_eval_host(c->s, text, &v, err, n) != 0) {
        if (lit) /* inf, nan: literals the expression language does not have */
            return 0;
        size_t l = strlen(err);
        if (l && err[l - 1] == '.')
            err[l - 1] = 0;
        return -1;
    }
    if (v.kind == DBG_V_PTR || v.kind == DBG_V_CODE) {
        *bits = v.u;
        return 0;
    }
    if (v.kind != DBG_V_INT && v.kind != DBG_V_FLOAT) {
        snprintf(err, n, "not a number");
        return -1;
    }
    if (fits(&v, t, int_only, text, err, n) != 0)
        return -1;
    *bits = dbg_value_to_bits(&v, t);
    return 0;
}

int cmd_buffer(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    const char *name = argv[0];
    ptx_type t = buffer_type(argv[1]);
    if (t == PTX_T_NONE)
        return cmd_error(c, "Invalid buffer type \"%s\" (u8..u64, s8..s64, f16, f32, f64).",
                         argv[1]);
    char *end;
    unsigned long long count = strtoull(argv[2], &end, 0);
    if (*end || !isdigit((unsigned char)argv[2][0]) || count == 0)
        return cmd_error(c, "Invalid buffer count \"%s\".", argv[2]);
    const char *init = strchr(args, '=');
    if (!init && argc > 3)
        return cmd_error(c, "Usage: buffer NAME TYPE COUNT [= {V, ...} | = file PATH | = fill V | "
                            "= iota]");
    int esz = dbg_type_bits(t) / 8;
    if (count > (1ull << 32) / (unsigned)esz)
        return cmd_error(c, "Buffer of %llu elements is too large (at most 4 GB).", count);
    /* the name and the module first: nothing is filled for a buffer that cannot be added */
    if (dbg_buffer_check(c->s, name) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    uint8_t *bytes = NULL;
    int rc = -1;
    char err[512];
    const unsigned long long poll = 1ull << 20; /* elements between interrupt checks */
    if (init) {
        init++;
        while (isspace((unsigned char)*init))
            init++;
        bytes = calloc(count, (size_t)esz);
        if (!bytes)
            return cmd_error(c, "Out of memory (a buffer of %llu bytes).",
                             count * (unsigned long long)esz);
        if (*init == '{') {
            const char *close = strrchr(init, '}');
            if (!close) {
                cmd_error(c, "Missing '}' in buffer initializer.");
                goto out;
            }
            size_t len = (size_t)(close - init - 1);
            /* as many item slots as the list can have (commas + 1), not as the buffer has */
            size_t slots = 1;
            for (size_t i = 0; i < len; i++)
                slots += init[1 + i] == ',';
            if (slots > count + 1)
                slots = count + 1;
            char *inner = strndup(init + 1, len), *buf = malloc(len + 1);
            char **items = malloc(sizeof *items * slots);
            int n = inner && buf && items ? split_commas(inner, buf, len + 1, items, (int)slots)
                                          : -2;
            if (n == 1 && !items[0][0])
                n = 0;
            if (n == -2) {
                cmd_error(c, "Out of memory.");
            } else if (n < 0 || (unsigned long long)n > count) {
                cmd_error(c, "Too many values for buffer %s of %llu elements.", name, count);
            } else {
                int i;
                for (i = 0; i < n; i++) {
                    uint64_t bits;
                    if (value_of(c, items[i], t, 0, &bits, err, sizeof err) != 0) {
                        cmd_error(c, "Invalid value \"%s\" for %s element %d%s%s.", items[i],
                                  argv[1], i, err[0] ? ": " : "", err);
                        break;
                    }
                    memcpy(bytes + (size_t)i * (size_t)esz, &bits, (size_t)esz);
                }
                if (i == n)
                    rc = 0;
            }
            free(inner);
            free(buf);
            free(items);
            if (rc != 0)
                goto out;
            rc = -1;
        } else if (!strncmp(init, "file", 4) && isspace((unsigned char)init[4])) {
            const char *path = init + 5;
            while (isspace((unsigned char)*path))
                path++;
            char why[160] = "";
            FILE *f = NULL;
            if (dbg_file_regular(path, 0, NULL, why, sizeof why) != 0 ||
                !(f = fopen(path, "rb"))) {
                cmd_error(c, "%s: %s.", path, why[0] ? why : strerror(errno));
                goto out;
            }
            size_t want = count * (size_t)esz, got = 0, r = 1;
            while (got < want && r > 0 && !dbg_interrupted(c->s)) { /* 1 MB at a time */
                r = fread(bytes + got, 1, want - got < (1u << 20) ? want - got : 1u << 20, f);
                got += r;
            }
            int extra = got == want && fgetc(f) != EOF;
            fclose(f);
            if (got < want && dbg_interrupted(c->s)) {
                cmd_error(c, "Interrupted; buffer %s was not created.", name);
                goto out;
            }
            if (extra || got != count * (size_t)esz) {
                cmd_error(c, "%s: file has %s bytes than buffer %s (%llu bytes).", path,
                          extra ? "more" : "fewer", name, count * (unsigned long long)esz);
                goto out;
            }
        } else if (!strncmp(init, "fill", 4) && isspace((unsigned char)init[4])) {
            uint64_t bits;
            if (value_of(c, init + 5, t, 0, &bits, err, sizeof err) != 0) {
                cmd_error(c, "Invalid fill value \"%s\"%s%s.", init + 5, err[0] ? ": " : "",
                          err);
                goto out;
            }
            for (unsigned long long i = 0; i < count; i++) {
                if (i % poll == 0 && dbg_interrupted(c->s)) {
                    cmd_error(c, "Interrupted; buffer %s was not created.", name);
                    goto out;
                }
                memcpy(bytes + i * (size_t)esz, &bits, (size_t)esz);
            }
        } else if (!strncmp(init, "iota", 4) && !init[4 + strspn(init + 4, " \t")]) {
            for (unsigned long long i = 0; i < count; i++) {
                if (i % poll == 0 && dbg_interrupted(c->s)) {
                    cmd_error(c, "Interrupted; buffer %s was not created.", name);
                    goto out;
                }
                dbg_value v;
                dbg_value_from_bits(&v, PTX_T_U64, i);
                uint64_t bits = dbg_value_to_bits(&v, t);
                memcpy(bytes + i * (size_t)esz, &bits, (size_t)esz);
            }
        } else {
            cmd_error(c, "Usage: buffer NAME TYPE COUNT [= {V, ...} | = file PATH | = fill V | "
                         "= iota]");
            goto out;
        }
    } else if (argc != 3) {
        return cmd_error(c, "Usage: buffer NAME TYPE COUNT [= {V, ...} | = file PATH | = fill V "
                            "| = iota]");
    }
    rc = dbg_buffer_adopt(c->s, name, t, count, bytes);
    bytes = NULL;
    if (rc != 0)
        cmd_error(c, "%s", dbg_errmsg(c->s));
out:
    free(bytes);
    return rc;
}

/* "N" or "(x,y,z)" / "(x,y)" / "(x)". */
static int parse_dim(const char *s, exec_dim3 *d)
{
    unsigned long v[3] = {1, 1, 1};
    while (isspace((unsigned char)*s))
        s++;
    if (!strncmp(s, "dim3(", 5))
        s += 4;
    s = cmd_parse_dim3(s, v);
    if (!s)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    if (*s || !v[0] || !v[1] || !v[2] || v[0] > 0x7fffffff || v[1] > 65535 || v[2] > 65535)
        return -1;
    d->x = (uint32_t)v[0];
    d->y = (uint32_t)v[1];
    d->z = (uint32_t)v[2];
    return 0;
}

/* Struct parameter "{1, 2, (f32)2.5, (u64)buf}": plain items are bytes; (TYPE)V items are
 * stored at their natural alignment. */
static int struct_arg(cmd_ctx *c, const char *text, uint8_t *dst, uint64_t size, int idx)
{
    size_t len = strlen(text);
    if (len < 2 || text[len - 1] != '}')
        return cmd_error(c, "Argument %d: missing '}'.", idx + 1);
    char *inner = strndup(text + 1, len - 2), *buf = malloc(len + 1);
    char *items[512];
    int n = inner && buf ? split_commas(inner, buf, len + 1, items, 512) : -1;
    int rc = 0;
    uint64_t off = 0;
    if (n == 1 && !items[0][0])
        n = 0;
    if (n < 0)
        rc = cmd_error(c, "Argument %d: too many values.", idx + 1);
    for (int i = 0; i < n && rc == 0; i++) {
        const char *it = items[i];
        ptx_type t = PTX_T_U8;
        if (*it == '(') {
            const char *close = strchr(it, ')');
            char tn[32];
            if (close && (size_t)(close - it - 1) < sizeof tn) {
                snprintf(tn, sizeof tn, "%.*s", (int)(close - it - 1), it + 1);
                ptx_type ct = dbg_type_from_c(tn);
                if (ct != PTX_T_NONE && ct != PTX_T_PRED) {
                    t = ct;
                    it = close + 1;
                }
            }
        }
        int tb = dbg_type_bits(t) / 8;
        off = (off + (uint64_t)tb - 1) / (uint64_t)tb * (uint64_t)tb;
        uint64_t bits;
        char err[256];
        if (off + (uint64_t)tb > size) {
            rc = cmd_error(c, "Argument %d: values exceed the parameter's %llu bytes.", idx + 1,
                           (unsigned long long)size);
        } else if (value_of(c, it, t, 0, &bits, err, sizeof err) != 0) {
            rc = cmd_error(c, "Argument %d: invalid value \"%s\"%s%s.", idx + 1, items[i],
                           err[0] ? ": " : "", err);
        } else {
            memcpy(dst + off, &bits, (size_t)tb);
            off += (uint64_t)tb;
        }
    }
    free(inner);
    free(buf);
    return rc;
}

int cmd_launch(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    static const char *usage = "Usage: launch KERNEL<<<GRID, BLOCK[, SHMEM][, cluster=DIM]>>>"
                               "(ARG, ...)";
    while (isspace((unsigned char)*args))
        args++;
    const char *lt = strstr(args, "<<<"), *gt = lt ? strstr(lt, ">>>") : NULL;
    if (!lt || !gt)
        return cmd_error(c, "%s", usage);
    char kname[512];
    const char *ke = lt;
    while (ke > args && isspace((unsigned char)ke[-1]))
        ke--;
    snprintf(kname, sizeof kname, "%.*s", (int)(ke - args), args);
    const ptx_func *k = dbg_find_func(c->s, kname);
    if (!k)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    if (!dbg_func_is_kernel(k))
        return cmd_error(c, "\"%s\" is a device function, not a kernel (.entry).", kname);
    /* <<<grid, block[, shmem][, cluster=dim]>>> */
    char cfgbuf[512], *cfg[4];
    char cfgtext[512];
    snprintf(cfgtext, sizeof cfgtext, "%.*s", (int)(gt - lt - 3), lt + 3);
    int ncfg = split_commas(cfgtext, cfgbuf, sizeof cfgbuf, cfg, 4);
    exec_dim3 grid, block, cluster = { 0, 0, 0 };
    if (ncfg >= 3 && !strncmp(cfg[ncfg - 1], "cluster", 7)) {
        /* thread block clusters: the launch attribute of cudaLaunchKernelEx */
        const char *e = cfg[ncfg - 1] + 7;
        while (isspace((unsigned char)*e))
            e++;
        if (*e != '=' || parse_dim(e + 1, &cluster) != 0)
            return cmd_error(c, "Invalid cluster dimensions \"%s\".", cfg[ncfg - 1]);
        ncfg--;
    }
    if (ncfg < 2 || ncfg > 3)
        return cmd_error(c, "%s", usage);
    if (parse_dim(cfg[0], &grid) != 0)
        return cmd_error(c, "Invalid grid dimensions \"%s\".", cfg[0]);
    if (parse_dim(cfg[1], &block) != 0)
        return cmd_error(c, "Invalid block dimensions \"%s\".", cfg[1]);
    if ((uint64_t)block.x * block.y * block.z > 1024)
        return cmd_error(c, "Invalid block dimensions \"%s\": more than 1024 threads.", cfg[1]);
    uint32_t shmem = 0;
    if (ncfg == 3) {
        char *end;
        unsigned long v = strtoul(cfg[2], &end, 0);
        if (*end || end == cfg[2] || v > (1ul << 30))
            return cmd_error(c, "Invalid dynamic shared memory size \"%s\".", cfg[2]);
        shmem = (uint32_t)v;
    }
    /* (args) */
    const char *p = gt + 3;
    while (isspace((unsigned char)*p))
        p++;
    char *argtext = NULL;
    if (*p == '(') {
        const char *close = strrchr(p, ')');
        if (!close || close[1 + strspn(close + 1, " \t")])
            return cmd_error(c, "%s", usage);
        argtext = strndup(p + 1, (size_t)(close - p - 1));
    } else if (*p) {
        return cmd_error(c, "%s", usage);
    } else {
        argtext = strdup("");
    }
    if (!argtext)
        return cmd_error(c, "Out of memory.");
    size_t alen = strlen(argtext) + 1;
    char *abuf = malloc(alen);
    char *items[256];
    int n = abuf ? split_commas(argtext, abuf, alen, items, 256) : -1;
    if (n == 1 && !items[0][0])
        n = 0;
    int rc = -1;
    dbg_param_row prow[256];
    int64_t total = dbg_kernel_params(k, prow, 256);
    dbg_func_info kinfo;
    dbg_func_info_of(k, &kinfo);
    uint8_t *params = NULL;
    char name[512];
    dbg_func_name(c->s, k, 1, name, sizeof name);
    if (total < 0) {
        cmd_error(c, "Cannot lay out the parameters of %s.", name);
        goto out;
    }
    if (n != kinfo.nparams) {
        cmd_error(c, "%s takes %d argument%s, %d given.", name, kinfo.nparams,
                  kinfo.nparams == 1 ? "" : "s", n < 0 ? 0 : n);
        goto out;
    }
    params = calloc(1, total ? (size_t)total : 1);
    if (!params) {
        cmd_error(c, "Out of memory.");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        const dbg_param_row *ps = &prow[i];
        int is_struct = ps->aggregate;
        if (items[i][0] == '{' || is_struct) {
            if (items[i][0] != '{') {
                cmd_error(c, "Argument %d is a %llu-byte aggregate: give it as {V, ...}.", i + 1,
                          (unsigned long long)ps->size);
                goto out;
            }
            if (struct_arg(c, items[i], params + ps->offset, ps->size, i) != 0)
                goto out;
            continue;
        }
        uint64_t bits;
        char err[256];
        if (value_of(c, items[i], ps->type, 1, &bits, err, sizeof err) != 0) {
            cmd_error(c, "Argument %d: invalid %s value \"%s\"%s%s.", i + 1,
                      dbg_type_name(ps->type), items[i], err[0] ? ": " : "", err);
            goto out;
        }
        memcpy(params + ps->offset, &bits, ps->size < 8 ? ps->size : 8);
    }
    if (cmd_confirm_kill(c, "Launch anyway?") != 0)
        goto out;
    if (dbg_set_cluster_dims(c->s, cluster) != 0 ||
        dbg_launch(c->s, k, grid, block, shmem, params, (size_t)total) != 0) {
        cmd_error(c, "%s", dbg_errmsg(c->s));
        goto out;
    }
    rc = cmd_resume(c, 0);
    if (rc == 0 && c->opt.schedules)
        rc = cmd_schedules(c);
out:
    free(params);
    free(abuf);
    free(argtext);
    return rc;
}

/* Announce a fresh launch, then run it until it stops. */
static void announce_launch(cmd_ctx *c)
{
    if (!c->kernel_events)
        return;
    char label[600];
    cmd_kernel_label(c, label, sizeof label);
    const exec_launch_info *li = dbg_launch_info(c->s);
    cmd_ui_textf(c, "[Launch of CUDA Kernel %u (%s) on Device 0]\n", li ? li->launch_id : 0, label);
}

int cmd_resume(cmd_ctx *c, int ignore)
{
    const exec_launch_info *li = dbg_launch_info(c->s);
    if (li && dbg_launch_alive(c->s) && c->shown_launch != (int)dbg_nlaunches(c->s)) {
        announce_launch(c);
        c->shown_launch = (int)dbg_nlaunches(c->s);
        c->shown_focus.valid = 0;
    }
    dbg_event ev;
    int rc = dbg_continue(c->s, ignore, &ev);
    cmd_report_cond_errors(c, &ev);
    if (rc != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    cmd_report_event(c, &ev);
    return 0;
}

int cmd_run(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (c->inproc)
        return cmd_inproc_rerun(c, argc, argv, 0);
    if (c->prog)
        return cmd_prog_run(c, argc, argv);
    if (argc > 0)
        return cmd_error(c, "Usage: run   (arguments are for a program: ptxdbg --args PROGRAM ARGS)");
    if (cmd_confirm_kill(c, "Start it from the beginning?") != 0)
        return -1;
    if (dbg_relaunch(c->s) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    return cmd_resume(c, 0);
}

int cmd_kill(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    if (c->inproc)
        return cmd_inproc_kill(c);
    const exec_launch_info *li = dbg_launch_info(c->s);   /* live (CMD_F_NEEDS_LIVE) */
    uint32_t id = li ? li->launch_id : 0;
    dbg_kill(c->s);
    cmd_ui_textf(c, "[Kernel %u killed]\n", id);
    return 0;
}

int cmd_dump(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    const dbg_buffer *b = dbg_buffer_find(c->s, argv[0]);
    if (!b)
        return cmd_error(c, "No buffer named \"%s\".", argv[0]);
    /* an existing target must be a regular file: a FIFO would block, a device never fills */
    char why[160];
    struct stat st;
    if (stat(argv[1], &st) == 0 && dbg_file_regular(argv[1], 0, NULL, why, sizeof why) != 0)
        return cmd_error(c, "%s: %s.", argv[1], why);
    enum { CHUNK = 1 << 20 };
    uint8_t *data = malloc(CHUNK);
    if (!data)
        return cmd_error(c, "Out of memory.");
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        free(data);
        return cmd_error(c, "%s: cannot open for writing.", argv[1]);
    }
    /* 1 MB at a time: bounded memory, and Ctrl-C stops a large dump (the file is removed) */
    int bad = 0, intr = 0;
    for (uint64_t off = 0; off < b->size && !bad && !intr; off += CHUNK) {
        size_t n = b->size - off < CHUNK ? (size_t)(b->size - off) : CHUNK;
        intr = dbg_interrupted(c->s);
        if (!intr && dbg_mem_read_exact(c->s, PTX_SPACE_GLOBAL, b->addr + off, data, n,
                                        0, 0, 0) != 0) {
            fclose(f);
            remove(argv[1]);
            free(data);
            return cmd_error(c, "%s", dbg_errmsg(c->s));
        }
        bad = !intr && fwrite(data, 1, n, f) != n;
    }
    bad |= fclose(f) != 0;
    free(data);
    if (intr) {
        remove(argv[1]);
        return cmd_error(c, "Interrupted; %s was not written.", argv[1]);
    }
    if (bad)
        return cmd_error(c, "%s: write error.", argv[1]);
    return 0;
}

int cmd_info_functions(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    regex_t re;
    if (argc == 1 && regcomp(&re, argv[0], REG_EXTENDED | REG_NOSUB) != 0)
        return cmd_error(c, "Invalid regexp \"%s\".", argv[0]);
    if (argc)
        cmd_ui_textf(c, "All functions matching regular expression \"%s\":\n", argv[0]);
    else
        cmd_ui_text(c, "All defined functions:\n");
    /* JSON: "functions": [{"name" (demangled, with its parameters), "mangled", "kernel",
       "ptx_line"}] */
    cmd_ui_open(c, "functions", 1);
    for (int pass = 0; pass < 2; pass++) {
        int header = 0;
        for (int i = 0; i < dbg_nfuncs(c->s); i++) {
            const ptx_func *f = dbg_func_at(c->s, i);
            dbg_func_info fi;
            dbg_func_info_of(f, &fi);
            if (fi.prototype || fi.kernel != !pass)
                continue;
            char full[1024];
            dbg_func_name(c->s, f, 1, full, sizeof full);
            if (argc == 1 && regexec(&re, full, 0, NULL, 0) != 0 &&
                regexec(&re, fi.name, 0, NULL, 0) != 0)
                continue;
            if (!header) {
                cmd_ui_textf(c, "\n%s:\n", pass ? "Device functions" : "Kernels");
                header = 1;
            }
            int same = !strcmp(full, fi.name);
            cmd_ui_open(c, NULL, 0);
            cmd_ui_field_int(c, "ptx_line", fi.line);
            cmd_ui_text(c, ":\t");
            cmd_ui_bool(c, "kernel", fi.kernel);
            if (fi.kernel)
                cmd_ui_text(c, "__global__ ");
            cmd_ui_field_str(c, "name", full);
            cmd_ui_str(c, "mangled", fi.name);
            if (!same)
                cmd_ui_textf(c, "  [%s]", fi.name);
            cmd_ui_text(c, "\n");
            cmd_ui_close(c);
        }
    }
    cmd_ui_close(c);
    if (argc == 1)
        regfree(&re);
    return 0;
}

int cmd_info_buffers(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    int n = dbg_buffer_count(c->s);
    /* JSON: "buffers": [{"name", "type", "count", "bytes", "address"}] */
    cmd_ui_table_begin(c, "buffers");
    cmd_ui_table_col(c, 16, CMD_UI_LEFT, "Name");
    cmd_ui_table_col(c, 5, CMD_UI_LEFT, "Type");
    cmd_ui_table_col(c, 10, CMD_UI_RIGHT, "Count");
    cmd_ui_table_col(c, 12, CMD_UI_RIGHT, "Bytes");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "");     /* two spaces before the address */
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "Address");
    for (int i = 0; i < n; i++) {
        const dbg_buffer *b = dbg_buffer_at(c->s, i);
        cmd_ui_row_begin(c);
        cmd_ui_field_str(c, "name", b->name);
        cmd_ui_field_str(c, "type", dbg_type_name(b->type));
        cmd_ui_field_uint(c, "count", b->count);
        cmd_ui_field_uint(c, "bytes", b->size);
        cmd_ui_cell(c, "");
        cmd_ui_field_addr(c, "address", b->addr);
        cmd_ui_row_end(c);
    }
    if (!cmd_ui_table_end(c))
        cmd_ui_text(c, "No buffers.\n");
    return 0;
}
