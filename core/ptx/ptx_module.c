/* ptx_module.c - module support: arena, string interning, type helpers, lookups, free, dumps. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_lex.h"

/* ---- arena --------------------------------------------------------------------------------- */
typedef struct chunk {
    struct chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} chunk;

struct ptx_arena {
    chunk *head;
};

#define ARENA_CHUNK (256 * 1024)

ptx_arena *ptx_arena_new(void)
{
    return calloc(1, sizeof(ptx_arena));
}

void *ptx_arena_alloc(ptx_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t sz = n > ARENA_CHUNK / 4 ? n : ARENA_CHUNK;
        if (sz > ((size_t)1 << 40))
            return NULL;
        chunk *nc = calloc(1, sizeof(chunk) + sz);
        if (!nc)
            return NULL;
        nc->size = sz;
        if (sz != ARENA_CHUNK && c) {
            /* a big block: keep the current chunk as the bump target */
            nc->next = c->next;
            c->next = nc;
            nc->used = n;
            return nc->data;
        }
        nc->next = c;
        a->head = c = nc;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

void ptx_arena_free(ptx_arena *a)
{
    if (!a)
        return;
    for (chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}

/* ---- interning ----------------------------------------------------------------------------- */
static uint32_t hash_str(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

int ptx_intern_init(ptx_intern *t, ptx_arena *a)
{
    t->cap = 4096;
    t->n = 0;
    t->arena = a;
    t->tab = calloc(t->cap, sizeof *t->tab);
    return t->tab ? 0 : -1;
}

void ptx_intern_free(ptx_intern *t)
{
    free(t->tab);
    t->tab = NULL;
}

const char *ptx_intern_str(ptx_intern *t, const char *s, size_t len)
{
    uint32_t h = hash_str(s, len);
    size_t i = h & (t->cap - 1);
    for (ptx_name *e = t->tab[i]; e; e = e->next)
        if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0)
            return e->s;
    if (len > (1u << 30))
        return NULL;
    if (t->n * 2 >= t->cap) {
        size_t ncap = t->cap * 2;
        ptx_name **nt = calloc(ncap, sizeof *nt);
        if (!nt)
            return NULL;
        for (size_t k = 0; k < t->cap; k++)
            for (ptx_name *e = t->tab[k], *nx; e; e = nx) {
                nx = e->next;
                size_t j = e->hash & (ncap - 1);
                e->next = nt[j];
                nt[j] = e;
            }
        free(t->tab);
        t->tab = nt;
        t->cap = ncap;
        i = h & (ncap - 1);
    }
    ptx_name *e = ptx_arena_alloc(t->arena, sizeof(ptx_name) + len + 1);
    if (!e)
        return NULL;
    e->hash = h;
    e->len = (uint32_t)len;
    memcpy(e->s, s, len);
    e->s[len] = 0;
    e->next = t->tab[i];
    t->tab[i] = e;
    t->n++;
    return e->s;
}

/* ---- types --------------------------------------------------------------------------------- */
static const struct { const char *name; int bits; } type_info[PTX_T__COUNT] = {
    [PTX_T_NONE] = {"none", 0},
    [PTX_T_B8] = {"b8", 8},       [PTX_T_B16] = {"b16", 16},    [PTX_T_B32] = {"b32", 32},
    [PTX_T_B64] = {"b64", 64},    [PTX_T_B128] = {"b128", 128},
    [PTX_T_U8] = {"u8", 8},       [PTX_T_U16] = {"u16", 16},    [PTX_T_U32] = {"u32", 32},
    [PTX_T_U64] = {"u64", 64},
    [PTX_T_S8] = {"s8", 8},       [PTX_T_S16] = {"s16", 16},    [PTX_T_S32] = {"s32", 32},
    [PTX_T_S64] = {"s64", 64},
    [PTX_T_F16] = {"f16", 16},    [PTX_T_F16X2] = {"f16x2", 32}, [PTX_T_BF16] = {"bf16", 16},
    [PTX_T_BF16X2] = {"bf16x2", 32}, [PTX_T_TF32] = {"tf32", 32},
    [PTX_T_E4M3] = {"e4m3", 8},   [PTX_T_E5M2] = {"e5m2", 8},
    [PTX_T_E4M3X2] = {"e4m3x2", 16}, [PTX_T_E5M2X2] = {"e5m2x2", 16},
    [PTX_T_F32] = {"f32", 32},    [PTX_T_F64] = {"f64", 64},
    [PTX_T_PRED] = {"pred", 1},
    [PTX_T_TEXREF] = {"texref", 64}, [PTX_T_SAMPLERREF] = {"samplerref", 64},
    [PTX_T_SURFREF] = {"surfref", 64},
};

int ptx_type_bits(ptx_type t)
{
    return (unsigned)t < PTX_T__COUNT ? type_info[t].bits : 0;
}

const char *ptx_type_name(ptx_type t)
{
    return (unsigned)t < PTX_T__COUNT ? type_info[t].name : "?";
}

ptx_type ptx_type_from_name(const char *s)
{
    if (!s)
        return PTX_T_NONE;
    if (*s == '.')
        s++;
    for (int t = 1; t < PTX_T__COUNT; t++)
        if (strcmp(type_info[t].name, s) == 0)
            return (ptx_type)t;
    return PTX_T_NONE;
}

int ptx_type_is_float(ptx_type t)
{
    return (t >= PTX_T_F16 && t <= PTX_T_F64);
}

int ptx_type_is_signed(ptx_type t)
{
    return t >= PTX_T_S8 && t <= PTX_T_S64;
}

const char *ptx_space_name(ptx_space s)
{
    static const char *const names[PTX_SPACE__COUNT] = {
        "none", "reg", "sreg", "const", "global", "local", "param", "shared",
        "shared::cluster", "tex", "surf", "generic",
    };
    return (unsigned)s < PTX_SPACE__COUNT ? names[s] : "?";
}

/* ---- special registers -------------------------------------------------------------------- */
const char *const ptx_sreg_names[PTX_SREG__COUNT] = {
    "%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid", "%nctaid", "%smid", "%nsmid",
    "%gridid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
    "%clock", "%clock_hi", "%clock64", "%pm0", "%pm1", "%pm2", "%pm3", "%pm4", "%pm5", "%pm6",
    "%pm7", "%pm0_64", "%pm1_64", "%pm2_64", "%pm3_64", "%pm4_64", "%pm5_64", "%pm6_64",
    "%pm7_64", "%envreg", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
    "%total_smem_size", "%dynamic_smem_size", "%aggr_smem_size",
    "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
    "%reserved_smem_offset_", "%clusterid", "%nclusterid", "%cluster_ctaid",
    "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
    "%current_graph_exec",
};

#define SREG(id, t, v, nm) [id] = {.kind = PTX_SYM_SREG, .name = nm, .space = PTX_SPACE_SREG, .type = t, \
                               .vec = v, .sreg_id = id, .section = -1, \
                               .size = (v) * (t == PTX_T_U64 ? 8 : 4)}
#define SREG32(id, nm) SREG(id, PTX_T_U32, 1, nm)
#define SREG64(id, nm) SREG(id, PTX_T_U64, 1, nm)
ptx_sym ptx_sregs[PTX_SREG__COUNT] = {
    SREG(PTX_SREG_TID, PTX_T_U32, 4, "%tid"), SREG(PTX_SREG_NTID, PTX_T_U32, 4, "%ntid"),
    SREG32(PTX_SREG_LANEID, "%laneid"), SREG32(PTX_SREG_WARPID, "%warpid"), SREG32(PTX_SREG_NWARPID, "%nwarpid"),
    SREG(PTX_SREG_CTAID, PTX_T_U32, 4, "%ctaid"), SREG(PTX_SREG_NCTAID, PTX_T_U32, 4, "%nctaid"),
    SREG32(PTX_SREG_SMID, "%smid"), SREG32(PTX_SREG_NSMID, "%nsmid"), SREG64(PTX_SREG_GRIDID, "%gridid"),
    SREG32(PTX_SREG_LANEMASK_EQ, "%lanemask_eq"), SREG32(PTX_SREG_LANEMASK_LE, "%lanemask_le"), SREG32(PTX_SREG_LANEMASK_LT, "%lanemask_lt"),
    SREG32(PTX_SREG_LANEMASK_GE, "%lanemask_ge"), SREG32(PTX_SREG_LANEMASK_GT, "%lanemask_gt"),
    SREG32(PTX_SREG_CLOCK, "%clock"), SREG32(PTX_SREG_CLOCK_HI, "%clock_hi"), SREG64(PTX_SREG_CLOCK64, "%clock64"),
    SREG32(PTX_SREG_PM0, "%pm0"), SREG32(PTX_SREG_PM1, "%pm1"), SREG32(PTX_SREG_PM2, "%pm2"), SREG32(PTX_SREG_PM3, "%pm3"),
    SREG32(PTX_SREG_PM4, "%pm4"), SREG32(PTX_SREG_PM5, "%pm5"), SREG32(PTX_SREG_PM6, "%pm6"), SREG32(PTX_SREG_PM7, "%pm7"),
    SREG64(PTX_SREG_PM0_64, "%pm0_64"), SREG64(PTX_SREG_PM1_64, "%pm1_64"), SREG64(PTX_SREG_PM2_64, "%pm2_64"),
    SREG64(PTX_SREG_PM3_64, "%pm3_64"), SREG64(PTX_SREG_PM4_64, "%pm4_64"), SREG64(PTX_SREG_PM5_64, "%pm5_64"),
    SREG64(PTX_SREG_PM6_64, "%pm6_64"), SREG64(PTX_SREG_PM7_64, "%pm7_64"),
    SREG32(PTX_SREG_ENVREG, "%envreg"), SREG64(PTX_SREG_GLOBALTIMER, "%globaltimer"), SREG32(PTX_SREG_GLOBALTIMER_LO, "%globaltimer_lo"),
    SREG32(PTX_SREG_GLOBALTIMER_HI, "%globaltimer_hi"), SREG32(PTX_SREG_TOTAL_SMEM_SIZE, "%total_smem_size"),
    SREG32(PTX_SREG_DYNAMIC_SMEM_SIZE, "%dynamic_smem_size"), SREG32(PTX_SREG_AGGR_SMEM_SIZE, "%aggr_smem_size"),
    SREG32(PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN, "%reserved_smem_offset_begin"), SREG32(PTX_SREG_RESERVED_SMEM_OFFSET_END, "%reserved_smem_offset_end"),
    SREG32(PTX_SREG_RESERVED_SMEM_OFFSET_CAP, "%reserved_smem_offset_cap"), SREG32(PTX_SREG_RESERVED_SMEM_OFFSET_2, "%reserved_smem_offset_"),
    SREG(PTX_SREG_CLUSTERID, PTX_T_U32, 4, "%clusterid"), SREG(PTX_SREG_NCLUSTERID, PTX_T_U32, 4, "%nclusterid"),
    SREG(PTX_SREG_CLUSTER_CTAID, PTX_T_U32, 4, "%cluster_ctaid"), SREG(PTX_SREG_CLUSTER_NCTAID, PTX_T_U32, 4, "%cluster_nctaid"),
    SREG32(PTX_SREG_CLUSTER_CTARANK, "%cluster_ctarank"), SREG32(PTX_SREG_CLUSTER_NCTARANK, "%cluster_nctarank"),
    SREG32(PTX_SREG_IS_EXPLICIT_CLUSTER, "%is_explicit_cluster"), SREG64(PTX_SREG_CURRENT_GRAPH_EXEC, "%current_graph_exec"),
};

/* ---- the opcode table ---------------------------------------------------------------------- */
/* The flags column of ptx_ops.def names the bits without their prefix. */
enum {
#define PTX_OPF_SHORT_(n, word) n = PTX_OPF_##n,
    PTX_OPF_LIST(PTX_OPF_SHORT_)
#undef PTX_OPF_SHORT_
};
const ptx_opinfo ptx_ops[PTX_OPC__COUNT] = {
#define OP(name, dec, fam, fl, sum) { #name, fam, (unsigned)(fl), sum },
#define OPX(name, fam, fl, sum) { #name, fam, (unsigned)(fl), sum },
#include "ptx_ops.def"
#undef OP
#undef OPX
};

int ptx_op_lookup(const char *name)
{
    for (int i = 0; name && i < PTX_OPC__COUNT; i++)
        if (strcmp(ptx_ops[i].name, name) == 0)
            return i;
    return -1;
}

const char *ptx_opf_word(int bit)
{
    static const char *const words[] = {
#define PTX_OPF_WORD_(n, word) word,
        PTX_OPF_LIST(PTX_OPF_WORD_)
#undef PTX_OPF_WORD_
    };
    return bit >= 0 && bit < PTX_OPF__NBITS ? words[bit] : NULL;
}

int ptx_insn_writes_op0(const ptx_insn *in)
{
    if (in->opc == PTX_OPC_call)
        return in->call_has_ret;
    if (in->opc == PTX_OPC_tcgen05)
        return !ptx_insn_has_mod(in, "dealloc");
    if (ptx_op_is(in, PTX_OPF_SRC0))
        return ptx_op_is(in, PTX_OPF_BARRIER) && ptx_insn_has_mod(in, "red");
    return 1;
}

/* ---- lookups ------------------------------------------------------------------------------- */
ptx_func *ptx_find_func(const ptx_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (int i = 0; i < m->nfuncs; i++)
        if (!m->funcs[i]->is_prototype && strcmp(m->funcs[i]->sym->name, name) == 0)
            return m->funcs[i];
    return NULL;
}

ptx_sym *ptx_find_var(const ptx_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (int i = 0; i < m->nvars; i++)
        if (strcmp(m->vars[i]->name, name) == 0)
            return m->vars[i];
    return NULL;
}

int ptx_insn_has_mod(const ptx_insn *in, const char *mod)
{
    if (!in || !mod)
        return 0;
    if (*mod == '.')
        mod++;
    for (int i = 0; i < in->nmods; i++)
        if (strcmp(in->mods[i], mod) == 0)
            return 1;
    return 0;
}

const char *ptx_source_line(const ptx_module *m, int line, int *len)
{
    if (!m || !m->text || line < 1)
        return NULL;
    const char *p = m->text;
    for (int l = 1; l < line; l++) {
        p = strchr(p, '\n');
        if (!p)
            return NULL;
        p++;
    }
    const char *e = strchr(p, '\n');
    int n = e ? (int)(e - p) : (int)strlen(p);
    if (n > 0 && p[n - 1] == '\r')
        n--;
    if (len)
        *len = n;
    return p;
}

void ptx_module_free(ptx_module *m)
{
    if (m)
        ptx_arena_free(m->arena);
}

/* ---- formatting ---------------------------------------------------------------------------- */
typedef struct {
    char *buf;
    size_t n, len;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->len < b->n ? b->n - b->len : 0;
    int r = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (r > 0)
        b->len += (size_t)r;
}

static void fmt_operand(sbuf *b, const ptx_operand *o)
{
    static const char comps[] = "xyzw";
    switch (o->kind) {
    case PTX_OP_REG:
        sb_printf(b, "%s%s", o->neg ? (o->sym && o->sym->type == PTX_T_PRED ? "!" : "-") : "",
                  o->sym ? o->sym->name : "?");
        if (o->sym && o->sym->kind == PTX_SYM_SREG &&
            (o->sym->sreg_id == PTX_SREG_ENVREG || o->sym->sreg_id == PTX_SREG_RESERVED_SMEM_OFFSET_2))
            sb_printf(b, "%d", o->comp);
        else if (PTX_SEL_KIND(o->comp)) {
            /* video byte/half selector: .b0 .. .b3210, .h0 .. .h10 */
            sb_printf(b, ".%c", PTX_SEL_KIND(o->comp) == PTX_SEL_B ? 'b' : 'h');
            for (int k = PTX_SEL_LEN(o->comp) - 1; k >= 0; k--)
                sb_printf(b, "%d", PTX_SEL_DIGIT(o->comp, k));
        } else if (o->comp >= 0 && o->comp < 4)
            sb_printf(b, ".%c", comps[o->comp]);
        if (o->reg_add)
            sb_printf(b, "+%" PRId64, o->ival);
        break;
    case PTX_OP_IMM:
        sb_printf(b, "%" PRId64, o->ival);
        break;
    case PTX_OP_FIMM:
        if (o->fsize == 32)
            sb_printf(b, "0f%08" PRIX32, (uint32_t)o->fbits);
        else
            sb_printf(b, "0d%016" PRIX64, o->fbits);
        break;
    case PTX_OP_SYM:
        sb_printf(b, "%s", o->sym ? o->sym->name : "?");
        if (o->ival > 0)
            sb_printf(b, "+%" PRId64, o->ival);
        else if (o->ival < 0)
            sb_printf(b, "%" PRId64, o->ival);
        break;
    case PTX_OP_ADDR:
        sb_printf(b, "[");
        if (o->sym) {
            sb_printf(b, "%s", o->sym->name);
            if (o->ival)
                sb_printf(b, "+%" PRId64, o->ival);
        } else {
            sb_printf(b, "%" PRId64, o->ival);
        }
        for (int i = 0; i < o->nelems; i++) {
            sb_printf(b, ", ");
            fmt_operand(b, &o->elems[i]);
        }
        sb_printf(b, "]");
        break;
    case PTX_OP_VEC:
    case PTX_OP_LIST:
        sb_printf(b, o->kind == PTX_OP_VEC ? "{" : "(");
        for (int i = 0; i < o->nelems; i++) {
            if (i)
                sb_printf(b, ", ");
            fmt_operand(b, &o->elems[i]);
        }
        sb_printf(b, o->kind == PTX_OP_VEC ? "}" : ")");
        break;
    case PTX_OP_SINK:
        sb_printf(b, "_");
        break;
    case PTX_OP_PAIR:
        if (o->nelems == 2) {
            fmt_operand(b, &o->elems[0]);
            sb_printf(b, "|");
            fmt_operand(b, &o->elems[1]);
        }
        break;
    }
}

int ptx_insn_format(const ptx_insn *in, char *buf, size_t n)
{
    sbuf b = {buf, n, 0};
    if (buf && n)
        buf[0] = 0;
    if (!in)
        return 0;
    if (in->guard)
        sb_printf(&b, "@%s%s ", in->guard_neg ? "!" : "", in->guard->name);
    sb_printf(&b, "%s", in->opcode);
    for (int i = 0; i < in->nmods; i++)
        sb_printf(&b, ".%s", in->mods[i]);
    for (int i = 0; i < in->nops; i++) {
        sb_printf(&b, i ? ", " : " ");
        fmt_operand(&b, &in->ops[i]);
    }
    sb_printf(&b, ";");
    if (buf && n && b.len >= n)
        buf[n - 1] = 0;
    return (int)b.len;
}

/* ---- golden dump --------------------------------------------------------------------------- */
static void dump_flags(FILE *f, unsigned fl)
{
    if (fl & PTX_LINK_VISIBLE) fprintf(f, " visible");
    if (fl & PTX_LINK_EXTERN) fprintf(f, " extern");
    if (fl & PTX_LINK_WEAK) fprintf(f, " weak");
    if (fl & PTX_LINK_COMMON) fprintf(f, " common");
    if (fl & PTX_ATTR_MANAGED) fprintf(f, " managed");
    if (fl & PTX_ATTR_UNIFIED) fprintf(f, " unified");
}

static void dump_sym(FILE *f, const char *indent, const char *what, const ptx_sym *s)
{
    fprintf(f, "%s%s %s %s", indent, what, ptx_space_name(s->space), s->name);
    fprintf(f, " : %s", ptx_type_name(s->type));
    if (s->vec > 1)
        fprintf(f, " v%d", s->vec);
    for (int d = 0; d < s->ndims; d++)
        fprintf(f, "[%" PRIu64 "]", s->dims[d]);
    fprintf(f, " size %" PRIu64, s->size);
    if (s->align)
        fprintf(f, " align %d", s->align);
    if (s->ptr_space)
        fprintf(f, " ptr %s align %d", ptx_space_name(s->ptr_space), s->ptr_align);
    dump_flags(f, s->flags);
    fprintf(f, " @%d\n", s->line);
    if (s->init) {
        fprintf(f, "%s  init", indent);
        uint64_t shown = s->init_size < 64 ? s->init_size : 64;
        for (uint64_t i = 0; i < shown; i++)
            fprintf(f, " %02x", s->init[i]);
        if (shown < s->init_size)
            fprintf(f, " ... (%" PRIu64 " bytes)", s->init_size);
        fprintf(f, "\n");
        for (int r = 0; r < s->nrelocs; r++)
            fprintf(f, "%s  reloc +%" PRIu64 " size %d -> %s%+" PRId64 "%s\n", indent,
                    s->relocs[r].offset, s->relocs[r].size, s->relocs[r].sym->name,
                    s->relocs[r].addend, s->relocs[r].generic ? " generic" : "");
    }
}

static void dump_loc(FILE *f, const ptx_module *m, int li)
{
    const ptx_loc *l = &m->locs[li];
    fprintf(f, "loc#%d %d:%d:%d", li, l->file, l->line, l->col);
    if (l->function_name)
        fprintf(f, " fn=%s", l->function_name);
    if (l->inl_file)
        fprintf(f, " inlined_at %d:%d:%d", l->inl_file, l->inl_line, l->inl_col);
    if (l->prev >= 0)
        fprintf(f, " prev=loc#%d", l->prev);
}

void ptx_module_dump(const ptx_module *m, void *FILE_out)
{
    FILE *f = FILE_out;
    char buf[4096];
    if (!m || !f)
        return;
    fprintf(f, "module %s\n", m->path ? m->path : "<string>");
    fprintf(f, "version %d.%d target %s%s%s address_size %d\n", m->version_major,
            m->version_minor, m->target ? m->target : "?", m->target_debug ? " debug" : "",
            m->texmode_independent ? " texmode_independent" : "", m->address_size);
    for (int i = 0; i < m->nvars; i++)
        dump_sym(f, "", "var", m->vars[i]);
    for (int i = 0; i < m->naliases; i++)
        fprintf(f, "alias %s -> %s\n", m->aliases[i].alias->name, m->aliases[i].target->name);
    for (int i = 0; i < m->nfuncs; i++) {
        const ptx_func *fn = m->funcs[i];
        fprintf(f, "%s %s", fn->is_prototype ? "callprototype" : fn->is_entry ? "entry" : "func",
                fn->sym->name);
        dump_flags(f, fn->flags);
        fprintf(f, "%s @%d-%d\n", fn->has_body ? "" : " (declaration)", fn->line, fn->end_line);
        if (fn->maxntid[0])
            fprintf(f, "  maxntid %u,%u,%u\n", fn->maxntid[0], fn->maxntid[1], fn->maxntid[2]);
        if (fn->reqntid[0])
            fprintf(f, "  reqntid %u,%u,%u\n", fn->reqntid[0], fn->reqntid[1], fn->reqntid[2]);
        if (fn->minnctapersm)
            fprintf(f, "  minnctapersm %u\n", fn->minnctapersm);
        if (fn->maxnreg)
            fprintf(f, "  maxnreg %u\n", fn->maxnreg);
        if (fn->maxclusterrank)
            fprintf(f, "  maxclusterrank %u\n", fn->maxclusterrank);
        if (fn->reqnctapercluster[0])
            fprintf(f, "  reqnctapercluster %u,%u,%u\n", fn->reqnctapercluster[0],
                    fn->reqnctapercluster[1], fn->reqnctapercluster[2]);
        if (fn->noreturn)
            fprintf(f, "  noreturn\n");
        for (int k = 0; k < fn->npragmas; k++)
            fprintf(f, "  pragma %s\n", fn->pragmas[k]);
        for (int k = 0; k < fn->nrets; k++)
            dump_sym(f, "  ", "ret", fn->rets[k]);
        for (int k = 0; k < fn->nparams; k++)
            dump_sym(f, "  ", "param", fn->params[k]);
        for (int k = 0; k < fn->nregs; k++)
            dump_sym(f, "  ", "reg", fn->regs[k]);
        for (int k = 0; k < fn->nvars; k++)
            dump_sym(f, "  ", "var", fn->vars[k]);
        for (int k = 0; k < fn->nlabels; k++)
            fprintf(f, "  label %s -> %d\n", fn->labels[k]->name, fn->labels[k]->index);
        for (int k = 0; k < fn->ntargets; k++) {
            fprintf(f, "  targets %s:", fn->targets[k].sym->name);
            for (int j = 0; j < fn->targets[k].nitems; j++)
                fprintf(f, " %s", fn->targets[k].items[j]->name);
            fprintf(f, "\n");
        }
        for (int k = 0; k < fn->ninsns; k++) {
            const ptx_insn *in = &fn->insns[k];
            ptx_insn_format(in, buf, sizeof buf);
            fprintf(f, "  %4d @%d %s", k, in->line, buf);
            if (in->loc >= 0)
                fprintf(f, "   ; loc#%d", in->loc);
            fprintf(f, "\n");
        }
    }
    for (int i = 0; i < m->nlocs; i++) {
        fprintf(f, "  ");
        dump_loc(f, m, i);
        fprintf(f, " @%d\n", m->locs[i].ptx_line);
    }
    for (int i = 0; i < m->nfiles; i++)
        fprintf(f, "file %d \"%s\" %" PRIu64 " %" PRIu64 "\n", m->files[i].num, m->files[i].path,
                m->files[i].mtime, m->files[i].size);
    for (int i = 0; i < m->nsections; i++) {
        const ptx_section *s = &m->sections[i];
        uint64_t bytes = 0;
        int nsym = 0;
        for (int k = 0; k < s->ndata; k++) {
            bytes += (uint64_t)s->data[k].size;
            nsym += s->data[k].kind != PTX_DATUM_INT;
        }
        fprintf(f, "section %s: %d data, %" PRIu64 " bytes, %d symbolic, %d labels @%d\n",
                s->name, s->ndata, bytes, nsym, s->nlabels, s->line);
        for (int k = 0; k < s->ndata && k < 400; k++) {
            const ptx_datum *d = &s->data[k];
            if (d->kind == PTX_DATUM_SYM)
                fprintf(f, "  [%d] b%d %s%+" PRId64 "\n", k, d->size * 8, d->sym, d->addend);
            else if (d->kind == PTX_DATUM_DIFF)
                fprintf(f, "  [%d] b%d %s-%s%+" PRId64 "\n", k, d->size * 8, d->sym, d->sym2,
                        d->addend);
        }
        for (int k = 0; k < s->nlabels; k++)
            fprintf(f, "  label %s -> %d\n", s->labels[k]->name, s->labels[k]->index);
    }
}
