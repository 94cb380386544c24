/* dw_sect.c - pc numbering, the address model's symbol table, .section reassembly, LEB128. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dw_int.h"

/* ---- warnings and ownership ------------------------------------------------------------- */
void dw_warn(dw_info *d, const char *fmt, ...)
{
    d->nwarn++;
    if (!d->warn || d->warn_n == 0 || d->nwarn > 20)
        return;
    if (d->warn_len + 1 >= d->warn_n)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *p = d->warn + d->warn_len;
    size_t room = d->warn_n - d->warn_len;
    int k = snprintf(p, room, "warning: ");
    if (k > 0 && (size_t)k < room) {
        int j = vsnprintf(p + k, room - (size_t)k, fmt, ap);
        if (j > 0)
            k += j;
    }
    va_end(ap);
    if (k < 0)
        k = 0;
    size_t w = (size_t)k < room ? (size_t)k : room - 1;
    d->warn_len += w;
    if (d->warn_len + 1 < d->warn_n) {
        d->warn[d->warn_len++] = '\n';
        d->warn[d->warn_len] = 0;
    }
    if (d->nwarn == 20 && d->warn_len + 32 < d->warn_n)
        d->warn_len += (size_t)snprintf(d->warn + d->warn_len, d->warn_n - d->warn_len,
                                        "warning: (more warnings omitted)\n");
}

void *dw_alloc(dw_info *d, size_t n)
{
    if (d->nblocks == d->capblocks) {
        int nc = d->capblocks ? d->capblocks * 2 : 256;
        void **nb = realloc(d->blocks, (size_t)nc * sizeof *nb);
        if (!nb)
            return NULL;
        d->blocks = nb;
        d->capblocks = nc;
    }
    void *p = calloc(1, n ? n : 1);
    if (p)
        d->blocks[d->nblocks++] = p;
    return p;
}

char *dw_strdup(dw_info *d, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = dw_alloc(d, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* ---- LEB128, register names, address classes ------------------------------------------- */
size_t dw_uleb(const uint8_t *p, size_t n, uint64_t *v)
{
    uint64_t r = 0;
    unsigned shift = 0;
    for (size_t i = 0; i < n; i++) {
        if (shift < 64)
            r |= (uint64_t)(p[i] & 0x7f) << shift;
        shift += 7;
        if (!(p[i] & 0x80)) {
            *v = r;
            return i + 1;
        }
    }
    return 0;
}

size_t dw_sleb(const uint8_t *p, size_t n, int64_t *v)
{
    uint64_t r = 0;
    unsigned shift = 0;
    for (size_t i = 0; i < n; i++) {
        if (shift < 64)
            r |= (uint64_t)(p[i] & 0x7f) << shift;
        shift += 7;
        if (!(p[i] & 0x80)) {
            if (shift < 64 && (p[i] & 0x40))
                r |= ~(uint64_t)0 << shift;
            *v = (int64_t)r;
            return i + 1;
        }
    }
    return 0;
}

int dw_regname_unpack(uint64_t v, char *buf, size_t n)
{
    char tmp[9];
    int k = 0;
    while (v && k < 8) {
        tmp[k++] = (char)(v & 0xff);
        v >>= 8;
    }
    if (v || k < 2)
        return -1;
    /* bytes are most significant first: reverse */
    char name[9];
    for (int i = 0; i < k; i++)
        name[i] = tmp[k - 1 - i];
    name[k] = 0;
    if (name[0] != '%')
        return -1;
    for (int i = 1; i < k; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || c == '.'))
            return -1;
    }
    if ((size_t)k + 1 > n)
        return -1;
    memcpy(buf, name, (size_t)k + 1);
    return 0;
}

ptx_space dw_addr_class_space(int ac)
{
    switch (ac) {
    case 2: return PTX_SPACE_REG;
    case 4: return PTX_SPACE_CONST;
    case 5: return PTX_SPACE_GLOBAL;
    case 6: return PTX_SPACE_LOCAL;
    case 7: return PTX_SPACE_PARAM;
    case 8: return PTX_SPACE_SHARED;
    case 12: return PTX_SPACE_GENERIC;
    default: return PTX_SPACE_NONE;
    }
}

/* ---- pcs ---------------------------------------------------------------------------------- */
int dw_build_pcs(dw_info *d)
{
    const ptx_module *m = d->m;
    uint64_t n = 0;
    d->func_first = dw_alloc(d, sizeof(uint32_t) * (size_t)(m->nfuncs + 1));
    if (!d->func_first)
        return -1;
    for (int i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = m->funcs[i];
        if (f && f->has_body && !f->is_prototype) {
            d->func_first[i] = (uint32_t)n;
            n += (uint64_t)(f->ninsns > 0 ? f->ninsns : 0);
        } else {
            d->func_first[i] = UINT32_MAX;
        }
    }
    if (n > UINT32_MAX / 2)
        return -1;
    d->npcs = (uint32_t)n;
    d->pc_func = dw_alloc(d, sizeof(*d->pc_func) * (size_t)(n + 1));
    if (!d->pc_func)
        return -1;
    for (int i = 0; i < m->nfuncs; i++) {
        if (d->func_first[i] == UINT32_MAX)
            continue;
        for (int j = 0; j < m->funcs[i]->ninsns; j++)
            d->pc_func[d->func_first[i] + (uint32_t)j] = m->funcs[i];
    }
    return 0;
}

uint32_t dw_npcs(const dw_info *d) { return d ? d->npcs : 0; }
const ptx_module *dw_module(const dw_info *d) { return d ? d->m : NULL; }
int dw_has_dwarf(const dw_info *d) { return d && d->has_dwarf; }

int dw_pc_insn(const dw_info *d, uint32_t pc, const ptx_func **f, const ptx_insn **in)
{
    if (!d || pc >= d->npcs)
        return -1;
    const ptx_func *fn = d->pc_func[pc];
    int fi = d->rows ? d->rows[pc].func : -1;
    if (fi < 0 || fi >= d->m->nfuncs || d->m->funcs[fi] != fn)
        for (fi = 0; fi < d->m->nfuncs && d->m->funcs[fi] != fn; fi++)
            ;
    if (fi >= d->m->nfuncs)
        return -1;
    if (f)
        *f = fn;
    if (in)
        *in = &fn->insns[pc - d->func_first[fi]];
    return 0;
}

int64_t dw_func_first_pc(const dw_info *d, const ptx_func *f)
{
    if (!d || !f)
        return -1;
    for (int i = 0; i < d->m->nfuncs; i++)
        if (d->m->funcs[i] == f)
            return d->func_first[i] == UINT32_MAX ? -1 : (int64_t)d->func_first[i];
    return -1;
}

/* ---- symbols ------------------------------------------------------------------------------ */
static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}

const dw_symbol *dw_symbol_find(const dw_info *d, const char *name)
{
    if (!d->sym_hash || !name)
        return NULL;
    uint32_t mask = (uint32_t)d->hash_size - 1;
    for (uint32_t h = hash_str(name) & mask;; h = (h + 1) & mask) {
        int i = d->sym_hash[h];
        if (i < 0)
            return NULL;
        if (strcmp(d->syms[i].name, name) == 0)
            return &d->syms[i];
    }
}

static int sym_add(dw_info *d, int cap, const char *name, dw_symkind kind, uint64_t addr,
                   const ptx_sym *sym, int sect)
{
    if (!name || dw_symbol_find(d, name) || d->nsyms >= cap)
        return 0;   /* first declaration wins */
    int i = d->nsyms++;
    dw_symbol *s = &d->syms[i];
    s->name = name;
    s->kind = kind;
    s->sym = sym;
    s->sect = sect;
    if (kind == DW_SK_DATA) {
        s->addr = DW_SYMADDR(d->ndata_syms, 0);
        d->data_syms[d->ndata_syms++] = i;
    } else {
        s->addr = addr;
    }
    uint32_t mask = (uint32_t)d->hash_size - 1;
    uint32_t h = hash_str(name) & mask;
    while (d->sym_hash[h] >= 0)
        h = (h + 1) & mask;
    d->sym_hash[h] = i;
    return 0;
}

static void add_func_syms(dw_info *d, int cap, int fi)
{
    const ptx_func *f = d->m->funcs[fi];
    uint32_t first = d->func_first[fi];
    if (f->sym) {
        if (first != UINT32_MAX)
            sym_add(d, cap, f->sym->name, DW_SK_CODE, first, f->sym, -1);
        else
            sym_add(d, cap, f->sym->name, DW_SK_DATA, 0, f->sym, -1);
    }
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i])
            sym_add(d, cap, f->params[i]->name, DW_SK_DATA, 0, f->params[i], -1);
    for (int i = 0; i < f->nrets; i++)
        if (f->rets[i])
            sym_add(d, cap, f->rets[i]->name, DW_SK_DATA, 0, f->rets[i], -1);
    for (int i = 0; i < f->nvars; i++)
        if (f->vars[i])
            sym_add(d, cap, f->vars[i]->name, DW_SK_DATA, 0, f->vars[i], -1);
    if (first != UINT32_MAX)
        for (int i = 0; i < f->nlabels; i++)
            if (f->labels[i])
                sym_add(d, cap, f->labels[i]->name, DW_SK_CODE,
                        first + (uint32_t)f->labels[i]->index, f->labels[i], -1);
}

int dw_build_symbols(dw_info *d)
{
    const ptx_module *m = d->m;
    size_t cap = (size_t)m->nvars + (size_t)m->nsections + 16;
    for (int i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = m->funcs[i];
        cap += 1 + (size_t)f->nparams + (size_t)f->nrets + (size_t)f->nvars + (size_t)f->nlabels;
    }
    for (int i = 0; i < m->nsections; i++)
        cap += (size_t)m->sections[i].nlabels;
    if (cap > (1u << 26))
        return -1;
    d->syms = dw_alloc(d, cap * sizeof *d->syms);
    d->data_syms = dw_alloc(d, cap * sizeof *d->data_syms);
    int hs = 64;
    while ((size_t)hs < cap * 2)
        hs *= 2;
    d->hash_size = hs;
    d->sym_hash = dw_alloc(d, (size_t)hs * sizeof *d->sym_hash);
    if (!d->syms || !d->data_syms || !d->sym_hash)
        return -1;
    for (int i = 0; i < hs; i++)
        d->sym_hash[i] = -1;
    int c = (int)cap;
    /* sections and their labels */
    for (int i = 0; i < d->nsects; i++)
        sym_add(d, c, d->sects[i].name, DW_SK_SECTION, 0, NULL, i);
    for (int i = 0; i < m->nsections; i++) {
        const ptx_section *s = &m->sections[i];
        for (int j = 0; j < s->nlabels; j++) {
            const ptx_sym *l = s->labels[j];
            if (!l)
                continue;
            int idx = l->index;
            if (idx < 0)
                idx = 0;
            if (idx > s->ndata)
                idx = s->ndata;
            sym_add(d, c, l->name, DW_SK_SECTLABEL, d->sects[i].datum_off[idx], l, i);
        }
    }
    for (int i = 0; i < m->nvars; i++)
        if (m->vars[i])
            sym_add(d, c, m->vars[i]->name, DW_SK_DATA, 0, m->vars[i], -1);
    for (int i = 0; i < m->nfuncs; i++)
        add_func_syms(d, c, i);
    return 0;
}

int dw_symaddr_decode(const dw_info *d, uint64_t addr, const char **sym, uint64_t *off)
{
    if (!d || (addr & DW_SYMADDR_TAG) != DW_SYMADDR_TAG)
        return -1;
    uint64_t k = ((addr & ~DW_SYMADDR_TAG) >> 32);
    if (k == 0 || k > (uint64_t)d->ndata_syms)
        return -1;
    if (sym)
        *sym = d->syms[d->data_syms[k - 1]].name;
    if (off)
        *off = addr & 0xffffffffu;
    return 0;
}

/* ---- sections ----------------------------------------------------------------------------- */
const dw_sect *dw_sect_find(const dw_info *d, const char *name)
{
    for (int i = 0; i < d->nsects; i++)
        if (d->sects[i].name && strcmp(d->sects[i].name, name) == 0)
            return &d->sects[i];
    return NULL;
}

int dw_section_bytes(const dw_info *d, const char *name, const uint8_t **data, size_t *len)
{
    if (!d || !name)
        return -1;
    const dw_sect *s = dw_sect_find(d, name);
    if (!s)
        return -1;
    if (data)
        *data = s->data;
    if (len)
        *len = s->len;
    return 0;
}

static int resolve(dw_info *d, const char *name, uint64_t *v)
{
    const dw_symbol *s = dw_symbol_find(d, name);
    if (!s) {
        /* a section that is referenced but not present (.debug_line in PTX) is offset 0 */
        if (name && name[0] == '.') {
            *v = 0;
            return 0;
        }
        *v = 0;
        return -1;
    }
    *v = s->addr;
    return 0;
}

/* Layout (datum offsets) of every section; bytes are filled by dw_fill_sections. */
static int layout_sections(dw_info *d)
{
    const ptx_module *m = d->m;
    d->nsects = m->nsections;
    if (!d->nsects)
        return 0;
    d->sects = dw_alloc(d, (size_t)d->nsects * sizeof *d->sects);
    if (!d->sects)
        return -1;
    for (int i = 0; i < m->nsections; i++) {
        const ptx_section *s = &m->sections[i];
        dw_sect *o = &d->sects[i];
        o->name = s->name;
        o->datum_off = dw_alloc(d, sizeof(size_t) * ((size_t)s->ndata + 1));
        if (!o->datum_off)
            return -1;
        size_t off = 0;
        for (int j = 0; j < s->ndata; j++) {
            o->datum_off[j] = off;
            int sz = s->data[j].size;
            if (sz != 1 && sz != 2 && sz != 4 && sz != 8)
                sz = sz <= 0 ? 1 : 8;
            off += (size_t)sz;
        }
        o->datum_off[s->ndata] = off;
        o->len = off;
        o->data = dw_alloc(d, off + 1);
        if (!o->data)
            return -1;
    }
    return 0;
}

static void fill_sections(dw_info *d)
{
    const ptx_module *m = d->m;
    int unresolved = 0;
    for (int i = 0; i < m->nsections; i++) {
        const ptx_section *s = &m->sections[i];
        dw_sect *o = &d->sects[i];
        for (int j = 0; j < s->ndata; j++) {
            const ptx_datum *x = &s->data[j];
            uint64_t v = 0, a = 0, b = 0;
            int bad = 0;
            switch (x->kind) {
            case PTX_DATUM_INT:
                v = x->value;
                break;
            case PTX_DATUM_SYM:
                bad = resolve(d, x->sym, &a);
                v = a + (uint64_t)x->addend;
                break;
            case PTX_DATUM_DIFF:
                bad = resolve(d, x->sym, &a) | resolve(d, x->sym2, &b);
                v = a - b + (uint64_t)x->addend;
                break;
            }
            if (bad && ++unresolved <= 3)
                dw_warn(d, "%s: unresolved symbol '%s' (line %d)", s->name ? s->name : "?",
                        x->kind == PTX_DATUM_SYM ? (x->sym ? x->sym : "?")
                                                 : (x->sym ? x->sym : "?"),
                        x->line);
            size_t off = o->datum_off[j];
            size_t sz = o->datum_off[j + 1] - off;
            for (size_t k = 0; k < sz; k++)
                o->data[off + k] = (uint8_t)(k < 8 ? v >> (8 * k) : 0);
        }
    }
}

int dw_assemble_sections(dw_info *d)
{
    if (layout_sections(d) < 0)
        return -1;
    if (dw_build_symbols(d) < 0)
        return -1;
    fill_sections(d);
    return 0;
}
