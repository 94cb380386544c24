/* cmd_data.c - data commands: print, output, x, display, set var, info registers, per-lane values. */
#include <ctype.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"

/* Leading "/FMT" of args: copies it (with the slash) into fmtbuf, returns the rest. */
static const char *take_fmt(const char *args, char *fmtbuf, size_t n)
{
    while (isspace((unsigned char)*args))
        args++;
    fmtbuf[0] = 0;
    if (*args != '/')
        return args;
    size_t l = strcspn(args, " \t");
    snprintf(fmtbuf, n, "%.*s", (int)l, args);
    args += l;
    while (isspace((unsigned char)*args))
        args++;
    return args;
}

static int print_lanes(cmd_ctx *c, const char *expr, char fmt)
{
    const dbg_focus *f = dbg_get_focus(c->s);
    if (!f->valid || !dbg_launch_info(c->s))
        return cmd_error(c, "%s", CMD_MSG_NO_KERNEL);
    dbg_expr *e;
    char err[512];
    if (!(e = dbg_expr_parse_at(c->s, expr, err, sizeof err)))
        return cmd_error(c, "%s", err);
    const exec_launch_info *li = dbg_launch_info(c->s);
    /* the function of the selected frame: a lane elsewhere (divergent, in another function)
       says where it evaluated EXPR */
    static dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_lane_frames(c->s, f->cta, f->warp, f->lane, fr, DBG_MAX_FRAMES);
    const ptx_func *ffun = f->frame >= 0 && f->frame < nf ? fr[f->frame].func : NULL;
    const char *finl = f->frame >= 0 && f->frame < nf ? fr[f->frame].inl_name : NULL;
    /* an expression the focused lane cannot evaluate (No symbol "x" in current context) is the
       command's error, said once, as print says it; not 32 lanes' */
    exec_lane_info fi;
    if (dbg_lane_get(c->s, f->cta, f->warp, f->lane, &fi) == 0 && fi.state != EXEC_LANE_EXITED &&
        fi.state != EXEC_LANE_INVALID) {
        dbg_at fat = {f->cta, f->warp, f->lane, f->frame, 0};
        dbg_value fv;
        if (dbg_eval_expr_at(c->s, &fat, e, &fv, err, sizeof err) != 0) {
            dbg_expr_free(e);
            return cmd_error(c, "%s", err);
        }
    }
    int lane_open = 0;
    /* JSON: "lanes": [{"lane", "thread", "focused", "value" (absent when it has none),
       "state" (exited, inactive, at barrier, trapped), "error"}] */
    cmd_ui_open(c, "lanes", 1);
    for (uint32_t l = 0; l < 32; l++) {
        exec_lane_info info;
        if (dbg_lane_get(c->s, f->cta, f->warp, l, &info) != 0 || info.state == EXEC_LANE_INVALID)
            continue;
        uint32_t lin = f->warp * 32 + l;
        exec_dim3 tid = {lin % li->block.x, (lin / li->block.x) % li->block.y,
                         lin / (li->block.x * li->block.y)};
        if (lane_open)
            cmd_ui_close(c);
        cmd_ui_open(c, NULL, 0);
        lane_open = 1;
        cmd_ui_field_bool(c, "focused", l == f->lane, "*", " ");
        cmd_ui_textf(c, " Lane %2u (thread (%u,%u,%u)): ", l, tid.x, tid.y, tid.z);
        cmd_ui_uint(c, "lane", l);
        cmd_ui_open(c, "thread", 1);
        cmd_ui_uint(c, NULL, tid.x);
        cmd_ui_uint(c, NULL, tid.y);
        cmd_ui_uint(c, NULL, tid.z);
        cmd_ui_close(c);
        if (info.state == EXEC_LANE_EXITED) {
            cmd_ui_text(c, "<exited>\n");
            cmd_ui_str(c, "state", "exited");
            continue;
        }
        /* the lane's frame at the selected frame's call depth (counted from the kernel's
           frame, which every lane shares); its innermost one when it has no frame there */
        int lframe = f->frame;
        char where[600] = "";
        if (l != f->lane && ffun) {
            static dbg_frame lf[DBG_MAX_FRAMES];
            int ln = dbg_lane_frames(c->s, f->cta, f->warp, l, lf, DBG_MAX_FRAMES);
            int k = ln - (nf - f->frame);
            if (k < 0 || k >= ln)
                k = 0;
            lframe = k;
            const dbg_frame *x = k < ln ? &lf[k] : NULL;
            if (x && (x->func != ffun || x->inl_name != finl)) {
                char fn[512];
                if (x->inl_name)
                    snprintf(fn, sizeof fn, "%s", x->inl_name);
                else
                    dbg_func_name(c->s, x->func, 0, fn, sizeof fn);
                snprintf(where, sizeof where, "in %s", fn);
            }
        }
        dbg_at at = {f->cta, f->warp, l, lframe, 0};
        dbg_value v;
        char out[4096];
        const char *state = info.state == EXEC_LANE_DIVERGENT ? "inactive: divergent"
                            : info.state == EXEC_LANE_BARRIER ? "at barrier"
                            : info.state == EXEC_LANE_TRAPPED ? "trapped"
                                                              : NULL;
        char tag[700] = "";
        if (state || where[0])
            snprintf(tag, sizeof tag, "  (%s%s%s)", state ? state : "",
                     state && where[0] ? ", " : "", where);
        if (dbg_eval_expr_at(c->s, &at, e, &v, err, sizeof err) != 0) {
            if (info.state != EXEC_LANE_DIVERGENT) {
                cmd_ui_textf(c, "<error: %s>%s\n", err, tag);
                cmd_ui_str(c, "error", err);
                continue;
            }
            /* a lane waiting elsewhere, where EXPR means nothing (out of scope there): it is
               inactive at this stop, and the reason is where it waits, not an error */
            dbg_frame lf[DBG_MAX_FRAMES];
            int ln = dbg_lane_frames(c->s, f->cta, f->warp, l, lf, DBG_MAX_FRAMES);
            char at[600] = "";
            if (ln > 0 && lf[0].file && lf[0].line > 0) {
                const char *b = strrchr(lf[0].file, '/');
                snprintf(at, sizeof at, " at %s:%d", b ? b + 1 : lf[0].file, lf[0].line);
            } else if (ln > 0) {
                snprintf(at, sizeof at, " at pc 0x%x", lf[0].pc);
            }
            cmd_ui_textf(c, "<inactive>  (divergent%s%s%s)\n", at, where[0] ? ", " : "", where);
            cmd_ui_str(c, "state", "inactive");
            continue;
        }
        dbg_format_at(c->s, &at, &v, fmt, out, sizeof out);
        cmd_ui_field_str(c, "value", out);
        if (state)
            cmd_ui_str(c, "state", info.state == EXEC_LANE_DIVERGENT ? "inactive" : state);
        cmd_ui_textf(c, "%s\n", tag);
    }
    if (lane_open)
        cmd_ui_close(c);
    cmd_ui_close(c);
    dbg_expr_free(e);
    return 0;
}

/* print / output / call share this: returns 0 or -1; prints "$N = v" when record. */
int cmd_print_value_line(cmd_ctx *c, const char *expr, const char *fmtspec, int record)
{
    char fmt = 0, size = 0;
    int count = 1;
    if (fmtspec[0] && dbg_parse_fmt(fmtspec + 1, &count, &fmt, &size) != 0)
        return cmd_error(c, "Undefined output format \"%s\".", fmtspec + 1);
    if (fmt == 'i')
        return cmd_error(c, "Format letter \"i\" is meaningless in \"print\" command.");
    dbg_value v;
    char err[512], out[8192];
    if (!*expr) {
        if (dbg_session_history(c->s)->nhist == 0) {
            if (record) {     /* gdb shows an empty history this way */
                cmd_ui_text(c, "$1 = ");
                cmd_ui_field_str(c, "value", "void");
                cmd_ui_text(c, "\n");
            }
            return 0;
        }
        v = dbg_session_history(c->s)->hist[dbg_session_history(c->s)->nhist - 1];
    } else if (dbg_eval_focus(c->s, expr, &v, err, sizeof err) != 0) {
        return cmd_error(c, "%s", err);
    }
    if (dbg_format_focus(c->s, &v, fmt, out, sizeof out) != 0)
        return cmd_error(c, "%s", out);
    size_t ol = strlen(out);
    if (v.kind == DBG_V_AGG && !strncmp(out, "<error: ", 8) && ol > 9 && out[ol - 1] == '>' &&
        !strchr(out + 8, '{')) {
        /* an aggregate whose memory cannot be read at all: gdb's error, no history entry */
        out[ol - 1] = 0;
        return cmd_error(c, "%s", out + 8);
    }
    if (record) {
        /* gdb records every printed value, void ones too ($1 = void, then $2 = 5) */
        dbg_history_push(c->s, &v);
        int hist = dbg_session_history(c->s)->nhist;
        cmd_ui_textf(c, "$%d = ", hist);
        cmd_ui_value(c, &v, out, hist);
        cmd_ui_text(c, "\n");
    } else {
        cmd_ui_value(c, &v, out, 0);
    }
    return 0;
}

int cmd_print(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char fmtspec[32];
    const char *expr = take_fmt(args, fmtspec, sizeof fmtspec);
    if (!strncmp(expr, "-lanes", 6) && (!expr[6] || isspace((unsigned char)expr[6]))) {
        char fmt = 0, size = 0;
        int count = 1;
        if (fmtspec[0] && dbg_parse_fmt(fmtspec + 1, &count, &fmt, &size) != 0)
            return cmd_error(c, "Undefined output format \"%s\".", fmtspec + 1);
        expr += 6;
        while (isspace((unsigned char)*expr))
            expr++;
        if (!*expr)
            return cmd_error(c, "Usage: print[/FMT] -lanes EXPR");
        return print_lanes(c, expr, fmt);
    }
    return cmd_print_value_line(c, expr, fmtspec, 1);
}

int cmd_info_lanes_expr(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    while (isspace((unsigned char)*args))
        args++;
    return print_lanes(c, args, 0);
}

/* gdb's call: print, except that a void result prints nothing. Calls of program functions in
 * EXPR are refused by the parser ("calling functions is not supported"). */
int cmd_call(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char fmtspec[32];
    const char *expr = take_fmt(args, fmtspec, sizeof fmtspec);
    if (*expr) {
        dbg_value v;
        char err[512];
        if (dbg_eval_focus(c->s, expr, &v, err, sizeof err) != 0)
            return cmd_error(c, "%s", err);
        if (v.kind == DBG_V_VOID && !v.optout)
            return 0;
    }
    return cmd_print_value_line(c, expr, fmtspec, 1);
}

int cmd_output(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char fmtspec[32];
    const char *expr = take_fmt(args, fmtspec, sizeof fmtspec);
    int rc = cmd_print_value_line(c, expr, fmtspec, 0);
    fflush(stdout);
    return rc;
}

/* ptype expands structs, unions and enums and resolves typedefs; whatis names the type. */
static int type_cmd(cmd_ctx *c, const char *args, int expand)
{
    char out[4200], err[512];
    if (dbg_type_text(c->s, args, expand, out, sizeof out, err, sizeof err) != 0)
        return cmd_error(c, "%s", err);
    cmd_ui_text(c, "type = ");
    cmd_ui_field_str(c, "type", out);   /* ptype: the whole definition, as shown */
    cmd_ui_text(c, "\n");
    return 0;
}

int cmd_ptype(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return type_cmd(c, args, 1);
}

int cmd_whatis(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return type_cmd(c, args, 0);
}

int cmd_set_var(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    while (isspace((unsigned char)*args))
        args++;
    if (!strchr(args, '='))
        return cmd_error(c, "Usage: set var LVALUE = EXPR");
    dbg_value v;
    char err[512];
    if (dbg_eval_focus(c->s, args, &v, err, sizeof err) != 0)
        return cmd_error(c, "%s", err);
    return 0;
}

/* "y+4" for an address inside buffer y, else what the core knows ("name+off"). */
void cmd_describe_addr(cmd_ctx *c, ptx_space space, uint64_t a, char *out, size_t n)
{
    out[0] = 0;
    if (space == PTX_SPACE_GLOBAL || space == PTX_SPACE_GENERIC)
        for (int i = 0; i < dbg_buffer_count(c->s); i++) {
            const dbg_buffer *b = dbg_buffer_at(c->s, i);
            if (a >= b->addr && a < b->addr + b->size) {
                if (a == b->addr)
                    snprintf(out, n, "%s", b->name);
                else
                    snprintf(out, n, "%s+%llu", b->name, (unsigned long long)(a - b->addr));
                return;
            }
        }
    if (dbg_addr_describe(c->s, space, a, out, n) != 0)
        out[0] = 0;
    /* the core names the nearest region however far ("30064771072 bytes before fmt_n [...]",
       "no global buffer"): a label only within 64 KB of it */
    char *end;
    unsigned long long dist = strtoull(out, &end, 10);
    if ((end != out && !strncmp(end, " bytes ", 7) && dist > 65536) ||
        !strcmp(out, "no global buffer"))
        out[0] = 0;
    /* "SYM+OFF" as gdb writes it: SYM demangled (a __shared__ array is
       "kern(int*)::tile"), no "+0" */
    size_t l = strcspn(out, "+ ");
    if (out[l] == ' ' || (out[l] == '+' && strspn(out + l + 1, "0123456789") != strlen(out + l + 1)))
        return;
    char sym[512], dm[1024];
    snprintf(sym, sizeof sym, "%.*s", (int)l, out);
    unsigned long long off = out[l] == '+' ? strtoull(out + l + 1, NULL, 10) : 0;
    if (dbg_demangle(sym, dm, sizeof dm, 0) != 0)
        snprintf(dm, sizeof dm, "%s", sym);
    if (off)
        snprintf(out, n, "%s+%llu", dm, off);
    else
        snprintf(out, n, "%s", dm);
}

/* ---- x -------------------------------------------------------------------------------------- */
static int unit_bytes(char size)
{
    return size == 'b' ? 1 : size == 'h' ? 2 : size == 'g' ? 8 : 4;
}

static int x_insns(cmd_ctx *c, uint64_t pc, int count)
{
    uint32_t cur = UINT32_MAX;
    dbg_focus_pc(c->s, &cur);
    cmd_ui_open(c, "instructions", 1);   /* as disassemble's: {"current", "pc", "instruction"} */
    for (int i = 0; i < count; i++, pc++) {
        char d[600], text[512];
        if (pc > UINT32_MAX || dbg_insn_text(c->s, (uint32_t)pc, text, sizeof text, NULL) != 0) {
            if (i == 0) {
                cmd_ui_close(c);
                return cmd_error(c, "Cannot access instruction at address 0x%llx",
                                 (unsigned long long)pc);
            }
            break;
        }
        dbg_describe_pc(c->s, pc, d, sizeof d);
        cmd_ui_open(c, NULL, 0);
        cmd_ui_field_bool(c, "current", pc == cur, "=> ", "   ");
        cmd_ui_textf(c, "0x%llx %s:\t", (unsigned long long)pc, d);
        cmd_ui_uint(c, "pc", pc);
        cmd_ui_field_str(c, "instruction", text);
        cmd_ui_text(c, "\n");
        cmd_ui_close(c);
    }
    cmd_ui_close(c);
    c->x_next = pc;
    c->x_space = PTX_SPACE_NONE;
    c->x_valid = 1;
    c->x_fmt = 'i';
    return 0;
}

int cmd_x(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char fmtspec[32];
    const char *rest = take_fmt(args, fmtspec, sizeof fmtspec);
    int count = 1;
    char fmt = c->x_fmt == 'i' && !fmtspec[0] ? 'i' : c->x_fmt, size = 0;
    if (fmtspec[0] && dbg_parse_fmt(fmtspec + 1, &count, &fmt, &size) != 0)
        return cmd_error(c, "Invalid number \"%s\".", fmtspec + 1);
    if (count > 100000 || count < -100000)
        return cmd_error(c, "Count %d is too large (at most 100000 units).", count);
    /* a negative count examines the units before the address (gdb's x/-N) */
    int back = count < 0;
    if (back && (fmt == 's' || fmt == 'i'))
        return cmd_error(c, "A negative count with format \"%c\" is not supported.", fmt);
    if (back)
        count = -count;
    if (count == 0)
        return 0;
    ptx_space space = PTX_SPACE_GLOBAL;
    int space_given = 0;
    if (*rest == '@') {
        char sp[32];
        size_t l = strcspn(rest + 1, " \t");
        snprintf(sp, sizeof sp, "%.*s", (int)l, rest + 1);
        space = dbg_space_from_name(sp);
        if (space == PTX_SPACE_NONE)
            return cmd_error(c, "Unknown address space \"@%s\".", sp);
        space_given = 1;
        rest += 1 + l;
        while (isspace((unsigned char)*rest))
            rest++;
    }
    uint64_t addr;
    int typed = 0;
    if (!*rest) {
        if (!c->x_valid)
            return cmd_error(c, "Argument required (starting display address).");
        addr = c->x_next;
        if (!space_given)
            space = c->x_space;
    } else {
        dbg_value v;
        char err[512];
        if (dbg_eval_focus(c->s, rest, &v, err, sizeof err) != 0)
            return cmd_error(c, "%s", err);
        if (v.kind == DBG_V_CODE && (fmt == 'i' || !fmtspec[0]))
            return x_insns(c, v.u, count);
        if (v.kind == DBG_V_PTR) {
            addr = v.u;
            if (!space_given)
                space = v.space == PTX_SPACE_NONE ? PTX_SPACE_GENERIC : v.space;
            if (!size && v.type != PTX_T_NONE && fmt != 's' && fmt != 'i') {
                size = dbg_type_bits(v.type) == 8 ? 'b' : dbg_type_bits(v.type) == 16 ? 'h'
                     : dbg_type_bits(v.type) == 64 ? 'g' : 'w';
                typed = 1;
            }
        } else if (v.kind == DBG_V_INT || v.kind == DBG_V_CODE) {
            addr = v.u;
        } else {
            return cmd_error(c, "Invalid address.");
        }
    }
    if (fmt == 'i') {
        if (space_given)
            return cmd_error(c, "Format letter \"i\" takes an instruction address.");
        return x_insns(c, addr, count);
    }
    if (!size)
        size = fmt == 'c' ? 'b' : fmt == 'a' ? 'g' : c->x_size;
    if (fmt == 'f' && size != 'w' && size != 'g' && size != 'h')
        size = 'g';
    (void)typed;
    int ub = unit_bytes(size);
    if (back) {
        uint64_t span = (uint64_t)count * (uint64_t)ub;
        if (addr < span)
            return cmd_error(c, "Cannot access memory below address 0x0.");
        addr -= span;
    }
    const dbg_focus *f = dbg_get_focus(c->s);
    dbg_session *m = c->s;
    int per_line = fmt == 'c' ? 8 : ub == 8 ? 2 : ub == 4 ? 4 : 8;
    char a0[32];
    snprintf(a0, sizeof a0, "0x%llx", (unsigned long long)addr);
    cmd_ui_str(c, "space", dbg_space_name(space));
    cmd_ui_str(c, "address", a0);
    cmd_ui_int(c, "unit_bytes", fmt == 's' ? 1 : ub);
    cmd_ui_open(c, "values", 1);   /* the units (x/s: the strings) as printed */
    if (fmt == 's') {
        /* gdb: a string stops at `print elements` characters, with "..." */
        uint64_t pe = dbg_opts(c->s)->print_elements;
        uint64_t lim = pe && pe <= 65536 ? pe : 65536;
        char *str = malloc(lim + 1);
        if (!str) {
            cmd_ui_close(c);
            return cmd_error(c, "Out of memory.");
        }
        for (int i = 0; i < count; i++) {
            cmd_ui_textf(c, "0x%llx:\t\"", (unsigned long long)addr);
            uint64_t k = 0;
            char ch = 1;
            for (; k < lim; k++) {
                if (dbg_mem_read_exact(m, space, addr + k, &ch, 1, f->cta, f->warp, f->lane)) {
                    str[k] = 0;
                    cmd_ui_field_str(c, NULL, str);
                    cmd_ui_text(c, "\"\n");
                    cmd_ui_close(c);
                    free(str);
                    return cmd_error(c, "Cannot access memory at address 0x%llx",
                                     (unsigned long long)(addr + k));
                }
                if (!ch)
                    break;
                str[k] = ch;
            }
            str[k] = 0;
            cmd_ui_field_str(c, NULL, str);
            cmd_ui_text(c, k == lim ? "\"...\n" : "\"\n");
            addr += k + (k < lim);
        }
        free(str);
        cmd_ui_close(c);
    } else {
        for (int i = 0; i < count; i++) {
            uint64_t a = addr + (uint64_t)i * (uint64_t)ub, bits = 0;
            if (i % per_line == 0) {
                char d[300] = "";
                cmd_describe_addr(c, space, a, d, sizeof d);
                if (i)
                    cmd_ui_text(c, "\n");
                cmd_ui_textf(c, "0x%llx%s%s%s:", (unsigned long long)a, d[0] ? " <" : "", d,
                             d[0] ? ">" : "");
            }
            if (dbg_mem_read_exact(m, space, a, &bits, (size_t)ub, f->cta, f->warp, f->lane) != 0) {
                cmd_ui_text(c, "\n");
                cmd_ui_close(c);
                return cmd_error(c, "Cannot access memory at address 0x%llx",
                                 (unsigned long long)a);
            }
            ptx_type t = fmt == 'f' ? (ub == 4 ? PTX_T_F32 : ub == 2 ? PTX_T_F16 : PTX_T_F64)
                         : fmt == 'd' ? (ub == 1 ? PTX_T_S8 : ub == 2 ? PTX_T_S16
                                         : ub == 4 ? PTX_T_S32 : PTX_T_S64)
                         : (ub == 1 ? PTX_T_U8 : ub == 2 ? PTX_T_U16 : ub == 4 ? PTX_T_U32
                                                                           : PTX_T_U64);
            char out[128];
            char pf = fmt == 'x' ? 'z' : fmt; /* x pads to the unit like gdb */
            dbg_format_bits(bits, t, fmt == 'f' || fmt == 'd' ? 0 : pf, out, sizeof out);
            cmd_ui_text(c, "\t");
            cmd_ui_field_str(c, NULL, out);
        }
        cmd_ui_close(c);
        cmd_ui_text(c, "\n");
        if (!back) /* after x/-N the next x goes on backwards from the first unit shown */
            addr += (uint64_t)count * (uint64_t)ub;
    }
    c->x_next = addr;
    c->x_space = space;
    c->x_fmt = fmt;
    c->x_size = size;
    c->x_valid = 1;
    return 0;
}

/* ---- display -------------------------------------------------------------------------------- */
int cmd_display(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char fmtspec[16];
    const char *expr = take_fmt(args, fmtspec, sizeof fmtspec);
    if (!*expr) {
        cmd_do_displays(c);
        return 0;
    }
    if (fmtspec[0]) {
        int count;
        char fmt = 0, size = 0;
        if (dbg_parse_fmt(fmtspec + 1, &count, &fmt, &size) != 0)
            return cmd_error(c, "Undefined output format \"%s\".", fmtspec + 1);
    } else {
        dbg_expr *e;
        char err[512];
        if (!(e = dbg_expr_parse_at(c->s, expr, err, sizeof err)))
            return cmd_error(c, "%s", err);
        dbg_expr_free(e);
    }
    cmd_disp *n = realloc(c->disp, (size_t)(c->ndisp + 1) * sizeof *n);
    if (!n)
        return cmd_error(c, "Out of memory.");
    c->disp = n;
    cmd_disp *d = &c->disp[c->ndisp++];
    memset(d, 0, sizeof *d);
    d->num = c->next_disp++;
    snprintf(d->fmt, sizeof d->fmt, "%s", fmtspec);
    d->text = strdup(expr);
    d->enabled = 1;
    if (dbg_launch_alive(c->s)) {
        /* show it now, like gdb */
        cmd_disp *all = c->disp;
        int nall = c->ndisp;
        c->disp = d;
        c->ndisp = 1;
        cmd_do_displays(c);
        c->disp = all;
        c->ndisp = nall;
    }
    return 0;
}

int cmd_undisplay(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc == 0) {
        for (int i = 0; i < c->ndisp; i++)
            free(c->disp[i].text);
        c->ndisp = 0;
        return 0;
    }
    int rc = 0;
    for (int k = 0; k < argc; k++) {
        long num = 0;
        int found = 0;
        if (cmd_parse_long(argv[k], 1, INT_MAX, &num) != 0)
            num = 0; /* no display has number 0: "No display number ARG." below */
        for (int i = 0; i < c->ndisp; i++)
            if (c->disp[i].num == num) {
                free(c->disp[i].text);
                memmove(&c->disp[i], &c->disp[i + 1], (size_t)(c->ndisp - i - 1) * sizeof *c->disp);
                c->ndisp--;
                found = 1;
                break;
            }
        if (!found)
            rc = cmd_error(c, "No display number %s.", argv[k]);
    }
    return rc;
}

int cmd_info_display(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    /* JSON: "displays": [{"number", "enabled", "format" ("/x", "" none), "expression"}] */
    cmd_ui_open(c, "displays", 1);
    if (c->ndisp)
        cmd_ui_text(c, "Auto-display expressions now in effect:\nNum Enb Expression\n");
    for (int i = 0; i < c->ndisp; i++) {
        cmd_ui_open(c, NULL, 0);
        cmd_ui_field_int(c, "number", c->disp[i].num);
        cmd_ui_text(c, ":   ");
        cmd_ui_field_bool(c, "enabled", c->disp[i].enabled, "y", "n");
        cmd_ui_text(c, "  ");
        cmd_ui_field_str(c, "format", c->disp[i].fmt);
        if (c->disp[i].fmt[0])
            cmd_ui_text(c, " ");
        cmd_ui_field_str(c, "expression", c->disp[i].text);
        cmd_ui_text(c, "\n");
        cmd_ui_close(c);
    }
    cmd_ui_close(c);
    if (!c->ndisp)
        cmd_ui_text(c, "There are no auto-display expressions now.\n");
    return 0;
}

/* ---- registers ------------------------------------------------------------------------------ */
/* A row of the "registers" table: {"name", "type" (PTX), "hex", "value"}. */
static void reg_line(cmd_ctx *c, const char *name, uint64_t bits, ptx_type t)
{
    char nat[128];
    dbg_format_bits(bits, t, 0, nat, sizeof nat);
    int b = t == PTX_T_PRED ? 1 : dbg_type_bits(t);
    uint64_t mask = b >= 64 ? UINT64_MAX : (UINT64_C(1) << b) - 1;
    char hex[32];
    snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)(bits & mask));
    cmd_ui_row_begin(c);
    cmd_ui_field_str(c, "name", name);
    cmd_ui_str(c, "type", dbg_type_name(t));
    cmd_ui_field_str(c, "hex", hex);
    cmd_ui_field_str(c, "value", nat);
    cmd_ui_row_end(c);
}

/* The pc's row: {"name": "pc", "hex", "value" (where it is)}. */
static void pc_line(cmd_ctx *c)
{
    uint32_t pc;
    if (dbg_focus_pc(c->s, &pc) != 0)
        return;
    char d[300], hex[32];
    dbg_describe_pc(c->s, pc, d, sizeof d);
    snprintf(hex, sizeof hex, "0x%x", pc);
    cmd_ui_row_begin(c);
    cmd_ui_field_str(c, "name", "pc");
    cmd_ui_field_str(c, "hex", hex);
    cmd_ui_field_str(c, "value", d);
    cmd_ui_row_end(c);
}

/* The registers table: name, hex and natural value columns (gdb's widths, no gap). */
static void reg_table(cmd_ctx *c)
{
    cmd_ui_table_begin(c, "registers");
    cmd_ui_table_gap(c, 0);
    cmd_ui_table_col(c, 15, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 19, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "");
    cmd_ui_table_heading(c, NULL);
}

/* Print the elements name.x, name.y, ... of vector register `name` of the focus; how many. */
static int reg_elements(cmd_ctx *c, const char *name)
{
    const dbg_focus *f = dbg_get_focus(c->s);
    int k = 0;
    for (; k < 4; k++) {
        char el[80];
        uint64_t bits;
        ptx_type t;
        snprintf(el, sizeof el, "%.70s.%c", name, "xyzw"[k]);
        if (dbg_reg(c->s, f->cta, f->warp, f->lane, dbg_focus_phys(c->s), el, &bits, &t) != 0)
            break;
        reg_line(c, el, bits, t);
    }
    return k;
}

int cmd_info_registers(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    const dbg_focus *f = dbg_get_focus(c->s);
    dbg_session *m = c->s;
    if (!f->valid || !dbg_launch_info(c->s))
        return cmd_error(c, "The program has no registers now.");
    int rc = 0;
    reg_table(c);
    if (argc > 0) {
        for (int i = 0; i < argc; i++) {
            char name[64];
            snprintf(name, sizeof name, "%s%s", argv[i][0] == '%' || argv[i][0] == '$' ? "" : "%",
                     argv[i]);
            if (name[0] == '$')
                name[0] = '%';
            uint64_t bits;
            ptx_type t;
            int id, comp;
            if (dbg_sreg_lookup(name, &id, &comp) == 0) {
                if (dbg_sreg(m, f->cta, f->warp, f->lane, id, comp, &bits) == 0)
                    reg_line(c, name, bits, PTX_T_U32);
                else
                    rc = cmd_error(c, "%s", dbg_errmsg(m));
            } else if (!strcmp(name, "%pc")) {
                pc_line(c);
            } else if (dbg_reg(m, f->cta, f->warp, f->lane, dbg_focus_phys(c->s), name, &bits, &t) == 0) {
                reg_line(c, name, bits, t);
            } else if (argv[i][0] != '%' && argv[i][0] != '$' &&   /* PTX names without % */
                       dbg_reg(m, f->cta, f->warp, f->lane, dbg_focus_phys(c->s), argv[i],
                               &bits, &t) == 0) {
                reg_line(c, argv[i], bits, t);
            } else if (reg_elements(c, name) || reg_elements(c, argv[i])) {
                /* a vector register: printed element by element */
            } else {
                rc = cmd_error(c, "Invalid register `%s'", argv[i]);
            }
        }
        cmd_ui_table_end(c);
        return rc;
    }
    exec_frame fr[64];
    int nf = dbg_backtrace(c->s, fr, 64);
    if (nf <= 0) {
        cmd_ui_table_end(c);
        return cmd_error(c, "The program has no registers now.");
    }
    int pf = dbg_focus_phys(c->s);
    int total = 0;
    dbg_reg_rows(m, f->cta, f->warp, f->lane, pf < nf ? pf : nf - 1, NULL, 0, &total);
    dbg_reg_row *rows = total ? malloc((size_t)total * sizeof *rows) : NULL;
    int n = rows ? dbg_reg_rows(m, f->cta, f->warp, f->lane, pf < nf ? pf : nf - 1, rows, total,
                                &total) : 0;
    for (int i = 0; i < n; i++)
        if (rows[i].ok)
            reg_line(c, rows[i].name, rows[i].bits, rows[i].type);
    free(rows);
    pc_line(c);
    cmd_ui_table_end(c);
    return 0;
}

/* ---- printf "FORMAT", ARG... (gdb) ------------------------------------------------------------ */
/* The next top-level comma-separated argument of s (parentheses, brackets and quotes nest);
 * copies it into out and returns what follows, NULL at the end. */
static const char *next_arg(const char *s, char *out, size_t n)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return NULL;
    int depth = 0;
    char q = 0;
    const char *p = s;
    for (; *p; p++) {
        if (q) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == q)
                q = 0;
        } else if (*p == '"' || *p == '\'') {
            q = *p;
        } else if (*p == '(' || *p == '[') {
            depth++;
        } else if ((*p == ')' || *p == ']') && depth > 0) {
            depth--;
        } else if (*p == ',' && depth == 0) {
            break;
        }
    }
    size_t l = (size_t)(p - s);
    while (l && isspace((unsigned char)s[l - 1]))
        l--;
    snprintf(out, n, "%.*s", (int)l, s);
    return *p == ',' ? p + 1 : p;
}

/* Append to a growing output buffer. */
static void pf_put(char *out, size_t n, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void pf_put(char *out, size_t n, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (*len < n) {
        int k = vsnprintf(out + *len, n - *len, fmt, ap);
        if (k > 0)
            *len += (size_t)k < n - *len ? (size_t)k : n - *len - 1;
    }
    va_end(ap);
}

enum { CMD_PRINTF_MAX_WIDTH = 4096 };

int cmd_printf(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    while (isspace((unsigned char)*args))
        args++;
    if (*args != '"')
        return cmd_error(c, "Bad format string, missing '\"'");
    /* the format, C escapes decoded */
    char fmt[2048];
    size_t fl = 0;
    const char *p = args + 1;
    for (; *p && *p != '"' && fl + 2 < sizeof fmt; p++) {
        if (*p != '\\') {
            fmt[fl++] = *p;
            continue;
        }
        p++;
        switch (*p) {
        case 'n': fmt[fl++] = '\n'; break;
        case 't': fmt[fl++] = '\t'; break;
        case 'r': fmt[fl++] = '\r'; break;
        case 'a': fmt[fl++] = '\a'; break;
        case 'e': fmt[fl++] = 27; break;
        case '"': fmt[fl++] = '"'; break;
        case '\\': fmt[fl++] = '\\'; break;
        case 0: return cmd_error(c, "Bad format string, non-terminated '\"'");
        default:
            return cmd_error(c, "Unrecognized escape character \\%c in format string.", *p);
        }
    }
    if (*p != '"')
        return cmd_error(c, "Bad format string, non-terminated '\"'");
    fmt[fl] = 0;
    p++;
    while (isspace((unsigned char)*p))
        p++;
    if (*p && *p != ',')
        return cmd_error(c, "Invalid argument syntax");
    if (*p == ',')
        p++;
    char out[8192];
    size_t ol = 0;
    out[0] = 0;
    dbg_at at = dbg_at_focus(c->s);
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            pf_put(out, sizeof out, &ol, "%c", *f);
            continue;
        }
        if (f[1] == '%') {
            pf_put(out, sizeof out, &ol, "%%");
            f++;
            continue;
        }
        /* %[flags][width][.prec][length]conv */
        const char *s = f++;
        f += strspn(f, "-+ #0'");
        /* width and precision are bounded: a huge one would make the C library format (and
         * allocate) for minutes */
        size_t wl = strspn(f, "0123456789"), pl = 0;
        long wv = wl ? strtol(f, NULL, 10) : 0, pv = 0;
        f += wl;
        if (*f == '.') {
            f++;
            pl = strspn(f, "0123456789");
            pv = pl ? strtol(f, NULL, 10) : 0;
            f += pl;
        }
        if (wl > 5 || pl > 5 || wv > CMD_PRINTF_MAX_WIDTH || pv > CMD_PRINTF_MAX_WIDTH)
            return cmd_error(c, "Format width or precision too large (at most %d).",
                             CMD_PRINTF_MAX_WIDTH);
        size_t speclen = (size_t)(f - s);
        f += strspn(f, "hlLqjzt");
        char conv = *f;
        if (!conv || !strchr("diouxXcsfFeEgGaAp", conv))
            return cmd_error(c, "Bad format string");
        char spec[64];
        if (speclen > 40)
            return cmd_error(c, "Bad format string");
        char expr[1024];
        const char *rest = next_arg(p, expr, sizeof expr);
        if (!rest || !expr[0])
            return cmd_error(c, "Wrong number of arguments for specified format-string");
        p = rest;
        dbg_value v;
        char err[512];
        size_t el = strlen(expr);
        if (conv == 's' && expr[0] == '"' && el >= 2 && expr[el - 1] == '"') {
            /* a string literal */
            expr[el - 1] = 0;
            snprintf(spec, sizeof spec, "%.*ss", (int)speclen, s);
            pf_put(out, sizeof out, &ol, spec, expr + 1);
            continue;
        }
        if (dbg_eval_focus(c->s, expr, &v, err, sizeof err) != 0)
            return cmd_error(c, "%s", err);
        if (v.kind == DBG_V_VOID || v.kind == DBG_V_DIM3 || (v.kind == DBG_V_AGG && conv != 's'))
            return cmd_error(c, "Value can't be converted to integer.");
        switch (conv) {
        case 'd': case 'i': {
            snprintf(spec, sizeof spec, "%.*sll%c", (int)speclen, s, conv);
            long long x = v.kind == DBG_V_FLOAT ? (long long)v.f : (long long)dbg_value_int(&v);
            pf_put(out, sizeof out, &ol, spec, x);
            break;
        }
        case 'o': case 'u': case 'x': case 'X': case 'c': {
            unsigned long long x = v.kind == DBG_V_FLOAT ? (unsigned long long)(long long)v.f
                                                      : (unsigned long long)v.u;
            if (v.kind == DBG_V_INT && (v.type == PTX_T_S8 || v.type == PTX_T_S16 ||
                                     v.type == PTX_T_S32) && conv != 'c')
                x &= v.type == PTX_T_S8 ? 0xffull : v.type == PTX_T_S16 ? 0xffffull
                                                                         : 0xffffffffull;
            if (conv == 'c') {
                snprintf(spec, sizeof spec, "%.*sc", (int)speclen, s);
                pf_put(out, sizeof out, &ol, spec, (int)(unsigned char)x);
            } else {
                snprintf(spec, sizeof spec, "%.*sll%c", (int)speclen, s, conv);
                pf_put(out, sizeof out, &ol, spec, x);
            }
            break;
        }
        case 'p':
            pf_put(out, sizeof out, &ol, "0x%llx", (unsigned long long)v.u);
            break;
        case 's': {
            /* a char pointer or array in device memory, up to its NUL */
            ptx_space sp = v.kind == DBG_V_AGG ? v.mspace : v.space;
            uint64_t a = v.kind == DBG_V_AGG ? v.maddr : v.u;
            if (v.kind != DBG_V_PTR && v.kind != DBG_V_AGG)
                return cmd_error(c, "Value can't be converted to a string.");
            char str[1024];
            size_t k = 0;
            for (; k + 1 < sizeof str; k++) {
                uint8_t b = 0;
                if (dbg_value_read(c->s, &at, sp, a + k, &b, 1, err, sizeof err) != 0)
                    return cmd_error(c, "%s", err);
                if (!b)
                    break;
                str[k] = (char)b;
            }
            str[k] = 0;
            snprintf(spec, sizeof spec, "%.*ss", (int)speclen, s);
            pf_put(out, sizeof out, &ol, spec, str);
            break;
        }
        default: { /* floating */
            snprintf(spec, sizeof spec, "%.*s%c", (int)speclen, s, conv);
            double x = v.kind == DBG_V_FLOAT ? v.f : v.kind == DBG_V_INT && dbg_type_is_signed(v.type)
                                                    ? (double)dbg_value_int(&v) : (double)v.u;
            pf_put(out, sizeof out, &ol, spec, x);
            break;
        }
        }
    }
    char extra[16];
    if (next_arg(p, extra, sizeof extra))
        return cmd_error(c, "Wrong number of arguments for specified format-string");
    fputs(out, stdout);
    fflush(stdout);
    return 0;
}

/* ---- the PTX REPL: a typed instruction's destination registers ------------------------------ */
int cmd_ptx_repl_line(cmd_ctx *c, const char *line)
{
    dbg_ptx_row rows[8];
    int n = dbg_ptx_line(c->s, line, rows, 8);
    if (n < 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    for (int i = 0; i < n; i++) {
        if (rows[i].hex[0])
            printf("%s = %s  (%s)\n", rows[i].name, rows[i].value, rows[i].hex);
        else
            printf("%s = %s\n", rows[i].name, rows[i].value);
    }
    return 0;
}

int cmd_eval_ptx(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cmd_ptx_repl_line(c, args);
}
