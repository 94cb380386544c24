/* dbg_site.c - source-level frames of any machine and the user's frame of a stop (past CUDA
 * toolkit headers and helpers without lines), for backtraces and fault reports. */
#include <stdio.h>
#include <string.h>
#include "dbg_int.h"

int dbg_machine_frames(exec_machine *m, const dw_info *dw, uint32_t cta, uint32_t warp,
                       uint32_t lane, dbg_frame *out, int max)
{
    if (!m || !exec_current_launch(m))
        return 0;
    exec_frame fr[64];
    int nf = exec_backtrace(m, cta, warp, lane, fr, 64);
    int n = 0;
    for (int k = 0; k < nf && n < max; k++) {
        dw_inline_frame ch[16];
        int ni = dw ? dw_inline_chain(dw, fr[k].pc, ch, 16) : 0;
        if (ni > 16)
            ni = 16;
        dw_line ln;
        memset(&ln, 0, sizeof ln);
        if (dw)
            dw_line_at(dw, fr[k].pc, &ln);
        for (int i = 0; i <= ni && n < max; i++) {
            dbg_frame *f = &out[n++];
            memset(f, 0, sizeof *f);
            f->func = fr[k].func;
            f->pc = fr[k].pc;
            f->phys = k;
            f->inl = i;
            f->ninl = ni;
            f->show_addr = k > 0 && i == 0;
            if (i < ni) {
                f->inl_name = ch[i].name;
                f->file = ch[i].file;
                f->line = ch[i].line;
            } else if (ni > 0) {
                f->file = ch[ni - 1].call_file;
                f->line = ch[ni - 1].call_line;
            } else {
                f->file = ln.line > 0 ? ln.file : NULL;
                f->line = ln.line;
            }
        }
    }
    return n;
}

int dbg_toolkit_file(const char *path)
{
    if (!path)
        return 0;
    /* nvcc names its headers by the toolkit's layout: .../bin/../targets/<arch>/include/...,
       or .../cuda[-X.Y]/include/... */
    const char *t = strstr(path, "/targets/");
    if (t && strstr(t, "/include/"))
        return 1;
    for (const char *p = strstr(path, "/cuda"); p; p = strstr(p + 1, "/cuda")) {
        const char *q = p + 5;
        if (*q == '-')
            while (*++q && *q != '/')
                ;
        if (!strncmp(q, "/include/", 9))
            return 1;
    }
    return 0;
}

int dbg_user_frame(const dbg_frame *fr, int n)
{
    for (int i = 0; i < n; i++)
        if (fr[i].file && fr[i].line > 0 && !dbg_toolkit_file(fr[i].file))
            return i;
    for (int i = 0; i < n; i++)  /* only toolkit code has lines: the innermost with one */
        if (fr[i].file && fr[i].line > 0)
            return i;
    return -1;
}

void dbg_frame_fn(dbg_demangle_fn dm, const dbg_frame *f, char *out, size_t n)
{
    const char *name = f->inl_name ? f->inl_name : f->func && f->func->sym ? f->func->sym->name
                                                                         : "??";
    if (f->inl_name || !dm || dm(name, out, n, 1) != 0)
        snprintf(out, n, "%s", name);
}

static const char *base_of(const char *p)
{
    const char *b = p ? strrchr(p, '/') : NULL;
    return b ? b + 1 : p ? p : "";
}

/* "file.cu:12 in f", or "MODULE:PTXLINE in f" for a frame without a source line (without
 * " in f" when with_fn is 0). */
static void frame_text(exec_machine *m, dbg_demangle_fn dm, const char *modpath,
                       const dbg_frame *f, int with_fn, char *out, size_t n)
{
    char fn[512];
    dbg_frame_fn(dm, f, fn, sizeof fn);
    if (f->file && f->line > 0) {
        snprintf(out, n, "%s:%d%s%s", base_of(f->file), f->line, with_fn ? " in " : "",
                 with_fn ? fn : "");
        return;
    }
    const ptx_func *pf;
    const ptx_insn *in;
    int pl = exec_pc_insn(m, f->pc, &pf, &in) == 0 ? in->line : 0;
    snprintf(out, n, "%s:%d%s%s", base_of(modpath), pl, with_fn ? " in " : "",
             with_fn ? fn : "");
}

int dbg_site_of(exec_machine *m, const dw_info *dw, dbg_demangle_fn dm, const char *modpath,
                uint32_t cta, uint32_t warp, uint32_t lane, dbg_site *out)
{
    memset(out, 0, sizeof *out);
    dbg_frame fr[DBG_MAX_FRAMES];
    int n = dbg_machine_frames(m, dw, cta, warp, lane, fr, DBG_MAX_FRAMES);
    if (n <= 0) {
        snprintf(out->at, sizeof out->at, "??");
        snprintf(out->user, sizeof out->user, "??");
        return -1;
    }
    int u = dbg_user_frame(fr, n);
    out->user_frame = u < 0 ? 0 : u;
    frame_text(m, dm, modpath, &fr[0], out->user_frame > 0, out->at, sizeof out->at);
    frame_text(m, dm, modpath, &fr[out->user_frame], 1, out->user, sizeof out->user);
    if (out->user_frame > 0) {
        size_t k = strlen(out->at);
        snprintf(out->at + k, sizeof out->at - k, ", called from %s", out->user);
    }
    return 0;
}

int dbg_stop_site(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane,
                  dbg_site *out)
{
    return dbg_site_of(s->m, s->dw, s->demangle, s->mod ? s->mod->path : "", cta, warp, lane,
                       out);
}

dw_info *dbg_dwarf_load(const ptx_module *mod, dbg_demangle_fn dm)
{
    return mod ? dw_load_dm(mod, dm, NULL, 0) : NULL;
}

void dbg_dwarf_release(dw_info *dw)
{
    dw_free(dw);
}
