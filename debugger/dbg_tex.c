/* dbg_tex.c - the session's named texture and surface objects over buffers, and their bindings. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

/* ---------------------------------------------------------------------------------------------
 * The session names objects; the core (exec_tex.c) holds them per machine. Every object
 * remembers its buffer by name and its handle, so after a load of a new module (a new machine,
 * buffers reallocated) the objects and bindings are recreated with the same handles the first
 * time they are needed (naming one in an expression, bind, the table).
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    char name[64], buffer[64];
    int surface;
    exec_tex_desc d;          /* addr is refreshed from the buffer */
    uint64_t handle;
} tex_entry;

typedef struct {
    char var[128], obj[64];
} tex_bindent;

struct dbg_tex_table {
    tex_entry *e;
    int n;
    tex_bindent *b;
    int nb;
};

static struct dbg_tex_table *table(dbg_session *s)
{
    if (!s->tex)
        s->tex = calloc(1, sizeof *s->tex);
    return s->tex;
}

void dbg_tex_free(dbg_session *s)
{
    struct dbg_tex_table *t = s->tex;
    if (!t)
        return;
    free(t->e);
    free(t->b);
    free(t);
    s->tex = NULL;
}

static tex_entry *find(struct dbg_tex_table *t, const char *name)
{
    for (int i = 0; t && i < t->n; i++)
        if (!strcmp(t->e[i].name, name))
            return &t->e[i];
    return NULL;
}

/* Make the machine hold every object and binding (after a reload: recreate them). */
static void sync(dbg_session *s)
{
    struct dbg_tex_table *t = s->tex;
    exec_machine *m = s->m;
    if (!t || !m)
        return;
    for (int i = 0; i < t->n; i++) {
        tex_entry *e = &t->e[i];
        const dbg_buffer *b = dbg_buffer_find(s, e->buffer);
        if (!b)
            continue;
        exec_tex_desc cur;
        int surf;
        if (exec_tex_query(m, e->handle, &surf, &cur) == 0 && surf == e->surface &&
            cur.addr == b->addr)
            continue;
        exec_tex_desc d = e->d;
        uint64_t h = e->handle;
        d.addr = b->addr;
        if (exec_tex_create(m, e->surface, &d, &h) == 0)
            e->d.addr = b->addr;
    }
    for (int i = 0; i < t->nb; i++) {
        tex_entry *e = find(t, t->b[i].obj);
        uint64_t cur;
        if (e && exec_tex_binding(m, t->b[i].var, &cur) == 0 && cur != e->handle)
            exec_tex_bind(m, t->b[i].var, e->handle);
    }
}

int dbg_tex_ident(dbg_session *s, const char *name, dbg_value *out)
{
    tex_entry *e = find(s->tex, name);
    if (!e)
        return 0;
    sync(s);
    dbg_value_from_bits(out, PTX_T_U64, e->handle);
    return 1;
}

static int valid_name(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

int dbg_tex_check(dbg_session *s, const char *name, const char *buffer, int surface)
{
    if (!s->m)
        return dbg_err(s, "No PTX module loaded.");
    if (!valid_name(name) || strlen(name) >= 64)
        return dbg_err(s, "Invalid %s name \"%s\".", surface ? "surface" : "texture", name);
    if (!table(s))
        return dbg_err(s, "Out of memory.");
    if (find(s->tex, name) || dbg_buffer_find(s, name))
        return dbg_err(s, "\"%s\" already names a buffer, texture or surface.", name);
    if (!dbg_buffer_find(s, buffer))
        return dbg_err(s, "No buffer named \"%s\".", buffer);
    return 0;
}

int dbg_tex_create(dbg_session *s, const char *name, const char *buffer, int surface,
                   const exec_tex_desc *desc, uint64_t *handle)
{
    if (dbg_tex_check(s, name, buffer, surface) != 0)
        return -1;
    struct dbg_tex_table *t = s->tex;
    const dbg_buffer *b = dbg_buffer_find(s, buffer);
    exec_tex_desc d = *desc;
    d.addr = b->addr;
    uint64_t h = 0;
    /* never reuse a handle still named by another entry (after a reload) */
    for (int i = 0; i < t->n; i++)
        if (t->e[i].handle > h)
            h = t->e[i].handle;
    h++;
    sync(s);
    exec_machine *m = s->m;
    exec_tex_desc got;
    while (exec_tex_query(m, h, NULL, NULL) == 0)
        h++;
    if (exec_tex_create(m, surface, &d, &h) != 0)
        return dbg_err(s, "%s", exec_errmsg(m));
    exec_tex_query(m, h, NULL, &got);
    tex_entry *ne = realloc(t->e, (size_t)(t->n + 1) * sizeof *ne);
    if (!ne) {
        exec_tex_destroy(m, h);
        return dbg_err(s, "Out of memory.");
    }
    t->e = ne;
    tex_entry *e = &t->e[t->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->buffer, sizeof e->buffer, "%s", b->name);
    e->surface = surface;
    e->d = got;
    e->handle = h;
    *handle = h;
    return 0;
}

int dbg_tex_bind(dbg_session *s, const char *var, const char *obj)
{
    exec_machine *m = s->m;
    if (!m)
        return dbg_err(s, "No PTX module loaded.");
    struct dbg_tex_table *t = table(s);
    if (!t)
        return dbg_err(s, "Out of memory.");
    sync(s);
    uint64_t h = 0, cur;
    if (exec_tex_binding(m, var, &cur) != 0)
        return dbg_err(s, "No module-scope .texref, .samplerref or .surfref variable \"%s\".", var);
    if (obj) {
        tex_entry *e = find(t, obj);
        if (!e)
            return dbg_err(s, "No texture or surface named \"%s\".", obj);
        h = e->handle;
    }
    if (exec_tex_bind(m, var, h) != 0)
        return dbg_err(s, "%s", exec_errmsg(m));
    int i;
    for (i = 0; i < t->nb && strcmp(t->b[i].var, var); i++)
        ;
    if (!obj) {
        if (i < t->nb)
            t->b[i] = t->b[--t->nb];
        return 0;
    }
    if (i == t->nb) {
        tex_bindent *nb = realloc(t->b, (size_t)(t->nb + 1) * sizeof *nb);
        if (!nb)
            return dbg_err(s, "Out of memory.");
        t->b = nb;
        t->nb++;
    }
    snprintf(t->b[i].var, sizeof t->b[i].var, "%s", var);
    snprintf(t->b[i].obj, sizeof t->b[i].obj, "%s", obj);
    return 0;
}

int dbg_tex_count(dbg_session *s)
{
    if (!s->tex)
        return 0;
    sync(s);
    return s->tex->n;
}

int dbg_tex_row_at(dbg_session *s, int i, dbg_tex_row *row)
{
    struct dbg_tex_table *t = s->tex;
    if (!t || i < 0 || i >= t->n)
        return -1;
    const tex_entry *e = &t->e[i];
    row->name = e->name;
    row->buffer = e->buffer;
    row->surface = e->surface;
    row->d = e->d;
    row->handle = e->handle;
    row->live = s->m && exec_tex_query(s->m, e->handle, NULL, NULL) == 0;
    return 0;
}

int dbg_tex_nbindings(const dbg_session *s) { return s->tex ? s->tex->nb : 0; }

int dbg_tex_binding_at(const dbg_session *s, int i, const char **var, const char **obj)
{
    if (!s->tex || i < 0 || i >= s->tex->nb)
        return -1;
    *var = s->tex->b[i].var;
    *obj = s->tex->b[i].obj;
    return 0;
}
