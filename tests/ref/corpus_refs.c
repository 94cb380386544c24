/* corpus_refs.c - reference results for the CUDA kernel corpus (tests/corpus.sh).
 *
 *   corpus_refs NAME DIR   write the inputs of case NAME into DIR/ and the bytes the GPU
 *                          writes into DIR/exp/ (printf text in DIR/exp/stdout; a file F
 *                          compared with a tolerance has DIR/exp/F.tol = "f32|f64 ULPS ABS")
 *   corpus_refs list       print the case names
 *   corpus_refs --cmp-tol "TYPE ULPS ABS" WANT GOT
 *                          compare two dumps element by element with that tolerance
 *
 * Every case re-computes its kernel (tests/fixtures/corpus/KERNEL.cu) on the CPU in the order
 * the kernel does it, with fma where the kernel has one and each intrinsic's rounding mode,
 * so the expected bytes are exact. Build with
 *   cc -std=c11 -O2 -ffp-contract=off -frounding-math corpus_refs.c -lm
 */
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

/* ---- exact binary16 arithmetic (as in refs.c) ---- */
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

static int h_lt(uint16_t x, uint16_t y) { return h2f(x) < h2f(y); }

static int32_t wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }
static void tol(const char *name, const char *spec) { ex_text(name, "%s\n", spec); }

/* ---- templreduce.cu ------------------------------------------------------------------------ */
#define TREE_SUM(T, s, B)                                                                      \
    for (int st_ = (B) / 2; st_ > 0; st_ >>= 1)                                                \
        for (int t_ = 0; t_ < st_; t_++)                                                       \
            s[t_] = (T)(s[t_] + s[t_ + st_]);

static void case_templreduce_sum(void)
{
    enum { N = 1000, G = 3, B = 128 };
    static int32_t ii[N];
    static float fi[N];
    static double di[N];
    seed(101);
    for (int i = 0; i < N; i++) {
        ii[i] = rndi(-100000, 100000);
        fi[i] = rndf(-8, 8);
        di[i] = rndd(-20, 20);
    }
    in("ii.bin", ii, sizeof ii);
    in("fi.bin", fi, sizeof fi);
    in("di.bin", di, sizeof di);
    int32_t io[G];
    float fo[G];
    double dO[G];
    for (int b = 0; b < G; b++) {
        uint32_t si[B];
        float sf[B];
        double sd[B];
        for (int t = 0; t < B; t++) {
            uint32_t ai = 0;
            float af = 0;
            double ad = 0;
            for (int i = b * B + t; i < N; i += B * G) {
                ai += (uint32_t)ii[i];
                af += fi[i];
                ad += di[i];
            }
            si[t] = ai, sf[t] = af, sd[t] = ad;
        }
        TREE_SUM(uint32_t, si, B)
        TREE_SUM(float, sf, B)
        TREE_SUM(double, sd, B)
        io[b] = (int32_t)si[0], fo[b] = sf[0], dO[b] = sd[0];
    }
    ex("io.bin", io, sizeof io);
    ex("fo.bin", fo, sizeof fo);
    ex("do.bin", dO, sizeof dO);
}

static uint64_t xor_op(uint64_t a, uint64_t b) { return a ^ (b * 3u); }
static void case_templreduce_op(void)
{
    enum { N = 700, G = 2, B = 128 };
    static float f[N];
    static int32_t k[N];
    static uint64_t u[N];
    seed(102);
    for (int i = 0; i < N; i++) {
        f[i] = rndf(-10, 19);
        k[i] = rndi(-999999, 999999);
        u[i] = rnd64();
    }
    in("f.bin", f, sizeof f);
    in("k.bin", k, sizeof k);
    in("u.bin", u, sizeof u);
    float fo[G];
    int32_t ko[G];
    uint64_t uo[G];
    for (int b = 0; b < G; b++) {
        float sf[B];
        int32_t sk[B];
        uint64_t su[B];
        for (int t = 0; t < B; t++) {
            float af = -1000000.0f;
            int32_t ak = 1000000;
            uint64_t au = 0;
            for (int i = b * B + t; i < N; i += B * G) {
                af = af > f[i] ? af : f[i];
                ak = ak < k[i] ? ak : k[i];
                au = xor_op(au, u[i]);
            }
            sf[t] = af, sk[t] = ak, su[t] = au;
        }
        for (int s = B / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++) {
                sf[t] = sf[t] > sf[t + s] ? sf[t] : sf[t + s];
                sk[t] = sk[t] < sk[t + s] ? sk[t] : sk[t + s];
                su[t] = xor_op(su[t], su[t + s]);
            }
        fo[b] = sf[0], ko[b] = sk[0], uo[b] = su[0];
    }
    ex("fo.bin", fo, sizeof fo);
    ex("ko.bin", ko, sizeof ko);
    ex("uo.bin", uo, sizeof uo);
}

/* ---- functors.cu --------------------------------------------------------------------------- */
static void case_functors(void)
{
    enum { N = 500, K = 50 };
    static int32_t a[N], o[4 * N];
    static float fo[N];
    seed(103);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-1000, 1000);
    in("in.bin", a, sizeof a);
    for (int i = 0; i < N; i++) {
        int x = a[i];
        o[i] = (3 * x - 7) * x + K + i;
        int c = x < -K ? -K : x > K ? K : x;
        o[N + i] = c ^ i;
        o[2 * N + i] = x * (2 * K) - (x >> 2) - i;
        int g = x > i * 5 ? x - i * 5 : i * 5 - x;
        o[3 * N + i] = (g + 2) * g + 3 + i;
        volatile float p = (float)x * 0.001f;
        fo[i] = fmaf(p, 1.5f, -0.25f) + 0.375f;
    }
    ex("out.bin", o, sizeof o);
    ex("fout.bin", fo, sizeof fo);
}

/* ---- virtual.cu ---------------------------------------------------------------------------- */
static void case_virtual_shapes(void)
{
    enum { N = 100 };
    static int32_t kinds[N], info[2 * N];
    static float dims[2 * N], area[N];
    seed(104);
    for (int i = 0; i < N; i++) {
        kinds[i] = rndi(0, 1000);
        dims[2 * i] = rndf(-1, 3);
        dims[2 * i + 1] = rndf(-1, 3);
        if (dims[2 * i] < 0) dims[2 * i] = -dims[2 * i];
        if (dims[2 * i + 1] < 0) dims[2 * i + 1] = -dims[2 * i + 1];
    }
    in("kinds.bin", kinds, sizeof kinds);
    in("dims.bin", dims, sizeof dims);
    for (int i = 0; i < N; i++) {
        float a = dims[2 * i], b = dims[2 * i + 1];
        switch (kinds[i] % 3) {
        case 0: area[i] = a * b; info[2 * i] = 4; info[2 * i + 1] = i * 10 + 4; break;
        case 1: area[i] = 0.5f * a * b; info[2 * i] = 3; info[2 * i + 1] = i * 10 + 3; break;
        default: area[i] = 3.0f * a * a; info[2 * i] = 0; info[2 * i + 1] = -i; break;
        }
    }
    ex("area.bin", area, sizeof area);
    ex("info.bin", info, sizeof info);
}

static int32_t v_op(int k, int32_t a, int32_t b)
{
    switch (k) {
    case 0: return (int32_t)((uint32_t)a + (uint32_t)b);
    case 1: return (int32_t)((uint32_t)a - (uint32_t)b);
    case 2: return (int32_t)((uint32_t)a * (uint32_t)b);
    default: return (int32_t)((uint32_t)(a ^ b) + (uint32_t)(a >> 3));
    }
}
static void case_virtual_fnptr(void)
{
    enum { N = 150 };
    static int32_t a[N], b[N], sel[N], o[N];
    seed(105);
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)rnd32();
        b[i] = rndi(-100000, 100000);
        sel[i] = rndi(-50, 50);
    }
    in("a.bin", a, sizeof a);
    in("b.bin", b, sizeof b);
    in("sel.bin", sel, sizeof sel);
    for (int i = 0; i < N; i++)
        o[i] = (int32_t)((uint32_t)v_op(sel[i] & 3, a[i], b[i]) +
                         (uint32_t)v_op((a[i] & 1) ? 1 : 3, b[i], sel[i]));
    ex("out.bin", o, sizeof o);
}

/* ---- vm.cu --------------------------------------------------------------------------------- */
enum { PUSH, ADD, SUB, MUL, DUP, SWAP, JNZ, DEC, OVER, DROP, NEG, SHL, AND, HALT, MOD, JMP };
static void case_vm_run(void)
{
    enum { N = 160, MAXSTEPS = 64 };
    static int32_t code[4 * 32], args[N], out[2 * N];
    static const int32_t progs[4][32] = {
        { PUSH, 0, OVER, JNZ, 6, HALT, OVER, DUP, MUL, ADD, SWAP, DEC, SWAP, JMP, 2 },
        { PUSH, 36, DUP, JNZ, 7, DROP, HALT, SWAP, OVER, MOD, JMP, 2 },
        { PUSH, 3, SHL, PUSH, 255, AND, NEG, PUSH, 5, SUB, HALT },
        { DEC, DUP, JNZ, 0, HALT },
    };
    memcpy(code, progs, sizeof code);
    seed(106);
    for (int i = 0; i < N; i++)
        args[i] = rndi(-20, 40);
    in("code.bin", code, sizeof code);
    in("args.bin", args, sizeof args);
    for (int t = 0; t < N; t++) {
        int32_t st[16];
        int sp = 0, pc = 0, steps = 0, running = 1;
        st[sp++] = args[t];
        const int32_t *prog = code + (t % 4) * 32;
        while (running && steps < MAXSTEPS) {
            int op = prog[pc++];
            steps++;
            switch (op) {
            case PUSH: st[sp++] = prog[pc++]; break;
            case ADD: sp--; st[sp - 1] = wrap32((int64_t)st[sp - 1] + st[sp]); break;
            case SUB: sp--; st[sp - 1] = wrap32((int64_t)st[sp - 1] - st[sp]); break;
            case MUL: sp--; st[sp - 1] = wrap32((int64_t)st[sp - 1] * st[sp]); break;
            case DUP: st[sp] = st[sp - 1]; sp++; break;
            case SWAP: { int32_t x = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = x; } break;
            case JNZ: { int tg = prog[pc++]; if (st[--sp] != 0) pc = tg; } break;
            case DEC: st[sp - 1] = wrap32((int64_t)st[sp - 1] - 1); break;
            case OVER: st[sp] = st[sp - 2]; sp++; break;
            case DROP: sp--; break;
            case NEG: st[sp - 1] = wrap32(-(int64_t)st[sp - 1]); break;
            case SHL: sp--; st[sp - 1] = (int32_t)((uint32_t)st[sp - 1] << (st[sp] & 31)); break;
            case AND: sp--; st[sp - 1] &= st[sp]; break;
            case MOD: sp--; st[sp - 1] %= st[sp]; break;
            case JMP: pc = prog[pc]; break;
            default: running = 0; break;
            }
        }
        out[2 * t] = sp > 0 ? st[sp - 1] : -1;
        out[2 * t + 1] = steps;
    }
    ex("out.bin", out, sizeof out);
}

static void case_vm_classify(void)
{
    enum { N = 200 };
    static int32_t a[N], o[N];
    static char names[8 * N];
    static const char *nm[] = { "zero", "one", "two", "three", "four", "five", "six", "seven", "many", "many" };
    seed(107);
    for (int i = 0; i < N; i++)
        a[i] = i < 40 ? i - 20 : rndi(-100000, 100000);
    in("in.bin", a, sizeof a);
    for (int i = 0; i < N; i++) {
        int v = a[i], r;
        switch (v & 15) {
        case 0: r = v * 2; break;
        case 1: r = v + 100; break;
        case 2: r = v - 7; break;
        case 3: r = v ^ 0x55; break;
        case 4: r = v / 3; break;
        case 5: r = -v; break;
        case 6: r = (int32_t)((uint32_t)v << 2); break;
        case 7: r = v % 11; break;
        case 8: r = 8; break;
        case 9: r = wrap32((int64_t)v * v); break;
        case 10: r = v | 1; break;
        case 11: r = v & 0xf0; break;
        default: r = 12345; break;
        }
        o[i] = r;
        int m = v % 10;
        const char *s = nm[m < 0 ? -m : m];
        memset(names + 8 * i, 0, 8);
        for (int k = 0; s[k] && k < 7; k++)
            names[8 * i + k] = s[k];
    }
    ex("out.bin", o, sizeof o);
    ex("names.bin", names, sizeof names);
}

/* ---- vectypes.cu --------------------------------------------------------------------------- */
static void case_vectypes_float(void)
{
    enum { N = 200 };
    static float a[4 * N], b[4 * N], o[4 * N];
    static double d[2 * N], dO[2 * N];
    seed(108);
    for (int i = 0; i < 4 * N; i++) {
        a[i] = rndf(-10, 10);
        b[i] = rndf(-10, 10);
    }
    for (int i = 0; i < 2 * N; i++)
        d[i] = rndd(-30, 30);
    in("a.bin", a, sizeof a);
    in("b.bin", b, sizeof b);
    in("d.bin", d, sizeof d);
    for (int i = 0; i < N; i++) {
        float *x = a + 4 * i, *y = b + 4 * i;
        o[4 * i] = x[0] + y[3];
        o[4 * i + 1] = x[1] * y[2];
        o[4 * i + 2] = x[2] - y[1];
        o[4 * i + 3] = x[3] * 0.5f + y[0];
        dO[2 * i] = d[2 * i] * d[2 * i + 1];
        dO[2 * i + 1] = d[2 * i] - d[2 * i + 1] * 0.25;
    }
    ex("out.bin", o, sizeof o);
    ex("dout.bin", dO, sizeof dO);
}

static void case_vectypes_pixels(void)
{
    enum { N = 300 };
    static uint8_t img[4 * N], o[4 * N], g[N];
    seed(109);
    for (int i = 0; i < 4 * N; i++)
        img[i] = (uint8_t)rnd32();
    in("img.bin", img, sizeof img);
    for (int i = 0; i < N; i++) {
        uint8_t *p = img + 4 * i;
        g[i] = (uint8_t)((p[0] * 77u + p[1] * 150u + p[2] * 29u) >> 8);
        o[4 * i] = (uint8_t)(255 - p[0]);
        o[4 * i + 1] = p[2];
        o[4 * i + 2] = p[1];
        o[4 * i + 3] = (uint8_t)(p[3] * 2u < 255u ? p[3] * 2u : 255u);
    }
    ex("out.bin", o, sizeof o);
    ex("gray.bin", g, sizeof g);
}

static void case_vectypes_int(void)
{
    enum { N = 128 };
    static int32_t a[2 * N], o[2 * N];
    static int16_t s[4 * N], so[4 * N];
    seed(110);
    for (int i = 0; i < 2 * N; i++)
        a[i] = (int32_t)rnd32();
    for (int i = 0; i < 4 * N; i++)
        s[i] = (int16_t)rnd32();
    in("a.bin", a, sizeof a);
    in("s.bin", s, sizeof s);
    for (int i = 0; i < N; i++) {
        int32_t vx = a[2 * i], vy = a[2 * i + 1];
        int16_t *w = s + 4 * i;
        o[2 * i] = (int32_t)((uint32_t)vy - (uint32_t)vx);
        o[2 * i + 1] = (int32_t)((uint32_t)vx * 3u + (uint32_t)(int32_t)w[2]);
        so[4 * i] = w[3];
        so[4 * i + 1] = (int16_t)(w[0] + w[1]);
        so[4 * i + 2] = (int16_t)(w[2] >> 1);
        so[4 * i + 3] = (int16_t)-w[0];
    }
    ex("out.bin", o, sizeof o);
    ex("sout.bin", so, sizeof so);
}

/* ---- unions.cu (the layouts of these types are the same on the host) ----------------------- */
union FloatBits {
    float f;
    unsigned u;
    struct { unsigned mant : 23, exp : 8, sign : 1; } parts;
};
struct Packed { unsigned kind : 3; unsigned flag : 1; unsigned count : 12; int delta : 10; unsigned rest : 6; };
struct Record { char c; double d; short s; int i; };
struct UOut { unsigned exp, mant, sign, flipped, kind, flag, count; int delta; unsigned repacked, pad; };

static void case_unions(void)
{
    enum { N = 64 };
    static float f[N];
    static uint32_t bits[N];
    static struct Record recs[N], rout[N];
    static struct UOut out[N];
    seed(111);
    memset(recs, 0, sizeof recs);
    memset(rout, 0, sizeof rout);
    memset(out, 0, sizeof out);
    for (int i = 0; i < N; i++) {
        f[i] = i == 0 ? 0.0f : i == 1 ? -0.0f : i == 2 ? 1e-40f : rndf(-30, 30);
        bits[i] = rnd32();
        recs[i].c = (char)rndi(-128, 126);
        recs[i].d = rndd(-5, 5);
        recs[i].s = (short)rndi(-32768, 32767);
        recs[i].i = (int)rnd32();
    }
    in("f.bin", f, sizeof f);
    in("bits.bin", bits, sizeof bits);
    in("recs.bin", recs, sizeof recs);
    for (int i = 0; i < N; i++) {
        union FloatBits fb;
        fb.f = f[i];
        struct UOut o;
        o.exp = fb.parts.exp;
        o.mant = fb.parts.mant;
        o.sign = fb.parts.sign;
        fb.parts.sign ^= 1;
        fb.parts.exp = fb.parts.exp > 2 ? fb.parts.exp - 1 : fb.parts.exp;
        o.flipped = fb.u;
        struct Packed p;
        memcpy(&p, &bits[i], 4);
        o.kind = p.kind;
        o.flag = p.flag;
        o.count = p.count;
        o.delta = p.delta;
        p.count += 5;
        p.delta = p.delta - 3;
        p.kind = ~p.kind;
        memcpy(&o.repacked, &p, 4);
        o.pad = sizeof(struct Record) * 100 + _Alignof(struct Record);
        out[i] = o;
        struct Record r = recs[i], q;
        memset(&q, 0, sizeof q);
        q.c = (char)(r.c + 1);
        q.d = r.d * 2.0 + r.s;
        q.s = (short)(r.s - r.i);
        q.i = r.i ^ r.c;
        rout[i] = q;
    }
    ex("out.bin", out, sizeof out);
    ex("rout.bin", rout, sizeof rout);
}
