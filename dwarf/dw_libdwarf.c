/* dw_libdwarf.c - hand the reassembled sections to libdwarf from memory and walk the DIEs once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <libdwarf.h>
#include "dw_int.h"

/* ---------------------------------------------------------------------------------------------
 * libdwarf API variants:
 *  - 20210528 and older (Debian 12): Dwarf_Obj_Access_Interface / Methods / Section with plain
 *    field names, dwarf_finish(dbg, &err), dwarf_next_cu_header_d + dwarf_siblingof_b;
 *  - 0.x / 2.x (DW_LIBDWARF_VERSION_MAJOR defined): the *_a structs with as_ / om_ / ai_ field
 *    names, dwarf_object_finish(dbg); 0.9.0 and later also dwarf_next_cu_header_e and
 *    dwarf_siblingof_c (2.x dropped the older pair).
 * ------------------------------------------------------------------------------------------- */
#if defined(DW_LIBDWARF_VERSION_MAJOR)
#define DW_NEWAPI 1
#if DW_LIBDWARF_VERSION_MAJOR > 0 || DW_LIBDWARF_VERSION_MINOR >= 9
#define DW_HAVE_CU_E 1
#endif
#endif

/* Sections given to libdwarf: index 0 is an empty ELF-like null section. */
static const char *const wanted[] = {".debug_info", ".debug_abbrev", ".debug_str", ".debug_loc",
                                     ".debug_ranges"};
#define MAXSEC 16
typedef struct {
    int n;
    const char *name[MAXSEC];
    uint8_t *data[MAXSEC];
    uint64_t size[MAXSEC];
    uint64_t total;
} memobj;

#ifdef DW_NEWAPI
static int sec_info(memobj *o, unsigned idx, Dwarf_Obj_Access_Section_a *r, int *err)
{
    *err = 0;
    if (idx >= (unsigned)o->n)
        return DW_DLV_NO_ENTRY;
    memset(r, 0, sizeof *r);
    r->as_name = o->name[idx];
    r->as_size = o->size[idx];
    r->as_type = idx ? 1 : 0; /* SHT_PROGBITS */
    r->as_entrysize = 1;
    return DW_DLV_OK;
}
static int sec_info_h(void *o, Dwarf_Half i, Dwarf_Obj_Access_Section_a *r, int *e)
{
    return sec_info(o, i, r, e);
}
static int sec_info_u(void *o, Dwarf_Unsigned i, Dwarf_Obj_Access_Section_a *r, int *e)
{
    return sec_info(o, (unsigned)(i > 1000 ? 1000 : i), r, e);
}
static Dwarf_Small m_border(void *o) { (void)o; return DW_END_little; }
static Dwarf_Unsigned m_filesize(void *o) { return ((memobj *)o)->total + 64; }
#else
static int sec_info_old(void *obj, Dwarf_Half idx, Dwarf_Obj_Access_Section *r, int *err)
{
    memobj *o = obj;
    *err = 0;
    if (idx >= o->n)
        return DW_DLV_NO_ENTRY;
    memset(r, 0, sizeof *r);
    r->name = o->name[idx];
    r->size = o->size[idx];
    r->type = idx ? 1 : 0;
    r->entrysize = 0;
    return DW_DLV_OK;
}
static Dwarf_Endianness m_border(void *o) { (void)o; return DW_OBJECT_LSB; }
#endif

static Dwarf_Small m_lensize(void *o) { (void)o; return 4; }
static Dwarf_Small m_ptrsize(void *o) { (void)o; return 8; }
static Dwarf_Unsigned m_count(void *o) { return (Dwarf_Unsigned)((memobj *)o)->n; }
static int load_sec(memobj *o, unsigned idx, Dwarf_Small **data, int *err)
{
    *err = 0;
    if (idx >= (unsigned)o->n || idx == 0)
        return DW_DLV_NO_ENTRY;
    *data = o->data[idx];
    return DW_DLV_OK;
}
static int load_sec_h(void *o, Dwarf_Half i, Dwarf_Small **d, int *e)
{
    return load_sec(o, i, d, e);
}
#ifdef DW_NEWAPI
static int load_sec_u(void *o, Dwarf_Unsigned i, Dwarf_Small **d, int *e)
{
    return load_sec(o, (unsigned)(i > 1000 ? 1000 : i), d, e);
}
/* The section index parameter changed from Dwarf_Half to Dwarf_Unsigned during 0.x. */
static const Dwarf_Obj_Access_Methods_a methods = {
    .om_get_section_info = _Generic(((Dwarf_Obj_Access_Methods_a *)0)->om_get_section_info,
        int (*)(void *, Dwarf_Half, Dwarf_Obj_Access_Section_a *, int *): sec_info_h,
        default: sec_info_u),
    .om_get_byte_order = m_border,
    .om_get_length_size = m_lensize,
    .om_get_pointer_size = m_ptrsize,
    .om_get_filesize = m_filesize,
    .om_get_section_count = m_count,
    .om_load_section = _Generic(((Dwarf_Obj_Access_Methods_a *)0)->om_load_section,
        int (*)(void *, Dwarf_Half, Dwarf_Small **, int *): load_sec_h,
        default: load_sec_u),
};
#else
static const Dwarf_Obj_Access_Methods methods = {
    .get_section_info = sec_info_old,
    .get_byte_order = m_border,
    .get_length_size = m_lensize,
    .get_pointer_size = m_ptrsize,
    .get_section_count = m_count,
    .load_section = load_sec_h,
    .relocate_a_section = NULL,
};
#endif

/* ---- the walk --------------------------------------------------------------------------- */
typedef struct {
    dw_info *d;
    Dwarf_Debug dbg;
    int errors;
} walk;

static void lderr(walk *w, Dwarf_Error *e, const char *what)
{
    w->errors++;
    if (w->errors <= 3)
        dw_warn(w->d, "DWARF: %s: %s", what, *e ? dwarf_errmsg(*e) : "error");
    if (*e)
        dwarf_dealloc_error(w->dbg, *e);
    *e = NULL;
}

dw_die *dw_die_new(dw_info *d)
{
    if (d->ndies == d->capdies) {
        int nc = d->capdies ? d->capdies * 2 : 256;
        dw_die *nd = realloc(d->dies, (size_t)nc * sizeof *nd);
        if (!nd)
            return NULL;
        d->dies = nd;
        d->capdies = nc;
    }
    dw_die *x = &d->dies[d->ndies++];
    memset(x, 0, sizeof *x);
    x->loclist = -1;
    x->parent = -1;
    return x;
}

static int is_block_form(Dwarf_Half f)
{
    return f == DW_FORM_block1 || f == DW_FORM_block2 || f == DW_FORM_block4 ||
           f == DW_FORM_block;
}

static int get_uns(walk *w, Dwarf_Attribute a, Dwarf_Half form, uint64_t *v)
{
    Dwarf_Error e = NULL;
    if (form == DW_FORM_sdata) {
        Dwarf_Signed s = 0;
        if (dwarf_formsdata(a, &s, &e) != DW_DLV_OK) {
            lderr(w, &e, "attribute value");
            return -1;
        }
        *v = (uint64_t)s;
        return 0;
    }
    Dwarf_Unsigned u = 0;
    if (dwarf_formudata(a, &u, &e) != DW_DLV_OK) {
        lderr(w, &e, "attribute value");
        return -1;
    }
    *v = u;
    return 0;
}

static int get_block(walk *w, Dwarf_Attribute a, Dwarf_Half form, const uint8_t **p, size_t *n)
{
    Dwarf_Error e = NULL;
    if (form == DW_FORM_exprloc) {
        Dwarf_Unsigned len = 0;
        Dwarf_Ptr ptr = NULL;
        if (dwarf_formexprloc(a, &len, &ptr, &e) != DW_DLV_OK) {
            lderr(w, &e, "location expression");
            return -1;
        }
        uint8_t *c = dw_alloc(w->d, (size_t)len);
        if (!c)
            return -1;
        memcpy(c, ptr, (size_t)len);
        *p = c;
        *n = (size_t)len;
        return 0;
    }
    Dwarf_Block *b = NULL;
    if (dwarf_formblock(a, &b, &e) != DW_DLV_OK) {
        lderr(w, &e, "block");
        return -1;
    }
    uint8_t *c = dw_alloc(w->d, (size_t)b->bl_len);
    if (c && b->bl_len)
        memcpy(c, b->bl_data, (size_t)b->bl_len);
    *p = c;
    *n = c ? (size_t)b->bl_len : 0;
    dwarf_dealloc(w->dbg, b, DW_DLA_BLOCK);
    return c ? 0 : -1;
}

static void read_attr(walk *w, dw_die *x, Dwarf_Attribute a)
{
    Dwarf_Error e = NULL;
    Dwarf_Half at = 0, form = 0;
    if (dwarf_whatattr(a, &at, &e) != DW_DLV_OK || dwarf_whatform(a, &form, &e) != DW_DLV_OK) {
        lderr(w, &e, "attribute");
        return;
    }
    uint64_t v = 0;
    switch (at) {
    case DW_AT_name:
    case DW_AT_MIPS_linkage_name:
    case DW_AT_linkage_name: {
        char *s = NULL;
        if (dwarf_formstring(a, &s, &e) != DW_DLV_OK) {
            lderr(w, &e, "string");
            return;
        }
        if (at == DW_AT_name)
            x->name = dw_strdup(w->d, s);
        else
            x->linkage = dw_strdup(w->d, s);
        return;
    }
    case DW_AT_type:
    case DW_AT_abstract_origin:
    case DW_AT_specification: {
        Dwarf_Off off = 0;
        if (dwarf_global_formref(a, &off, &e) != DW_DLV_OK) {
            lderr(w, &e, "reference");
            return;
        }
        if (at == DW_AT_type)
            x->type = off;
        else if (at == DW_AT_abstract_origin)
            x->origin = off;
        else
            x->spec = off;
        return;
    }
    case DW_AT_low_pc:
    case DW_AT_high_pc: {
        if (form == DW_FORM_addr) {
            Dwarf_Addr ad = 0;
            if (dwarf_formaddr(a, &ad, &e) != DW_DLV_OK) {
                lderr(w, &e, "address");
                return;
            }
            v = ad;
        } else if (get_uns(w, a, form, &v) < 0) {
            return;
        }
        if (at == DW_AT_low_pc) {
            x->low_pc = v;
            x->has_low = 1;
        } else {
            x->high_pc = v;
            x->has_high = 1;
            x->high_is_len = form != DW_FORM_addr;
        }
        return;
    }
    case DW_AT_location:
    case DW_AT_data_member_location:
        if (is_block_form(form) || form == DW_FORM_exprloc) {
            const uint8_t *p = NULL;
            size_t n = 0;
            if (get_block(w, a, form, &p, &n) < 0)
                return;
            if (at == DW_AT_location) {
                x->loc = p;
                x->loc_len = n;
                x->has_loc = 1;
            } else {
                x->mloc = p;
                x->mloc_len = n;
            }
        } else if (get_uns(w, a, form, &v) == 0) {
            if (at == DW_AT_location) {
                x->loclist = (int64_t)v;
                x->has_loc = 1;
            } else {
                x->moff = v;
                x->has_moff = 1;
            }
        }
        return;
    case DW_AT_external:
    case DW_AT_artificial:
    case DW_AT_declaration: {
        Dwarf_Bool b = 0;
        if (dwarf_formflag(a, &b, &e) != DW_DLV_OK) {
            lderr(w, &e, "flag");
            return;
        }
        if (at == DW_AT_external)
            x->external = b != 0;
        else if (at == DW_AT_artificial)
            x->artificial = b != 0;
        else
            x->declaration = b != 0;
        return;
    }
    case DW_AT_byte_size: case DW_AT_encoding: case DW_AT_decl_file: case DW_AT_decl_line:
    case DW_AT_call_file: case DW_AT_call_line: case DW_AT_call_column:
    case DW_AT_address_class: case DW_AT_count: case DW_AT_bit_size: case DW_AT_bit_offset:
    case DW_AT_data_bit_offset: case DW_AT_upper_bound: case DW_AT_lower_bound:
    case DW_AT_const_value:
        if (is_block_form(form) || form == DW_FORM_exprloc || form == DW_FORM_string ||
            form == DW_FORM_strp || get_uns(w, a, form, &v) < 0)
            return;
        switch (at) {
        case DW_AT_byte_size: x->byte_size = v; x->has_size = 1; break;
        case DW_AT_encoding: x->encoding = (int)v; break;
        case DW_AT_decl_file: x->decl_file = (int)v; break;
        case DW_AT_decl_line: x->decl_line = (int)v; break;
        case DW_AT_call_file: x->call_file = (int)v; break;
        case DW_AT_call_line: x->call_line = (int)v; break;
        case DW_AT_call_column: x->call_col = (int)v; break;
        case DW_AT_address_class: x->addr_class = (int)v; break;
        case DW_AT_count: x->count = v; x->has_count = 1; break;
        case DW_AT_bit_size: x->bit_size = (int)v; break;
        case DW_AT_bit_offset: x->bit_offset = (int)v; break;
        case DW_AT_data_bit_offset: x->data_bit_offset = (int)v; break;
        case DW_AT_upper_bound: x->upper = (int64_t)v; x->has_upper = 1; break;
        case DW_AT_lower_bound: x->lower = (int64_t)v; break;
        case DW_AT_const_value: x->cvalue = (int64_t)v; x->has_cvalue = 1; break;
        }
        return;
    default:
        return;
    }
}

static int sibling(walk *w, Dwarf_Die die, Dwarf_Die *out, Dwarf_Error *e)
{
#ifdef DW_HAVE_CU_E
    (void)w;
    return dwarf_siblingof_c(die, out, e);
#else
    return dwarf_siblingof_b(w->dbg, die, 1, out, e);
#endif
}

/* Read `die` and its subtree (children first-child/sibling order = offset order). */
static void walk_die(walk *w, Dwarf_Die die, int parent, int depth)
{
    Dwarf_Error e = NULL;
    dw_die *x = dw_die_new(w->d);
    if (!x)
        return;
    int me = w->d->ndies - 1;
    x->parent = parent;
    x->depth = depth;
    Dwarf_Off off = 0;
    Dwarf_Half tag = 0;
    if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK)
        lderr(w, &e, "DIE offset");
    x->off = off;
    if (dwarf_tag(die, &tag, &e) != DW_DLV_OK)
        lderr(w, &e, "DIE tag");
    x->tag = tag;
    Dwarf_Attribute *attrs = NULL;
    Dwarf_Signed nattr = 0;
    int r = dwarf_attrlist(die, &attrs, &nattr, &e);
    if (r == DW_DLV_OK) {
        for (Dwarf_Signed i = 0; i < nattr; i++) {
            read_attr(w, &w->d->dies[me], attrs[i]);
            dwarf_dealloc(w->dbg, attrs[i], DW_DLA_ATTR);
        }
        dwarf_dealloc(w->dbg, attrs, DW_DLA_LIST);
    } else if (r == DW_DLV_ERROR) {
        lderr(w, &e, "attribute list");
    }
    if (depth > 200 || w->errors > 50)
        return;
    Dwarf_Die child = NULL;
    r = dwarf_child(die, &child, &e);
    if (r == DW_DLV_ERROR) {
        lderr(w, &e, "DIE children");
        return;
    }
    while (r == DW_DLV_OK && child) {
        walk_die(w, child, me, depth + 1);
        Dwarf_Die next = NULL;
        r = sibling(w, child, &next, &e);
        dwarf_dealloc_die(child);
        child = next;
        if (r == DW_DLV_ERROR) {
            lderr(w, &e, "DIE sibling");
            break;
        }
        if (w->errors > 50)
            break;
    }
    if (child && r == DW_DLV_OK)
        dwarf_dealloc_die(child);
}

static void walk_cus(walk *w)
{
    for (int ncu = 0; ncu < 10000; ncu++) {
        Dwarf_Error e = NULL;
        Dwarf_Unsigned hlen = 0, typeoff = 0, next = 0;
        Dwarf_Half ver = 0, asz = 0, lsz = 0, esz = 0, cutype = 0;
        Dwarf_Off abbr = 0;
        Dwarf_Sig8 sig;
        Dwarf_Die cu = NULL;
        memset(&sig, 0, sizeof sig);
#ifdef DW_HAVE_CU_E
        int r = dwarf_next_cu_header_e(w->dbg, 1, &cu, &hlen, &ver, &abbr, &asz, &lsz, &esz,
                                       &sig, &typeoff, &next, &cutype, &e);
#else
        int r = dwarf_next_cu_header_d(w->dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &esz, &sig,
                                       &typeoff, &next, &cutype, &e);
#endif
        if (r == DW_DLV_NO_ENTRY)
            return;
        if (r == DW_DLV_ERROR) {
            lderr(w, &e, "compilation unit header");
            return;
        }
#ifndef DW_HAVE_CU_E
        r = dwarf_siblingof_b(w->dbg, NULL, 1, &cu, &e);
        if (r == DW_DLV_ERROR) {
            lderr(w, &e, "compilation unit DIE");
            return;
        }
#endif
        if (r == DW_DLV_OK && cu) {
            walk_die(w, cu, -1, 0);
            dwarf_dealloc_die(cu);
        }
        if (w->errors > 50)
            return;
    }
}

int dw_walk_dies(dw_info *d)
{
    memobj o;
    memset(&o, 0, sizeof o);
    o.name[0] = "";
    o.n = 1;
    int have_info = 0;
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        const dw_sect *s = dw_sect_find(d, wanted[i]);
        if (!s || !s->len || o.n >= MAXSEC)
            continue;
        o.name[o.n] = wanted[i];
        o.data[o.n] = s->data;
        o.size[o.n] = s->len;
        o.total += s->len;
        o.n++;
        if (i == 0)
            have_info = 1;
    }
    if (!have_info)
        return 0;
    walk w = {d, NULL, 0};
    Dwarf_Error e = NULL;
#ifdef DW_NEWAPI
    Dwarf_Obj_Access_Interface_a iface = {&o, &methods};
#else
    Dwarf_Obj_Access_Interface iface = {&o, &methods};
#endif
    int r = dwarf_object_init_b(&iface, NULL, NULL, DW_GROUPNUMBER_ANY, &w.dbg, &e);
    if (r != DW_DLV_OK) {
        if (r == DW_DLV_ERROR) {
            dw_warn(d, "DWARF: cannot read the debug sections: %s",
                    e ? dwarf_errmsg(e) : "error");
            if (e)
                dwarf_dealloc_error(w.dbg, e);
        } else {
            dw_warn(d, "DWARF: no usable debug sections");
        }
        return -1;
    }
    walk_cus(&w);
#ifdef DW_NEWAPI
    dwarf_object_finish(w.dbg);
#else
    dwarf_object_finish(w.dbg, &e);
#endif
    return w.errors ? -1 : 0;
}

/* ---- in-memory sections of another object (dw_host.c: a program's host ELF) ---------------- */
typedef struct {
    memobj o;
#ifdef DW_NEWAPI
    Dwarf_Obj_Access_Interface_a iface;
#else
    Dwarf_Obj_Access_Interface iface;
#endif
    Dwarf_Debug dbg;
} dw_memdbg;

void *dw_lib_open_mem(const char *const *names, uint8_t *const *data, const uint64_t *sizes,
                      int n, void **dbg)
{
    dw_memdbg *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->o.name[0] = "";
    m->o.n = 1;
    for (int i = 0; i < n && m->o.n < MAXSEC; i++) {
        m->o.name[m->o.n] = names[i];
        m->o.data[m->o.n] = data[i];
        m->o.size[m->o.n] = sizes[i];
        m->o.total += sizes[i];
        m->o.n++;
    }
    m->iface.object = &m->o;
    m->iface.methods = &methods;
    Dwarf_Error e = NULL;
    int r = dwarf_object_init_b(&m->iface, NULL, NULL, DW_GROUPNUMBER_ANY, &m->dbg, &e);
    if (r != DW_DLV_OK) {
        if (r == DW_DLV_ERROR && e)
            dwarf_dealloc_error(m->dbg, e);
        free(m);
        return NULL;
    }
    *dbg = m->dbg;
    return m;
}

void dw_lib_close_mem(void *h)
{
    dw_memdbg *m = h;
    if (!m)
        return;
#ifdef DW_NEWAPI
    dwarf_object_finish(m->dbg);
#else
    Dwarf_Error e = NULL;
    dwarf_object_finish(m->dbg, &e);
#endif
    free(m);
}
