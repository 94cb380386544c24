/* ref_common.h - what the two reference programs (refs.c for tests/e2e.sh, corpus_refs.c for
 * tests/corpus.sh) share: writing the input and expected files of a case, the fixed-seed
 * input generator, bit casts, exact binary16 arithmetic and the case dispatch of main.
 * Included by both (static functions: each program is one translation unit). */
#ifndef REF_COMMON_H
#define REF_COMMON_H

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gcc ignores "#pragma STDC FENV_ACCESS"; -frounding-math and volatile operands keep every
 * operation under a changed rounding mode where it is written. */

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

static const char *outdir;

static void die(const char *msg)
{
    fprintf(stderr, "refs: %s\n", msg);
    exit(2);
}

static void put(const char *sub, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", outdir, sub, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "refs: cannot write %s\n", path);
        exit(2);
    }
}
/* input file / expected output file */
static void in(const char *name, const void *p, size_t n) { put("", name, p, n); }
static void ex(const char *name, const void *p, size_t n) { put("exp/", name, p, n); }

/* text appended to an expected stdout file */
static void ex_text(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ex_text(const char *name, const char *fmt, ...)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/exp/%s", outdir, name);
    FILE *f = fopen(path, "a");
    if (!f)
        die("cannot append to expected stdout");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

/* ---- deterministic inputs ------------------------------------------------------------------ */
static uint64_t rng_state;
static void seed(uint64_t s) { rng_state = s * 0x9e3779b97f4a7c15ull + 12345; }
static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
/* integer in [lo, hi] */
static int32_t rndi(int32_t lo, int32_t hi) { return lo + (int32_t)(rnd64() % (uint64_t)(hi - lo + 1)); }
/* float with a full random mantissa, magnitude in [2^lo, 2^(hi+1)), random sign */
static float rndf(int lo, int hi)
{
    uint64_t r = rnd64();
    float m = 1.0f + (float)(r & 0x7fffff) / 8388608.0f;
    float v = ldexpf(m, lo + (int)((r >> 23) % (uint64_t)(hi - lo + 1)));
    return (r >> 40) & 1 ? -v : v;
}
static double rndd(int lo, int hi)
{
    uint64_t r = rnd64();
    double m = 1.0 + (double)(r & 0xfffffffffffffull) / 4503599627370496.0;
    uint64_t r2 = rnd64();
    double v = ldexp(m, lo + (int)(r2 % (uint64_t)(hi - lo + 1)));
    return (r2 >> 40) & 1 ? -v : v;
}

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* ---- exact binary16 arithmetic ---------------------------------------------------------- */
/* Exact binary16 arithmetic: a finite half is M * 2^E with integer M; sums and products are
 * formed exactly in 128-bit integers and rounded once. No NaN may arise (inputs avoid it). */
typedef struct { int neg; u128 m; int e; int inf; } hval;   /* value = (-1)^neg * m * 2^e */

static hval h_dec(uint16_t h)
{
    hval v = { (h >> 15) & 1, 0, 0, 0 };
    int ex_ = (h >> 10) & 31, man = h & 0x3ff;
    if (ex_ == 31) {
        if (man)
            die("NaN in half reference");
        v.inf = 1;
    } else if (ex_ == 0) {
        v.m = (u128)man;
        v.e = -24;
    } else {
        v.m = (u128)(man | 0x400);
        v.e = ex_ - 25;
    }
    return v;
}

/* round (-1)^neg * m * 2^e to binary16; rz selects round-toward-zero instead of RNE */
static uint16_t h_round(int neg, u128 m, int e, int rz)
{
    uint16_t sign = (uint16_t)(neg ? 0x8000 : 0);
    if (m == 0)
        return sign;
    int len = 0;
    for (u128 t = m; t; t >>= 1)
        len++;
    int lead = e + len - 1;                /* exponent of the leading bit */
    int q = lead - 10;                     /* quantum exponent: 11 significant bits */
    if (q < -24)
        q = -24;                           /* subnormal quantum */
    u128 r;
    if (q <= e) {
        r = m << (e - q);
    } else {
        int sh = q - e;
        if (sh > 120) {
            r = 0;                         /* far below half the quantum */
        } else {
            u128 lo = m & (((u128)1 << sh) - 1), half = (u128)1 << (sh - 1);
            r = m >> sh;
            if (!rz && (lo > half || (lo == half && (r & 1))))
                r++;
        }
    }
    if (r == ((u128)1 << 11)) {            /* carried into the next binade */
        r >>= 1;
        q++;
    }
    if (r < 0x400)                         /* subnormal (q == -24) or zero */
        return (uint16_t)(sign | (uint16_t)r);
    int field = q + 25;
    if (field >= 31)
        return (uint16_t)(sign | (rz ? 0x7bff : 0x7c00));
    return (uint16_t)(sign | (uint16_t)(field << 10) | (uint16_t)(r - 0x400));
}

static uint16_t f2h(float f, int rz)
{
    uint32_t u = f2u(f);
    int neg = u >> 31, ex_ = (u >> 23) & 255;
    uint32_t man = u & 0x7fffff;
    if (ex_ == 255) {
        if (man)
            die("NaN in half reference");
        return (uint16_t)((neg ? 0x8000 : 0) | 0x7c00);
    }
    if (ex_ == 0)
        return h_round(neg, man, -149, rz);
    return h_round(neg, man | 0x800000u, ex_ - 150, rz);
}

static float h2f(uint16_t h)
{
    hval v = h_dec(h);
    float f = v.inf ? INFINITY : ldexpf((float)(uint32_t)v.m, v.e);
    return v.neg ? -f : f;
}

/* (-1)^n1 m1 2^e1 + (-1)^n2 m2 2^e2, rounded */
static uint16_t h_sum(int n1, u128 m1, int e1, int n2, u128 m2, int e2)
{
    int e = e1 < e2 ? e1 : e2;
    i128 a = (i128)(m1 << (e1 - e)), b = (i128)(m2 << (e2 - e));
    i128 s = (n1 ? -a : a) + (n2 ? -b : b);
    if (s == 0)
        return (n1 && n2) ? 0x8000 : 0;    /* RNE: exact zero sum is +0 unless both -0 */
    return h_round(s < 0, (u128)(s < 0 ? -s : s), e, 0);
}

static uint16_t h_add(uint16_t x, uint16_t y)
{
    hval a = h_dec(x), b = h_dec(y);
    if (a.inf || b.inf) {
        if (a.inf && b.inf && a.neg != b.neg)
            die("NaN in half reference");
        return a.inf ? (x & 0xfc00) : (y & 0xfc00);
    }
    return h_sum(a.neg, a.m, a.e, b.neg, b.m, b.e);
}
static uint16_t h_sub(uint16_t x, uint16_t y) { return h_add(x, y ^ 0x8000); }

static uint16_t h_mul(uint16_t x, uint16_t y)
{
    hval a = h_dec(x), b = h_dec(y);
    int neg = a.neg ^ b.neg;
    if (a.inf || b.inf) {
        if ((!a.inf && a.m == 0) || (!b.inf && b.m == 0))
            die("NaN in half reference");
        return (uint16_t)((neg ? 0x8000 : 0) | 0x7c00);
    }
    return h_round(neg, a.m * b.m, a.e + b.e, 0);
}

static uint16_t h_fma(uint16_t x, uint16_t y, uint16_t z)
{
    hval a = h_dec(x), b = h_dec(y), c = h_dec(z);
    int pneg = a.neg ^ b.neg;
    if (a.inf || b.inf || c.inf) {
        if ((a.inf || b.inf) && ((!a.inf && a.m == 0) || (!b.inf && b.m == 0)))
            die("NaN in half reference");
        if ((a.inf || b.inf) && c.inf && pneg != c.neg)
            die("NaN in half reference");
        if (a.inf || b.inf)
            return (uint16_t)((pneg ? 0x8000 : 0) | 0x7c00);
        return z;
    }
    u128 pm = a.m * b.m;
    if (pm == 0 && c.m == 0)
        return (pneg && c.neg) ? 0x8000 : 0;
    return h_sum(pneg, pm, a.e + b.e, c.neg, c.m, c.e);
}

/* ---- case dispatch ------------------------------------------------------------------------- */
struct ref_case { const char *name; void (*fn)(void); };

/* "PROG list" prints the case names, "PROG NAME DIR" runs case NAME writing into DIR */
static int ref_main(int argc, char **argv, const struct ref_case *cases, int n, const char *prog,
                    const char *usage)
{
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (int i = 0; i < n; i++)
            printf("%s\n", cases[i].name);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    outdir = argv[2];
    for (int i = 0; i < n; i++)
        if (strcmp(cases[i].name, argv[1]) == 0) {
            cases[i].fn();
            return 0;
        }
    fprintf(stderr, "%s: no case '%s'\n", prog, argv[1]);
    return 2;
}

#endif
