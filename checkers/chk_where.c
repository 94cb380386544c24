/* chk_where.c - where a finding happened: threads, source lines through call sites, launches. */
#include <string.h>
#include "chk_int.h"

int chk_system_file(const char *path)
{
    if (!path || !path[0])
        return 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    /* the CUDA toolkit's headers: its include folder (nvcc writes it as
       .../targets/ARCH/include/ or under /usr/local/cuda), the distribution's copy in
       /usr/include, and the libraries shipped with it (CCCL, cooperative groups) */
    if (strstr(path, "/targets/") && strstr(path, "/include/"))
        return 1;
    if (!strncmp(path, "/usr/local/cuda", 15) || !strncmp(path, "/usr/include/", 13) ||
        !strncmp(path, "/opt/nvidia/", 12))
        return 1;
    if (strstr(path, "/include/") &&
        (strstr(path, "/crt/") || strstr(path, "/cooperative_groups") || strstr(path, "/cccl/") ||
         strstr(path, "/cuda/std/")))
        return 1;
    /* a header nvcc names by itself (sm_60_atomic_functions.hpp, sm_32_intrinsics.hpp) */
    return !strncmp(base, "sm_", 3) && strstr(base, ".hpp") &&
           (strstr(base, "_intrinsics") || strstr(base, "_atomic_functions"));
}

static dw_info *chk_dw(chk_ctx *c, exec_machine *m)
{
    if (c->hooks.dwarf)
        return c->hooks.dwarf(c->hooks.ctx, m);
    for (int k = 0; k < c->nmach; k++)
        if (c->mach[k].m == m) {
            chk_machine *cm = &c->mach[k];
            if (!cm->dw_tried) {
                char warn[256];
                cm->dw_tried = 1;
                cm->dw = dw_load(exec_module(m), warn, sizeof warn);
            }
            return cm->dw;
        }
    return NULL;
}

static void chk_fname(const ptx_func *f, char *out, size_t n)
{
    out[0] = 0;
    if (!f)
        return;
    if (dw_demangle_base(f->sym->name, out, n) <= 0 || !out[0])
        snprintf(out, n, "%s", f->sym->name);
}

static void chk_base(const char *path, char *out, size_t n)
{
    const char *b = path ? strrchr(path, '/') : NULL;
    snprintf(out, n, "%s", b ? b + 1 : path ? path : "");
}

void chk_party_fill(chk_ctx *c, exec_machine *m, chk_party *p, uint32_t cta, uint32_t warp,
                    uint32_t lane, uint32_t pc, uint8_t access)
{
    memset(p, 0, sizeof *p);
    p->cta = cta;
    p->warp = warp;
    p->lane = lane;
    p->pc = pc;
    p->access = access;
    p->block = exec_cta_coord(m, cta);
    const exec_launch_info *li = exec_current_launch(m);
    if (li) {
        uint32_t t = warp * 32 + lane, bx = li->block.x ? li->block.x : 1,
                 by = li->block.y ? li->block.y : 1;
        p->thread = (exec_dim3){ t % bx, (t / bx) % by, t / (bx * by) };
    }
    const ptx_func *f = NULL;
    const ptx_insn *in = NULL;
    if (exec_pc_insn(m, pc, &f, &in) == 0 && in)
        p->ptx_line = in->line;
    chk_fname(f, p->func, sizeof p->func);
    /* a PTX file without .loc: its own lines are the user's */
    const ptx_module *pm = exec_module(m);
    size_t pl = pm && pm->path ? strlen(pm->path) : 0;
    if (pl > 4 && !strcmp(pm->path + pl - 4, ".ptx") && p->ptx_line) {
        chk_base(pm->path, p->file, sizeof p->file);
        p->line = p->ptx_line;
        snprintf(p->ufile, sizeof p->ufile, "%s", p->file);
        p->uline = p->line;
        snprintf(p->ufunc, sizeof p->ufunc, "%s", p->func);
    }
    /* virtual frames, innermost first: each physical frame's inlined functions, then itself */
    dw_info *dw = chk_dw(c, m);
    exec_frame fr[32];
    int nf = exec_backtrace(m, cta, warp, lane, fr, 32);
    if (nf <= 0) {
        nf = 1;
        fr[0].func = f;
    }
    fr[0].pc = pc;
    int first = 1;
    for (int k = 0; k < nf && dw; k++) {
        dw_inline_frame ch[16];
        int ni = dw_inline_chain(dw, fr[k].pc, ch, 16);
        if (ni > 16)
            ni = 16;
        dw_line ln;
        memset(&ln, 0, sizeof ln);
        dw_line_at(dw, fr[k].pc, &ln);
        for (int i = 0; i <= ni; i++) {
            const char *file;
            int line;
            char fn[160];
            if (i < ni) {
                file = ch[i].file;
                line = ch[i].line;
                snprintf(fn, sizeof fn, "%s", ch[i].name ? ch[i].name : "");
            } else {
                file = ni > 0 ? ch[ni - 1].call_file : ln.line > 0 ? ln.file : NULL;
                line = ni > 0 ? ch[ni - 1].call_line : ln.line;
                chk_fname(fr[k].func, fn, sizeof fn);
            }
            if (!file || line <= 0)
                continue;
            if (first) {   /* the instruction's own position */
                chk_base(file, p->file, sizeof p->file);
                p->line = line;
                if (i < ni)
                    snprintf(p->func, sizeof p->func, "%s", fn);
                first = 0;
            }
            if (!chk_system_file(file)) {
                chk_base(file, p->ufile, sizeof p->ufile);
                p->uline = line;
                snprintf(p->ufunc, sizeof p->ufunc, "%s", fn);
                return;
            }
        }
    }
}

void chk_launch_fill(chk_ctx *c, exec_machine *m, chk_finding *f)
{
    const exec_launch_info *li = exec_current_launch(m);
    uint32_t no = li ? li->launch_id : 0;
    if (c->hooks.launch_no)
        c->hooks.launch_no(c->hooks.ctx, m, &no);
    f->launch = no;
    chk_fname(li ? li->kernel : NULL, f->kernel, sizeof f->kernel);
}

void chk_deliver(chk_ctx *c, exec_machine *m, const exec_mem_ev *ev, uint32_t lane,
                 chk_finding *f)
{
    if (c->stop && ev) {
        char head[256];
        const exec_launch_info *li = exec_current_launch(m);
        chk_headline(f, head, sizeof head);
        f->stop_m = m;
        f->stop_launch = li ? li->launch_id : 0;
        exec_obs_stop(m, ev, lane, f->id, head);
        return;
    }
    if (c->hooks.report)
        c->hooks.report(c->hooks.ctx, f);
}

void chk_repeat(chk_ctx *c, exec_machine *m, const exec_mem_ev *ev, uint32_t lane,
                chk_finding *f, int fault)
{
    f->count++;
    if (!c->stop || !ev)
        return;
    const exec_launch_info *li = exec_current_launch(m);
    uint32_t id = li ? li->launch_id : 0;
    if (fault || f->stop_m != m || f->stop_launch != id) {
        f->stop_m = m;
        f->stop_launch = id;
        exec_obs_stop(m, ev, lane, f->id, NULL);
    }
}
