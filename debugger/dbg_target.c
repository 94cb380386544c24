/* dbg_target.c - a program's runtime's targets: fat binaries, loading, kernels, variables, memory, settings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_target.h"
#include "dbg_tgt.h"
#include "exec.h"
#include "mem.h"
#include "ptx.h"

/* ---- fat binaries ------------------------------------------------------------------------------ */
_Static_assert(DBG_FATBIN_MAGIC == PTX_FATBIN_MAGIC, "one fat binary magic");

size_t dbg_fatbin_size(const void *image, size_t maxlen)
{
    return ptx_fatbin_size(image, maxlen);
}

int dbg_fatbin_ptx(const void *image, size_t len, unsigned cc, char **ptx, size_t *ptx_len,
                   char *err, size_t errlen)
{
    return ptx_fatbin_ptx(image, len, cc, ptx, ptx_len, err, errlen);
}

int dbg_fatbin_sass(const void *image, size_t len, unsigned cc, uint8_t **elf, size_t *elf_len,
                    char *err, size_t errlen)
{
    return ptx_fatbin_sass(image, len, cc, elf, elf_len, err, errlen);
}

/* ---- linked PTX ---------------------------------------------------------------------------------
 * A function called (or whose address is taken) without a body in the module that the engine
 * does not provide either; NULL when every one resolves. */
static const char *tgt_unresolved(const ptx_module *pm)
{
    for (int i = 0; i < pm->nfuncs; i++)
        for (int j = 0; j < pm->funcs[i]->ninsns; j++) {
            const ptx_insn *in = &pm->funcs[i]->insns[j];
            for (int k = 0; k < in->nops; k++) {
                const ptx_sym *s = in->ops[k].kind == PTX_OP_SYM ? in->ops[k].sym : NULL;
                if (!s || s->kind != PTX_SYM_FUNC || exec_libc_known(s->name))
                    continue;
                const ptx_func *def = ptx_find_func(pm, s->name);
                if (!def || (!def->has_body && !def->is_prototype))
                    return s->name;
            }
        }
    return NULL;
}

int dbg_ptx_check_linked(const char *text, size_t len, const char *name, char *err,
                         size_t errlen)
{
    ptx_error pe;
    ptx_module *pm = ptx_parse(text, len, name, &pe);
    if (!pm) {
        snprintf(err, errlen, "%s", pe.msg);
        return -1;
    }
    const char *undef = tgt_unresolved(pm);
    if (undef)
        snprintf(err, errlen, "unresolved extern function '%s'", undef);
    ptx_module_free(pm);
    return undef ? 1 : 0;
}

/* ---- loading ----------------------------------------------------------------------------------- */
dbg_target *dbg_target_load(const char *text, size_t len, const char *name,
                            uint64_t global_base, uint64_t global_limit, dbg_target_err *kind,
                            char *err, size_t errlen)
{
    dbg_target_err k = DBG_TARGET_OK;
    dbg_target *t = calloc(1, sizeof *t);
    ptx_error pe;
    if (!t) {
        k = DBG_TARGET_ERR_NOMEM;
        snprintf(err, errlen, "out of memory");
    } else if (!(t->pm = ptx_parse(text, len, name, &pe))) {
        k = pe.kind == PTX_ERR_VERSION ? DBG_TARGET_ERR_VERSION : DBG_TARGET_ERR_PTX;
        snprintf(err, errlen, "%s", pe.msg);
    } else {
        t->m = global_base ? exec_new_at(t->pm, global_base, global_limit, err, errlen)
                           : exec_new(t->pm, err, errlen);
        if (!t->m)
            k = DBG_TARGET_ERR_LOAD;
    }
    if (kind)
        *kind = k;
    if (k != DBG_TARGET_OK) {
        if (t && t->pm)
            ptx_module_free(t->pm);
        free(t);
        return NULL;
    }
    return t;
}

void dbg_target_free(dbg_target *t)
{
    if (!t)
        return;
    exec_free(t->m);
    ptx_module_free(t->pm);
    free(t);
}

const char *dbg_target_errmsg(const dbg_target *t)
{
    return exec_errmsg(t->m);
}

ptx_module *dbg_target_module(const dbg_target *t)
{
    return t->pm;
}

exec_machine *dbg_target_machine(const dbg_target *t)
{
    return t->m;
}

/* ---- kernels ----------------------------------------------------------------------------------- */
static int tgt_is_kernel(const ptx_func *f)
{
    return f->is_entry && f->has_body;
}

const ptx_func *dbg_target_kernel(const dbg_target *t, const char *name)
{
    for (int i = 0; i < t->pm->nfuncs; i++)
        if (tgt_is_kernel(t->pm->funcs[i]) && !strcmp(t->pm->funcs[i]->sym->name, name))
            return t->pm->funcs[i];
    return NULL;
}

int dbg_target_kernels(const dbg_target *t, const char **names, int max)
{
    int n = 0;
    for (int i = 0; i < t->pm->nfuncs; i++)
        if (tgt_is_kernel(t->pm->funcs[i])) {
            if (names && n < max)
                names[n] = t->pm->funcs[i]->sym->name;
            n++;
        }
    return n;
}

int dbg_kernel_info_get(const dbg_target *t, const ptx_func *k, dbg_kernel_info *ki)
{
    memset(ki, 0, sizeof *ki);
    if (!k || !tgt_is_kernel(k))
        return -1;
    ki->name = k->sym->name;
    ki->nparams = k->nparams;
    int64_t pb = exec_param_layout(k, NULL, NULL, 0);
    ki->param_bytes = pb > 0 ? (uint64_t)pb : 0;
    memcpy(ki->maxntid, k->maxntid, sizeof ki->maxntid);
    memcpy(ki->reqntid, k->reqntid, sizeof ki->reqntid);
    memcpy(ki->reqnctapercluster, k->reqnctapercluster, sizeof ki->reqnctapercluster);
    ki->minnctapersm = k->minnctapersm;
    ki->maxclusterrank = k->maxclusterrank;
    ki->explicitcluster = k->explicitcluster;
    /* the virtual architecture the PTX was compiled for (.target sm_80 -> 80) */
    if (t->pm->target && !strncmp(t->pm->target, "sm_", 3))
        ki->target_sm = atoi(t->pm->target + 3);
    exec_kres kr;
    if (exec_kernel_resources(t->pm, k, &kr) == 0) {
        ki->shared_static = kr.shared_static;
        ki->const_bytes = kr.const_bytes;
        ki->local_bytes = kr.local_bytes;
        ki->barriers = kr.barriers;
    }
    return 0;
}

int64_t dbg_kernel_param_layout(const ptx_func *k, uint64_t *offsets, uint64_t *sizes,
                                int max)
{
    return exec_param_layout(k, offsets, sizes, max);
}

int dbg_kernel_regs(const dbg_target *t, const ptx_func *k)
{
    return exec_kernel_regs(t->pm, k);
}

/* ---- variables and memory ---------------------------------------------------------------------- */
int dbg_target_var(dbg_target *t, const char *name, dbg_var_info *vi)
{
    memset(vi, 0, sizeof *vi);
    if (exec_symbol_addr(t->m, name, &vi->space, &vi->addr, &vi->size))
        return -1;
    const ptx_sym *ps = ptx_find_var(t->pm, name);
    vi->managed = ps && (ps->flags & PTX_ATTR_MANAGED) && vi->space == PTX_SPACE_GLOBAL;
    if (vi->size)
        vi->host = vi->space == PTX_SPACE_CONST ? exec_const_host(t->m, vi->addr, vi->size)
                   : vi->space == PTX_SPACE_GLOBAL ? exec_global_host(t->m, vi->addr, vi->size)
                                                   : NULL;
    return 0;
}

int dbg_target_map(dbg_target *t, uint64_t base, uint64_t size, void *data, const char *name,
                   uint64_t pad, int host_shared)
{
    if (exec_global_map(t->m, base, size, data, name))
        return -1;
    if (pad)
        exec_global_set_pad(t->m, base, pad);
    if (host_shared)
        exec_global_set_host(t->m, base, 1);
    return 0;
}

int dbg_target_unmap(dbg_target *t, uint64_t base)
{
    return exec_global_unmap(t->m, base);
}

void dbg_target_share_vars(dbg_target *to, const dbg_target *from, int on)
{
    exec_region_info ri;
    for (int i = 0; exec_global_region(from->m, i, &ri) == 0; i++) {
        if (ri.kind != 1 || !ri.size)   /* module variables only */
            continue;
        if (!on) {
            exec_global_unmap(to->m, ri.base);
            continue;
        }
        void *data = exec_global_host(from->m, ri.base, ri.size);
        if (data)
            exec_global_map(to->m, ri.base, ri.size, data, ri.name);
    }
}

void *dbg_target_global_host(dbg_target *t, uint64_t addr, uint64_t n)
{
    return exec_global_host(t->m, addr, n);
}

void *dbg_target_const_host(dbg_target *t, uint64_t off, uint64_t n)
{
    return exec_const_host(t->m, off, n);
}

/* ---- the address model ------------------------------------------------------------------------- */
uint64_t dbg_addr_padding(uint64_t size)
{
    return exec_alloc_padding(size);
}

int dbg_addr_reserved(int i, uint64_t *base, uint64_t *size)
{
    switch (i) {
    case 0:   /* the generic windows: shared, local, const, param */
        *base = MEM_WIN_SHARED;
        *size = MEM_WIN_PARAM + MEM_WIN_SIZE - MEM_WIN_SHARED;
        return 0;
    case 1:   /* function addresses */
        *base = MEM_CODE_BASE;
        *size = 1ull << 30;
        return 0;
    default:
        return -1;
    }
}

uint64_t dbg_addr_const(unsigned tag, uint64_t off)
{
    return MEM_WIN_CONST + ((uint64_t)(tag & 0xff) << MEM_CONST_TAG_SHIFT) + off;
}

int dbg_addr_const_decode(uint64_t addr, unsigned *tag, uint64_t *off)
{
    if (addr < MEM_WIN_CONST || addr - MEM_WIN_CONST >= MEM_WIN_SIZE)
        return -1;
    uint64_t rel = addr - MEM_WIN_CONST;
    if (tag)
        *tag = (unsigned)(rel >> MEM_CONST_TAG_SHIFT);
    if (off)
        *off = rel & MEM_CONST_OFF_MASK;
    return 0;
}

/* ---- settings ---------------------------------------------------------------------------------- */
void dbg_target_set_heap_limit(dbg_target *t, uint64_t bytes)
{
    exec_set_heap_limit(t->m, bytes);
}

int dbg_target_set_threads(dbg_target *t, int n)
{
    return exec_set_threads(t->m, n);
}

void dbg_target_set_output(dbg_target *t, FILE *out)
{
    exec_set_output(t->m, out);
}

void dbg_target_set_freed_describer(dbg_target *t, dbg_freed_fn fn, void *ctx)
{
    exec_set_freed_describer(t->m, fn, ctx);
}
