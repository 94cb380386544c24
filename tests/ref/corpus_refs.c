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
#include "ref_common.h"

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

/* ---- atomics64.cu -------------------------------------------------------------------------- */
static void case_atomics64(void)
{
    enum { N = 256 };
    static int64_t v[N];
    static float fin[N];
    seed(112);
    for (int i = 0; i < N; i++) {
        v[i] = (int64_t)(rnd64() >> 20) - ((int64_t)1 << 43);
        fin[i] = (float)((i % 7) - 3) * 0.5f + (float)rndi(-20, 20);
    }
    in("in.bin", v, sizeof v);
    in("fin.bin", fin, sizeof fin);
    uint64_t u64[8] = { 0, 0, ~0ull, 0, ~0ull, 0, 42, 77 };
    int64_t s64[3] = { INT64_MIN, INT64_MAX, 0 };
    float f32[3] = { 0, -1e30f, 0 };
    double f64[3] = { 0, -1e300, 0 };
    uint32_t u32[4] = { 256 % 10, 1000 - 255, 256, 1000 - 128 };
    for (int i = 0; i < N; i++) {
        uint64_t uv = (uint64_t)v[i];
        u64[0] += uv;
        if (uv > u64[1]) u64[1] = uv;
        if (uv < u64[2]) u64[2] = uv;
        u64[3] |= uv << (i & 7);
        u64[4] &= ~(1ull << (i % 64));
        u64[5] ^= uv * 0x9e3779b97f4a7c15ull;
        if (v[i] > s64[0]) s64[0] = v[i];
        if (v[i] < s64[1]) s64[1] = v[i];
        s64[2] = (int64_t)((uint64_t)s64[2] + (uint64_t)(v[i] >> 4));
        f32[0] += fin[i];
        if (fin[i] > f32[1]) f32[1] = fin[i];
        f32[2] += -0.25f * (float)(i & 3);
        f64[0] += (double)fin[i] * 0.5;
        if ((double)v[i] > f64[1]) f64[1] = (double)v[i];
        f64[2] += (double)(i & 15) * 0.125;
    }
    ex("u64.bin", u64, sizeof u64);
    ex("s64.bin", s64, sizeof s64);
    ex("f32.bin", f32, sizeof f32);
    ex("f64.bin", f64, sizeof f64);
    ex("u32.bin", u32, sizeof u32);
}

/* ---- coopgroups.cu ------------------------------------------------------------------------- */
static void case_coopgroups_tiles(void)
{
    enum { N = 200, T = 256 };
    static int32_t a[N], out[10 * N];
    seed(113);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-100, 100);
    in("in.bin", a, sizeof a);
    for (int base = 0; base < T; base += 16) {
        int v[16], s[16];
        for (int r = 0; r < 16; r++)
            v[r] = s[r] = base + r < N ? a[base + r] : 0;
        for (int o = 8; o > 0; o /= 2) {
            int ns[16];
            for (int r = 0; r < 16; r++)
                ns[r] = s[r] + (r + o < 16 ? s[r + o] : s[r]);
            memcpy(s, ns, sizeof s);
        }
        int sum = 0, mx = INT32_MIN;
        unsigned bal = 0;
        int anyneg = 0, allpos = 1;
        for (int r = 0; r < 16; r++) {
            sum += v[r];
            if (v[r] > mx) mx = v[r];
            if (v[r] & 1) bal |= 1u << r;
            if (v[r] < 0) anyneg = 1;
            if (!(v[r] > -1000)) allpos = 0;
        }
        int sc = 0, exx = 0;
        for (int r = 0; r < 16; r++) {
            int i = base + r;
            sc += v[r];
            int x4 = v[r & ~3];
            for (int k = 1; k < 4; k++)
                if (v[(r & ~3) + k] > x4) x4 = v[(r & ~3) + k];
            if (i < N) {
                int *o = out + i * 10;
                o[0] = s[r];
                o[1] = sum;
                o[2] = mx;
                o[3] = sc;
                o[4] = r ? exx : 0;
                o[5] = x4;
                o[6] = (int)bal;
                o[7] = anyneg * 2 + allpos;
                o[8] = (i % 64) % 8 + 100 * ((i % 64) / 16);
                o[9] = v[15 - r];
            }
            exx ^= v[r];
        }
    }
    ex("out.bin", out, sizeof out);
}

static void case_coopgroups_coalesced(void)
{
    enum { N = 100, T = 128 };
    static int32_t a[N], out[4 * N];
    seed(114);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-50, 50);
    in("in.bin", a, sizeof a);
    for (int w = 0; w < T; w += 32) {
        for (int l = 0; l < 32; l++) {
            int i = w + l;
            if (i >= N)
                continue;
            int v = a[i];
            int r1 = -1, r2 = -1, r3 = -1;
            if (v % 3 != 0) {
                int size = 0, rank = 0, sum = 0, first = -1;
                for (int k = 0; k < 32 && w + k < N; k++)
                    if (a[w + k] % 3 != 0) {
                        if (first < 0) first = a[w + k];
                        size++;
                        sum += a[w + k];
                        if (k < l) rank++;
                    }
                r1 = size * 100 + rank;
                r2 = sum;
                r3 = first;
            }
            int psum = 0, psize = 0;
            for (int k = 0; k < 32 && w + k < N; k++)
                if ((a[w + k] & 3) == (v & 3)) {
                    psum += a[w + k];
                    psize++;
                }
            out[4 * i] = r1;
            out[4 * i + 1] = r2;
            out[4 * i + 2] = r3;
            out[4 * i + 3] = psum * 1000 + psize;
        }
    }
    ex("out.bin", out, sizeof out);
}

/* ---- warpagg.cu ---------------------------------------------------------------------------- */
static void case_warpagg_compact(void)
{
    enum { N = 1000 };
    static int32_t a[N], flags[N];
    seed(115);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-100, 100);
    in("in.bin", a, sizeof a);
    int32_t count = 0, sum = 0;
    for (int i = 0; i < N; i++) {
        flags[i] = a[i] > 0;
        if (a[i] > 0) {
            count++;
            sum += a[i];
        }
    }
    ex("count.bin", &count, 4);
    ex("flags.bin", flags, sizeof flags);
    ex("sum.bin", &sum, 4);
}

static void case_warpagg_sleepy(void)
{
    int32_t out[128];
    for (int t = 0; t < 128; t++) {
        int l = t & 31, v = l * 3;
        if (l < 16)
            v += l < 15 ? (l + 1) * 3 : v;
        out[t] = v + 32;
    }
    ex("out.bin", out, sizeof out);
}

/* ---- printf2.cu ---------------------------------------------------------------------------- */
static void case_printf2(void)
{
    static const long long ll[4] = { 5, -1, 1234567890123LL, -300 };
    static const double d[4] = { 3.14159, -2.5, 1e-3, 12345.678 };
    in("ll.bin", ll, sizeof ll);
    in("d.bin", d, sizeof d);
    const char *o = "stdout";
    for (int t = 0; t < 4; t++) {
        long long v = ll[t];
        unsigned long long u = (unsigned long long)v * 3ull;
        ex_text(o, "t%d: %lld %llu %hhd %hd %hu\n", t, v, u, (signed char)v, (short)(v * 7),
                (unsigned short)(v * 13));
    }
    for (int t = 0; t < 4; t++)
        ex_text(o, "t%d: [%5.2f] [%-8.3f] [%+.1e] [%g]\n", t, d[t], d[t] * 2.0, d[t], d[t] / 3.0);
    const char *names[3] = { "alpha", "be", "gamma-delta" };
    for (int k = 0; k < 3; k++)
        ex_text(o, "[%-8s|%8s] %c%c %i%% %llx\n", names[k], names[k], 'a' + k, 'Z' - k, k * 50,
                0xabcdef0123ull >> (4 * k));
    ex_text(o, "%s %s %05.1f %x %X %o\n", "const-str", "lit", 3.14159, 48879u, 48879u, 511u);
    ex_text(o, "%10.4e|%-10d|%lld|%llu\n", 123456.789, -42, -9000000000LL, 18000000000ULL);
    ex_text(o, "no args\n");
    ex_text(o, "%c%c%c %d %u\n", 'e', 'n', 'd', 8, 8u);
}

/* ---- devmalloc.cu -------------------------------------------------------------------------- */
static void case_devmalloc(void)
{
    enum { N = 200, B = 128, G = 2 };
    static int32_t a[N], out[2 * N];
    seed(116);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-10000, 10000);
    in("in.bin", a, sizeof a);
    for (int b = 0; b < G; b++) {
        int32_t buf[B];
        for (int t = 0; t < B; t++) {
            int i = b * B + t;
            if (i < N) {
                int64_t q0 = a[i], q2 = q0 * q0 - q0;
                buf[t] = (int32_t)(q2 & 0x7fffffff);
                out[i] = a[i] * 55 - 45;
            } else {
                buf[t] = 0;
            }
        }
        for (int t = 0; t < B; t++) {
            int i = b * B + t;
            if (i < N)
                out[N + i] = wrap32((int64_t)buf[t] + buf[(t + 1) % B]);
        }
    }
    ex("out.bin", out, sizeof out);
}

/* ---- recursive.cu -------------------------------------------------------------------------- */
static void merge_sort(int *a, int *tmp, int lo, int hi)
{
    if (hi - lo < 2)
        return;
    int mid = (lo + hi) / 2;
    merge_sort(a, tmp, lo, mid);
    merge_sort(a, tmp, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid)
        tmp[k++] = a[i++];
    while (j < hi)
        tmp[k++] = a[j++];
    for (k = lo; k < hi; k++)
        a[k] = tmp[k];
}
static unsigned hanoi(int n, int from, int to, int via, unsigned h)
{
    if (n == 0)
        return h;
    h = hanoi(n - 1, from, via, to, h);
    h = h * 31u + (unsigned)(from * 3 + to);
    return hanoi(n - 1, via, to, from, h);
}
static int digit_root(long long v) { return v < 10 ? (int)v : digit_root(v / 10 + v % 10); }
static int bsearch_rec(const int *a, int lo, int hi, int key)
{
    if (lo >= hi)
        return -lo - 1;
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key)
        return mid;
    return a[mid] < key ? bsearch_rec(a, mid + 1, hi, key) : bsearch_rec(a, lo, mid, key);
}
static void case_recursive(void)
{
    enum { N = 64, LEN = 12 };
    static int32_t a[N * LEN], sorted[N * LEN], info[4 * N];
    seed(117);
    for (int i = 0; i < N * LEN; i++)
        a[i] = rndi(-1000, 1000);
    in("in.bin", a, sizeof a);
    for (int t = 0; t < N; t++) {
        int s[LEN], tmp[LEN];
        memcpy(s, a + t * LEN, sizeof s);
        merge_sort(s, tmp, 0, LEN);
        memcpy(sorted + t * LEN, s, sizeof s);
        info[4 * t] = (int)hanoi(t % 9 + 1, 0, 2, 1, 7u);
        info[4 * t + 1] = ((a[t * LEN] & 63) % 2) == 0;
        info[4 * t + 2] = digit_root((long long)(a[t * LEN + 1] & 0x7fffffff) * 1000003LL);
        info[4 * t + 3] = bsearch_rec(s, 0, LEN, a[t * LEN + (t % LEN)] + (t & 1));
    }
    ex("sorted.bin", sorted, sizeof sorted);
    ex("info.bin", info, sizeof info);
}

/* ---- simdvideo.cu: per-lane models of the SIMD intrinsics ----------------------------------- */
typedef int (*lanefn)(int a, int b);   /* a, b already extended; returns the lane result */
static uint32_t simd(uint32_t a, uint32_t b, int bits, int sgn, lanefn f)
{
    uint32_t r = 0, m = bits == 8 ? 0xff : 0xffff;
    for (int k = 0; k < 32; k += bits) {
        int x = (int)((a >> k) & m), y = (int)((b >> k) & m);
        if (sgn) {
            if (x & (1 << (bits - 1))) x -= 1 << bits;
            if (y & (1 << (bits - 1))) y -= 1 << bits;
        }
        r |= ((uint32_t)f(x, y) & m) << k;
    }
    return r;
}
static int sat(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static int l_absdiff(int a, int b) { return a > b ? a - b : b - a; }
static int l_add(int a, int b) { return a + b; }
static int l_sub(int a, int b) { return a - b; }
static int l_gtmask(int a, int b) { return a > b ? -1 : 0; }
static int l_gemask(int a, int b) { return a >= b ? -1 : 0; }
static int l_ltmask(int a, int b) { return a < b ? -1 : 0; }
static int l_eqmask(int a, int b) { return a == b ? -1 : 0; }
static int l_nemask(int a, int b) { return a != b ? -1 : 0; }
static int l_gt(int a, int b) { return a > b; }
static int l_le(int a, int b) { return a <= b; }
static int l_lt(int a, int b) { return a < b; }
static int l_eq(int a, int b) { return a == b; }
static int l_max(int a, int b) { return a > b ? a : b; }
static int l_min(int a, int b) { return a < b ? a : b; }
static int l_avgr(int a, int b) { int s = a + b + 1; return s >= 0 ? s >> 1 : -((-s + 1) >> 1); }
/* __vavgs2: the average rounded half away from zero (the sequence nvcc emits) */
static int l_avgs(int a, int b) { int s = a + b; return s >= 0 ? (s + 1) >> 1 : -((-s + 1) >> 1); }
static int l_hadd(int a, int b) { return (a + b) >> 1; }
static int l_neg(int a, int b) { (void)b; return -a; }
static int l_abs(int a, int b) { (void)b; return a < 0 ? -a : a; }
static int l_addss8(int a, int b) { return sat(a + b, -128, 127); }
static int l_addus16(int a, int b) { return sat(a + b, 0, 65535); }
static int l_subus16(int a, int b) { return sat(a - b, 0, 65535); }
static int l_subss16(int a, int b) { return sat(a - b, -32768, 32767); }
static int l_absss16(int a, int b) { (void)b; return sat(a < 0 ? -a : a, -32768, 32767); }
static int l_negss8(int a, int b) { (void)b; return sat(-a, -128, 127); }
static uint32_t sad(uint32_t a, uint32_t b, int bits, int sgn)
{
    uint32_t s = 0, m = bits == 8 ? 0xff : 0xffff;
    for (int k = 0; k < 32; k += bits) {
        int x = (int)((a >> k) & m), y = (int)((b >> k) & m);
        if (sgn) {
            if (x & (1 << (bits - 1))) x -= 1 << bits;
            if (y & (1 << (bits - 1))) y -= 1 << bits;
        }
        s += (uint32_t)(x > y ? x - y : y - x);
    }
    return s;
}
static void case_simdvideo(void)
{
    enum { N = 128, NO = 32 };
    static uint32_t A[N], B[N], O[N * NO];
    seed(118);
    for (int i = 0; i < N; i++) {
        A[i] = rnd32();
        B[i] = i % 4 == 0 ? A[i] ^ (rnd32() & 0x01000100u) : rnd32();
        if (i % 9 == 0) A[i] = 0x80008000u | (A[i] & 0x007f007fu);
        if (i % 11 == 0) A[i] = 0x80808080u;
    }
    in("a.bin", A, sizeof A);
    in("b.bin", B, sizeof B);
    for (int i = 0; i < N; i++) {
        uint32_t a = A[i], b = B[i], *o = O + i * NO;
        o[0] = simd(a, b, 8, 0, l_absdiff);
        o[1] = simd(a, b, 16, 0, l_add);
        o[2] = simd(a, b, 8, 0, l_gtmask);
        o[3] = simd(a, b, 8, 0, l_sub);
        o[4] = simd(a, b, 8, 0, l_max);
        o[5] = simd(a, b, 16, 1, l_min);
        o[6] = simd(a, b, 8, 0, l_avgr);
        o[7] = simd(a, b, 16, 0, l_hadd);
        o[8] = simd(a, b, 8, 0, l_gt);
        o[9] = sad(a, b, 8, 0);
        o[10] = simd(a, 0, 16, 1, l_neg);
        o[11] = simd(a, 0, 8, 1, l_abs);
        o[12] = simd(a, b ^ (a & 0xffffu), 16, 0, l_eqmask);
        o[13] = simd(a, b, 8, 0, l_add);
        o[14] = simd(a, b, 8, 1, l_addss8);
        o[15] = simd(a, b, 16, 0, l_subus16);
        o[16] = simd(a, b, 16, 1, l_absdiff);
        o[17] = simd(a, b, 16, 0, l_addus16);
        o[18] = simd(a, b, 8, 1, l_gemask);
        o[19] = simd(a, b, 16, 0, l_ltmask);
        o[20] = simd(a, b, 8, 0, l_hadd);
        o[21] = simd(a, b, 8, 1, l_max);
        o[22] = simd(a, b, 16, 0, l_min);
        o[23] = sad(a, b, 16, 1);
        o[24] = simd(a, b | 0x00ff00ffu, 8, 0, l_eq);
        o[25] = simd(a, b, 16, 1, l_le);
        o[26] = simd(a, b, 16, 1, l_subss16);
        o[27] = simd(a, 0, 16, 1, l_absss16);
        o[28] = simd(a, 0, 8, 1, l_negss8);
        o[29] = simd(a, b, 8, 0, l_nemask);
        o[30] = simd(a, b, 8, 0, l_lt);
        o[31] = simd(a, b, 16, 1, l_avgs);
    }
    ex("out.bin", O, sizeof O);
}

/* ---- int128.cu ----------------------------------------------------------------------------- */
static void case_int128(void)
{
    enum { N = 64 };
    static uint64_t A[N], B[N], O[N * 14];
    seed(119);
    for (int i = 0; i < N; i++) {
        A[i] = rnd64() >> (i % 5 == 0 ? 40 : 0);
        B[i] = rnd64() >> (i % 3 == 0 ? 17 : 0);
    }
    A[0] = ~0ull, B[0] = ~0ull;
    A[1] = 0x8000000000000000ull, B[1] = 0x8000000000000000ull;
    A[2] = 0, B[2] = 12345;
    in("a.bin", A, sizeof A);
    in("b.bin", B, sizeof B);
    for (int i = 0; i < N; i++) {
        uint64_t a = A[i], b = B[i];
        u128 p = (u128)a * b;
        i128 sp = (i128)(int64_t)a * (int64_t)b;
        u128 s = p + ((u128)b << 64) + a;
        u128 sh = s >> (a & 127);
        u128 sl = s << (b & 127);
        uint64_t d = (b >> 3) | 1ull;
        u128 q = p / d, r = p % d;
        i128 sq = sp / (i128)(int64_t)(a | 1);
        uint64_t *o = O + i * 14;
        o[0] = (uint64_t)p;
        o[1] = (uint64_t)(p >> 64);
        o[2] = (uint64_t)sp;
        o[3] = (uint64_t)((u128)sp >> 64);
        o[4] = (uint64_t)s;
        o[5] = (uint64_t)(s >> 64);
        o[6] = (uint64_t)sh ^ (uint64_t)(sh >> 64);
        o[7] = (uint64_t)sl + (uint64_t)(sl >> 64);
        o[8] = (uint64_t)q;
        o[9] = (uint64_t)(q >> 64);
        o[10] = (uint64_t)r;
        o[11] = (uint64_t)sq;
        o[12] = (uint64_t)((u128)sq >> 64);
        o[13] = (uint64_t)((p > s) * 4 + (sp < 0) * 2 + ((i128)p == sp));
    }
    ex("out.bin", O, sizeof O);
}

/* ---- rounding helpers ---------------------------------------------------------------------- */
static float frnd(int mode, char op, float a, float b)
{
    volatile float x = a, y = b, r;
    fesetround(mode);
    switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/': r = x / y; break;
    case 's': r = sqrtf(x); break;
    default: r = 0; break;
    }
    fesetround(FE_TONEAREST);
    return r;
}
static float ffma(int mode, float a, float b, float c)
{
    volatile float x = a, y = b, z = c, r;
    fesetround(mode);
    r = fmaf(x, y, z);
    fesetround(FE_TONEAREST);
    return r;
}
static double drnd(int mode, char op, double a, double b)
{
    volatile double x = a, y = b, r;
    fesetround(mode);
    switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/': r = x / y; break;
    case 's': r = sqrt(x); break;
    default: r = 0; break;
    }
    fesetround(FE_TONEAREST);
    return r;
}
static double dfma(int mode, double a, double b, double c)
{
    volatile double x = a, y = b, z = c, r;
    fesetround(mode);
    r = fma(x, y, z);
    fesetround(FE_TONEAREST);
    return r;
}

/* ---- dround.cu ----------------------------------------------------------------------------- */
static void case_dround(void)
{
    enum { N = 96, NO = 24 };
    static double A[N], B[N], C[N], O[N * NO];
    seed(120);
    for (int i = 0; i < N; i++) {
        A[i] = rndd(-40, 40);
        B[i] = rndd(-40, 40);
        C[i] = i % 5 == 0 ? -A[i] * 0.75 : rndd(-40, 40);
    }
    in("a.bin", A, sizeof A);
    in("b.bin", B, sizeof B);
    in("c.bin", C, sizeof C);
    const int RN = FE_TONEAREST, RZ = FE_TOWARDZERO, RD = FE_DOWNWARD, RU = FE_UPWARD;
    for (int i = 0; i < N; i++) {
        double a = A[i], b = B[i], c = C[i], *o = O + i * NO;
        o[0] = drnd(RD, '+', a, b);
        o[1] = drnd(RU, '+', a, b);
        o[2] = drnd(RZ, '+', a, b);
        o[3] = drnd(RU, '-', a, c);
        o[4] = drnd(RU, '*', a, b);
        o[5] = drnd(RD, '*', a, b);
        o[6] = drnd(RZ, '*', a, c);
        o[7] = drnd(RN, '/', a, b);
        o[8] = drnd(RU, '/', a, b);
        o[9] = drnd(RD, '/', c, b);
        o[10] = drnd(RZ, '/', c, a);
        o[11] = drnd(RN, '/', 1.0, b);
        o[12] = drnd(RZ, '/', 1.0, b);
        o[13] = drnd(RU, '/', 1.0, a);
        o[14] = drnd(RN, 's', fabs(a), 0);
        o[15] = drnd(RD, 's', fabs(b), 0);
        o[16] = drnd(RU, 's', fabs(c), 0);
        o[17] = dfma(RN, a, b, c);
        o[18] = dfma(RZ, a, b, c);
        o[19] = dfma(RU, a, c, b);
        o[20] = dfma(RD, b, c, a);
        o[21] = dfma(RN, a, b, c);
        o[22] = drnd(RN, 's', fabs(a * b), 0);
        o[23] = a / c;
    }
    ex("out.bin", O, sizeof O);
}

/* ---- fround.cu ----------------------------------------------------------------------------- */
static void case_fround(void)
{
    enum { N = 96, NO = 28 };
    static float A[N], B[N], C[N], O[N * NO];
    seed(121);
    for (int i = 0; i < N; i++) {
        A[i] = i % 7 == 0 ? (float)rndi(-3, 3) * 0.25f : rndf(-20, 20);
        B[i] = rndf(-20, 20);
        C[i] = i % 5 == 0 ? -A[i] * 0.75f + 1e-3f : rndf(-20, 20);
        if (C[i] == 0) C[i] = 1.5f;
        if (A[i] == 0) A[i] = -0.5f;
    }
    in("a.bin", A, sizeof A);
    in("b.bin", B, sizeof B);
    in("c.bin", C, sizeof C);
    const int RN = FE_TONEAREST, RZ = FE_TOWARDZERO, RD = FE_DOWNWARD, RU = FE_UPWARD;
    for (int i = 0; i < N; i++) {
        float a = A[i], b = B[i], c = C[i], *o = O + i * NO;
        o[0] = frnd(RZ, '+', a, b);
        o[1] = frnd(RD, '+', a, b);
        o[2] = frnd(RU, '+', a, c);
        o[3] = frnd(RZ, '-', a, c);
        o[4] = frnd(RD, '-', b, c);
        o[5] = frnd(RD, '*', a, b);
        o[6] = frnd(RU, '*', a, c);
        o[7] = frnd(RZ, '*', b, c);
        o[8] = frnd(RU, '/', a, b);
        o[9] = frnd(RD, '/', a, c);
        o[10] = frnd(RZ, '/', b, c);
        o[11] = frnd(RN, '/', c, a);
        o[12] = frnd(RN, 's', fabsf(a), 0);
        o[13] = frnd(RD, 's', fabsf(b), 0);
        o[14] = frnd(RU, 's', fabsf(c), 0);
        o[15] = frnd(RZ, 's', fabsf(a), 0);
        o[16] = frnd(RZ, '/', 1.0f, b);
        o[17] = frnd(RD, '/', 1.0f, a);
        o[18] = frnd(RU, '/', 1.0f, c);
        o[19] = ffma(RU, a, b, c);
        o[20] = ffma(RD, a, b, c);
        o[21] = ffma(RZ, a, b, c);
        o[22] = ffma(RN, b, c, a);
        o[23] = a / b;
        o[24] = sqrtf(fabsf(b));
        o[25] = fminf(a, b) + fmaxf(b, c);
        o[26] = a < 0 ? 0.0f : a > 1 ? 1.0f : a;
        o[27] = fmaf(a, b, c);
    }
    ex("out.bin", O, sizeof O);
}

/* ---- convert.cu ---------------------------------------------------------------------------- */
/* cvt.rXi.{s,u}NN.fNN: round in the given mode, then clamp to the destination range (NaN -> 0) */
static double rnd_int(double v, int mode)
{
    fesetround(mode);
    volatile double x = v;
    volatile double r = nearbyint(x);
    fesetround(FE_TONEAREST);
    return r;
}
static int64_t sat_s(double r, int bits)
{
    if (isnan(r)) return 0;
    double hi = ldexp(1.0, bits - 1);
    if (r >= hi) return (int64_t)(bits == 64 ? INT64_MAX : (int64_t)hi - 1);
    if (r < -hi) return bits == 64 ? INT64_MIN : -(int64_t)hi;
    return (int64_t)r;
}
static uint64_t sat_u(double r, int bits)
{
    if (isnan(r) || r <= 0) return 0;
    double hi = ldexp(1.0, bits);
    if (r >= hi) return bits == 64 ? UINT64_MAX : (uint64_t)hi - 1;
    return (uint64_t)r;
}
static float i2f(int mode, int64_t v, int uns)
{
    fesetround(mode);
    volatile int64_t x = v;
    volatile uint64_t ux = (uint64_t)v;
    volatile float r = uns ? (float)ux : (float)x;
    fesetround(FE_TONEAREST);
    return r;
}
static double l2d(int mode, int64_t v)
{
    fesetround(mode);
    volatile int64_t x = v;
    volatile double r = (double)x;
    fesetround(FE_TONEAREST);
    return r;
}
static float d2f(int mode, double v)
{
    fesetround(mode);
    volatile double x = v;
    volatile float r = (float)x;
    fesetround(FE_TONEAREST);
    return r;
}
/* half -> integer: the half value converted exactly, then rounded and clamped */
static double hval_d(uint16_t h) { return (double)h2f(h); }
static uint16_t int2half_rn(int64_t k)
{
    u128 m = (u128)(k < 0 ? -(i128)k : (i128)k);
    return h_round(k < 0, m, 0, 0);
}
static void case_convert(void)
{
    enum { N = 96, NO = 36 };
    static float F[N];
    static double D[N];
    static int64_t L[N];
    static uint32_t O[N * NO];
    static const float fe[] = { 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3e9f, -3e9f, 1e20f, -1e20f, 0.0f,
                                -0.0f, 65519.0f, 70000.0f, -1.0f, 255.75f, -128.5f, 4e9f, 5e-8f };
    static const double de[] = { 0.5, -0.5, 1.5, -2.5, 3e9, -3e9, 1e300, 2147483647.5, -2147483648.5,
                                 0.1, 1.0000000596046448, 3.4028235677973366e38, 1e-50 };
    seed(122);
    for (int i = 0; i < N; i++) {
        int nf = (int)(sizeof fe / sizeof fe[0]), nd = (int)(sizeof de / sizeof de[0]);
        F[i] = i < nf ? fe[i] : (i % 3 == 0 ? (float)rndi(-2000, 2000) * 0.25f : rndf(-12, 14));
        D[i] = i < nd ? de[i] : rndd(-10, 33);
        L[i] = i % 4 == 0 ? (int64_t)rndi(-100000000, 100000000) : (int64_t)rnd64() >> (rnd32() % 40);
    }
    in("f.bin", F, sizeof F);
    in("d.bin", D, sizeof D);
    in("l.bin", L, sizeof L);
    const int RN = FE_TONEAREST, RZ = FE_TOWARDZERO, RD = FE_DOWNWARD, RU = FE_UPWARD;
    for (int i = 0; i < N; i++) {
        float f = F[i];
        double d = D[i];
        int64_t l = L[i];
        uint32_t *o = O + i * NO;
        o[0] = (uint32_t)sat_s(rnd_int(f, RD), 32);
        o[1] = (uint32_t)sat_s(rnd_int(f, RU), 32);
        o[2] = (uint32_t)sat_s(rnd_int(f, RN), 32);
        o[3] = (uint32_t)sat_s(rnd_int(f, RZ), 32);
        o[4] = (uint32_t)sat_u(rnd_int(f, RD), 32);
        o[5] = (uint32_t)sat_u(rnd_int(f, RU), 32);
        o[6] = (uint32_t)sat_u(rnd_int(f, RN), 32);
        o[7] = (uint32_t)sat_u(rnd_int(f, RZ), 32);
        int64_t fl = sat_s(rnd_int((double)(f * 65536.0f), RD), 64);
        o[8] = (uint32_t)fl;
        o[9] = (uint32_t)((uint64_t)fl >> 32);
        uint64_t fu = sat_u(rnd_int((double)(f * 1e6f), RZ), 64);
        o[10] = (uint32_t)fu;
        o[11] = (uint32_t)(fu >> 32);
        int32_t k = (int32_t)l;
        o[12] = f2u(i2f(RD, k, 0));
        o[13] = f2u(i2f(RU, k, 0));
        o[14] = f2u(i2f(RN, k, 0));
        o[15] = f2u(i2f(RD, (int64_t)(uint32_t)k, 0));
        uint64_t ld = d2u(l2d(RD, l));
        o[16] = (uint32_t)ld;
        o[17] = (uint32_t)(ld >> 32);
        o[18] = f2u(i2f(RU, l, 0));
        o[19] = f2u(i2f(RN, l, 1));
        o[20] = f2u(d2f(RZ, d));
        o[21] = f2u(d2f(RD, d));
        o[22] = f2u(d2f(RU, d));
        o[23] = f2u(d2f(RN, d));
        o[24] = (uint32_t)sat_s(rnd_int(d, RD), 32);
        o[25] = (uint32_t)sat_s(rnd_int(d, RU), 32);
        o[26] = (uint32_t)sat_s(rnd_int(d, RN), 32);
        o[27] = (uint32_t)sat_s(rnd_int(d, RZ), 32);
        int64_t dl = sat_s(rnd_int(d * 1024.0, RN), 64);
        o[28] = (uint32_t)dl;
        o[29] = (uint32_t)((uint64_t)dl >> 32);
        uint16_t hf = f2h(f, 0), ha = f2h(fabsf(f), 0);
        o[30] = (uint32_t)sat_s(rnd_int(hval_d(hf), RZ), 32);
        o[31] = (uint32_t)sat_u(rnd_int(hval_d(ha), RN), 32);
        o[32] = (uint32_t)(int32_t)(int16_t)sat_s(rnd_int(hval_d(hf), RD), 16);
        o[33] = f2u(h2f(int2half_rn(k)));
        o[34] = (uint32_t)(uint8_t)(int8_t)(int32_t)sat_s(rnd_int(f, RZ), 32);
        o[35] = (uint32_t)(uint16_t)(uint32_t)sat_u(rnd_int(f, RZ), 32);
    }
    ex("out.bin", O, sizeof O);
}

/* ---- intdiv.cu ----------------------------------------------------------------------------- */
static void case_intdiv(void)
{
    enum { N = 128, NO = 20 };
    static int32_t A[N], B[N], O[N * NO];
    static int64_t C[N], D[N];
    static char digits[N * 40];
    seed(123);
    for (int i = 0; i < N; i++) {
        A[i] = (int32_t)rnd32() >> (rnd32() % 28);
        if (A[i] == INT32_MIN) A[i] = 7;
        B[i] = (int32_t)rnd32() >> (8 + rnd32() % 23);
        if (B[i] == 0) B[i] = -3;
        C[i] = (int64_t)rnd64() >> (rnd32() % 50);
        D[i] = (int64_t)rnd64() >> (20 + rnd32() % 43);
        if (D[i] == 0) D[i] = 5;
        if (D[i] == -1 && C[i] == INT64_MIN) C[i] = 1;
    }
    A[0] = INT32_MAX, B[0] = -1;
    A[1] = -7, B[1] = 2;
    A[2] = 7, B[2] = -2;
    in("a.bin", A, sizeof A);
    in("b.bin", B, sizeof B);
    in("c.bin", C, sizeof C);
    in("d.bin", D, sizeof D);
    for (int i = 0; i < N; i++) {
        int32_t a = A[i], b = B[i];
        int64_t c = C[i], d = D[i];
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
        uint64_t uc = (uint64_t)c, ud = (uint64_t)d;
        int32_t *o = O + i * NO;
        o[0] = a / b;
        o[1] = a % b;
        o[2] = (int32_t)(ua / ub);
        o[3] = (int32_t)(ua % ub);
        int64_t q = c / d, r = c % d;
        o[4] = (int32_t)q;
        o[5] = (int32_t)(q >> 32);
        o[6] = (int32_t)r;
        o[7] = (int32_t)(r >> 32);
        uint64_t uq = uc / ud;
        o[8] = (int32_t)uq;
        o[9] = (int32_t)(uq >> 32);
        o[10] = (int32_t)(uc % ud);
        o[11] = a / -7;
        o[12] = a % 1000;
        o[13] = (int32_t)(c / 1000000007LL);
        o[14] = (int32_t)(uc % 12345ull);
        int16_t sa = (int16_t)a, sb = (int16_t)(b | 1);
        o[15] = sa / sb;
        int8_t ca = (int8_t)a, cb = (int8_t)(b | 1);
        o[16] = ca % cb;
        o[17] = (int32_t)((uint16_t)ua / (uint16_t)(ub | 1));
        o[18] = (a >= 0 ? a : -a) / 16;
        o[19] = a >> 4;
        unsigned base = 2 + i % 15, v = (unsigned)(a >= 0 ? a : -a);
        char buf[40];
        int len = 0;
        do {
            unsigned dg = v % base;
            buf[len++] = (char)(dg < 10 ? '0' + dg : 'a' + dg - 10);
            v /= base;
        } while (v != 0);
        char *dst = digits + i * 40;
        int k = 0;
        if (a < 0) dst[k++] = '-';
        while (len > 0) dst[k++] = buf[--len];
        while (k < 40) dst[k++] = 0;
    }
    ex("out.bin", O, sizeof O);
    ex("digits.bin", digits, sizeof digits);
}

/* ---- half2.cu ------------------------------------------------------------------------------ */
static uint16_t h_max(uint16_t a, uint16_t b) { return h2f(a) >= h2f(b) ? (h2f(a) == h2f(b) && (a & 0x8000) ? b : a) : b; }
static uint16_t h_min(uint16_t a, uint16_t b) { return h2f(a) <= h2f(b) ? (h2f(a) == h2f(b) && (b & 0x8000) ? b : a) : b; }
static uint16_t h_sat(uint16_t h) { float f = h2f(h); return f < 0 || (h & 0x8000) ? 0 : f > 1 ? 0x3c00 : h; }
static void case_half2(void)
{
    enum { N = 64 };
    static float X[2 * N], Y[2 * N], FO[2 * N];
    static uint16_t O[N * 20];
    seed(124);
    for (int i = 0; i < 2 * N; i++) {
        X[i] = rndf(-6, 4);
        Y[i] = rndf(-6, 4);
    }
    X[0] = Y[1];
    in("x.bin", X, sizeof X);
    in("y.bin", Y, sizeof Y);
    for (int i = 0; i < N; i++) {
        uint16_t a[2] = { f2h(X[2 * i], 0), f2h(X[2 * i + 1], 0) };
        uint16_t b[2] = { f2h(Y[2 * i], 0), f2h(Y[2 * i + 1], 0) };
        uint16_t c[2] = { f2h(Y[2 * i] * 0.5f, 1), f2h(X[2 * i] - 1.0f, 0) };
        uint16_t r[8][2];
        for (int k = 0; k < 2; k++) {
            r[0][k] = h_fma(a[k], b[k], c[k]);
            r[1][k] = h_mul(a[k], b[k]);
            r[2][k] = h_sub(a[k], c[k]);
            r[3][k] = h_add((uint16_t)(a[k] ^ 0x8000), b[k]);
            r[4][k] = (uint16_t)(h_sub(b[k], a[k]) & 0x7fff);
            r[5][k] = h_max(a[k], b[k]);
            r[6][k] = h_min(a[k], c[k]);
            r[7][1 - k] = h_sat(h_fma(a[k], b[k], c[k]));
        }
        uint16_t *o = O + i * 20;
        for (int k = 0; k < 8; k++) {
            o[2 * k] = r[k][0];
            o[2 * k + 1] = r[k][1];
        }
        uint16_t h = h_max(a[0], b[1]), m = h_min(a[1], b[0]);
        o[16] = h_fma(h, m, f2h(0.75f, 0));
        int bgt = h2f(a[0]) > h2f(b[0]) && h2f(a[1]) > h2f(b[1]);
        int ble = h2f(a[0]) <= h2f(b[0]) && h2f(a[1]) <= h2f(b[1]);
        o[17] = (uint16_t)((h2f(h) > h2f(m)) | (bgt << 1) | (ble << 2));
        uint16_t c0 = h2f(a[0]) >= h2f(b[0]) ? 0x3c00 : 0, c1 = h2f(a[1]) >= h2f(b[1]) ? 0x3c00 : 0;
        o[18] = c0 ^ c1;
        o[19] = (uint16_t)(int32_t)truncf(h2f(h_mul(h, f2h(3.0f, 0))));
        FO[2 * i] = h2f(r[0][0]) + h2f(r[1][0]);
        FO[2 * i + 1] = h2f(r[0][1]) * h2f(r[2][1]);
    }
    ex("out.bin", O, sizeof O);
    ex("fout.bin", FO, sizeof FO);
}

/* ---- bf16.cu ------------------------------------------------------------------------------- */
/* round a double (exact value of the operation) to bfloat16; inputs keep far from the limits */
static uint16_t d2bf(double v, int rz)
{
    if (v == 0)
        return signbit(v) ? 0x8000 : 0;
    int e = ilogb(v);
    double s = ldexp(v, 7 - e);
    fesetround(rz ? FE_TOWARDZERO : FE_TONEAREST);
    volatile double t = s;
    volatile double r = nearbyint(t);
    fesetround(FE_TONEAREST);
    float f = (float)ldexp(r, e - 7);
    return (uint16_t)(f2u(f) >> 16);
}
static double bf2d(uint16_t b) { uint32_t u = (uint32_t)b << 16; float f; memcpy(&f, &u, 4); return f; }
static uint16_t bf_max(uint16_t a, uint16_t b) { return bf2d(a) >= bf2d(b) ? (bf2d(a) == bf2d(b) && (a & 0x8000) ? b : a) : b; }
static uint16_t bf_min(uint16_t a, uint16_t b) { return bf2d(a) <= bf2d(b) ? (bf2d(a) == bf2d(b) && (b & 0x8000) ? b : a) : b; }
static void case_bf16(void)
{
    enum { N = 64 };
    static float X[N], Y[N], FO[2 * N];
    static uint16_t O[N * 10];
    seed(125);
    for (int i = 0; i < N; i++) {
        X[i] = rndf(-8, 8);
        Y[i] = rndf(-8, 8);
    }
    in("x.bin", X, sizeof X);
    in("y.bin", Y, sizeof Y);
    for (int i = 0; i < N; i++) {
        uint16_t a = d2bf(X[i], 0), b = d2bf(Y[i], 1), c = d2bf(X[i] * 0.25f + 1.0f, 0);
        uint16_t v[2] = { d2bf(X[i], 0), d2bf(Y[i], 0) }, w[2] = { b, c };
        uint16_t *o = O + i * 10;
        double A = bf2d(a), B = bf2d(b), C = bf2d(c);
        o[0] = d2bf(A + B, 0);
        o[1] = d2bf(A * C, 0);
        o[2] = d2bf(fma(A, B, C), 0);
        o[3] = d2bf(B - C, 0);
        o[4] = bf_max(a, b);
        o[5] = bf_min((uint16_t)(a ^ 0x8000), c);
        uint16_t f2[2];
        for (int k = 0; k < 2; k++)
            f2[k] = d2bf(fma(bf2d(v[k]), bf2d(w[k]), bf2d(v[k])), 0);
        o[6] = f2[0];
        o[7] = d2bf(bf2d(v[1]) * bf2d(w[1]), 0);
        int bge = bf2d(v[0]) >= bf2d(w[0]) && bf2d(v[1]) >= bf2d(w[1]);
        o[8] = (uint16_t)((A < B) | ((A == C) << 1) | (bge << 2));
        o[9] = d2bf((double)((float)A + (float)B), 0);
        FO[2 * i] = (float)bf2d(f2[0]);
        FO[2 * i + 1] = (float)bf2d(f2[1]) + (float)bf2d(o[2]);
    }
    ex("out.bin", O, sizeof O);
    ex("fout.bin", FO, sizeof FO);
}

/* ---- halo2d.cu ----------------------------------------------------------------------------- */
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static void case_halo2d_box(void)
{
    enum { W = 50, H = 37 };
    static int32_t a[W * H], o[W * H];
    seed(126);
    for (int i = 0; i < W * H; i++)
        a[i] = rndi(0, 999);
    in("in.bin", a, sizeof a);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int s = 0;
            for (int dy = 0; dy <= 4; dy++)
                for (int dx = 0; dx <= 4; dx++)
                    s += a[clampi(y + dy - 2, 0, H - 1) * W + clampi(x + dx - 2, 0, W - 1)] *
                         (1 + (dx == 2) + (dy == 2));
            o[y * W + x] = s / 49;
        }
    ex("out.bin", o, sizeof o);
}
static void case_halo2d_transpose(void)
{
    enum { R = 70, C = 45 };
    static int64_t a[R * C], o[R * C];
    seed(127);
    for (int i = 0; i < R * C; i++)
        a[i] = (int64_t)rnd64();
    in("in.bin", a, sizeof a);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            o[c * R + r] = (int64_t)((uint64_t)a[r * C + c] * 2 + 1);
    ex("out.bin", o, sizeof o);
}

/* ---- constparams.cu ------------------------------------------------------------------------ */
static void case_constparams(void)
{
    enum { N = 100 };
    static double x[N], dout[N];
    static int32_t k[N], iout[3 * N];
    static float fout[N];
    static const double coeffs[5] = { 1.0, -0.5, 0.25, 0.125, -0.0625 };
    static const int offsets[4] = { 3, -1, 4, -15 };
    static const unsigned short lut[16] = { 0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610 };
    static const char name[8] = "params";
    seed(128);
    for (int i = 0; i < N; i++) {
        x[i] = rndd(-3, 1);
        k[i] = rndi(0, 1 << 20);
    }
    in("x.bin", x, sizeof x);
    in("k.bin", k, sizeof k);
    for (int i = 0; i < N; i++) {
        double v = x[i], acc = coeffs[4];
        for (int j = 3; j >= 0; j--)
            acc = fma(acc, v, coeffs[j]);
        dout[i] = acc * 0.5;
        int kk = k[i];
        iout[3 * i] = lut[kk & 15] + offsets[kk & 3] + 0;
        iout[3 * i + 1] = name[kk % 6] * 104;
        iout[3 * i + 2] = lut[(kk >> 4) & 15] - lut[15 - (kk & 15)];
        float l = (float)x[i > 0 ? i - 1 : 0], c = (float)v, r = (float)x[i + 1 < N ? i + 1 : N - 1];
        fout[i] = 0.25f * l + 0.5f * c + 0.25f * r;
    }
    ex("dout.bin", dout, sizeof dout);
    ex("iout.bin", iout, sizeof iout);
    ex("fout.bin", fout, sizeof fout);
}

/* ---- gridstride.cu ------------------------------------------------------------------------- */
static void case_gridstride(void)
{
    enum { N = 1000, NB = 777, NR = 1001 };
    static int64_t x[N], y[N];
    static uint8_t src[NB], dst[800];
    static uint32_t v[NR];
    static uint64_t h[NR];
    seed(129);
    for (int i = 0; i < N; i++) {
        x[i] = (int64_t)rnd64();
        y[i] = (int64_t)rnd64();
    }
    for (int i = 0; i < NB; i++)
        src[i] = (uint8_t)rnd32();
    for (int i = 0; i < NR; i++)
        v[i] = rnd32();
    in("x.bin", x, sizeof x);
    in("y.bin", y, sizeof y);
    in("src.bin", src, sizeof src);
    in("v.bin", v, sizeof v);
    for (int i = 0; i < N; i++)
        y[i] = (int64_t)((uint64_t)-3 * (uint64_t)x[i] + (uint64_t)y[i]);
    memset(dst, 0, sizeof dst);
    for (int i = 0; i < NB; i++)
        dst[i + 5] = (uint8_t)(src[i] * 7 + (i >> 3));
    for (int i = 0; i < NR / 2; i++) {
        uint32_t t = v[i];
        v[i] = v[NR - 1 - i];
        v[NR - 1 - i] = t;
    }
    for (uint64_t i = 0; i < NR; i++) {
        uint64_t z = v[i] ^ (i << 32);
        for (int r = 0; r < 4; r++) {
            z ^= z >> 33;
            z *= 0xff51afd7ed558ccdull;
        }
        h[i] = z;
    }
    ex("y.bin", y, sizeof y);
    ex("dst.bin", dst, sizeof dst);
    ex("v.bin", v, sizeof v);
    ex("h.bin", h, sizeof h);
}

/* ---- heat3d.cu ----------------------------------------------------------------------------- */
static void case_heat3d_heat(void)
{
    enum { NX = 20, NY = 12, NZ = 9, T = NX * NY * NZ };
    static float a[T], o[T];
    seed(130);
    for (int i = 0; i < T; i++)
        a[i] = rndf(-2, 6);
    in("in.bin", a, sizeof a);
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                int i = (z * NY + y) * NX + x;
                if (x == 0 || y == 0 || z == 0 || x == NX - 1 || y == NY - 1 || z == NZ - 1) {
                    o[i] = a[i];
                    continue;
                }
                float s = a[i - 1] + a[i + 1];
                s += a[i - NX] + a[i + NX];
                s += a[i - NX * NY] + a[i + NX * NY];
                o[i] = 0.25f * a[i] + 0.125f * s;
            }
    ex("out.bin", o, sizeof o);
}
static void case_heat3d_box27(void)
{
    enum { N = 10 };
    static int32_t a[N * N * N], o[N * N * N];
    seed(131);
    for (int i = 0; i < N * N * N; i++)
        a[i] = rndi(0, 999);
    in("in.bin", a, sizeof a);
    for (int z = 0; z < N; z++)
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                int s = 0, cnt = 0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int xx = x + dx, yy = y + dy, zz = z + dz;
                            if (xx < 0 || yy < 0 || zz < 0 || xx >= N || yy >= N || zz >= N)
                                continue;
                            s += a[(zz * N + yy) * N + xx];
                            cnt++;
                        }
                o[(z * N + y) * N + x] = s / cnt;
            }
    ex("out.bin", o, sizeof o);
}

/* ---- warpscan.cu --------------------------------------------------------------------------- */
static void case_warpscan_block(void)
{
    enum { N = 700, B = 256, G = 3 };
    static int32_t a[N], o[N], tot[G];
    seed(132);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-100, 100);
    in("in.bin", a, sizeof a);
    for (int b = 0; b < G; b++) {
        int s = 0;
        for (int t = 0; t < B; t++) {
            int i = b * B + t;
            s += i < N ? a[i] : 0;
            if (i < N) o[i] = s;
        }
        tot[b] = s;
    }
    ex("out.bin", o, sizeof o);
    ex("totals.bin", tot, sizeof tot);
}
static void case_warpscan_float(void)
{
    enum { N = 250, T = 256 };
    static float a[N], o[N];
    seed(133);
    for (int i = 0; i < N; i++)
        a[i] = rndf(-3, 3) * (rnd32() & 1 ? 1 : 1);
    for (int i = 0; i < N; i++)
        a[i] = fabsf(a[i]);
    in("in.bin", a, sizeof a);
    for (int w = 0; w < T; w += 32) {
        float v[32];
        for (int l = 0; l < 32; l++)
            v[l] = w + l < N ? a[w + l] : 0.0f;
        for (int off = 1; off < 32; off <<= 1) {
            float nv[32];
            for (int l = 0; l < 32; l++)
                nv[l] = l >= off ? v[l] + v[l - off] : v[l];
            memcpy(v, nv, sizeof v);
        }
        for (int l = 0; l < 32; l++)
            if (w + l < N)
                o[w + l] = v[l] / v[31];
    }
    ex("out.bin", o, sizeof o);
}

/* ---- bitonic.cu ---------------------------------------------------------------------------- */
static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}
static void case_bitonic(void)
{
    enum { N = 512 };
    static uint32_t k[N], s[N], sd[N];
    static int32_t v[N], vs[N], vd[N];
    seed(134);
    for (int i = 0; i < N; i++) {
        uint32_t r;
        int dup;
        do {
            r = rnd32();
            dup = 0;
            for (int j = 0; j < i; j++)
                if (k[j] == r) dup = 1;
        } while (dup);
        k[i] = r;
        v[i] = i;
    }
    in("keys.bin", k, sizeof k);
    in("vals.bin", v, sizeof v);
    memcpy(s, k, sizeof s);
    qsort(s, N, 4, cmp_u32);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            if (k[j] == s[i]) vs[i] = j;
        sd[i] = s[N - 1 - i];
    }
    for (int i = 0; i < N; i++)
        vd[i] = vs[N - 1 - i];
    int32_t bad1 = 0, bad2 = N - 1;
    ex("keys.bin", s, sizeof s);
    ex("vals.bin", vs, sizeof vs);
    ex("keys2.bin", sd, sizeof sd);
    ex("vals2.bin", vd, sizeof vd);
    ex("bad1.bin", &bad1, 4);
    ex("bad2.bin", &bad2, 4);
}

/* ---- histwarp.cu --------------------------------------------------------------------------- */
static void case_histwarp(void)
{
    enum { N4 = 2000 };
    static uint8_t d[4 * N4];
    uint32_t h[64] = { 0 };
    seed(135);
    for (int i = 0; i < 4 * N4; i++)
        d[i] = (uint8_t)(rnd32() >> (i % 3 == 0 ? 2 : 0));
    in("data.bin", d, sizeof d);
    for (int i = 0; i < N4; i++) {
        uint8_t *p = d + 4 * i;
        h[p[0] % 64]++;
        h[p[1] % 64]++;
        h[p[2] / 4]++;
        h[(p[3] ^ p[0]) & 63]++;
    }
    ex("hist.bin", h, sizeof h);
}

/* ---- csr.cu -------------------------------------------------------------------------------- */
static void case_csr(void)
{
    enum { ROWS = 100, COLS = 64, MAXNNZ = 100 * 80 };
    static int32_t rowptr[ROWS + 1], col[MAXNNZ];
    static float val[MAXNNZ], x[COLS], y[ROWS];
    seed(136);
    int nnz = 0;
    for (int r = 0; r < ROWS; r++) {
        rowptr[r] = nnz;
        int len = r % 10 == 0 ? 0 : r % 7 == 0 ? rndi(33, 80) : rndi(1, 20);
        for (int k = 0; k < len; k++) {
            col[nnz] = rndi(0, COLS - 1);
            val[nnz] = (float)rndi(-20, 20) * 0.25f;
            nnz++;
        }
    }
    rowptr[ROWS] = nnz;
    for (int c = 0; c < COLS; c++)
        x[c] = (float)rndi(-10, 10) * 0.5f;
    in("rowptr.bin", rowptr, sizeof rowptr);
    in("col.bin", col, sizeof col);
    in("val.bin", val, sizeof val);
    in("x.bin", x, sizeof x);
    for (int r = 0; r < ROWS; r++) {
        float s = 0.0f;
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
            s += val[k] * x[col[k]];
        y[r] = s + 0.0f;
    }
    ex("y.bin", y, sizeof y);
    ex("y2.bin", y, sizeof y);
}

/* ---- strings.cu ---------------------------------------------------------------------------- */
static char up_c(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 32) : c; }
static int is_sp(char c) { return c == ' ' || c == '\t' || c == ','; }
static void case_strings(void)
{
    enum { N = 24 };
    static char s[N * 32], upper[N * 32], rev[N * 32], rot[N * 32];
    static int32_t info[4 * N];
    static const char *fixed[] = { "Hello, World", "racecar", "  -123 apples", "A man a plan",
                                   "Step on no pets", "42", "", "tab\tseparated,words here",
                                   "ZZZ top", "-0", "abcdefghijklmnopqrstuvwxyz01234", "Noon" };
    int nf = (int)(sizeof fixed / sizeof fixed[0]);
    memset(s, 0, sizeof s);
    seed(137);
    for (int i = 0; i < N; i++) {
        if (i < nf) {
            strcpy(s + 32 * i, fixed[i]);
        } else {
            int len = rndi(1, 31);
            for (int k = 0; k < len; k++) {
                int r = rndi(0, 9);
                s[32 * i + k] = r < 5 ? (char)('a' + rndi(0, 25)) : r < 7 ? (char)('A' + rndi(0, 25))
                              : r < 8 ? ' ' : (char)('0' + rndi(0, 9));
            }
        }
    }
    in("in.bin", s, sizeof s);
    for (int i = 0; i < N; i++) {
        const char *p = s + 32 * i;
        int len = (int)strlen(p), words = 0, inword = 0;
        for (int k = 0; k < len; k++) {
            upper[i * 32 + k] = up_c(p[k]);
            rev[i * 32 + k] = p[len - 1 - k];
            char c = p[k];
            if (c >= 'a' && c <= 'z') c = (char)('a' + (c - 'a' + i) % 26);
            else if (c >= 'A' && c <= 'Z') c = (char)('A' + (c - 'A' + 26 - i % 26) % 26);
            rot[i * 32 + k] = c;
            if (is_sp(p[k])) inword = 0;
            else if (!inword) { inword = 1; words++; }
        }
        for (int k = len; k < 32; k++)
            upper[i * 32 + k] = rev[i * 32 + k] = rot[i * 32 + k] = 0;
        int pal = 1;
        for (int a = 0, b = len - 1; a < b; a++, b--)
            if (up_c(p[a]) != up_c(p[b])) { pal = 0; break; }
        int k = 0, sign = 1, num = 0;
        while (is_sp(p[k])) k++;
        if (p[k] == '-') { sign = -1; k++; }
        while (p[k] >= '0' && p[k] <= '9') num = num * 10 + (p[k++] - '0');
        info[4 * i] = len;
        info[4 * i + 1] = words;
        info[4 * i + 2] = pal;
        info[4 * i + 3] = sign * num;
    }
    ex("upper.bin", upper, sizeof upper);
    ex("rev.bin", rev, sizeof rev);
    ex("rot.bin", rot, sizeof rot);
    ex("info.bin", info, sizeof info);
}

/* ---- hashtable.cu -------------------------------------------------------------------------- */
static void case_hashtable(void)
{
    enum { N = 500, DIST = 200, Q = 300, CAP = 1024 };
    static uint32_t keys[N], distinct[DIST], q[Q];
    static int32_t res[Q];
    static int32_t cnt[DIST];
    seed(138);
    for (int i = 0; i < DIST; i++) {
        uint32_t r;
        int dup;
        do {
            r = rnd32();
            dup = r == 0xffffffffu;
            for (int j = 0; j < i; j++)
                if (distinct[j] == r) dup = 1;
        } while (dup);
        distinct[i] = r;
    }
    memset(cnt, 0, sizeof cnt);
    for (int i = 0; i < N; i++) {
        int j = i < DIST ? i : rndi(0, DIST - 1);
        keys[i] = distinct[j];
        cnt[j]++;
    }
    for (int i = 0; i < Q; i++) {
        if (i % 2 == 0) {
            int j = rndi(0, DIST - 1);
            q[i] = distinct[j];
            res[i] = cnt[j];
        } else {
            uint32_t r;
            int hit;
            do {
                r = rnd32();
                hit = r == 0xffffffffu;
                for (int j = 0; j < DIST; j++)
                    if (distinct[j] == r) hit = 1;
            } while (hit);
            q[i] = r;
            res[i] = -1;
        }
    }
    in("keys.bin", keys, sizeof keys);
    in("q.bin", q, sizeof q);
    uint32_t occ = DIST;
    ex("res.bin", res, sizeof res);
    ex("occ.bin", &occ, 4);
}

/* ---- approx.cu (hardware approximations: compared with a tolerance) ------------------------ */
static void case_approx_funcs(void)
{
    enum { N = 128, NO = 16 };
    static float X[N], O[N * NO];
    seed(139);
    for (int i = 0; i < N; i++)
        X[i] = (float)rndi(-4000, 4000) / 1000.0f + (float)rndi(0, 999) * 1e-7f;
    in("x.bin", X, sizeof X);
    for (int i = 0; i < N; i++) {
        double x = X[i];
        float *o = O + i * NO;
        o[0] = (float)exp(x);
        o[1] = (float)log(fabs(x) + 0.5);
        o[2] = (float)sin(x);
        o[3] = (float)cos(x);
        o[4] = (float)pow(fabs(x) + 1.0, 1.5);
        o[5] = (float)(x / (3.0 + (double)(float)(X[i] * X[i])));
        o[6] = (float)(1.0 / sqrt(fabs(x) + 0.25));
        o[7] = (float)exp2(x);
        o[8] = (float)exp(x);
        o[9] = (float)log(fabs(x) + 0.5);
        o[10] = (float)sin(x);
        o[11] = (float)cos(x);
        o[12] = (float)tanh(x);
        o[13] = (float)erf(x);
        o[14] = (float)atan2(x, 1.5);
        o[15] = (float)cbrt(x);
    }
    ex("out.bin", O, sizeof O);
    tol("out.bin.tol", "f32 16 2e-6");
}
static void case_approx_nbody(void)
{
    enum { N = 64 };
    static float P[4 * N], A[3 * N];
    seed(140);
    for (int i = 0; i < N; i++) {
        P[4 * i] = (float)rndi(-1000, 1000) / 1000.0f;
        P[4 * i + 1] = (float)rndi(-1000, 1000) / 1000.0f;
        P[4 * i + 2] = (float)rndi(-1000, 1000) / 1000.0f;
        P[4 * i + 3] = 0.5f + (float)rndi(0, 500) / 1000.0f;
    }
    in("pos.bin", P, sizeof P);
    for (int i = 0; i < N; i++) {
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < N; j++) {
            double dx = P[4 * j] - P[4 * i], dy = P[4 * j + 1] - P[4 * i + 1], dz = P[4 * j + 2] - P[4 * i + 2];
            double r2 = dx * dx + dy * dy + dz * dz + 0.01;
            double s = P[4 * j + 3] / (r2 * sqrt(r2));
            ax += dx * s, ay += dy * s, az += dz * s;
        }
        A[3 * i] = (float)ax, A[3 * i + 1] = (float)ay, A[3 * i + 2] = (float)az;
    }
    ex("acc.bin", A, sizeof A);
    tol("acc.bin.tol", "f32 2000 2e-3");
}

/* ---- mandel.cu ----------------------------------------------------------------------------- */
static void case_mandel_float(void)
{
    enum { W = 64, H = 48, MAXIT = 200 };
    static int32_t it[W * H];
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++) {
            float cr = fmaf((float)px, 0.05f, -2.0f), ci = fmaf((float)py, 0.05f, -1.2f);
            float zr = 0, zi = 0;
            int k = 0;
            while (k < MAXIT) {
                float zr2 = zr * zr, zi2 = zi * zi;
                if (zr2 + zi2 > 4.0f) break;
                float t = (zr2 - zi2) + cr;
                zi = fmaf(2.0f * zr, zi, ci);
                zr = t;
                k++;
            }
            it[py * W + px] = k;
        }
    ex("iters.bin", it, sizeof it);
}
static void case_mandel_julia(void)
{
    enum { W = 60, H = 40, MAXIT = 100 };
    static uint8_t img[W * H];
    const double cr = -0.8, ci = 0.156;
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++) {
            double zr = -1.5 + 3.0 * px / W, zi = -1.0 + 2.0 * py / H;
            int k = 0;
            for (; k < MAXIT; k++) {
                double r2 = zr * zr, i2 = zi * zi;
                if (r2 + i2 > 4.0) break;
                double nz = fma(zr, zr, fma(-zi, zi, cr));
                zi = fma(2.0 * zr, zi, ci);
                zr = nz;
            }
            img[py * W + px] = (uint8_t)(k * 255 / MAXIT);
        }
    ex("img.bin", img, sizeof img);
}

/* ---- cubblock.cu --------------------------------------------------------------------------- */
static void case_cubblock_scan(void)
{
    enum { N = 256 };
    static int32_t a[N], excl[N], incl[N], sums[2], wmin[8];
    seed(141);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-1000, 1000);
    in("in.bin", a, sizeof a);
    for (int b = 0; b < 2; b++) {
        int s = 0, m = INT32_MIN;
        for (int t = 0; t < 128; t++) {
            int i = b * 128 + t;
            excl[i] = s;
            s += a[i];
            m = a[i] > m ? a[i] : m;
            incl[i] = m;
        }
        sums[b] = s;
        for (int w = 0; w < 4; w++) {
            int mn = INT32_MAX;
            for (int l = 0; l < 32; l++)
                mn = a[b * 128 + w * 32 + l] < mn ? a[b * 128 + w * 32 + l] : mn;
            wmin[b * 4 + w] = mn;
        }
    }
    ex("sums.bin", sums, sizeof sums);
    ex("excl.bin", excl, sizeof excl);
    ex("incl.bin", incl, sizeof incl);
    ex("wmin.bin", wmin, sizeof wmin);
}
static void case_cubblock_sort(void)
{
    enum { N = 512 };
    static uint32_t k[N], ks[N];
    static int32_t vs[N];
    seed(142);
    for (int i = 0; i < N; i++)
        k[i] = rnd32() >> (i % 4 == 0 ? 24 : 0);
    in("keys.bin", k, sizeof k);
    for (int b = 0; b < 2; b++) {
        int idx[256];
        for (int j = 0; j < 256; j++) idx[j] = j;
        /* stable insertion sort by key */
        for (int j = 1; j < 256; j++) {
            int x = idx[j], p = j - 1;
            while (p >= 0 && k[b * 256 + idx[p]] > k[b * 256 + x]) { idx[p + 1] = idx[p]; p--; }
            idx[p + 1] = x;
        }
        for (int j = 0; j < 256; j++) {
            uint32_t key = k[b * 256 + idx[j]];
            ks[b * 256 + j] = key;
            vs[b * 256 + j] = (int32_t)(key & 0xff) * 1000 + idx[j];
        }
    }
    ex("keys.bin", ks, sizeof ks);
    ex("vals.bin", vs, sizeof vs);
}

/* ---- libcuxx.cu ---------------------------------------------------------------------------- */
static void case_libcuxx(void)
{
    enum { N = 200 };
    static int32_t a[N];
    static uint32_t o[6 * N];
    seed(143);
    for (int i = 0; i < N; i++)
        a[i] = i % 17 == 0 ? (1 << (i % 31)) : rndi(-100000, 100000);
    in("in.bin", a, sizeof a);
    int32_t acc[4] = { 0, INT32_MIN, -1, -1 };
    for (int i = 0; i < N; i++) {
        int v = a[i];
        acc[0] += v;
        if (v > acc[1]) acc[1] = v;
        int arr[5] = { v, v >> 1, v * 3, -v, v ^ 0x5a5a }, mx = INT32_MIN, mn = INT32_MAX;
        for (int k = 0; k < 5; k++) {
            mx = arr[k] > mx ? arr[k] : mx;
            mn = arr[k] < mn ? arr[k] : mn;
        }
        uint32_t u = (uint32_t)v;
        int pc = __builtin_popcount(u), lz = u ? __builtin_clz(u) : 32;
        uint32_t rot = (i & 31) ? (u << (i & 31)) | (u >> (32 - (i & 31))) : u;
        uint32_t bf = u ? 1u << (31 - __builtin_clz(u)) : 0;
        uint32_t bw = u ? 32 - (uint32_t)__builtin_clz(u) : 0;
        o[6 * i] = (uint32_t)mx;
        o[6 * i + 1] = (uint32_t)mn;
        o[6 * i + 2] = (uint32_t)(v < -100 ? -100 : v > 100 ? 100 : v);
        o[6 * i + 3] = (uint32_t)pc + 100u * (uint32_t)lz;
        o[6 * i + 4] = rot ^ bf;
        o[6 * i + 5] = bw + 1000u * (uint32_t)(pc == 1);
    }
    ex("acc.bin", acc, sizeof acc);
    ex("out.bin", o, sizeof o);
}

/* ---- syncred.cu ---------------------------------------------------------------------------- */
static void case_syncred(void)
{
    enum { N = 1000, B = 256, G = 4 };
    static int32_t a[N];
    int32_t out[3 * G], partial[G], total = 0;
    seed(144);
    for (int i = 0; i < N; i++)
        a[i] = i % 97 == 5 ? 7 : rndi(-49, 60);
    a[900] = -55;
    in("in.bin", a, sizeof a);
    for (int b = 0; b < G; b++) {
        int c = 0, all = 1, any = 0, s = 0;
        for (int t = 0; t < B; t++) {
            int i = b * B + t, v = i < N ? a[i] : 0;
            c += v > 0;
            all &= v > -50;
            any |= v == 7;
            s += v;
        }
        out[3 * b] = c, out[3 * b + 1] = all, out[3 * b + 2] = any;
        partial[b] = s;
        total += s;
    }
    uint32_t ticket = G;
    ex("out.bin", out, sizeof out);
    ex("partial.bin", partial, sizeof partial);
    ex("ticket.bin", &ticket, 4);
    ex("total.bin", &total, 4);
}

/* ---- cluster.cu ---------------------------------------------------------------------------- */
static void case_cluster(void)
{
    enum { N = 500, B = 64, G = 8 };
    static int32_t a[G * B], o[2 * N];
    seed(145);
    memset(a, 0, sizeof a);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-1000, 1000);
    in("in.bin", a, (size_t)N * 4);
    for (int b = 0; b < G; b++) {
        int rank = b % 4, base = b - rank, nb = (rank + 1) % 4, t0 = 0;
        for (int k = 0; k < B; k++)
            t0 += a[base * B + k];
        for (int t = 0; t < B; t++) {
            int i = b * B + t;
            if (i >= N) continue;
            o[2 * i] = a[(base + nb) * B + 63 - t] * 10 + nb;
            o[2 * i + 1] = t0 + rank * 1000000 + 4;
        }
    }
    ex("out.bin", o, sizeof o);
}

/* ---- shfl64.cu ----------------------------------------------------------------------------- */
static void case_shfl64(void)
{
    enum { N = 128 };
    static double d[N], dO[2 * N];
    static int64_t l[N], lO[2 * N];
    static int32_t iO[4 * N];
    seed(146);
    for (int i = 0; i < N; i++) {
        d[i] = rndd(-10, 10);
        l[i] = (int64_t)rnd64();
    }
    for (int i = 64; i < 96; i++)
        l[i] = (l[i] | 1) & ~2ll;     /* one warp where all keys are odd */
    in("d.bin", d, sizeof d);
    in("l.bin", l, sizeof l);
    for (int w = 0; w < N; w += 32) {
        double x[32];
        int64_t y[32];
        for (int k = 0; k < 32; k++) x[k] = d[w + k], y[k] = l[w + k];
        for (int m = 16; m > 0; m >>= 1) {
            double nx[32];
            int64_t ny[32];
            for (int k = 0; k < 32; k++) {
                nx[k] = x[k] + x[k ^ m];
                ny[k] = y[k] > y[k ^ m] ? y[k] : y[k ^ m];
            }
            memcpy(x, nx, sizeof x);
            memcpy(y, ny, sizeof y);
        }
        uint32_t radd = 0, rxor = 0;
        int32_t rmin = INT32_MAX;
        int allsame = 1;
        for (int k = 0; k < 32; k++) {
            radd += (uint32_t)(l[w + k] & 0xffff);
            rxor ^= (uint32_t)l[w + k];
            int32_t hv = (int32_t)(l[w + k] >> 40);
            rmin = hv < rmin ? hv : rmin;
            if ((l[w + k] & 1) != (l[w] & 1)) allsame = 0;
        }
        for (int k = 0; k < 32; k++) {
            int i = w + k;
            dO[2 * i] = x[k];
            dO[2 * i + 1] = d[w + ((k * 7) & 31)];
            lO[2 * i] = y[k];
            lO[2 * i + 1] = (k % 8) + 3 < 8 ? l[i + 3] : l[i];
            uint32_t any = 0;
            for (int j = 0; j < 32; j++)
                if ((l[w + j] & 3) == (l[i] & 3)) any |= 1u << j;
            iO[4 * i] = allsame ? (int32_t)0xffffffffu + 1 : 0;
            iO[4 * i + 1] = (int32_t)any;
            iO[4 * i + 2] = (int32_t)radd;
            iO[4 * i + 3] = rmin ^ (int32_t)rxor;
        }
    }
    ex("dout.bin", dO, sizeof dO);
    ex("lout.bin", lO, sizeof lO);
    ex("iout.bin", iO, sizeof iO);
}

/* ---- dmatmul.cu ---------------------------------------------------------------------------- */
static void case_dmatmul_gemm(void)
{
    enum { M = 19, N = 23, K = 29 };
    static double A[M * K], B[K * N], C[M * N], O[M * N];
    seed(147);
    for (int i = 0; i < M * K; i++) A[i] = rndd(-4, 4);
    for (int i = 0; i < K * N; i++) B[i] = rndd(-4, 4);
    for (int i = 0; i < M * N; i++) C[i] = rndd(-4, 4);
    in("a.bin", A, sizeof A);
    in("b.bin", B, sizeof B);
    in("c.bin", C, sizeof C);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            double acc = 0.0;
            for (int k0 = 0; k0 < K; k0 += 8)
                for (int k = 0; k < 8; k++) {
                    double x = k0 + k < K ? A[r * K + k0 + k] : 0.0, y = k0 + k < K ? B[(k0 + k) * N + c] : 0.0;
                    acc = fma(x, y, acc);
                }
            O[r * N + c] = fma(1.5, acc, -0.5 * C[r * N + c]);
        }
    ex("c.bin", O, sizeof O);
}
static void case_dmatmul_gemv(void)
{
    enum { R = 30, C = 77 };
    static double A[R * C], x[C], y[R];
    seed(148);
    for (int i = 0; i < R * C; i++) A[i] = rndd(-3, 3);
    for (int i = 0; i < C; i++) x[i] = rndd(-3, 3);
    in("a.bin", A, sizeof A);
    in("x.bin", x, sizeof x);
    for (int r = 0; r < R; r++) {
        double s[32];
        for (int l = 0; l < 32; l++) {
            s[l] = 0.0;
            for (int k = l; k < C; k += 32)
                s[l] = fma(A[r * C + k], x[k], s[l]);
        }
        for (int o = 16; o > 0; o >>= 1) {
            double ns[32];
            for (int l = 0; l < 32; l++)
                ns[l] = s[l] + (l + o < 32 ? s[l + o] : s[l]);
            memcpy(s, ns, sizeof s);
        }
        y[r] = s[0];
    }
    ex("y.bin", y, sizeof y);
}

/* ---- memops.cu ----------------------------------------------------------------------------- */
struct Big { int a[12]; double d[3]; char tag[8]; };
static void case_memops(void)
{
    enum { N = 40 };
    static struct Big in_[N], out[N];
    static uint8_t bytes[160], bout[N * 48];
    static int32_t iout[N];
    seed(149);
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 12; k++) in_[i].a[k] = rndi(-1000, 1000);
        for (int k = 0; k < 3; k++) in_[i].d[k] = rndd(-5, 5);
        for (int k = 0; k < 8; k++) in_[i].tag[k] = (char)('a' + rndi(0, 25));
    }
    for (int i = 0; i < 160; i++) bytes[i] = (uint8_t)rnd32();
    in("in.bin", in_, sizeof in_);
    in("bytes.bin", bytes, sizeof bytes);
    for (int i = 0; i < N; i++) {
        struct Big b = in_[i], c = b;
        for (int k = 0; k < 12; k++) c.a[k] = b.a[(k + i) % 12] - k;
        c.d[i % 3] *= -2.0;
        c.tag[i % 8] = 'X';
        out[i] = c;
        uint8_t local[48];
        memset(local, i & 0xff, sizeof local);
        int off = i % 13, len = 5 + i % 30;
        memcpy(local + off, bytes + i * 3, (size_t)len);
        memcpy(bout + i * 48, local, 48);
        struct { short s; int v; } ring[8];
        for (int k = 0; k < 8; k++) { ring[k].s = (short)(k * i); ring[k].v = b.a[k]; }
        int head = i % 8, sum = 0;
        for (int k = 0; k < 20; k++) {
            int j = (head + k * 3) % 8;
            sum += ring[j].s * ring[j].v;
            ring[j].v ^= k;
        }
        iout[i] = sum;
    }
    ex("out.bin", out, sizeof out);
    ex("bout.bin", bout, sizeof bout);
    ex("iout.bin", iout, sizeof iout);
}

static const struct ref_case cases[] = {
    { "templreduce-sum", case_templreduce_sum }, { "templreduce-op", case_templreduce_op },
    { "functors", case_functors },               { "virtual-shapes", case_virtual_shapes },
    { "virtual-fnptr", case_virtual_fnptr },     { "vm-run", case_vm_run },
    { "vm-classify", case_vm_classify },         { "vectypes-float", case_vectypes_float },
    { "vectypes-pixels", case_vectypes_pixels }, { "vectypes-int", case_vectypes_int },
    { "unions", case_unions },
    { "atomics64", case_atomics64 },             { "coopgroups-tiles", case_coopgroups_tiles },
    { "coopgroups-coalesced", case_coopgroups_coalesced },
    { "warpagg-compact", case_warpagg_compact }, { "warpagg-sleepy", case_warpagg_sleepy },
    { "printf2", case_printf2 },                 { "devmalloc", case_devmalloc },
    { "recursive", case_recursive },             { "simdvideo", case_simdvideo },
    { "int128", case_int128 },
    { "dround", case_dround },                   { "fround", case_fround },
    { "convert", case_convert },                 { "intdiv", case_intdiv },
    { "half2", case_half2 },                     { "bf16", case_bf16 },
    { "halo2d-box", case_halo2d_box },           { "halo2d-transpose", case_halo2d_transpose },
    { "constparams", case_constparams },         { "gridstride", case_gridstride },
    { "heat3d-heat", case_heat3d_heat },         { "heat3d-box27", case_heat3d_box27 },
    { "warpscan-block", case_warpscan_block },   { "warpscan-float", case_warpscan_float },
    { "bitonic", case_bitonic },                 { "histwarp", case_histwarp },
    { "csr", case_csr },                         { "strings", case_strings },
    { "hashtable", case_hashtable },
    { "approx-funcs", case_approx_funcs },       { "approx-nbody", case_approx_nbody },
    { "mandel-float", case_mandel_float },       { "mandel-julia", case_mandel_julia },
    { "cubblock-scan", case_cubblock_scan },     { "cubblock-sort", case_cubblock_sort },
    { "libcuxx", case_libcuxx },                 { "syncred", case_syncred },
    { "cluster", case_cluster },                 { "shfl64", case_shfl64 },
    { "dmatmul-gemm", case_dmatmul_gemm },       { "dmatmul-gemv", case_dmatmul_gemv },
    { "memops", case_memops },
};

/* ---- tolerance comparison ------------------------------------------------------------------ */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    unsigned char *p = malloc(cap);
    size_t k;
    while (p && (k = fread(p + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap)
            p = realloc(p, cap *= 2);
    }
    fclose(f);
    *n = len;
    return p;
}

static int cmp_tol(const char *spec, const char *want, const char *got)
{
    char ty[8];
    double ulps, abstol;
    if (sscanf(spec, "%7s %lf %lf", ty, &ulps, &abstol) != 3 || (strcmp(ty, "f32") && strcmp(ty, "f64"))) {
        printf("bad tolerance spec '%s'\n", spec);
        return 2;
    }
    size_t nw, ng;
    unsigned char *w = slurp(want, &nw), *g = slurp(got, &ng);
    if (!w || !g || nw != ng) {
        printf("sizes differ or unreadable\n");
        return 1;
    }
    int is32 = ty[1] == '3';
    size_t sz = is32 ? 4 : 8, bad = 0;
    for (size_t i = 0; i < nw / sz; i++) {
        double a, b;
        if (is32) {
            float fa, fb;
            memcpy(&fa, w + 4 * i, 4);
            memcpy(&fb, g + 4 * i, 4);
            a = fa, b = fb;
        } else {
            memcpy(&a, w + 8 * i, 8);
            memcpy(&b, g + 8 * i, 8);
        }
        if (isnan(a) && isnan(b))
            continue;
        if (a == b)
            continue;
        double ulp = is32 ? (double)(nextafterf((float)fabs(a), INFINITY) - (float)fabs(a))
                          : nextafter(fabs(a), INFINITY) - fabs(a);
        double lim = ulps * ulp > abstol ? ulps * ulp : abstol;
        if (!(fabs(a - b) <= lim)) {
            if (bad++ == 0)
                printf("element %zu: want %.9g got %.9g (limit %.3g)\n", i, a, b, lim);
        }
    }
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--cmp-tol") == 0)
        return cmp_tol(argv[2], argv[3], argv[4]);
    return ref_main(argc, argv, cases, (int)(sizeof cases / sizeof cases[0]), "corpus_refs",
                    "corpus_refs NAME DIR | corpus_refs list | corpus_refs --cmp-tol SPEC WANT GOT");
}
