/* dbg_faultaddr.c - a faulting address in words: its space, the nearest allocation, variable, stack or parameter, and how far outside it lies. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

/* A variable's display name; function-scope statics "_ZZ<function>E<len><name>" become
 * "function::name". */
static void var_name(const char *mangled, char *out, size_t n)
{
    const char *e = strncmp(mangled, "_ZZ", 3) == 0 ? strrchr(mangled, 'E') : NULL;
    if (e) {
        char *end;
        long len = strtol(e + 1, &end, 10);
        if (len > 0 && end > e + 1 && (long)strlen(end) == len) {
            char enc[256], base[256];
            snprintf(enc, sizeof enc, "_Z%.*s", (int)(e - mangled - 3) & 0xff, mangled + 3);
            if (dbg_demangle(enc, base, sizeof base, 1) != 0)
                snprintf(base, sizeof base, "%s", enc);
            size_t bl = strlen(base), el = strlen(end);
            if (bl + el + 3 <= n) {
                memcpy(out, base, bl);
                memcpy(out + bl, "::", 2);
                memcpy(out + bl + 2, end, el + 1);
            } else {
                snprintf(out, n, "%s", end);
            }
            return;
        }
    }
    if (dbg_demangle(mangled, out, n, 1) != 0)
        snprintf(out, n, "%s", mangled);
}

/* "D bytes after the end of NAME [0xbase, N bytes)" style relation of addr to [base, base+size). */
static void relation(uint64_t a, uint64_t base, uint64_t size, const char *name, char *out,
                     size_t n)
{
    if (a < base)
        snprintf(out, n, "%" PRIu64 " bytes before the start of %s [0x%" PRIx64 ", %" PRIu64
                 " bytes)", base - a, name, base, size);
    else if (a >= base + size)
        snprintf(out, n, "%" PRIu64 " bytes after the end of %s [0x%" PRIx64 ", %" PRIu64
                 " bytes)", a - (base + size), name, base, size);
    else
        snprintf(out, n, "inside %s at offset %" PRIu64 " [0x%" PRIx64 ", %" PRIu64 " bytes)",
                 name, a - base, base, size);
}

static uint64_t dist(uint64_t a, uint64_t base, uint64_t size)
{
    return a < base ? base - a : a < base + size ? 0 : a - (base + size) + 1;
}

/* Where a faulting address is: its space, the nearest buffer or symbol and how far outside. */
void dbg_fault_addr_text(dbg_session *s, const exec_stop *st, char *out, size_t n)
{
    exec_machine *m = s->m;
    const ptx_module *mod = s->mod;
    if (!m || !mod) {
        snprintf(out, n, "%s address 0x%" PRIx64 " (%u bytes)", dbg_space_name(st->space), st->addr, st->size);
        return;
    }
    ptx_space sp = st->space;
    uint64_t a = st->addr;
    size_t k = 0;
    out[0] = 0;
    if (sp == PTX_SPACE_GENERIC) {
        sp = exec_addr_decode(st->addr, &a);
        if (sp != PTX_SPACE_GLOBAL)
            k += (size_t)snprintf(out, n, "generic address 0x%" PRIx64 " is %s address 0x%" PRIx64
                              "; ", st->addr, dbg_space_name(sp), a);
    }
    char rel[512] = "";
    switch (sp) {
    case PTX_SPACE_GLOBAL: {
        exec_region_info best = {0}, ri;
        uint64_t bd = UINT64_MAX;
        for (int i = 0; exec_global_region(m, i, &ri) == 0; i++) {
            uint64_t d = dist(a, ri.base, ri.size);
            if (d < bd) {
                bd = d;
                best = ri;
            }
        }
        if (bd && dbg_freed_describe(m, a, rel, sizeof rel))
            break;   /* memory the program released: where it was freed */
        if (bd == UINT64_MAX) {
            snprintf(rel, sizeof rel, "no global buffer exists");
            break;
        }
        char name[300];
        const char *bname = NULL;
        for (int i = 0; i < dbg_buffer_count(s); i++)
            if (dbg_buffer_at(s, i)->addr == best.base)
                bname = dbg_buffer_at(s, i)->name;
        if (bname) {
            snprintf(name, sizeof name, "buffer %s", bname);
        } else if (best.name && best.kind == 1) {   /* a module variable */
            char vn[256];
            var_name(best.name, vn, sizeof vn);
            snprintf(name, sizeof name, "variable %s", vn);
        } else if (best.name) {   /* a buffer from a core, or the runtime's "cudaMalloc#3" */
            snprintf(name, sizeof name, "%s%s", best.kind == 2 ? "buffer " : "", best.name);
        } else {
            snprintf(name, sizeof name, "%s #%u", best.kind == 3 ? "device heap block"
                                                                 : "allocation", best.id);
        }
        relation(a, best.base, best.size, name, rel, sizeof rel);
        break;
    }
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER: {
        uint64_t total = exec_shared_size(m);
        size_t r = 0;
        if (a + st->size > total)
            r += (size_t)snprintf(rel, sizeof rel, "%" PRIu64 " bytes past the end of the "
                                  "block's shared memory (%" PRIu64 " bytes)",
                                  a >= total ? a - total : 0, total);
        exec_shared_var vars[64];
        int nv = exec_shared_layout(m, vars, 64, NULL, NULL, NULL);
        const exec_shared_var *best = NULL;
        for (int i = 0; i < nv && i < 64; i++)
            if (vars[i].addr <= a && (!best || vars[i].addr >= best->addr))
                best = &vars[i];
        if (best && r < sizeof rel) {
            char vn[256], nm[300];
            var_name(best->sym->name, vn, sizeof vn);
            snprintf(nm, sizeof nm, "%s", vn);
            char t[400];
            relation(a, best->addr, best->size, nm, t, sizeof t);
            snprintf(rel + r, sizeof rel - r, "%s%s", r ? "; " : "", t);
        }
        break;
    }
    case PTX_SPACE_LOCAL: {
        uint64_t sp, top;
        if (exec_local_stack(m, st->cta, st->warp, st->lane, &sp, &top) != 0)
            break;
        if (a + st->size > top)
            snprintf(rel, sizeof rel, "%" PRIu64 " bytes above the thread's stack top (%" PRIu64
                     " bytes of local memory in use)", a >= top ? a - top : 0, top - sp);
        else if (a < sp)
            snprintf(rel, sizeof rel, "%" PRIu64 " bytes below the thread's stack pointer: not "
                     "allocated or already freed (%" PRIu64 " bytes of local memory in use)",
                     sp - a, top - sp);
        else
            snprintf(rel, sizeof rel, "inside the thread's local memory (%" PRIu64 " bytes in "
                     "use)", top - sp);
        break;
    }
    case PTX_SPACE_CONST: {
        uint64_t bd = UINT64_MAX, bb = 0, bs = 0;
        const char *bn = NULL;
        for (int i = 0; i < mod->nvars; i++) {
            ptx_space vs;
            uint64_t va, vz;
            if (mod->vars[i]->space != PTX_SPACE_CONST ||
                exec_symbol_addr(m, mod->vars[i]->name, &vs, &va, &vz) != 0)
                continue;
            uint64_t d = dist(a, va, vz);
            if (d < bd) {
                bd = d;
                bb = va;
                bs = vz;
                bn = mod->vars[i]->name;
            }
        }
        if (bn) {
            char vn[256];
            var_name(bn, vn, sizeof vn);
            relation(a, bb, bs, vn, rel, sizeof rel);
        }
        break;
    }
    case PTX_SPACE_PARAM: {
        const exec_launch_info *li = dbg_launch_info(s);
        if (!li)
            break;
        uint64_t offs[64], sizes[64];
        int64_t total = exec_param_layout(li->kernel, offs, sizes, 64);
        int best = -1;
        uint64_t bd = UINT64_MAX;
        for (int i = 0; i < li->kernel->nparams && i < 64; i++) {
            uint64_t d = dist(a, offs[i], sizes[i]);
            if (d < bd) {
                bd = d;
                best = i;
            }
        }
        if (best >= 0) {
            const char *pn = li->kernel->params[best]->name, *u = strstr(pn, "_param_");
            char nm[300];
            snprintf(nm, sizeof nm, "parameter %s", u ? u + 1 : pn);
            relation(a, offs[best], sizes[best], nm, rel, sizeof rel);
            size_t r = strlen(rel);
            snprintf(rel + r, sizeof rel - r, "; the kernel's parameters are %" PRId64 " bytes",
                     total);
        }
        break;
    }
    default:
        break;
    }
    const char *why = st->exc == EXEC_EXC_OUT_OF_RANGE ? "out-of-range access to "
                      : st->exc == EXEC_EXC_MISALIGNED ? "misaligned access to "
                      : st->exc == EXEC_EXC_READONLY   ? "store to read-only "
                                                       : "";
    snprintf(out + k, n - k, "%s%s address 0x%" PRIx64 " (%u bytes)%s%s", why,
             dbg_space_name(sp), a, st->size, rel[0] ? ": " : "", rel);
}

