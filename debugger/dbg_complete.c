/* dbg_complete.c - completion candidates from what the session knows: source variables and members, registers, source files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

#define WLEN 128

/* The function the focus is in (NULL without a live focus). */
static const ptx_func *focus_func(dbg_session *s, uint32_t *pc)
{
    const ptx_func *f;
    if (dbg_focus_pc(s, pc) != 0 || dbg_pc_func(s, *pc, &f) != 0)
        return NULL;
    return f;
}

const char *dbg_module_file_at(const dbg_session *s, int i)
{
    if (!s->mod || i < 0 || i >= s->mod->nfiles)
        return NULL;
    return s->mod->files[i].path ? s->mod->files[i].path : "";
}

const char *dbg_module_var_name(const dbg_session *s, int i)
{
    return s->mod && i >= 0 && i < s->mod->nvars ? s->mod->vars[i]->name : NULL;
}

const char *dbg_func_reg_name(const ptx_func *f, int i)
{
    return f && i >= 0 && i < f->nregs ? f->regs[i]->name : NULL;
}

void dbg_complete_vars(dbg_session *s, const char *text, void (*add)(void *ctx, const char *name),
                       void *k)
{
    const dw_info *d = s->dw;
    if (!d)
        return;
    uint32_t pc;
    int focus = focus_func(s, &pc) != NULL;
    const char *dot = strrchr(text, '.');
    if (!dot) {
        if (focus) {
            const dw_var *v[512];
            int n = dw_vars_at(d, pc, DW_VARS_ALL, v, 512);
            for (int i = 0; i < n && i < 512; i++)
                if (!v[i]->artificial)
                    add(k, v[i]->name);
        } else {
            for (int i = 0; i < dw_nglobals(d); i++)
                add(k, dw_global_get(d, i)->name);
        }
        return;
    }
    /* members: walk "a.b." through the struct types */
    char path[WLEN];
    snprintf(path, sizeof path, "%.*s", (int)(dot - text), text);
    char *save = NULL;
    char *name = strtok_r(path, ".", &save);
    const dw_type *t = NULL;
    if (name) {
        const dw_var *v = NULL;
        if (focus) {
            v = dw_var_lookup(d, pc, name);
        } else {
            for (int i = 0; i < dw_nglobals(d) && !v; i++)
                if (dw_global_get(d, i)->name && !strcmp(dw_global_get(d, i)->name, name))
                    v = dw_global_get(d, i);
        }
        t = v && v->type ? dw_type_strip(v->type) : NULL;
    }
    while (t && (name = strtok_r(NULL, ".", &save)) != NULL) {
        const dw_member *mb = dw_type_member(t, name);
        t = mb && mb->type ? dw_type_strip(mb->type) : NULL;
    }
    if (t && (t->kind == DW_TY_STRUCT || t->kind == DW_TY_UNION || t->kind == DW_TY_CLASS)) {
        char head[WLEN];
        snprintf(head, sizeof head, "%.*s", (int)(dot - text + 1), text);
        for (int i = 0; i < t->nmembers; i++)
            if (t->members[i].name) {
                char full[2 * WLEN];
                snprintf(full, sizeof full, "%s%s", head, t->members[i].name);
                add(k, full);
            }
    }
}

