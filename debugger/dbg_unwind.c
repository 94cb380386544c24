/* dbg_unwind.c - a cheap walk of this thread's host stack (x86-64): the .eh_frame rules of each return address, cached per thread. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "dbg_int.h"

/* ---------------------------------------------------------------------------------------------
 * libgcc's _Unwind_Backtrace interprets a frame's call-frame information anew at every frame of
 * every walk (a few thousand instructions a frame), which made recording a launch's or a free's
 * host stack a large part of its cost. This walk finds the same return addresses: per return
 * address it interprets the FDE once (found by libgcc's _Unwind_Find_FDE) and keeps the rule
 * it gives for the two things a walk needs, the caller's stack pointer (the CFA: %rsp or %rbp
 * plus an offset) and the caller's %rbp (unchanged, or saved at an offset from the CFA), the
 * return address being at CFA - 8. A frame whose rule is anything else (a CFA by expression or
 * another register, a signal frame, an address without an FDE) makes the walk give up, and the
 * caller walks with libgcc instead: the result is the same either way.
 * ------------------------------------------------------------------------------------------- */

#if defined(__x86_64__) && defined(__GNUC__)

struct dwarf_eh_bases {
    void *tbase, *dbase, *func;
};
extern const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

enum { R_NONE, R_SP, R_BP, R_END, R_ODD };   /* a rule's CFA (R_END: no caller; R_ODD: give up) */
enum { REG_BP = 6, REG_SP = 7, REG_RA = 16 };
enum { H_SAME, H_OFF, H_UNDEF, H_ODD };      /* how a register is restored */

typedef struct {
    uint64_t pc;
    int32_t cfa_off, bp_off;
    uint8_t cfa, bp_saved;
} uw_rule;

/* two ways a set, by a multiplicative hash of the address: a walk's dozen addresses rarely
   evict one another */
#define UW_SETS 256
typedef struct {
    uw_rule way[UW_SETS][2];
    uint8_t last[UW_SETS];              /* the way used last */
} uw_table;
static _Thread_local uw_table uw_tab;

static uw_rule *rule_slot(uw_table *t, uint64_t pc)
{
    unsigned set = (unsigned)((pc * 0x9e3779b97f4a7c15ull) >> 56) % UW_SETS;
    uw_rule *w = t->way[set];
    if (w[0].pc == pc && w[0].cfa != R_NONE) {
        t->last[set] = 0;
        return &w[0];
    }
    if (w[1].pc == pc && w[1].cfa != R_NONE) {
        t->last[set] = 1;
        return &w[1];
    }
    t->last[set] ^= 1;                  /* the other way than the last used */
    uw_rule *c = &w[t->last[set]];
    c->cfa = R_NONE;
    return c;
}

typedef struct {
    int cfa_reg;
    int64_t cfa_off;
    int cfa_odd;
    int how[2];         /* rbp, return address */
    int64_t off[2];
} uw_row;

static uint64_t uleb(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    int sh = 0;
    while (*p < end) {
        uint8_t b = *(*p)++;
        if (sh < 64)
            v |= (uint64_t)(b & 0x7f) << sh;
        sh += 7;
        if (!(b & 0x80))
            break;
    }
    return v;
}

static int64_t sleb(const uint8_t **p, const uint8_t *end)
{
    int64_t v = 0;
    int sh = 0;
    uint8_t b = 0;
    while (*p < end) {
        b = *(*p)++;
        if (sh < 64)
            v |= (int64_t)((uint64_t)(b & 0x7f) << sh);
        sh += 7;
        if (!(b & 0x80))
            break;
    }
    if (sh < 64 && (b & 0x40))
        v |= -(int64_t)((uint64_t)1 << sh);
    return v;
}

/* The size of a pointer in encoding enc (DW_EH_PE_*); -1 when not a plain one. */
static int enc_size(uint8_t enc, const uint8_t **p, const uint8_t *end)
{
    if (enc == 0xff)
        return 0;                       /* omitted */
    switch (enc & 0x0f) {
    case 0x00: case 0x04: case 0x0c: return 8;
    case 0x02: case 0x0a: return 2;
    case 0x03: case 0x0b: return 4;
    case 0x01: case 0x09: {
        const uint8_t *q = *p;
        uleb(&q, end);
        return (int)(q - *p);
    }
    default: return -1;
    }
}

static int slot(uint64_t reg)
{
    return reg == REG_BP ? 0 : reg == REG_RA ? 1 : -1;
}

/* Run CFA instructions [p, end) from loc while loc < target. 0, or -1 when unsupported. */
static int run_cfa(const uint8_t *p, const uint8_t *end, uint64_t loc, uint64_t target,
                   uint64_t caf, int64_t daf, uw_row *r, const uw_row *init)
{
    uw_row saved[8];
    int nsaved = 0;
    while (p < end && loc < target) {
        uint8_t op = *p++;
        uint64_t reg, d;
        int k;
        switch (op & 0xc0) {
        case 0x40:
            loc += (uint64_t)(op & 0x3f) * caf;
            continue;
        case 0x80:
            d = uleb(&p, end);
            if ((k = slot(op & 0x3f)) >= 0) {
                r->how[k] = H_OFF;
                r->off[k] = (int64_t)d * daf;
            }
            continue;
        case 0xc0:
            if ((k = slot(op & 0x3f)) >= 0) {
                r->how[k] = init->how[k];
                r->off[k] = init->off[k];
            }
            continue;
        }
        switch (op) {
        case 0x00: break;                                                   /* nop */
        case 0x02: if (p + 1 > end) return -1; loc += p[0] * caf; p += 1; break;
        case 0x03: {
            if (p + 2 > end) return -1;
            uint16_t v; memcpy(&v, p, 2); loc += v * caf; p += 2; break;
        }
        case 0x04: {
            if (p + 4 > end) return -1;
            uint32_t v; memcpy(&v, p, 4); loc += v * caf; p += 4; break;
        }
        case 0x05:                                                          /* offset_extended */
            reg = uleb(&p, end);
            d = uleb(&p, end);
            if ((k = slot(reg)) >= 0) {
                r->how[k] = H_OFF;
                r->off[k] = (int64_t)d * daf;
            }
            break;
        case 0x11: {                                                     /* offset_extended_sf */
            reg = uleb(&p, end);
            int64_t s = sleb(&p, end);
            if ((k = slot(reg)) >= 0) {
                r->how[k] = H_OFF;
                r->off[k] = s * daf;
            }
            break;
        }
        case 0x06:                                                         /* restore_extended */
            if ((k = slot(uleb(&p, end))) >= 0) {
                r->how[k] = init->how[k];
                r->off[k] = init->off[k];
            }
            break;
        case 0x07:                                                                /* undefined */
            if ((k = slot(uleb(&p, end))) >= 0)
                r->how[k] = H_UNDEF;
            break;
        case 0x08:                                                               /* same_value */
            if ((k = slot(uleb(&p, end))) >= 0)
                r->how[k] = H_SAME;
            break;
        case 0x09:                                                                 /* register */
            reg = uleb(&p, end);
            uleb(&p, end);
            if ((k = slot(reg)) >= 0)
                r->how[k] = H_ODD;
            break;
        case 0x0a:                                                           /* remember_state */
            if (nsaved == 8)
                return -1;
            saved[nsaved++] = *r;
            break;
        case 0x0b:                                                            /* restore_state */
            if (!nsaved)
                return -1;
            *r = saved[--nsaved];
            break;
        case 0x0c:                                                                  /* def_cfa */
            r->cfa_reg = (int)uleb(&p, end);
            r->cfa_off = (int64_t)uleb(&p, end);
            r->cfa_odd = 0;
            break;
        case 0x12:                                                               /* def_cfa_sf */
            r->cfa_reg = (int)uleb(&p, end);
            r->cfa_off = sleb(&p, end) * daf;
            r->cfa_odd = 0;
            break;
        case 0x0d:                                                         /* def_cfa_register */
            r->cfa_reg = (int)uleb(&p, end);
            break;
        case 0x0e:                                                           /* def_cfa_offset */
            r->cfa_off = (int64_t)uleb(&p, end);
            break;
        case 0x13:                                                        /* def_cfa_offset_sf */
            r->cfa_off = sleb(&p, end) * daf;
            break;
        case 0x0f:                                                       /* def_cfa_expression */
            d = uleb(&p, end);
            if (d > (uint64_t)(end - p))
                return -1;
            p += d;
            r->cfa_odd = 1;
            break;
        case 0x10: case 0x16:                                    /* expression, val_expression */
            reg = uleb(&p, end);
            d = uleb(&p, end);
            if (d > (uint64_t)(end - p))
                return -1;
            p += d;
            if ((k = slot(reg)) >= 0)
                r->how[k] = H_ODD;
            break;
        case 0x14: case 0x15:                                      /* val_offset, val_offset_sf */
            reg = uleb(&p, end);
            uleb(&p, end);
            if ((k = slot(reg)) >= 0)
                r->how[k] = H_ODD;
            break;
        case 0x2e:                                                           /* GNU_args_size */
            uleb(&p, end);
            break;
        default:
            return -1;                      /* set_loc, GNU_negative_offset_extended, ... */
        }
    }
    return 0;
}

/* The rule at return address pc (the row in effect before it), from its FDE. */
static void rule_for(uint64_t pc, uw_rule *out)
{
    memset(out, 0, sizeof *out);
    out->pc = pc;
    out->cfa = R_ODD;
    struct dwarf_eh_bases b;
    const uint8_t *fde = _Unwind_Find_FDE((void *)(uintptr_t)(pc - 1), &b);
    if (!fde)
        return;
    uint32_t len, cie_off;
    memcpy(&len, fde, 4);
    memcpy(&cie_off, fde + 4, 4);
    if (len == 0xffffffffu || len < 8 || !cie_off)
        return;
    const uint8_t *fend = fde + 4 + len;
    const uint8_t *cie = fde + 4 - cie_off;
    uint32_t clen, cid;
    memcpy(&clen, cie, 4);
    memcpy(&cid, cie + 4, 4);
    if (clen == 0xffffffffu || clen < 8 || cid != 0)
        return;
    const uint8_t *cend = cie + 4 + clen, *p = cie + 8;
    uint8_t ver = *p++;
    const char *aug = (const char *)p;
    size_t alen = strnlen(aug, (size_t)(cend - p));
    p += alen + 1;
    if (p > cend || (ver != 1 && ver != 3) || (alen && aug[0] != 'z'))
        return;
    uint64_t caf = uleb(&p, cend);
    int64_t daf = sleb(&p, cend);
    uint64_t ra = ver == 1 ? (p < cend ? *p++ : 0) : uleb(&p, cend);
    uint8_t fenc = 0;
    if (ra != REG_RA)
        return;
    if (alen) {
        uint64_t zl = uleb(&p, cend);
        const uint8_t *q = p, *zend = p + zl;
        if (zl > (uint64_t)(cend - p))
            return;
        for (size_t i = 1; i < alen; i++) {
            if (aug[i] == 'R' && q < zend)
                fenc = *q++;
            else if (aug[i] == 'L' && q < zend)
                q++;
            else if (aug[i] == 'P' && q < zend) {
                uint8_t penc = *q++;
                int n = enc_size(penc, &q, zend);
                if (n < 0 || (penc & 0x70) == 0x50)
                    return;
                q += n;
            } else
                return;                     /* 'S' (a signal frame), 'B', ... */
        }
        p = zend;
    }
    /* the FDE: its range (the function's start is b.func), its augmentation data */
    const uint8_t *f = fde + 8;
    int n = enc_size(fenc, &f, fend);
    if (n <= 0)
        return;
    f += 2 * n;
    if (alen) {
        uint64_t zl = uleb(&f, fend);
        if (zl > (uint64_t)(fend - f))
            return;
        f += zl;
    }
    uw_row init = {.cfa_reg = REG_SP, .how = {H_SAME, H_SAME}}, r;
    uint64_t start = (uint64_t)(uintptr_t)b.func;
    if (run_cfa(p, cend, start, UINT64_MAX, caf, daf, &init, &init))
        return;
    r = init;
    if (run_cfa(f, fend, start, pc, caf, daf, &r, &init))
        return;
    if (r.how[1] == H_UNDEF) {
        out->cfa = R_END;
        return;
    }
    if (r.cfa_odd || (r.cfa_reg != REG_SP && r.cfa_reg != REG_BP) || r.how[1] != H_OFF ||
        r.off[1] != -8 || (r.how[0] != H_SAME && r.how[0] != H_OFF) ||
        r.cfa_off <= 0 || r.cfa_off > (1 << 24) || r.off[0] < -(1 << 24) || r.off[0] > 0)
        return;
    out->cfa = r.cfa_reg == REG_SP ? R_SP : R_BP;
    out->cfa_off = (int32_t)r.cfa_off;
    out->bp_saved = r.how[0] == H_OFF;
    out->bp_off = (int32_t)r.off[0];
}

/* This thread's stack [lo, hi) (pthread_getattr_np, once per thread); 0, 0 when unknown. A
 * walk reads words only inside it, so a rule gone stale (a library unloaded and another loaded
 * at its address) or a corrupt frame makes the walk give up rather than read outside it. */
static _Thread_local uint64_t uw_lo, uw_hi;
static _Thread_local int uw_bounds_known;
static int stack_bounds(uint64_t *lo, uint64_t *hi)
{
    if (!uw_bounds_known) {
        pthread_attr_t a;
        void *addr;
        size_t size;
        uw_bounds_known = -1;
        if (pthread_getattr_np(pthread_self(), &a) == 0) {
            if (pthread_attr_getstack(&a, &addr, &size) == 0 && size) {
                uw_lo = (uint64_t)(uintptr_t)addr;
                uw_hi = uw_lo + size;
                uw_bounds_known = 1;
            }
            pthread_attr_destroy(&a);
        }
    }
    *lo = uw_lo;
    *hi = uw_hi;
    return uw_bounds_known > 0 ? 0 : -1;
}

static uint64_t word_at(uint64_t a)
{
    uint64_t v;
    memcpy(&v, (const void *)(uintptr_t)a, sizeof v);
    return v;
}

__attribute__((noinline)) int dbg_unwind_fast(int (*visit)(uint64_t pc, void *arg), void *arg)
{
    uint64_t pc, sp, bp;
    /* one instant's registers: %rbp first (an output may be given %rbp) */
    __asm__ volatile("mov %%rbp, %2\n\tmov %%rsp, %1\n\tlea 0(%%rip), %0"
                     : "=&r"(pc), "=&r"(sp), "=&r"(bp));
    uw_table *t = &uw_tab;
    uint64_t lo, hi;
    if (stack_bounds(&lo, &hi) != 0 || sp < lo || sp >= hi)
        return -1;                  /* an unknown stack: libgcc walks it */
    for (int frame = 0;; frame++) {
        if (frame > 0 && !visit(pc, arg))
            return 0;               /* (frame 0 is this function: libgcc's walk starts past it) */
        uw_rule *c = rule_slot(t, pc);
        if (c->cfa == R_NONE)
            rule_for(pc, c);
        if (c->cfa == R_END) {
            visit(0, arg);
            return 0;
        }
        if (c->cfa == R_ODD)
            return -1;
        uint64_t cfa = (c->cfa == R_SP ? sp : bp) + (uint64_t)(int64_t)c->cfa_off;
        if (cfa <= sp || cfa - sp > (1u << 24) || (cfa & 7) || cfa > hi ||
            (c->bp_saved && (cfa + (uint64_t)(int64_t)c->bp_off < lo ||
                             cfa + (uint64_t)(int64_t)c->bp_off + 8 > hi)))
            return -1;              /* not a stack above this frame's: libgcc decides */
        uint64_t npc = word_at(cfa - 8);
        if (c->bp_saved)
            bp = word_at(cfa + (uint64_t)(int64_t)c->bp_off);
        sp = cfa;
        pc = npc;
        if (!pc) {
            visit(0, arg);
            return 0;
        }
    }
}

#else

int dbg_unwind_fast(int (*visit)(uint64_t pc, void *arg), void *arg)
{
    (void)visit, (void)arg;
    return -1;
}

#endif
