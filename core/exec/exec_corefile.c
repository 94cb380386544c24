/* exec_corefile.c - core files: serialise the whole machine to a checksummed file and restore it. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

/* ---------------------------------------------------------------------------------------------
 * Core file format, version 5 (all integers little-endian, fixed width, no padding)
 *
 *   offset 0   8 bytes  magic "PTXDBGCF"
 *          8   u32      format version (5)
 *         12   u32      flags (0)
 *         16   u64      total file length in bytes, trailer included
 *         24   u32      number of sections
 *         28   u32      reserved (0)
 *         32   sections, each: u32 tag, u32 flags (0), u64 payload length, payload bytes
 *   last 4     u32      CRC-32 (IEEE 802.3, as zlib's crc32) of every byte before it
 *
 * A reader checks, in order: the magic ("not a ptxdbg core file"), the version ("format
 * version N is not supported"), the length against the file size ("truncated" when shorter,
 * "corrupted" when longer), the checksum ("corrupted: checksum mismatch"), then that the
 * sections tile the file exactly and every field it decodes is in range.
 *
 * Strings are u32 length + bytes (no NUL); byte blocks are u64 length + bytes.
 * Sections of the execution core (tags < 0x100; the debugger's are 0x100 and up):
 *   1 MODULE   str path of the PTX module as loaded; bytes: the PTX text; u64 first address and
 *              u64 limit (0: none) of the machine's global window (exec_new_at), so the module's
 *              variables reopen at the addresses the program used
 *   2 GLOBAL   u32 launches so far, u64 clock, u64 heap bytes in use, u64 next global address,
 *              u32 allocation counter, u32 region count, per region: u64 base, u64 size,
 *              u32 kind (1 module variable, 2 host buffer, 3 device heap), u32 allocation id,
 *              str variable name ("" unless kind 1), bytes contents;
 *              then bytes: the constant bank; u32 instruction count (compatibility check)
 *   3 LAUNCH   (present when a launch exists) u32 kernel function index (module order),
 *              u32 grid x y z, block x y z, dynamic shared bytes, launch id, CTA count,
 *              warps per CTA, threads per CTA, current CTA, u32 CTA live, u32 over, u32 stop
 *              set; stop and final stop (each: u32 kind cta warp lanes lane pc exc space,
 *              u64 addr, u32 size, u32 watch id (as s32), 16 old bytes, 16 new bytes, str msg);
 *              bytes: kernel parameters; bytes: special register slots of every warp
 *   4 CTA      (when a CTA is live) u32 id, coord x y z, threads, exited, round-robin cursor,
 *              16 barriers x (u32 arrived, expected, reduction popc, and, or, whole-warp
 *              threads, 32 x u32 lanes pending per warp); bytes: shared; bytes: the 1 KB of
 *              shared memory the system reserves (exec_cta.res, cooperative groups' tiles)
 *   5 WARP     (one per warp of a live CTA, in order) u32 id, cur_mask, cur_pc, limit_pc,
 *              s32 cur_frame, npc, resched, solo, stopped, valid, exited, trapped, bar_wait,
 *              ws_wait, carry; 32 x u32 ws_need; 32 x s32 barrier; 32 x u32 pc; 32 x s32
 *              frame index; s32 kernel frame; per lane: u64 stack top, u32 stack capacity,
 *              bytes: the stack below its top; u32 frame count, per frame: u32 function index,
 *              s32 parent, u32 depth, members, call_pc, in_use, 32 x u64 depot base,
 *              bytes: registers + predicates + parameter area
 *   6 PARKED   (resident CTAs taking turns, exec_sched.c) u32 first CTA not yet started, u32
 *              count; per parked CTA, in CTA order: the CTA record as in section 4, bytes: its
 *              special register slots, then its warps as in section 5
 *   7 CLUSTER  (a live cluster of several CTAs, exec_cluster.c) u32 size, cluster index, live,
 *              rank swapped in, next rank's turn, barrier.cluster phase and arrivals, u32 n and
 *              n x u32 arrivals per thread; per rank: u32 CTA id, done, parked (0 for the rank
 *              swapped in, whose CTA is sections 4-5), and when parked the CTA record, its
 *              special register slots and its warps as in section 6
 * LAUNCH also holds u32 cluster x y z (the launch's cluster shape) after the launch id.
 * Frame indices are positions in the warp's frame list; -1 is none. A frame not in use (kept
 * for reuse) has no parent and depth 0: its old links mean nothing.
 * ------------------------------------------------------------------------------------------- */

static const char core_magic[8] = {'P', 'T', 'X', 'D', 'B', 'G', 'C', 'F'};
/* 2: local stacks grow down; 3: sparse regions; 4: global window, counted barriers, parked
 * CTAs, free frames without links */
enum { CORE_VERSION = 5, CORE_HDR = 32 };
enum { T_MODULE = 1, T_GLOBAL, T_LAUNCH, T_CTA, T_WARP, T_PARKED, T_CLUSTER };

/* ---- CRC-32 ---------------------------------------------------------------------------------- */
uint32_t exec_crc32(uint32_t crc, const void *data, size_t n)
{
    static uint32_t table[256];
    static int ready;
    if (!ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = 1;
    }
    const uint8_t *p = data;
    crc = ~crc;
    while (n--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

/* ---- encoding -------------------------------------------------------------------------------- */
void exec_cbuf_put(exec_cbuf *b, const void *p, size_t n)
{
    if (b->oom || !n)
        return;
    if (b->n + n > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        while (nc < b->n + n)
            nc *= 2;
        uint8_t *np = realloc(b->p, nc);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

void exec_cbuf_u32(exec_cbuf *b, uint32_t v)
{
    uint8_t x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    exec_cbuf_put(b, x, 4);
}

void exec_cbuf_u64(exec_cbuf *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    exec_cbuf_put(b, x, 8);
}

void exec_cbuf_str(exec_cbuf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    exec_cbuf_u32(b, (uint32_t)n);
    exec_cbuf_put(b, s, n);
}

void exec_cbuf_bytes(exec_cbuf *b, const void *p, uint64_t n)
{
    exec_cbuf_u64(b, n);
    exec_cbuf_put(b, p, (size_t)n);
}

void exec_cbuf_free(exec_cbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static const uint8_t *crd_take(exec_crd *r, uint64_t n)
{
    if (r->bad || n > r->n - r->off) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *p = r->p + r->off;
    r->off += (size_t)n;
    return p;
}

uint32_t exec_crd_u32(exec_crd *r)
{
    const uint8_t *p = crd_take(r, 4);
    if (!p)
        return 0;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t exec_crd_u64(exec_crd *r)
{
    uint64_t lo = exec_crd_u32(r);
    return lo | (uint64_t)exec_crd_u32(r) << 32;
}

/* A string into a malloc'd NUL-terminated copy; NULL (and bad) on error. */
char *exec_crd_str(exec_crd *r)
{
    uint32_t n = exec_crd_u32(r);
    const uint8_t *p = crd_take(r, n);
    if (!p)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->bad = 1;
        return NULL;
    }
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

const void *exec_crd_bytes(exec_crd *r, uint64_t *n)
{
    *n = exec_crd_u64(r);
    const uint8_t *p = crd_take(r, *n);
    if (!p)
        *n = 0;
    return p;
}

/* Sparse bytes (global regions): u64 total length, then runs {u64 zero bytes, u64 data bytes,
 * data} that cover it, so memory nobody wrote costs 16 bytes per run, not its size. Runs are
 * found per 4 KB block. *interrupt (when given) is polled every 16 MB. */
enum { SPARSE_BLOCK = 4096 };

static int block_zero(const uint8_t *p, size_t n)
{
    uint64_t acc = 0, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        acc |= w;
    }
    for (; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static int cbuf_sparse(exec_cbuf *b, const uint8_t *p, uint64_t n, volatile int *interrupt)
{
    exec_cbuf_u64(b, n);
    uint64_t off = 0;
    while (off < n && !b->oom) {
        uint64_t z = off, d;
        while (z < n && block_zero(p + z, (size_t)(n - z < SPARSE_BLOCK ? n - z : SPARSE_BLOCK))) {
            z += SPARSE_BLOCK;
            if (z > n)
                z = n;
            if ((z & ((1u << 24) - 1)) == 0 && interrupt && *interrupt)
                return -1;
        }
        d = z;
        while (d < n && !block_zero(p + d, (size_t)(n - d < SPARSE_BLOCK ? n - d : SPARSE_BLOCK))) {
            d += SPARSE_BLOCK;
            if (d > n)
                d = n;
            if ((d & ((1u << 24) - 1)) == 0 && interrupt && *interrupt)
                return -1;
        }
        exec_cbuf_u64(b, z - off);
        exec_cbuf_bytes(b, p + z, d - z);
        off = d;
    }
    return 0;
}

/* Decode sparse bytes into dst (n bytes, zeroed by the caller). */
static int crd_sparse(exec_crd *r, uint8_t *dst, uint64_t n)
{
    if (exec_crd_u64(r) != n)
        r->bad = 1;
    uint64_t off = 0;
    while (off < n && !r->bad) {
        uint64_t z = exec_crd_u64(r), len;
        const void *p = exec_crd_bytes(r, &len);
        if (r->bad || z > n - off || len > n - off - z || (!z && !len)) {
            r->bad = 1;
            break;
        }
        off += z;
        if (len)
            memcpy(dst + off, p, len);
        off += len;
    }
    return r->bad ? -1 : 0;
}

/* ---- writing the machine --------------------------------------------------------------------- */
static void put_stop(exec_cbuf *b, const exec_stop *s)
{
    exec_cbuf_u32(b, (uint32_t)s->kind);
    exec_cbuf_u32(b, s->cta);
    exec_cbuf_u32(b, s->warp);
    exec_cbuf_u32(b, s->lanes);
    exec_cbuf_u32(b, s->lane);
    exec_cbuf_u32(b, s->pc);
    exec_cbuf_u32(b, (uint32_t)s->exc);
    exec_cbuf_u32(b, (uint32_t)s->space);
    exec_cbuf_u64(b, s->addr);
    exec_cbuf_u32(b, s->size);
    exec_cbuf_u32(b, (uint32_t)s->watch_id);
    exec_cbuf_put(b, s->old_bytes, 16);
    exec_cbuf_put(b, s->new_bytes, 16);
    exec_cbuf_str(b, s->msg);
}

static size_t frame_need(const exec_fdec *fd)
{
    return fd->regbytes + sizeof(uint32_t) * fd->npreds + (size_t)fd->param_size * 32;
}

static int frame_index(const exec_warp *w, const exec_act *f)
{
    int i = 0;
    for (const exec_act *a = w->all_frames; a; a = a->all_next, i++)
        if (a == f)
            return i;
    return -1;
}

static void put_warp(exec_cbuf *b, const exec_machine *m, const exec_warp *w)
{
    exec_cbuf_u32(b, w->id);
    exec_cbuf_u32(b, w->cur_mask);
    exec_cbuf_u32(b, w->cur_pc);
    exec_cbuf_u32(b, w->limit_pc);
    exec_cbuf_u32(b, (uint32_t)frame_index(w, w->cur_frame));
    exec_cbuf_u32(b, w->npc);
    exec_cbuf_u32(b, (uint32_t)w->resched);
    exec_cbuf_u32(b, (uint32_t)w->solo);
    exec_cbuf_u32(b, (uint32_t)w->stopped);
    exec_cbuf_u32(b, w->valid);
    exec_cbuf_u32(b, w->exited);
    exec_cbuf_u32(b, w->trapped);
    exec_cbuf_u32(b, w->bar_wait);
    exec_cbuf_u32(b, w->ws_wait);
    exec_cbuf_u32(b, w->r.cc);
    for (int i = 0; i < EXEC_LANES; i++)
        exec_cbuf_u32(b, w->ws_need[i]);
    for (int i = 0; i < EXEC_LANES; i++)
        exec_cbuf_u32(b, (uint32_t)(int32_t)w->lane_bar[i]);
    for (int i = 0; i < EXEC_LANES; i++)
        exec_cbuf_u32(b, w->pc[i]);
    for (int i = 0; i < EXEC_LANES; i++)
        exec_cbuf_u32(b, (uint32_t)frame_index(w, w->lframe[i]));
    exec_cbuf_u32(b, (uint32_t)frame_index(w, w->kframe));
    for (int i = 0; i < EXEC_LANES; i++) {
        /* the stack in use: [lsp, MEM_LOCAL_TOP), the high end of the host copy (mem.h) */
        uint64_t used = w->ldata[i] && w->lsp[i] <= MEM_LOCAL_TOP ? MEM_LOCAL_TOP - w->lsp[i] : 0;
        if (used > w->lcap[i])
            used = w->lcap[i];
        exec_cbuf_u64(b, w->lsp[i]);
        exec_cbuf_u32(b, w->lcap[i]);
        exec_cbuf_bytes(b, used ? mem_local_host(w, i, MEM_LOCAL_TOP - used) : NULL, used);
    }
    int nf = 0;
    for (const exec_act *a = w->all_frames; a; a = a->all_next)
        nf++;
    exec_cbuf_u32(b, (uint32_t)nf);
    for (const exec_act *a = w->all_frames; a; a = a->all_next) {
        exec_cbuf_u32(b, (uint32_t)a->fd->f->sym->index);
        /* a frame kept for reuse keeps stale links to frames reused since: none are written */
        exec_cbuf_u32(b, a->in_use ? (uint32_t)frame_index(w, a->parent) : UINT32_MAX);
        exec_cbuf_u32(b, a->in_use ? a->depth : 0);
        exec_cbuf_u32(b, a->members);
        exec_cbuf_u32(b, a->call_pc);
        exec_cbuf_u32(b, (uint32_t)a->in_use);
        for (int i = 0; i < EXEC_LANES; i++)
            exec_cbuf_u64(b, a->local_base[i]);
        exec_cbuf_bytes(b, a->regs, frame_need(a->fd));
    }
    (void)m;
}

/* A CTA: coordinates, barriers (counted ones with the warps seen so far), shared memory. */
static void put_cta(exec_cbuf *b, const exec_machine *m, const exec_cta *c)
{
    exec_cbuf_u32(b, c->id);
    exec_cbuf_u32(b, c->coord.x);
    exec_cbuf_u32(b, c->coord.y);
    exec_cbuf_u32(b, c->coord.z);
    exec_cbuf_u32(b, c->nthreads);
    exec_cbuf_u32(b, c->nexited);
    exec_cbuf_u32(b, c->rr);
    for (int i = 0; i < EXEC_NBAR; i++) {
        exec_cbuf_u32(b, c->bar[i].arrived);
        exec_cbuf_u32(b, c->bar[i].expected);
        exec_cbuf_u32(b, c->bar[i].red_popc);
        exec_cbuf_u32(b, (uint32_t)c->bar[i].red_and);
        exec_cbuf_u32(b, (uint32_t)c->bar[i].red_or);
        exec_cbuf_u32(b, c->bar[i].warped);
        for (int w = 0; w < EXEC_CTA_WARPS; w++)
            exec_cbuf_u32(b, c->bar[i].pend[w]);
    }
    exec_cbuf_bytes(b, c->shared, c->shared_size);
    exec_cbuf_bytes(b, c->res, EXEC_SMEM_RESERVED);
    (void)m;
}

static void sect_begin(exec_cbuf *b, uint32_t tag, size_t *at);
static void sect_end(exec_cbuf *b, size_t at, uint32_t *nsect);

/* The live cluster's other CTAs (section CLUSTER). */
static int put_cluster(exec_cbuf *b, const exec_machine *m, uint32_t *ns)
{
    uint32_t st[7];
    const uint32_t *arr;
    size_t narr, at;
    if (exec_cluster_core_state(m, st, &arr, &narr) != 0 || !st[2] || !m->cta_live)
        return 0;
    sect_begin(b, T_CLUSTER, &at);
    for (int i = 0; i < 7; i++)
        exec_cbuf_u32(b, st[i]);
    exec_cbuf_u32(b, (uint32_t)narr);
    for (size_t i = 0; i < narr; i++)
        exec_cbuf_u32(b, arr[i]);
    for (uint32_t r = 0; r < st[0]; r++) {
        uint32_t id;
        int done;
        const exec_cta *c;
        const exec_warp *w;
        const uint8_t *sr;
        if (exec_cluster_core_slot(m, r, &id, &done, &c, &w, &sr) != 0)
            return -1;
        exec_cbuf_u32(b, id);
        exec_cbuf_u32(b, (uint32_t)done);
        exec_cbuf_u32(b, r != st[3]);
        if (r == st[3])
            continue;
        put_cta(b, m, c);
        exec_cbuf_bytes(b, sr, (uint64_t)m->nwarps * EXEC_SR__COUNT * EXEC_SLOT);
        for (uint32_t k = 0; k < m->nwarps; k++)
            put_warp(b, m, &w[k]);
    }
    sect_end(b, at, ns);
    return 0;
}

static void sect_begin(exec_cbuf *b, uint32_t tag, size_t *at)
{
    exec_cbuf_u32(b, tag);
    exec_cbuf_u32(b, 0);
    *at = b->n;
    exec_cbuf_u64(b, 0);
}

static void sect_end(exec_cbuf *b, size_t at, uint32_t *nsect)
{
    if (b->oom)
        return;
    uint64_t len = b->n - at - 8;
    for (int i = 0; i < 8; i++)
        b->p[at + (size_t)i] = (uint8_t)(len >> (8 * i));
    (*nsect)++;
}

static int put_machine(exec_cbuf *b, const exec_machine *m, uint32_t *ns,
                       volatile int *interrupt)
{
    size_t at;
    const ptx_module *mod = m->mod;
    sect_begin(b, T_MODULE, &at);
    exec_cbuf_str(b, mod->path);
    exec_cbuf_bytes(b, mod->text, mod->text ? strlen(mod->text) : 0);
    exec_cbuf_u64(b, m->glob_base);
    exec_cbuf_u64(b, m->glob.limit);
    sect_end(b, at, ns);

    sect_begin(b, T_GLOBAL, &at);
    exec_cbuf_u32(b, m->nlaunch);
    exec_cbuf_u64(b, m->clock);
    exec_cbuf_u64(b, m->heap_used);
    exec_cbuf_u64(b, m->glob.next);
    exec_cbuf_u32(b, m->glob.nalloc);
    exec_cbuf_u32(b, (uint32_t)m->glob.n);
    for (const mem_region *r = mem_global_first(&m->glob); r; r = mem_global_next(&m->glob, r)) {
        exec_cbuf_u64(b, r->base);
        exec_cbuf_u64(b, r->size);
        exec_cbuf_u32(b, (uint32_t)r->kind);
        exec_cbuf_u32(b, r->id);
        exec_cbuf_str(b, r->kind == MEM_R_MODULE && r->sym ? r->sym->name : r->name);
        if (cbuf_sparse(b, r->data, r->size, interrupt) != 0)
            return -1;
    }
    exec_cbuf_bytes(b, m->cbank, m->cbank ? m->cbank_size : 0);
    exec_cbuf_u32(b, m->ncode);
    sect_end(b, at, ns);

    if (!m->launched)
        return 0;
    sect_begin(b, T_LAUNCH, &at);
    exec_cbuf_u32(b, (uint32_t)m->li.kernel->sym->index);
    exec_cbuf_u32(b, m->li.grid.x);
    exec_cbuf_u32(b, m->li.grid.y);
    exec_cbuf_u32(b, m->li.grid.z);
    exec_cbuf_u32(b, m->li.block.x);
    exec_cbuf_u32(b, m->li.block.y);
    exec_cbuf_u32(b, m->li.block.z);
    exec_cbuf_u32(b, m->li.dyn_shmem);
    exec_cbuf_u32(b, m->li.launch_id);
    exec_cbuf_u32(b, m->li.cluster.x);
    exec_cbuf_u32(b, m->li.cluster.y);
    exec_cbuf_u32(b, m->li.cluster.z);
    exec_cbuf_u32(b, m->ncta);
    exec_cbuf_u32(b, m->nwarps);
    exec_cbuf_u32(b, m->nthreads);
    exec_cbuf_u32(b, m->cur_cta);
    exec_cbuf_u32(b, (uint32_t)m->cta_live);
    exec_cbuf_u32(b, (uint32_t)m->over);
    exec_cbuf_u32(b, (uint32_t)m->stop_set);
    put_stop(b, &m->stop);
    put_stop(b, &m->final);
    exec_cbuf_bytes(b, m->kparams, m->kparams ? m->kparam_size : 0);
    exec_cbuf_bytes(b, m->sregs, (uint64_t)m->nwarps * EXEC_SR__COUNT * EXEC_SLOT);
    sect_end(b, at, ns);

    if (m->cta_live) {
        sect_begin(b, T_CTA, &at);
        put_cta(b, m, &m->cta);
        sect_end(b, at, ns);
        for (uint32_t k = 0; k < m->nwarps; k++) {
            sect_begin(b, T_WARP, &at);
            put_warp(b, m, &m->warps[k]);
            sect_end(b, at, ns);
        }
    }
    if (put_cluster(b, m, ns) != 0)
        return -1;
    uint32_t np = exec_res_parked(m);
    if (!np)
        return 0;
    sect_begin(b, T_PARKED, &at);
    exec_cbuf_u32(b, exec_res_next(m));
    exec_cbuf_u32(b, np);
    for (uint32_t i = 0; i < np; i++) {
        const exec_cta *pc;
        const exec_warp *pw;
        const uint8_t *ps;
        if (exec_res_slot(m, i, &pc, &pw, &ps) != 0)
            return -1;
        put_cta(b, m, pc);
        exec_cbuf_bytes(b, ps, (uint64_t)m->nwarps * EXEC_SR__COUNT * EXEC_SLOT);
        for (uint32_t k = 0; k < m->nwarps; k++)
            put_warp(b, m, &pw[k]);
    }
    sect_end(b, at, ns);
    return 0;
}

int exec_core_write(exec_machine *m, const char *path, const exec_core_sect *extra, int nextra,
                    volatile int *interrupt)
{
    exec_cbuf b = {0};
    uint32_t ns = 0;
    exec_cbuf_put(&b, core_magic, 8);
    exec_cbuf_u32(&b, CORE_VERSION);
    exec_cbuf_u32(&b, 0);
    exec_cbuf_u64(&b, 0);   /* length, patched */
    exec_cbuf_u32(&b, 0);   /* sections, patched */
    exec_cbuf_u32(&b, 0);
    if (put_machine(&b, m, &ns, interrupt) != 0) {
        exec_cbuf_free(&b);
        snprintf(m->err, sizeof m->err, "interrupted; no core file was written");
        return -1;
    }
    for (int i = 0; i < nextra; i++) {
        size_t at;
        sect_begin(&b, extra[i].tag, &at);
        exec_cbuf_put(&b, extra[i].data, (size_t)extra[i].len);
        sect_end(&b, at, &ns);
    }
    if (b.oom) {
        exec_cbuf_free(&b);
        snprintf(m->err, sizeof m->err, "out of memory while writing the core file");
        return -1;
    }
    uint64_t total = b.n + 4;
    for (int i = 0; i < 8; i++)
        b.p[16 + i] = (uint8_t)(total >> (8 * i));
    for (int i = 0; i < 4; i++)
        b.p[24 + i] = (uint8_t)(ns >> (8 * i));
    exec_cbuf_u32(&b, exec_crc32(0, b.p, b.n));
    if (b.oom) {
        exec_cbuf_free(&b);
        snprintf(m->err, sizeof m->err, "out of memory while writing the core file");
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        exec_cbuf_free(&b);
        snprintf(m->err, sizeof m->err, "cannot create core file %s", path);
        return -1;
    }
    size_t w = fwrite(b.p, 1, b.n, f);
    int rc = fclose(f);
    exec_cbuf_free(&b);
    if (w != total || rc != 0) {
        remove(path);
        snprintf(m->err, sizeof m->err, "cannot write core file %s", path);
        return -1;
    }
    return 0;
}

/* ---- reading --------------------------------------------------------------------------------- */
typedef struct { uint32_t tag; const uint8_t *p; uint64_t n; } core_sect;

struct exec_core {
    uint8_t *data;
    size_t size;
    core_sect *s;
    uint32_t ns;
    char *mod_path;
    const char *mod_text;
    uint64_t mod_len;
    uint64_t glob_base, glob_limit; /* the machine's global window */
};

void exec_core_close(exec_core *c)
{
    if (!c)
        return;
    free(c->data);
    free(c->s);
    free(c->mod_path);
    free(c);
}

static exec_core *core_fail(exec_core *c, char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static exec_core *core_fail(exec_core *c, char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && n)
        vsnprintf(err, n, fmt, ap);
    va_end(ap);
    exec_core_close(c);
    return NULL;
}

exec_core *exec_core_open(const char *path, char *err, size_t en, volatile int *interrupt)
{
    exec_core *c = calloc(1, sizeof *c);
    if (!c)
        return core_fail(NULL, err, en, "%s: out of memory", path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return core_fail(c, err, en, "%s: cannot open the core file", path);
    size_t cap = 0;
    for (;;) {
        if (c->size == cap) {
            size_t nc = cap ? cap * 2 : 65536;
            uint8_t *np = realloc(c->data, nc);
            if (!np) {
                fclose(f);
                return core_fail(c, err, en, "%s: out of memory", path);
            }
            c->data = np;
            cap = nc;
        }
        if (interrupt && *interrupt) {
            fclose(f);
            return core_fail(c, err, en, "%s: interrupted while reading the core file", path);
        }
        size_t want = cap - c->size < (16u << 20) ? cap - c->size : 16u << 20;
        size_t r = fread(c->data + c->size, 1, want, f);
        c->size += r;
        if (!r)
            break;
    }
    int ioerr = ferror(f);
    fclose(f);
    if (ioerr)
        return core_fail(c, err, en, "%s: cannot read the core file", path);
    size_t k = c->size < 8 ? c->size : 8;
    if (memcmp(c->data, core_magic, k) != 0 || c->size == 0)
        return core_fail(c, err, en, "%s: not a ptxdbg core file (bad magic)", path);
    if (c->size < CORE_HDR + 4)
        return core_fail(c, err, en, "%s: the core file is truncated (%zu bytes, shorter than "
                         "its header)", path, c->size);
    exec_crd r = { c->data, c->size, 8, 0 };
    uint32_t ver = exec_crd_u32(&r);
    if (ver != CORE_VERSION)
        return core_fail(c, err, en, "%s: core file format version %u is not supported (this "
                         "ptxdbg reads version %d)", path, ver, CORE_VERSION);
    exec_crd_u32(&r);
    uint64_t total = exec_crd_u64(&r);
    if (total > c->size)
        return core_fail(c, err, en, "%s: the core file is truncated (%zu of %" PRIu64
                         " bytes)", path, c->size, total);
    if (total < c->size)
        return core_fail(c, err, en, "%s: the core file is corrupted (%zu bytes, its header "
                         "says %" PRIu64 ")", path, c->size, total);
    exec_crd t = { c->data + c->size - 4, 4, 0, 0 };
    uint32_t stored = exec_crd_u32(&t), crc = exec_crc32(0, c->data, c->size - 4);
    if (stored != crc)
        return core_fail(c, err, en, "%s: the core file is corrupted (checksum mismatch: stored "
                         "0x%08x, computed 0x%08x)", path, stored, crc);
    uint32_t ns = exec_crd_u32(&r);
    exec_crd_u32(&r);
    if (ns > (c->size - CORE_HDR) / 16)
        return core_fail(c, err, en, "%s: the core file is corrupted (bad section count)", path);
    c->s = calloc(ns ? ns : 1, sizeof *c->s);
    if (!c->s)
        return core_fail(c, err, en, "%s: out of memory", path);
    r.n = c->size - 4;
    for (uint32_t i = 0; i < ns; i++) {
        c->s[i].tag = exec_crd_u32(&r);
        exec_crd_u32(&r);
        c->s[i].n = exec_crd_u64(&r);
        c->s[i].p = crd_take(&r, c->s[i].n);
        if (r.bad)
            return core_fail(c, err, en, "%s: the core file is corrupted (section %u overruns "
                             "the file)", path, i);
    }
    c->ns = ns;
    if (r.off != r.n)
        return core_fail(c, err, en, "%s: the core file is corrupted (bytes after the last "
                         "section)", path);
    const void *mp;
    uint64_t ml;
    if (exec_core_find(c, T_MODULE, 0, &mp, &ml) != 0)
        return core_fail(c, err, en, "%s: the core file has no PTX module", path);
    exec_crd mr = { mp, (size_t)ml, 0, 0 };
    c->mod_path = exec_crd_str(&mr);
    c->mod_text = exec_crd_bytes(&mr, &c->mod_len);
    c->glob_base = exec_crd_u64(&mr);
    c->glob_limit = exec_crd_u64(&mr);
    if (mr.bad || !c->mod_path || mr.off != mr.n ||
        (c->glob_limit && c->glob_limit <= c->glob_base))
        return core_fail(c, err, en, "%s: the core file is corrupted (bad module section)", path);
    return c;
}

int exec_core_find(const exec_core *c, uint32_t tag, int nth, const void **data, uint64_t *len)
{
    for (uint32_t i = 0; i < c->ns; i++)
        if (c->s[i].tag == tag && nth-- == 0) {
            *data = c->s[i].p;
            *len = c->s[i].n;
            return 0;
        }
    return -1;
}

int exec_core_module(const exec_core *c, const char **text, uint64_t *len, const char **path)
{
    *text = c->mod_text;
    *len = c->mod_len;
    *path = c->mod_path;
    return 0;
}

void exec_core_window(const exec_core *c, uint64_t *base, uint64_t *limit)
{
    *base = c->glob_base;
    *limit = c->glob_limit;
}

/* ---- restoring ------------------------------------------------------------------------------- */
static int bad(exec_machine *m, const char *what)
{
    snprintf(m->err, sizeof m->err, "the core file does not match its module (%s)", what);
    return -1;
}

static void get_stop(exec_crd *r, exec_stop *s)
{
    memset(s, 0, sizeof *s);
    s->kind = (exec_stop_kind)exec_crd_u32(r);
    s->cta = exec_crd_u32(r);
    s->warp = exec_crd_u32(r);
    s->lanes = exec_crd_u32(r);
    s->lane = exec_crd_u32(r);
    s->pc = exec_crd_u32(r);
    s->exc = (exec_exc)exec_crd_u32(r);
    s->space = (ptx_space)exec_crd_u32(r);
    s->addr = exec_crd_u64(r);
    s->size = exec_crd_u32(r);
    s->watch_id = (int)exec_crd_u32(r);
    const uint8_t *p = crd_take(r, 16);
    if (p)
        memcpy(s->old_bytes, p, 16);
    p = crd_take(r, 16);
    if (p)
        memcpy(s->new_bytes, p, 16);
    char *msg = exec_crd_str(r);
    if (msg)
        snprintf(s->msg, sizeof s->msg, "%s", msg);
    free(msg);
    if (s->kind > EXEC_STOP_LIMIT || s->exc > EXEC_EXC_MALLOC || s->lane >= 32)
        r->bad = 1;
}

static int restore_global(exec_machine *m, exec_crd *r)
{
    m->nlaunch = exec_crd_u32(r);
    m->clock = exec_crd_u64(r);
    m->heap_used = exec_crd_u64(r);
    uint64_t next = exec_crd_u64(r);
    uint32_t nalloc = exec_crd_u32(r);
    uint32_t n = exec_crd_u32(r);
    if (r->bad || n > r->n / 24)
        return bad(m, "global regions");
    int nmod = 0;
    for (const mem_region *x = mem_global_first(&m->glob); x; x = mem_global_next(&m->glob, x))
        nmod += x->kind == MEM_R_MODULE;
    mem_global g = {0};
    int seen_mod = 0, rc = 0;
    uint64_t prev_end = 0;
    for (uint32_t i = 0; i < n && !rc; i++) {
        mem_region *x = calloc(1, sizeof *x);
        if (!x) {
            rc = bad(m, "out of memory");
            break;
        }
        x->base = exec_crd_u64(r);
        x->size = exec_crd_u64(r);
        x->kind = (int)exec_crd_u32(r);
        x->id = exec_crd_u32(r);
        char *name = exec_crd_str(r);
        if (r->bad || x->size > (UINT64_C(1) << 34) || (x->kind < MEM_R_MODULE ||
            x->kind > MEM_R_MAPPED) || (i && x->base < prev_end)) {
            free(name);
            free(x);
            rc = bad(m, "global region");
            break;
        }
        prev_end = x->base + x->size;
        if (x->kind == MEM_R_MODULE) {
            const mem_region *o = mem_global_find(&m->glob, x->base, 0);
            if (!o || o->base != x->base || o->size != x->size || !o->sym ||
                strcmp(o->sym->name, name)) {
                free(name);
                free(x);
                rc = bad(m, "module variable");
                break;
            }
            x->sym = o->sym;
            seen_mod++;
        }
        if (x->kind != MEM_R_MODULE)
            snprintf(x->name, sizeof x->name, "%s", name);
        if (x->kind == MEM_R_MAPPED)     /* restored as a buffer the machine owns */
            x->kind = MEM_R_ALLOC;
        free(name);
        x->data = calloc(1, x->size ? x->size : 1);
        if (!x->data || mem_global_insert(&g, x)) {
            rc = bad(m, x->data ? "global region" : "out of memory");
            free(x->data);
            free(x);
            break;
        }
        if (crd_sparse(r, x->data, x->size) != 0) {
            rc = bad(m, "global region contents");
            break;
        }
    }
    if (!rc && seen_mod != nmod)
        rc = bad(m, "module variables");
    uint64_t clen;
    const void *cb = rc ? NULL : exec_crd_bytes(r, &clen);
    if (!rc && (r->bad || clen != (m->cbank ? m->cbank_size : 0)))
        rc = bad(m, "constant bank");
    if (!rc && exec_crd_u32(r) != m->ncode)
        rc = bad(m, "instruction count");
    if (rc) {
        mem_global_free(&g);
        return -1;
    }
    if (clen)
        memcpy(m->cbank, cb, clen);
    mem_global_free(&m->glob);
    g.next = next;
    g.nalloc = nalloc;
    m->glob = g;
    return 0;
}

static exec_act *frame_at(exec_act **tab, int n, uint32_t idx, int *badp)
{
    if ((int32_t)idx == -1)
        return NULL;
    if ((int)idx < 0 || (int)idx >= n) {
        *badp = 1;
        return NULL;
    }
    return tab[idx];
}

/* Warp k of a CTA whose special register slots are sregs (the swapped-in CTA's or a parked
 * one's: parked warps point at m->cta too, as exec_sched.c leaves them). */
static int restore_warp(exec_machine *m, exec_warp *w, uint32_t k, uint8_t *sregs, exec_crd *r)
{
    w->m = m;
    w->cta = &m->cta;
    w->r.sregs = sregs + (size_t)k * EXEC_SR__COUNT * EXEC_SLOT;
    if (exec_crd_u32(r) != k)
        return bad(m, "warp order");
    w->id = k;
    w->cur_mask = exec_crd_u32(r);
    w->cur_pc = exec_crd_u32(r);
    w->limit_pc = exec_crd_u32(r);
    uint32_t cur = exec_crd_u32(r);
    w->npc = exec_crd_u32(r);
    w->resched = (int)exec_crd_u32(r);
    w->solo = 0;
    exec_crd_u32(r);
    w->stopped = (int)exec_crd_u32(r);
    w->valid = exec_crd_u32(r);
    w->exited = exec_crd_u32(r);
    w->trapped = exec_crd_u32(r);
    w->bar_wait = exec_crd_u32(r);
    w->ws_wait = exec_crd_u32(r);
    w->r.cc = exec_crd_u32(r);
    uint32_t lfr[EXEC_LANES];
    for (int i = 0; i < EXEC_LANES; i++)
        w->ws_need[i] = exec_crd_u32(r);
    for (int i = 0; i < EXEC_LANES; i++) {
        int32_t b = (int32_t)exec_crd_u32(r);
        if (b < -1 || b > EXEC_CLUSTER_BAR) /* a CTA barrier, or barrier.cluster */
            r->bad = 1;
        w->lane_bar[i] = (int8_t)b;
    }
    for (int i = 0; i < EXEC_LANES; i++) {
        w->pc[i] = exec_crd_u32(r);
        if (w->pc[i] > m->ncode)
            r->bad = 1;
    }
    for (int i = 0; i < EXEC_LANES; i++)
        lfr[i] = exec_crd_u32(r);
    uint32_t kf = exec_crd_u32(r);
    if (r->bad || w->cur_pc > m->ncode)
        return bad(m, "warp state");
    uint32_t expect_valid = m->nthreads - k * 32 >= 32 ? EXEC_FULL
                            : (1u << (m->nthreads - k * 32)) - 1;
    if (w->valid != expect_valid)
        return bad(m, "warp lanes");
    for (int i = 0; i < EXEC_LANES; i++) {
        w->lsp[i] = exec_crd_u64(r);
        uint32_t cap = exec_crd_u32(r);
        uint64_t len;
        const void *p = exec_crd_bytes(r, &len);
        if (r->bad || w->lsp[i] > MEM_LOCAL_TOP || cap > 2 * MEM_LOCAL_MAX || len > cap ||
            (cap && len != MEM_LOCAL_TOP - w->lsp[i]) || (!cap && len))
            return bad(m, "local stack");
        if (cap) {
            w->ldata[i] = calloc(1, cap);
            if (!w->ldata[i])
                return bad(m, "out of memory");
            w->lcap[i] = cap;
            if (len)
                memcpy(w->ldata[i] + (cap - len), p, len);
        }
    }
    uint32_t nf = exec_crd_u32(r);
    if (r->bad || nf > EXEC_MAX_DEPTH * 4 + 1 || nf > r->n / 64)
        return bad(m, "frame count");
    exec_act **tab = calloc(nf ? nf : 1, sizeof *tab);
    uint32_t *par = calloc(nf ? nf : 1, sizeof *par);
    if (!tab || !par) {
        free(tab);
        free(par);
        return bad(m, "out of memory");
    }
    exec_act **tail = &w->all_frames;
    int rc = 0;
    for (uint32_t i = 0; i < nf && !rc; i++) {
        uint32_t fi = exec_crd_u32(r);
        const exec_fdec *fd = !r->bad && fi < (uint32_t)m->mod->nfuncs ? m->fdec[fi] : NULL;
        if (!fd) {
            rc = bad(m, "frame function");
            break;
        }
        exec_act *f = calloc(1, sizeof *f);
        size_t need = frame_need(fd);
        if (f)
            f->regs = aligned_alloc(64, (need + 63) & ~(size_t)63);
        if (!f || !f->regs) {
            free(f);
            rc = bad(m, "out of memory");
            break;
        }
        memset(f->regs, 0, need);
        f->cap = need;
        f->fd = fd;
        f->preds = (uint32_t *)(void *)(f->regs + fd->regbytes);
        f->params = (uint8_t *)(f->preds + fd->npreds);
        *tail = f;
        tail = &f->all_next;
        w->nframes++;
        tab[i] = f;
        par[i] = exec_crd_u32(r);
        f->depth = exec_crd_u32(r);
        f->members = exec_crd_u32(r);
        f->call_pc = exec_crd_u32(r);
        f->in_use = (int)exec_crd_u32(r);
        for (int l = 0; l < EXEC_LANES; l++)
            f->local_base[l] = exec_crd_u64(r);
        uint64_t len;
        const void *p = exec_crd_bytes(r, &len);
        if (r->bad || len != need || f->depth > EXEC_MAX_DEPTH || f->call_pc > m->ncode) {
            rc = bad(m, "frame");
            break;
        }
        memcpy(f->regs, p, need);
        if (!f->in_use) {
            f->next_free = w->free_frames;
            w->free_frames = f;
        }
    }
    int b = 0;
    for (uint32_t i = 0; i < nf && !rc; i++) {
        if (!tab[i]->in_use) { /* kept for reuse: no links (the writer writes none) */
            b |= par[i] != UINT32_MAX || tab[i]->depth != 0;
            continue;
        }
        tab[i]->parent = frame_at(tab, (int)nf, par[i], &b);
        if (tab[i]->parent == tab[i] || (tab[i]->parent && !tab[i]->parent->in_use))
            b = 1;
    }
    if (!rc) {
        w->kframe = frame_at(tab, (int)nf, kf, &b);
        w->cur_frame = frame_at(tab, (int)nf, cur, &b);
        for (int i = 0; i < EXEC_LANES; i++) {
            w->lframe[i] = frame_at(tab, (int)nf, lfr[i], &b);
            /* a live lane is in a frame in use (an exited one may point at a released frame) */
            if (((w->valid >> i) & 1) && (!w->lframe[i] || (!((w->exited >> i) & 1) &&
                                                            !w->lframe[i]->in_use)))
                b = 1;
        }
        /* parent chains must end (depth strictly decreases) */
        for (uint32_t i = 0; i < nf && !b; i++)
            for (exec_act *f = tab[i]; f->parent; f = f->parent)
                if (f->parent->depth >= f->depth) {
                    b = 1;
                    break;
                }
        if (b || !w->kframe)
            rc = bad(m, "frame links");
    }
    free(tab);
    free(par);
    if (rc)
        return -1;
    exec_set_group(w, w->cur_frame ? w->cur_frame : w->kframe);
    return 0;
}

/* A CTA record (put_cta) into ct; its shared memory is allocated. */
static int get_cta(exec_machine *m, exec_cta *ct, exec_crd *cr)
{
    memset(ct, 0, sizeof *ct);
    ct->id = exec_crd_u32(cr);
    ct->coord.x = exec_crd_u32(cr);
    ct->coord.y = exec_crd_u32(cr);
    ct->coord.z = exec_crd_u32(cr);
    ct->nthreads = exec_crd_u32(cr);
    ct->nexited = exec_crd_u32(cr);
    ct->rr = exec_crd_u32(cr);
    for (int i = 0; i < EXEC_NBAR; i++) {
        ct->bar[i].arrived = exec_crd_u32(cr);
        ct->bar[i].expected = exec_crd_u32(cr);
        ct->bar[i].red_popc = exec_crd_u32(cr);
        ct->bar[i].red_and = (int)exec_crd_u32(cr);
        ct->bar[i].red_or = (int)exec_crd_u32(cr);
        ct->bar[i].warped = exec_crd_u32(cr);
        for (int w = 0; w < EXEC_CTA_WARPS; w++)
            ct->bar[i].pend[w] = exec_crd_u32(cr);
    }
    uint64_t shl, rl;
    const void *sh = exec_crd_bytes(cr, &shl);
    const void *res = exec_crd_bytes(cr, &rl);
    uint64_t want = exec_smem_user(m->shared_static, m->li.dyn_shmem);
    if (cr->bad || ct->id >= m->ncta || ct->nthreads != m->nthreads ||
        ct->nexited > m->nthreads || shl != want || rl != EXEC_SMEM_RESERVED ||
        ct->rr >= m->nwarps)
        return bad(m, "CTA state");
    memcpy(ct->res, res, EXEC_SMEM_RESERVED);
    exec_dim3 co = exec_cta_coord(m, ct->id);
    if (co.x != ct->coord.x || co.y != ct->coord.y || co.z != ct->coord.z)
        return bad(m, "CTA coordinates");
    ct->shared = calloc(1, shl ? shl : 1);
    if (!ct->shared)
        return bad(m, "out of memory");
    ct->shared_size = shl;
    ct->shared_cap = shl ? shl : 1;
    if (shl)
        memcpy(ct->shared, sh, shl);
    return 0;
}

/* Resident CTAs parked beside the swapped-in one (section PARKED). */
static int restore_parked(exec_machine *m, const exec_core *c)
{
    const void *pp;
    uint64_t pl;
    if (exec_core_find(c, T_PARKED, 0, &pp, &pl) != 0)
        return 0;
    exec_crd r = { pp, (size_t)pl, 0, 0 };
    uint32_t next = exec_crd_u32(&r), n = exec_crd_u32(&r);
    /* a parked CTA is at least its warps' fixed fields: bounded by the section's size */
    if (r.bad || next > m->ncta || n > m->ncta || n > pl / 64 || exec_res_restore(m, next))
        return bad(m, "parked CTAs");
    size_t sb = (size_t)m->nwarps * EXEC_SR__COUNT * EXEC_SLOT;
    for (uint32_t i = 0; i < n; i++) {
        exec_cta ct;
        if (get_cta(m, &ct, &r) != 0)
            return -1;
        exec_warp *warps = calloc(m->nwarps, sizeof *warps);
        uint8_t *sregs = malloc(sb);
        uint64_t sl;
        const void *sp = exec_crd_bytes(&r, &sl);
        int rc = !warps || !sregs ? bad(m, "out of memory")
                 : r.bad || sl != sb || ct.id >= next || (m->cta_live && ct.id == m->cta.id)
                     ? bad(m, "parked CTA")
                     : 0;
        if (!rc)
            memcpy(sregs, sp, sb);
        /* the set owns the arrays from here, so a failure below frees them with the machine */
        if (!rc && exec_res_restore_add(m, &ct, warps, sregs) != 0)
            rc = bad(m, "parked CTA order");
        if (rc) {
            free(warps);
            free(sregs);
            free(ct.shared);
            return -1;
        }
        for (uint32_t k = 0; k < m->nwarps; k++)
            if (restore_warp(m, &warps[k], k, sregs, &r) != 0)
                return -1;
    }
    if (r.off != r.n)
        return bad(m, "parked CTAs");
    return 0;
}

/* The live cluster's other CTAs (section CLUSTER). */
static int restore_cluster(exec_machine *m, const exec_core *c)
{
    const void *cp;
    uint64_t cl;
    if (exec_core_find(c, T_CLUSTER, 0, &cp, &cl) != 0)
        return 0;
    exec_crd r = { cp, (size_t)cl, 0, 0 };
    uint32_t st[7];
    for (int i = 0; i < 7; i++)
        st[i] = exec_crd_u32(&r);
    uint32_t narr = exec_crd_u32(&r);
    if (r.bad || narr > cl / 4)
        return bad(m, "cluster");
    uint32_t *arr = calloc(narr ? narr : 1, sizeof *arr);
    if (!arr)
        return bad(m, "out of memory");
    for (uint32_t i = 0; i < narr; i++)
        arr[i] = exec_crd_u32(&r);
    int rc = r.bad || exec_cluster_core_restore(m, st, arr, narr) != 0 ? bad(m, "cluster") : 0;
    free(arr);
    size_t sb = (size_t)m->nwarps * EXEC_SR__COUNT * EXEC_SLOT;
    for (uint32_t k = 0; rc == 0 && k < st[0]; k++) {
        uint32_t id = exec_crd_u32(&r), done = exec_crd_u32(&r), parked = exec_crd_u32(&r);
        if (r.bad || parked != (k != st[3]))
            return bad(m, "cluster CTA");
        if (!parked) {
            if (exec_cluster_core_set_slot(m, k, id, (int)done, NULL, NULL, NULL) != 0)
                return bad(m, "cluster CTA");
            continue;
        }
        exec_cta ct;
        if (get_cta(m, &ct, &r) != 0)
            return -1;
        exec_warp *warps = calloc(m->nwarps, sizeof *warps);
        uint8_t *sregs = malloc(sb);
        uint64_t sl;
        const void *sp = exec_crd_bytes(&r, &sl);
        rc = !warps || !sregs ? bad(m, "out of memory") : r.bad || sl != sb ? bad(m, "cluster CTA") : 0;
        if (!rc)
            memcpy(sregs, sp, sb);
        /* the cluster owns the arrays from here (freed with the machine) */
        if (!rc && exec_cluster_core_set_slot(m, k, id, (int)done, &ct, warps, sregs) != 0)
            rc = bad(m, "cluster CTA");
        if (rc) {
            free(warps);
            free(sregs);
            free(ct.shared);
            return -1;
        }
        for (uint32_t w = 0; w < m->nwarps; w++)
            if (restore_warp(m, &warps[w], w, sregs, &r) != 0)
                return -1;
    }
    if (!rc && r.off != r.n)
        rc = bad(m, "cluster");
    return rc;
}

static int restore_launch(exec_machine *m, const exec_core *c, exec_crd *r)
{
    uint32_t ki = exec_crd_u32(r);
    exec_launch_info li;
    memset(&li, 0, sizeof li);
    li.grid.x = exec_crd_u32(r);
    li.grid.y = exec_crd_u32(r);
    li.grid.z = exec_crd_u32(r);
    li.block.x = exec_crd_u32(r);
    li.block.y = exec_crd_u32(r);
    li.block.z = exec_crd_u32(r);
    li.dyn_shmem = exec_crd_u32(r);
    li.launch_id = exec_crd_u32(r);
    li.cluster.x = exec_crd_u32(r);
    li.cluster.y = exec_crd_u32(r);
    li.cluster.z = exec_crd_u32(r);
    if (r->bad || ki >= (uint32_t)m->mod->nfuncs || !m->fdec[ki] || !m->mod->funcs[ki]->is_entry)
        return bad(m, "kernel");
    uint64_t nt = (uint64_t)li.block.x * li.block.y * li.block.z;
    uint64_t nc = (uint64_t)li.grid.x * li.grid.y * li.grid.z;
    uint32_t ncta = exec_crd_u32(r), nwarps = exec_crd_u32(r), nthreads = exec_crd_u32(r);
    if (!nt || nt > 1024 || !nc || nc != ncta || nt != nthreads || nwarps != (nt + 31) / 32 ||
        li.dyn_shmem > (1u << 30))
        return bad(m, "launch configuration");
    m->li = li;
    m->li.kernel = m->mod->funcs[ki];
    m->kfd = m->fdec[ki];
    if (mem_shared_view(m, m->li.kernel) != 0)   /* the kernel's own shared variables */
        return bad(m, "out of memory");
    m->ncta = ncta;
    m->nwarps = nwarps;
    m->nthreads = nthreads;
    m->cur_cta = exec_crd_u32(r);
    uint32_t live = exec_crd_u32(r);
    exec_crd_u32(r);  /* over: a restored launch never runs on */
    exec_crd_u32(r);
    get_stop(r, &m->stop);
    get_stop(r, &m->final);
    uint64_t plen, slen;
    const void *pp = exec_crd_bytes(r, &plen);
    const void *sp = exec_crd_bytes(r, &slen);
    int64_t psz = exec_param_layout(m->li.kernel, NULL, NULL, 0);
    if (r->bad || m->cur_cta > ncta || (live && m->cur_cta >= ncta) || psz < 0 ||
        (uint64_t)psz != plen || slen != (uint64_t)nwarps * EXEC_SR__COUNT * EXEC_SLOT)
        return bad(m, "launch state");
    m->kparams = malloc((size_t)plen + 1);
    m->warps = calloc(nwarps, sizeof(exec_warp));
    m->sregs = malloc((size_t)slen);
    if (!m->kparams || !m->warps || !m->sregs)
        return bad(m, "out of memory");
    if (plen)
        memcpy(m->kparams, pp, plen);
    m->kparam_size = plen;
    memcpy(m->sregs, sp, slen);
    m->launched = 1;
    m->over = 1;
    m->final = m->stop;
    m->stop_set = 0;
    m->bar_hold = 0;
    if (live) {
        const void *cp;
        uint64_t cl;
        if (exec_core_find(c, T_CTA, 0, &cp, &cl) != 0)
            return bad(m, "no CTA section");
        exec_crd cr = { cp, (size_t)cl, 0, 0 };
        if (get_cta(m, &m->cta, &cr) != 0)
            return -1;
        if (m->cta.id != m->cur_cta || cr.off != cr.n)
            return bad(m, "CTA state");
        m->cta_live = 1;
        for (uint32_t k = 0; k < nwarps; k++) {
            const void *wp;
            uint64_t wl;
            if (exec_core_find(c, T_WARP, (int)k, &wp, &wl) != 0)
                return bad(m, "missing warp");
            exec_crd wr = { wp, (size_t)wl, 0, 0 };
            if (restore_warp(m, &m->warps[k], k, m->sregs, &wr) != 0)
                return -1;
        }
    }
    if (restore_parked(m, c) != 0 || restore_cluster(m, c) != 0)
        return -1;
    if (m->stop.warp >= nwarps)
        return bad(m, "stop warp");
    return 0;
}

int exec_core_restore(exec_machine *m, const exec_core *c)
{
    exec_kill(m);
    const void *p;
    uint64_t n;
    if (exec_core_find(c, T_GLOBAL, 0, &p, &n) != 0)
        return bad(m, "no memory section");
    exec_crd r = { p, (size_t)n, 0, 0 };
    if (restore_global(m, &r) != 0)
        return -1;
    if (exec_core_find(c, T_LAUNCH, 0, &p, &n) != 0)
        return 0;
    exec_crd lr = { p, (size_t)n, 0, 0 };
    if (restore_launch(m, c, &lr) != 0) {
        exec_kill(m);
        return -1;
    }
    return 0;
}

/* ---- small inspection helpers for postmortem reports ----------------------------------------- */
int exec_global_region(const exec_machine *m, int i, exec_region_info *ri)
{
    const mem_region *r = mem_global_at(&m->glob, i);
    if (!r)
        return -1;
    ri->base = r->base;
    ri->size = r->size;
    ri->kind = r->kind;
    ri->id = r->id;
    ri->name = r->sym ? r->sym->name : r->name[0] ? r->name : NULL;
    return 0;
}

int exec_local_stack(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                     uint64_t *sp, uint64_t *top)
{
    if (!m->launched || !m->cta_live || cta != m->cta.id || warp >= m->nwarps || lane >= 32)
        return -1;
    *sp = m->warps[warp].lsp[lane];
    *top = MEM_LOCAL_TOP;
    return 0;
}

uint64_t exec_shared_size(const exec_machine *m)
{
    return m->cta_live ? m->cta.shared_size
                       : exec_smem_user(m->shared_static, m->launched ? m->li.dyn_shmem : 0);
}

ptx_space exec_addr_decode(uint64_t generic, uint64_t *space_addr)
{
    return mem_generic_decode(generic, space_addr);
}

int exec_last_stop(const exec_machine *m, exec_stop *st, int *over)
{
    if (!m->launched)
        return -1;
    *st = m->over ? m->final : m->stop;
    if (over)
        *over = m->over;
    return 0;
}
