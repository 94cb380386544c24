/* cmd_tex.c - texture and surface objects over buffers: texture, surface, bind, info textures. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

/* ---------------------------------------------------------------------------------------------
 * The commands parse and print; the session owns the objects (debugger/dbg_tex.c), which survive
 * `file` loading a new module. A texture or surface NAME evaluates to its handle (a .u64), so
 * `launch k<<<1,32>>>(tex, out)`
 * passes it as the cudaTextureObject_t / cudaSurfaceObject_t parameter.
 * ------------------------------------------------------------------------------------------- */

/* ---- parsing ------------------------------------------------------------------------------- */
static int parse_dims(const char *s, uint32_t dims[3], int *nd)
{
    *nd = 0;
    dims[0] = dims[1] = dims[2] = 1;
    while (*s) {
        char *end;
        unsigned long v = strtoul(s, &end, 0);
        if (end == s || v == 0 || v > 0x7fffffffUL || *nd == 3)
            return -1;
        dims[(*nd)++] = (uint32_t)v;
        s = end;
        if (*s == 'x' || *s == 'X')
            s++;
        else if (*s)
            return -1;
    }
    return *nd ? 0 : -1;
}

static int parse_mode(const char *s, exec_tex_addr *m)
{
    static const struct { const char *n; exec_tex_addr m; } t[] = {
        {"wrap", EXEC_TEX_WRAP}, {"mirror", EXEC_TEX_MIRROR}, {"clamp", EXEC_TEX_CLAMP},
        {"border", EXEC_TEX_BORDER},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(s, t[i].n)) {
            *m = t[i].m;
            return 0;
        }
    return -1;
}

static const char *geom_name(exec_tex_geom g)
{
    static const char *const n[] = {"?", "1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
    return (unsigned)g < sizeof n / sizeof n[0] ? n[g] : "?";
}

static const char *mode_name(exec_tex_addr a)
{
    static const char *const n[] = {"wrap", "mirror", "clamp", "border"};
    return (unsigned)a < 4 ? n[a] : "?";
}

/* texture/surface NAME BUFFER TYPE DIMS [options] */
static int create(cmd_ctx *c, int surface, int argc, char **argv)
{
    const char *what = surface ? "surface" : "texture";
    const char *usage = surface
        ? "Usage: surface NAME BUFFER TYPE W[xH[xD]] [channels=N] [layers=N] "
          "[read=element|normalized-float]"
        : "Usage: texture NAME BUFFER TYPE W[xH[xD]] [channels=N] [address=MODE[,MODE,MODE]] "
          "[filter=point|linear] [normalized] [read=element|normalized-float] [border=V[,V,V,V]] "
          "[layers=N] [cube] [linear]";
    if (argc < 4)
        return cmd_error(c, "%s", usage);
    const char *name = argv[0];
    if (dbg_tex_check(c->s, name, argv[1], surface) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    exec_tex_desc d;
    memset(&d, 0, sizeof d);
    d.chtype = dbg_type_from_name(argv[2]);
    if (d.chtype == PTX_T_NONE || d.chtype == PTX_T_PRED)
        return cmd_error(c, "Invalid channel type \"%s\" (u8 s8 u16 s16 u32 s32 f16 f32).", argv[2]);
    uint32_t dims[3];
    int nd;
    if (parse_dims(argv[3], dims, &nd) != 0)
        return cmd_error(c, "Invalid dimensions \"%s\" (W, WxH or WxHxD).", argv[3]);
    d.width = dims[0];
    d.height = dims[1];
    d.depth = dims[2];
    d.channels = 1;
    d.addr_mode[0] = d.addr_mode[1] = d.addr_mode[2] = EXEC_TEX_CLAMP;
    uint32_t layers = 0;
    int cube = 0;
    for (int i = 4; i < argc; i++) {
        const char *o = argv[i], *v = strchr(o, '=');
        size_t kl = v ? (size_t)(v - o) : strlen(o);
        v = v ? v + 1 : "";
#define IS(k) (kl == strlen(k) && !strncmp(o, k, kl))
        char *end;
        if (IS("channels")) {
            long n = strtol(v, &end, 10);
            if (*end || (n != 1 && n != 2 && n != 4))
                return cmd_error(c, "channels must be 1, 2 or 4.");
            d.channels = (int)n;
        } else if (IS("layers")) {
            unsigned long n = strtoul(v, &end, 0);
            if (*end || !n || n > 65536)
                return cmd_error(c, "Invalid layer count \"%s\".", v);
            layers = (uint32_t)n;
        } else if (IS("read")) {
            if (!strcmp(v, "element"))
                d.read_normalized = 0;
            else if (!strcmp(v, "normalized-float") || !strcmp(v, "normalized"))
                d.read_normalized = 1;
            else
                return cmd_error(c, "read must be element or normalized-float.");
        } else if (!surface && IS("address")) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", v);
            int k = 0;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","), k++)
                if (k >= 3 || parse_mode(tok, &d.addr_mode[k]) != 0)
                    return cmd_error(c, "Invalid address mode \"%s\" (wrap, clamp, mirror, "
                                        "border, one or one per dimension).", v);
            if (k == 0)
                return cmd_error(c, "Missing address mode.");
            for (; k < 3; k++)
                d.addr_mode[k] = d.addr_mode[k - 1];
        } else if (!surface && IS("filter")) {
            if (!strcmp(v, "point") || !strcmp(v, "nearest"))
                d.filter_linear = 0;
            else if (!strcmp(v, "linear"))
                d.filter_linear = 1;
            else
                return cmd_error(c, "filter must be point or linear.");
        } else if (!surface && IS("normalized") && !*v) {
            d.normalized = 1;
        } else if (!surface && IS("border")) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", v);
            int k = 0;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","), k++) {
                float f = strtof(tok, &end);
                if (k >= 4 || *end || end == tok)
                    return cmd_error(c, "Invalid border colour \"%s\".", v);
                d.border[k] = f;
            }
            if (k == 1)
                d.border[1] = d.border[2] = d.border[3] = d.border[0];
            else if (k != 4)
                return cmd_error(c, "border takes one value or four.");
        } else if (!surface && IS("cube") && !*v) {
            cube = 1;
        } else if (!surface && IS("linear") && !*v) {
            d.linear = 1;
        } else {
            return cmd_error(c, "Unknown %s option \"%s\".\n%s", what, o, usage);
        }
#undef IS
    }
    if (cube) {
        if (nd != 2 && nd != 1)
            return cmd_error(c, "A cubemap takes W or WxW (the face size).");
        d.height = d.width;
        d.geom = layers ? EXEC_TEX_ACUBE : EXEC_TEX_CUBE;
        d.layers = layers ? 6 * layers : 6;
    } else if (layers) {
        if (nd > 2)
            return cmd_error(c, "Layered %ss are 1D or 2D.", what);
        d.geom = nd == 1 ? EXEC_TEX_A1D : EXEC_TEX_A2D;
        d.layers = layers;
    } else {
        d.geom = nd == 1 ? EXEC_TEX_1D : nd == 2 ? EXEC_TEX_2D : EXEC_TEX_3D;
        d.layers = 1;
    }
    uint64_t h;
    if (dbg_tex_create(c->s, name, argv[1], surface, &d, &h) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    if (c->interactive)
        printf("%s %s = handle %llu\n", surface ? "Surface" : "Texture", name,
               (unsigned long long)h);
    return 0;
}

int cmd_texture(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    return create(c, 0, argc, argv);
}

int cmd_surface(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    return create(c, 1, argc, argv);
}

/* bind VAR NAME|none */
int cmd_bind(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc != 2)
        return cmd_error(c, "Usage: bind TEXREF|SURFREF|SAMPLERREF NAME|none");
    if (dbg_tex_bind(c->s, argv[0], strcmp(argv[1], "none") ? argv[1] : NULL) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    return 0;
}

int cmd_info_textures(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    int nt = dbg_tex_count(c->s), nb = dbg_tex_nbindings(c->s);
    if (!nt && !nb) {
        printf("No textures or surfaces.\n");
        return 0;
    }
    printf("%-12s %-7s %6s %-12s %-4s %2s %-5s %-14s %s\n", "Name", "Kind", "Handle", "Buffer",
           "Type", "Ch", "Geom", "Size", "Sampling");
    for (int i = 0; i < nt; i++) {
        dbg_tex_row row;
        dbg_tex_row_at(c->s, i, &row);
        const dbg_tex_row *e = &row;
        const exec_tex_desc *d = &e->d;
        char size[48], samp[160] = "";
        if (d->geom == EXEC_TEX_1D)
            snprintf(size, sizeof size, "%u", d->width);
        else if (d->geom == EXEC_TEX_3D)
            snprintf(size, sizeof size, "%ux%ux%u", d->width, d->height, d->depth);
        else if (d->geom == EXEC_TEX_2D || d->geom == EXEC_TEX_CUBE)
            snprintf(size, sizeof size, "%ux%u", d->width, d->height);
        else if (d->geom == EXEC_TEX_A1D)
            snprintf(size, sizeof size, "%u[%u]", d->width, d->layers);
        else
            snprintf(size, sizeof size, "%ux%u[%u]", d->width, d->height,
                     d->geom == EXEC_TEX_ACUBE ? d->layers / 6 : d->layers);
        if (!e->surface)
            snprintf(samp, sizeof samp, "%s %s,%s,%s%s%s%s", d->filter_linear ? "linear" : "point",
                     mode_name(d->addr_mode[0]), mode_name(d->addr_mode[1]),
                     mode_name(d->addr_mode[2]), d->normalized ? " normalized" : "",
                     d->read_normalized ? " read=normalized-float" : "",
                     d->linear ? " linear-memory" : "");
        else if (d->read_normalized)
            snprintf(samp, sizeof samp, "read=normalized-float");
        int live = e->live;
        printf("%-12s %-7s %6llu %-12s %-4s %2d %-5s %-14s %s%s\n", e->name,
               e->surface ? "surface" : "texture", (unsigned long long)e->handle, e->buffer,
               dbg_type_name(d->chtype), d->channels, geom_name(d->geom), size, samp,
               live ? "" : "  (buffer missing)");
    }
    if (nb) {
        printf("Bindings:\n");
        for (int i = 0; i < nb; i++) {
            const char *var, *obj;
            dbg_tex_binding_at(c->s, i, &var, &obj);
            printf("  %s -> %s\n", var, obj);
        }
    }
    return 0;
}
