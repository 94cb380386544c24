/* dbg_rows.c - the engine's tables as data rows for front ends: warps in flight, lanes, registers, shared variables, disassembly, memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"
#include "dbg_rows.h"

static int have_launch(const dbg_session *s) { return s->m && dbg_launch_info(s) != NULL; }

uint32_t dbg_nwarps(const dbg_session *s) { return have_launch(s) ? exec_nwarps(s->m) : 0; }
uint32_t dbg_ncta(const dbg_session *s) { return have_launch(s) ? exec_ncta(s->m) : 0; }

exec_dim3 dbg_cta_coord(const dbg_session *s, uint32_t cta)
{
    exec_dim3 z = {0, 0, 0};
    return have_launch(s) ? exec_cta_coord(s->m, cta) : z;
}

int dbg_cta_in_flight(const dbg_session *s, uint32_t cta)
{
    return have_launch(s) && exec_cta_get_state(s->m, cta) == EXEC_CTA_RUNNING;
}

int dbg_block_to_cta(dbg_session *s, exec_dim3 block, uint32_t *cta)
{
    if (!have_launch(s))
        return dbg_err(s, "No CUDA kernel is running.");
    if (exec_cta_index(s->m, block, cta) != 0)
        return dbg_err(s, "Block (%u,%u,%u) is outside the grid.", block.x, block.y, block.z);
    return 0;
}

/* CTAs start in increasing order (one at a time, or admitted to the resident set in order), so
 * the started ones are a prefix of the grid: the first CTA not started is found by bisection,
 * and the CTAs in flight lie below it. */
static uint32_t first_not_started(const dbg_session *s)
{
    uint32_t lo = 0, hi = exec_ncta(s->m);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (exec_cta_get_state(s->m, mid) == EXEC_CTA_NOT_STARTED)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static int warp_row(const dbg_session *s, uint32_t cta, uint32_t warp, dbg_warp_row *r)
{
    exec_warp_info wi;
    if (exec_warp_get(s->m, cta, warp, &wi) != 0)
        return -1;
    uint32_t live = wi.valid & ~wi.exited;
    if (!live)
        return -1;
    r->cta = cta;
    r->warp = warp;
    r->block = exec_cta_coord(s->m, cta);
    r->live = live;
    r->active = wi.active;
    r->pc = wi.pc;
    r->focused = s->focus.valid && s->focus.cta == cta && s->focus.warp == warp;
    return 0;
}

int dbg_warp_rows(const dbg_session *s, dbg_warp_row *out, int max, int *more)
{
    *more = 0;
    if (!have_launch(s) || max <= 0)
        return 0;
    uint32_t end = first_not_started(s), nw = exec_nwarps(s->m);
    /* the CTAs in flight, lowest first: at most 128 are resident at once (more only for a
       cooperative grid), so the walk below `end` stops after the rows are filled or a bounded
       number of finished CTAs in a row */
    uint32_t lo = end;
    int finished_run = 0;
    while (lo > 0 && finished_run < 65536) {
        exec_cta_state st = exec_cta_get_state(s->m, lo - 1);
        finished_run = st == EXEC_CTA_DONE ? finished_run + 1 : 0;
        lo--;
    }
    int n = 0, have_focus = 0;
    for (uint32_t cta = lo; cta < end && n < max; cta++) {
        if (exec_cta_get_state(s->m, cta) != EXEC_CTA_RUNNING)
            continue;
        for (uint32_t w = 0; w < nw; w++) {
            dbg_warp_row r;
            if (warp_row(s, cta, w, &r) != 0)
                continue;
            if (n == max) {
                *more = 1;
                break;
            }
            have_focus |= r.focused;
            out[n++] = r;
        }
        if (n == max && cta + 1 < end)
            *more = 1;
    }
    if (!have_focus && s->focus.valid) {
        dbg_warp_row r;
        if (warp_row(s, s->focus.cta, s->focus.warp, &r) == 0) {
            if (n == max) {
                out[n - 1] = r;
                *more = 1;
            } else {
                out[n++] = r;
            }
        }
    }
    return n;
}

int dbg_lane_rows(const dbg_session *s, uint32_t cta, uint32_t warp, dbg_lane_row out[32])
{
    if (!have_launch(s))
        return 0;
    int n = 0;
    for (uint32_t l = 0; l < 32; l++) {
        dbg_lane_row *r = &out[l];
        memset(r, 0, sizeof *r);
        r->lane = l;
        exec_lane_info li;
        if (exec_lane_get(s->m, cta, warp, l, &li) != 0) {
            r->state = EXEC_LANE_INVALID;
            continue;
        }
        r->state = li.state;
        r->tid = li.tid;
        r->pc = li.pc;
        if (li.state != EXEC_LANE_INVALID)
            n++;
        if (li.state != EXEC_LANE_INVALID && li.state != EXEC_LANE_EXITED)
            dbg_pc_where(s, li.pc, &r->where);
    }
    return n;
}

int dbg_warp_show_lane(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t *lane)
{
    if (!have_launch(s))
        return -1;
    if (s->focus.valid && s->focus.cta == cta && s->focus.warp == warp) {
        *lane = s->focus.lane;
        return 0;
    }
    exec_warp_info wi;
    if (exec_warp_get(s->m, cta, warp, &wi) != 0)
        return -1;
    uint32_t live = wi.valid & ~wi.exited;
    uint32_t pick = wi.active & live ? wi.active & live : live;
    if (!pick)
        return -1;
    *lane = (uint32_t)__builtin_ctz(pick);
    return 0;
}

int dbg_reg_rows(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane, int phys,
                 dbg_reg_row *out, int max, int *total)
{
    *total = 0;
    if (!have_launch(s))
        return 0;
    exec_frame fr[DBG_MAX_FRAMES];
    int nf = exec_backtrace(s->m, cta, warp, lane, fr, DBG_MAX_FRAMES);
    if (nf <= 0 || phys < 0 || phys >= nf)
        return 0;
    const ptx_sym **regs;
    int nr = exec_func_regs(s->m, fr[phys].func, &regs);
    int n = 0;
    for (int i = 0; i < nr; i++) {
        int nel = regs[i]->vec > 1 ? regs[i]->vec : 1;
        for (int k = 0; k < nel; k++) {
            (*total)++;
            if (n >= max)
                continue;
            dbg_reg_row *r = &out[n++];
            memset(r, 0, sizeof *r);
            snprintf(r->name, sizeof r->name, "%s%s%.*s", regs[i]->name, nel > 1 ? "." : "",
                     nel > 1 ? 1 : 0, &"xyzw"[k & 3]);
            r->type = regs[i]->type;
            if (exec_reg_get(s->m, cta, warp, lane, phys, r->name, &r->bits, &r->type) == 0)
                r->ok = 1;
            else
                snprintf(r->msg, sizeof r->msg, "%s", exec_errmsg(s->m));
        }
    }
    return n;
}

int dbg_shared_layout(dbg_session *s, dbg_shared_row *out, int max, uint64_t *static_bytes)
{
    *static_bytes = 0;
    if (!have_launch(s))
        return dbg_err(s, "No CUDA kernel is running.");
    if (max <= 0)
        return 0;
    exec_shared_var vars[256];
    uint64_t st = 0, db = 0, ds = 0;
    int nv = exec_shared_layout(s->m, vars, 256, &st, &db, &ds);
    if (nv < 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    *static_bytes = st;
    if (nv > 256)
        nv = 256;
    int n = 0;
    for (int i = 0; i < nv && n < max; i++) {
        dbg_shared_row *r = &out[n++];
        r->name = vars[i].sym ? vars[i].sym->name : "?";
        r->addr = vars[i].addr;
        r->size = vars[i].size;
        r->type = vars[i].sym ? vars[i].sym->type : PTX_T_NONE;
        int eb = ptx_type_bits(r->type) / 8;
        r->count = eb > 0 ? r->size / (uint64_t)eb : r->size;
        if (eb <= 0)
            r->type = PTX_T_U8;
    }
    if (ds > 0 && n < max) {
        dbg_shared_row *r = &out[n++];
        r->name = "";
        r->addr = db;
        r->size = ds;
        r->type = PTX_T_U8;
        r->count = ds;
    }
    return n;
}

int dbg_shared_rows(const dbg_session *s, dbg_shared_row *out, int max)
{
    uint64_t st;
    int n = have_launch(s) ? dbg_shared_layout((dbg_session *)s, out, max, &st) : 0;
    return n < 0 ? 0 : n;
}

int64_t dbg_mem_read(dbg_session *s, ptx_space space, uint64_t addr, void *buf, size_t n,
                     uint32_t cta, uint32_t warp, uint32_t lane)
{
    if (!s->m)
        return dbg_err(s, "No module is loaded.");
    uint8_t *b = buf;
    size_t done = 0;
    /* whole chunks while they read; inside the first chunk that does not, bytes one by one */
    while (done < n) {
        size_t k = n - done < 4096 ? n - done : 4096;
        if (exec_mem_read(s->m, space, addr + done, b + done, k, cta, warp, lane) == 0) {
            done += k;
            continue;
        }
        while (k > 0 && exec_mem_read(s->m, space, addr + done, b + done, 1, cta, warp, lane) == 0) {
            done++;
            k--;
        }
        break;
    }
    if (done == 0 && n > 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    return (int64_t)done;
}

int dbg_mem_write(dbg_session *s, ptx_space space, uint64_t addr, const void *buf, size_t n,
                  uint32_t cta, uint32_t warp, uint32_t lane)
{
    if (!s->m)
        return dbg_err(s, "No module is loaded.");
    if (exec_mem_write(s->m, space, addr, buf, n, cta, warp, lane) != 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    return 0;
}

static int readable(dbg_session *s, ptx_space space, uint64_t addr, uint32_t cta, uint32_t warp,
                    uint32_t lane)
{
    uint8_t b;
    return exec_mem_read(s->m, space, addr, &b, 1, cta, warp, lane) == 0;
}

int64_t dbg_mem_readable_from(dbg_session *s, ptx_space space, uint64_t addr, size_t n,
                              uint32_t cta, uint32_t warp, uint32_t lane)
{
    if (!s->m || n == 0)
        return (int64_t)n;
    uint64_t end = addr + n < addr ? UINT64_MAX : addr + n;
    /* blocks of 256 bytes, the first from addr: a run that begins inside one reaches its last
       byte (global regions begin 256-aligned, a stack ends at an aligned top, shared memory
       begins at 0), so the block's first and last bytes tell where to bisect */
    uint64_t lo = addr;                     /* the last byte known unreadable (or addr) */
    for (uint64_t q = addr; q >= addr && q < end;) {
        uint64_t last = (q | 255) < end - 1 ? (q | 255) : end - 1;
        uint64_t hi;
        if (readable(s, space, q, cta, warp, lane))
            hi = q;
        else if (last != q && readable(s, space, last, cta, warp, lane))
            hi = last;
        else {
            lo = last;
            q = last + 1;
            continue;
        }
        if (hi == addr)
            return 0;
        lo = hi == q ? lo : q;
        while (hi - lo > 1) { /* lo unreadable, hi readable */
            uint64_t mid = lo + (hi - lo) / 2;
            if (readable(s, space, mid, cta, warp, lane))
                hi = mid;
            else
                lo = mid;
        }
        return (int64_t)(hi - addr);
    }
    return (int64_t)n;
}

ptx_space dbg_generic_decode(uint64_t generic, uint64_t *addr)
{
    return exec_addr_decode(generic, addr);
}

int dbg_insn_text(const dbg_session *s, uint32_t pc, char *text, size_t n, dbg_where *w)
{
    const ptx_func *f;
    const ptx_insn *in;
    if (!s->m || exec_pc_insn(s->m, pc, &f, &in) != 0)
        return -1;
    ptx_insn_format(in, text, n);
    if (w)
        dbg_pc_where(s, pc, w);
    return 0;
}

uint32_t dbg_ninsns(const dbg_session *s) { return s->m ? exec_ninsns(s->m) : 0; }

int64_t dbg_func_first_pc(const dbg_session *s, const ptx_func *f)
{
    return s->m ? exec_func_pc(s->m, f) : -1;
}

uint64_t dbg_progress(const dbg_session *s)
{
    uint64_t w = 0;
    if (s->m)
        exec_stats(s->m, &w, NULL);
    return w;
}

int dbg_source_files(const dbg_session *s, const char **out, int max)
{
    if (!s->mod)
        return 0;
    for (int i = 0; i < s->mod->nfiles && i < max; i++)
        out[i] = s->mod->files[i].path;
    return s->mod->nfiles;
}

const char *dbg_source_resolve(const dbg_session *s, const char *file, char *buf, size_t n)
{
    if (!file || !s->srcp)
        return NULL;
    return dw_src_resolve(s->srcp, file, s->dir && s->dir[0] ? s->dir : NULL, buf, n);
}

const char *dbg_module_path(const dbg_session *s)
{
    return s->mod && s->mod->path && strcmp(s->mod->path, "<string>") ? s->mod->path : "";
}
