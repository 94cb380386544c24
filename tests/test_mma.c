/* test_mma.c - warp matrix instructions (wmma, mma.sync, ldmatrix/stmatrix/movmatrix) against a C reference. */
#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Expected values come from a reference matrix product written here, in the precision the
 * core documents (exec_mma.c): products of .f16/.bf16/.tf32 inputs exact, summed in double in
 * k order, C added, rounded once to the destination; .f64 an fma chain in k order; integers
 * exact. mma fragments are built and read back with the layout formulas of the PTX ISA
 * ("Matrix Fragments for mma.mMnNkK"), written out per shape below.
 * ------------------------------------------------------------------------------------------- */

#define FIX "tests/fixtures/mma/"
#include "core_harness.h"

/* Launch kernel k with one warp; args are 64-bit values stored at the kernel's parameter
 * offsets (sizes 4 or 8 as declared). Returns the stop. */
static exec_stop t_run_warp(T *t, const char *k, const uint64_t *args, int nargs)
{
    t_launch_args(t, k, 1, 32, args, nargs);
    return t_run_steps(t, 10000000);
}

static void t_done(const exec_stop *st)
{
    ck_assert_msg(st->kind == EXEC_STOP_DONE, "stop %d exc %d: %s", st->kind, st->exc, st->msg);
}

/* ---- numbers ------------------------------------------------------------------------------- */
static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static double f16_val(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* double -> f16, round to nearest even (finite inputs within range). */
static uint16_t f16_enc(double x)
{
    uint16_t s = x < 0 || (x == 0 && signbit(x)) ? 0x8000 : 0;
    x = fabs(x);
    if (x == 0)
        return s;
    int e;
    frexp(x, &e);               /* x = f * 2^e, f in [0.5, 1) */
    int ex = e - 1;             /* x in [2^ex, 2^(ex+1)) */
    if (ex < -14)
        ex = -14;
    double q = nearbyint(ldexp(x, 10 - ex));
    if (q >= 2048) {
        q /= 2;
        ex++;
    }
    if (ex > 15)
        return s | 0x7c00;
    if (q < 1024)
        return (uint16_t)(s | (uint16_t)q);   /* subnormal */
    return (uint16_t)(s | ((ex + 15) << 10) | ((uint16_t)q - 1024));
}

static double bf16_val(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static uint16_t rnd_f16(void)
{
    return (uint16_t)(((rnd() & 1) << 15) | ((10 + rnd() % 11) << 10) | (rnd() & 1023));
}
static uint16_t rnd_bf16(void)
{
    return (uint16_t)(((rnd() & 1) << 15) | ((120 + rnd() % 15) << 7) | (rnd() & 127));
}
static float rnd_f32(void)
{
    return u2f(((rnd() & 1) << 31) | ((120 + rnd() % 12) << 23) | (rnd() & 0x7fffff));
}

/* ---- the reference product ----------------------------------------------------------------
 * A: M x K, B: K x N, C: M x N as doubles (fp) or int64 (integer); kind 0 fp, 1 f64 fma chain,
 * 2 integer multiply, 3 xor-popc, 4 and-popc. */
static void ref_fp(int M, int N, int K, const double *A, const double *B, const double *C,
                   double *D, int fmachain)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s;
            if (fmachain) {
                s = C[i * N + j];
                for (int k = 0; k < K; k++)
                    s = fma(A[i * K + k], B[k * N + j], s);
            } else {
                s = 0;
                for (int k = 0; k < K; k++)
                    s += A[i * K + k] * B[k * N + j];
                s += C[i * N + j];
            }
            D[i * N + j] = s;
        }
}

static void ref_int(int M, int N, int K, const int64_t *A, const int64_t *B, const int64_t *C,
                    int64_t *D, int op)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int64_t s = C[i * N + j];
            for (int k = 0; k < K; k++) {
                int64_t a = A[i * K + k], b = B[k * N + j];
                s += op == 3 ? (a ^ b) : op == 4 ? (a & b) : a * b;
            }
            D[i * N + j] = s;
        }
}

/* Index of element (r, c) in memory with the given layout (0 row, 1 col) and stride. */
static size_t at(int r, int c, int col, int ld)
{
    return col ? (size_t)c * (size_t)ld + (size_t)r : (size_t)r * (size_t)ld + (size_t)c;
}

/* ---- wmma through the nvcc fixtures ---------------------------------------------------------- */
enum { E_F16, E_BF16, E_F32, E_F64, E_S8, E_U8, E_S32 };

typedef struct {
    const char *kernel;
    int M, N, K;
    int ab, acc;            /* element kinds */
    int la, lb, lc;         /* layouts: 0 row, 1 col */
    int lda, ldb, ldc;
} wcase;

static int esize(int e)
{
    switch (e) {
    case E_F16: case E_BF16: return 2;
    case E_S8: case E_U8: return 1;
    case E_F64: return 8;
    default: return 4;
    }
}

/* Run one wmma fixture kernel mac<M,N,K>(a, b, c, d, lda, ldb, ldc) with random data. */
static void run_wcase(const char *ptx, const wcase *w)
{
    T t;
    t_load_file(&t, ptx);
    int M = w->M, N = w->N, K = w->K;
    size_t na = (size_t)w->lda * (size_t)(w->la ? K : M), nb = (size_t)w->ldb * (size_t)(w->lb ? N : K);
    size_t nc = (size_t)w->ldc * (size_t)(w->lc ? N : M);
    int sa = esize(w->ab), sc = esize(w->acc);
    uint8_t *ma = calloc(na, (size_t)sa), *mb = calloc(nb, (size_t)sa);
    uint8_t *mc = calloc(nc, (size_t)sc), *md = calloc(nc, (size_t)sc);
    double *A = calloc((size_t)(M * K), 8), *B = calloc((size_t)(K * N), 8);
    double *C = calloc((size_t)(M * N), 8), *D = calloc((size_t)(M * N), 8);
    int64_t *Ai = calloc((size_t)(M * K), 8), *Bi = calloc((size_t)(K * N), 8);
    int64_t *Ci = calloc((size_t)(M * N), 8), *Di = calloc((size_t)(M * N), 8);
    /* fill every slot (padding too) so strides that are wrong read wrong values */
    for (size_t i = 0; i < na * (size_t)sa; i++)
        ma[i] = (uint8_t)rnd();
    for (size_t i = 0; i < nb * (size_t)sa; i++)
        mb[i] = (uint8_t)rnd();
    for (int pass = 0; pass < 2; pass++) {
        int rows = pass ? K : M, cols = pass ? N : K, lay = pass ? w->lb : w->la;
        int ld = pass ? w->ldb : w->lda;
        uint8_t *mem = pass ? mb : ma;
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                size_t ix = at(r, c, lay, ld);
                double *fv = pass ? &B[r * N + c] : &A[r * K + c];
                int64_t *iv = pass ? &Bi[r * N + c] : &Ai[r * K + c];
                switch (w->ab) {
                case E_F16: { uint16_t h = rnd_f16(); memcpy(mem + ix * 2, &h, 2); *fv = f16_val(h); break; }
                case E_BF16: { uint16_t h = rnd_bf16(); memcpy(mem + ix * 2, &h, 2); *fv = bf16_val(h); break; }
                case E_F64: { double v = (double)rnd_f32() * (1.0 + ldexp(rnd(), -50)); memcpy(mem + ix * 8, &v, 8); *fv = v; break; }
                case E_S8: { int8_t v = (int8_t)rnd(); mem[ix] = (uint8_t)v; *iv = v; break; }
                default: { uint8_t v = (uint8_t)rnd(); mem[ix] = v; *iv = v; break; }
                }
            }
    }
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            size_t ix = at(r, c, w->lc, w->ldc);
            switch (w->acc) {
            case E_F16: { uint16_t h = rnd_f16(); memcpy(mc + ix * 2, &h, 2); C[r * N + c] = f16_val(h); break; }
            case E_F32: { float v = rnd_f32(); memcpy(mc + ix * 4, &v, 4); C[r * N + c] = v; break; }
            case E_F64: { double v = (double)rnd_f32(); memcpy(mc + ix * 8, &v, 8); C[r * N + c] = v; break; }
            default: { int32_t v = (int32_t)(rnd() % 200001) - 100000; memcpy(mc + ix * 4, &v, 4); Ci[r * N + c] = v; break; }
            }
        }
    uint64_t da = t_buf_init(&t, ma, na * (size_t)sa), db = t_buf_init(&t, mb, nb * (size_t)sa);
    uint64_t dc = t_buf_init(&t, mc, nc * (size_t)sc), dd = t_buf(&t, nc * (size_t)sc);
    uint64_t args[7] = { da, db, dc, dd, (uint64_t)w->lda, (uint64_t)w->ldb, (uint64_t)w->ldc };
    exec_stop st = t_run_warp(&t, w->kernel, args, 7);
    t_done(&st);
    t_read(&t, dd, md, nc * (size_t)sc);
    if (w->acc == E_S32)
        ref_int(M, N, K, Ai, Bi, Ci, Di, 2);
    else
        ref_fp(M, N, K, A, B, C, D, w->ab == E_F64);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            size_t ix = at(r, c, w->lc, w->ldc);
            switch (w->acc) {
            case E_F16: {
                uint16_t got, want = f16_enc(D[r * N + c]);
                memcpy(&got, md + ix * 2, 2);
                ck_assert_msg(got == want, "%s D[%d][%d] = %04x, want %04x", w->kernel, r, c, got, want);
                break;
            }
            case E_F32: {
                uint32_t got, want = f2u((float)D[r * N + c]);
                memcpy(&got, md + ix * 4, 4);
                ck_assert_msg(got == want, "%s D[%d][%d] = %.9g, want %.9g", w->kernel, r, c,
                              (double)u2f(got), (double)u2f(want));
                break;
            }
            case E_F64: {
                double got;
                memcpy(&got, md + ix * 8, 8);
                ck_assert_msg(memcmp(&got, &D[r * N + c], 8) == 0, "%s D[%d][%d] = %.17g, want %.17g",
                              w->kernel, r, c, got, D[r * N + c]);
                break;
            }
            default: {
                int32_t got;
                memcpy(&got, md + ix * 4, 4);
                ck_assert_msg(got == (int32_t)Di[r * N + c], "%s D[%d][%d] = %d, want %d", w->kernel,
                              r, c, got, (int)Di[r * N + c]);
                break;
            }
            }
            /* elements outside the matrix (stride padding) stay zero */
        }
    for (size_t i = 0; i < nc; i++) {
        int r = w->lc ? (int)(i % (size_t)w->ldc) : (int)(i / (size_t)w->ldc);
        int c = w->lc ? (int)(i / (size_t)w->ldc) : (int)(i % (size_t)w->ldc);
        if (r >= M || c >= N) {
            for (int b = 0; b < sc; b++)
                ck_assert_msg(md[i * (size_t)sc + (size_t)b] == 0, "%s wrote padding", w->kernel);
        }
    }
    free(ma); free(mb); free(mc); free(md);
    free(A); free(B); free(C); free(D);
    free(Ai); free(Bi); free(Ci); free(Di);
    t_free(&t);
}

static const wcase wcases[] = {
    { "f16_rc", 16, 16, 16, E_F16, E_F32, 0, 1, 0, 32, 48, 24 },
    { "f16_rc", 16, 16, 16, E_F16, E_F32, 0, 1, 0, 16, 16, 16 },
    { "f16_cr", 16, 16, 16, E_F16, E_F32, 1, 0, 1, 16, 32, 16 },
    { "f16_m32n8", 32, 8, 16, E_F16, E_F32, 0, 0, 0, 16, 16, 8 },
    { "f16h_m8n32", 8, 32, 16, E_F16, E_F16, 1, 1, 0, 16, 16, 32 },
    { "s8_rc", 16, 16, 16, E_S8, E_S32, 0, 1, 0, 32, 16, 24 },
    { "u8_m32n8", 32, 8, 16, E_U8, E_S32, 1, 0, 1, 32, 16, 32 },
    { "s8_m8n32", 8, 32, 16, E_S8, E_S32, 0, 0, 0, 16, 32, 32 },
    { "bf16_m32n8", 32, 8, 16, E_BF16, E_F32, 1, 0, 0, 32, 8, 8 },
    { "f64_m8n8k4", 8, 8, 4, E_F64, E_F64, 0, 1, 1, 4, 4, 8 },
};

static const char *const wfiles[] = { FIX "wmma.O3.ptx", FIX "wmma.G.ptx" };

START_TEST(test_wmma_fixture)
{
    for (size_t f = 0; f < 2; f++)
        run_wcase(wfiles[f], &wcases[_i]);
}
END_TEST

/* tf32: the kernel rounds its inputs with cvt.rna.tf32.f32 and starts from C = 0. */
static float tf32_rna(float x)
{
    uint32_t u = f2u(x);
    u = (u + 0x1000u) & 0xffffe000u;
    return u2f(u);
}

START_TEST(test_wmma_tf32)
{
    T t;
    t_load_file(&t, wfiles[_i]);
    float a[16 * 8], b[8 * 16], d[256];
    double A[128], B[128], C[256], D[256];
    for (int i = 0; i < 128; i++) {
        a[i] = rnd_f32();
        b[i] = rnd_f32();
    }
    for (int r = 0; r < 16; r++)
        for (int k = 0; k < 8; k++)
            A[r * 8 + k] = tf32_rna(a[r * 8 + k]);        /* row-major, lda 8 */
    for (int k = 0; k < 8; k++)
        for (int n = 0; n < 16; n++)
            B[k * 16 + n] = tf32_rna(b[n * 8 + k]);       /* col-major, ldb 8 */
    memset(C, 0, sizeof C);
    uint64_t args[3] = { t_buf_init(&t, a, sizeof a), t_buf_init(&t, b, sizeof b), t_buf(&t, sizeof d) };
    exec_stop st = t_run_warp(&t, "tf32_rc", args, 3);
    t_done(&st);
    t_read(&t, args[2], d, sizeof d);
    ref_fp(16, 16, 8, A, B, C, D, 0);
    for (int i = 0; i < 256; i++)
        ck_assert_msg(f2u(d[i]) == f2u((float)D[i]), "D[%d] = %.9g, want %.9g", i, (double)d[i], D[i]);
    t_free(&t);
}
END_TEST

/* s4/u4 (m8n8k32) and b1 (m8n8k128): A row-major, B column-major, packed from the low bits. */
static void put_bits(uint8_t *mem, size_t idx, int bits, uint32_t v)
{
    size_t bit = idx * (size_t)bits;
    unsigned sh = (unsigned)(bit % 8), mk = ((1u << bits) - 1) << sh;
    mem[bit / 8] = (uint8_t)((mem[bit / 8] & ~mk) | ((v << sh) & mk));
}

static void run_subbyte(const char *ptx, const char *kernel, int bits, int sign, int op, int ccol)
{
    T t;
    t_load_file(&t, ptx);
    int K = bits == 1 ? 128 : 32;
    uint8_t ma[8 * 128 / 8 * 4], mb[8 * 128 / 8 * 4];
    int32_t mc[64], md[64];
    int64_t A[8 * 128], B[128 * 8], C[64], D[64];
    memset(ma, 0, sizeof ma);
    memset(mb, 0, sizeof mb);
    for (int r = 0; r < 8; r++)
        for (int k = 0; k < K; k++) {
            uint32_t va = rnd() & ((1u << bits) - 1), vb = rnd() & ((1u << bits) - 1);
            put_bits(ma, (size_t)(r * K + k), bits, va);        /* A row-major, ld K */
            put_bits(mb, (size_t)(r * K + k), bits, vb);        /* B col-major: column r */
            A[r * K + k] = sign && (va & 8) ? (int64_t)va - 16 : va;
            B[k * 8 + r] = sign && (vb & 8) ? (int64_t)vb - 16 : vb;
        }
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            int32_t v = (int32_t)(rnd() % 2001) - 1000;
            mc[at(r, c, ccol, 8)] = v;
            C[r * 8 + c] = v;
        }
    size_t nbytes = (size_t)(8 * K * bits / 8);
    uint64_t args[4] = { t_buf_init(&t, ma, nbytes), t_buf_init(&t, mb, nbytes),
                         t_buf_init(&t, mc, sizeof mc), t_buf(&t, sizeof md) };
    exec_stop st = t_run_warp(&t, kernel, args, 4);
    t_done(&st);
    t_read(&t, args[3], md, sizeof md);
    ref_int(8, 8, K, A, B, C, D, op);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            ck_assert_msg(md[at(r, c, ccol, 8)] == (int32_t)D[r * 8 + c], "%s D[%d][%d] = %d, want %d",
                          kernel, r, c, md[at(r, c, ccol, 8)], (int)D[r * 8 + c]);
    t_free(&t);
}

START_TEST(test_wmma_subbyte)
{
    const char *f = wfiles[_i];
    run_subbyte(f, "s4_k32", 4, 1, 2, 0);
    run_subbyte(f, "u4_k32", 4, 0, 2, 1);
    run_subbyte(f, "b1_xor", 1, 0, 3, 0);
    run_subbyte(f, "b1_and", 1, 0, 4, 0);
}
END_TEST

/* Two k steps through shared memory, then relu(2 * acc) on the fragment elements. */
START_TEST(test_wmma_tiled)
{
    T t;
    t_load_file(&t, wfiles[_i]);
    uint16_t a[16 * 32], b[32 * 16];
    double A[16 * 32], B[32 * 16];
    float d[256];
    for (int i = 0; i < 512; i++) {
        a[i] = rnd_f16();
        b[i] = rnd_f16();
        A[i] = f16_val(a[i]);
        B[i] = f16_val(b[i]);
    }
    uint64_t args[3] = { t_buf_init(&t, a, sizeof a), t_buf_init(&t, b, sizeof b), t_buf(&t, sizeof d) };
    exec_stop st = t_run_warp(&t, "f16_tiled", args, 3);
    t_done(&st);
    t_read(&t, args[2], d, sizeof d);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double s = 0;
            for (int k = 0; k < 16; k++)
                s += A[i * 32 + k] * B[k * 16 + j];
            float acc = (float)(s + 0.0);
            s = 0;
            for (int k = 16; k < 32; k++)
                s += A[i * 32 + k] * B[k * 16 + j];
            acc = (float)(s + (double)acc);
            float want = fmaxf(2.0f * acc, 0.0f);
            ck_assert_msg(f2u(d[i * 16 + j]) == f2u(want), "D[%d][%d] = %.9g, want %.9g", i, j,
                          (double)d[i * 16 + j], (double)want);
        }
    t_free(&t);
}
END_TEST

/* ---- wmma faults --------------------------------------------------------------------------- */
static const char *k_wmma_diverged = HDR
    ".visible .entry k(.param .u64 pa)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [pa];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.ge.u32 %p1, %r1, 16;\n"
    " @%p1 bra DONE;\n"
    " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9}, [%rd1];\n"
    "DONE:\n"
    " ret;\n}\n";

START_TEST(test_wmma_diverged)
{
    T t;
    ck_assert_msg(t_load(&t, k_wmma_diverged) == 0, "%s", t.err);
    uint64_t args[1] = { t_buf(&t, 512) };
    exec_stop st = t_run_warp(&t, "k", args, 1);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_WARP_SYNC);
    t_free(&t);
}
END_TEST

static const char *k_wmma_oob = HDR
    ".visible .entry k(.param .u64 pa, .param .u64 pd)\n{\n"
    " .reg .f32 %f<9>; .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [pa];\n"
    " ld.param.u64 %rd2, [pd];\n"
    " wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1];\n"
    " wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd2], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 32;\n"
    " ret;\n}\n";

START_TEST(test_wmma_oob)
{
    T t;
    ck_assert_msg(t_load(&t, k_wmma_oob) == 0, "%s", t.err);
    /* the load fits (1024 bytes); the store's stride 32 needs 16 columns * 32 * 4 bytes */
    uint64_t args[2] = { t_buf(&t, 1024), t_buf(&t, 1024) };
    exec_stop st = t_run_warp(&t, "k", args, 2);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_OUT_OF_RANGE);
    ck_assert_int_eq(st.space, PTX_SPACE_GLOBAL);
    ck_assert(st.addr >= args[1] + 1024);
    t_free(&t);
}
END_TEST

/* load.c + store.d round trip: a row-major C comes back column-major (a transpose). */
START_TEST(test_wmma_transpose_copy)
{
    T t;
    ck_assert_msg(t_load(&t, k_wmma_oob) == 0, "%s", t.err);
    float in[256], out[16 * 32];
    for (int i = 0; i < 256; i++)
        in[i] = (float)i;
    uint64_t args[2] = { t_buf_init(&t, in, sizeof in), t_buf(&t, sizeof out) };
    exec_stop st = t_run_warp(&t, "k", args, 2);
    t_done(&st);
    t_read(&t, args[1], out, sizeof out);
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++)
            ck_assert(out[c * 32 + r] == in[r * 16 + c]);
    t_free(&t);
}
END_TEST

static const char *const bad_decode[][2] = {
    { " mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3}, {%r4, %r5}, {%f1, %f2, %f3, %f4};",
      "a: expected 4 registers, got 3" },
    { " mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r4, %r5}, {%f1, %f2, %f3, %f4};",
      "requires .row.col" },
    { " mma.sync.aligned.m16n8k16.row.col.f32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r4}, {%r1, %r2, %r3, %r4};",
      "bad accumulator types" },
    { " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4}, [%rd1];",
      "fragment: expected 8 registers" },
    { " wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%rd1}, [%rd1];",
      "operand 1: register %rd1 is 64 bits, instruction type .b32 needs 32" },
    { " wmma.load.b.sync.aligned.row.m8n8k32.global.s4 {%r1}, [%rd1];", "must be .row for A and .col for B" },
    { " wmma.load.a.sync.aligned.row.m16n8k16.global.f16 {%r1}, [%rd1];", "unsupported shape" },
    { " ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2}, [%r3];", "r: expected 4 registers, got 2" },
    { " mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r4, %r5}, {%f1, %f2, %f3, %f4}, %r1, 0;",
      "unsupported qualifier .sp" },
};

START_TEST(test_decode_errors)
{
    char src[2048];
    snprintf(src, sizeof src,
             HDR ".visible .entry k()\n{\n .reg .b32 %%r<8>; .reg .f32 %%f<8>; .reg .b64 %%rd<3>;\n%s\n ret;\n}\n",
             bad_decode[_i][0]);
    T t;
    ck_assert_int_ne(t_load(&t, src), 0);
    ck_assert_msg(strstr(t.err, bad_decode[_i][1]) != NULL, "error '%s' lacks '%s'", t.err,
                  bad_decode[_i][1]);
    ck_assert_msg(strstr(t.err, "t.ptx:7:") != NULL, "no position in '%s'", t.err);
    t_free(&t);
}
END_TEST

/* ---- mma.sync: fragments from the ISA's layout formulas -------------------------------------
 * A test case lists the instruction, per-lane register counts and widths, and a position
 * function giving (row, col) of element i of a lane for matrix 0 = A, 1 = B, 2 = C/D. */
typedef void (*posfn)(int which, int lane, int i, int *r, int *c);

/* m16n8k16 .f16/.bf16 */
static void pos_m16n8k16_h(int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane & 3;
    if (which == 0) {
        *r = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
        *c = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
    } else if (which == 1) {
        *r = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
        *c = g;
    } else {
        *r = i < 2 ? g : g + 8;
        *c = t * 2 + (i & 1);
    }
}
/* m16n8k8 .f16/.bf16 */
static void pos_m16n8k8_h(int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane & 3;
    if (which == 0) {
        *r = i < 2 ? g : g + 8;
        *c = t * 2 + (i & 1);
    } else if (which == 1) {
        *r = t * 2 + i;
        *c = g;
    } else {
        pos_m16n8k16_h(2, lane, i, r, c);
    }
}
/* m16n8k8 .tf32 */
static void pos_m16n8k8_tf32(int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane & 3;
    if (which == 0) {
        *r = (i == 0 || i == 2) ? g : g + 8;
        *c = i < 2 ? t : t + 4;
    } else if (which == 1) {
        *r = i == 0 ? t : t + 4;
        *c = g;
    } else {
        pos_m16n8k16_h(2, lane, i, r, c);
    }
}
/* m16n8k4 .tf32 */
static void pos_m16n8k4_tf32(int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane & 3;
    if (which == 0) {
        *r = i == 0 ? g : g + 8;
        *c = t;
    } else if (which == 1) {
        *r = t;
        *c = g;
    } else {
        pos_m16n8k16_h(2, lane, i, r, c);
    }
}
/* m8n8k4 .f64 */
static void pos_m8n8k4_f64(int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane & 3;
    if (which == 0) {
        *r = g;
        *c = t;
    } else if (which == 1) {
        *r = t;
        *c = g;
    } else {
        *r = g;
        *c = 2 * t + i;
    }
}
/* m16n8k16 .s8/.u8 */
static void pos_m16n8k16_i8(int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane & 3;
    if (which == 0) {
        *r = i < 4 ? g : g + 8;
        *c = t * 4 + (i & 3);
    } else if (which == 1) {
        *r = t * 4 + i;
        *c = g;
    } else {
        pos_m16n8k16_h(2, lane, i, r, c);
    }
}
/* m16n8k32 .s8/.u8 */
static void pos_m16n8k32_i8(int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane & 3;
    if (which == 0) {
        *r = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
        *c = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
    } else if (which == 1) {
        *r = t * 4 + (i & 3) + (i >= 4 ? 16 : 0);
        *c = g;
    } else {
        pos_m16n8k16_h(2, lane, i, r, c);
    }
}
/* m8n8k16 .s8/.u8, m8n8k32 .s4/.u4, m8n8k128 .b1: u elements per lane side by side */
static int pos_u;
static void pos_m8n8_int(int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane & 3;
    if (which == 0) {
        *r = g;
        *c = t * pos_u + i;
    } else if (which == 1) {
        *r = t * pos_u + i;
        *c = g;
    } else {
        *r = g;
        *c = t * 2 + i;
    }
}

enum { T_F16, T_BF16, T_TF32, T_F32, T_F64, T_E4M3, T_E5M2, T_S8, T_U8, T_S4, T_U4, T_B1, T_S32 };
static const int tbits[] = { 16, 16, 32, 32, 64, 8, 8, 8, 8, 4, 4, 1, 32 };

/* e4m3: bias 7, no infinity, S.1111.111 is NaN; e5m2: bias 15, IEEE-like. */
static double fp8_val(uint8_t b, int e5m2)
{
    int mb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    int e = (b & 0x7f) >> mb, m = b & ((1 << mb) - 1);
    double v = e == 0 ? ldexp(m, 1 - bias - mb) : ldexp(m + (1 << mb), e - bias - mb);
    return (b & 0x80) ? -v : v;
}

typedef struct {
    const char *insn;        /* the mma instruction after "mma.sync.aligned." */
    int M, N, K;
    int ta, tb, tc, td;
    posfn pos;
    int u;                   /* pos_u for pos_m8n8_int */
    int op;                  /* integer op for ref_int: 2 mul, 3 xor, 4 and */
    int satf;
} mcase;

static const mcase mcases[] = {
    { "m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, T_F16, T_F16, T_F32, T_F32, pos_m16n8k16_h, 0, 0, 0 },
    { "m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, T_F16, T_F16, T_F16, T_F16, pos_m16n8k16_h, 0, 0, 0 },
    { "m16n8k16.row.col.f32.f16.f16.f16", 16, 8, 16, T_F16, T_F16, T_F16, T_F32, pos_m16n8k16_h, 0, 0, 0 },
    { "m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, T_F16, T_F16, T_F32, T_F32, pos_m16n8k8_h, 0, 0, 0 },
    { "m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, T_BF16, T_BF16, T_F32, T_F32, pos_m16n8k16_h, 0, 0, 0 },
    { "m16n8k8.row.col.f32.bf16.bf16.f32", 16, 8, 8, T_BF16, T_BF16, T_F32, T_F32, pos_m16n8k8_h, 0, 0, 0 },
    { "m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, T_TF32, T_TF32, T_F32, T_F32, pos_m16n8k8_tf32, 0, 0, 0 },
    { "m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, 4, T_TF32, T_TF32, T_F32, T_F32, pos_m16n8k4_tf32, 0, 0, 0 },
    { "m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, pos_m8n8k4_f64, 0, 0, 0 },
    { "m8n8k4.row.col.rn.f64.f64.f64.f64", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, pos_m8n8k4_f64, 0, 0, 0 },
    { "m16n8k16.row.col.s32.s8.s8.s32", 16, 8, 16, T_S8, T_S8, T_S32, T_S32, pos_m16n8k16_i8, 0, 2, 0 },
    { "m16n8k16.row.col.s32.u8.s8.s32", 16, 8, 16, T_U8, T_S8, T_S32, T_S32, pos_m16n8k16_i8, 0, 2, 0 },
    { "m16n8k32.row.col.s32.u8.u8.s32", 16, 8, 32, T_U8, T_U8, T_S32, T_S32, pos_m16n8k32_i8, 0, 2, 0 },
    { "m16n8k32.row.col.satfinite.s32.s8.s8.s32", 16, 8, 32, T_S8, T_S8, T_S32, T_S32, pos_m16n8k32_i8, 0, 2, 1 },
    { "m16n8k32.row.col.f32.e4m3.e5m2.f32", 16, 8, 32, T_E4M3, T_E5M2, T_F32, T_F32, pos_m16n8k32_i8, 0, 0, 0 },
    { "m8n8k16.row.col.s32.s8.u8.s32", 8, 8, 16, T_S8, T_U8, T_S32, T_S32, pos_m8n8_int, 4, 2, 0 },
    { "m8n8k32.row.col.s32.s4.s4.s32", 8, 8, 32, T_S4, T_S4, T_S32, T_S32, pos_m8n8_int, 8, 2, 0 },
    { "m8n8k32.row.col.satfinite.s32.u4.u4.s32", 8, 8, 32, T_U4, T_U4, T_S32, T_S32, pos_m8n8_int, 8, 2, 1 },
    { "m8n8k128.row.col.s32.b1.b1.s32.xor.popc", 8, 8, 128, T_B1, T_B1, T_S32, T_S32, pos_m8n8_int, 32, 3, 0 },
    { "m8n8k128.row.col.s32.b1.b1.s32.and.popc", 8, 8, 128, T_B1, T_B1, T_S32, T_S32, pos_m8n8_int, 32, 4, 0 },
};

/* Kernel: each lane loads its fragment registers from a[lane * na ..] etc., runs the mma and
 * stores d to d[lane * nd ..]; registers are .b32, or .f64 for every operand when `wide`. */
static void mk_kernel(char *buf, size_t n, const char *insn, int na, int nb, int nc, int nd,
                      int wide)
{
    const char *rt = wide ? ".f64" : ".b32";
    int rb = wide ? 8 : 4;
    size_t k = (size_t)snprintf(buf, n,
        HDR ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
        " .reg %s %%a<%d>; .reg %s %%b<%d>; .reg %s %%c<%d>; .reg %s %%d<%d>;\n"
        " .reg .b32 %%t; .reg .b64 %%p<10>;\n"
        " mov.u32 %%t, %%tid.x;\n"
        " ld.param.u64 %%p1, [pa]; mul.wide.u32 %%p5, %%t, %d; add.s64 %%p1, %%p1, %%p5;\n"
        " ld.param.u64 %%p2, [pb]; mul.wide.u32 %%p5, %%t, %d; add.s64 %%p2, %%p2, %%p5;\n"
        " ld.param.u64 %%p3, [pc]; mul.wide.u32 %%p5, %%t, %d; add.s64 %%p3, %%p3, %%p5;\n"
        " ld.param.u64 %%p4, [pd]; mul.wide.u32 %%p5, %%t, %d; add.s64 %%p4, %%p4, %%p5;\n",
        rt, na, rt, nb, rt, nc, rt, nd, na * rb, nb * rb, nc * rb, nd * rb);
    for (int i = 0; i < na; i++)
        k += (size_t)snprintf(buf + k, n - k, " ld.global%s %%a%d, [%%p1+%d];\n", rt, i, i * rb);
    for (int i = 0; i < nb; i++)
        k += (size_t)snprintf(buf + k, n - k, " ld.global%s %%b%d, [%%p2+%d];\n", rt, i, i * rb);
    for (int i = 0; i < nc; i++)
        k += (size_t)snprintf(buf + k, n - k, " ld.global%s %%c%d, [%%p3+%d];\n", rt, i, i * rb);
    k += (size_t)snprintf(buf + k, n - k, " %s {", insn);
    for (int i = 0; i < nd; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%%d%d", i ? ", " : "", i);
    k += (size_t)snprintf(buf + k, n - k, "}, {");
    for (int i = 0; i < na; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%%a%d", i ? ", " : "", i);
    k += (size_t)snprintf(buf + k, n - k, "}, {");
    for (int i = 0; i < nb; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%%b%d", i ? ", " : "", i);
    k += (size_t)snprintf(buf + k, n - k, "}, {");
    for (int i = 0; i < nc; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%%c%d", i ? ", " : "", i);
    k += (size_t)snprintf(buf + k, n - k, "};\n");
    for (int i = 0; i < nd; i++)
        k += (size_t)snprintf(buf + k, n - k, " st.global%s [%%p4+%d], %%d%d;\n", rt, i * rb, i);
    snprintf(buf + k, n - k, " ret;\n}\n");
}

/* Random raw bits of a multiplicand element and its value. */
static uint64_t rnd_elem(int ty, double *fv, int64_t *iv, int satf)
{
    switch (ty) {
    case T_F16: { uint16_t h = rnd_f16(); *fv = f16_val(h); return h; }
    case T_BF16: { uint16_t h = rnd_bf16(); *fv = bf16_val(h); return h; }
    case T_TF32: { uint32_t u = f2u(rnd_f32()); *fv = u2f(u & 0xffffe000u); return u; }
    case T_F32: { float f = rnd_f32(); *fv = f; return f2u(f); }
    case T_F64: { double v = (double)rnd_f32() * (1.0 + ldexp(rnd(), -50)); *fv = v; uint64_t u; memcpy(&u, &v, 8); return u; }
    case T_E4M3: case T_E5M2: {
        /* finite encodings only (exponent field below all-ones for e5m2, not 0x7f for e4m3) */
        uint8_t b = (uint8_t)(rnd() & (ty == T_E5M2 ? 0xbb : 0xf7));
        *fv = fp8_val(b, ty == T_E5M2);
        return b;
    }
    case T_S8: { int8_t v = satf ? 127 : (int8_t)rnd(); *iv = v; return (uint8_t)v; }
    case T_U8: { uint8_t v = satf ? 255 : (uint8_t)rnd(); *iv = v; return v; }
    case T_S4: { uint32_t v = rnd() & 15; *iv = (v & 8) ? (int64_t)v - 16 : v; return v; }
    case T_U4: { uint32_t v = satf ? 15 : rnd() & 15; *iv = v; return v; }
    case T_B1: { uint32_t v = rnd() & 1; *iv = v; return v; }
    default: { int32_t v = (int32_t)(rnd() % 200001) - 100000; *iv = v; return (uint32_t)v; }
    }
}

/* Pack element i (bits wide) of a lane into a register array regs[lane * nregs + reg]. */
static void pack(uint64_t *regs, int nregs, int lane, int i, int bits, uint64_t v)
{
    int per = bits < 32 ? 32 / bits : 1;
    uint64_t *r = &regs[lane * nregs + i / per];
    int sh = (i % per) * bits;
    uint64_t mk = (bits >= 64 ? ~0ull : ((1ull << bits) - 1)) << sh;
    *r = (*r & ~mk) | ((v << sh) & mk);
}

static uint64_t unpack(const uint64_t *regs, int nregs, int lane, int i, int bits)
{
    int per = bits < 32 ? 32 / bits : 1;
    uint64_t v = regs[lane * nregs + i / per] >> ((i % per) * bits);
    return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

static int nregs_of(int rows, int cols, int bits)
{
    int per = bits < 32 ? 32 / bits : 1;
    return rows * cols / 32 / per;
}

static void run_mcase(const mcase *mc)
{
    int M = mc->M, N = mc->N, K = mc->K;
    pos_u = mc->u;
    int na = nregs_of(M, K, tbits[mc->ta]), nb = nregs_of(K, N, tbits[mc->tb]);
    int nc = nregs_of(M, N, tbits[mc->tc]), nd = nregs_of(M, N, tbits[mc->td]);
    int wide = mc->tc == T_F64;
    char insn[160], src[16384];
    snprintf(insn, sizeof insn, "mma.sync.aligned.%s", mc->insn);
    mk_kernel(src, sizeof src, insn, na, nb, nc, nd, wide);
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s: %s", mc->insn, t.err);
    static double A[16 * 128], B[128 * 8], C[16 * 8], D[16 * 8];
    static int64_t Ai[16 * 128], Bi[128 * 8], Ci[16 * 8], Di[16 * 8];
    uint64_t ra[32 * 8], rb[32 * 8], rc[32 * 8], rd[32 * 8];
    memset(ra, 0, sizeof ra); memset(rb, 0, sizeof rb); memset(rc, 0, sizeof rc);
    /* each element is visited once through the lane/element enumeration, which also checks
       that the layout formulas cover every element exactly once */
    static int seen[3][16 * 128];
    memset(seen, 0, sizeof seen);
    for (int l = 0; l < 32; l++) {
        for (int i = 0; i < M * K / 32; i++) {
            int r, c;
            mc->pos(0, l, i, &r, &c);
            ck_assert(r < M && c < K && !seen[0][r * K + c]++);
            pack(ra, na, l, i, tbits[mc->ta], rnd_elem(mc->ta, &A[r * K + c], &Ai[r * K + c], mc->satf));
        }
        for (int i = 0; i < K * N / 32; i++) {
            int r, c;
            mc->pos(1, l, i, &r, &c);
            ck_assert(r < K && c < N && !seen[1][r * N + c]++);
            pack(rb, nb, l, i, tbits[mc->tb], rnd_elem(mc->tb, &B[r * N + c], &Bi[r * N + c], mc->satf));
        }
        for (int i = 0; i < M * N / 32; i++) {
            int r, c;
            mc->pos(2, l, i, &r, &c);
            ck_assert(r < M && c < N && !seen[2][r * N + c]++);
            uint64_t v;
            if (mc->tc == T_S32) {
                int32_t x = mc->satf ? (l & 1 ? INT32_MAX - 5 : INT32_MIN + 5)
                                     : (int32_t)(rnd() % 200001) - 100000;
                Ci[r * N + c] = x;
                v = (uint32_t)x;
            } else {
                v = rnd_elem(mc->tc, &C[r * N + c], &Ci[r * N + c], 0);
            }
            pack(rc, nc, l, i, tbits[mc->tc], v);
        }
    }
    /* registers to memory: 32-bit words, or 64-bit for f64 accumulators */
    uint32_t wa[32 * 8], wb[32 * 8], wc32[32 * 8];
    for (int i = 0; i < 32 * na; i++) wa[i] = (uint32_t)ra[i];
    for (int i = 0; i < 32 * nb; i++) wb[i] = (uint32_t)rb[i];
    for (int i = 0; i < 32 * nc; i++) wc32[i] = (uint32_t)rc[i];
    uint64_t args[4];
    args[0] = wide ? t_buf_init(&t, ra, (size_t)(32 * na * 8)) : t_buf_init(&t, wa, (size_t)(32 * na * 4));
    args[1] = wide ? t_buf_init(&t, rb, (size_t)(32 * nb * 8)) : t_buf_init(&t, wb, (size_t)(32 * nb * 4));
    args[2] = wide ? t_buf_init(&t, rc, (size_t)(32 * nc * 8)) : t_buf_init(&t, wc32, (size_t)(32 * nc * 4));
    args[3] = t_buf(&t, (size_t)(32 * nd * 8));
    exec_stop st = t_run_warp(&t, "k", args, 4);
    t_done(&st);
    if (wide) {
        t_read(&t, args[3], rd, (size_t)(32 * nd * 8));
    } else {
        uint32_t w32[32 * 8];
        t_read(&t, args[3], w32, (size_t)(32 * nd * 4));
        for (int i = 0; i < 32 * nd; i++)
            rd[i] = w32[i];
    }
    int fp = mc->ta <= T_E5M2;
    if (fp)
        ref_fp(M, N, K, A, B, C, D, mc->ta == T_F64);
    else
        ref_int(M, N, K, Ai, Bi, Ci, Di, mc->op);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < M * N / 32; i++) {
            int r, c;
            mc->pos(2, l, i, &r, &c);
            uint64_t got = unpack(rd, nd, l, i, tbits[mc->td]), want;
            switch (mc->td) {
            case T_F16: want = f16_enc(D[r * N + c]); break;
            case T_F32: want = f2u((float)D[r * N + c]); break;
            case T_F64: memcpy(&want, &D[r * N + c], 8); break;
            default: {
                int64_t s = Di[r * N + c];
                if (mc->satf)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                want = (uint32_t)(int32_t)(uint32_t)(uint64_t)s;
                break;
            }
            }
            ck_assert_msg(got == want, "%s: lane %d element %d (D[%d][%d]) = 0x%llx, want 0x%llx",
                          mc->insn, l, i, r, c, (unsigned long long)got, (unsigned long long)want);
        }
    t_free(&t);
}

START_TEST(test_mma_shapes)
{
    run_mcase(&mcases[_i]);
}
END_TEST

/* mma.m8n8k4 .f16: four independent 8x8x4 products, the quad-pair layout of the ISA's
 * "Matrix Fragments for mma.m8n8k4" tables. v: 0..3 = alayout/blayout, bit 2: f32 C/D. */
static void pos884(int which, int al, int bl, int f32, int lane, int i, int *q, int *r, int *c)
{
    int t = lane & 3, h = lane >= 16 ? 4 : 0;
    *q = (lane >> 2) & 3;
    if (which == 0) {
        if (!al) { *r = t + h; *c = i; }          /* thread 0: A[0][0..3]; thread 16: A[4][..] */
        else { *r = i + h; *c = t; }              /* thread 0: A[0..3][0]; thread 16: A[4..7][0] */
    } else if (which == 1) {
        if (!bl) { *r = t; *c = i + h; }          /* thread 0: B[0][0..3]; thread 16: B[0][4..7] */
        else { *r = i; *c = t + h; }              /* thread 0: B[0..3][0]; thread 16: B[0..3][4] */
    } else if (!f32) {
        *r = t + h;                               /* thread 0: c[0][0..7] */
        *c = i;
    } else {
        static const int tab[4][8][2] = {         /* the .f32 table for lanes 0-3 */
            { {0,0},{0,1},{2,0},{2,1},{0,4},{0,5},{2,4},{2,5} },
            { {1,0},{1,1},{3,0},{3,1},{1,4},{1,5},{3,4},{3,5} },
            { {0,2},{0,3},{2,2},{2,3},{0,6},{0,7},{2,6},{2,7} },
            { {1,2},{1,3},{3,2},{3,3},{1,6},{1,7},{3,6},{3,7} },
        };
        *r = tab[t][i][0] + h;
        *c = tab[t][i][1];
    }
}

START_TEST(test_mma_m8n8k4_f16)
{
    int al = _i & 1, bl = (_i >> 1) & 1, f32 = (_i >> 2) & 1;
    int nc = f32 ? 8 : 4;
    char insn[160], src[16384];
    snprintf(insn, sizeof insn, "mma.sync.aligned.m8n8k4.%s.%s.%s.f16.f16.%s", al ? "col" : "row",
             bl ? "col" : "row", f32 ? "f32" : "f16", f32 ? "f32" : "f16");
    mk_kernel(src, sizeof src, insn, 2, 2, nc, nc, 0);
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    double A[4][8 * 4], B[4][4 * 8], C[4][64], D[4][64];
    uint64_t ra[64], rb[64], rc[256], rd[256];
    memset(ra, 0, sizeof ra); memset(rb, 0, sizeof rb); memset(rc, 0, sizeof rc);
    for (int l = 0; l < 32; l++) {
        for (int i = 0; i < 4; i++) {
            int q, r, c;
            uint16_t h = rnd_f16();
            pos884(0, al, bl, f32, l, i, &q, &r, &c);
            A[q][r * 4 + c] = f16_val(h);
            pack(ra, 2, l, i, 16, h);
            h = rnd_f16();
            pos884(1, al, bl, f32, l, i, &q, &r, &c);
            B[q][r * 8 + c] = f16_val(h);
            pack(rb, 2, l, i, 16, h);
        }
        for (int i = 0; i < 8; i++) {
            int q, r, c;
            pos884(2, al, bl, f32, l, i, &q, &r, &c);
            if (f32) {
                float v = rnd_f32();
                C[q][r * 8 + c] = v;
                pack(rc, nc, l, i, 32, f2u(v));
            } else {
                uint16_t h = rnd_f16();
                C[q][r * 8 + c] = f16_val(h);
                pack(rc, nc, l, i, 16, h);
            }
        }
    }
    uint32_t wa[64], wb[64], wc[256];
    for (int i = 0; i < 64; i++) { wa[i] = (uint32_t)ra[i]; wb[i] = (uint32_t)rb[i]; }
    for (int i = 0; i < 32 * nc; i++) wc[i] = (uint32_t)rc[i];
    uint64_t args[4] = { t_buf_init(&t, wa, sizeof wa), t_buf_init(&t, wb, sizeof wb),
                         t_buf_init(&t, wc, (size_t)(32 * nc * 4)), t_buf(&t, (size_t)(32 * nc * 4)) };
    exec_stop st = t_run_warp(&t, "k", args, 4);
    t_done(&st);
    uint32_t w32[256];
    t_read(&t, args[3], w32, (size_t)(32 * nc * 4));
    for (int i = 0; i < 32 * nc; i++)
        rd[i] = w32[i];
    for (int q = 0; q < 4; q++)
        ref_fp(8, 8, 4, A[q], B[q], C[q], D[q], 0);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 8; i++) {
            int q, r, c;
            pos884(2, al, bl, f32, l, i, &q, &r, &c);
            uint64_t got = unpack(rd, nc, l, i, f32 ? 32 : 16);
            uint64_t want = f32 ? f2u((float)D[q][r * 8 + c]) : f16_enc(D[q][r * 8 + c]);
            ck_assert_msg(got == want, "%s: lane %d element %d = 0x%llx, want 0x%llx", insn, l, i,
                          (unsigned long long)got, (unsigned long long)want);
        }
    t_free(&t);
}
END_TEST

/* nvcc fixture: ldmatrix.x4 / .x2.trans from shared memory feed mma.m16n8k16 directly. */
START_TEST(test_mma_ldmatrix_fixture)
{
    static const char *const files[] = { FIX "mma_ldmatrix.O3.ptx", FIX "mma_ldmatrix.G.ptx" };
    T t;
    t_load_file(&t, files[_i]);
    uint16_t a[256], b[128];
    float c[128], d[128];
    double A[256], B[128], C[128], D[128];
    for (int i = 0; i < 256; i++) {
        a[i] = rnd_f16();
        A[i] = f16_val(a[i]);
    }
    for (int i = 0; i < 128; i++) {
        b[i] = rnd_f16();
        B[i] = f16_val(b[i]);
        c[i] = rnd_f32();
        C[i] = c[i];
    }
    uint64_t args[4] = { t_buf_init(&t, a, sizeof a), t_buf_init(&t, b, sizeof b),
                         t_buf_init(&t, c, sizeof c), t_buf(&t, sizeof d) };
    exec_stop st = t_run_warp(&t, "mma_ldm", args, 4);
    t_done(&st);
    t_read(&t, args[3], d, sizeof d);
    ref_fp(16, 8, 16, A, B, C, D, 0);
    for (int i = 0; i < 128; i++)
        ck_assert_msg(f2u(d[i]) == f2u((float)D[i]), "D[%d][%d] = %.9g, want %.9g", i / 8, i % 8,
                      (double)d[i], D[i]);
    t_free(&t);
}
END_TEST

/* ---- ldmatrix / stmatrix / movmatrix ---------------------------------------------------------
 * Four 8x8 .b16 matrices, element (j, r, c) = 0x1000 * j + 0x100 * r + c + 1. Row (j, r) sits at
 * a scrambled shared offset ((8j + r) * 7 % 32) * 16, which lane 8j + r passes as its address. */
static uint16_t melem(int j, int r, int c) { return (uint16_t)(0x1000 * j + 0x100 * r + c + 1); }
static uint32_t rowoff(int j, int r) { return (uint32_t)(((8 * j + r) * 7 % 32) * 16); }

static const char *k_ldmatrix = HDR
    ".visible .entry k(.param .u64 src, .param .u64 offs, .param .u64 out)\n{\n"
    " .reg .b32 %%r<12>; .reg .b64 %%rd<8>;\n"
    " .shared .align 16 .b8 sm[512];\n"
    " mov.u32 %%r1, %%tid.x;\n"
    " ld.param.u64 %%rd1, [src]; ld.param.u64 %%rd2, [offs]; ld.param.u64 %%rd3, [out];\n"
    " mul.wide.u32 %%rd4, %%r1, 16; add.s64 %%rd5, %%rd1, %%rd4;\n"
    " ld.global.v4.b32 {%%r2, %%r3, %%r4, %%r5}, [%%rd5];\n"
    " mov.u32 %%r6, sm; mul.lo.u32 %%r7, %%r1, 16; add.u32 %%r7, %%r6, %%r7;\n"
    " st.shared.v4.b32 [%%r7], {%%r2, %%r3, %%r4, %%r5};\n"
    " bar.sync 0;\n"
    " mul.wide.u32 %%rd4, %%r1, 4; add.s64 %%rd5, %%rd2, %%rd4; ld.global.u32 %%r8, [%%rd5];\n"
    " add.u32 %%r8, %%r6, %%r8;\n"
    " ldmatrix.sync.aligned.m8n8.%s.shared.b16 %s, [%%r8];\n"
    " mul.wide.u32 %%rd4, %%r1, 16; add.s64 %%rd5, %%rd3, %%rd4;\n"
    " st.global.v4.b32 [%%rd5], {%%r2, %%r3, %%r4, %%r5};\n"
    " ret;\n}\n";

START_TEST(test_ldmatrix)
{
    static const char *const forms[] = { "x1", "x2", "x4", "x1.trans", "x2.trans", "x4.trans" };
    static const char *const regs[] = { "{%r2}", "{%r2, %r3}", "{%r2, %r3, %r4, %r5}" };
    int num = 1 << (_i % 3), trans = _i >= 3;
    char src[4096];
    snprintf(src, sizeof src, k_ldmatrix, forms[_i], regs[_i % 3]);
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint16_t shared[256];
    uint32_t offs[32], out[128];
    for (int j = 0; j < 4; j++)
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
                shared[rowoff(j, r) / 2 + (uint32_t)c] = melem(j, r, c);
    for (int l = 0; l < 32; l++)
        offs[l] = rowoff(l / 8, l % 8);
    uint64_t args[3] = { t_buf_init(&t, shared, sizeof shared), t_buf_init(&t, offs, sizeof offs),
                         t_buf(&t, sizeof out) };
    exec_stop st = t_run_warp(&t, "k", args, 3);
    t_done(&st);
    t_read(&t, args[2], out, sizeof out);
    for (int l = 0; l < 32; l++)
        for (int j = 0; j < num; j++) {
            int r = l / 4, c = 2 * (l % 4);
            uint32_t want = trans ? (uint32_t)melem(j, c, r) | (uint32_t)melem(j, c + 1, r) << 16
                                  : (uint32_t)melem(j, r, c) | (uint32_t)melem(j, r, c + 1) << 16;
            ck_assert_msg(out[l * 4 + j] == want, "%s lane %d reg %d = %08x, want %08x", forms[_i], l,
                          j, out[l * 4 + j], want);
        }
    t_free(&t);
}
END_TEST

/* stmatrix writes the fragment back (to the same scrambled rows); movmatrix transposes. */
static const char *k_stmatrix = HDR
    ".visible .entry k(.param .u64 frag, .param .u64 offs, .param .u64 out, .param .u64 mv)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<8>;\n"
    " .shared .align 16 .b8 sm[512];\n"
    " mov.u32 %r1, %tid.x;\n"
    " ld.param.u64 %rd1, [frag]; ld.param.u64 %rd2, [offs]; ld.param.u64 %rd3, [out];\n"
    " mul.wide.u32 %rd4, %r1, 16; add.s64 %rd5, %rd1, %rd4;\n"
    " ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd5];\n"
    " mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd2, %rd4; ld.global.u32 %r8, [%rd5];\n"
    " mov.u32 %r6, sm; add.u32 %r8, %r6, %r8;\n"
    " stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%r8], {%r2, %r3, %r4, %r5};\n"
    " bar.sync 0;\n"
    " mul.lo.u32 %r7, %r1, 16; add.u32 %r7, %r6, %r7;\n"
    " ld.shared.v4.b32 {%r2, %r3, %r4, %r5}, [%r7];\n"
    " mul.wide.u32 %rd4, %r1, 16; add.s64 %rd5, %rd3, %rd4;\n"
    " st.global.v4.b32 [%rd5], {%r2, %r3, %r4, %r5};\n"
    " ld.global.b32 %r9, [%rd5];\n"
    " movmatrix.sync.aligned.m8n8.trans.b16 %r10, %r9;\n"
    " ld.param.u64 %rd6, [mv]; mul.wide.u32 %rd4, %r1, 4; add.s64 %rd6, %rd6, %rd4;\n"
    " st.global.b32 [%rd6], %r10;\n"
    " ret;\n}\n";

START_TEST(test_stmatrix_movmatrix)
{
    T t;
    ck_assert_msg(t_load(&t, k_stmatrix) == 0, "%s", t.err);
    uint32_t frag[128], offs[32], out[128], mv[32];
    /* lane l, register j holds elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of matrix j's
       transpose, so matrix j in memory is melem() */
    for (int l = 0; l < 32; l++) {
        int r = l / 4, c = 2 * (l % 4);
        for (int j = 0; j < 4; j++)
            frag[l * 4 + j] = (uint32_t)melem(j, c, r) | (uint32_t)melem(j, c + 1, r) << 16;
        offs[l] = rowoff(l / 8, l % 8);
    }
    uint64_t args[4] = { t_buf_init(&t, frag, sizeof frag), t_buf_init(&t, offs, sizeof offs),
                         t_buf(&t, sizeof out), t_buf(&t, sizeof mv) };
    exec_stop st = t_run_warp(&t, "k", args, 4);
    t_done(&st);
    t_read(&t, args[2], out, sizeof out);
    t_read(&t, args[3], mv, sizeof mv);
    const uint16_t *sh = (const uint16_t *)out;
    for (int j = 0; j < 4; j++)
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
                ck_assert_msg(sh[rowoff(j, r) / 2 + (uint32_t)c] == melem(j, r, c),
                              "matrix %d [%d][%d]", j, r, c);
    /* movmatrix input: lane l's first word of `out` = shared bytes 16l..16l+3 (elements
       2*... of the 16-byte line l), viewed as an 8x8 fragment M[l/4][2(l%4)+h] */
    for (int l = 0; l < 32; l++) {
        int r = l / 4, c = 2 * (l % 4);
        uint16_t lo = sh[(c * 4 + r / 2) * 8 + (r % 2)], hi = sh[((c + 1) * 4 + r / 2) * 8 + (r % 2)];
        uint32_t want = (uint32_t)lo | (uint32_t)hi << 16;
        ck_assert_msg(mv[l] == want, "movmatrix lane %d = %08x, want %08x", l, mv[l], want);
    }
    t_free(&t);
}
END_TEST

static const char *k_ldmatrix_misaligned = HDR
    ".visible .entry k()\n{\n"
    " .reg .b32 %r<8>;\n"
    " .shared .align 16 .b8 sm[512];\n"
    " mov.u32 %r1, %tid.x; mul.lo.u32 %r1, %r1, 16; add.u32 %r1, %r1, 8;\n"
    " mov.u32 %r2, sm; add.u32 %r1, %r1, %r2;\n"
    " ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r1];\n"
    " ret;\n}\n";

START_TEST(test_ldmatrix_misaligned)
{
    T t;
    ck_assert_msg(t_load(&t, k_ldmatrix_misaligned) == 0, "%s", t.err);
    exec_stop st = t_run_warp(&t, "k", NULL, 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_MISALIGNED);
    t_free(&t);
}
END_TEST

static Suite *mma_suite(void)
{
    Suite *s = suite_create("mma");
    TCase *tc = tcase_create("wmma");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_wmma_fixture, 0, (int)(sizeof wcases / sizeof wcases[0]));
    tcase_add_loop_test(tc, test_wmma_tf32, 0, 2);
    tcase_add_loop_test(tc, test_wmma_subbyte, 0, 2);
    tcase_add_loop_test(tc, test_wmma_tiled, 0, 2);
    tcase_add_test(tc, test_wmma_diverged);
    tcase_add_test(tc, test_wmma_oob);
    tcase_add_test(tc, test_wmma_transpose_copy);
    tcase_add_loop_test(tc, test_decode_errors, 0, (int)(sizeof bad_decode / sizeof bad_decode[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("mma");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_mma_shapes, 0, (int)(sizeof mcases / sizeof mcases[0]));
    tcase_add_loop_test(tc, test_mma_m8n8k4_f16, 0, 8);
    tcase_add_loop_test(tc, test_mma_ldmatrix_fixture, 0, 2);
    suite_add_tcase(s, tc);
    tc = tcase_create("ldmatrix");
    tcase_add_loop_test(tc, test_ldmatrix, 0, 6);
    tcase_add_test(tc, test_stmatrix_movmatrix);
    tcase_add_test(tc, test_ldmatrix_misaligned);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(mma_suite());
}
