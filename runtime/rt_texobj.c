/* rt_texobj.c - texture and surface objects: a process-wide handle table whose objects exist,
 * with the same handle, in the machine of every loaded module (created in each one, replayed
 * into machines that load later). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt_tex.h"
#include "dbg_value.h"

#define MAX_OBJS 65536

typedef struct {
    int live, surface;
    exec_tex_desc d;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
} texobj;

static texobj *g_objs;
static uint32_t g_nobjs, g_cap;

/* exec_tex_desc channel type of a descriptor's element. */
static ptx_type chan_type(const struct cudaChannelFormatDesc *c)
{
    int bits = c->x;
    if (c->f == cudaChannelFormatKindFloat) return bits == 16 ? PTX_T_F16 : PTX_T_F32;
    if (c->f == cudaChannelFormatKindSigned)
        return bits == 8 ? PTX_T_S8 : bits == 16 ? PTX_T_S16 : PTX_T_S32;
    return bits == 8 ? PTX_T_U8 : bits == 16 ? PTX_T_U16 : PTX_T_U32;
}

/* The core description of a resource (memory, shape, element type). */
static cudaError_t res_desc(const struct cudaResourceDesc *r, int surface, exec_tex_desc *d)
{
    const struct cudaChannelFormatDesc *cd;
    int nch;
    memset(d, 0, sizeof *d);
    switch (r->resType) {
    case cudaResourceTypeArray: {
        struct cudaArray *a = rt_array_get(r->res.array.array);
        if (!a) return cudaErrorInvalidResourceHandle;
        if (surface && !(a->flags & cudaArraySurfaceLoadStore)) {
            rt_warn("cudaCreateSurfaceObject: the array was not allocated with "
                    "cudaArraySurfaceLoadStore");
            return cudaErrorInvalidValue;
        }
        cd = &a->desc;
        d->addr = (uint64_t)(uintptr_t)a->data;
        d->geom = (exec_tex_geom)a->geom;
        d->width = (uint32_t)a->w;
        d->height = (uint32_t)a->h;
        d->depth = a->geom == EXEC_TEX_3D ? (uint32_t)a->d : 1;
        d->layers = a->geom == EXEC_TEX_3D ? 1 : (uint32_t)a->d;
        break;
    }
    case cudaResourceTypeLinear:
        if (surface) return cudaErrorInvalidValue;
        cd = &r->res.linear.desc;
        if (!r->res.linear.devPtr || !rt_chan_size(cd, &nch)) return cudaErrorInvalidValue;
        d->addr = (uint64_t)(uintptr_t)r->res.linear.devPtr;
        d->geom = EXEC_TEX_1D;
        d->width = (uint32_t)(r->res.linear.sizeInBytes / rt_chan_size(cd, NULL));
        d->linear = 1;
        if (!d->width || r->res.linear.sizeInBytes / rt_chan_size(cd, NULL) > (1u << 28))
            return cudaErrorInvalidValue;
        break;
    case cudaResourceTypePitch2D:
        if (surface) return cudaErrorInvalidValue;
        cd = &r->res.pitch2D.desc;
        if (!r->res.pitch2D.devPtr || !rt_chan_size(cd, &nch) || !r->res.pitch2D.width ||
            !r->res.pitch2D.height || r->res.pitch2D.width > 0xffffffffu ||
            r->res.pitch2D.height > 0xffffffffu ||
            r->res.pitch2D.pitchInBytes % rt_dev_props()->texturePitchAlignment)
            return cudaErrorInvalidValue;
        d->addr = (uint64_t)(uintptr_t)r->res.pitch2D.devPtr;
        d->geom = EXEC_TEX_2D;
        d->width = (uint32_t)r->res.pitch2D.width;
        d->height = (uint32_t)r->res.pitch2D.height;
        d->pitch = r->res.pitch2D.pitchInBytes;
        break;
    case cudaResourceTypeMipmappedArray:
        rt_warn("texture objects on mipmapped arrays are not supported");
        return cudaErrorNotSupported;
    default:
        return cudaErrorInvalidValue;
    }
    if (!rt_chan_size(cd, &nch)) return cudaErrorInvalidChannelDescriptor;
    d->chtype = chan_type(cd);
    d->channels = nch;
    return cudaSuccess;
}

static cudaError_t sampler_desc(const struct cudaTextureDesc *t, exec_tex_desc *d)
{
    static const exec_tex_addr am[4] = { EXEC_TEX_WRAP, EXEC_TEX_CLAMP, EXEC_TEX_MIRROR,
                                         EXEC_TEX_BORDER };
    for (int k = 0; k < 3; k++) {
        if ((unsigned)t->addressMode[k] > cudaAddressModeBorder) return cudaErrorInvalidValue;
        d->addr_mode[k] = am[t->addressMode[k]];
    }
    if ((unsigned)t->filterMode > cudaFilterModeLinear || (unsigned)t->readMode > 1)
        return cudaErrorInvalidValue;
    if (t->sRGB) {
        rt_warn("cudaCreateTextureObject: sRGB conversion is not supported");
        return cudaErrorNotSupported;
    }
    int bits = dbg_type_bits(d->chtype);
    int isint = d->chtype != PTX_T_F16 && d->chtype != PTX_T_F32;
    d->read_normalized = t->readMode == cudaReadModeNormalizedFloat && isint;
    if (d->read_normalized && bits > 16) return cudaErrorInvalidNormSetting;
    d->filter_linear = t->filterMode == cudaFilterModeLinear;
    if (d->filter_linear && isint && !d->read_normalized) return cudaErrorInvalidFilterSetting;
    if (d->linear && (d->filter_linear || t->normalizedCoords))
        return cudaErrorInvalidValue;   /* tex1Dfetch reads elements by index */
    d->normalized = !!t->normalizedCoords;
    memcpy(d->border, t->borderColor, sizeof d->border);
    return cudaSuccess;
}

typedef struct { const exec_tex_desc *d; int surface; uint64_t h; cudaError_t e; } mk_ctx;

static int create_in(dbg_target *t, rt_module *mod, void *p)
{
    mk_ctx *c = p;
    uint64_t h = c->h;
    if (dbg_target_tex_create(t, c->surface, c->d, &h)) {
        rt_warn("%s object in %s: %s", c->surface ? "surface" : "texture", mod->name,
                dbg_target_errmsg(t));
        c->e = cudaErrorInvalidValue;
        return 1;
    }
    return 0;
}

static int destroy_in(dbg_target *t, rt_module *mod, void *p)
{
    (void)mod;
    dbg_target_tex_destroy(t, *(uint64_t *)p);
    return 0;
}

cudaError_t rt_texobj_new(unsigned long long *out, int surface,
                          const struct cudaResourceDesc *r, const struct cudaTextureDesc *t,
                          const void *view)
{
    if (!out || !r || (!surface && !t)) return cudaErrorInvalidValue;
    if (view) {
        rt_warn("cudaCreateTextureObject: resource views are not supported");
        return cudaErrorNotSupported;
    }
    exec_tex_desc d;
    cudaError_t e = res_desc(r, surface, &d);
    if (e == cudaSuccess && !surface) e = sampler_desc(t, &d);
    if (e != cudaSuccess) return e;
    uint32_t slot = 0;
    while (slot < g_nobjs && g_objs[slot].live) slot++;
    if (slot == MAX_OBJS) return cudaErrorMemoryAllocation;
    if (slot == g_cap) {
        uint32_t cap = g_cap ? 2 * g_cap : 64;
        texobj *n = realloc(g_objs, cap * sizeof *n);
        if (!n) return cudaErrorMemoryAllocation;
        g_objs = n;
        g_cap = cap;
    }
    mk_ctx c = { &d, surface, slot + 1, cudaSuccess };
    if (rt_machines_each(create_in, &c)) {
        rt_machines_each(destroy_in, &c.h);
        return c.e;
    }
    texobj *o = &g_objs[slot];
    memset(o, 0, sizeof *o);
    o->live = 1;
    o->surface = surface;
    o->d = d;
    o->res = *r;
    if (t) o->tex = *t;
    if (slot == g_nobjs) g_nobjs++;
    *out = slot + 1;
    return cudaSuccess;
}

/* A module loaded after objects were created gets them all, with their handles. */
void rt_tex_machine_added(dbg_target *t)
{
    for (uint32_t i = 0; i < g_nobjs; i++)
        if (g_objs[i].live) {
            uint64_t h = i + 1;
            if (dbg_target_tex_create(t, g_objs[i].surface, &g_objs[i].d, &h))
                rt_warn("texture object %u: %s", i + 1, dbg_target_errmsg(t));
        }
}

static texobj *object_get(unsigned long long h, int surface)
{
    if (!h || h > g_nobjs || !g_objs[h - 1].live || g_objs[h - 1].surface != surface)
        return NULL;
    return &g_objs[h - 1];
}

cudaError_t rt_texobj_destroy(unsigned long long h, int surface)
{
    texobj *o = object_get(h, surface);
    if (!o) return cudaErrorInvalidValue;
    uint64_t hh = h;
    rt_machines_each(destroy_in, &hh);
    o->live = 0;
    return cudaSuccess;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const void *pResViewDesc)
{
    RT_BEGIN_CTX();
    return RT_END(rt_texobj_new(pTexObject, 0, pResDesc, pTexDesc, pResViewDesc));
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    RT_BEGIN();
    return RT_END(rt_texobj_destroy(texObject, 0));
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc)
{
    RT_BEGIN_CTX();
    if (pResDesc && pResDesc->resType != cudaResourceTypeArray)
        return RT_END(cudaErrorInvalidValue);
    return RT_END(rt_texobj_new(pSurfObject, 1, pResDesc, NULL, NULL));
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    RT_BEGIN();
    return RT_END(rt_texobj_destroy(surfObject, 1));
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject)
{
    RT_BEGIN();
    texobj *o = object_get(texObject, 0);
    if (!o || !pResDesc) return RT_END(cudaErrorInvalidValue);
    *pResDesc = o->res;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject)
{
    RT_BEGIN();
    texobj *o = object_get(texObject, 0);
    if (!o || !pTexDesc) return RT_END(cudaErrorInvalidValue);
    *pTexDesc = o->tex;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaSurfaceObject_t surfObject)
{
    RT_BEGIN();
    texobj *o = object_get(surfObject, 1);
    if (!o || !pResDesc) return RT_END(cudaErrorInvalidValue);
    *pResDesc = o->res;
    return RT_END(cudaSuccess);
}
