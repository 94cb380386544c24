/* dbg_ptype.c - ptype and whatis: the type of an expression or a named type as gdb prints it (ptype expands structs, unions and enums). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "dbg_int.h"

/* ptype expands structs, unions and enums and resolves typedefs; whatis names the type. */
static void ptype_of(const dw_type *t, int expand, char *out, size_t n);

static void member_decl(const dw_member *m, char *out, size_t n)
{
    char tn[512];
    ptype_of(m->type, 0, tn, sizeof tn);
    const char *br = strstr(tn, " [");
    const char *star = tn[0] && tn[strlen(tn) - 1] == '*' ? "" : " ";
    if (br)
        snprintf(out, n, "%.*s %s%s", (int)(br - tn), tn, m->name ? m->name : "", br + 1);
    else
        snprintf(out, n, "%s%s%s", tn, star, m->name ? m->name : "");
    if (m->bit_size) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, " : %d", m->bit_size);
    }
}

static void ptype_of(const dw_type *t, int expand, char *out, size_t n)
{
    if (!expand) {
        dw_type_name(t, out, n);
        return;
    }
    /* resolve typedefs at the top, keep qualifiers */
    const dw_type *u = t;
    char quals[64] = "";
    while (u && (u->kind == DW_TY_TYPEDEF || u->kind == DW_TY_CONST || u->kind == DW_TY_VOLATILE)) {
        if (u->kind != DW_TY_TYPEDEF) {
            size_t l = strlen(quals);
            snprintf(quals + l, sizeof quals - l, "%s ", u->kind == DW_TY_CONST ? "const" : "volatile");
        }
        u = u->target;
    }
    if (!u) {
        snprintf(out, n, "%svoid", quals);
        return;
    }
    /* pointers and arrays of aggregates: expand the innermost aggregate, keep the suffix */
    const dw_type *base = u;
    while (base && (base->kind == DW_TY_POINTER || base->kind == DW_TY_ARRAY ||
                    base->kind == DW_TY_REFERENCE))
        base = base->target;
    const dw_type *sb = base;
    while (sb && (sb->kind == DW_TY_TYPEDEF || sb->kind == DW_TY_CONST || sb->kind == DW_TY_VOLATILE))
        sb = sb->target;
    if (!sb || (sb->kind != DW_TY_STRUCT && sb->kind != DW_TY_UNION && sb->kind != DW_TY_CLASS &&
                sb->kind != DW_TY_ENUM) || sb->enc == DW_BT_HALF || sb->enc == DW_BT_BF16) {
        char tn[512];
        dw_type_name(u, tn, sizeof tn);
        snprintf(out, n, "%s%s", quals, tn);
        return;
    }
    /* suffix: the full name minus the base's name ("Pair *" -> " *") */
    char full[512], bn[512];
    dw_type_name(u, full, sizeof full);
    dw_type_name(base, bn, sizeof bn);
    const char *suffix = strncmp(full, bn, strlen(bn)) == 0 ? full + strlen(bn) : "";
    size_t len = 0;
    const char *kw = sb->kind == DW_TY_STRUCT ? "struct" : sb->kind == DW_TY_UNION ? "union"
                     : sb->kind == DW_TY_CLASS ? "class" : "enum";
    len += (size_t)snprintf(out + len, n - len, "%s%s %s%s{", quals, kw, sb->name ? sb->name : "",
                            sb->name ? " " : "");
    if (sb->kind == DW_TY_ENUM) {
        int64_t next = 0;
        for (int i = 0; i < sb->nenums && len < n; i++) {
            const dw_enumerator *e = &sb->enums[i];
            if (e->value == next)
                len += (size_t)snprintf(out + len, n - len, "%s%s", i ? ", " : "", e->name);
            else
                len += (size_t)snprintf(out + len, n - len, "%s%s = %lld", i ? ", " : "", e->name,
                                        (long long)e->value);
            next = e->value + 1;
        }
        if (len < n)
            snprintf(out + len, n - len, "}%s", suffix);
        return;
    }
    len += (size_t)snprintf(out + len, n - len, "\n");
    for (int i = 0; i < sb->nmembers && len < n; i++) {
        char md[600];
        member_decl(&sb->members[i], md, sizeof md);
        len += (size_t)snprintf(out + len, n - len, "    %s;\n", md);
    }
    if (len < n)
        snprintf(out + len, n - len, "}%s", suffix);
}

int dbg_type_text(dbg_session *s, const char *args, int expand, char *text, size_t tn,
                  char *err, size_t en)
{
    dbg_value v;
    while (isspace((unsigned char)*args))
        args++;
    dw_info *d = s->dw;
    const dw_type *named = d && dw_has_dwarf(d) ? dw_type_lookup(d, args) : NULL;
    if (named) {
        char out[4096];
        ptype_of(named, expand, out, sizeof out);
        snprintf(text, tn, "%s", out);
        return 0;
    }
    if (dbg_eval_focus(s, args, &v, err, en) != 0)
        return -1;
    if (v.dt) {
        /* a pointer into a state space names it, as print does: "@local int (*)[5]" */
        const dw_type *st = dw_type_strip(v.dt);
        const char *sp = st && (st->kind == DW_TY_POINTER || st->kind == DW_TY_REFERENCE) &&
                                 st->space != PTX_SPACE_GENERIC && st->space != PTX_SPACE_NONE
                             ? dbg_space_name(st->space) : NULL;
        char out[4096];
        ptype_of(v.dt, expand, out, sizeof out);
        snprintf(text, tn, "%s%s%s%s", sp ? "@" : "", sp ? sp : "", sp ? " " : "", out);
        return 0;
    }
    switch (v.kind) {
    case DBG_V_PTR: /* a buffer is a pointer to its first element, as print shows it */
        if (v.space != PTX_SPACE_GENERIC && v.space != PTX_SPACE_NONE)
            snprintf(text, tn, "@%s %s *", dbg_space_name(v.space), dbg_type_c_name(v.type));
        else
            snprintf(text, tn, "%s *", dbg_type_c_name(v.type));
        break;
    case DBG_V_DIM3: snprintf(text, tn, "uint3"); break;
    case DBG_V_CODE: snprintf(text, tn, "void (*)()"); break;
    case DBG_V_VOID: snprintf(text, tn, "void"); break;
    default: snprintf(text, tn, "%s", dbg_type_c_name(v.type)); break;
    }
    return 0;
}
