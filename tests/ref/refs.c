/* refs.c - reference results for the end-to-end tests (tests/e2e.sh).
 *
 *   refs NAME DIR   write the inputs of case NAME into DIR/ and the bytes the GPU writes
 *                   into DIR/exp/ (one file per buffer the case script dumps; printf text in
 *                   DIR/exp/stdout, lines whose order across blocks is unspecified in
 *                   DIR/exp/stdout.unordered)
 *   refs list       print the case names
 *
 * Every case re-computes its kernel's arithmetic on the CPU in the order the kernel does it
 * (reduction trees, fma where the kernel asks for one, the rounding mode of each intrinsic),
 * so the expected bytes are exact. Inputs come from a fixed-seed generator. Build with
 *   cc -std=c11 -O2 -ffp-contract=off -frounding-math refs.c -lm
 * (no fast-math: every float operation must round as IEEE 754 says).
 */
#include "ref_common.h"

/* ---- reduce.cu ----------------------------------------------------------------------------- */
static void case_reduce_i32(void)
{
    enum { N = 2000, G = 4, B = 256 };
    static int32_t a[N];
    seed(1);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-1000000, 1000000);
    in("in.bin", a, sizeof a);
    int32_t out[G];
    for (int b = 0; b < G; b++) {
        uint32_t s[B];
        for (int t = 0; t < B; t++) {
            uint32_t acc = 0;
            for (int i = b * B + t; i < N; i += B * G)
                acc += (uint32_t)a[i];
            s[t] = acc;
        }
        for (int st = B / 2; st > 0; st >>= 1)
            for (int t = 0; t < st; t++)
                s[t] += s[t + st];
        out[b] = (int32_t)s[0];
    }
    ex("out.bin", out, sizeof out);
}

static void case_reduce_f32(void)
{
    enum { N = 2000, G = 3, B = 256 };
    static float a[N];
    seed(2);
    for (int i = 0; i < N; i++)
        a[i] = rndf(-10, 10);
    in("in.bin", a, sizeof a);
    float out[G];
    for (int b = 0; b < G; b++) {
        float s[B];
        for (int t = 0; t < B; t++) {
            float acc = 0.0f;
            for (int i = b * B + t; i < N; i += B * G)
                acc += a[i];
            s[t] = acc;
        }
        for (int st = B / 2; st > 0; st >>= 1)
            for (int t = 0; t < st; t++)
                s[t] += s[t + st];
        out[b] = s[0];
    }
    ex("out.bin", out, sizeof out);
}

static void case_reduce_argmax(void)
{
    enum { N = 3000, G = 4, B = 256 };
    static int32_t a[N];
    seed(3);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-5000, 5000);
    in("in.bin", a, sizeof a);
    int32_t ov[G], oi[G];
    for (int b = 0; b < G; b++) {
        int32_t sv[B], si[B];
        for (int t = 0; t < B; t++) {
            int32_t best = INT32_MIN, besti = -1;
            for (int i = b * B + t; i < N; i += B * G)
                if (a[i] > best) { best = a[i]; besti = i; }
            sv[t] = best;
            si[t] = besti;
        }
        for (int st = B / 2; st > 0; st >>= 1)
            for (int t = 0; t < st; t++) {
                int32_t v2 = sv[t + st], i2 = si[t + st];
                if (v2 > sv[t] || (v2 == sv[t] && i2 >= 0 && (si[t] < 0 || i2 < si[t]))) {
                    sv[t] = v2;
                    si[t] = i2;
                }
            }
        ov[b] = sv[0];
        oi[b] = si[0];
    }
    ex("val.bin", ov, sizeof ov);
    ex("idx.bin", oi, sizeof oi);
}

/* ---- scan.cu ------------------------------------------------------------------------------- */
static void case_scan_inclusive(void)
{
    enum { N = 1024, B = 256 };
    static int32_t a[N], o[N];
    int32_t sums[N / B];
    seed(4);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-100, 100);
    in("in.bin", a, sizeof a);
    for (int b = 0; b < N / B; b++) {
        int32_t s = 0;
        for (int t = 0; t < B; t++)
            o[b * B + t] = s += a[b * B + t];
        sums[b] = s;
    }
    ex("out.bin", o, sizeof o);
    ex("sums.bin", sums, sizeof sums);
}

static void case_scan_exclusive(void)
{
    enum { N = 1024, B = 256 };
    static uint32_t a[N], o[N];
    seed(5);
    for (int i = 0; i < N; i++)
        a[i] = rnd32();
    in("in.bin", a, sizeof a);
    for (int b = 0; b < N / B; b++) {
        uint32_t s = 0;       /* addition mod 2^32 is associative: any tree gives this */
        for (int t = 0; t < B; t++) {
            o[b * B + t] = s;
            s += a[b * B + t];
        }
    }
    ex("out.bin", o, sizeof o);
}

/* ---- matmul.cu ----------------------------------------------------------------------------- */
static void case_matmul_f32(void)
{
    enum { M = 40, N = 24, K = 36, T = 16 };
    static float A[M * K], Bm[K * N], C[M * N];
    seed(6);
    for (int i = 0; i < M * K; i++)
        A[i] = rndf(-4, 1);
    for (int i = 0; i < K * N; i++)
        Bm[i] = rndf(-4, 1);
    in("a.bin", A, sizeof A);
    in("b.bin", Bm, sizeof Bm);
    for (int row = 0; row < M; row++)
        for (int col = 0; col < N; col++) {
            float sum = 0.0f;
            for (int t = 0; t < (K + T - 1) / T; t++)
                for (int k = 0; k < T; k++) {
                    int kk = t * T + k;
                    float av = kk < K ? A[row * K + kk] : 0.0f;
                    float bv = kk < K ? Bm[kk * N + col] : 0.0f;
                    sum = fmaf(av, bv, sum);
                }
            C[row * N + col] = sum;
        }
    ex("c.bin", C, sizeof C);
}

static void case_matmul_i32(void)
{
    enum { M = 20, N = 33, K = 50 };
    static int32_t A[M * K], Bm[K * N], C[M * N];
    seed(7);
    for (int i = 0; i < M * K; i++)
        A[i] = (int32_t)rnd32();
    for (int i = 0; i < K * N; i++)
        Bm[i] = (int32_t)rnd32();
    in("a.bin", A, sizeof A);
    in("b.bin", Bm, sizeof Bm);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            uint32_t s = 0;
            for (int k = 0; k < K; k++)
                s += (uint32_t)A[r * K + k] * (uint32_t)Bm[k * N + c];
            C[r * N + c] = (int32_t)s;
        }
    ex("c.bin", C, sizeof C);
}

/* ---- histogram.cu -------------------------------------------------------------------------- */
static void case_histogram(void)
{
    enum { N = 4096 };
    static uint8_t d[N];
    uint32_t h[256] = { 0 };
    seed(8);
    for (int i = 0; i < N; i++) {
        uint32_t r = rnd32();
        d[i] = (uint8_t)((r & 3) == 0 ? (r >> 8) % 7 : (r >> 8));   /* skewed: many low bins */
        h[d[i]]++;
    }
    in("data.bin", d, sizeof d);
    ex("hist.bin", h, sizeof h);
}

static void case_histogram_mod(void)
{
    enum { N = 3000, G = 3, B = 96, NB = 50, LIMIT = 100000 };
    static uint32_t k[N];
    uint32_t h[NB] = { 0 }, over[G] = { 0 };
    seed(9);
    for (int i = 0; i < N; i++)
        k[i] = rnd32() % 110000u;
    in("keys.bin", k, sizeof k);
    for (int b = 0; b < G; b++)
        for (int t = 0; t < B; t++)
            for (int i = b * B + t; i < N; i += B * G) {
                if (k[i] >= LIMIT)
                    over[b]++;
                else
                    h[k[i] % NB]++;
            }
    ex("hist.bin", h, sizeof h);
    ex("over.bin", over, sizeof over);
}

/* ---- warp.cu ------------------------------------------------------------------------------- */
static void case_warp_ops(void)
{
    enum { N = 128, NOUT = 16 };
    static int32_t a[N], o[N * NOUT];
    seed(10);
    for (int i = 0; i < N; i++)
        a[i] = i < 32 ? rndi(0, 999) : rndi(-50, 999);
    in("in.bin", a, sizeof a);
    for (int w = 0; w < N / 32; w++) {
        const int32_t *v = a + w * 32;
        int32_t sum[32], sc[32];
        uint32_t mx[32];
        for (int l = 0; l < 32; l++) {
            sum[l] = v[l];
            mx[l] = (uint32_t)v[l];
            sc[l] = v[l];
        }
        for (int off = 16; off > 0; off >>= 1) {
            int32_t nw[32];
            for (int l = 0; l < 32; l++)
                nw[l] = (int32_t)((uint32_t)sum[l] + (uint32_t)(l + off <= 31 ? sum[l + off] : sum[l]));
            memcpy(sum, nw, sizeof nw);
        }
        for (int m = 1; m < 32; m <<= 1) {
            uint32_t nw[32];
            for (int l = 0; l < 32; l++)
                nw[l] = mx[l] > mx[l ^ m] ? mx[l] : mx[l ^ m];
            memcpy(mx, nw, sizeof nw);
        }
        for (int off = 1; off < 32; off <<= 1) {
            int32_t nw[32];
            for (int l = 0; l < 32; l++)
                nw[l] = l >= off ? sc[l] + sc[l - off] : sc[l];
            memcpy(sc, nw, sizeof nw);
        }
        uint32_t ballot = 0, any = 0, all = 1, radd = 0, ror = 0;
        int32_t rmin = INT32_MAX;
        for (int l = 0; l < 32; l++) {
            if (v[l] & 1)
                ballot |= 1u << l;
            if (v[l] > 900)
                any = 1;
            if (!(v[l] >= 0))
                all = 0;
            radd += (uint32_t)(v[l] & 0xff);
            if (v[l] < rmin)
                rmin = v[l];
            ror |= (uint32_t)v[l];
        }
        for (int l = 0; l < 32; l++) {
            int32_t *q = o + (w * 32 + l) * NOUT;
            q[0] = v[0];
            q[1] = v[(l * 7 + 3) & 31];
            q[2] = v[(l & ~7) | ((l + 1) & 7)];
            q[3] = l >= 3 ? v[l - 3] : v[l];
            q[4] = (l & 15) + 5 <= 15 ? v[l + 5] : v[l];
            q[5] = v[l ^ 6];
            q[6] = sum[l];
            q[7] = (int32_t)mx[l];
            q[8] = (int32_t)ballot;
            q[9] = (int32_t)any;
            q[10] = (int32_t)all;
            q[11] = (int32_t)radd;
            q[12] = rmin;
            q[13] = (int32_t)ror;
            uint32_t mm = 0;
            for (int j = 0; j < 32; j++)
                if (v[j] % 5 == v[l] % 5)
                    mm |= 1u << j;
            q[14] = (int32_t)mm;
            q[15] = sc[l];
        }
    }
    ex("out.bin", o, sizeof o);
}

static void case_warp_divvotes(void)
{
    enum { N = 128 };
    static int32_t a[N];
    static uint32_t o[N];
    seed(11);
    for (int i = 0; i < N; i++)
        a[i] = rndi(0, 1199);
    in("in.bin", a, sizeof a);
    for (int w = 0; w < N / 32; w++) {
        const int32_t *v = a + w * 32;
        uint32_t blo = 0, bhi = 0;
        int allhi = 1;
        for (int l = 0; l < 32; l++) {
            if (l < 20 && (v[l] & 2))
                blo |= 1u << l;
            if (l >= 20 && (v[l] & 4))
                bhi |= 1u << l;
            if (l >= 20 && !(v[l] < 1000))
                allhi = 0;
        }
        for (int l = 0; l < 32; l++) {
            uint32_t r;
            if (l < 20)
                r = blo ^ ((uint32_t)v[19 - l] << 20);
            else
                r = (bhi | 1u) + (allhi ? 0x100u : 0u);
            o[w * 32 + l] = r;
        }
    }
    ex("out.bin", o, sizeof o);
}

/* ---- recursion.cu -------------------------------------------------------------------------- */
static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static uint64_t fact(uint32_t n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int ack(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

static void case_recursion(void)
{
    enum { N = 64 };
    static int32_t a[N], acks[N], sorted[N * 12];
    static uint32_t fibs[N];
    static uint64_t facts[N];
    seed(12);
    for (int i = 0; i < N; i++)
        a[i] = rndi(0, 999);
    in("in.bin", a, sizeof a);
    for (int t = 0; t < N; t++) {
        fibs[t] = fib((uint32_t)a[t] % 15u);
        facts[t] = fact((uint32_t)t % 21u);
        acks[t] = ack(t % 3, t % 4);
        int v[12];
        for (int k = 0; k < 12; k++)
            v[k] = a[(t * 5 + k * 7) % 64] ^ (k * 37);
        qsort(v, 12, sizeof v[0], cmp_int);
        memcpy(sorted + t * 12, v, sizeof v);
    }
    ex("fibs.bin", fibs, sizeof fibs);
    ex("facts.bin", facts, sizeof facts);
    ex("acks.bin", acks, sizeof acks);
    ex("sorted.bin", sorted, sizeof sorted);
}

/* ---- localarr.cu --------------------------------------------------------------------------- */
static void case_local_sort(void)
{
    enum { T = 64, K = 16 };
    static int32_t a[T * K], o[T * K], med[T];
    seed(13);
    for (int i = 0; i < T * K; i++)
        a[i] = rndi(-100000, 100000);
    in("in.bin", a, sizeof a);
    for (int t = 0; t < T; t++) {
        memcpy(o + t * K, a + t * K, K * sizeof(int32_t));
        qsort(o + t * K, K, sizeof(int32_t), cmp_int);
        med[t] = o[t * K + (a[t * K] & 7) + 4];
    }
    ex("out.bin", o, sizeof o);
    ex("median.bin", med, sizeof med);
}

static void case_local_nibbles(void)
{
    enum { N = 40, T = 64 };
    static uint32_t a[N], o[T];
    seed(14);
    for (int i = 0; i < N; i++)
        a[i] = rnd32();
    in("in.bin", a, sizeof a);
    for (int t = 0; t < T; t++) {
        uint32_t cnt[16] = { 0 };
        uint8_t perm[16];
        for (int i = 0; i < 16; i++)
            perm[i] = (uint8_t)((i * 7 + t) & 15);
        for (int i = 0; i < N; i++) {
            uint32_t w = a[(t + i) % N];
            for (int s = 0; s < 32; s += 4)
                cnt[(w >> s) & 15]++;
        }
        uint32_t pos = a[t % N] & 15, acc = 0;
        for (int step = 0; step < 16; step++) {
            acc = acc * 31 + cnt[pos];
            pos = perm[pos];
        }
        o[t] = acc;
    }
    ex("out.bin", o, sizeof o);
}

/* ---- structs.cu ---------------------------------------------------------------------------- */
typedef struct { int32_t x, y, z; } vec3;
typedef struct { vec3 pos, vel; uint8_t tag; double mass; int16_t flags[3]; } body;

static void case_structs(void)
{
    enum { T = 64 };
    static int32_t a[T], pos[T * 3], hi[T];
    static double mass[T];
    static int64_t lo[T];
    seed(15);
    for (int i = 0; i < T; i++)
        a[i] = rndi(-1000, 1000);
    in("in.bin", a, sizeof a);
    for (int t = 0; t < T; t++) {
        body b;
        b.pos.x = a[t]; b.pos.y = a[t] * 3 - 7; b.pos.z = -a[t];
        b.vel.x = t; b.vel.y = -t; b.vel.z = t * t;
        b.tag = (uint8_t)(t * 13);
        b.mass = (double)a[t] * 0.25;
        b.flags[0] = (int16_t)t; b.flags[1] = (int16_t)(t * 100); b.flags[2] = (int16_t)-t;
        vec3 acc = { 1, -2, t & 3 };
        for (int i = 0; i < 3; i++) {
            int dt = i + 1;
            b.vel.x += acc.x * dt; b.vel.y += acc.y * dt; b.vel.z += acc.z * dt;
            b.pos.x += b.vel.x * dt; b.pos.y += b.vel.y * dt; b.pos.z += b.vel.z * dt;
            b.tag = (uint8_t)(b.tag + 1);
            b.mass = b.mass * 0.5 + 1.0;      /* exact: fused or not gives the same */
            b.flags[b.tag % 3] = (int16_t)(b.flags[b.tag % 3] ^ 0x5a5a);
        }
        lo[t] = (int64_t)b.pos.x * b.pos.y - (int64_t)b.vel.z * 1000003;
        hi[t] = b.tag + b.flags[0] + b.flags[1] + b.flags[2] + (int)b.mass;
        pos[t * 3] = b.pos.x; pos[t * 3 + 1] = b.pos.y; pos[t * 3 + 2] = b.pos.z;
        mass[t] = b.mass;
    }
    ex("pos.bin", pos, sizeof pos);
    ex("mass.bin", mass, sizeof mass);
    ex("lo.bin", lo, sizeof lo);
    ex("hi.bin", hi, sizeof hi);
}

/* ---- grid2d.cu ----------------------------------------------------------------------------- */
static void case_transpose(void)
{
    enum { W = 50, H = 37 };
    static uint32_t o[W * H];
    /* input: `= iota`, in[i] = i */
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++)
            o[c * H + r] = (uint32_t)(r * W + c);
    ex("out.bin", o, sizeof o);
}

static void case_blur(void)
{
    enum { W = 45, H = 30 };
    static uint8_t img[W * H], o[W * H];
    seed(16);
    for (int i = 0; i < W * H; i++)
        img[i] = (uint8_t)rnd32();
    in("img.bin", img, sizeof img);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int sum = 0;
            for (int dy = -1; dy <= 1; dy++) {
                int yy = y + dy < 0 ? 0 : (y + dy > H - 1 ? H - 1 : y + dy);
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx < 0 ? 0 : (x + dx > W - 1 ? W - 1 : x + dx);
                    sum += img[yy * W + xx] * ((dx == 0 && dy == 0) ? 4 : 1);
                }
            }
            o[y * W + x] = (uint8_t)((sum + 6) / 12);
        }
    ex("out.bin", o, sizeof o);
}

/* ---- grid3d.cu ----------------------------------------------------------------------------- */
static void case_ids3d(void)
{
    enum { BX = 4, BY = 2, BZ = 3, GX = 2, GY = 3, GZ = 2 };
    enum { W = GX * BX, H = GY * BY, D = GZ * BZ };
    static uint32_t o[W * H * D];
    for (uint32_t bz = 0; bz < GZ; bz++)
        for (uint32_t by = 0; by < GY; by++)
            for (uint32_t bx = 0; bx < GX; bx++)
                for (uint32_t tz = 0; tz < BZ; tz++)
                    for (uint32_t ty = 0; ty < BY; ty++)
                        for (uint32_t tx = 0; tx < BX; tx++) {
                            uint32_t x = bx * BX + tx, y = by * BY + ty, z = bz * BZ + tz;
                            o[(z * H + y) * W + x] = (bz << 28) | (by << 24) | (bx << 20) |
                                                     (tz << 16) | (ty << 8) | (tx << 4) |
                                                     ((BX * BY * BZ) & 15);
                        }
    ex("out.bin", o, sizeof o);
}

static void case_stencil7(void)
{
    enum { NX = 10, NY = 7, NZ = 5 };
    static int32_t a[NX * NY * NZ], o[NX * NY * NZ];
    seed(17);
    for (int i = 0; i < NX * NY * NZ; i++)
        a[i] = rndi(-50000, 50000);
    in("in.bin", a, sizeof a);
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                int i = (z * NY + y) * NX + x, c = a[i], s = 6 * c;
                s -= x > 0 ? a[i - 1] : c;
                s -= x < NX - 1 ? a[i + 1] : c;
                s -= y > 0 ? a[i - NX] : c;
                s -= y < NY - 1 ? a[i + NX] : c;
                s -= z > 0 ? a[i - NX * NY] : c;
                s -= z < NZ - 1 ? a[i + NX * NY] : c;
                o[i] = s;
            }
    ex("out.bin", o, sizeof o);
}

/* ---- dynshared.cu -------------------------------------------------------------------------- */
static void case_reverse(void)
{
    enum { N = 256, B = 64 };
    static int32_t o[N];
    /* input: `= iota` */
    for (int b = 0; b < N / B; b++)
        for (int t = 0; t < B; t++)
            o[b * B + t] = b * B + (B - 1 - t);
    ex("out.bin", o, sizeof o);
}

static void case_carve(void)
{
    enum { N = 192, B = 96 };
    static int32_t a[N];
    static double d[N];
    static int16_t s[N];
    seed(18);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-10000, 10000);
    in("in.bin", a, sizeof a);
    for (int b = 0; b < N / B; b++)
        for (int t = 0; t < B; t++) {
            int g = b * B + t;
            d[g] = (double)a[b * B + (t + 1) % B] * 0.5 + (double)a[g] * 0.5;
            int16_t hp = (int16_t)(a[b * B + (t + B - 1) % B] * 3), ht = (int16_t)(a[g] * 3);
            s[g] = (int16_t)(hp - ht);
        }
    ex("dout.bin", d, sizeof d);
    ex("sout.bin", s, sizeof s);
}

/* ---- constmem.cu --------------------------------------------------------------------------- */
static void case_crc32(void)
{
    enum { T = 16, CHUNK = 37 };
    static uint8_t d[T * CHUNK];
    uint32_t crc[T];
    seed(19);
    for (int i = 0; i < T * CHUNK; i++)
        d[i] = (uint8_t)rnd32();
    in("data.bin", d, sizeof d);
    for (int t = 0; t < T; t++) {   /* bitwise CRC-32, independent of the kernel's table */
        uint32_t c = 0xffffffffu;
        for (int i = 0; i < CHUNK; i++) {
            c ^= d[t * CHUNK + i];
            for (int k = 0; k < 8; k++)
                c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        }
        crc[t] = ~c;
    }
    ex("crc.bin", crc, sizeof crc);
}

static void case_conv1d(void)
{
    enum { N = 300 };
    static const int filt[9] = { 1, -3, 7, 12, 20, 12, 7, -3, 1 };
    static int32_t a[N], o[N];
    seed(20);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-10000, 10000);
    in("in.bin", a, sizeof a);
    for (int i = 0; i < N; i++) {
        int acc = 0;
        for (int k = -4; k <= 4; k++) {
            int j = i + k;
            j = j < 0 ? -j : (j >= N ? 2 * N - 2 - j : j);
            acc += filt[k + 4] * a[j];
        }
        o[i] = acc >> 4;   /* arithmetic shift, as shr.s32 */
    }
    ex("out.bin", o, sizeof o);
}

/* ---- printf.cu ----------------------------------------------------------------------------- */
/* the buffers are initialised by the script with these literals */
static const int32_t pf_vals[8] = { 5, 1, -1, 42, -123, 99999, 7, -2147483647 };
static const float pf_f[7] = { 3.14159f, -2.5e-3f, 1234567.0f, 0.0626f, -17.125f, 6.02e23f, 1e-7f };
static const double pf_d[6] = { 2.718281828459045, -1234567890123.0, 2.75, 0.07, 123456.789, 1e100 };

static void case_printf_formats(void)
{
    const char *o = "stdout";
    for (int t = 0; t < 8; t++) {
        int v = pf_vals[t];
        ex_text(o, "thread %d of block %d: val=%d hex=%x u=%u\n", t, 0, v, (unsigned)v, (unsigned)v);
    }
    for (int t = 0; t < 8; t++) {
        int v = pf_vals[t];
        ex_text(o, "  [%5d] [%-5d] [%05d] [%+d] [%X]\n", v, v, v, t, (unsigned)v * 2654435761u);
    }
    ex_text(o, "f=%f e=%e g=%g\n", (double)pf_f[0], (double)pf_f[1], (double)pf_f[2]);
    ex_text(o, "%.3f|%10.4f|%-12.2e|%G|%.10g\n", (double)pf_f[3], (double)pf_f[4],
            (double)pf_f[5], (double)pf_f[6], pf_d[0]);
    ex_text(o, "s=%s c=%c%c %%done [%8s] [%-6s]\n", "text", 'O', 'K', "right", "left");
    ex_text(o, "%ld %lu %lld %llx %#x %o %#o\n", (long)pf_vals[0] * -1000000007L,
            (unsigned long)4000000000u, (long long)pf_d[1], 0xfedcba9876543210ull, 255u, 8u, 8u);
    ex_text(o, "%.0f %.1f %8.3e %g %g %g\n", pf_d[2], pf_d[3], pf_d[4], pf_d[5], 1e-5, 1e20);
    ex_text(o, "%5.1f%% of %d threads\n", 100.0 * 8 / 8, 8);
}

static void case_printf_blocks(void)
{
    /* vals = iota; <<<3, 2>>>: the order between blocks is unspecified */
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 2; t++) {
            int g = b * 2 + t;
            ex_text("stdout.unordered", "[blk %d thr %d] value %d squared %d\n", b, t, g, g * g);
        }
}

/* ---- assert.cu ----------------------------------------------------------------------------- */
static void case_assert_ok(void)
{
    enum { N = 100 };
    int32_t o[N];
    for (int i = 0; i < N; i++)   /* in = iota */
        o[i] = i * 2 + 1;
    ex("out.bin", o, sizeof o);
}

/* ---- intbits.cu ---------------------------------------------------------------------------- */
static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (x & (1u << i))
            r |= 1u << (31 - i);
    return r;
}
static uint64_t brev64(uint64_t x) { return ((uint64_t)brev32((uint32_t)x) << 32) | brev32((uint32_t)(x >> 32)); }
static int clz32(uint32_t x) { int n = 0; while (n < 32 && !(x & (0x80000000u >> n))) n++; return n; }
static int clz64(uint64_t x) { int n = 0; while (n < 64 && !(x & (0x8000000000000000ull >> n))) n++; return n; }
static int popc64(uint64_t x) { int n = 0; for (; x; x &= x - 1) n++; return n; }
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t v = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int n = 0; n < 4; n++) {
        uint32_t sel = (s >> (4 * n)) & 7;
        r |= (uint32_t)((v >> (8 * sel)) & 0xff) << (8 * n);
    }
    return r;
}
static uint32_t sext24(uint32_t x) { return (x & 0x800000u) ? (x | 0xff000000u) : (x & 0xffffffu); }
/* signed >> implemented explicitly (arithmetic) */
static int32_t sra32(int32_t x, int s) { return x < 0 ? ~(~x >> s) : x >> s; }
static int64_t sra64(int64_t x, int s) { return x < 0 ? ~(~x >> s) : x >> s; }

static void case_intbits(void)
{
    enum { N = 96, NOUT = 32 };
    static uint32_t A[N], B[N], O[N * NOUT];
    static const uint32_t edge[][2] = {
        { 0, 0 }, { 1, 1 }, { 0xffffffffu, 0xffffffffu }, { 0x80000000u, 0x7fffffffu },
        { 0x7fffffffu, 0x80000000u }, { 0x80000000u, 0xffffffffu }, { 12345, 0xfffff800u },
        { 0xdeadbeefu, 0xcafebabeu }, { 100, 3 }, { 0xfffffff9u, 7 }, { 1000000, 0x800001u },
        { 0x00ffffffu, 0x00800000u }, { 31, 32 }, { 33, 63 }, { 0x12345678u, 0x9abcdef0u },
        { 0xffff0000u, 0x0000ffffu },
    };
    int ne = (int)(sizeof edge / sizeof edge[0]);
    seed(21);
    for (int i = 0; i < N; i++) {
        if (i < ne) {
            A[i] = edge[i][0];
            B[i] = edge[i][1];
        } else {
            A[i] = rnd32();
            B[i] = rnd32();
            if (i % 5 == 0) A[i] >>= (B[i] & 31);
            if (i % 7 == 0) B[i] = (uint32_t)-(int32_t)(B[i] & 0xfff);
        }
    }
    in("a.bin", A, sizeof A);
    in("b.bin", B, sizeof B);
    for (int i = 0; i < N; i++) {
        uint32_t a = A[i], b = B[i];
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        int32_t sd = (int32_t)((b & 0x7ffu) + 2u);
        if (sb < 0)
            sd = -sd;
        uint32_t ud = (b >> 7) | 1u;
        uint32_t *o = O + i * NOUT;
        o[0] = (uint32_t)(sa / sd);
        o[1] = (uint32_t)(sa % sd);
        o[2] = a / ud;
        o[3] = a % ud;
        o[4] = a / 10u;
        o[5] = (uint32_t)(sa / 7);
        o[6] = (uint32_t)(sa % -13);
        o[7] = a % 1000u;
        o[8] = (uint32_t)popc64(a);
        o[9] = (uint32_t)clz32(a);
        o[10] = a ? (uint32_t)(32 - clz32(a & -a)) : 0;   /* __ffs */
        o[11] = brev32(a);
        o[12] = byte_perm(a, b, 0x7531u);
        o[13] = byte_perm(a, b, b & 0x7777u);
        uint64_t hl = ((uint64_t)b << 32) | a;
        o[14] = (uint32_t)((hl << (b & 31)) >> 32);
        o[15] = (uint32_t)(hl >> (a & 31));
        uint32_t lc = (b & 63u) > 32 ? 32 : (b & 63u), rc = (a & 63u) > 32 ? 32 : (a & 63u);
        o[16] = (uint32_t)((lc == 32 ? hl << 32 : hl << lc) >> 32);
        o[17] = (uint32_t)(rc == 32 ? hl >> 32 : hl >> rc);
        o[18] = (uint32_t)((int64_t)(int32_t)sext24(a) * (int64_t)(int32_t)sext24(b));
        o[19] = (a & 0xffffffu) * (b & 0xffffffu);
        o[20] = (uint32_t)(((uint64_t)a * b) >> 32);
        o[21] = (uint32_t)(uint64_t)sra64((int64_t)sa * sb, 32);
        o[22] = (uint32_t)(sa > sb ? (int64_t)sa - sb : (int64_t)sb - sa) + 12345u;
        o[23] = (a > b ? a - b : b - a) + 1u;
        uint64_t x = ((uint64_t)a << 32) | b;
        uint64_t y = x * 0x9e3779b97f4a7c15ull;
        o[24] = (uint32_t)popc64(x);
        o[25] = (uint32_t)clz64(x >> (a & 31));
        o[26] = (uint32_t)(brev64(x) >> 16);
        o[27] = (uint32_t)((uint64_t)(((u128)x * y) >> 64) >> 7);
        o[28] = (uint32_t)(y >> (b & 63));
        o[29] = (uint32_t)(uint64_t)sra64((int64_t)y, (int)(a & 63));
        o[30] = (uint32_t)sra32(sa, (int)(b & 31)) ^ (a << (a & 31));
        o[31] = (a & ~b) | (~a & b & 0x0f0f0f0fu) | (a ^ b ^ (a | b));
    }
    ex("out.bin", O, sizeof O);
}

/* ---- floatmath.cu -------------------------------------------------------------------------- */
/* cvt.{rni,rzi,rmi,rpi}.s32.f32: round, then saturate; NaN gives 0 */
static uint32_t f2i_sat(double r)
{
    if (r != r)
        return 0;
    if (r >= 2147483647.0)
        return 0x7fffffffu;
    if (r <= -2147483648.0)
        return 0x80000000u;
    return (uint32_t)(int32_t)r;
}
static uint32_t f2u_sat(double r)
{
    if (r != r || r <= 0)
        return 0;
    if (r >= 4294967295.0)
        return 0xffffffffu;
    return (uint32_t)r;
}
static int64_t f2ll_sat(double r)   /* r already integral */
{
    if (r != r)
        return 0;
    if (r >= 9223372036854775808.0)
        return INT64_MAX;
    if (r < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)r;
}

static float fop(int mode, char op, float x, float y)
{
    volatile float a = x, b = y, r;
    fesetround(mode);
    switch (op) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    default:  r = a / b; break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

static void case_floatmath(void)
{
    enum { N = 80, NOUT = 24 };
    static float X[N], Y[N];
    static uint32_t O[N * NOUT];
    static const float edge[][2] = {
        { 1.5f, 2.0f }, { 2.5f, -0.5f }, { -2.5f, 3.0f }, { 0.5f, 0.75f }, { -0.5f, -1.5f },
        { 3.5f, 1e-3f }, { 1e30f, 3.0f }, { -1e30f, -7.25f }, { 2147483520.0f, 4294967040.0f },
        { -2147483648.0f, -1.0f }, { 1e-40f, 2.0f }, { -3e-39f, 1e-38f }, { 16777216.0f, 0.1f },
        { 0.1f, 0.2f }, { 0.33333334f, 3.0f }, { 100.49f, -100.5f }, { 7.0f, 0.0f },
        { -0.0f, 5.0f }, { 65504.0f, -65504.0f }, { 1e20f, 1e19f }, { 3.4e38f, 3.4e38f },
        { -3.4e38f, 3.4e38f }, { 1.0f, 1.0000001f }, { -1.0000001f, -1.0f }, { 4.5f, 5.5f },
        { -4.5f, -5.5f }, { 1.1754944e-38f, 0.5f }, { 8388608.5f, 8388609.0f },
        { 123456.7f, 3.1415927f }, { -6.5f, 4294967296.0f },
    };
    int ne = (int)(sizeof edge / sizeof edge[0]);
    seed(22);
    for (int i = 0; i < N; i++) {
        if (i < ne) {
            X[i] = edge[i][0];
            Y[i] = edge[i][1];
        } else {
            X[i] = rndf(-12, 24);
            Y[i] = rndf(-12, 24);
        }
    }
    in("x.bin", X, sizeof X);
    in("y.bin", Y, sizeof Y);
    for (int i = 0; i < N; i++) {
        float x = X[i], y = Y[i];
        uint32_t *o = O + i * NOUT;
        o[0] = f2u(fmaf(x, y, 1.0f));
        o[1] = f2u(fop(FE_TONEAREST, '+', fop(FE_TONEAREST, '*', x, y), x));
        o[2] = f2u(sqrtf(fabsf(x)));
        o[3] = f2u(fop(FE_TONEAREST, '/', x, y));
        o[4] = f2u(fop(FE_TONEAREST, '/', x, y == 0.0f ? 3.0f : y));
        o[5] = f2u(fminf(x, y));
        o[6] = f2u(fmaxf(x, y));
        o[7] = f2u(copysignf(x, y));
        o[8] = f2i_sat(rint((double)x));     /* default mode: ties to even */
        o[9] = f2i_sat(trunc((double)x));
        o[10] = f2i_sat(floor((double)x));
        o[11] = f2i_sat(ceil((double)x));
        o[12] = f2u_sat(rint((double)y));
        o[13] = f2u((float)sra32((int32_t)f2u(x), 3));
        {
            volatile int32_t iv = sra32((int32_t)f2u(y), 1);
            fesetround(FE_TOWARDZERO);
            volatile float fv = (float)iv;
            fesetround(FE_TONEAREST);
            o[14] = f2u(fv);
        }
        o[15] = f2u(fop(FE_TOWARDZERO, '+', x, y));
        o[16] = f2u(fop(FE_DOWNWARD, '*', x, y));
        o[17] = f2u(fop(FE_UPWARD, '-', x, y));
        o[18] = f2u(fop(FE_TONEAREST, '/', 1.0f, y));
        o[19] = f2u(sqrtf(fmaf(x, x, 2.0f)));
        o[20] = f2u(fop(FE_TONEAREST, '+', truncf(x), floorf(y)));
        o[21] = f2u(fop(FE_TONEAREST, '-', ceilf(x), rintf(y)));
        o[22] = f2u((float)f2ll_sat(trunc((double)fop(FE_TONEAREST, '*', x, 1024.0f))));
        o[23] = fabsf(fop(FE_TONEAREST, '-', x, y)) < 1.0f ? f2u(-x) : 0x7f7fffffu;
    }
    ex("out.bin", O, sizeof O);
}

/* ---- dblmath.cu ---------------------------------------------------------------------------- */
static void case_ddot(void)
{
    enum { N = 1500, G = 3, B = 128 };
    static double a[N], b[N];
    double part[G];
    seed(23);
    for (int i = 0; i < N; i++) {
        a[i] = rndd(-8, 8);
        b[i] = rndd(-8, 8);
    }
    in("a.bin", a, sizeof a);
    in("b.bin", b, sizeof b);
    for (int g = 0; g < G; g++) {
        double s[B];
        for (int t = 0; t < B; t++) {
            double acc = 0.0;
            for (int i = g * B + t; i < N; i += B * G)
                acc = fma(a[i], b[i], acc);
            s[t] = acc;
        }
        for (int st = B / 2; st > 0; st >>= 1)
            for (int t = 0; t < st; t++)
                s[t] = s[t] + s[t + st];
        part[g] = s[0];
    }
    ex("partial.bin", part, sizeof part);
}

static double dop(char op, double x, double y)
{
    volatile double a = x, b = y, r;
    switch (op) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    default:  r = a / b; break;
    }
    return r;
}

static void case_dmisc(void)
{
    enum { N = 48 };
    static double A[N], Bv[N];
    static uint64_t O[N * 8];
    static const double edge[][2] = {
        { 2.0, 3.0 }, { -1.0, 7.0 }, { 0.5, -0.25 }, { 1e300, 1e-300 }, { -1e-310, 3.0 },
        { 2.5e-3, -2.5e-3 }, { 123456789.123, 0.001 }, { 0.1, 0.3 }, { 9.5e6, -9.5e6 },
        { 1.0000000000000002, 0.9999999999999999 }, { -3.4e38, 3.5e38 }, { 4.25, -4.75 },
    };
    int ne = (int)(sizeof edge / sizeof edge[0]);
    seed(24);
    for (int i = 0; i < N; i++) {
        if (i < ne) {
            A[i] = edge[i][0];
            Bv[i] = edge[i][1];
        } else {
            A[i] = rndd(-30, 30);
            Bv[i] = rndd(-30, 30);
        }
    }
    in("a.bin", A, sizeof A);
    in("b.bin", Bv, sizeof Bv);
    for (int i = 0; i < N; i++) {
        double x = A[i], y = Bv[i];
        uint64_t *o = O + i * 8;
        o[0] = d2u(sqrt(fabs(x)));
        o[1] = d2u(dop('/', x, y));
        o[2] = d2u(dop('+', dop('*', x, y), -x));
        o[3] = (uint64_t)f2ll_sat(rint(dop('*', x, 1000.0)));
        o[4] = (uint64_t)f2ll_sat(trunc(dop('*', y, 1000.0)));
        volatile double vy = y;
        fesetround(FE_TOWARDZERO);
        volatile float fz = (float)vy;
        fesetround(FE_TONEAREST);
        o[5] = f2u((float)x) | ((uint64_t)f2u(fz) << 32);
        o[6] = d2u(dop('-', (double)(float)x, x));
        o[7] = d2u((double)f2ll_sat(trunc(dop('*', x, 1e12))));
    }
    ex("out.bin", O, sizeof O);
}

/* ---- halfmath.cu --------------------------------------------------------------------------- */
static int h_lt(uint16_t x, uint16_t y) { return h2f(x) < h2f(y); }

static void case_halfmath(void)
{
    enum { N = 64, NOUT = 12 };
    static float X[N], Y[N];
    static uint16_t O[N * NOUT];
    static const float edge[][2] = {
        { 1.0f, 2.0f }, { 1.0f, 0.0004882812f }, { 0.33333334f, 3.0f }, { -2.75f, 1.25f },
        { 70000.0f, 2.0f }, { 65519.0f, 1.0f }, { 65520.0f, 0.5f }, { 1e-6f, 3e-7f },
        { -6.1e-5f, 6.1e-5f }, { 2049.0f, 2051.0f }, { 1000.1f, -999.9f }, { 3.1415927f, 2.7182817f },
        { -0.0f, 1.5f }, { 0.0f, -1.5f }, { 5.96e-8f, -5.96e-8f }, { 300.0f, 218.25f },
    };
    int ne = (int)(sizeof edge / sizeof edge[0]);
    seed(25);
    for (int i = 0; i < N; i++) {
        if (i < ne) {
            X[i] = edge[i][0];
            Y[i] = edge[i][1];
        } else {
            X[i] = rndf(-10, 7);
            Y[i] = rndf(-10, 7);
        }
    }
    in("x.bin", X, sizeof X);
    in("y.bin", Y, sizeof Y);
    for (int i = 0; i < N; i++) {
        uint16_t a = f2h(X[i], 0), b = f2h(Y[i], 0);
        uint16_t c = f2h(fop(FE_TONEAREST, '*', X[i], 0.25f), 1);
        uint16_t *o = O + i * NOUT;
        o[0] = a;
        o[1] = h_add(a, b);
        o[2] = h_sub(a, b);
        o[3] = h_mul(a, b);
        o[4] = h_fma(a, b, c);
        o[5] = h_lt(a, b) ? a : b;
        {   /* max.f16: the larger; neither input is NaN and they never are zeros of both signs */
            float fa = h2f(a), fc = h2f(c);
            o[6] = fa > fc ? a : (fc > fa ? c : ((a & 0x8000) ? c : a));
        }
        {
            float fb = h2f(b);
            o[7] = (uint16_t)(uint32_t)(int32_t)truncf(fb);
        }
        o[8] = h_fma(a, c, h_add(a, c));
        o[9] = h_fma(b, a, h_add(b, a));
        o[10] = f2h(fop(FE_TONEAREST, '+', h2f(a), h2f(b)), 0);
        o[11] = f2h((float)(i - 100) / 16.0f, 0);
    }
    ex("out.bin", O, sizeof O);
}

/* ---- collatz.cu ---------------------------------------------------------------------------- */
static void case_collatz(void)
{
    enum { N = 200 };
    static uint64_t start[N], peak[N];
    static uint32_t steps[N];
    seed(26);
    for (int i = 0; i < N; i++) {
        if (i < 150)
            start[i] = (uint64_t)i + 1;
        else if (i < 170)
            start[i] = (1ull << 40) + (uint64_t)(i - 150) * 977;
        else
            start[i] = (rnd64() >> 24) | 1;   /* < 2^40 */
    }
    start[7] = 27;       /* a famously long orbit */
    start[8] = 837799;
    in("start.bin", start, sizeof start);
    for (int i = 0; i < N; i++) {
        uint64_t x = start[i], top = x;
        uint32_t s = 0;
        while (x != 1 && s < 10000) {
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            if (x > top)
                top = x;
            s++;
        }
        steps[i] = s;
        peak[i] = top;
    }
    ex("steps.bin", steps, sizeof steps);
    ex("peak.bin", peak, sizeof peak);
}

static void case_int64ops(void)
{
    enum { N = 64 };
    static uint64_t A[N], B[N], O[N * 8];
    static const uint64_t edge[][2] = {
        { 0, 0 }, { 1, 1 }, { ~0ull, ~0ull }, { 0x8000000000000000ull, 3 },
        { 0x7fffffffffffffffull, 0xfffffffffffffff0ull }, { 1000000007ull * 998244353ull, 1000000007ull },
        { 0xdeadbeefcafebabeull, 0x123456789ull }, { 12, 18 },
    };
    int ne = (int)(sizeof edge / sizeof edge[0]);
    seed(27);
    for (int i = 0; i < N; i++) {
        if (i < ne) {
            A[i] = edge[i][0];
            B[i] = edge[i][1];
        } else {
            A[i] = rnd64();
            B[i] = rnd64() >> (rnd32() % 60);
        }
    }
    in("a.bin", A, sizeof A);
    in("b.bin", B, sizeof B);
    for (int i = 0; i < N; i++) {
        uint64_t a = A[i], b = B[i] | 1;
        int64_t sa = (int64_t)A[i], sb = (int64_t)(B[i] >> 3) + 5;
        uint64_t *o = O + i * 8;
        o[0] = a * b;
        o[1] = (uint64_t)(((u128)a * b) >> 64);
        o[2] = a / b;
        o[3] = a % b;
        o[4] = (uint64_t)(sa / sb);
        o[5] = (uint64_t)(sa % sb);
        uint64_t g1 = a, g2 = b;
        while (g2) {
            uint64_t t = g1 % g2;
            g1 = g2;
            g2 = t;
        }
        o[6] = g1;
        uint64_t mh = (uint64_t)(((u128)((i128)sa * sb)) >> 64);
        o[7] = mh + (a >> (b & 63)) + (uint64_t)sra64(sa, (int)(a & 63));
    }
    ex("out.bin", O, sizeof O);
}

/* ---- divergence.cu ------------------------------------------------------------------------- */
static int digit_sum(uint32_t v)
{
    int s = 0;
    while (v) {
        s += (int)(v % 10);
        v /= 10;
    }
    return s;
}

static void case_divergent(void)
{
    enum { N = 256, B = 128 };
    static int32_t a[N], o[N];
    seed(28);
    for (int i = 0; i < N; i++)
        a[i] = rndi(0, 99999);
    in("in.bin", a, sizeof a);
    for (int g = 0; g < N; g++) {
        int tid = g % B, v = a[g], r = 0;
        if (v % 11 == 0) {
            o[g] = -1;
            continue;
        }
        switch (tid % 8) {
        case 0:
            for (int k = 0; k < (v & 15); k++)
                r += k * v;
            break;
        case 1:
            r = digit_sum((uint32_t)v * 2654435761u);
            break;
        case 2:
            for (int k = 0; k < 40; k++) {
                if ((v + k) % 3 == 0)
                    continue;
                r += k;
                if (r > v)
                    break;
            }
            break;
        case 3:
            r = v;
            while (r > 1)
                r = (r & 1) ? r - 1 : r / 2;
            r += 100;
            break;
        case 4:
        case 5:
            r = (v & 1) ? ((v & 2) ? v * 3 : v * 5) : -v;
            break;
        default:
            r = tid * 1000 + digit_sum((uint32_t)v);
            break;
        }
        o[g] = r;
    }
    ex("out.bin", o, sizeof o);
}

static void case_diverge_sync(void)
{
    enum { N = 256, B = 128 };
    static int32_t a[N], o[N];
    seed(29);
    for (int i = 0; i < N; i++)
        a[i] = rndi(-1000, 1000);
    in("in.bin", a, sizeof a);
    for (int b = 0; b < N / B; b++) {
        int s[B];
        for (int t = 0; t < B; t++) {
            int v = a[b * B + t], acc = 0;
            for (int k = 0; k < (v & 31); k++)
                acc += (k ^ v) & 7;
            s[t] = acc;
        }
        for (int t = 0; t < B; t++)
            o[b * B + t] = s[(t + 37) % B] - s[t];
    }
    ex("out.bin", o, sizeof o);
}

/* ---- atomics.cu ---------------------------------------------------------------------------- */
static void case_atomics(void)
{
    enum { N = 256 };
    static int32_t a[N], seen[N], slots[N], olds[N];
    int32_t acc[16] = { 0, 0, INT32_MAX, INT32_MIN, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    uint64_t acc64[5] = { 0, 0, 0, ~0ull, 0 };
    seed(30);
    for (int i = 0; i < N; i++)
        a[i] = rndi(0, 999);
    in("in.bin", a, sizeof a);
    uint32_t inc = 0, dec = 0;
    float fsum = 0.0f;
    for (int t = 0; t < N; t++) {
        int v = a[t];
        acc[0] += v;
        acc[1] -= v * 3;
        if (v - 500 < acc[2]) acc[2] = v - 500;
        if (v * 7 - 1000 > acc[3]) acc[3] = v * 7 - 1000;
        uint32_t h = (uint32_t)v * 2654435761u;
        if (h < (uint32_t)acc[4]) acc[4] = (int32_t)h;
        if (h > (uint32_t)acc[5]) acc[5] = (int32_t)h;
        acc[6] &= (int32_t)~(1u << (v & 31));
        acc[7] |= (int32_t)(1u << (v % 29));
        acc[8] ^= (int32_t)((uint32_t)v * 0x01010101u);
        inc = inc >= 17 ? 0 : inc + 1;
        dec = (dec == 0 || dec > 23) ? 23 : dec - 1;
        acc[11] += v & 0xff;
        fsum += (float)(v & 63);
        acc[14] += v;
        acc[15] += 2;
        acc64[0] += (uint64_t)v << 33;
        if ((uint64_t)v * 0x100000001ull > acc64[1]) acc64[1] = (uint64_t)v * 0x100000001ull;
        if (-(int64_t)v * 1000000007LL < (int64_t)acc64[2]) acc64[2] = (uint64_t)(-(int64_t)v * 1000000007LL);
        acc64[3] &= ~(1ull << (v & 63));
        seen[t] = t + 1;         /* tickets are a permutation of 0..N-1 */
        slots[t] = v * 5;
        olds[t] = t;             /* slots = iota */
    }
    acc[9] = (int32_t)inc;
    acc[10] = (int32_t)dec;
    acc[12] = N;
    acc[13] = (int32_t)f2u(fsum);
    acc64[4] = 1;
    ex("acc.bin", acc, sizeof acc);
    ex("acc64.bin", acc64, sizeof acc64);
    ex("seen.bin", seen, sizeof seen);
    ex("slots.bin", slots, sizeof slots);
    ex("olds.bin", olds, sizeof olds);
}

/* ---- examples/saxpy.cu --------------------------------------------------------------------- */
static void case_saxpy(void)
{
    enum { N = 1000 };
    static float y[N];
    /* x = iota, y = fill 1, a = 2: every value is exact, fused or not */
    for (int i = 0; i < N; i++)
        y[i] = 2.0f * (float)i + 1.0f;
    ex("y.bin", y, sizeof y);
}

/* ---- dispatch ------------------------------------------------------------------------------ */
static const struct ref_case cases[] = {
    { "reduce-i32", case_reduce_i32 },       { "reduce-f32", case_reduce_f32 },
    { "reduce-argmax", case_reduce_argmax }, { "scan-inclusive", case_scan_inclusive },
    { "scan-exclusive", case_scan_exclusive }, { "matmul-f32", case_matmul_f32 },
    { "matmul-i32", case_matmul_i32 },       { "histogram", case_histogram },
    { "histogram-mod", case_histogram_mod }, { "warp-ops", case_warp_ops },
    { "warp-divvotes", case_warp_divvotes }, { "recursion", case_recursion },
    { "localarr-sort", case_local_sort },    { "localarr-nibbles", case_local_nibbles },
    { "structs", case_structs },             { "grid2d-transpose", case_transpose },
    { "grid2d-blur", case_blur },            { "grid3d-ids", case_ids3d },
    { "grid3d-stencil", case_stencil7 },     { "dynshared-reverse", case_reverse },
    { "dynshared-carve", case_carve },       { "constmem-crc32", case_crc32 },
    { "constmem-conv1d", case_conv1d },      { "printf-formats", case_printf_formats },
    { "printf-blocks", case_printf_blocks }, { "assert-ok", case_assert_ok },
    { "intbits", case_intbits },             { "floatmath", case_floatmath },
    { "dblmath-ddot", case_ddot },           { "dblmath-misc", case_dmisc },
    { "halfmath", case_halfmath },           { "collatz", case_collatz },
    { "collatz-int64ops", case_int64ops },   { "divergence", case_divergent },
    { "divergence-sync", case_diverge_sync }, { "atomics", case_atomics },
    { "saxpy", case_saxpy },                 { "saxpy-demangled", case_saxpy },
};

int main(int argc, char **argv)
{
    return ref_main(argc, argv, cases, (int)(sizeof cases / sizeof cases[0]), "refs",
                    "refs NAME DIR | refs list");
}
