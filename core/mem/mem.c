/* mem.c - state spaces: global region table, module data layout, bounds-checked translation. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

/* ---- global regions --------------------------------------------------------------------------
 * A treap keyed by base address (mem.h): expected O(log n) per find, insert and remove, so
 * programs with 100 000 live allocations pay what programs with a few pay. */
static uint32_t mem_cnt(const mem_region *r) { return r ? r->count : 0; }
static void mem_upd(mem_region *r) { r->count = 1 + mem_cnt(r->left) + mem_cnt(r->right); }

/* Split t into the regions with base < key (*l) and the others (*r). */
static void mem_split(mem_region *t, uint64_t key, mem_region **l, mem_region **r)
{
    if (!t) {
        *l = *r = NULL;
    } else if (t->base < key) {
        mem_split(t->right, key, &t->right, r);
        mem_upd(t);
        *l = t;
    } else {
        mem_split(t->left, key, l, &t->left);
        mem_upd(t);
        *r = t;
    }
}

/* Join l and r, every base of l below every base of r. */
static mem_region *mem_join(mem_region *l, mem_region *r)
{
    if (!l || !r)
        return l ? l : r;
    if (l->prio > r->prio) {
        l->right = mem_join(l->right, r);
        mem_upd(l);
        return l;
    }
    r->left = mem_join(l, r->left);
    mem_upd(r);
    return r;
}

/* The region with the highest base <= addr, or NULL. */
static mem_region *mem_floor(const mem_global *g, uint64_t addr)
{
    mem_region *t = g->root, *best = NULL;
    while (t) {
        if (t->base <= addr) {
            best = t;
            t = t->right;
        } else {
            t = t->left;
        }
    }
    return best;
}

mem_region *mem_global_find_pad(mem_global *g, uint64_t addr, uint64_t n)
{
    mem_region *r = mem_floor(g, addr);   /* the last region starting at or below addr */
    if (!r)
        return NULL;
    uint64_t ext = r->size + r->pad;
    return addr - r->base < ext && n <= ext - (addr - r->base) ? r : NULL;
}

/* ---- freed regions (for messages) ------------------------------------------------------------ */
static void mem_global_note_freed(mem_global *g, const mem_region *r)
{
    if (!g->freed && !(g->freed = calloc(MEM_FREED_MAX, sizeof *g->freed)))
        return;
    mem_freed *f = &g->freed[g->nfreed++ % MEM_FREED_MAX];
    f->base = r->base;
    f->size = r->size;
    f->kind = r->kind;
    f->id = r->id;
    snprintf(f->name, sizeof f->name, "%s", r->sym ? r->sym->name : r->name);
}

/* Forget freed regions that [base, base + n) now reuses. */
static void mem_global_unfree(mem_global *g, uint64_t base, uint64_t n)
{
    uint32_t k = g->nfreed < MEM_FREED_MAX ? g->nfreed : MEM_FREED_MAX;
    for (uint32_t i = 0; g->freed && i < k; i++) {
        mem_freed *f = &g->freed[i];
        if (f->size && f->base < base + n && base < f->base + f->size)
            f->size = 0;
    }
}

const mem_freed *mem_global_freed(const mem_global *g, uint64_t addr)
{
    uint32_t k = g->nfreed < MEM_FREED_MAX ? g->nfreed : MEM_FREED_MAX;
    for (uint32_t j = 0; g->freed && j < k; j++) {   /* newest first */
        const mem_freed *f = &g->freed[(g->nfreed - 1 - j) % MEM_FREED_MAX];
        if (f->size && addr >= f->base && addr - f->base < f->size)
            return f;
    }
    return NULL;
}

/* The region with the lowest base > addr, or NULL. */
static mem_region *mem_above(const mem_global *g, uint64_t addr)
{
    mem_region *t = g->root, *best = NULL;
    while (t) {
        if (t->base > addr) {
            best = t;
            t = t->left;
        } else {
            t = t->right;
        }
    }
    return best;
}

mem_region *mem_global_find(mem_global *g, uint64_t addr, uint64_t n)
{
    mem_region *c = g->last;
    if (c && addr >= c->base && addr - c->base + n <= c->size)
        return c;
    c = mem_floor(g, addr);
    if (!c || addr - c->base >= (c->size ? c->size : 1) || addr - c->base + n > c->size)
        return NULL;
    g->last = c;
    return c;
}

const mem_region *mem_global_nearest(const mem_global *g, uint64_t addr)
{
    const mem_region *lo = mem_floor(g, addr), *hi = mem_above(g, addr);
    if (!lo || !hi)
        return lo ? lo : hi;
    uint64_t dl = addr < lo->base + lo->size ? 0 : addr - (lo->base + lo->size) + 1;
    return dl <= hi->base - addr ? lo : hi;
}

mem_region *mem_global_first(const mem_global *g)
{
    mem_region *t = g->root;
    while (t && t->left)
        t = t->left;
    return t;
}

mem_region *mem_global_next(const mem_global *g, const mem_region *r)
{
    return r ? mem_above(g, r->base) : NULL;
}

mem_region *mem_global_at(const mem_global *g, int i)
{
    mem_region *t = g->root;
    if (i < 0)
        return NULL;
    while (t) {
        uint32_t l = mem_cnt(t->left);
        if ((uint32_t)i < l) {
            t = t->left;
        } else if ((uint32_t)i == l) {
            return t;
        } else {
            i -= (int)l + 1;
            t = t->right;
        }
    }
    return NULL;
}

int mem_global_insert(mem_global *g, mem_region *r)
{
    uint64_t end = r->base + (r->size ? r->size : 1);
    const mem_region *below = mem_floor(g, end - 1);
    if (end < r->base || (below && below->base + (below->size ? below->size : 1) > r->base))
        return -1;
    /* xorshift: deterministic priorities */
    uint32_t x = g->seed ? g->seed : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    g->seed = x;
    r->prio = x;
    r->left = r->right = NULL;
    r->count = 1;
    r->claims = NULL;
    r->cprev = r->cnext = NULL;
    mem_region *l, *h;
    mem_split(g->root, r->base, &l, &h);
    g->root = mem_join(mem_join(l, r), h);
    g->n++;
    return 0;
}

/* Take the region based at `base` out of the index (NULL when none). */
static mem_region *mem_global_take(mem_global *g, uint64_t base)
{
    mem_region *l, *m, *h;
    mem_split(g->root, base, &l, &m);
    mem_split(m, base + 1, &m, &h);
    g->root = mem_join(l, h);
    if (m) {
        g->n--;
        if (g->last == m)
            g->last = NULL;
        m->left = m->right = NULL;
        m->count = 1;
    }
    return m;
}

/* Free a region taken out of the index, with its claims and, unless mapped, its bytes. */
static void mem_region_free(mem_global *g, mem_region *r)
{
    if (r->claims)
        exec_par_drop(g, r);
    if (r->kind != MEM_R_MAPPED)
        free(r->data);
    free(r);
}

uint64_t mem_global_add(mem_global *g, uint64_t size, int kind, const ptx_sym *sym)
{
    if (size > (1ull << 40))
        return 0;
    if (!g->next)
        g->next = MEM_GLOBAL_BASE;
    uint64_t base = g->next, pad = exec_alloc_padding(size);
    /* the padding a GPU maps after an allocation (at least MEM_GLOBAL_GAP bytes: a small
       overrun never lands in the next region) */
    uint64_t next = (base + size + pad + 255) & ~255ull;
    if (g->limit && next > g->limit)
        return 0;
    mem_region *r = calloc(1, sizeof *r);
    uint8_t *data = calloc(1, size + pad);
    if (!r || !data) {
        free(r);
        free(data);
        return 0;
    }
    r->base = base;
    r->size = size;
    r->pad = pad;
    r->data = data;
    r->kind = kind;
    r->sym = sym;
    r->id = g->nalloc + 1;
    if (mem_global_insert(g, r)) {
        free(data);
        free(r);
        return 0;
    }
    g->next = next;
    g->nalloc++;
    mem_global_unfree(g, base, size + pad);
    return base;
}

int mem_global_map(mem_global *g, uint64_t base, uint64_t size, uint8_t *data,
                   const char *name)
{
    if (!size || base + size < base)
        return -1;
    mem_region *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->base = base;
    r->size = size;
    r->data = data;
    r->kind = MEM_R_MAPPED;
    snprintf(r->name, sizeof r->name, "%s", name ? name : "");
    r->id = g->nalloc + 1;
    if (mem_global_insert(g, r)) {
        free(r);
        return -1;
    }
    g->nalloc++;
    mem_global_unfree(g, base, size);
    return 0;
}

int mem_global_remove(mem_global *g, uint64_t base, int kind)
{
    mem_region *r = mem_floor(g, base);
    if (!r || r->base != base || r->kind != kind)
        return -1;
    mem_global_note_freed(g, r);
    mem_region_free(g, mem_global_take(g, base));
    return 0;
}

static void mem_free_tree(mem_global *g, mem_region *t)
{
    if (!t)
        return;
    mem_free_tree(g, t->left);
    mem_free_tree(g, t->right);
    mem_region_free(g, t);
}

void mem_global_free(mem_global *g)
{
    mem_free_tree(g, g->root);
    free(g->freed);
    memset(g, 0, sizeof *g);
}

/* ---- module data ----------------------------------------------------------------------------- */
static uint64_t mem_align(uint64_t x, uint64_t a)
{
    return a > 1 ? (x + a - 1) / a * a : x;
}

static uint32_t mem_var_align(const ptx_sym *s)
{
    if (s->align > 0)
        return (uint32_t)s->align;
    int b = ptx_type_bits(s->type) / 8;
    return (uint32_t)((b > 0 ? b : 1) * (s->vec > 1 ? s->vec : 1));
}

static int mem_is_dynamic_shared(const ptx_sym *s)
{
    return s->size == 0 && (s->ndims > 0 ? s->dims[0] == 0 : 1);
}

/* Address of variable s in its space (module or function scope); -1 if unknown. */
static int mem_sym_addr(exec_machine *m, const ptx_sym *s, uint64_t *a)
{
    if (s->kind == PTX_SYM_FUNC) {
        *a = MEM_CODE_BASE + 16ull * (uint64_t)s->index;
        return 0;
    }
    if (!s->owner) {
        for (int i = 0; i < m->mod->nvars; i++)
            if (m->mod->vars[i] == s) {
                *a = m->gvar_addr[i];
                return 0;
            }
        return -1;
    }
    const exec_fdec *fd = m->fdec[s->owner->sym->index];
    for (int i = 0; fd && i < s->owner->nvars; i++)
        if (s->owner->vars[i] == s && fd->var_off[i] != UINT64_MAX) {
            *a = fd->var_off[i];
            return 0;
        }
    return -1;
}

static int mem_place(exec_machine *m, const ptx_sym *s, uint64_t *out, uint64_t *dyn_pending)
{
    uint32_t a = mem_var_align(s);
    switch (s->space) {
    case PTX_SPACE_GLOBAL: {
        uint64_t base = mem_global_add(&m->glob, s->size, MEM_R_MODULE, s);
        if (!base)
            return -1;
        *out = base;
        mem_region *r = mem_global_find(&m->glob, base, 0);
        if (r && s->init)
            memcpy(r->data, s->init, s->init_size < s->size ? s->init_size : s->size);
        return 0;
    }
    case PTX_SPACE_CONST: {
        uint64_t off = mem_align(m->cbank_size, a);
        uint64_t end = off + s->size;
        uint8_t *nb = realloc(m->cbank, end ? end : 1);
        if (!nb)
            return -1;
        memset(nb + m->cbank_size, 0, end - m->cbank_size);
        m->cbank = nb;
        m->cbank_size = end;
        if (s->init)
            memcpy(nb + off, s->init, s->init_size < s->size ? s->init_size : s->size);
        *out = off;
        return 0;
    }
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER:
        if (mem_is_dynamic_shared(s)) {
            *out = UINT64_MAX - 1; /* patched to the dynamic base */
            (*dyn_pending)++;
            return 0;
        }
        *out = mem_align(m->shared_static, a);
        m->shared_static = *out + s->size;
        return 0;
    default:
        *out = 0;
        return 0;
    }
}

static void mem_svar_add(exec_machine *m, const ptx_sym *s, uint64_t addr)
{
    exec_shared_var *nv = realloc(m->svars, sizeof *nv * (size_t)(m->nsvars + 1));
    if (!nv)
        return;
    m->svars = nv;
    nv[m->nsvars].sym = s;
    nv[m->nsvars].addr = addr;
    nv[m->nsvars].size = s->size;
    m->nsvars++;
}

int mem_module_init(exec_machine *m, char *err, size_t errlen)
{
    const ptx_module *mod = m->mod;
    uint64_t dyn = 0;
    m->gvar_addr = exec_arena_alloc(m, sizeof(uint64_t) * (size_t)(mod->nvars + 1));
    if (!m->gvar_addr)
        return -1;
    for (int i = 0; i < mod->nvars; i++)
        if (mem_place(m, mod->vars[i], &m->gvar_addr[i], &dyn)) {
            snprintf(err, errlen, "%s:%d: error: cannot allocate %s", mod->path,
                     mod->vars[i]->line, mod->vars[i]->name);
            return -1;
        }
    for (int fi = 0; fi < mod->nfuncs; fi++) {
        exec_fdec *fd = m->fdec[fi];
        if (!fd)
            continue;
        for (int i = 0; i < fd->f->nvars; i++) {
            const ptx_sym *s = fd->f->vars[i];
            if (s->space == PTX_SPACE_SHARED || s->space == PTX_SPACE_SHARED_CLUSTER ||
                s->space == PTX_SPACE_GLOBAL || s->space == PTX_SPACE_CONST)
                if (mem_place(m, s, &fd->var_off[i], &dyn)) {
                    snprintf(err, errlen, "%s:%d: error: cannot allocate %s", mod->path,
                             s->line, s->name);
                    return -1;
                }
        }
    }
    uint64_t dbase = mem_align(m->shared_static, 16);
    for (int i = 0; i < mod->nvars; i++)
        if (m->gvar_addr[i] == UINT64_MAX - 1)
            m->gvar_addr[i] = dbase;
    for (int i = 0; i < mod->nvars; i++)
        if (mod->vars[i]->space == PTX_SPACE_SHARED ||
            mod->vars[i]->space == PTX_SPACE_SHARED_CLUSTER)
            mem_svar_add(m, mod->vars[i], m->gvar_addr[i]);
    for (int fi = 0; fi < mod->nfuncs; fi++) {
        exec_fdec *fd = m->fdec[fi];
        for (int i = 0; fd && i < fd->f->nvars; i++) {
            if (fd->var_off[i] == UINT64_MAX - 1)
                fd->var_off[i] = dbase;
            const ptx_sym *s = fd->f->vars[i];
            if (s->space == PTX_SPACE_SHARED || s->space == PTX_SPACE_SHARED_CLUSTER)
                mem_svar_add(m, s, fd->var_off[i]);
        }
    }
    /* relocations in initialisers */
    for (int i = 0; i < mod->nvars; i++) {
        const ptx_sym *s = mod->vars[i];
        uint8_t *data = NULL;
        if (s->space == PTX_SPACE_GLOBAL) {
            mem_region *r = mem_global_find(&m->glob, m->gvar_addr[i], 0);
            data = r ? r->data : NULL;
        } else if (s->space == PTX_SPACE_CONST) {
            data = m->cbank + m->gvar_addr[i];
        }
        for (int k = 0; data && k < s->nrelocs; k++) {
            const ptx_reloc *rl = &s->relocs[k];
            uint64_t a;
            if (!rl->sym || mem_sym_addr(m, rl->sym, &a)) {
                snprintf(err, errlen, "%s:%d: error: cannot resolve a relocation in %s",
                         mod->path, s->line, s->name);
                return -1;
            }
            if (rl->generic && rl->sym->kind != PTX_SYM_FUNC)
                a = mem_generic_encode(rl->sym->space, a);
            a += (uint64_t)rl->addend;
            if (rl->offset + (uint64_t)rl->size <= s->size && rl->size > 0 && rl->size <= 8)
                memcpy(data + rl->offset, &a, (size_t)rl->size);
        }
    }
    return 0;
}

/* ---- descriptions ---------------------------------------------------------------------------- */
static int mem_desc_region(const mem_region *r, uint64_t addr, char *out, size_t n)
{
    char name[160];
    if (r->sym)
        snprintf(name, sizeof name, "%s", r->sym->name);
    else if (r->name[0] && r->kind == MEM_R_ALLOC) /* a debugger buffer: "buffer x" around it */
        snprintf(name, sizeof name, "%s%s", addr >= r->base && addr < r->base + r->size ? ""
                                                                                   : "buffer ",
                 r->name);
    else if (r->name[0])                           /* mapped: the owner's name ("cudaMalloc#3") */
        snprintf(name, sizeof name, "%s", r->name);
    else
        snprintf(name, sizeof name, "%s#%u", r->kind == MEM_R_HEAP ? "heap" : "buf", r->id);
    uint64_t far = addr < r->base ? r->base - addr
                 : addr >= r->base + r->size ? addr - (r->base + r->size) : 0;
    if (far > (1ull << 30))   /* nowhere near anything: naming a neighbour would mislead */
        return snprintf(out, n, "not inside any global allocation");
    if (addr < r->base)
        return snprintf(out, n, "%" PRIu64 " bytes before %s [0x%" PRIx64 ", %" PRIu64 " bytes)",
                        r->base - addr, name, r->base, r->size);
    if (addr >= r->base + r->size)
        return snprintf(out, n, "%" PRIu64 " bytes after the end of %s [0x%" PRIx64
                        ", %" PRIu64 " bytes)", addr - (r->base + r->size), name, r->base,
                        r->size);
    return snprintf(out, n, "%s+%" PRIu64, name, addr - r->base);
}

/* The describer is the machine's own (set before its kernels run; a worker's copy of the
 * machine carries it), so two machines of one process never see each other's. */
void exec_set_freed_describer(exec_machine *m, exec_freed_fn fn, void *ctx)
{
    m->glob.freed_fn = fn;
    m->glob.freed_ctx = ctx;
}

int exec_freed_describe(const exec_machine *m, uint64_t addr, char *out, size_t n)
{
    return m->glob.freed_fn && n && m->glob.freed_fn(m->glob.freed_ctx, addr, out, n) == 1;
}

int mem_describe(const exec_machine *m, ptx_space sp, uint64_t addr, char *out, size_t n)
{
    out[0] = 0;
    if (sp == PTX_SPACE_GENERIC)
        sp = mem_generic_decode(addr, &addr);
    switch (sp) {
    case PTX_SPACE_GLOBAL: {
        const mem_region *r = mem_global_nearest(&m->glob, addr);
        /* memory the program released: the runtime's description (where it was freed), else
           the core's own record of regions freed or unmapped (device free, buffers) */
        if ((!r || addr < r->base || addr >= r->base + r->size) &&
            exec_freed_describe(m, addr, out, n))
            return 0;
        const mem_freed *f = mem_global_freed(&m->glob, addr);
        if (f && !(r && addr >= r->base && addr - r->base < r->size)) {
            /* memory that was freed: name what it was */
            char name[80];
            if (f->name[0])
                snprintf(name, sizeof name, "%s", f->name);
            else
                snprintf(name, sizeof name, "%s#%u", f->kind == MEM_R_HEAP ? "heap" : "buf",
                         f->id);
            snprintf(out, n, "inside %s+%" PRIu64 " [0x%" PRIx64 ", %" PRIu64 " bytes), which "
                     "was freed", name, addr - f->base, f->base, f->size);
            return 0;
        }
        if (!r)
            return snprintf(out, n, "no global buffer"), 0;
        mem_desc_region(r, addr, out, n);
        return 0;
    }
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER: {
        const exec_shared_var *best = NULL;
        for (int i = 0; i < m->nsvars; i++) {
            const exec_shared_var *v = &m->svars[i];
            if (addr >= v->addr && (!best || v->addr >= best->addr))
                best = v;
        }
        if (best)
            snprintf(out, n, "%s+%" PRIu64, best->sym->name, addr - best->addr);
        else
            snprintf(out, n, "shared+%" PRIu64, addr);
        return 0;
    }
    case PTX_SPACE_CONST:
        for (int i = 0; i < m->mod->nvars; i++) {
            const ptx_sym *s = m->mod->vars[i];
            if (s->space == PTX_SPACE_CONST && addr >= m->gvar_addr[i] &&
                addr < m->gvar_addr[i] + (s->size ? s->size : 1))
                return snprintf(out, n, "%s+%" PRIu64, s->name, addr - m->gvar_addr[i]), 0;
        }
        snprintf(out, n, "const+%" PRIu64, addr);
        return 0;
    case PTX_SPACE_PARAM:
        if (m->launched) {
            const ptx_func *k = m->li.kernel;
            for (int i = 0; i < k->nparams; i++) {
                uint64_t o = m->kfd->prm_off[i], sz = k->params[i]->size;
                if (addr >= o && addr < o + (sz ? sz : 1))
                    return snprintf(out, n, "%s+%" PRIu64, k->params[i]->name, addr - o), 0;
            }
        }
        snprintf(out, n, "param+%" PRIu64, addr);
        return 0;
    default:
        snprintf(out, n, "%s+%" PRIu64, ptx_space_name(sp), addr);
        return 0;
    }
}

/* ---- each kernel sees its own shared variables ------------------------------------------------
 * Static shared variables of the whole module are laid out together, so one decode serves every
 * kernel. A launch then marks the variables its kernel cannot reach (other kernels' .shared and
 * the module-scope ones only they name) as holes: an access there is out of range, as it would
 * be past the kernel's own allocation on the GPU. */
int mem_shared_view(exec_machine *m, const ptx_func *k)
{
    const ptx_module *mod = m->mod;
    free(m->sh_holes);
    m->sh_holes = NULL;
    m->sh_nholes = 0;
    uint8_t *fseen = calloc((size_t)mod->nfuncs + 1, 1), *vseen = calloc((size_t)mod->nvars + 1, 1);
    m->sh_holes = calloc((size_t)m->nsvars + 1, sizeof *m->sh_holes);
    int rc = -1;
    if (!fseen || !vseen || !m->sh_holes || exec_kernel_reach(mod, k, fseen, vseen) != 0)
        goto out;
    for (int i = 0; i < m->nsvars; i++) {
        const exec_shared_var *v = &m->svars[i];
        const ptx_sym *y = v->sym;
        int mine = y->owner ? y->owner->sym && y->owner->sym->index >= 0 &&
                                  y->owner->sym->index < mod->nfuncs &&
                                  fseen[y->owner->sym->index]
                            : y->index >= 0 && y->index < mod->nvars && vseen[y->index];
        if (!mine && v->size && mem_is_dynamic_shared(y) == 0) {
            m->sh_holes[m->sh_nholes][0] = v->addr;
            m->sh_holes[m->sh_nholes][1] = v->addr + v->size;
            m->sh_nholes++;
        }
    }
    rc = 0;
out:
    free(fseen);
    free(vseen);
    if (rc != 0) {
        free(m->sh_holes);
        m->sh_holes = NULL;
        m->sh_nholes = 0;
        snprintf(m->err, sizeof m->err, "out of memory");
    }
    return rc;
}

/* The variable whose hole [addr, addr + n) touches, or NULL (holes are few: a linear scan). */
const ptx_sym *mem_shared_hole(const exec_machine *m, uint64_t addr, uint64_t n)
{
    for (int i = 0; i < m->sh_nholes; i++)
        if (addr < m->sh_holes[i][1] && addr + n > m->sh_holes[i][0])
            for (int k = 0; k < m->nsvars; k++)
                if (m->svars[k].addr == m->sh_holes[i][0] && m->svars[k].size)
                    return m->svars[k].sym;
    return NULL;
}

/* ---- translation -----------------------------------------------------------------------------
 * Every checked access goes through mem_xlate; the warp-wide fast paths of exec_mem.c handle the
 * accesses that lie in one buffer and report to the same observers (exec_obs.c). */
static const char *mem_status_word(int status)
{
    return status == EXEC_ACC_MISALIGNED ? "misaligned" : "out-of-range";
}

uint8_t *mem_bad(exec_warp *w, const exec_insn *in, int lane, ptx_space osp, ptx_space sp,
                 uint64_t addr, uint32_t size, int kind, int status, const char *why)
{
    exec_machine *m = w->m;
    int flags = ((kind >> 8) & 0xff) | (osp == PTX_SPACE_GENERIC ? EXEC_ACC_F_GENERIC : 0);
    kind &= 0xff;
    if (status == EXEC_ACC_OOB && sp == PTX_SPACE_GLOBAL) {
        mem_region *r = mem_global_find_pad(&m->glob, addr, size);
        if (r) {
            /* outside the allocation, inside what a GPU maps for it: it completes there */
            if (m->is_worker) {
                exec_par_defer(w, in, "an access outside an allocation");
                return NULL;
            }
            uint8_t *host = r->data + (addr - r->base);
            m->pad_hits++;
            if ((m->obs_want & EXEC_OBS_BAD) &&
                exec_obs_lane(w, in, lane, sp, addr, size, kind, EXEC_ACC_PAD, flags, r,
                              host))
                return NULL;
            return host;
        }
    }
    if (m->is_worker) {   /* one thread reports it, with every observer (exec_obs.h) */
        exec_par_defer(w, in, "a fault");
        return NULL;
    }
    if (status == EXEC_ACC_READONLY) {
        exec_fault(w, in, EXEC_EXC_READONLY, lane, sp, addr, size,
                   "store to read-only %s space at 0x%" PRIx64,
                   sp == PTX_SPACE_CONST ? "const" : "kernel parameter", addr);
    } else if (status == EXEC_ACC_MISALIGNED) {
        exec_fault(w, in, EXEC_EXC_MISALIGNED, lane, osp, osp == PTX_SPACE_GENERIC ?
                   mem_generic_encode(sp, addr) : addr, size,
                   "misaligned %s access of %u bytes at 0x%" PRIx64, ptx_space_name(sp), size,
                   osp == PTX_SPACE_GENERIC ? mem_generic_encode(sp, addr) : addr);
    } else {
        char d[440];   /* a freed allocation's description names where it was freed */
        mem_describe(m, sp, addr, d, sizeof d);
        exec_fault(w, in, EXEC_EXC_OUT_OF_RANGE, lane, sp, addr, size,
                   "%s %s %s of %u bytes at 0x%" PRIx64 " (%s)%s%s", mem_status_word(status),
                   ptx_space_name(sp), "access", size, addr, d, why ? ": " : "",
                   why ? why : "");
    }
    if (m->obs_want & EXEC_OBS_BAD)
        exec_obs_lane(w, in, lane, sp, addr, size, kind, status, flags,
                      sp == PTX_SPACE_GLOBAL ? mem_global_find_pad(&m->glob, addr, 1) : NULL,
                      NULL);
    return NULL;
}

uint8_t *mem_xlate(exec_warp *w, const exec_insn *in, int lane, ptx_space sp, uint64_t addr,
                   uint32_t size, int kind)
{
    exec_machine *m = w->m;
    uint8_t *host;
    mem_region *r = NULL;
    ptx_space osp = sp;
    int write = (kind & 0xff) != EXEC_ACC_READ;
    if (sp == PTX_SPACE_GENERIC)
        sp = mem_generic_decode(addr, &addr);
    if ((size & (size - 1)) == 0 && (addr & (size - 1)))
        return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_MISALIGNED, NULL);
    switch (sp) {
    case PTX_SPACE_GLOBAL:
        r = mem_global_find(&m->glob, addr, size);
        if (!r) {
            /* constant memory is device memory: a __constant__ variable's address (the const
             * window, as cudaGetSymbolAddress gives it) read through a global pointer reads
             * the module's bank. Bits 24..31 of the window offset may carry a module tag
             * (mem.h): the machine has one bank, its own. */
            if (addr >= MEM_WIN_CONST && addr - MEM_WIN_CONST < MEM_WIN_SIZE) {
                uint64_t off = (addr - MEM_WIN_CONST) & MEM_CONST_OFF_MASK;
                if (write)
                    return mem_bad(w, in, lane, osp, PTX_SPACE_CONST, off, size, kind,
                                   EXEC_ACC_READONLY, NULL);
                if (off <= m->cbank_size && m->cbank_size - off >= size) {
                    sp = PTX_SPACE_CONST;
                    addr = off;
                    host = m->cbank + off;
                    break;
                }
            }
            return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_OOB, NULL);
        }
        host = r->data + (addr - r->base);
        break;
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER:
        if (addr > w->cta->shared_size || w->cta->shared_size - addr < size) {
            if ((host = exec_smem_res(w->cta, addr, size)))   /* the system's 1 KB */
                break;
            if (m->cl && addr >= MEM_SHCL_BASE) {   /* a CTA of the cluster (exec_cluster.c) */
                if (!(host = exec_cluster_shared(w, in, lane, addr, size)))
                    return NULL;
                break;
            }
            return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_OOB,
                           "outside the CTA's shared memory");
        }
        if (m->sh_nholes) {
            const ptx_sym *o = mem_shared_hole(m, addr, size);
            if (o) {
                char why[400];
                snprintf(why, sizeof why, "%s is another kernel's shared variable, not part of "
                         "%s's shared memory", o->name, m->li.kernel->sym->name);
                return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_OOB, why);
            }
        }
        host = w->cta->shared + addr;
        break;
    case PTX_SPACE_LOCAL:
        if (addr < w->lsp[lane])
            return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_OOB,
                           "below the thread's stack pointer (stack memory not allocated, or "
                           "already freed)");
        if (!mem_local_ok(w, lane, addr, size))
            return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_OOB,
                           "above the thread's stack top");
        host = mem_local_host(w, lane, addr);
        break;
    case PTX_SPACE_CONST:
        if (write)
            return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_READONLY, NULL);
        if (addr > m->cbank_size || m->cbank_size - addr < size)
            return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_OOB, NULL);
        host = m->cbank + addr;
        break;
    case PTX_SPACE_PARAM:
        if (write)
            return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_READONLY, NULL);
        if (addr > m->kparam_size || m->kparam_size - addr < size)
            return mem_bad(w, in, lane, osp, sp, addr, size, kind, EXEC_ACC_OOB, NULL);
        host = m->kparams + addr;
        break;
    default:
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, lane, sp, addr, size,
                   "access to unsupported state space %s", ptx_space_name(sp));
        return NULL;
    }
    if (__builtin_expect((m->obs_spaces >> sp) & 1, 0) &&
        exec_obs_lane(w, in, lane, sp, addr, size, kind & 0xff, EXEC_ACC_OK,
                      ((kind >> 8) & 0xff) | (osp == PTX_SPACE_GENERIC ? EXEC_ACC_F_GENERIC : 0),
                      r, host))
        return NULL;
    return host;
}

/* Push `size` bytes aligned to `align` on a lane's stack (it grows down, mem.h): the stack
 * pointer becomes the block's base, returned in *base. */
int mem_local_push(exec_warp *w, const exec_insn *in, int lane, uint64_t size, uint32_t align,
                   uint64_t *base)
{
    uint64_t a = align ? align : 1, sp = w->lsp[lane];
    if (size > sp) {
        exec_fault(w, in, EXEC_EXC_STACK_OVERFLOW, lane, PTX_SPACE_LOCAL, sp, (uint32_t)size,
                   "stack overflow: %" PRIu64 " bytes of local memory needed, limit %u",
                   MEM_LOCAL_TOP - sp + size, (unsigned)MEM_LOCAL_MAX);
        return -1;
    }
    uint64_t nb = (sp - size) / a * a;
    uint64_t need = MEM_LOCAL_TOP - nb;
    if (need > w->lcap[lane]) {
        uint64_t oc = w->lcap[lane], nc = oc ? oc : 256;
        while (nc < need)
            nc *= 2;
        uint8_t *buf = realloc(w->ldata[lane], nc);
        if (!buf) {
            exec_fault(w, in, EXEC_EXC_STACK_OVERFLOW, lane, PTX_SPACE_LOCAL, nb,
                       (uint32_t)size, "out of host memory for the local stack");
            return -1;
        }
        /* the stack's bytes stay at the high end of the buffer */
        memmove(buf + (nc - oc), buf, oc);
        memset(buf, 0, nc - oc);
        w->ldata[lane] = buf;
        w->lcap[lane] = (uint32_t)nc;
    }
    w->lsp[lane] = nb;
    *base = nb;
    exec_machine *m = w->m;
    if (__builtin_expect(m->fill != 0, 0))   /* set fill: a fresh frame holds the pattern */
        memset(mem_local_host(w, lane, nb), exec_fill_byte(m), sp - nb);
    if (EXEC_OBS_SYNC_ON(m)) {
        exec_sync_ev ev = { .kind = EXEC_SYNC_LOCAL_FRAME, .cta = w->cta->id, .warp = w->id,
                            .pc = in ? in->pc : w->cur_pc, .lanes = 1u << lane, .addr = nb,
                            .size = sp - nb, .what = "frame" };
        exec_obs_sync_ev(m, &ev);
    }
    return 0;
}

/* Host pointer for the inspection API (no faults, no watchpoints). */
uint8_t *mem_host(exec_machine *m, ptx_space sp, uint64_t addr, uint64_t n, exec_warp *w,
                  int lane, int write)
{
    if (sp == PTX_SPACE_GENERIC)
        sp = mem_generic_decode(addr, &addr);
    switch (sp) {
    case PTX_SPACE_GLOBAL: {
        mem_region *r = mem_global_find(&m->glob, addr, n);
        return r ? r->data + (addr - r->base) : NULL;
    }
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER:
        if (m->cl && addr >= MEM_SHCL_BASE)
            return exec_cluster_shared_host(m, addr, n);
        if (m->cta_live && addr >= EXEC_SMEM_RES_BASE)
            return exec_smem_res(&m->cta, addr, n);
        if (!m->cta_live || addr > m->cta.shared_size || m->cta.shared_size - addr < n ||
            (m->sh_nholes && mem_shared_hole(m, addr, n)))
            return NULL;
        return m->cta.shared + addr;
    case PTX_SPACE_LOCAL:
        if (!w || !mem_local_ok(w, lane, addr, n))
            return NULL;
        return mem_local_host(w, lane, addr);
    case PTX_SPACE_CONST:
        if (addr > m->cbank_size || m->cbank_size - addr < n)
            return NULL;
        (void)write;
        return m->cbank + addr;
    case PTX_SPACE_PARAM:
        if (!m->kparams || addr > m->kparam_size || m->kparam_size - addr < n)
            return NULL;
        return m->kparams + addr;
    default:
        return NULL;
    }
}
