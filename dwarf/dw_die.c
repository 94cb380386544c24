/* dw_die.c - build type, function, scope and variable tables from the walked DIEs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include "dw_int.h"

static int die_index(const dw_info *d, uint64_t off)
{
    int lo = 0, hi = d->ndies - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (d->dies[mid].off == off)
            return mid;
        if (d->dies[mid].off < off)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static int is_type_tag(int tag)
{
    switch (tag) {
    case DW_TAG_base_type: case DW_TAG_pointer_type: case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type: case DW_TAG_const_type: case DW_TAG_volatile_type:
    case DW_TAG_restrict_type: case DW_TAG_typedef: case DW_TAG_array_type:
    case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_class_type:
    case DW_TAG_enumeration_type: case DW_TAG_subroutine_type: case DW_TAG_unspecified_type:
        return 1;
    default:
        return 0;
    }
}

static const dw_type *type_of(dw_info *d, uint64_t off)
{
    if (!off)
        return NULL;
    int i = die_index(d, off);
    if (i < 0 || !d->tmap[i])
        return &d->void_type;   /* dangling reference: unknown, printed as void */
    return d->tmap[i];
}

static uint64_t member_offset(const dw_die *x)
{
    if (x->has_moff)
        return x->moff;
    if (x->mloc && x->mloc_len) {
        /* DWARF 2 block: DW_OP_plus_uconst N (or DW_OP_constu N) */
        uint64_t v = 0;
        if ((x->mloc[0] == DW_OP_plus_uconst || x->mloc[0] == DW_OP_constu) &&
            dw_uleb(x->mloc + 1, x->mloc_len - 1, &v))
            return v;
    }
    return 0;
}

static int is_half_name(const char *n)
{
    return n && (!strcmp(n, "__half") || !strcmp(n, "__nv_half") || !strcmp(n, "__half_raw") ||
                 !strcmp(n, "__nv_half_raw"));
}

static int is_bf16_name(const char *n)
{
    return n && (!strcmp(n, "__nv_bfloat16") || !strcmp(n, "__nv_bfloat16_raw"));
}

static void build_types(dw_info *d)
{
    for (int i = 0; i < d->ndies; i++) {
        const dw_die *x = &d->dies[i];
        if (!is_type_tag(x->tag))
            continue;
        dw_type *t = dw_alloc(d, sizeof *t);
        if (!t)
            return;
        d->tmap[i] = t;
        t->die = x->off;
        t->name = x->name;
        t->size = x->has_size ? x->byte_size : 0;
        switch (x->tag) {
        case DW_TAG_base_type: t->kind = DW_TY_BASE; break;
        case DW_TAG_pointer_type: t->kind = DW_TY_POINTER; break;
        case DW_TAG_reference_type:
        case DW_TAG_rvalue_reference_type: t->kind = DW_TY_REFERENCE; break;
        case DW_TAG_const_type: t->kind = DW_TY_CONST; break;
        case DW_TAG_volatile_type:
        case DW_TAG_restrict_type: t->kind = DW_TY_VOLATILE; break;
        case DW_TAG_typedef: t->kind = DW_TY_TYPEDEF; break;
        case DW_TAG_array_type: t->kind = DW_TY_ARRAY; break;
        case DW_TAG_structure_type: t->kind = DW_TY_STRUCT; break;
        case DW_TAG_union_type: t->kind = DW_TY_UNION; break;
        case DW_TAG_class_type: t->kind = DW_TY_CLASS; break;
        case DW_TAG_enumeration_type: t->kind = DW_TY_ENUM; break;
        case DW_TAG_subroutine_type: t->kind = DW_TY_FUNC; break;
        default: t->kind = DW_TY_VOID; break;
        }
    }
    for (int i = 0; i < d->ndies; i++) {
        dw_type *t = d->tmap[i];
        const dw_die *x = &d->dies[i];
        if (!t)
            continue;
        if (x->type)
            t->target = type_of(d, x->type);
        if (t->kind == DW_TY_POINTER || t->kind == DW_TY_REFERENCE) {
            t->addr_class = x->addr_class;
            t->space = dw_addr_class_space(x->addr_class);
            if (t->space == PTX_SPACE_NONE || t->space == PTX_SPACE_REG)
                t->space = PTX_SPACE_GENERIC;
            if (!t->size)
                t->size = 8;
        }
        if (t->kind == DW_TY_BASE) {
            switch (x->encoding) {
            case DW_ATE_signed: t->enc = DW_BT_SIGNED; break;
            case DW_ATE_unsigned: t->enc = DW_BT_UNSIGNED; break;
            case DW_ATE_signed_char: t->enc = DW_BT_SIGNED_CHAR; break;
            case DW_ATE_unsigned_char: t->enc = DW_BT_UNSIGNED_CHAR; break;
            case DW_ATE_boolean: t->enc = DW_BT_BOOL; break;
            case DW_ATE_float: t->enc = t->size == 2 ? DW_BT_HALF : DW_BT_FLOAT; break;
            default: t->enc = DW_BT_UNSIGNED; break;
            }
        }
        if ((t->kind == DW_TY_STRUCT || t->kind == DW_TY_CLASS) && t->size == 2) {
            if (is_half_name(t->name))
                t->enc = DW_BT_HALF;
            else if (is_bf16_name(t->name))
                t->enc = DW_BT_BF16;
        }
        /* children: members, enumerators, subranges */
        int nm = 0, ne = 0, nd = 0;
        for (int j = i + 1; j < d->ndies && d->dies[j].depth > x->depth; j++) {
            const dw_die *c = &d->dies[j];
            if (c->parent != i)
                continue;
            if (c->tag == DW_TAG_member || c->tag == DW_TAG_inheritance)
                nm++;
            else if (c->tag == DW_TAG_enumerator)
                ne++;
            else if (c->tag == DW_TAG_subrange_type)
                nd++;
        }
        dw_member *mem = nm ? dw_alloc(d, sizeof *mem * (size_t)nm) : NULL;
        dw_enumerator *en = ne ? dw_alloc(d, sizeof *en * (size_t)ne) : NULL;
        if ((nm && !mem) || (ne && !en))
            return;
        for (int j = i + 1; j < d->ndies && d->dies[j].depth > x->depth; j++) {
            const dw_die *c = &d->dies[j];
            if (c->parent != i)
                continue;
            if (c->tag == DW_TAG_member || c->tag == DW_TAG_inheritance) {
                dw_member *mm = &mem[t->nmembers++];
                mm->name = c->tag == DW_TAG_inheritance ? NULL : c->name;
                mm->type = type_of(d, c->type);
                mm->offset = member_offset(c);
                mm->bit_size = c->bit_size;
                if (c->bit_size) {
                    uint64_t sz = c->has_size ? c->byte_size : dw_type_size(mm->type);
                    if (c->data_bit_offset) {
                        mm->offset = (uint64_t)c->data_bit_offset / 8;
                        mm->bit_offset = c->data_bit_offset % 8;
                    } else {
                        /* DWARF 2: bit_offset counts from the MSB of the storage unit */
                        mm->bit_offset = (int)(sz * 8) - c->bit_offset - c->bit_size;
                        if (mm->bit_offset < 0)
                            mm->bit_offset = 0;
                    }
                }
            } else if (c->tag == DW_TAG_enumerator) {
                dw_enumerator *ee = &en[t->nenums++];
                ee->name = c->name;
                ee->value = c->cvalue;
            } else if (c->tag == DW_TAG_subrange_type && t->ndims < 8) {
                uint64_t cnt = 0;
                if (c->has_count)
                    cnt = c->count;
                else if (c->has_upper && c->upper >= c->lower && c->upper != -1)
                    cnt = (uint64_t)(c->upper - c->lower + 1);
                t->dims[t->ndims++] = cnt;
            }
        }
        t->members = mem;
        t->enums = en;
        if (t->kind == DW_TY_ENUM) {
            t->enc = DW_BT_UNSIGNED;
            for (int k = 0; k < t->nenums; k++)
                if (en[k].value < 0)
                    t->enc = DW_BT_SIGNED;
            if (!t->size)
                t->size = 4;
        }
    }
    /* array sizes */
    for (int i = 0; i < d->ndies; i++) {
        dw_type *t = d->tmap[i];
        if (t && t->kind == DW_TY_ARRAY && !t->size) {
            uint64_t n = dw_type_size(t->target);
            for (int k = 0; k < t->ndims; k++)
                n *= t->dims[k];
            t->size = n;
        }
    }
    /* keep the types in DIE order for name lookups */
    int nt = 0;
    for (int i = 0; i < d->ndies; i++)
        if (d->tmap[i])
            nt++;
    d->types = dw_alloc(d, sizeof(dw_type *) * (size_t)(nt + 1));
    if (!d->types)
        return;
    for (int i = 0; i < d->ndies; i++)
        if (d->tmap[i])
            d->types[d->ntypes++] = d->tmap[i];
}

/* ---- functions, scopes, variables ------------------------------------------------------- */
static const dw_die *origin(const dw_info *d, const dw_die *x)
{
    for (int k = 0; k < 4; k++) {
        uint64_t o = x->origin ? x->origin : x->spec;
        if (!o)
            break;
        int i = die_index(d, o);
        if (i < 0)
            break;
        x = &d->dies[i];
    }
    return x;
}

static const char *die_name(const dw_info *d, const dw_die *x)
{
    for (int k = 0; k < 4 && x; k++) {
        if (x->name)
            return x->name;
        uint64_t o = x->origin ? x->origin : x->spec;
        int i = o ? die_index(d, o) : -1;
        x = i >= 0 ? &d->dies[i] : NULL;
    }
    return NULL;
}

static const char *die_linkage(const dw_info *d, const dw_die *x)
{
    for (int k = 0; k < 4 && x; k++) {
        if (x->linkage)
            return x->linkage;
        uint64_t o = x->origin ? x->origin : x->spec;
        int i = o ? die_index(d, o) : -1;
        x = i >= 0 ? &d->dies[i] : NULL;
    }
    return NULL;
}

static uint64_t die_type(const dw_info *d, const dw_die *x)
{
    for (int k = 0; k < 4 && x; k++) {
        if (x->type)
            return x->type;
        uint64_t o = x->origin ? x->origin : x->spec;
        int i = o ? die_index(d, o) : -1;
        x = i >= 0 ? &d->dies[i] : NULL;
    }
    return 0;
}

static int push_ptr(dw_info *d, void ***arr, int *n, int *cap, void *p)
{
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 64;
        void **na = dw_alloc(d, (size_t)nc * sizeof *na);
        if (!na)
            return -1;
        if (*n)
            memcpy(na, *arr, (size_t)*n * sizeof *na);
        *arr = na;
        *cap = nc;
    }
    (*arr)[(*n)++] = p;
    return 0;
}

static void pc_range(const dw_info *d, const dw_die *x, uint32_t *lo, uint32_t *hi)
{
    uint64_t l = x->low_pc, h = x->has_high ? (x->high_is_len ? x->low_pc + x->high_pc
                                                               : x->high_pc) : x->low_pc;
    if (l > d->npcs)
        l = d->npcs;
    if (h > d->npcs)
        h = d->npcs;
    if (h < l)
        h = l;
    *lo = (uint32_t)l;
    *hi = (uint32_t)h;
}

static dw_var *make_var(dw_info *d, const dw_die *x, dw_var_kind kind, int func, uint32_t lo,
                        uint32_t hi, int inlined, int inl_scope)
{
    dw_var *v = dw_alloc(d, sizeof *v);
    if (!v)
        return NULL;
    const dw_die *o = origin(d, x);
    v->name = die_name(d, x);
    v->type = type_of(d, die_type(d, x));
    if (!v->type)
        v->type = &d->void_type;
    v->kind = kind;
    v->addr_class = x->addr_class ? x->addr_class : o->addr_class;
    v->decl_file = dw_file_path(d, x->decl_file ? x->decl_file : o->decl_file);
    v->decl_line = x->decl_line ? x->decl_line : o->decl_line;
    v->scope_lo = lo;
    v->scope_hi = hi;
    v->func = func;
    v->artificial = x->artificial || o->artificial;
    v->die = x->off;
    v->loc_expr = x->loc;
    v->loc_len = x->loc_len;
    v->loclist = x->loclist;
    v->has_loc = x->has_loc;
    v->inlined = inlined;
    v->inl_scope = inl_scope;
    if (push_ptr(d, (void ***)&d->vars, &d->nvars, &d->capvars, v) < 0)
        return NULL;
    return v;
}

static int add_scope(dw_info *d, uint32_t lo, uint32_t hi, int parent, int func, int inl,
                     const char *name, const dw_die *x)
{
    if (d->nscopes == d->capscopes) {
        int nc = d->capscopes ? d->capscopes * 2 : 64;
        dw_scope_int *ns = dw_alloc(d, (size_t)nc * sizeof *ns);
        if (!ns)
            return -1;
        if (d->nscopes)
            memcpy(ns, d->scopes, (size_t)d->nscopes * sizeof *ns);
        d->scopes = ns;
        d->capscopes = nc;
    }
    dw_scope_int *s = &d->scopes[d->nscopes];
    s->lo = lo;
    s->hi = hi;
    s->parent = parent;
    s->func = func;
    s->is_inlined = inl;
    s->name = name;
    s->call_file = dw_file_path(d, x->call_file);
    s->call_line = x->call_line;
    s->call_col = x->call_col;
    return d->nscopes++;
}

/* Variables and nested scopes under DIE i (a subprogram, block or inlined subroutine). */
static void walk_scope(dw_info *d, int i, dw_func *f, int fidx, uint32_t lo, uint32_t hi,
                       int inl_scope, int depth)
{
    const dw_die *x = &d->dies[i];
    int nparams = 0;
    for (int j = i + 1; j < d->ndies && d->dies[j].depth > x->depth; j++) {
        const dw_die *c = &d->dies[j];
        if (c->parent != i)
            continue;
        if (c->tag == DW_TAG_formal_parameter || c->tag == DW_TAG_variable) {
            int is_param = c->tag == DW_TAG_formal_parameter;
            dw_var *v = make_var(d, c, is_param ? DW_VAR_PARAM : DW_VAR_LOCAL, fidx, lo, hi,
                                 inl_scope >= 0, inl_scope);
            if (v && is_param && inl_scope < 0 && f && depth == 0)
                nparams++;
        } else if ((c->tag == DW_TAG_lexical_block || c->tag == DW_TAG_inlined_subroutine) &&
                   depth < 32) {
            uint32_t l = lo, h = hi;
            if (c->has_low)
                pc_range(d, c, &l, &h);
            int inl = c->tag == DW_TAG_inlined_subroutine;
            int sidx = -1;
            if (inl || c->has_low) {
                const char *nm = inl ? die_name(d, c) : NULL;
                sidx = add_scope(d, l, h, inl_scope, fidx, inl, nm, c);
                if (sidx >= 0 && inl)
                    d->scopes[sidx].linkage = die_linkage(d, c);
            }
            walk_scope(d, j, f, fidx, l, h, inl && sidx >= 0 ? sidx : inl_scope, depth + 1);
        }
    }
    if (f && depth == 0 && nparams) {
        f->params = dw_alloc(d, sizeof(dw_var *) * (size_t)nparams);
        if (!f->params)
            return;
        for (int k = 0; k < d->nvars; k++) {
            const dw_var *v = d->vars[k];
            if (v->func == fidx && v->kind == DW_VAR_PARAM && v->inl_scope < 0 &&
                f->nparams < nparams)
                f->params[f->nparams++] = v;
        }
    }
}

static const ptx_func *ptx_of_pc(const dw_info *d, uint32_t lo, uint32_t hi)
{
    if (lo >= hi || lo >= d->npcs)
        return NULL;
    return d->pc_func[lo];
}

static void build_funcs_vars(dw_info *d)
{
    for (int i = 0; i < d->ndies; i++) {
        const dw_die *x = &d->dies[i];
        if (x->tag == DW_TAG_variable && x->depth == 1 && x->has_loc) {
            dw_var *v = make_var(d, x, DW_VAR_GLOBAL, -1, 0, d->npcs, 0, -1);
            if (v)
                push_ptr(d, (void ***)&d->globals, &d->nglobals, &d->capglobals, v);
            continue;
        }
        if (x->tag != DW_TAG_subprogram || !x->has_low || x->declaration)
            continue;
        dw_func *f = dw_alloc(d, sizeof *f);
        if (!f)
            return;
        pc_range(d, x, &f->lo, &f->hi);
        f->die = x->off;
        f->name = die_name(d, x);
        f->linkage_name = die_linkage(d, x);
        f->ptx = ptx_of_pc(d, f->lo, f->hi);
        if (!f->ptx && f->linkage_name)
            f->ptx = ptx_find_func(d->m, f->linkage_name);
        if (f->ptx) {
            if (!f->linkage_name)
                f->linkage_name = f->ptx->sym ? f->ptx->sym->name : NULL;
            f->is_kernel = f->ptx->is_entry;
        }
        const dw_die *o = origin(d, x);
        f->decl_file = dw_file_path(d, x->decl_file ? x->decl_file : o->decl_file);
        f->decl_line = x->decl_line ? x->decl_line : o->decl_line;
        uint64_t rt = die_type(d, x);
        f->ret_type = rt ? type_of(d, rt) : NULL;
        int fidx = d->nfuncs;
        if (push_ptr(d, (void ***)&d->funcs, &d->nfuncs, &d->capfuncs, f) < 0)
            return;
        walk_scope(d, i, f, fidx, f->lo, f->hi, -1, 0);
    }
}

/* libdwarf may silently stop at a unit that does not fit: check the unit lengths first. */
static void check_units(dw_info *d)
{
    const dw_sect *s = dw_sect_find(d, ".debug_info");
    if (!s)
        return;
    size_t off = 0;
    while (off < s->len) {
        if (off + 11 > s->len) {
            dw_warn(d, "DWARF: .debug_info is truncated (%zu bytes left at offset %zu)",
                    s->len - off, off);
            return;
        }
        uint32_t ul = (uint32_t)s->data[off] | (uint32_t)s->data[off + 1] << 8 |
                      (uint32_t)s->data[off + 2] << 16 | (uint32_t)s->data[off + 3] << 24;
        if (ul >= 0xfffffff0u)
            return;   /* 64-bit DWARF: left to libdwarf */
        if ((uint64_t)off + 4 + ul > s->len) {
            dw_warn(d, "DWARF: .debug_info is truncated (unit at offset %zu needs %u bytes, "
                    "%zu present)", off, ul, s->len - off - 4);
            return;
        }
        off += 4 + (size_t)ul;
    }
}

int dw_read_dwarf(dw_info *d)
{
    check_units(d);
    int r = dw_walk_dies(d);
    if (d->ndies == 0) {
        if (dw_sect_find(d, ".debug_info") && !d->nwarn)
            dw_warn(d, "DWARF: no debugging entries could be read");
        return r;
    }
    /* DIE offsets must be increasing for the binary searches (a corrupt section could break
       that: then drop what is out of order) */
    for (int i = 1; i < d->ndies; i++)
        if (d->dies[i].off <= d->dies[i - 1].off) {
            dw_warn(d, "DWARF: DIE offsets out of order; ignoring the rest");
            d->ndies = i;
            break;
        }
    d->has_dwarf = 1;
    d->tmap = calloc((size_t)d->ndies, sizeof *d->tmap);
    if (!d->tmap)
        return -1;
    build_types(d);
    build_funcs_vars(d);
    free(d->tmap);
    d->tmap = NULL;
    return r;
}
