/* cmd_show.c - presenting stops: focus lines, frame lines with arguments, source lines, displays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

void cmd_kernel_label(cmd_ctx *c, char *out, size_t n)
{
    const exec_launch_info *li = dbg_launch_info(c->s);
    if (!li) {
        snprintf(out, n, "??");
        return;
    }
    char name[512];
    dbg_func_name(c->s, li->kernel, 0, name, sizeof name);
    snprintf(out, n, "%s<<<(%u,%u,%u),(%u,%u,%u)>>>", name, li->grid.x, li->grid.y, li->grid.z,
             li->block.x, li->block.y, li->block.z);
}

void cmd_announce_focus(cmd_ctx *c, int force)
{
    const dbg_focus *f = dbg_get_focus(c->s);
    const exec_launch_info *li = dbg_launch_info(c->s);
    if (!f->valid || !li)
        return;
    const dbg_focus *o = &c->shown_focus;
    if (!force && o->valid && o->kernel == f->kernel && o->cta == f->cta && o->warp == f->warp &&
        o->lane == f->lane && c->shown_launch == (int)dbg_nlaunches(c->s))
        return;
    exec_dim3 b = dbg_focus_block(c->s), t = dbg_focus_thread(c->s);
    uint64_t sm = 0;
    exec_sreg_get(dbg_machine(c->s), f->cta, f->warp, f->lane, PTX_SREG_SMID, 0, &sm);
    printf("[Switching focus to CUDA kernel %u, grid %u, block (%u,%u,%u), thread (%u,%u,%u), "
           "device 0, sm %llu, warp %u, lane %u]\n",
           f->kernel, li->launch_id + 1, b.x, b.y, b.z, t.x, t.y, t.z, (unsigned long long)sm,
           f->warp, f->lane);
    c->shown_focus = *f;
    c->shown_launch = (int)dbg_nlaunches(c->s);
}

/* Is a (demangled) parameter type a pointer? Parameter i of the signature "f(int, float*)". */
static int param_is_pointer(const char *sig, int i)
{
    const char *p = strchr(sig, '(');
    if (!p)
        return 0;
    p++;
    int depth = 0, k = 0;
    const char *start = p;
    for (; *p; p++) {
        if (*p == '<' || *p == '(')
            depth++;
        else if ((*p == '>' || *p == ')') && depth > 0)
            depth--;
        else if ((*p == ',' || *p == ')') && depth == 0) {
            if (k == i)
                return p > start && p[-1] == '*';
            k++;
            start = p + 1;
        }
    }
    return 0;
}

/* "n=1024, a=2, x=0x..." for a kernel's parameters (read from param space). */
static void kernel_args(cmd_ctx *c, const ptx_func *k, char *out, size_t n)
{
    out[0] = 0;
    uint64_t offs[64], sizes[64];
    int64_t total = exec_param_layout(k, offs, sizes, 64);
    const dbg_focus *f = dbg_get_focus(c->s);
    char sig[1024];
    dbg_func_name(c->s, k, 1, sig, sizeof sig);
    size_t len = 0;
    for (int i = 0; i < k->nparams && i < 64 && total >= 0; i++) {
        const ptx_sym *p = k->params[i];
        const char *nm = p->name;
        const char *u = strstr(nm, "_param_");
        char pname[64];
        snprintf(pname, sizeof pname, "%s", u ? u + 1 : nm);
        char val[128] = "...";
        uint64_t bits = 0;
        if (sizes[i] <= 8 && p->ndims == 0 &&
            exec_mem_read(dbg_machine(c->s), PTX_SPACE_PARAM, offs[i], &bits, sizes[i], f->cta,
                          f->warp, f->lane) == 0) {
            if (param_is_pointer(sig, i) || p->ptr_space != PTX_SPACE_NONE)
                snprintf(val, sizeof val, "0x%llx", (unsigned long long)bits);
            else
                cmd_format_bits(bits, p->type, 0, val, sizeof val);
        }
        int w = snprintf(out + len, n - len, "%s%s=%s", i ? ", " : "", pname, val);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
}

/* "foo (a=1)" for a device function frame: register parameters of that frame. */
static void func_args(cmd_ctx *c, const ptx_func *fn, int frame, char *out, size_t n)
{
    out[0] = 0;
    const dbg_focus *f = dbg_get_focus(c->s);
    size_t len = 0;
    for (int i = 0; i < fn->nparams; i++) {
        const ptx_sym *p = fn->params[i];
        char val[128] = "...";
        uint64_t bits;
        ptx_type t;
        if (exec_reg_get(dbg_machine(c->s), f->cta, f->warp, f->lane, frame, p->name, &bits,
                         &t) == 0)
            cmd_format_bits(bits, t, 0, val, sizeof val);
        const char *u = strstr(p->name, "_param_");
        int w = snprintf(out + len, n - len, "%s%s=%s", i ? ", " : "", u ? u + 1 : p->name, val);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
}

static void where_text(cmd_ctx *c, uint32_t pc, char *out, size_t n)
{
    dbg_where w;
    if (dbg_pc_where(c->s, pc, &w) != 0) {
        snprintf(out, n, "??");
        return;
    }
    if (w.file && w.line > 0)
        snprintf(out, n, "%s:%d", base_name(w.file), w.line);
    else
        snprintf(out, n, "%s:%d", base_name(dbg_module(c->s)->path), w.ptx_line);
}

/* Frame line: "saxpy<<<...>>> (n=1, ...) at k.cu:7" (with "#N  " for backtraces, N >= 0). */
void cmd_print_frame_line(cmd_ctx *c, int frame_no, int with_source)
{
    exec_frame fr[64];
    int nf = dbg_backtrace(c->s, fr, 64);
    int sel = frame_no >= 0 ? frame_no : dbg_get_focus(c->s)->frame;
    if (sel >= nf) {
        printf("No stack.\n");
        return;
    }
    const ptx_func *fn = fr[sel].func;
    char name[600], args[1024], at[600];
    if (fn->is_entry) {
        cmd_kernel_label(c, name, sizeof name);
        kernel_args(c, fn, args, sizeof args);
    } else {
        dbg_func_name(c->s, fn, 0, name, sizeof name);
        func_args(c, fn, sel, args, sizeof args);
    }
    where_text(c, fr[sel].pc, at, sizeof at);
    if (frame_no >= 0)
        printf("#%-2d ", frame_no);
    printf("%s (%s) at %s\n", name, args, at);
    if (with_source)
        cmd_print_source_at(c, fr[sel].pc);
}

void cmd_print_source_at(cmd_ctx *c, uint32_t pc)
{
    dbg_where w;
    if (dbg_pc_where(c->s, pc, &w) != 0)
        return;
    int len;
    const char *text;
    if (w.file && w.line > 0) {
        text = dbg_source_line(c->s, w.file, w.line, &len);
        if (text)
            printf("%d\t%.*s\n", w.line, len, text);
        else
            printf("%d\tin %s\n", w.line, w.file);
        snprintf(c->list_file, sizeof c->list_file, "%s", w.file);
        c->list_line = w.line > 5 ? w.line - 5 : 1; /* a following `list` centres on it */
    } else {
        text = ptx_source_line(dbg_module(c->s), w.ptx_line, &len);
        if (text)
            printf("%d\t%.*s\n", w.ptx_line, len, text);
        c->list_file[0] = 0;
        c->list_line = w.ptx_line > 5 ? w.ptx_line - 5 : 1;
    }
    c->list_valid = 1;
}

static const char *exc_name(exec_exc e, int *num)
{
    switch (e) {
    case EXEC_EXC_OUT_OF_RANGE: *num = 5; return "Warp Out-of-range Address";
    case EXEC_EXC_MISALIGNED: *num = 6; return "Warp Misaligned Address";
    case EXEC_EXC_ILLEGAL_INSN: *num = 4; return "Warp Illegal Instruction";
    case EXEC_EXC_READONLY: *num = 14; return "Warp Illegal Address";
    case EXEC_EXC_STACK_OVERFLOW: *num = 8; return "Lane User Stack Overflow";
    case EXEC_EXC_BARRIER_DEADLOCK: *num = 17; return "Warp Barrier Deadlock";
    case EXEC_EXC_WARP_SYNC: *num = 4; return "Warp Illegal Instruction";
    case EXEC_EXC_ILLEGAL_ADDRESS: *num = 14; return "Warp Illegal Address";
    case EXEC_EXC_INVALID_PC: *num = 7; return "Warp Invalid PC";
    case EXEC_EXC_MALLOC: *num = 14; return "Warp Illegal Address";
    default: *num = 0; return "Unknown Exception";
    }
}

static void watch_values(cmd_ctx *c, const dbg_event *ev)
{
    dbg_bp *b = dbg_bp_find(c->s, ev->bp);
    if (!b)
        return;
    uint64_t ov = 0, nv = 0;
    memcpy(&ov, ev->stop.old_bytes, b->len < 8 ? b->len : 8);
    memcpy(&nv, ev->stop.new_bytes, b->len < 8 ? b->len : 8);
    char os[128], ns[128];
    cmd_format_bits(ov, b->wtype, 0, os, sizeof os);
    cmd_format_bits(nv, b->wtype, 0, ns, sizeof ns);
    const char *kind = b->type == DBG_BP_WATCH    ? "Hardware watchpoint"
                       : b->type == DBG_BP_RWATCH ? "Hardware read watchpoint"
                                                  : "Hardware access (read/write) watchpoint";
    printf("\n%s %d: %s\n\n", kind, b->num, b->spec);
    if (b->type == DBG_BP_RWATCH || (b->type == DBG_BP_AWATCH && ov == nv))
        printf("Value = %s\n", ns);
    else
        printf("Old value = %s\nNew value = %s\n", os, ns);
}

static void run_bp_commands(cmd_ctx *c, int num)
{
    dbg_bp *b = dbg_bp_find(c->s, num);
    if (!b || !b->ncommands || c->depth > 8)
        return;
    /* copy: the commands may delete the breakpoint */
    int n = b->ncommands;
    char **lines = malloc((size_t)n * sizeof *lines);
    if (!lines)
        return;
    for (int i = 0; i < n; i++)
        lines[i] = strdup(b->commands[i]);
    c->depth++;
    for (int i = 0; i < n; i++) {
        if (lines[i] && !c->quit && strcmp(lines[i], "silent"))
            cmd_execute(c, lines[i]);
        free(lines[i]);
    }
    c->depth--;
    free(lines);
}

void cmd_report_event(cmd_ctx *c, const dbg_event *ev)
{
    const exec_stop *st = &ev->stop;
    char at[600];
    int silent = 0;
    if (ev->kind == DBG_EV_BREAKPOINT) {
        dbg_bp *b = dbg_bp_find(c->s, ev->bp);
        silent = b && b->ncommands && !strcmp(b->commands[0], "silent");
    }
    switch (ev->kind) {
    case DBG_EV_EXITED:
        if (c->kernel_events) {
            const exec_launch_info *li = dbg_launch_info(c->s);
            printf("[Kernel %u exited]\n", li ? li->launch_id : dbg_nlaunches(c->s) - 1);
        }
        return;
    case DBG_EV_BREAKPOINT:
        if (silent)
            break;
        cmd_announce_focus(c, 0);
        printf("\n%s %d, ", ev->temp_deleted ? "Temporary breakpoint" : "Breakpoint", ev->bp);
        cmd_print_frame_line(c, -1, 1);
        break;
    case DBG_EV_STEP: {
        cmd_announce_focus(c, 0);
        if (ev->new_frame)
            cmd_print_frame_line(c, -1, 0);
        uint32_t pc;
        if (dbg_focus_pc(c->s, &pc) == 0)
            cmd_print_source_at(c, pc);
        break;
    }
    case DBG_EV_LANE_EXITED: {
        exec_dim3 b = dbg_focus_block(c->s), t = dbg_focus_thread(c->s);
        printf("[Thread (%u,%u,%u) block (%u,%u,%u) has exited; focus it with \"cuda thread\" "
               "on a live thread]\n", t.x, t.y, t.z, b.x, b.y, b.z);
        return;
    }
    case DBG_EV_BRKPT: {
        cmd_announce_focus(c, 0);
        exec_dim3 b = dbg_focus_block(c->s), t = dbg_focus_thread(c->s);
        where_text(c, st->pc, at, sizeof at);
        printf("\nThread (%u,%u,%u) block (%u,%u,%u) hit brkpt at %s\n", t.x, t.y, t.z, b.x, b.y,
               b.z, at);
        cmd_print_source_at(c, st->pc);
        break;
    }
    case DBG_EV_TRAP:
    case DBG_EV_ASSERT:
    case DBG_EV_EXCEPTION: {
        int num = 4;
        const char *name = ev->kind == DBG_EV_TRAP     ? "Warp Illegal Instruction (trap)"
                           : ev->kind == DBG_EV_ASSERT ? "Warp Assert"
                                                       : exc_name(st->exc, &num);
        if (ev->kind == DBG_EV_ASSERT)
            num = 12;
        where_text(c, st->pc, at, sizeof at);
        printf("\nCUDA Exception: %s\nThe exception was triggered at PC 0x%x (%s)\n", name,
               st->pc, at);
        if (st->msg[0])
            printf("%s\n", st->msg);
        char k[600];
        cmd_kernel_label(c, k, sizeof k);
        printf("\nThread received signal CUDA_EXCEPTION_%d, %s.\n", num, name);
        cmd_announce_focus(c, 1);
        cmd_print_frame_line(c, -1, 1);
        c->kernel_failed = 1;
        break;
    }
    case DBG_EV_WATCH:
        cmd_announce_focus(c, 0);
        watch_values(c, ev);
        cmd_print_frame_line(c, -1, 1);
        break;
    case DBG_EV_INTERRUPT:
        printf("\nProgram received signal SIGINT, Interrupt.\n");
        cmd_announce_focus(c, 0);
        cmd_print_frame_line(c, -1, 1);
        break;
    default:
        return;
    }
    cmd_do_displays(c);
    fflush(stdout);
    if (ev->kind == DBG_EV_BREAKPOINT)
        run_bp_commands(c, ev->bp);
}

void cmd_do_displays(cmd_ctx *c)
{
    for (int i = 0; i < c->ndisp; i++) {
        cmd_disp *d = &c->disp[i];
        if (!d->enabled)
            continue;
        char fmt = 0;
        int count = 1;
        char size = 0;
        if (d->fmt[0])
            cmd_parse_fmt(d->fmt + 1, &count, &fmt, &size);
        if (fmt == 'i' || size) {
            char cmd[600];
            snprintf(cmd, sizeof cmd, "x%s %s", d->fmt, d->text);
            printf("%d: x%s %s\n", d->num, d->fmt, d->text);
            cmd_execute(c, cmd);
            continue;
        }
        cmd_value v;
        char err[512], out[1024];
        if (cmd_eval_focus(c, d->text, &v, err, sizeof err) != 0) {
            printf("%d: %s%s%s = <error: %s>\n", d->num, d->fmt, d->fmt[0] ? " " : "", d->text,
                   err);
            continue;
        }
        cmd_format_value(&v, fmt, cmd_describe, c, out, sizeof out);
        printf("%d: %s%s%s = %s\n", d->num, d->fmt, d->fmt[0] ? " " : "", d->text, out);
    }
}
