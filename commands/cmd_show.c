/* cmd_show.c - presenting stops: focus lines, frame lines with arguments, source lines, displays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"
#include "cmd_prog.h"

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
    dbg_sm_of(c->s, f->cta, &sm);
    cmd_ui_textf(c,
        "[Switching focus to CUDA kernel %u, grid %u, block (%u,%u,%u), thread (%u,%u,%u), "
           "device 0, sm %llu, warp %u, lane %u]\n",
           f->kernel, li->launch_id + 1, b.x, b.y, b.z, t.x, t.y, t.z, (unsigned long long)sm,
           f->warp, f->lane);
    c->shown_focus = *f;
    c->shown_launch = (int)dbg_nlaunches(c->s);
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
        snprintf(out, n, "%s:%d", base_name(dbg_module_name(c->s)), w.ptx_line);
}

void cmd_frame_args(cmd_ctx *c, const dbg_frame *f, char *out, size_t n)
{
    dbg_frame_args(c->s, f, out, n);
}

static void frame_name(cmd_ctx *c, const dbg_frame *f, char *out, size_t n)
{
    if (f->inl_name)
        snprintf(out, n, "%s", f->inl_name);
    else if (dbg_func_is_kernel(f->func))
        cmd_kernel_label(c, out, n);
    else
        dbg_func_name(c->s, f->func, 0, out, n);
}

/* gdb shows "0x... in" when the pc is not where a line starts (callers, after finish). */
static int frame_shows_addr(cmd_ctx *c, const dbg_frame *f) { return dbg_frame_shows_addr(c->s, f); }

static void print_line_text(cmd_ctx *c, const char *file, int line, uint32_t pc)
{
    int len;
    const char *text;
    if (file && line > 0) {
        text = dbg_source_line(c->s, file, line, &len);
        if (text) {
            cmd_ui_textf(c, "%d\t%.*s\n", line, len, text);
        } else {
            if (dbg_source_missing_once(c->s, file)) {
                fflush(stdout);
                cmd_ui_message(c, "warning: source file not found: %s\n", base_name(file));
            }
            cmd_ui_textf(c, "%d\tin %s\n", line, file);
        }
        snprintf(c->list_file, sizeof c->list_file, "%s", file);
        c->list_line = cmd_list_centre(c, line); /* a following `list` centres on it */
        c->list_first = c->list_line;
    } else {
        dbg_where w;
        if (dbg_pc_where(c->s, pc, &w) != 0)
            return;
        text = dbg_ptx_text_line(c->s, w.ptx_line, &len);
        if (text)
            cmd_ui_textf(c, "%d\t%.*s\n", w.ptx_line, len, text);
        c->list_file[0] = 0;
        c->list_line = cmd_list_centre(c, w.ptx_line);
        c->list_first = c->list_line;
    }
    c->list_missing[0] = 0; /* the frame's location is what LINE is relative to now */
    c->list_valid = 1;
}

/* Frame line: "saxpy<<<...>>> (n=1, ...) at k.cu:7" (with "#N  " for backtraces, N >= 0). */
void cmd_print_frame_line(cmd_ctx *c, int frame_no, int with_source)
{
    cmd_frame_line(c, frame_no, with_source, 0);
}

void cmd_frame_line(cmd_ctx *c, int frame_no, int with_source, int in_list)
{
    dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_frames(c->s, fr, DBG_MAX_FRAMES);
    int sel = frame_no >= 0 ? frame_no : dbg_get_focus(c->s)->frame;
    if (sel >= nf) {
        cmd_ui_text(c, "No stack.\n");
        return;
    }
    const dbg_frame *f = &fr[sel];
    char name[600], args[2048], at[600];
    frame_name(c, f, name, sizeof name);
    cmd_frame_args(c, f, args, sizeof args);
    if (f->file && f->line > 0)
        snprintf(at, sizeof at, "%s:%d", base_name(f->file), f->line);
    else
        where_text(c, f->pc, at, sizeof at);
    /* a row of backtrace's "frames", else the command's "frame" */
    char fn[600];
    dbg_frame_fn(dbg_demangle, f, fn, sizeof fn);
    cmd_ui_open(c, frame_no >= 0 && in_list ? NULL : "frame", 0);
    cmd_ui_int(c, "level", sel);
    if (frame_no >= 0)
        cmd_ui_textf(c, "#%-2d ", frame_no);
    if (frame_shows_addr(c, f))
        cmd_ui_textf(c, "0x%016llx in ", (unsigned long long)f->pc);
    cmd_ui_text(c, name);
    cmd_ui_str(c, "function", fn);
    cmd_ui_uint(c, "pc", f->pc);
    cmd_ui_text(c, " (");
    cmd_ui_field_str(c, "args", args);
    cmd_ui_text(c, ") at ");
    cmd_ui_text(c, at);
    if (f->file && f->line > 0) {
        cmd_ui_str(c, "file", f->file);
        cmd_ui_int(c, "line", f->line);
    }
    cmd_ui_text(c, "\n");
    cmd_ui_close(c);
    if (with_source)
        print_line_text(c, f->file, f->line, f->pc);
}

void cmd_print_source_at(cmd_ctx *c, uint32_t pc)
{
    dbg_frame f;
    if (dbg_focus_frame(c->s, &f) == 0 && f.pc == pc) {
        print_line_text(c, f.file, f.line, pc);
        return;
    }
    dbg_where w;
    if (dbg_pc_where(c->s, pc, &w) != 0)
        return;
    print_line_text(c, w.file, w.line, pc);
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
    dbg_format_bits(ov, b->wtype, 0, os, sizeof os);
    dbg_format_bits(nv, b->wtype, 0, ns, sizeof ns);
    const char *kind = b->type == DBG_BP_WATCH    ? "Hardware watchpoint"
                       : b->type == DBG_BP_RWATCH ? "Hardware read watchpoint"
                                                  : "Hardware access (read/write) watchpoint";
    cmd_ui_textf(c, "\n%s %d: %s\n\n", kind, b->num, b->spec);
    if (b->type == DBG_BP_RWATCH || (b->type == DBG_BP_AWATCH && ov == nv))
        cmd_ui_textf(c, "Value = %s\n", ns);
    else
        cmd_ui_textf(c, "Old value = %s\nNew value = %s\n", os, ns);
}

/* A breakpoint's commands run next, after the stop is shown (the command feed reads them). */
static void queue_bp_commands(cmd_ctx *c, int num)
{
    dbg_bp *b = dbg_bp_find(c->s, num);
    if (!b || !b->ncommands)
        return;
    int first = !strcmp(b->commands[0], "silent");
    size_t len = 0;
    for (int i = first; i < b->ncommands; i++)
        len += strlen(b->commands[i]) + 1;
    char *text = malloc(len + 1), *p = text;
    if (!text)
        return;
    for (int i = first; i < b->ncommands; i++) {
        size_t k = strlen(b->commands[i]);
        memcpy(p, b->commands[i], k);
        p += k;
        *p++ = '\n';
    }
    *p = 0;
    char name[64];
    snprintf(name, sizeof name, "breakpoint %d", num);
    cmd_feed_push(c, CMD_FR_TEXT, CMD_FF_NEST | CMD_FF_BPCMD, name, NULL, text, len);
    free(text);
}

void cmd_report_event(cmd_ctx *c, const dbg_event *ev)
{
    int silent = 0;
    cmd_ui_stop(c, ev);       /* JSON mode: the stop as an event object (cmd_ui.c) */
    cmd_feed_resumed(c); /* the kernel ran: what is left of breakpoint commands is dropped */
    if (ev->temp_deleted || ev->bp_disabled) {
        /* a change no typed line made: the setup log says it, so the next run and the
           parent (a program's session) have it too */
        char note[64];
        snprintf(note, sizeof note, "%s %d", ev->temp_deleted ? "delete" : "disable", ev->bp);
        cmd_prog_note(c, note);
    }
    if (ev->kind == DBG_EV_BREAKPOINT) {
        dbg_bp *b = dbg_bp_find(c->s, ev->bp);
        silent = b && b->ncommands && !strcmp(b->commands[0], "silent");
    }
    switch (ev->kind) {
    case DBG_EV_EXITED:
        if (c->kernel_events) {
            const exec_launch_info *li = dbg_launch_info(c->s);
            cmd_ui_textf(c, "[Kernel %u exited]\n", li ? li->launch_id : dbg_nlaunches(c->s) - 1);
        }
        return;
    case DBG_EV_BREAKPOINT:
        if (silent)
            break;
        cmd_announce_focus(c, 0);
        cmd_ui_textf(c,
            "\n%s %d, ", ev->temp_deleted ? "Temporary breakpoint" : "Breakpoint", ev->bp);
        cmd_print_frame_line(c, -1, 1);
        break;
    case DBG_EV_STEP: {
        cmd_announce_focus(c, 0);
        if (ev->new_frame)
            cmd_print_frame_line(c, -1, 0);
        uint32_t pc;
        dbg_frame f;
        /* a step that ends inside a line (stepi, nexti) shows the pc first, as gdb does */
        if (!ev->new_frame && dbg_focus_frame(c->s, &f) == 0 && frame_shows_addr(c, &f))
            cmd_ui_textf(c, "0x%016llx\t", (unsigned long long)f.pc);
        if (dbg_focus_pc(c->s, &pc) == 0)
            cmd_print_source_at(c, pc);
        /* a lane step that could not complete a warp-synchronous instruction: say who it
           waits for (the program, not the step, keeps them away) */
        exec_lane_info li;
        if (dbg_focus_lane(c->s, &li) == 0 && li.waits_for) {
            const dbg_focus *f = dbg_get_focus(c->s);
            uint32_t away = 0;   /* named lanes not waiting there with it */
            for (uint32_t l = 0; l < 32; l++) {
                exec_lane_info o;
                if (((li.waits_for >> l) & 1) &&
                    (dbg_lane_get(c->s, f->cta, f->warp, l, &o) != 0 ||
                     o.waits_for != li.waits_for))
                    away |= 1u << l;
            }
            cmd_ui_textf(c,
                "[Lane %u waits in a warp-synchronous instruction for lanes 0x%08x; lanes "
                   "0x%08x cannot reach it (\"info cuda lanes\" shows where they are)]\n",
                   f->lane, li.waits_for, away);
        }
        break;
    }
    case DBG_EV_ENTRY:
        /* break_on_launch / start: the kernel's first line, before it runs */
        cmd_announce_focus(c, 0);
        cmd_ui_textf(c, "\n");
        cmd_print_frame_line(c, -1, 1);
        break;
    case DBG_EV_LANE_EXITED: {
        exec_dim3 b = dbg_focus_block(c->s), t = dbg_focus_thread(c->s);
        cmd_ui_textf(c,
            "[Thread (%u,%u,%u) block (%u,%u,%u) has exited; focus it with \"cuda thread\" "
               "on a live thread]\n", t.x, t.y, t.z, b.x, b.y, b.z);
        return;
    }
    case DBG_EV_BRKPT:
        /* cuda-gdb: a brkpt instruction is a SIGTRAP of the thread that executed it */
        cmd_ui_textf(c, "\nProgram received signal SIGTRAP, Trace/breakpoint trap.\n");
        cmd_announce_focus(c, 0);
        cmd_print_frame_line(c, -1, 1);
        break;
    case DBG_EV_TRAP:
    case DBG_EV_ASSERT:
    case DBG_EV_EXCEPTION:
        cmd_core_report_stop(c, ev); /* cmd_core.c */
        break;
    case DBG_EV_CHECK:
        cmd_check_report_stop(c, ev);   /* cmd_check.c */
        break;
    case DBG_EV_WATCH:
        cmd_announce_focus(c, 0);
        watch_values(c, ev);
        cmd_print_frame_line(c, -1, 1);
        break;
    case DBG_EV_LIMIT: {
        /* the watchdog: an error (the batch exit status), but the launch lives on */
        const exec_launch_info *li = dbg_launch_info(c->s);
        cmd_announce_focus(c, 0);
        cmd_print_frame_line(c, -1, 1);
        cmd_error(c, "Kernel %u stopped after %llu warp-instructions (max-steps); \"continue\" "
                  "runs it further, \"set max-steps N\" changes the limit (0: none).",
                  li ? li->launch_id : 0, (unsigned long long)ev->steps);
        break;
    }
    case DBG_EV_INTERRUPT:
        cmd_ui_textf(c, "\nProgram received signal SIGINT, Interrupt.\n");
        cmd_announce_focus(c, 0);
        cmd_print_frame_line(c, -1, 1);
        break;
    default:
        return;
    }
    cmd_corecheck(c);
    cmd_do_displays(c);
    fflush(stdout);
    if (ev->kind == DBG_EV_BREAKPOINT)
        queue_bp_commands(c, ev->bp);
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
            dbg_parse_fmt(d->fmt + 1, &count, &fmt, &size);
        if (fmt == 'i' || size) {
            char cmd[600];
            snprintf(cmd, sizeof cmd, "x%s %s", d->fmt, d->text);
            cmd_ui_textf(c, "%d: x%s %s\n", d->num, d->fmt, d->text);
            cmd_execute(c, cmd);
            continue;
        }
        dbg_value v;
        char err[512], out[4096];
        if (dbg_eval_focus(c->s, d->text, &v, err, sizeof err) != 0) {
            cmd_ui_textf(c,
                "%d: %s%s%s = <error: %s>\n", d->num, d->fmt, d->fmt[0] ? " " : "", d->text,
                   err);
            continue;
        }
        dbg_format_focus(c->s, &v, fmt, out, sizeof out);
        cmd_ui_textf(c, "%d: %s%s%s = %s\n", d->num, d->fmt, d->fmt[0] ? " " : "", d->text, out);
    }
}

void cmd_report_cond_errors(cmd_ctx *c, const dbg_event *ev)
{
    for (const char *p = ev->cond_error; *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        cmd_error(c, "Error in testing condition for breakpoint: %.*s", len, p);
        p += len + (nl != NULL);
    }
}
