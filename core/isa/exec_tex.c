/* exec_tex.c - textures and surfaces: object table, bindings, tex tld4 txq istypep suld sust sured suq. */
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "exec_core.h"
#include "exec_fp.h"

/* ---------------------------------------------------------------------------------------------
 * Objects live in a table hung off exec_machine.tex (arena memory, freed with the machine):
 * handle h names objs[h - 1]. Module variables of the opaque types are bound by index.
 *
 * Sampling (CUDA C Programming Guide, "Texture Fetching"; PTX ISA "Texture Instructions"):
 *  - normalized coordinates are scaled by the size of their dimension first (x * W, f32);
 *  - point sampling: texel i = floor(x) (+ offset);
 *  - linear filtering: xB = x - 0.5, i = floor(xB), alpha = frac(xB) rounded to 1.8 fixed point
 *    (8 fractional bits), tex = (1 - a) T[i] + a T[i+1] (2D/3D: products of the weights in the
 *    guide's order), in f32; only for textures returning floats;
 *  - address modes per dimension on the texel indices: wrap (i mod N), mirror (period 2N),
 *    clamp (to [0, N-1]), border (outside texels are the border colour). Wrap and mirror exist
 *    only for normalized coordinates; with unnormalized ones they act as clamp;
 *  - integer (.s32) coordinates index texels directly, unfiltered;
 *  - channel values: float channels as f32 (f16 widened), integer channels as their integer
 *    (element type read mode) or, for 8/16-bit channels in normalized-float read mode, as
 *    u/255, max(s/127, -1) (16-bit: 65535, 32767). Missing channels read 0, alpha 1.
 * Surfaces: suld.b/sust.b/sured.b take the x coordinate in bytes, sust.p/sured.p in elements;
 * .trap faults out of range, .clamp moves to the nearest element, .zero loads 0 / drops.
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    int used, surface;
    exec_tex_desc d;
} tex_obj;

typedef struct {
    tex_obj *objs;
    uint32_t nobjs, cap;      /* handles 1..nobjs were given out */
    uint64_t *bind;           /* per module variable: bound handle, 0 = none */
} tex_state;

#define TEX_MAX_OBJS 65536u

static tex_state *tex_st(exec_machine *m, int create)
{
    tex_state *st = m->tex;
    if (st || !create)
        return st;
    st = exec_arena_alloc(m, sizeof *st);
    if (!st)
        return NULL;
    st->bind = exec_arena_alloc(m, sizeof(uint64_t) * (size_t)(m->mod->nvars + 1));
    if (!st->bind)
        return NULL;
    m->tex = st;
    return st;
}

static const tex_obj *tex_obj_of(const exec_machine *m, uint64_t h)
{
    const tex_state *st = m->tex;
    if (!st || h == 0 || h > st->nobjs || !st->objs[h - 1].used)
        return NULL;
    return &st->objs[h - 1];
}

static int tex_is_ref_var(const ptx_sym *s)
{
    return s->space == PTX_SPACE_TEX || s->type == PTX_T_TEXREF || s->type == PTX_T_SAMPLERREF ||
           s->type == PTX_T_SURFREF;
}

static int tex_chtype_ok(ptx_type t)
{
    switch (t) {
    case PTX_T_U8: case PTX_T_S8: case PTX_T_U16: case PTX_T_S16: case PTX_T_U32: case PTX_T_S32:
    case PTX_T_F16: case PTX_T_F32:
        return 1;
    default:
        return 0;
    }
}

/* The texture returns floats (f16/f32 channels, or 8/16-bit integers read normalized). */
static int tex_returns_float(const exec_tex_desc *d)
{
    if (d->chtype == PTX_T_F16 || d->chtype == PTX_T_F32)
        return 1;
    return d->read_normalized && ptx_type_bits(d->chtype) <= 16;
}

static uint32_t tex_esize(const exec_tex_desc *d)
{
    return (uint32_t)(ptx_type_bits(d->chtype) / 8 * d->channels);
}

/* Bytes from one row of elements to the next. */
static uint64_t tex_pitch(const exec_tex_desc *d)
{
    return d->pitch ? d->pitch : (uint64_t)d->width * tex_esize(d);
}

static uint64_t tex_bytes(const exec_tex_desc *d)
{
    return tex_pitch(d) * d->height * d->depth * d->layers;
}

/* ---- public API ------------------------------------------------------------------------------ */
static int tex_err(exec_machine *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int tex_err(exec_machine *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->err, sizeof m->err, fmt, ap);
    va_end(ap);
    return -1;
}

int exec_tex_create(exec_machine *m, int surface, const exec_tex_desc *din, uint64_t *handle)
{
    exec_tex_desc d = *din;
    const char *what = surface ? "surface" : "texture";
    if (!tex_chtype_ok(d.chtype))
        return tex_err(m, "%s: channel type must be u8 s8 u16 s16 u32 s32 f16 or f32",
                       what);
    if (d.channels != 1 && d.channels != 2 && d.channels != 4)
        return tex_err(m, "%s: channels must be 1, 2 or 4 (not %d)", what,
                       d.channels);
    if (d.width == 0) d.width = 1;
    if (d.height == 0) d.height = 1;
    if (d.depth == 0) d.depth = 1;
    if (d.layers == 0) d.layers = 1;
    switch (d.geom) {
    case EXEC_TEX_1D: d.height = d.depth = d.layers = 1; break;
    case EXEC_TEX_2D: d.depth = d.layers = 1; break;
    case EXEC_TEX_3D: d.layers = 1; break;
    case EXEC_TEX_A1D: d.height = d.depth = 1; break;
    case EXEC_TEX_A2D: d.depth = 1; break;
    case EXEC_TEX_CUBE:
    case EXEC_TEX_ACUBE:
        d.depth = 1;
        if (d.width != d.height)
            return tex_err(m, "%s: cubemap faces must be square", what);
        if (d.geom == EXEC_TEX_CUBE)
            d.layers = 6;
        else if (d.layers % 6)
            return tex_err(m, "%s: a cubemap array needs a multiple of 6 layers (not %u)",
                           what, d.layers);
        break;
    default:
        return tex_err(m, "%s: bad geometry", what);
    }
    if (surface && (d.geom == EXEC_TEX_CUBE || d.geom == EXEC_TEX_ACUBE))
        return tex_err(m, "%s: surfaces are 1d, 2d, 3d, a1d or a2d", what);
    if (d.linear && d.geom != EXEC_TEX_1D)
        return tex_err(m, "%s: only 1D textures can be linear-memory textures", what);
    if (!surface && d.filter_linear && !tex_returns_float(&d))
        return tex_err(m, "%s: linear filtering needs a texture that returns floats (float "
                       "channels or read=normalized-float)", what);
    if (d.pitch && (d.pitch < (uint64_t)d.width * tex_esize(&d) || d.linear))
        return tex_err(m, "%s: a row pitch of %" PRIu64 " bytes is less than a row of %u "
                       "elements", what, d.pitch, d.width);
    if (d.read_normalized && ptx_type_bits(d.chtype) > 16)
        return tex_err(m, "%s: read=normalized-float needs 8- or 16-bit integer channels", what);
    for (int k = 0; k < 3; k++)
        if ((unsigned)d.addr_mode[k] > EXEC_TEX_BORDER)
            return tex_err(m, "%s: bad address mode", what);
    uint64_t bytes = tex_bytes(&d);
    if ((uint64_t)d.width * d.height * d.depth * d.layers > (1ull << 32))
        return tex_err(m, "%s: too many elements", what);
    if (!mem_global_find(&m->glob, d.addr, bytes))
        return tex_err(m, "%s: %" PRIu64 " bytes of elements do not fit in the memory at that "
                       "address", what, bytes);
    tex_state *st = tex_st(m, 1);
    if (!st)
        return tex_err(m, "%s: out of memory", what);
    uint64_t h = *handle ? *handle : (uint64_t)st->nobjs + 1;
    if (h > TEX_MAX_OBJS)
        return tex_err(m, "%s: too many texture and surface objects", what);
    if (h > st->cap) {
        uint32_t nc = st->cap ? st->cap : 16;
        while (nc < h)
            nc *= 2;
        tex_obj *no = exec_arena_alloc(m, sizeof *no * nc);
        if (!no)
            return tex_err(m, "%s: out of memory", what);
        if (st->nobjs)
            memcpy(no, st->objs, sizeof *no * st->nobjs);
        st->objs = no;
        st->cap = nc;
    }
    if (h > st->nobjs)
        st->nobjs = (uint32_t)h;
    tex_obj *o = &st->objs[h - 1];
    o->used = 1;
    o->surface = !!surface;
    o->d = d;
    *handle = h;
    return 0;
}

int exec_tex_destroy(exec_machine *m, uint64_t h)
{
    tex_state *st = tex_st(m, 0);
    if (!tex_obj_of(m, h))
        return tex_err(m, "no texture or surface object %" PRIu64, h);
    st->objs[h - 1].used = 0;
    for (int i = 0; i < m->mod->nvars; i++)
        if (st->bind[i] == h)
            st->bind[i] = 0;
    return 0;
}

int exec_tex_query(const exec_machine *m, uint64_t h, int *surface, exec_tex_desc *d)
{
    const tex_obj *o = tex_obj_of(m, h);
    if (!o)
        return -1;
    if (surface)
        *surface = o->surface;
    if (d)
        *d = o->d;
    return 0;
}

static int tex_var_index(const exec_machine *m, const char *name)
{
    for (int i = 0; i < m->mod->nvars; i++)
        if (!strcmp(m->mod->vars[i]->name, name) && tex_is_ref_var(m->mod->vars[i]))
            return i;
    return -1;
}

int exec_tex_bind(exec_machine *m, const char *var, uint64_t h)
{
    int vi = tex_var_index(m, var);
    if (vi < 0)
        return tex_err(m, "no module-scope .texref, .samplerref or .surfref variable \"%s\"", var);
    const ptx_sym *s = m->mod->vars[vi];
    const tex_obj *o = tex_obj_of(m, h);
    if (h && !o)
        return tex_err(m, "%s: no texture or surface object %" PRIu64, var, h);
    if (o && o->surface != (s->type == PTX_T_SURFREF))
        return tex_err(m, "%s is a %s: bind a %s object", var,
                       s->type == PTX_T_SURFREF ? ".surfref" : "texture reference",
                       s->type == PTX_T_SURFREF ? "surface" : "texture");
    tex_state *st = tex_st(m, 1);
    if (!st)
        return tex_err(m, "%s: out of memory", var);
    st->bind[vi] = h;
    return 0;
}

int exec_tex_binding(const exec_machine *m, const char *var, uint64_t *h)
{
    int vi = tex_var_index(m, var);
    if (vi < 0)
        return -1;
    const tex_state *st = m->tex;
    *h = st ? st->bind[vi] : 0;
    return 0;
}

/* ---- decoded form -------------------------------------------------------------------------- */
enum { TS_NONE, TS_REG, TS_VAR, TS_KPARAM };
typedef struct {
    int kind;
    exec_opnd o;              /* REG: the .u64 register */
    int64_t v;                /* VAR: module var index; KPARAM: offset in the kernel params */
} tex_ref;

enum { Q_WIDTH, Q_HEIGHT, Q_DEPTH, Q_CDT, Q_CORDER, Q_NORM, Q_ARRAY, Q_MIPS, Q_SAMPLES,
       Q_FORCEUN, Q_FILTER, Q_AM0, Q_AM1, Q_AM2, Q_LAYOUT };
enum { CL_TRAP, CL_CLAMP, CL_ZERO };
enum { R_ADD, R_MIN, R_MAX, R_AND, R_OR };

typedef struct {
    int geom;
    tex_ref h, smp;
    exec_opnd dst[4];
    int nd;
    exec_opnd crd[4];         /* as written: array index first for a1d/a2d/acube */
    int nc;
    exec_opnd off[3];
    int noff;
    exec_opnd src[4];
    int ns;
    int cint;                 /* .s32 coordinates */
    ptx_type dtype;
    int comp;                 /* tld4: 0..3 */
    int query, level;
    exec_opnd lod;
    int clamp, fmt, redop;    /* surfaces: fmt = .p */
    int esz;                  /* surfaces: bytes per data element */
    int want;                 /* istypep: 0 texref 1 samplerref 2 surfref */
} tex_ext;

static const struct { const char *n; int g; } tex_geoms[] = {
    {"1d", EXEC_TEX_1D}, {"2d", EXEC_TEX_2D}, {"3d", EXEC_TEX_3D}, {"a1d", EXEC_TEX_A1D},
    {"a2d", EXEC_TEX_A2D}, {"cube", EXEC_TEX_CUBE}, {"acube", EXEC_TEX_ACUBE},
};

static int tex_geom_of(const char *s)
{
    for (size_t i = 0; i < sizeof tex_geoms / sizeof tex_geoms[0]; i++)
        if (!strcmp(s, tex_geoms[i].n))
            return tex_geoms[i].g;
    return 0;
}

/* Coordinates needed per geometry (array index included). */
static int tex_ncoords(int g)
{
    switch (g) {
    case EXEC_TEX_1D: return 1;
    case EXEC_TEX_2D: case EXEC_TEX_A1D: return 2;
    case EXEC_TEX_3D: case EXEC_TEX_A2D: case EXEC_TEX_CUBE: return 3;
    default: return 4;
    }
}
static int tex_is_array(int g)
{
    return g == EXEC_TEX_A1D || g == EXEC_TEX_A2D || g == EXEC_TEX_ACUBE;
}
/* Spatial dimensions of a (non-cube) geometry: 1, 2 or 3. */
static int tex_ndims(int g)
{
    return g == EXEC_TEX_1D || g == EXEC_TEX_A1D ? 1 : g == EXEC_TEX_3D ? 3 : 2;
}

/* Decode parsed operand o as a source of type t into *out. */
static int tex_dec_opnd(exec_dec *d, const ptx_insn *pi, const ptx_operand *o, ptx_type t,
                        exec_opnd *out, int dst)
{
    exec_insn tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.src = pi;
    int rc = dst ? exec_dec_dst(d, &tmp, 0, o, t) : exec_dec_src(d, &tmp, 0, o, t);
    *out = tmp.op[0];
    return rc;
}

/* The texture/sampler/surface named by operand o (register, module variable, kernel param). */
static int tex_dec_ref(exec_dec *d, const ptx_insn *pi, const ptx_operand *o, tex_ref *r)
{
    const ptx_sym *s = o->sym;
    if (!s)
        return exec_dec_error(d, pi, "expected a texture, sampler or surface operand");
    if (s->kind == PTX_SYM_REG) {
        ptx_operand ro = *o;
        ro.kind = PTX_OP_REG;
        ro.comp = -1;
        r->kind = TS_REG;
        return tex_dec_opnd(d, pi, &ro, PTX_T_U64, &r->o, 0);
    }
    if (s->kind != PTX_SYM_VAR)
        return exec_dec_error(d, pi, "%s is not a texture, sampler or surface", s->name);
    if (!s->owner) {
        for (int i = 0; i < d->mod->nvars; i++)
            if (d->mod->vars[i] == s) {
                if (!tex_is_ref_var(s))
                    return exec_dec_error(d, pi, "%s is not a .texref, .samplerref or .surfref",
                                          s->name);
                r->kind = TS_VAR;
                r->v = i;
                return 0;
            }
        return exec_dec_error(d, pi, "unknown variable %s", s->name);
    }
    ptx_space sp;
    uint64_t off;
    int pl;
    if (exec_dec_var(d, s, &sp, &off, &pl) || pl != 3 || ptx_type_bits(s->type) != 64)
        return exec_dec_error(d, pi, "%s must be a 64-bit kernel parameter, a module .texref/"
                              ".samplerref/.surfref or a .u64 register", s->name);
    r->kind = TS_KPARAM;
    r->v = (int64_t)off;
    return 0;
}

/* [a, {b,} c]: handle, optional sampler, coordinate vector (or scalar) of ncrd elements. */
static int tex_dec_addr(exec_dec *d, const ptx_insn *pi, const ptx_operand *ad, tex_ext *x,
                        int need_coords, ptx_type ctype)
{
    if (ad->kind != PTX_OP_ADDR)
        return exec_dec_error(d, pi, "expected [texture, coordinates]");
    if (tex_dec_ref(d, pi, ad, &x->h))
        return -1;
    int ne = ad->nelems;
    if (!need_coords) {
        if (ne)
            return exec_dec_error(d, pi, "expected [a]");
        return 0;
    }
    if (ne < 1 || ne > 2)
        return exec_dec_error(d, pi, "expected [a, c] or [a, b, c]");
    if (ne == 2 && tex_dec_ref(d, pi, &ad->elems[0], &x->smp))
        return -1;
    const ptx_operand *c = &ad->elems[ne - 1];
    const ptx_operand *el = c;
    int n = 1;
    if (c->kind == PTX_OP_VEC) {
        el = c->elems;
        n = c->nelems;
    }
    int want = tex_ncoords(x->geom);
    if (n < want)
        return exec_dec_error(d, pi, "expected %d coordinate%s, got %d", want,
                              want == 1 ? "" : "s", n);
    for (int k = 0; k < want; k++) {
        ptx_type t = k == 0 && tex_is_array(x->geom) ? PTX_T_U32 : ctype;
        if (tex_dec_opnd(d, pi, &el[k], t, &x->crd[k], 0))
            return -1;
    }
    x->nc = want;
    return 0;
}

/* Optional trailing offset vector e (tex/tld4); a scalar depth-compare operand is refused. */
static int tex_dec_offsets(exec_dec *d, const ptx_insn *pi, int first, tex_ext *x)
{
    for (int k = first; k < pi->nops; k++) {
        const ptx_operand *o = &pi->ops[k];
        if (o->kind != PTX_OP_VEC)
            return exec_dec_error(d, pi, "depth compare operands are not supported");
        if (x->noff)
            return exec_dec_error(d, pi, "too many operands");
        int dims = tex_ndims(x->geom);
        if (x->geom == EXEC_TEX_CUBE || x->geom == EXEC_TEX_ACUBE)
            return exec_dec_error(d, pi, "offsets are not supported for cubemaps");
        if (o->nelems < dims)
            return exec_dec_error(d, pi, "expected %d offset%s", dims, dims == 1 ? "" : "s");
        for (int j = 0; j < dims; j++)
            if (tex_dec_opnd(d, pi, &o->elems[j], PTX_T_S32, &x->off[j], 0))
                return -1;
        x->noff = dims;
    }
    return 0;
}

/* Exactly n operands of type t (a scalar or a vector) into out[]: destinations (dst), or data
 * sources, which may not be sinks; `what` names them in the count error. */
static int tex_dec_list(exec_dec *d, const ptx_insn *pi, const ptx_operand *o, ptx_type t,
                        int n, exec_opnd *out, int dst, const char *what)
{
    const ptx_operand *el = o;
    int ne = 1;
    if (o->kind == PTX_OP_VEC) {
        el = o->elems;
        ne = o->nelems;
    }
    if (ne != n)
        return exec_dec_error(d, pi, "expected %d %s%s, got %d", n, what, n == 1 ? "" : "s", ne);
    for (int k = 0; k < n; k++) {
        if (!dst && el[k].kind == PTX_OP_SINK)
            return exec_dec_error(d, pi, "a sink cannot be stored");
        if (tex_dec_opnd(d, pi, &el[k], t, &out[k], dst))
            return -1;
    }
    return 0;
}

static int tex_dec_dsts(exec_dec *d, const ptx_insn *pi, const ptx_operand *o, ptx_type t,
                        int n, exec_opnd *out)
{
    return tex_dec_list(d, pi, o, t, n, out, 1, "destination");
}

/* ---- run-time helpers ------------------------------------------------------------------------ */
/* The object a handle value names: an object handle or the address of a bound module variable. */
static const tex_obj *tex_lookup(const exec_machine *m, uint64_t h, const char **varname)
{
    const tex_obj *o = tex_obj_of(m, h);
    if (o)
        return o;
    const tex_state *st = m->tex;
    for (int i = 0; i < m->mod->nvars; i++)
        if (tex_is_ref_var(m->mod->vars[i]) && m->gvar_addr[i] == h) {
            *varname = m->mod->vars[i]->name;
            return st ? tex_obj_of(m, st->bind[i]) : NULL;
        }
    return NULL;
}

/* Resolve the reference for lane i; NULL after raising a fault. want_surface: 1 surface,
 * 0 texture/sampler. */
static const tex_obj *tex_resolve(exec_warp *w, const exec_insn *in, const tex_ref *r, int i,
                                  int want_surface, const char *role)
{
    exec_machine *m = w->m;
    const tex_obj *o = NULL;
    const char *var = NULL;
    uint64_t h = 0;
    switch (r->kind) {
    case TS_REG:
        h = ((const uint64_t *)exec_opnd_ptr(EXEC_R(w), &r->o))[i];
        o = tex_lookup(m, h, &var);
        break;
    case TS_VAR: {
        const tex_state *st = m->tex;
        var = m->mod->vars[r->v]->name;
        h = st ? st->bind[r->v] : 0;
        o = tex_obj_of(m, h);
        break;
    }
    case TS_KPARAM:
        if ((uint64_t)r->v + 8 <= m->kparam_size)
            memcpy(&h, m->kparams + r->v, 8);
        o = tex_lookup(m, h, &var);
        break;
    default:
        break;
    }
    if (!o) {
        if (var)
            exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, i, PTX_SPACE_NONE, h, 0,
                       "%s reference %s is not bound to an object (see `bind`)", role, var);
        else
            exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, i, PTX_SPACE_NONE, h, 0,
                       "invalid %s handle 0x%" PRIx64 ": no such %s object", role, h,
                       want_surface ? "surface" : "texture");
        return NULL;
    }
    if (o->surface != want_surface) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, i, PTX_SPACE_NONE, h, 0,
                   "%s handle 0x%" PRIx64 " names a %s object", role, h,
                   o->surface ? "surface" : "texture");
        return NULL;
    }
    return o;
}

/* Host bytes of an object's elements; NULL after a fault (memory freed since). */
static uint8_t *tex_host(exec_warp *w, const exec_insn *in, const tex_obj *o, int i)
{
    uint64_t n = tex_bytes(&o->d);
    mem_region *r = mem_global_find(&w->m->glob, o->d.addr, n);
    if (!r) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, i, PTX_SPACE_GLOBAL, o->d.addr, 0,
                   "the memory of %s object at 0x%" PRIx64 " (%" PRIu64 " bytes) is no longer "
                   "allocated", o->surface ? "surface" : "texture", o->d.addr, n);
        return NULL;
    }
    uint8_t *host = r->data + (o->d.addr - r->base);
    /* observers see the object's whole range (a surface as written: it may be) */
    if (__builtin_expect((w->m->obs_spaces >> PTX_SPACE_GLOBAL) & 1, 0) &&
        exec_obs_lane(w, in, i, PTX_SPACE_GLOBAL, o->d.addr, n,
                      o->surface ? EXEC_ACC_WRITE : EXEC_ACC_READ, EXEC_ACC_OK, EXEC_ACC_F_OBJ,
                      r, host))
        return NULL;   /* a parallel worker: CTAs communicate through it (exec_par.c) */
    return host;
}

static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Sampling context of one lane. */
typedef struct {
    const exec_tex_desc *d;
    const uint8_t *base;
    uint32_t es;
    int isfloat;
    exec_tex_addr am[3];
    int normalized, linear_filter;
} tex_ctx;

/* Channel values of element (x, y, z, layer) (indices in range) as 32-bit patterns. */
static void tex_texel(const tex_ctx *c, int64_t x, int64_t y, int64_t z, uint32_t layer,
                      uint32_t out[4])
{
    const exec_tex_desc *d = c->d;
    uint64_t row = (((uint64_t)layer * d->depth + (uint64_t)z) * d->height + (uint64_t)y);
    const uint8_t *p = c->base + row * tex_pitch(d) + (uint64_t)x * c->es;
    int nrm = c->isfloat;
    for (int k = 0; k < 4; k++) {
        if (k >= d->channels) {
            out[k] = k == 3 ? (nrm ? f2u(1.0f) : 1u) : 0u;
            continue;
        }
        switch (d->chtype) {
        case PTX_T_U8:
            out[k] = nrm ? f2u((float)p[k] / 255.0f) : p[k];
            break;
        case PTX_T_S8: {
            int8_t v = (int8_t)p[k];
            out[k] = nrm ? f2u(fmaxf((float)v / 127.0f, -1.0f)) : (uint32_t)(int32_t)v;
            break;
        }
        case PTX_T_U16: {
            uint16_t v;
            memcpy(&v, p + 2 * k, 2);
            out[k] = nrm ? f2u((float)v / 65535.0f) : v;
            break;
        }
        case PTX_T_S16: {
            int16_t v;
            memcpy(&v, p + 2 * k, 2);
            out[k] = nrm ? f2u(fmaxf((float)v / 32767.0f, -1.0f)) : (uint32_t)(int32_t)v;
            break;
        }
        case PTX_T_F16: {
            uint16_t v;
            memcpy(&v, p + 2 * k, 2);
            out[k] = f2u(exec_h2f(v));
            break;
        }
        default:
            memcpy(&out[k], p + 4 * k, 4);
            break;
        }
    }
}

/* Index i of a dimension of n elements under address mode am: -1 = border. */
static int64_t tex_map(int64_t i, uint32_t n, exec_tex_addr am, int normalized)
{
    int64_t N = n;
    if (normalized && am == EXEC_TEX_WRAP)
        return ((i % N) + N) % N;
    if (normalized && am == EXEC_TEX_MIRROR) {
        int64_t p = ((i % (2 * N)) + 2 * N) % (2 * N);
        return p < N ? p : 2 * N - 1 - p;
    }
    if (am == EXEC_TEX_BORDER)
        return i < 0 || i >= N ? -1 : i;
    return i < 0 ? 0 : i >= N ? N - 1 : i;
}

static int64_t tex_floor(float f)
{
    if (f != f)
        return 0;
    if (f < -1e15f)
        return (int64_t)-1e15;
    if (f > 1e15f)
        return (int64_t)1e15;
    return (int64_t)floorf(f);
}

static void tex_border(const tex_ctx *c, uint32_t out[4])
{
    for (int k = 0; k < 4; k++)
        out[k] = c->isfloat ? f2u(c->d->border[k]) : (uint32_t)(int32_t)c->d->border[k];
}

/* Element at mapped indices (any -1: border colour). */
static void tex_fetch(const tex_ctx *c, int64_t x, int64_t y, int64_t z, uint32_t layer,
                      uint32_t out[4])
{
    if (x < 0 || y < 0 || z < 0)
        tex_border(c, out);
    else
        tex_texel(c, x, y, z, layer, out);
}

static uint32_t tex_dim(const exec_tex_desc *d, int k)
{
    return k == 0 ? d->width : k == 1 ? d->height : d->depth;
}

/* Weight of the 1.8 fixed-point fraction. */
static float tex_weight(float frac)
{
    return rintf(frac * 256.0f) / 256.0f;
}

/* Sample at float coordinates u[0..nd-1] (already scaled to texel units), integer offsets. */
static void tex_sample_f(const tex_ctx *c, int nd, const float *u, const int32_t *off,
                         uint32_t layer, uint32_t out[4])
{
    int64_t i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
    float a[3] = {0, 0, 0};
    if (!c->linear_filter) {
        for (int k = 0; k < nd; k++)
            i0[k] = tex_map(tex_floor(u[k]) + off[k], tex_dim(c->d, k), c->am[k], c->normalized);
        tex_fetch(c, i0[0], i0[1], i0[2], layer, out);
        return;
    }
    for (int k = 0; k < nd; k++) {
        float xb = u[k] - 0.5f;
        int64_t fi = tex_floor(xb);
        float fr = xb - floorf(xb);
        a[k] = fr >= 0.0f && fr < 1.0f ? tex_weight(fr) : 0.0f;
        i0[k] = tex_map(fi + off[k], tex_dim(c->d, k), c->am[k], c->normalized);
        i1[k] = tex_map(fi + off[k] + 1, tex_dim(c->d, k), c->am[k], c->normalized);
    }
    uint32_t t[8][4];
    int ncorner = 1 << nd;
    for (int q = 0; q < ncorner; q++)
        tex_fetch(c, q & 1 ? i1[0] : i0[0], nd > 1 ? (q & 2 ? i1[1] : i0[1]) : 0,
                  nd > 2 ? (q & 4 ? i1[2] : i0[2]) : 0, layer, t[q]);
    for (int k = 0; k < 4; k++) {
        float r;
        if (nd == 1) {
            r = (1.0f - a[0]) * u2f(t[0][k]) + a[0] * u2f(t[1][k]);
        } else if (nd == 2) {
            r = (1.0f - a[0]) * (1.0f - a[1]) * u2f(t[0][k]) +
                a[0] * (1.0f - a[1]) * u2f(t[1][k]) +
                (1.0f - a[0]) * a[1] * u2f(t[2][k]) +
                a[0] * a[1] * u2f(t[3][k]);
        } else {
            r = (1.0f - a[0]) * (1.0f - a[1]) * (1.0f - a[2]) * u2f(t[0][k]) +
                a[0] * (1.0f - a[1]) * (1.0f - a[2]) * u2f(t[1][k]) +
                (1.0f - a[0]) * a[1] * (1.0f - a[2]) * u2f(t[2][k]) +
                a[0] * a[1] * (1.0f - a[2]) * u2f(t[3][k]) +
                (1.0f - a[0]) * (1.0f - a[1]) * a[2] * u2f(t[4][k]) +
                a[0] * (1.0f - a[1]) * a[2] * u2f(t[5][k]) +
                (1.0f - a[0]) * a[1] * a[2] * u2f(t[6][k]) +
                a[0] * a[1] * a[2] * u2f(t[7][k]);
        }
        out[k] = f2u(r);
    }
}

/* Cubemap direction -> face and (s, t) in [0, 1] (CUDA guide's cubemap table). */
static void tex_cube_face(float x, float y, float z, int *face, float *s, float *t)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
    if (ax >= ay && ax >= az) {
        ma = ax;
        *face = x >= 0 ? 0 : 1;
        sc = x >= 0 ? -z : z;
        tc = -y;
    } else if (ay >= az) {
        ma = ay;
        *face = y >= 0 ? 2 : 3;
        sc = x;
        tc = y >= 0 ? z : -z;
    } else {
        ma = az;
        *face = z >= 0 ? 4 : 5;
        sc = z >= 0 ? x : -x;
        tc = -y;
    }
    *s = (sc / ma + 1.0f) * 0.5f;
    *t = (tc / ma + 1.0f) * 0.5f;
}

static void tex_ctx_init(tex_ctx *c, const tex_obj *o, const tex_obj *smp, const uint8_t *base)
{
    const exec_tex_desc *sd = smp ? &smp->d : &o->d;
    c->d = &o->d;
    c->base = base;
    c->es = tex_esize(&o->d);
    c->isfloat = tex_returns_float(&o->d);
    for (int k = 0; k < 3; k++)
        c->am[k] = sd->addr_mode[k];
    c->normalized = sd->normalized;
    c->linear_filter = sd->filter_linear && c->isfloat;
}

/* Coordinates of lane i -> layer, texel-space coordinates, dimensions; cube faces resolved. */
typedef struct {
    int nd;
    float u[3];
    int64_t iu[3];
    uint32_t layer;
} tex_coord;

static void tex_coords(exec_warp *w, const tex_ext *x, const tex_ctx *c, uint32_t i,
                       tex_coord *tc)
{
    uint32_t raw[4] = {0, 0, 0, 0};
    for (int k = 0; k < x->nc; k++)
        raw[k] = ((const uint32_t *)exec_opnd_ptr(EXEC_R(w), &x->crd[k]))[i];
    int arr = tex_is_array(x->geom), k0 = arr ? 1 : 0;
    uint32_t layer = arr ? raw[0] : 0;
    memset(tc, 0, sizeof *tc);
    const exec_tex_desc *d = c->d;
    if (x->geom == EXEC_TEX_CUBE || x->geom == EXEC_TEX_ACUBE) {
        int face;
        float s, t;
        tex_cube_face(u2f(raw[k0]), u2f(raw[k0 + 1]), u2f(raw[k0 + 2]), &face, &s, &t);
        uint32_t cubes = d->layers / 6;
        if (layer >= cubes)
            layer = cubes ? cubes - 1 : 0;
        tc->layer = layer * 6 + (uint32_t)face;
        tc->nd = 2;
        tc->u[0] = s * (float)d->width;
        tc->u[1] = t * (float)d->height;
        return;
    }
    tc->nd = tex_ndims(x->geom);
    tc->layer = layer >= d->layers ? d->layers - 1 : layer;
    for (int k = 0; k < tc->nd; k++) {
        uint32_t v = raw[k0 + k];
        if (x->cint)
            tc->iu[k] = (int32_t)v;
        else
            tc->u[k] = c->normalized ? u2f(v) * (float)tex_dim(d, k) : u2f(v);
    }
}

static void tex_offsets(exec_warp *w, const tex_ext *x, uint32_t i, int32_t off[3])
{
    off[0] = off[1] = off[2] = 0;
    for (int k = 0; k < x->noff; k++)
        off[k] = ((const int32_t *)exec_opnd_ptr(EXEC_R(w), &x->off[k]))[i];
}

/* Write the four channel results of lane i to the destinations as dtype. */
static void tex_store(exec_warp *w, const tex_ext *x, int isfloat, uint32_t i, const uint32_t v[4])
{
    if (x->dtype == PTX_T_F16 || x->dtype == PTX_T_F16X2) {
        uint16_t h[4];
        for (int k = 0; k < 4; k++)
            h[k] = exec_f2h_rn(isfloat ? u2f(v[k]) : (float)(int32_t)v[k]);
        if (x->dtype == PTX_T_F16) {
            for (int k = 0; k < x->nd; k++)
                ((uint16_t *)exec_opnd_ptr(EXEC_R(w), &x->dst[k]))[i] = h[k];
        } else {
            for (int k = 0; k < x->nd; k++)
                ((uint32_t *)exec_opnd_ptr(EXEC_R(w), &x->dst[k]))[i] =
                    (uint32_t)h[2 * k] | (uint32_t)h[2 * k + 1] << 16;
        }
        return;
    }
    for (int k = 0; k < x->nd; k++)
        ((uint32_t *)exec_opnd_ptr(EXEC_R(w), &x->dst[k]))[i] = v[k];
}

/* Lane i of tex/tld4: resolve the texture (and sampler), set up the sampling context (cube
 * maps: normalized, clamped), read the coordinates and offsets. The texture, or NULL after a
 * fault. */
static const tex_obj *tex_lane(exec_warp *w, const exec_insn *in, const tex_ext *x, uint32_t i,
                               tex_ctx *c, tex_coord *tc, int32_t off[3])
{
    const tex_obj *o = tex_resolve(w, in, &x->h, (int)i, 0, "texture");
    if (!o)
        return NULL;
    const tex_obj *smp = NULL;
    if (x->smp.kind != TS_NONE && !(smp = tex_resolve(w, in, &x->smp, (int)i, 0, "sampler")))
        return NULL;
    const uint8_t *base = tex_host(w, in, o, (int)i);
    if (!base)
        return NULL;
    tex_ctx_init(c, o, smp, base);
    if (x->geom == EXEC_TEX_CUBE || x->geom == EXEC_TEX_ACUBE) {
        c->normalized = 1;
        c->am[0] = c->am[1] = EXEC_TEX_CLAMP;
    }
    tex_coords(w, x, c, i, tc);
    tex_offsets(w, x, i, off);
    return o;
}

/* ---- tex ------------------------------------------------------------------------------------- */
static int h_tex(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const tex_ext *x = in->ext;
    EXEC_FOR_LANES(i, m) {
        tex_ctx c;
        tex_coord tc;
        int32_t off[3];
        uint32_t v[4];
        const tex_obj *o = tex_lane(w, in, x, i, &c, &tc, off);
        if (!o)
            return EXEC_STOPPED;
        if (x->cint) {
            int64_t ix[3] = {0, 0, 0};
            int outside = 0;
            for (int k = 0; k < tc.nd; k++) {
                int64_t q = tc.iu[k] + off[k];
                uint32_t n = tex_dim(c.d, k);
                if (q < 0 || q >= n)
                    outside = 1;
                ix[k] = tex_map(q, n, c.am[k], 0);
            }
            if (outside && o->d.linear)
                memset(v, 0, sizeof v);
            else
                tex_fetch(&c, ix[0], ix[1], ix[2], tc.layer, v);
        } else {
            tex_sample_f(&c, tc.nd, tc.u, off, tc.layer, v);
        }
        tex_store(w, x, c.isfloat, i, v);
    }
    return EXEC_NEXT;
}

static int tex_dtype_ok(ptx_type t, int f16ok)
{
    return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_F32 || (f16ok && t == PTX_T_F16);
}

int exec_dec_tex(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    tex_ext *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    int vec = 0, mip = 0, nt = 0;
    ptx_type ty[2] = {PTX_T_NONE, PTX_T_NONE};
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        int g = tex_geom_of(s);
        ptx_type t;
        if (g)
            x->geom = g;
        else if (!strcmp(s, "v4") || !strcmp(s, "v2"))
            vec = s[1] - '0';
        else if (!strcmp(s, "base"))
            mip = 0;
        else if (!strcmp(s, "level"))
            mip = 1;
        else if (!strcmp(s, "grad"))
            mip = 2;
        else if (!strcmp(s, "2dms") || !strcmp(s, "a2dms"))
            return exec_dec_error(d, pi, "multi-sample textures are not supported");
        else if ((t = ptx_type_from_name(s)) != PTX_T_NONE && nt < 2)
            ty[nt++] = t;
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (!x->geom || nt != 2)
        return exec_dec_error(d, pi, "expected tex.geom.v4.dtype.ctype");
    x->dtype = ty[0];
    if (ty[1] != PTX_T_S32 && ty[1] != PTX_T_F32)
        return exec_dec_error(d, pi, "coordinate type must be .s32 or .f32");
    if ((x->geom == EXEC_TEX_CUBE || x->geom == EXEC_TEX_ACUBE) && ty[1] != PTX_T_F32)
        return exec_dec_error(d, pi, "cubemap coordinates must be .f32");
    x->cint = ty[1] == PTX_T_S32;
    if (x->dtype == PTX_T_F16X2 ? vec != 2 : (vec != 4 || !tex_dtype_ok(x->dtype, 1)))
        return exec_dec_error(d, pi, "expected .v4.u32/.s32/.f32/.f16 or .v2.f16x2 results");
    x->nd = vec;
    if (pi->nops < 2)
        return exec_dec_error(d, pi, "expected d, [a, c]");
    ptx_type rt = x->dtype == PTX_T_F16X2 ? PTX_T_B32 : x->dtype;
    if (tex_dec_dsts(d, pi, &pi->ops[0], rt, vec, x->dst) ||
        tex_dec_addr(d, pi, &pi->ops[1], x, 1, ty[1]))
        return -1;
    /* .level lod and .grad dPdx, dPdy select among mipmap levels; objects have one level */
    int first = 2 + (mip == 1 ? 1 : mip == 2 ? 2 : 0);
    if (pi->nops < first)
        return exec_dec_error(d, pi, "missing %s operand%s", mip == 1 ? "lod" : "gradient",
                              mip == 2 ? "s" : "");
    if (tex_dec_offsets(d, pi, first, x))
        return -1;
    in->ext = x;
    in->type = (uint8_t)x->dtype;
    in->fn = h_tex;
    return 0;
}

/* ---- tld4 ------------------------------------------------------------------------------------ */
static int h_tld4(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const tex_ext *x = in->ext;
    EXEC_FOR_LANES(i, m) {
        tex_ctx c;
        tex_coord tc;
        int32_t off[3];
        if (!tex_lane(w, in, x, i, &c, &tc, off))
            return EXEC_STOPPED;
        int64_t i0[2], i1[2];
        for (int k = 0; k < 2; k++) {
            int64_t fi = tex_floor(tc.u[k] - 0.5f) + off[k];
            i0[k] = tex_map(fi, tex_dim(c.d, k), c.am[k], c.normalized);
            i1[k] = tex_map(fi + 1, tex_dim(c.d, k), c.am[k], c.normalized);
        }
        /* counter-clockwise from the lower left: (i, j+1) (i+1, j+1) (i+1, j) (i, j) */
        const int64_t *xs[4] = {&i0[0], &i1[0], &i1[0], &i0[0]};
        const int64_t *ys[4] = {&i1[1], &i1[1], &i0[1], &i0[1]};
        uint32_t v[4];
        for (int q = 0; q < 4; q++) {
            uint32_t t[4];
            tex_fetch(&c, *xs[q], *ys[q], 0, tc.layer, t);
            v[q] = t[x->comp];
        }
        tex_store(w, x, c.isfloat, i, v);
    }
    return EXEC_NEXT;
}

int exec_dec_tld4(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    tex_ext *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    int vec = 0, nt = 0;
    ptx_type ty[2] = {PTX_T_NONE, PTX_T_NONE};
    x->comp = -1;
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        int g = tex_geom_of(s);
        ptx_type t;
        if (g && (g == EXEC_TEX_2D || g == EXEC_TEX_A2D || g == EXEC_TEX_CUBE ||
                  g == EXEC_TEX_ACUBE))
            x->geom = g;
        else if (!s[1] && strchr("rgba", s[0]) && x->comp < 0)
            x->comp = (int)(strchr("rgba", s[0]) - "rgba");
        else if (!strcmp(s, "v4"))
            vec = 4;
        else if ((t = ptx_type_from_name(s)) != PTX_T_NONE && nt < 2)
            ty[nt++] = t;
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (!x->geom || x->comp < 0 || vec != 4 || nt != 2 || !tex_dtype_ok(ty[0], 0) ||
        ty[1] != PTX_T_F32)
        return exec_dec_error(d, pi, "expected tld4.comp.geom.v4.dtype.f32");
    x->dtype = ty[0];
    x->nd = 4;
    if (pi->nops < 2)
        return exec_dec_error(d, pi, "expected d, [a, c]");
    if (tex_dec_dsts(d, pi, &pi->ops[0], x->dtype, 4, x->dst) ||
        tex_dec_addr(d, pi, &pi->ops[1], x, 1, PTX_T_F32) || tex_dec_offsets(d, pi, 2, x))
        return -1;
    in->ext = x;
    in->type = (uint8_t)x->dtype;
    in->fn = h_tld4;
    return 0;
}

/* ---- txq / suq ------------------------------------------------------------------------------- */
static const char *const tex_qnames[] = {
    "width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords",
    "array_size", "num_mipmap_levels", "num_samples", "force_unnormalized_coords",
    "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2", "memory_layout",
};

/* OpenCL 1.0 enumerations (PTX ISA tables 11 and 12). */
static uint32_t tex_cl_type(const exec_tex_desc *d)
{
    int nrm = d->read_normalized;
    switch (d->chtype) {
    case PTX_T_S8:  return nrm ? 0x10D0 : 0x10D7;
    case PTX_T_S16: return nrm ? 0x10D1 : 0x10D8;
    case PTX_T_U8:  return nrm ? 0x10D2 : 0x10DA;
    case PTX_T_U16: return nrm ? 0x10D3 : 0x10DB;
    case PTX_T_S32: return 0x10D9;
    case PTX_T_U32: return 0x10DC;
    case PTX_T_F16: return 0x10DD;
    default:        return 0x10DE;
    }
}

static uint32_t tex_query(const tex_obj *o, int q, uint32_t lod)
{
    const exec_tex_desc *d = &o->d;
    uint32_t v;
    switch (q) {
    case Q_WIDTH: v = d->width >> (lod < 32 ? lod : 31); return v ? v : 1;
    case Q_HEIGHT: v = d->height >> (lod < 32 ? lod : 31); return v ? v : 1;
    case Q_DEPTH: v = d->depth >> (lod < 32 ? lod : 31); return v ? v : 1;
    case Q_CDT: return tex_cl_type(d);
    case Q_CORDER: return d->channels == 1 ? 0x10B0 : d->channels == 2 ? 0x10B2 : 0x10B5;
    case Q_NORM: return (uint32_t)d->normalized;
    case Q_ARRAY:
        return d->geom == EXEC_TEX_A1D || d->geom == EXEC_TEX_A2D ? d->layers
               : d->geom == EXEC_TEX_ACUBE ? d->layers / 6 : 0;
    case Q_FILTER: return (uint32_t)d->filter_linear;
    case Q_AM0: case Q_AM1: case Q_AM2: {
        /* enum { wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border } */
        static const uint32_t map[] = {0, 1, 3, 4};
        return map[d->addr_mode[q - Q_AM0]];
    }
    case Q_LAYOUT: return 1;
    default: return 0;   /* mipmap levels, samples, force_unnormalized_coords */
    }
}

static int h_txq(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const tex_ext *x = in->ext;
    uint32_t *dst = exec_opnd_ptr(EXEC_R(w), &x->dst[0]);
    const uint32_t *lod = x->level ? exec_opnd_ptr(EXEC_R(w), &x->lod) : NULL;
    int surf = in->flags & 1;
    EXEC_FOR_LANES(i, m) {
        const tex_obj *o = tex_resolve(w, in, &x->h, (int)i, surf,
                                       surf ? "surface" : "texture");
        if (!o)
            return EXEC_STOPPED;
        dst[i] = tex_query(o, x->query, lod ? lod[i] : 0);
    }
    return EXEC_NEXT;
}

static int tex_dec_query(exec_dec *d, const ptx_insn *pi, exec_insn *in, int surf)
{
    tex_ext *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    x->query = -1;
    int typed = 0;
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        int q = -1;
        for (int j = 0; j < (int)(sizeof tex_qnames / sizeof tex_qnames[0]); j++)
            if (!strcmp(s, tex_qnames[j]))
                q = j;
        if (q >= 0 && x->query < 0)
            x->query = q;
        else if (!surf && !strcmp(s, "level"))
            x->level = 1;
        else if (!strcmp(s, "b32"))
            typed = 1;
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    int ok = surf ? (x->query <= Q_CORDER || x->query == Q_ARRAY || x->query == Q_LAYOUT)
                  : x->query != Q_LAYOUT;
    if (x->query < 0 || !typed || !ok)
        return exec_dec_error(d, pi, surf ? "expected suq.query.b32 d, [a]"
                                          : "expected txq.query.b32 d, [a]");
    if (x->level && x->query > Q_DEPTH)
        return exec_dec_error(d, pi, "txq.level queries width, height or depth");
    if (pi->nops != 2 + x->level)
        return exec_dec_error(d, pi, "expected %d operands", 2 + x->level);
    if (tex_dec_opnd(d, pi, &pi->ops[0], PTX_T_B32, &x->dst[0], 1) ||
        tex_dec_addr(d, pi, &pi->ops[1], x, 0, PTX_T_NONE))
        return -1;
    if (x->level && tex_dec_opnd(d, pi, &pi->ops[2], PTX_T_U32, &x->lod, 0))
        return -1;
    x->nd = 1;
    in->ext = x;
    in->flags = (uint8_t)surf;
    in->fn = h_txq;
    return 0;
}

int exec_dec_txq(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return tex_dec_query(d, pi, in, 0); }
int exec_dec_suq(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return tex_dec_query(d, pi, in, 1); }

/* ---- istypep --------------------------------------------------------------------------------- */
static int h_istypep(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const tex_ext *x = in->ext;
    const uint64_t *a = exec_opnd_ptr(EXEC_R(w), &x->src[0]);
    uint32_t r = 0;
    EXEC_FOR_LANES(i, m) {
        const char *var = NULL;
        const tex_obj *o = tex_lookup(w->m, a[i], &var);
        int yes;
        if (var) {
            /* the address of a module variable: its declared type decides */
            const ptx_module *mod = w->m->mod;
            const ptx_sym *s = NULL;
            for (int k = 0; k < mod->nvars && !s; k++)
                if (mod->vars[k]->name == var)
                    s = mod->vars[k];
            if (!s)
                continue;
            ptx_type t = s->type == PTX_T_SAMPLERREF ? PTX_T_SAMPLERREF
                         : s->type == PTX_T_SURFREF  ? PTX_T_SURFREF : PTX_T_TEXREF;
            yes = t == (x->want == 0 ? PTX_T_TEXREF : x->want == 1 ? PTX_T_SAMPLERREF
                                                                   : PTX_T_SURFREF);
        } else {
            /* texture objects carry their sampler: they are texrefs and samplerrefs */
            yes = o && (x->want == 2 ? o->surface : !o->surface);
        }
        if (yes)
            r |= 1u << i;
    }
    exec_pred_set(w, &in->op[0], r, m);
    return EXEC_NEXT;
}

int exec_dec_istypep(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    tex_ext *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    x->want = -1;
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        if (!strcmp(s, "texref"))
            x->want = 0;
        else if (!strcmp(s, "samplerref"))
            x->want = 1;
        else if (!strcmp(s, "surfref"))
            x->want = 2;
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (x->want < 0 || pi->nops != 2)
        return exec_dec_error(d, pi, "expected istypep.{texref,samplerref,surfref} p, a");
    if (exec_dec_pdst(d, in, 0, &pi->ops[0]) ||
        tex_dec_opnd(d, pi, &pi->ops[1], PTX_T_U64, &x->src[0], 0))
        return -1;
    in->ext = x;
    in->fn = h_istypep;
    return 0;
}

/* ---- surfaces -------------------------------------------------------------------------------- */
/* Byte offset of lane i's access of `size` bytes: 0 ok, 1 out of range under .zero (drop or
 * load 0), -1 fault raised. */
static int surf_offset(exec_warp *w, const exec_insn *in, const tex_ext *x, const tex_obj *o,
                       uint32_t i, uint32_t size, uint64_t *offp)
{
    const exec_tex_desc *d = &o->d;
    int32_t raw[4] = {0, 0, 0, 0};
    for (int k = 0; k < x->nc; k++)
        raw[k] = ((const int32_t *)exec_opnd_ptr(EXEC_R(w), &x->crd[k]))[i];
    int arr = tex_is_array(x->geom), k0 = arr ? 1 : 0;
    int64_t layer = arr ? (int64_t)(uint32_t)raw[0] : 0;
    int nd = tex_ndims(x->geom);
    uint32_t es = tex_esize(d);
    int64_t c[3] = {0, 0, 0};
    for (int k = 0; k < nd; k++)
        c[k] = raw[k0 + k];
    int64_t row = (int64_t)d->width * es;
    if (x->fmt)
        c[0] *= es;                     /* .p: the x coordinate counts elements */
    c[0] &= ~(int64_t)(size - 1);       /* misaligned: low bits masked off */
    int out = c[0] < 0 || c[0] + size > row || c[1] < 0 || c[1] >= d->height || c[2] < 0 ||
              c[2] >= d->depth || layer >= d->layers;
    if (out) {
        if (x->clamp == CL_ZERO)
            return 1;
        if (x->clamp == CL_TRAP) {
            exec_fault(w, in, EXEC_EXC_OUT_OF_RANGE, (int)i, PTX_SPACE_SURF, (uint64_t)c[0],
                       size, "out-of-range surface access: x = %" PRId64 " bytes, y = %" PRId64
                       ", z = %" PRId64 ", layer = %" PRId64 " (surface of %ux%ux%u elements "
                       "of %u bytes, %u layer%s)", c[0], c[1], c[2], layer, d->width,
                       d->height, d->depth, es, d->layers, d->layers == 1 ? "" : "s");
            return -1;
        }
        int64_t xmax = row - (int64_t)size;
        if (xmax < 0)
            xmax = 0;
        xmax &= ~(int64_t)(size - 1);
        c[0] = c[0] < 0 ? 0 : c[0] > xmax ? xmax : c[0];
        c[1] = c[1] < 0 ? 0 : c[1] >= d->height ? d->height - 1 : c[1];
        c[2] = c[2] < 0 ? 0 : c[2] >= d->depth ? d->depth - 1 : c[2];
        layer = layer >= d->layers ? d->layers - 1 : layer;
    }
    uint64_t off = (((uint64_t)layer * d->depth + (uint64_t)c[2]) * d->height + (uint64_t)c[1]) *
                   tex_pitch(d) + (uint64_t)c[0];
    if (off + size > tex_bytes(d)) {
        exec_fault(w, in, EXEC_EXC_OUT_OF_RANGE, (int)i, PTX_SPACE_SURF, off, size,
                   "surface access of %u bytes does not fit the surface's elements", size);
        return -1;
    }
    *offp = off;
    return 0;
}

/* Lane i of suld/sust/sured: the surface and its host bytes, or NULL after a fault. */
static const tex_obj *surf_lane(exec_warp *w, const exec_insn *in, const tex_ext *x, uint32_t i,
                                uint8_t **base)
{
    const tex_obj *o = tex_resolve(w, in, &x->h, (int)i, 1, "surface");
    if (!o)
        return NULL;
    *base = tex_host(w, in, o, (int)i);
    return *base ? o : NULL;
}

static int h_suld(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const tex_ext *x = in->ext;
    uint32_t es = (uint32_t)x->esz, size = es * (uint32_t)x->nd;
    EXEC_FOR_LANES(i, m) {
        uint8_t *base;
        const tex_obj *o = surf_lane(w, in, x, i, &base);
        if (!o)
            return EXEC_STOPPED;
        uint64_t off;
        int r = surf_offset(w, in, x, o, i, size, &off);
        if (r < 0)
            return EXEC_STOPPED;
        for (int k = 0; k < x->nd; k++) {
            uint8_t *dp = (uint8_t *)exec_opnd_ptr(EXEC_R(w), &x->dst[k]) + i * es;
            if (r)
                memset(dp, 0, es);
            else
                memcpy(dp, base + off + (uint64_t)k * es, es);
        }
    }
    return EXEC_NEXT;
}

/* sust.p: convert one .b32 source value to channel k of the surface's format. */
static void surf_put_fmt(const exec_tex_desc *d, uint8_t *p, int k, uint32_t v)
{
    float f = u2f(v);
    int64_t iv;
    switch (d->chtype) {
    case PTX_T_F32: memcpy(p + 4 * k, &v, 4); return;
    case PTX_T_F16: { uint16_t h = exec_f2h_rn(f); memcpy(p + 2 * k, &h, 2); return; }
    case PTX_T_U32: case PTX_T_S32: memcpy(p + 4 * k, &v, 4); return;
    default: break;
    }
    int bits = ptx_type_bits(d->chtype), sgn = ptx_type_is_signed(d->chtype);
    int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
    int64_t hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    if (d->read_normalized) {                /* UNORM / SNORM from .f32 */
        float lim = sgn ? -1.0f : 0.0f;
        f = f != f ? 0.0f : f < lim ? lim : f > 1.0f ? 1.0f : f;
        iv = (int64_t)rintf(f * (float)hi);
    } else {                                 /* UINT / SINT from .u32 / .s32, saturated */
        iv = sgn ? (int64_t)(int32_t)v : (int64_t)v;
        iv = iv < lo ? lo : iv > hi ? hi : iv;
    }
    if (bits == 8)
        p[k] = (uint8_t)iv;
    else {
        uint16_t h = (uint16_t)iv;
        memcpy(p + 2 * k, &h, 2);
    }
}

static int h_sust(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const tex_ext *x = in->ext;
    EXEC_FOR_LANES(i, m) {
        uint8_t *base;
        const tex_obj *o = surf_lane(w, in, x, i, &base);
        if (!o)
            return EXEC_STOPPED;
        uint32_t es = x->fmt ? tex_esize(&o->d) : (uint32_t)x->esz;
        uint32_t size = x->fmt ? es : es * (uint32_t)x->ns;
        uint64_t off;
        int r = surf_offset(w, in, x, o, i, size, &off);
        if (r < 0)
            return EXEC_STOPPED;
        if (r)
            continue;
        if (x->fmt) {
            for (int k = 0; k < x->ns && k < o->d.channels; k++)
                surf_put_fmt(&o->d, base + off, k,
                             ((const uint32_t *)exec_opnd_ptr(EXEC_R(w), &x->src[k]))[i]);
            continue;
        }
        for (int k = 0; k < x->ns; k++)
            memcpy(base + off + (uint64_t)k * es,
                   (const uint8_t *)exec_opnd_ptr(EXEC_R(w), &x->src[k]) + i * es, es);
    }
    return EXEC_NEXT;
}

static int h_sured(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const tex_ext *x = in->ext;
    EXEC_FOR_LANES(i, m) {
        uint8_t *base;
        const tex_obj *o = surf_lane(w, in, x, i, &base);
        if (!o)
            return EXEC_STOPPED;
        int sgn = ptx_type_is_signed(x->dtype);
        uint32_t size = (uint32_t)x->esz;
        if (x->fmt) {
            if (ptx_type_bits(o->d.chtype) != 32 || o->d.chtype == PTX_T_F32) {
                exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)i, PTX_SPACE_SURF, 0, 4,
                           "sured.p needs a surface of 32-bit integer channels");
                return EXEC_STOPPED;
            }
            sgn = o->d.chtype == PTX_T_S32;
            size = tex_esize(&o->d);
        }
        uint64_t off;
        int r = surf_offset(w, in, x, o, i, size, &off);
        if (r < 0)
            return EXEC_STOPPED;
        if (r)
            continue;
        uint8_t *p = base + off;
        if (x->esz == 8) {
            uint64_t a, b = ((const uint64_t *)exec_opnd_ptr(EXEC_R(w), &x->src[0]))[i];
            memcpy(&a, p, 8);
            a = x->redop == R_ADD ? a + b : x->redop == R_AND ? a & b : x->redop == R_OR ? a | b
                : x->redop == R_MIN ? (a < b ? a : b) : (a > b ? a : b);
            memcpy(p, &a, 8);
            continue;
        }
        uint32_t a, b = ((const uint32_t *)exec_opnd_ptr(EXEC_R(w), &x->src[0]))[i];
        memcpy(&a, p, 4);
        switch (x->redop) {
        case R_ADD: a += b; break;
        case R_AND: a &= b; break;
        case R_OR:  a |= b; break;
        case R_MIN: a = sgn ? ((int32_t)a < (int32_t)b ? a : b) : (a < b ? a : b); break;
        default:    a = sgn ? ((int32_t)a > (int32_t)b ? a : b) : (a > b ? a : b); break;
        }
        memcpy(p, &a, 4);
    }
    return EXEC_NEXT;
}

static int surf_mods(exec_dec *d, const ptx_insn *pi, tex_ext *x, int *vec, int red)
{
    static const char *const cops[] = {"ca", "cg", "cs", "cv", "wb", "wt"};
    static const char *const rops[] = {"add", "min", "max", "and", "or"};
    int bp = -1, cl = -1;
    *vec = 1;
    x->redop = -1;
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        int g = tex_geom_of(s), known = 0;
        ptx_type t;
        for (size_t j = 0; j < sizeof cops / sizeof cops[0]; j++)
            known |= !strcmp(s, cops[j]);
        if (known)
            continue;
        for (int j = 0; red && j < 5; j++)
            if (!strcmp(s, rops[j]) && x->redop < 0) {
                x->redop = j;
                known = 1;
            }
        if (known)
            continue;
        if (k == 0 && (!strcmp(s, "b") || !strcmp(s, "p")))
            bp = s[0] == 'p';
        else if (g && g != EXEC_TEX_CUBE && g != EXEC_TEX_ACUBE && !x->geom)
            x->geom = g;
        else if (!strcmp(s, "v2") || !strcmp(s, "v4"))
            *vec = s[1] - '0';
        else if (!strcmp(s, "trap") || !strcmp(s, "clamp") || !strcmp(s, "zero"))
            cl = s[0] == 't' ? CL_TRAP : s[0] == 'c' ? CL_CLAMP : CL_ZERO;
        else if ((t = ptx_type_from_name(s)) != PTX_T_NONE && x->dtype == PTX_T_NONE)
            x->dtype = t;
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (bp < 0 || !x->geom || x->dtype == PTX_T_NONE)
        return exec_dec_error(d, pi, "expected %s.{b,p}.geom...type.clamp", pi->opcode);
    x->fmt = bp;
    x->clamp = cl < 0 ? CL_TRAP : cl;
    x->esz = ptx_type_bits(x->dtype) / 8;
    return 0;
}

static int surf_dec_vals(exec_dec *d, const ptx_insn *pi, const ptx_operand *o, ptx_type t,
                         int n, exec_opnd *out, int dst)
{
    return tex_dec_list(d, pi, o, t, n, out, dst, "data operand");
}

/* The decode start of suld/sust/sured: the extension with the modifiers read, or NULL after
 * an error. */
static tex_ext *surf_dec_begin(exec_dec *d, const ptx_insn *pi, int *vec, int red)
{
    tex_ext *x = exec_dec_alloc(d, sizeof *x);
    if (!x) {
        exec_dec_error(d, pi, "out of memory");
        return NULL;
    }
    return surf_mods(d, pi, x, vec, red) ? NULL : x;
}

/* The decode end of suld/sust: no sampler; handler fn. */
static int surf_dec_end(exec_dec *d, const ptx_insn *pi, exec_insn *in, tex_ext *x, exec_fn fn)
{
    if (x->smp.kind != TS_NONE)
        return exec_dec_error(d, pi, "surfaces take no sampler");
    in->ext = x;
    in->type = (uint8_t)x->dtype;
    in->fn = fn;
    return 0;
}

/* Types of suld.b / sust.b data. */
static int surf_btype_ok(ptx_type t)
{
    return t == PTX_T_B8 || t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64;
}

int exec_dec_suld(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int vec;
    tex_ext *x = surf_dec_begin(d, pi, &vec, 0);
    if (!x)
        return -1;
    if (x->fmt)
        return exec_dec_error(d, pi, "suld.p (formatted loads) is not part of PTX; use suld.b");
    if (!surf_btype_ok(x->dtype))
        return exec_dec_error(d, pi, "type must be .b8, .b16, .b32 or .b64");
    if (pi->nops != 2)
        return exec_dec_error(d, pi, "expected d, [a, b]");
    x->nd = vec;
    if (surf_dec_vals(d, pi, &pi->ops[0], x->dtype, vec, x->dst, 1) ||
        tex_dec_addr(d, pi, &pi->ops[1], x, 1, PTX_T_S32))
        return -1;
    return surf_dec_end(d, pi, in, x, h_suld);
}

int exec_dec_sust(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int vec;
    tex_ext *x = surf_dec_begin(d, pi, &vec, 0);
    if (!x)
        return -1;
    if (x->fmt ? x->dtype != PTX_T_B32 : !surf_btype_ok(x->dtype))
        return exec_dec_error(d, pi, x->fmt ? "sust.p type must be .b32"
                                            : "type must be .b8, .b16, .b32 or .b64");
    if (pi->nops != 2)
        return exec_dec_error(d, pi, "expected [a, b], c");
    x->ns = vec;
    if (tex_dec_addr(d, pi, &pi->ops[0], x, 1, PTX_T_S32) ||
        surf_dec_vals(d, pi, &pi->ops[1], x->dtype, vec, x->src, 0))
        return -1;
    return surf_dec_end(d, pi, in, x, h_sust);
}

int exec_dec_sured(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int vec;
    tex_ext *x = surf_dec_begin(d, pi, &vec, 1);
    if (!x)
        return -1;
    if (x->redop < 0 || vec != 1)
        return exec_dec_error(d, pi, "expected sured.{b,p}.op.geom.ctype.clamp");
    if (x->geom != EXEC_TEX_1D && x->geom != EXEC_TEX_2D && x->geom != EXEC_TEX_3D)
        return exec_dec_error(d, pi, "sured geometry must be .1d, .2d or .3d");
    ptx_type t = x->dtype;
    int ok = x->fmt ? t == PTX_T_B32
             : x->redop == R_ADD ? (t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64)
             : x->redop <= R_MAX ? (t == PTX_T_U32 || t == PTX_T_S32)
                                 : (t == PTX_T_B32 || t == PTX_T_B64);
    if (!ok)
        return exec_dec_error(d, pi, "type .%s does not fit this reduction", ptx_type_name(t));
    if (pi->nops != 2)
        return exec_dec_error(d, pi, "expected [a, b], c");
    x->ns = 1;
    if (tex_dec_addr(d, pi, &pi->ops[0], x, 1, PTX_T_S32) ||
        surf_dec_vals(d, pi, &pi->ops[1], t, 1, x->src, 0))
        return -1;
    in->ext = x;
    in->type = (uint8_t)t;
    in->fn = h_sured;
    return 0;
}
