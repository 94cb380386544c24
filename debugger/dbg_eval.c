/* dbg_eval.c - expression evaluation: C arithmetic on typed values, registers, memory, history. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_expr.h"

/* ---- types ------------------------------------------------------------------------------------ */
static const struct { const char *name; ptx_type t; } ctypes[] = {
    {"char", PTX_T_S8}, {"signed char", PTX_T_S8}, {"unsigned char", PTX_T_U8},
    {"short", PTX_T_S16}, {"short int", PTX_T_S16}, {"unsigned short", PTX_T_U16},
    {"unsigned short int", PTX_T_U16}, {"int", PTX_T_S32}, {"signed", PTX_T_S32},
    {"signed int", PTX_T_S32}, {"unsigned", PTX_T_U32}, {"unsigned int", PTX_T_U32},
    {"long", PTX_T_S64}, {"long int", PTX_T_S64}, {"unsigned long", PTX_T_U64},
    {"unsigned long int", PTX_T_U64}, {"long long", PTX_T_S64}, {"long long int", PTX_T_S64},
    {"unsigned long long", PTX_T_U64}, {"unsigned long long int", PTX_T_U64},
    {"float", PTX_T_F32}, {"double", PTX_T_F64}, {"half", PTX_T_F16}, {"__half", PTX_T_F16},
    {"bool", PTX_T_U8}, {"int8_t", PTX_T_S8}, {"uint8_t", PTX_T_U8}, {"int16_t", PTX_T_S16},
    {"uint16_t", PTX_T_U16}, {"int32_t", PTX_T_S32}, {"uint32_t", PTX_T_U32},
    {"int64_t", PTX_T_S64}, {"uint64_t", PTX_T_U64}, {"size_t", PTX_T_U64},
};

ptx_type dbg_type_from_c(const char *name)
{
    for (size_t i = 0; i < sizeof ctypes / sizeof ctypes[0]; i++)
        if (!strcmp(ctypes[i].name, name))
            return ctypes[i].t;
    /* PTX type names: u32, .f32, b64, pred */
    ptx_type t = ptx_type_from_name(name);
    return t == PTX_T_B128 ? PTX_T_NONE : t;
}

const char *dbg_type_c_name(ptx_type t)
{
    switch (t) {
    case PTX_T_S8: return "char";
    case PTX_T_U8: case PTX_T_B8: return "unsigned char";
    case PTX_T_S16: return "short";
    case PTX_T_U16: case PTX_T_B16: return "unsigned short";
    case PTX_T_S32: return "int";
    case PTX_T_U32: case PTX_T_B32: return "unsigned int";
    case PTX_T_S64: return "long";
    case PTX_T_U64: case PTX_T_B64: return "unsigned long";
    case PTX_T_F16: return "half";
    case PTX_T_F32: return "float";
    case PTX_T_F64: return "double";
    case PTX_T_PRED: return "bool";
    case PTX_T_NONE: return "void";
    default: return ptx_type_name(t);
    }
}

/* ---- special registers ------------------------------------------------------------------------ */
static const struct { const char *name; int id; int vec; } sregs[] = {
    {"tid", PTX_SREG_TID, 1}, {"ntid", PTX_SREG_NTID, 1}, {"laneid", PTX_SREG_LANEID, 0},
    {"warpid", PTX_SREG_WARPID, 0}, {"nwarpid", PTX_SREG_NWARPID, 0},
    {"ctaid", PTX_SREG_CTAID, 1}, {"nctaid", PTX_SREG_NCTAID, 1}, {"smid", PTX_SREG_SMID, 0},
    {"nsmid", PTX_SREG_NSMID, 0}, {"gridid", PTX_SREG_GRIDID, 0},
    {"lanemask_eq", PTX_SREG_LANEMASK_EQ, 0}, {"lanemask_le", PTX_SREG_LANEMASK_LE, 0},
    {"lanemask_lt", PTX_SREG_LANEMASK_LT, 0}, {"lanemask_ge", PTX_SREG_LANEMASK_GE, 0},
    {"lanemask_gt", PTX_SREG_LANEMASK_GT, 0}, {"clock", PTX_SREG_CLOCK, 0},
    {"clock_hi", PTX_SREG_CLOCK_HI, 0}, {"clock64", PTX_SREG_CLOCK64, 0},
    {"globaltimer", PTX_SREG_GLOBALTIMER, 0}, {"globaltimer_lo", PTX_SREG_GLOBALTIMER_LO, 0},
    {"globaltimer_hi", PTX_SREG_GLOBALTIMER_HI, 0},
    {"total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE, 0},
    {"dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE, 0},
    {"aggr_smem_size", PTX_SREG_AGGR_SMEM_SIZE, 0}, {"clusterid", PTX_SREG_CLUSTERID, 1},
    {"nclusterid", PTX_SREG_NCLUSTERID, 1}, {"cluster_ctaid", PTX_SREG_CLUSTER_CTAID, 1},
    {"cluster_nctaid", PTX_SREG_CLUSTER_NCTAID, 1},
    {"cluster_ctarank", PTX_SREG_CLUSTER_CTARANK, 0},
    {"cluster_nctarank", PTX_SREG_CLUSTER_NCTARANK, 0},
};

int dbg_sreg_lookup(const char *name, int *id, int *comp)
{
    if (name[0] == '%')
        name++;
    char base[64];
    snprintf(base, sizeof base, "%s", name);
    char *dot = strchr(base, '.');
    int c = -1;
    if (dot) {
        if (dot[2] || !strchr("xyz", dot[1]))
            return -1;
        c = dot[1] - 'x';
        *dot = 0;
    }
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
        if (!strcmp(sregs[i].name, base)) {
            if (sregs[i].vec != (c >= 0))
                return -1;
            *id = sregs[i].id;
            *comp = c < 0 ? 0 : c;
            return 0;
        }
    if (!strncmp(base, "envreg", 6) && base[6] && c < 0) {
        char *end;
        long n = strtol(base + 6, &end, 10);
        if (!*end && n >= 0 && n < 32) {
            *id = PTX_SREG_ENVREG;
            *comp = (int)n;
            return 0;
        }
    }
    return -1;
}

/* ---- values ----------------------------------------------------------------------------------- */
ptx_type dbg_type_norm(ptx_type t)
{
    switch (t) {
    case PTX_T_B8: return PTX_T_U8;
    case PTX_T_B16: return PTX_T_U16;
    case PTX_T_B32: return PTX_T_U32;
    case PTX_T_B64: return PTX_T_U64;
    default: return t;
    }
}

static int tbytes(ptx_type t)
{
    if (t == PTX_T_PRED)
        return 1;
    int b = ptx_type_bits(t);
    return b > 0 ? b / 8 : 0;
}

static uint64_t fit(uint64_t v, ptx_type t)
{
    int bits = t == PTX_T_PRED ? 1 : ptx_type_bits(t);
    if (bits <= 0 || bits >= 64)
        return v;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    v &= mask;
    if (ptx_type_is_signed(t) && (v >> (bits - 1) & 1))
        v |= ~mask;
    return v;
}

uint16_t dbg_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000;
    int32_t exp = (int32_t)((x >> 23) & 0xff);
    uint32_t man = x & 0x7fffff;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
    int32_t e = exp - 127 + 15;
    if (e >= 0x1f)
        return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000;
        int shift = 14 - e;
        uint32_t half = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = (uint32_t)e << 10 | man >> 13;
    uint32_t rem = man & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
        half++;
    return (uint16_t)(sign | half);
}

float dbg_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    uint32_t x;
    if (exp == 0x1f) {
        x = sign | 0x7f800000 | man << 13;
    } else if (exp == 0) {
        if (!man) {
            x = sign;
        } else {
            float f = ldexpf((float)man, -24);
            return sign ? -f : f;
        }
    } else {
        x = sign | (exp + 112) << 23 | man << 13;
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

void dbg_value_from_bits(dbg_value *v, ptx_type t, uint64_t bits)
{
    memset(v, 0, sizeof *v);
    t = dbg_type_norm(t);
    v->type = t;
    if (t == PTX_T_F32) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, 4);
        v->kind = DBG_V_FLOAT;
        v->f = f;
    } else if (t == PTX_T_F64) {
        v->kind = DBG_V_FLOAT;
        memcpy(&v->f, &bits, 8);
    } else if (t == PTX_T_F16) {
        v->kind = DBG_V_FLOAT;
        v->f = dbg_f16_to_f32((uint16_t)bits);
    } else if (t == PTX_T_BF16 || t == PTX_T_TF32) {
        /* bf16 is the top half of an f32; tf32 is held in an f32's bits */
        uint32_t b = t == PTX_T_BF16 ? (uint32_t)(bits & 0xffff) << 16 : (uint32_t)bits;
        float f;
        memcpy(&f, &b, 4);
        v->kind = DBG_V_FLOAT;
        v->f = f;
    } else {
        v->kind = DBG_V_INT;
        v->u = fit(bits, t);
    }
}

int64_t dbg_value_int(const dbg_value *v)
{
    if (v->kind == DBG_V_FLOAT) {
        if (isnan(v->f))
            return 0;
        if (v->f >= 9.2233720368547758e18)
            return v->type == PTX_T_U64 ? (int64_t)(uint64_t)v->f : INT64_MAX;
        if (v->f <= -9.2233720368547758e18)
            return INT64_MIN;
        return (int64_t)v->f;
    }
    return (int64_t)v->u;
}

double dbg_value_double(const dbg_value *v)
{
    if (v->kind == DBG_V_FLOAT)
        return v->f;
    if (v->kind == DBG_V_INT && ptx_type_is_signed(v->type))
        return (double)(int64_t)v->u;
    return (double)v->u;
}

int dbg_value_true(const dbg_value *v)
{
    return v->kind == DBG_V_FLOAT ? v->f != 0 : v->u != 0;
}

int dbg_value_size(const dbg_value *v)
{
    if (v->kind == DBG_V_PTR || v->kind == DBG_V_CODE)
        return 8;
    return tbytes(v->type);
}

uint64_t dbg_value_to_bits(const dbg_value *v, ptx_type t)
{
    t = dbg_type_norm(t);
    if (t == PTX_T_F32) {
        float f = (float)dbg_value_double(v);
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    if (t == PTX_T_F64) {
        double d = dbg_value_double(v);
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    if (t == PTX_T_F16)
        return dbg_f32_to_f16((float)dbg_value_double(v));
    if (t == PTX_T_BF16 || t == PTX_T_TF32) {
        float f = (float)dbg_value_double(v);
        uint32_t b;
        memcpy(&b, &f, 4);
        if (t == PTX_T_TF32)
            return b;
        if ((b & 0x7fffffff) > 0x7f800000)  /* NaN stays a quiet NaN */
            return (b >> 16) | 0x40;
        return (b + 0x7fff + ((b >> 16) & 1)) >> 16;  /* round to nearest even */
    }
    if (t == PTX_T_PRED)
        return dbg_value_true(v);
    uint64_t u = v->kind == DBG_V_FLOAT ? (uint64_t)dbg_value_int(v) : v->u;
    int bits = ptx_type_bits(t);
    return bits >= 64 || bits <= 0 ? u : u & ((UINT64_C(1) << bits) - 1);
}

/* A value that is kept (history, convenience variable) keeps its type's debug info alive. */
void dbg_history_keep(dbg_history *h, const dbg_value *v, dw_info *dw)
{
    if (!v->dt || !dw)
        return;
    for (int i = 0; i < h->nkeep; i++)
        if (h->keep[i] == dw)
            return;
    dw_info **n = realloc(h->keep, (size_t)(h->nkeep + 1) * sizeof *n);
    if (!n)
        return;
    h->keep = n;
    h->keep[h->nkeep++] = dw;
    dw_retain(dw);
}

void dbg_history_add(dbg_history *h, const dbg_value *v, dw_info *dw)
{
    if (h->nhist == h->histcap) {
        int cap = h->histcap ? 2 * h->histcap : 64;
        dbg_value *n = cap > h->histcap ? realloc(h->hist, (size_t)cap * sizeof *n) : NULL;
        if (!n)
            return;
        h->hist = n;
        h->histcap = cap;
    }
    dbg_history_keep(h, v, dw);
    h->hist[h->nhist++] = *v;
}

static uint32_t conv_hash(const char *name)
{
    uint32_t x = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        x = (x ^ *p) * 16777619u;
    return x;
}

static void conv_index(dbg_history *h, int i)
{
    uint32_t mask = (uint32_t)h->hashcap - 1, k = conv_hash(h->conv[i].name) & mask;
    while (h->convhash[k])
        k = (k + 1) & mask;
    h->convhash[k] = i + 1;
}

/* Lookup is one hash probe sequence, so setting n variables costs O(n), not O(n^2). */
dbg_value *dbg_history_conv(dbg_history *h, const char *name, int create)
{
    if (h->hashcap) {
        uint32_t mask = (uint32_t)h->hashcap - 1;
        for (uint32_t k = conv_hash(name) & mask; h->convhash[k]; k = (k + 1) & mask)
            if (!strcmp(h->conv[h->convhash[k] - 1].name, name))
                return &h->conv[h->convhash[k] - 1].v;
    }
    if (!create || strlen(name) >= sizeof h->conv[0].name || h->nconv >= INT_MAX / 4)
        return NULL;
    if (h->nconv == h->convcap) {
        int cap = h->convcap ? 2 * h->convcap : 16;
        void *n = realloc(h->conv, (size_t)cap * sizeof *h->conv);
        if (!n)
            return NULL;
        h->conv = n;
        h->convcap = cap;
    }
    if (2 * (h->nconv + 1) > h->hashcap) {
        int cap = h->hashcap ? 2 * h->hashcap : 32;
        int *t = calloc((size_t)cap, sizeof *t);
        if (!t)
            return NULL;
        free(h->convhash);
        h->convhash = t;
        h->hashcap = cap;
        for (int i = 0; i < h->nconv; i++)
            conv_index(h, i);
    }
    int i = h->nconv++;
    memset(&h->conv[i], 0, sizeof h->conv[i]);
    snprintf(h->conv[i].name, sizeof h->conv[i].name, "%s", name);
    conv_index(h, i);
    return &h->conv[i].v;
}

void dbg_history_set_int(dbg_history *h, const char *name, int64_t v)
{
    dbg_value *cv = dbg_history_conv(h, name, 1);
    if (!cv)
        return;
    memset(cv, 0, sizeof *cv);
    cv->kind = DBG_V_INT;
    cv->type = PTX_T_S32;
    cv->u = (uint64_t)v;
}

void dbg_history_free(dbg_history *h)
{
    free(h->hist);
    free(h->conv);
    free(h->convhash);
    for (int i = 0; i < h->nkeep; i++)
        dw_free(h->keep[i]);
    free(h->keep);
    for (int i = 0; i < h->nsynth; i++)
        free(h->synth[i]);
    free(h->synth);
    memset(h, 0, sizeof *h);
}

/* ---- evaluation ------------------------------------------------------------------------------- */
typedef struct {
    const dbg_vsrc *src;
    dbg_history *hist;
    char *err;
    size_t n;
    int lazy;                 /* the next eval's own final load only locates (for `&`) */
} ectx;

static int eerr(ectx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int eerr(ectx *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->n, fmt, ap);
    va_end(ap);
    return -1;
}

static int eval(ectx *x, const dbg_expr *e, dbg_value *out);

static void int_val(dbg_value *v, ptx_type t, uint64_t u)
{
    memset(v, 0, sizeof *v);
    v->kind = DBG_V_INT;
    v->type = t;
    v->u = fit(u, t);
}

static int read_mem(ectx *x, ptx_type t, ptx_space sp, uint64_t addr, dbg_value *out)
{
    uint64_t bits = 0;
    if (x->lazy && tbytes(t) > 0) { /* &p[i]: the address, whatever is there */
        dbg_value_from_bits(out, t, 0);
        out->lv = DBG_LV_MEM;
        out->mspace = sp;
        out->maddr = addr;
        return 0;
    }
    int size = tbytes(t);
    if (size <= 0)
        return eerr(x, "Attempt to take contents of a non-pointer value.");
    if (!x->src->mem_read)
        return eerr(x, "Cannot access memory at address 0x%llx", (unsigned long long)addr);
    if (x->src->mem_read(x->src->ctx, sp, addr, &bits, (size_t)size, x->err, x->n) != 0)
        return -1;
    dbg_value_from_bits(out, t, bits);
    out->lv = DBG_LV_MEM;
    out->mspace = sp;
    out->maddr = addr;
    return 0;
}

/* ---- source-level (DWARF) values ----------------------------------------------------------- */
ptx_type dbg_dw_scalar_type(const dw_type *t)
{
    t = dw_type_strip(t);
    if (!t)
        return PTX_T_NONE;
    uint64_t sz = t->size;
    if (t->enc == DW_BT_HALF)
        return PTX_T_F16;
    if (t->enc == DW_BT_BF16)
        return PTX_T_F32;
    switch (t->kind) {
    case DW_TY_POINTER: case DW_TY_REFERENCE:
        return PTX_T_U64;
    case DW_TY_ENUM:
    case DW_TY_BASE: {
        int sgn = t->kind == DW_TY_ENUM ? t->enc != DW_BT_UNSIGNED
                                        : t->enc == DW_BT_SIGNED || t->enc == DW_BT_SIGNED_CHAR;
        if (t->kind == DW_TY_BASE && t->enc == DW_BT_FLOAT)
            return sz == 8 ? PTX_T_F64 : sz == 2 ? PTX_T_F16 : PTX_T_F32;
        switch (sz) {
        case 1: return sgn ? PTX_T_S8 : PTX_T_U8;
        case 2: return sgn ? PTX_T_S16 : PTX_T_U16;
        case 4: return sgn ? PTX_T_S32 : PTX_T_U32;
        case 8: return sgn ? PTX_T_S64 : PTX_T_U64;
        default: return PTX_T_NONE;
        }
    }
    default:
        return PTX_T_NONE;
    }
}

int dbg_value_from_dw(dbg_value *v, const dw_type *t, uint64_t bits)
{
    const dw_type *st = dw_type_strip(t);
    memset(v, 0, sizeof *v);
    if (!st)
        return -1;
    if (st->kind == DW_TY_POINTER || st->kind == DW_TY_REFERENCE) {
        v->kind = DBG_V_PTR;
        v->u = bits;
        v->space = st->space == PTX_SPACE_NONE ? PTX_SPACE_GENERIC : st->space;
        v->type = st->target ? dbg_dw_scalar_type(st->target) : PTX_T_NONE;
        const dw_type *pt = dw_type_strip(st->target);
        if (pt && pt->kind == DW_TY_POINTER)
            v->type = PTX_T_U64;
        v->dt = t;
        return 0;
    }
    ptx_type pt = dbg_dw_scalar_type(st);
    if (pt == PTX_T_NONE)
        return -1;
    if (st->enc == DW_BT_BF16) {
        uint32_t b = (uint32_t)(bits & 0xffff) << 16;
        float f;
        memcpy(&f, &b, 4);
        v->kind = DBG_V_FLOAT;
        v->type = PTX_T_F32;
        v->f = f;
    } else {
        dbg_value_from_bits(v, pt, bits);
    }
    v->dt = t;
    return 0;
}

int dbg_load_typed(const dbg_vsrc *src, const dw_type *t, ptx_space sp, uint64_t addr,
                   dbg_value *out, char *err, size_t n)
{
    const dw_type *st = dw_type_strip(t);
    memset(out, 0, sizeof *out);
    if (!st) {
        snprintf(err, n, "Cannot read a value of unknown type.");
        return -1;
    }
    int agg = (st->kind == DW_TY_STRUCT || st->kind == DW_TY_UNION || st->kind == DW_TY_CLASS ||
               st->kind == DW_TY_ARRAY) && st->enc != DW_BT_HALF && st->enc != DW_BT_BF16;
    if (agg) {
        out->kind = DBG_V_AGG;
        out->dt = t;
        out->lv = DBG_LV_MEM;
        out->mspace = sp;
        out->maddr = addr;
        return 0;
    }
    uint64_t size = dw_type_size(st);
    if (size == 0 || size > 8 || dbg_dw_scalar_type(st) == PTX_T_NONE) {
        char tn[128];
        dw_type_name(t, tn, sizeof tn);
        snprintf(err, n, "Cannot read a value of type `%s'.", tn);
        return -1;
    }
    uint64_t bits = 0;
    if (!src->mem_read) {
        snprintf(err, n, "Cannot access memory at address 0x%llx", (unsigned long long)addr);
        return -1;
    }
    if (src->mem_read(src->ctx, sp, addr, &bits, (size_t)size, err, n) != 0)
        return -1;
    if (st->kind == DW_TY_REFERENCE && st->target) /* references read as their referent */
        return dbg_load_typed(src, st->target,
                              st->space == PTX_SPACE_NONE ? PTX_SPACE_GENERIC : st->space, bits,
                              out, err, n);
    dbg_value_from_dw(out, t, bits);
    out->lv = DBG_LV_MEM;
    out->mspace = sp;
    out->maddr = addr;
    return 0;
}

static int load_typed(ectx *x, const dw_type *t, ptx_space sp, uint64_t addr, dbg_value *out)
{
    const dw_type *st = x->lazy ? dw_type_strip(t) : NULL;
    if (st && st->kind != DW_TY_REFERENCE && dbg_dw_scalar_type(st) != PTX_T_NONE) {
        memset(out, 0, sizeof *out);
        dbg_value_from_dw(out, t, 0);
        out->lv = DBG_LV_MEM;
        out->mspace = sp;
        out->maddr = addr;
        return 0;
    }
    return dbg_load_typed(x->src, t, sp, addr, out, x->err, x->n);
}

static const dw_type *pointee(const dbg_value *v)
{
    const dw_type *st = v->dt ? dw_type_strip(v->dt) : NULL;
    return st && (st->kind == DW_TY_POINTER || st->kind == DW_TY_REFERENCE) ? st->target : NULL;
}

static int is_array(const dbg_value *v)
{
    const dw_type *st = v->kind == DBG_V_AGG ? dw_type_strip(v->dt) : NULL;
    return st && st->kind == DW_TY_ARRAY;
}

/* An array used as a value: a pointer to its first element (C's decay). */
static void decay(ectx *x, dbg_value *v)
{
    if (!is_array(v))
        return;
    const dw_type *st = dw_type_strip(v->dt);
    const dw_type *el = x->src->dw ? dw_type_subarray(x->src->dw, st, 1) : NULL;
    dbg_value p;
    memset(&p, 0, sizeof p);
    p.kind = DBG_V_PTR;
    p.u = v->maddr;
    p.space = v->mspace;
    p.type = el ? dbg_dw_scalar_type(el) : PTX_T_NONE;
    p.dt = el && x->src->dw ? dw_type_pointer_to(x->src->dw, el, v->mspace) : NULL;
    *v = p;
}

static int not_number(ectx *x, const dbg_value *v)
{
    if (v->optout)
        return eerr(x, "value has been optimized out");
    return eerr(x, "Argument to arithmetic operation not a number or boolean.");
}

static int member(ectx *x, dbg_value *a, const char *name, dbg_value *out)
{
    if (a->kind == DBG_V_PTR && pointee(a)) {
        dbg_value d;
        if (load_typed(x, pointee(a), a->space, a->u, &d) != 0)
            return -1;
        *a = d;
    }
    const dw_type *st = a->kind == DBG_V_AGG ? dw_type_strip(a->dt) : NULL;
    if (!st || st->kind == DW_TY_ARRAY)
        return eerr(x, "Attempt to extract a component of a value that is not a structure.");
    const dw_member *m = dw_type_member(st, name);
    if (!m) {
        char tn[128];
        dw_type_name(a->dt, tn, sizeof tn);
        return eerr(x, "There is no member named %s.", name);
    }
    if (load_typed(x, m->type, a->mspace, a->maddr + m->offset, out) != 0)
        return -1;
    if (m->bit_size > 0 && m->bit_size < 64 && out->kind == DBG_V_INT) {
        uint64_t v = (out->u >> m->bit_offset) & ((UINT64_C(1) << m->bit_size) - 1);
        if (ptx_type_is_signed(out->type) && (v >> (m->bit_size - 1) & 1))
            v |= ~((UINT64_C(1) << m->bit_size) - 1);
        out->u = v;
        out->lv = DBG_LV_NONE; /* bit fields are not assignable here */
    }
    return 0;
}

static int builtin_dim3(ectx *x, const char *name, dbg_value *out)
{
    static const struct { const char *n; int id; } b[] = {
        {"threadIdx", PTX_SREG_TID}, {"blockIdx", PTX_SREG_CTAID},
        {"blockDim", PTX_SREG_NTID}, {"gridDim", PTX_SREG_NCTAID}};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        if (strcmp(name, b[i].n))
            continue;
        memset(out, 0, sizeof *out);
        out->kind = DBG_V_DIM3;
        out->type = PTX_T_U32;
        for (int c = 0; c < 3; c++) {
            uint64_t v;
            if (!x->src->sreg_get ||
                x->src->sreg_get(x->src->ctx, b[i].id, c, &v, x->err, x->n) != 0)
                return -1;
            out->d3[c] = (uint32_t)v;
        }
        return 1;
    }
    return 0;
}

static int eval_ident(ectx *x, const dbg_expr *e, dbg_value *out)
{
    int r = builtin_dim3(x, e->name, out);
    if (r)
        return r < 0 ? -1 : 0;
    if (!strcmp(e->name, "warpSize")) {
        int_val(out, PTX_T_S32, 32);
        return 0;
    }
    if (!strcmp(e->name, "true") || !strcmp(e->name, "false")) {
        int_val(out, PTX_T_S32, e->name[0] == 't');
        return 0;
    }
    if (x->src->ident) {
        r = x->src->ident(x->src->ctx, e->name, out, x->err, x->n);
        if (r < 0)
            return -1;
        if (r > 0)
            return 0;
        /* in a member function, a name no scope has is a member of *this (C++'s implicit
           this->, as gdb reads it) */
        dbg_value self;
        if (strcmp(e->name, "this") &&
            x->src->ident(x->src->ctx, "this", &self, x->err, x->n) > 0 && pointee(&self)) {
            const dw_type *st = dw_type_strip(pointee(&self));
            if (st && dw_type_member(st, e->name))
                return member(x, &self, e->name, out);
        }
        x->err[0] = 0;
    }
    return eerr(x, "No symbol \"%s\" in current context.", e->name);
}

static int eval_reg(ectx *x, const dbg_expr *e, dbg_value *out)
{
    int id, comp;
    uint64_t bits;
    if (dbg_sreg_lookup(e->name, &id, &comp) == 0) {
        if (!x->src->sreg_get || x->src->sreg_get(x->src->ctx, id, comp, &bits, x->err, x->n))
            return -1;
        int wide = id == PTX_SREG_CLOCK64 || id == PTX_SREG_GLOBALTIMER ||
                   id == PTX_SREG_GRIDID;
        int_val(out, wide ? PTX_T_U64 : PTX_T_U32, bits);
        return 0;
    }
    ptx_type t;
    if (!x->src->reg_get || x->src->reg_get(x->src->ctx, e->name, &bits, &t, x->err, x->n))
        return -1;
    dbg_value_from_bits(out, t, bits);
    out->lv = DBG_LV_REG;
    snprintf(out->reg, sizeof out->reg, "%s", e->name);
    return 0;
}

static int eval_dollar(ectx *x, const dbg_expr *e, dbg_value *out)
{
    const char *n = e->name;
    dbg_history *h = x->hist;
    if (!strcmp(n, "pc")) {
        uint64_t pc;
        if (!x->src->pc || x->src->pc(x->src->ctx, &pc, x->err, x->n) != 0)
            return x->src->pc ? -1 : eerr(x, "No registers.");
        memset(out, 0, sizeof *out);
        out->kind = DBG_V_CODE;
        out->u = pc;
        return 0;
    }
    int nh = h ? h->nhist : 0;
    long idx = -1;
    if (!n[0]) {
        idx = nh; /* $: last */
    } else if (n[0] == '$') {
        idx = nh - (n[1] ? strtol(n + 1, NULL, 10) : 1);
    } else if (n[0] >= '0' && n[0] <= '9') {
        idx = strtol(n, NULL, 10);
    }
    if (idx >= 0 || !n[0] || n[0] == '$') {
        if (nh == 0 && (!n[0] || n[0] == '$')) {
            memset(out, 0, sizeof *out); /* gdb: empty history is void */
            return 0;
        }
        if (idx < 1 || idx > nh)
            return eerr(x, "History has not yet reached $%ld.", idx);
        *out = h->hist[idx - 1];
        return 0;
    }
    const dbg_value *cv = h ? dbg_history_conv(h, n, 0) : NULL;
    if (cv) {
        *out = *cv;
        out->lv = DBG_LV_CONV;
        snprintf(out->reg, sizeof out->reg, "%s", n);
        return 0;
    }
    memset(out, 0, sizeof *out); /* unset convenience variable: void */
    out->lv = DBG_LV_CONV;
    snprintf(out->reg, sizeof out->reg, "%s", n);
    return 0;
}

/* usual arithmetic conversions */
static ptx_type arith_type(const dbg_value *a, const dbg_value *b)
{
    if (a->kind == DBG_V_FLOAT || b->kind == DBG_V_FLOAT) {
        ptx_type ta = a->kind == DBG_V_FLOAT ? a->type : PTX_T_NONE;
        ptx_type tb = b->kind == DBG_V_FLOAT ? b->type : PTX_T_NONE;
        return ta == PTX_T_F64 || tb == PTX_T_F64 ? PTX_T_F64 : PTX_T_F32;
    }
    ptx_type ta = a->type, tb = b->type;
    int sa = tbytes(ta) < 4 ? 4 : tbytes(ta), sb = tbytes(tb) < 4 ? 4 : tbytes(tb);
    int ua = tbytes(ta) >= 4 && !ptx_type_is_signed(ta);
    int ub = tbytes(tb) >= 4 && !ptx_type_is_signed(tb);
    int size = sa > sb ? sa : sb;
    int uns = (sa == size && ua) || (sb == size && ub);
    if (size == 8)
        return uns ? PTX_T_U64 : PTX_T_S64;
    return uns ? PTX_T_U32 : PTX_T_S32;
}

static int ptr_arith(ectx *x, dbg_exop op, const dbg_value *a, const dbg_value *b, dbg_value *out)
{
    int esz = a->type == PTX_T_NONE ? 1 : tbytes(a->type);
    if (pointee(a))
        esz = dw_type_size(pointee(a)) ? (int)dw_type_size(pointee(a)) : 1;
    if (b->kind == DBG_V_PTR) {
        if (op != EX_SUB)
            return eerr(x, "Argument to arithmetic operation not a number or boolean.");
        int_val(out, PTX_T_S64, (uint64_t)((int64_t)(a->u - b->u) / esz));
        return 0;
    }
    if (b->kind != DBG_V_INT)
        return eerr(x, "Argument to arithmetic operation not a number or boolean.");
    *out = *a;
    out->lv = DBG_LV_NONE;
    out->count = 0;
    int64_t d = (int64_t)b->u * esz;
    out->u = op == EX_ADD ? a->u + (uint64_t)d : a->u - (uint64_t)d;
    return 0;
}

static int binary(ectx *x, dbg_exop op, dbg_value *a, dbg_value *b, dbg_value *out)
{
    decay(x, a);
    decay(x, b);
    if (a->kind == DBG_V_VOID || a->kind == DBG_V_DIM3 || a->kind == DBG_V_AGG)
        return not_number(x, a);
    if (b->kind == DBG_V_VOID || b->kind == DBG_V_DIM3 || b->kind == DBG_V_AGG)
        return not_number(x, b);
    if (a->kind == DBG_V_CODE)
        a->kind = DBG_V_INT, a->type = PTX_T_U64;
    if (b->kind == DBG_V_CODE)
        b->kind = DBG_V_INT, b->type = PTX_T_U64;
    if ((op == EX_ADD || op == EX_SUB) && a->kind == DBG_V_PTR)
        return ptr_arith(x, op, a, b, out);
    if (op == EX_ADD && b->kind == DBG_V_PTR)
        return ptr_arith(x, op, b, a, out);
    dbg_value ca = *a, cb = *b;
    if (ca.kind == DBG_V_PTR)
        ca.kind = DBG_V_INT, ca.type = PTX_T_U64;
    if (cb.kind == DBG_V_PTR)
        cb.kind = DBG_V_INT, cb.type = PTX_T_U64;
    ptx_type t = arith_type(&ca, &cb);
    int isf = t == PTX_T_F32 || t == PTX_T_F64;
    int sgn = ptx_type_is_signed(t);
    memset(out, 0, sizeof *out);
    if (op >= EX_LT && op <= EX_NE) {
        int r;
        if (isf) {
            double p = dbg_value_double(&ca), q = dbg_value_double(&cb);
            r = op == EX_LT ? p < q : op == EX_GT ? p > q : op == EX_LE ? p <= q
              : op == EX_GE ? p >= q : op == EX_EQ ? p == q : p != q;
        } else {
            uint64_t p = fit(ca.u, t), q = fit(cb.u, t);
            if (sgn) {
                int64_t sp = (int64_t)p, sq = (int64_t)q;
                r = op == EX_LT ? sp < sq : op == EX_GT ? sp > sq : op == EX_LE ? sp <= sq
                  : op == EX_GE ? sp >= sq : op == EX_EQ ? sp == sq : sp != sq;
            } else {
                if (tbytes(t) == 4)
                    p &= 0xffffffffu, q &= 0xffffffffu;
                r = op == EX_LT ? p < q : op == EX_GT ? p > q : op == EX_LE ? p <= q
                  : op == EX_GE ? p >= q : op == EX_EQ ? p == q : p != q;
            }
        }
        int_val(out, PTX_T_S32, (uint64_t)r);
        return 0;
    }
    if (isf) {
        double p = dbg_value_double(&ca), q = dbg_value_double(&cb), r;
        switch (op) {
        case EX_ADD: r = p + q; break;
        case EX_SUB: r = p - q; break;
        case EX_MUL: r = p * q; break;
        case EX_DIV: r = p / q; break;
        default:
            return eerr(x, "Integer only operation %s.",
                        op == EX_MOD ? "MOD" : op == EX_SHL || op == EX_SHR ? "shift" : "bitwise");
        }
        out->kind = DBG_V_FLOAT;
        out->type = t;
        out->f = t == PTX_T_F32 ? (double)(float)r : r;
        return 0;
    }
    uint64_t p = fit(ca.u, t), q = fit(cb.u, t), r;
    if (op == EX_SHL || op == EX_SHR) {
        /* the result has the promoted type of the left operand */
        dbg_value one = ca;
        t = arith_type(&ca, &one);
        sgn = ptx_type_is_signed(t);
        p = fit(ca.u, t);
    }
    switch (op) {
    case EX_ADD: r = p + q; break;
    case EX_SUB: r = p - q; break;
    case EX_MUL: r = p * q; break;
    case EX_DIV:
    case EX_MOD:
        if (q == 0)
            return eerr(x, "Division by zero");
        if (sgn) {
            int64_t sp = (int64_t)p, sq = (int64_t)q;
            if (sq == -1)
                r = op == EX_DIV ? (uint64_t)0 - p : 0;
            else
                r = (uint64_t)(op == EX_DIV ? sp / sq : sp % sq);
        } else {
            if (tbytes(t) == 4)
                p &= 0xffffffffu, q &= 0xffffffffu;
            r = op == EX_DIV ? p / q : p % q;
        }
        break;
    case EX_SHL: r = cb.u >= 64 ? 0 : p << cb.u; break;
    case EX_SHR:
        if (tbytes(t) == 4 && !sgn)
            p &= 0xffffffffu;
        r = cb.u >= 64 ? (sgn && (int64_t)p < 0 ? UINT64_MAX : 0)
            : sgn ? (uint64_t)((int64_t)p >> cb.u) : p >> cb.u;
        break;
    case EX_BAND: r = p & q; break;
    case EX_BOR: r = p | q; break;
    case EX_BXOR: r = p ^ q; break;
    default: return eerr(x, "Invalid operation.");
    }
    int_val(out, t, r);
    return 0;
}

static int assign(ectx *x, const dbg_value *lhs, const dbg_value *rhs, dbg_value *out)
{
    if (rhs->kind == DBG_V_VOID || rhs->kind == DBG_V_DIM3 || rhs->kind == DBG_V_AGG)
        return rhs->optout ? not_number(x, rhs) : eerr(x, "Invalid value to assign.");
    if (lhs->kind == DBG_V_AGG)
        return eerr(x, "Invalid cast.");
    switch (lhs->lv) {
    case DBG_LV_REG: {
        uint64_t bits = dbg_value_to_bits(rhs, lhs->type);
        if (!x->src->reg_set ||
            x->src->reg_set(x->src->ctx, lhs->reg, bits, x->err, x->n) != 0)
            return x->src->reg_set ? -1 : eerr(x, "Cannot set registers here.");
        dbg_value_from_bits(out, lhs->type, bits);
        out->lv = DBG_LV_REG;
        snprintf(out->reg, sizeof out->reg, "%s", lhs->reg);
        return 0;
    }
    case DBG_LV_MEM: {
        ptx_type t = lhs->kind == DBG_V_PTR ? PTX_T_U64 : lhs->type;
        uint64_t bits = rhs->kind == DBG_V_PTR ? rhs->u : dbg_value_to_bits(rhs, t);
        int size = lhs->kind == DBG_V_PTR ? 8 : tbytes(t);
        if (!x->src->mem_write ||
            x->src->mem_write(x->src->ctx, lhs->mspace, lhs->maddr, &bits, (size_t)size, x->err,
                              x->n) != 0)
            return x->src->mem_write ? -1 : eerr(x, "Cannot write memory here.");
        if (lhs->kind == DBG_V_PTR) {
            *out = *lhs;
            out->u = bits;
        } else {
            dbg_value_from_bits(out, t, bits);
            out->lv = DBG_LV_MEM;
            out->mspace = lhs->mspace;
            out->maddr = lhs->maddr;
        }
        return 0;
    }
    case DBG_LV_CONV: {
        dbg_history *h = x->hist;
        if (!h)
            return eerr(x, "Left operand of assignment is not an lvalue.");
        dbg_value *cv = dbg_history_conv(h, lhs->reg, 1);
        if (!cv)
            return eerr(x, "Out of memory.");
        dbg_history_keep(h, rhs, x->src->dw);
        *cv = *rhs;
        cv->lv = DBG_LV_NONE;
        *out = *rhs;
        out->lv = DBG_LV_NONE;
        return 0;
    }
    default:
        return eerr(x, "Left operand of assignment is not an lvalue.");
    }
}

static int eval_cast(ectx *x, const dbg_expr *e, dbg_value *v, dbg_value *out)
{
    decay(x, v);
    if (v->kind == DBG_V_AGG)
        return eerr(x, "Invalid cast.");
    if (e->nptr) {
        if (v->kind != DBG_V_INT && v->kind != DBG_V_PTR && v->kind != DBG_V_CODE)
            return eerr(x, "Invalid cast.");
        memset(out, 0, sizeof *out);
        out->kind = DBG_V_PTR;
        out->type = e->type;
        /* (@space T *)p keeps p's space unless one is named */
        out->space = e->space != PTX_SPACE_GENERIC || v->kind != DBG_V_PTR ? e->space : v->space;
        out->u = v->u;
        return 0;
    }
    if (v->kind == DBG_V_VOID || v->kind == DBG_V_DIM3)
        return eerr(x, "Invalid cast.");
    if (v->kind == DBG_V_PTR || v->kind == DBG_V_CODE)
        v->kind = DBG_V_INT, v->type = PTX_T_U64;
    ptx_type t = dbg_type_norm(e->type);
    dbg_value_from_bits(out, t, dbg_value_to_bits(v, t));
    return 0;
}

/* ---- artificial arrays (VALUE@COUNT) --------------------------------------------------------
 * Their types, like those of written casts, are synthetic DWARF types kept in the value
 * history that the evaluation uses (values in the history point at them): the session's, so
 * two sessions in one process share none and need no lock. Equal ones are shared, so repeated
 * displays do not grow the pool. NULL with the message set (no history, out of memory). */
static const dw_type *synth_type(ectx *x, const dw_type *want)
{
    dbg_history *h = x->hist;
    if (!h) {
        eerr(x, "This expression needs a value history (for its synthetic types).");
        return NULL;
    }
    for (int i = 0; i < h->nsynth; i++) {
        const dw_type *t = h->synth[i];
        if (t->kind == want->kind && t->size == want->size && t->enc == want->enc &&
            t->target == want->target && t->ndims == want->ndims && t->space == want->space &&
            !memcmp(t->dims, want->dims, sizeof t->dims) &&
            ((!t->name && !want->name) || (t->name && want->name && !strcmp(t->name, want->name))))
            return t;
    }
    if (h->nsynth == h->synthcap) {
        int nc = h->synthcap ? h->synthcap * 2 : 16;
        dw_type **nb = realloc(h->synth, (size_t)nc * sizeof *nb);
        if (!nb) {
            eerr(x, "Out of memory.");
            return NULL;
        }
        h->synth = nb;
        h->synthcap = nc;
    }
    dw_type *t = malloc(sizeof *t);
    if (!t) {
        eerr(x, "Out of memory.");
        return NULL;
    }
    *t = *want;
    h->synth[h->nsynth++] = t;
    return t;
}

/* The DWARF-like type of a PTX-level value (a buffer element, a register-typed read). */
static const dw_type *synth_scalar(ectx *x, ptx_type pt)
{
    dw_type t;
    memset(&t, 0, sizeof t);
    t.kind = DW_TY_BASE;
    t.name = dbg_type_c_name(pt);
    t.size = (uint64_t)tbytes(pt);
    switch (pt) {
    case PTX_T_F16: t.enc = DW_BT_HALF; break;
    case PTX_T_F32: case PTX_T_F64: t.enc = DW_BT_FLOAT; break;
    case PTX_T_PRED: t.enc = DW_BT_BOOL; break;
    case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64: t.enc = DW_BT_SIGNED; break;
    default: t.enc = DW_BT_UNSIGNED; break;
    }
    if (!t.size) {
        eerr(x, "Invalid type.");
        return NULL;
    }
    return synth_type(x, &t);
}

static int eval_artificial(ectx *x, const dbg_value *a, const dbg_value *b, dbg_value *out)
{
    if (b->kind != DBG_V_INT)
        return eerr(x, "Only values in memory can be extended with '@'.");
    int64_t n = ptx_type_is_signed(b->type) ? (int64_t)b->u : (int64_t)(b->u & INT64_MAX);
    if (n <= 0)
        return eerr(x, "Invalid number %lld of repetitions.", (long long)n);
    if (a->lv != DBG_LV_MEM)
        return eerr(x, "Only values in memory can be extended with '@'.");
    const dw_type *el = a->dt;
    if (!el && a->kind == DBG_V_PTR) {
        dw_type p;
        memset(&p, 0, sizeof p);
        p.kind = DW_TY_POINTER;
        p.size = 8;
        p.space = a->space;
        p.target = a->type == PTX_T_NONE ? NULL : synth_scalar(x, a->type);
        el = synth_type(x, &p);
    } else if (!el && (a->kind == DBG_V_INT || a->kind == DBG_V_FLOAT)) {
        el = synth_scalar(x, a->type);
    }
    uint64_t esz = el ? dw_type_size(el) : 0;
    if (!el || !esz)
        return eerr(x, "Only values in memory can be extended with '@'.");
    if ((uint64_t)n > (UINT64_C(1) << 20) / esz) /* what dbg_format_at reads at most */
        return eerr(x, "value requires %llu bytes, which is more than max-value-size",
                    (unsigned long long)n * (unsigned long long)esz);
    dw_type arr;
    memset(&arr, 0, sizeof arr);
    arr.kind = DW_TY_ARRAY;
    arr.size = esz * (uint64_t)n;
    arr.dims[0] = (uint64_t)n;
    arr.ndims = 1;
    arr.target = el;
    const dw_type *se = dw_type_strip(el);
    if (se && se->kind == DW_TY_ARRAY && se->ndims > 0 && se->ndims < 8) {
        /* an array of arrays: one type of ndims + 1 dimensions, as DWARF writes them */
        memcpy(arr.dims + 1, se->dims, (size_t)se->ndims * sizeof se->dims[0]);
        arr.ndims = se->ndims + 1;
        arr.target = se->target;
    }
    const dw_type *t = synth_type(x, &arr);
    if (!t)
        return -1;
    memset(out, 0, sizeof *out);
    out->kind = DBG_V_AGG;
    out->dt = t;
    out->lv = DBG_LV_MEM;
    out->mspace = a->mspace;
    out->maddr = a->maddr;
    return 0;
}

/* The type a cast, sizeof or {TYPE} names (dbg_expr.tname): the debug info's type of that name
 * (or the PTX scalar of a C type name), then its array dimensions, then its pointers; the
 * innermost pointer points into e->space. NULL with the message set. */
static const dw_type *written_type(ectx *x, const dbg_expr *e)
{
    const dw_type *t = x->src->dw && dw_has_dwarf(x->src->dw) ? dw_type_lookup(x->src->dw, e->tname)
                                                               : NULL;
    ptx_type pt = dbg_type_from_c(e->tname);
    if (!t && pt != PTX_T_NONE && !(t = synth_scalar(x, pt)))
        return NULL;
    if (!t && !strcmp(e->tname, "void")) {
        dw_type v;
        memset(&v, 0, sizeof v);
        v.kind = DW_TY_VOID;
        v.name = "void";
        if (!(t = synth_type(x, &v)))
            return NULL;
    }
    if (!t) {
        if (e->call_form)
            eerr(x, "%s(...): calling functions is not supported: ptxdbg does not run device "
                 "code from an expression.", e->tname);
        else
            eerr(x, "No symbol \"%s\" in current context.", e->tname);
        return NULL;
    }
    if (e->ndims) {
        uint64_t esz = dw_type_size(t), total = esz;
        for (int i = 0; i < e->ndims; i++) {
            if (!e->dims[i] || total > (UINT64_C(1) << 40) / e->dims[i]) {
                eerr(x, "Invalid array size in a type.");
                return NULL;
            }
            total *= e->dims[i];
        }
        dw_type arr;
        memset(&arr, 0, sizeof arr);
        arr.kind = DW_TY_ARRAY;
        arr.size = total;
        arr.ndims = e->ndims;
        memcpy(arr.dims, e->dims, (size_t)e->ndims * sizeof arr.dims[0]);
        arr.target = t;
        t = synth_type(x, &arr);
    }
    for (int i = 0; i < e->nptrs && t; i++) {
        dw_type p;
        memset(&p, 0, sizeof p);
        p.kind = DW_TY_POINTER;
        p.size = 8;
        p.space = i == 0 ? e->space : PTX_SPACE_GENERIC;
        p.target = t;
        t = synth_type(x, &p);
    }
    return t;   /* NULL: synth_type said why */
}

/* (TYPE) value for a written type: pointers keep the value's bits (and its space unless one is
 * named); scalar types convert as C does; aggregates cannot be cast to. */
static int eval_cast_written(ectx *x, const dbg_expr *e, dbg_value *v, dbg_value *out)
{
    const dw_type *t = written_type(x, e);
    if (!t)
        return -1;
    decay(x, v);
    const dw_type *st = dw_type_strip(t);
    if (st && st->kind == DW_TY_POINTER) {
        if (v->kind != DBG_V_INT && v->kind != DBG_V_PTR && v->kind != DBG_V_CODE)
            return eerr(x, "Invalid cast.");
        memset(out, 0, sizeof *out);
        out->kind = DBG_V_PTR;
        out->dt = t;
        out->type = dbg_dw_scalar_type(st->target);
        out->space = e->space != PTX_SPACE_GENERIC || v->kind != DBG_V_PTR ? e->space : v->space;
        if (out->space != e->space) { /* the pointer type shows the space the value keeps */
            dw_type p = *st;
            p.space = out->space;
            if (!(out->dt = synth_type(x, &p)))
                return -1;
        }
        out->u = v->u;
        return 0;
    }
    if (st && v->kind == DBG_V_AGG && (st->kind == DW_TY_STRUCT || st->kind == DW_TY_UNION ||
                                    st->kind == DW_TY_CLASS)) {
        /* an aggregate to its own type (named with or without struct, or a typedef of it) */
        const dw_type *vs = dw_type_strip(v->dt);
        if (vs != st && (!vs || !vs->name || !st->name || strcmp(vs->name, st->name) ||
                         dw_type_size(vs) != dw_type_size(st)))
            return eerr(x, "Invalid cast.");
        *out = *v;
        out->dt = t;
        return 0;
    }
    ptx_type pt = dbg_dw_scalar_type(t);
    if (pt == PTX_T_NONE || v->kind == DBG_V_AGG || v->kind == DBG_V_VOID || v->kind == DBG_V_DIM3)
        return eerr(x, "Invalid cast.");
    if (v->kind == DBG_V_PTR || v->kind == DBG_V_CODE)
        v->kind = DBG_V_INT, v->type = PTX_T_U64;
    pt = dbg_type_norm(pt);
    dbg_value_from_bits(out, pt, dbg_value_to_bits(v, pt));
    out->dt = t;
    return 0;
}

static int eval(ectx *x, const dbg_expr *e, dbg_value *out)
{
    dbg_value a, b;
    int lazy = x->lazy; /* only this node's final load, never its operands' */
    x->lazy = 0;
    memset(out, 0, sizeof *out);
    switch (e->op) {
    case EX_INT:
        int_val(out, e->type, e->ival);
        return 0;
    case EX_FLOAT:
        out->kind = DBG_V_FLOAT;
        out->type = e->type;
        out->f = e->fval;
        return 0;
    case EX_REG: return eval_reg(x, e, out);
    case EX_IDENT: return eval_ident(x, e, out);
    case EX_DOLLAR: return eval_dollar(x, e, out);
    case EX_MEMBER:
        if (eval(x, e->a, &a) != 0)
            return -1;
        if (a.kind != DBG_V_DIM3) {
            x->lazy = lazy;
            int r = member(x, &a, e->name, out);
            x->lazy = 0;
            return r;
        }
        if (strlen(e->name) != 1 || !strchr("xyz", e->name[0]))
            return eerr(x, "There is no member named %s.", e->name);
        int_val(out, PTX_T_U32, a.d3[e->name[0] - 'x']);
        return 0;
    case EX_NEG: case EX_POS: case EX_NOT: case EX_BITNOT:
        if (eval(x, e->a, &a) != 0)
            return -1;
        decay(x, &a);
        if (a.kind == DBG_V_VOID || a.kind == DBG_V_DIM3 || a.kind == DBG_V_AGG)
            return not_number(x, &a);
        if (a.kind == DBG_V_PTR || a.kind == DBG_V_CODE)
            a.kind = DBG_V_INT, a.type = PTX_T_U64;
        a.dt = NULL;
        if (e->op == EX_NOT) {
            int_val(out, PTX_T_S32, !dbg_value_true(&a));
            return 0;
        }
        if (a.kind == DBG_V_FLOAT) {
            if (e->op == EX_BITNOT)
                return eerr(x, "Argument to complement operation not an integer, boolean.");
            *out = a;
            out->lv = DBG_LV_NONE;
            if (e->op == EX_NEG)
                out->f = -a.f;
            return 0;
        }
        {
            dbg_value z = a;
            ptx_type t = arith_type(&a, &z);
            int_val(out, t, e->op == EX_NEG ? (uint64_t)0 - a.u : e->op == EX_BITNOT ? ~a.u : a.u);
        }
        return 0;
    case EX_DEREF:
        if (eval(x, e->a, &a) != 0)
            return -1;
        decay(x, &a);
        x->lazy = lazy; /* reset by the caller */
        if (a.kind == DBG_V_PTR && pointee(&a))
            return load_typed(x, pointee(&a), a.space, a.u, out);
        if (a.kind != DBG_V_PTR)
            return eerr(x, "Attempt to take contents of a non-pointer value.");
        if (a.type == PTX_T_NONE)
            return eerr(x, "Attempt to take contents of a non-pointer value.");
        return read_mem(x, a.type, a.space, a.u, out);
    case EX_ADDR:
        /* gdb: &p[i], &*p and &s.m compute an address without reading it */
        x->lazy = e->a->op == EX_INDEX || e->a->op == EX_DEREF || e->a->op == EX_MEMBER;
        {
            int r = eval(x, e->a, &a);
            x->lazy = 0;
            if (r != 0)
                return -1;
        }
        if (a.lv != DBG_LV_MEM)
            return eerr(x, "Attempt to take address of value not located in memory.");
        out->kind = DBG_V_PTR;
        out->type = a.kind == DBG_V_PTR ? PTX_T_U64 : a.kind == DBG_V_AGG ? PTX_T_NONE : a.type;
        out->space = a.mspace;
        out->u = a.maddr;
        if (a.dt && x->src->dw)
            out->dt = dw_type_pointer_to(x->src->dw, a.dt, a.mspace);
        return 0;
    case EX_CAST:
        if (eval(x, e->a, &a) != 0)
            return -1;
        return e->tname ? eval_cast_written(x, e, &a, out) : eval_cast(x, e, &a, out);
    case EX_SIZEOF:
        if (!e->a) { /* sizeof(TYPE) */
            const dw_type *t = written_type(x, e);
            if (!t)
                return -1;
            int_val(out, PTX_T_U64, dw_type_size(t));
            return 0;
        }
        if (eval(x, e->a, &a) != 0) {
            /* sizeof(NAME) of a name that is no variable: a type named without struct, as
               C++ writes it (sizeof(Particle), sizeof(float3)) */
            const dw_type *t = e->a->op == EX_IDENT && x->src->dw && dw_has_dwarf(x->src->dw)
                               ? dw_type_lookup(x->src->dw, e->a->name) : NULL;
            if (!t)
                return -1;
            if (x->n)
                x->err[0] = 0;
            int_val(out, PTX_T_U64, dw_type_size(t));
            return 0;
        }
        if (a.dt && !(a.kind == DBG_V_PTR && a.count)) {
            int_val(out, PTX_T_U64, dw_type_size(a.dt));
            return 0;
        }
        int_val(out, PTX_T_U64, a.kind == DBG_V_PTR && a.count ? a.count * (uint64_t)tbytes(a.type)
                                                            : (uint64_t)dbg_value_size(&a));
        return 0;
    case EX_INDEX: {
        if (eval(x, e->a, &a) != 0 || eval(x, e->b, &b) != 0)
            return -1;
        x->lazy = lazy; /* the element's load; reset by the caller */
        if (b.kind != DBG_V_INT)
            return not_number(x, &b);
        if (is_array(&a)) {
            const dw_type *st = dw_type_strip(a.dt);
            const dw_type *el = x->src->dw ? dw_type_subarray(x->src->dw, st, 1) : NULL;
            if (!el)
                return eerr(x, "cannot subscript this array");
            return load_typed(x, el, a.mspace, a.maddr + (uint64_t)((int64_t)b.u *
                                                   (int64_t)dw_type_size(el)), out);
        }
        if (a.kind == DBG_V_PTR && pointee(&a))
            return load_typed(x, pointee(&a), a.space, a.u + (uint64_t)((int64_t)b.u *
                                                 (int64_t)dw_type_size(pointee(&a))), out);
        if (a.kind != DBG_V_PTR) {
            if (a.dt) {
                char tn[128];
                dw_type_name(a.dt, tn, sizeof tn);
                return eerr(x, "cannot subscript something of type `%s'", tn);
            }
            return eerr(x, "cannot subscript something of type `%s'", dbg_type_c_name(a.type));
        }
        if (a.count && (int64_t)b.u >= 0 && b.u >= a.count)
            return eerr(x, "Index %lld is out of range of %s[%llu].", (long long)b.u,
                        e->a->op == EX_IDENT ? e->a->name : "buffer",
                        (unsigned long long)a.count);
        if (a.type == PTX_T_NONE)
            return eerr(x, "Attempt to take contents of a non-pointer value.");
        return read_mem(x, a.type, a.space, a.u + (uint64_t)((int64_t)b.u * tbytes(a.type)), out);
    }
    case EX_LAND:
    case EX_LOR: {
        if (eval(x, e->a, &a) != 0)
            return -1;
        int ta = dbg_value_true(&a);
        if ((e->op == EX_LAND && !ta) || (e->op == EX_LOR && ta)) {
            int_val(out, PTX_T_S32, ta);
            return 0;
        }
        if (eval(x, e->b, &b) != 0)
            return -1;
        int_val(out, PTX_T_S32, dbg_value_true(&b));
        return 0;
    }
    case EX_COND:
        if (eval(x, e->a, &a) != 0)
            return -1;
        return eval(x, dbg_value_true(&a) ? e->b : e->c, out);
    case EX_ASSIGN:
        if (eval(x, e->a, &a) != 0 || eval(x, e->b, &b) != 0)
            return -1;
        return assign(x, &a, &b, out);
    case EX_ARRAY:
        if (eval(x, e->a, &a) != 0 || eval(x, e->b, &b) != 0)
            return -1;
        return eval_artificial(x, &a, &b, out);
    default:
        if (eval(x, e->a, &a) != 0 || eval(x, e->b, &b) != 0)
            return -1;
        return binary(x, e->op, &a, &b, out);
    }
}

int dbg_eval(const dbg_expr *e, const dbg_vsrc *src, dbg_history *hist, dbg_value *out,
             char *err, size_t n)
{
    ectx x = {src, hist, err, n, 0};
    if (n)
        err[0] = 0;
    return eval(&x, e, out);
}

static int dw_is_type(void *ctx, const char *name)
{
    const dw_info *dw = ctx;
    return dbg_type_from_c(name) != PTX_T_NONE ||
           (dw && dw_has_dwarf(dw) && dw_type_lookup(dw, name) != NULL);
}

dbg_expr *dbg_expr_parse_dw(const char *text, const dw_info *dw, char *err, size_t n)
{
    return dbg_expr_parse_typed(text, dw_is_type, (void *)dw, err, n);
}

int dbg_eval_text(const char *text, const dbg_vsrc *src, dbg_history *hist, dbg_value *out,
                  char *err, size_t n)
{
    dbg_expr *e = dbg_expr_parse_dw(text, src ? src->dw : NULL, err, n);
    if (!e)
        return -1;
    int r = dbg_eval(e, src, hist, out, err, n);
    dbg_expr_free(e);
    return r;
}
