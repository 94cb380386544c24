/* test_tex.c - textures and surfaces end to end (commands, core) against a C reference of the sampling rules. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "test_util.h"

/* =============================================================================================
 * Reference of texture sampling, written from the CUDA C Programming Guide's "Texture
 * Fetching" appendix and the PTX ISA:
 *   normalized coordinates: x is first multiplied by the size N of its dimension;
 *   nearest point:  tex(x) = T[floor(x)];
 *   linear:         xB = x - 0.5, i = floor(xB), a = frac(xB) held in 9-bit fixed point with 8
 *                   fractional bits; tex(x) = (1 - a) T[i] + a T[i + 1]; 2D/3D with the weight
 *                   products of the guide's formulas;
 *   addressing of a texel index i in [0, N): clamp to the edge; border: the border colour;
 *                   wrap (normalized only): i mod N; mirror (normalized only): i reflected with
 *                   period 2N; unnormalized wrap/mirror behave as clamp;
 *   read mode normalized-float: u8 -> x / 255, s8 -> max(x / 127, -1).
 * ============================================================================================= */
enum { WRAP, MIRROR, CLAMP, BORDER };
static const char *const mode_names[] = {"wrap", "mirror", "clamp", "border"};

typedef struct {
    int n[3], ch;             /* sizes, channels */
    const float *v;           /* texel channel values (already converted to float) */
    int mode, linear, norm;
    float border;
} rtex;

/* Index i in a dimension of n texels: 0 and *out set, or 1 for the border colour. */
static int ref_addr(long i, int n, int mode, int norm, long *out)
{
    if (mode == WRAP && norm) {
        long r = i % n;
        *out = r < 0 ? r + n : r;
        return 0;
    }
    if (mode == MIRROR && norm) {
        long p = i % (2L * n);
        if (p < 0)
            p += 2L * n;
        *out = p < n ? p : 2L * n - 1 - p;
        return 0;
    }
    if (mode == BORDER && (i < 0 || i >= n))
        return 1;
    *out = i < 0 ? 0 : i >= n ? n - 1 : i;
    return 0;
}

static float ref_T(const rtex *t, long i, long j, long k, int c)
{
    long a, b, d;
    if (ref_addr(i, t->n[0], t->mode, t->norm, &a) || ref_addr(j, t->n[1], t->mode, t->norm, &b) ||
        ref_addr(k, t->n[2], t->mode, t->norm, &d))
        return t->border;
    return t->v[((d * t->n[1] + b) * t->n[0] + a) * t->ch + c];
}

static float fix8(float f) { return rintf(f * 256.0f) / 256.0f; }

static float ref_sample(const rtex *t, int nd, float x, float y, float z, int c)
{
    float u[3] = {x, y, z};
    for (int k = 0; k < nd; k++)
        if (t->norm)
            u[k] = u[k] * (float)t->n[k];
    if (!t->linear)
        return ref_T(t, (long)floorf(u[0]), nd > 1 ? (long)floorf(u[1]) : 0,
                     nd > 2 ? (long)floorf(u[2]) : 0, c);
    long i[3] = {0, 0, 0};
    float w[3] = {0, 0, 0};
    for (int k = 0; k < nd; k++) {
        float xb = u[k] - 0.5f;
        i[k] = (long)floorf(xb);
        w[k] = fix8(xb - floorf(xb));
    }
    float a = w[0], b = w[1], g = w[2];
    if (nd == 1)
        return (1 - a) * ref_T(t, i[0], 0, 0, c) + a * ref_T(t, i[0] + 1, 0, 0, c);
    if (nd == 2)
        return (1 - a) * (1 - b) * ref_T(t, i[0], i[1], 0, c) +
               a * (1 - b) * ref_T(t, i[0] + 1, i[1], 0, c) +
               (1 - a) * b * ref_T(t, i[0], i[1] + 1, 0, c) +
               a * b * ref_T(t, i[0] + 1, i[1] + 1, 0, c);
    return (1 - a) * (1 - b) * (1 - g) * ref_T(t, i[0], i[1], i[2], c) +
           a * (1 - b) * (1 - g) * ref_T(t, i[0] + 1, i[1], i[2], c) +
           (1 - a) * b * (1 - g) * ref_T(t, i[0], i[1] + 1, i[2], c) +
           a * b * (1 - g) * ref_T(t, i[0] + 1, i[1] + 1, i[2], c) +
           (1 - a) * (1 - b) * g * ref_T(t, i[0], i[1], i[2] + 1, c) +
           a * (1 - b) * g * ref_T(t, i[0] + 1, i[1], i[2] + 1, c) +
           (1 - a) * b * g * ref_T(t, i[0], i[1] + 1, i[2] + 1, c) +
           a * b * g * ref_T(t, i[0] + 1, i[1] + 1, i[2] + 1, c);
}

/* =============================================================================================
 * Harness: a debugger session driven by commands, on the fixture's -O3 or -G PTX.
 * ============================================================================================= */
static dbg_session *S;
static cmd_ctx C;
static const char *const variants[] = {"O3", "G"};

static void open_session(const char *ptx_path)
{
    S = dbg_new();
    cmd_ctx_init(&C, S);
    C.batch = 1;
    ck_assert_msg(dbg_load_file(S, ptx_path) == 0, "%s", dbg_errmsg(S));
}

static void open_fixture(int v)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/tex/tex_obj.%s.ptx", variants[v]);
    open_session(path);
}

static void close_session(void)
{
    cmd_ctx_free(&C);
    dbg_free(S);
}

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fflush(stdout);
    return cmd_execute(&C, line);
}
#define RUN(...) ck_assert_msg(run(__VA_ARGS__) == 0, "command failed")

/* "buffer NAME f32 N = {...}" from floats. */
static void fbuf(const char *name, const float *v, int n)
{
    char line[8192];
    int k = snprintf(line, sizeof line, "buffer %s f32 %d = {", name, n);
    for (int i = 0; i < n; i++)
        k += snprintf(line + k, sizeof line - (size_t)k, "%s%.9g", i ? ", " : "", (double)v[i]);
    snprintf(line + k, sizeof line - (size_t)k, "}");
    ck_assert_msg(cmd_execute(&C, line) == 0, "%s", line);
}

static void ibuf(const char *name, const char *type, const long *v, int n)
{
    char line[8192];
    int k = snprintf(line, sizeof line, "buffer %s %s %d = {", name, type, n);
    for (int i = 0; i < n; i++)
        k += snprintf(line + k, sizeof line - (size_t)k, "%s%ld", i ? ", " : "", v[i]);
    snprintf(line + k, sizeof line - (size_t)k, "}");
    ck_assert_msg(cmd_execute(&C, line) == 0, "%s", line);
}

static void readbuf(const char *name, void *out, size_t n)
{
    const dbg_buffer *b = dbg_buffer_find(S, name);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(b->size, n);
    ck_assert_int_eq(dbg_buffer_read(S, b, out), 0);
}

static void expect_f(const char *what, int i, float got, float want)
{
    uint32_t g, w;
    memcpy(&g, &got, 4);
    memcpy(&w, &want, 4);
    ck_assert_msg(g == w, "%s[%d]: got %.9g (0x%08x), want %.9g (0x%08x)", what, i, (double)got,
                  g, (double)want, w);
}

/* coordinates used by the 1D tests */
#define NX 18
static const float xs_un[NX] = {0.5f, 1.0f, 1.3f, 2.71f, 3.999f, 0.0f, -0.2f, -3.7f, 7.9f,
                                8.0f, 8.5f, 11.25f, 4.5f, 5.123f, 6.49f, 0.75f, -0.5f, 100.0f};
static const float xs_no[NX] = {0.0f, 0.0625f, 0.1f, 0.33f, 0.5f, 0.77f, 0.99f, 1.0f, 1.2f,
                                1.9375f, -0.1f, -0.5f, -1.3f, 2.6f, 0.45f, 0.03f, -0.03f, 3.0f};

/* ---- tex1Dfetch ------------------------------------------------------------------------------ */
START_TEST(fetch1d_linear_memory)
{
    open_fixture(_i);
    float data[16], out[20];
    for (int i = 0; i < 16; i++)
        data[i] = (float)i * 1.5f - 3.0f;
    fbuf("data", data, 16);
    RUN("buffer out f32 20");
    RUN("texture t data f32 16 linear");
    RUN("launch fetch1d<<<1, 32>>>(t, out, 20)");
    ck_assert_int_eq(C.kernel_failed, 0);
    readbuf("out", out, sizeof out);
    for (int i = 0; i < 20; i++)
        expect_f("fetch", i, out[i], i < 16 ? data[i] : 0.0f);
    close_session();
}
END_TEST

/* ---- tex1D: every filter x address mode, unnormalized and normalized --------------------------- */
START_TEST(tex1d_modes)
{
    open_fixture(_i);
    float data[8], out[NX];
    for (int i = 0; i < 8; i++)
        data[i] = 0.37f * (float)(i * i) + 1.0f - (float)(i & 1) * 2.5f;
    fbuf("data", data, 8);
    fbuf("xu", xs_un, NX);
    fbuf("xn", xs_no, NX);
    RUN("buffer out f32 %d", NX);
    int k = 0;
    for (int norm = 0; norm < 2; norm++)
        for (int lin = 0; lin < 2; lin++)
            for (int mode = 0; mode < 4; mode++) {
                char tn[32];
                snprintf(tn, sizeof tn, "t%d", k++);
                RUN("texture %s data f32 8 filter=%s address=%s border=-2.25%s", tn,
                    lin ? "linear" : "point", mode_names[mode], norm ? " normalized" : "");
                RUN("launch tex1d<<<1, 32>>>(%s, out, %s, %d)", tn, norm ? "xn" : "xu", NX);
                ck_assert_int_eq(C.kernel_failed, 0);
                readbuf("out", out, sizeof out);
                rtex t = {{8, 1, 1}, 1, data, mode, lin, norm, -2.25f};
                for (int i = 0; i < NX; i++) {
                    char what[64];
                    snprintf(what, sizeof what, "%s %s %s", norm ? "norm" : "unnorm",
                             lin ? "linear" : "point", mode_names[mode]);
                    expect_f(what, i, out[i], ref_sample(&t, 1, norm ? xs_no[i] : xs_un[i], 0, 0, 0));
                }
            }
    close_session();
}
END_TEST

/* ---- tex2D: one-channel float ---------------------------------------------------------------- */
#define N2 16
static const float x2[N2] = {0.5f, 1.3f, 4.9f, -1.0f, 2.25f, 3.5f, 0.1f, 5.7f,
                             2.0f, 1.77f, 4.5f, 0.6f, 3.14f, -0.4f, 6.0f, 2.5f};
static const float y2[N2] = {0.5f, 0.8f, 3.2f, 2.0f, -0.9f, 1.5f, 3.99f, 1.1f,
                             2.61f, 0.0f, 4.5f, 1.37f, 2.72f, 0.2f, 3.0f, 1.75f};

START_TEST(tex2d_modes)
{
    open_fixture(_i);
    float data[5 * 4], out[N2], xn[N2], yn[N2];
    for (int i = 0; i < 20; i++)
        data[i] = sinf((float)i) * 10.0f;
    for (int i = 0; i < N2; i++) {
        xn[i] = x2[i] / 3.0f - 0.4f;
        yn[i] = y2[i] / 2.5f - 0.3f;
    }
    fbuf("data", data, 20);
    fbuf("xu", x2, N2);
    fbuf("yu", y2, N2);
    fbuf("xn", xn, N2);
    fbuf("yn", yn, N2);
    RUN("buffer out f32 %d", N2);
    int k = 0;
    for (int norm = 0; norm < 2; norm++)
        for (int lin = 0; lin < 2; lin++)
            for (int mode = 0; mode < 4; mode++) {
                char tn[32];
                snprintf(tn, sizeof tn, "t%d", k++);
                RUN("texture %s data f32 5x4 filter=%s address=%s border=7.5%s", tn,
                    lin ? "linear" : "point", mode_names[mode], norm ? " normalized" : "");
                RUN("launch tex2d<<<1, 32>>>(%s, out, %s, %s, %d)", tn, norm ? "xn" : "xu",
                    norm ? "yn" : "yu", N2);
                ck_assert_int_eq(C.kernel_failed, 0);
                readbuf("out", out, sizeof out);
                rtex t = {{5, 4, 1}, 1, data, mode, lin, norm, 7.5f};
                for (int i = 0; i < N2; i++)
                    expect_f(mode_names[mode], i, out[i],
                             ref_sample(&t, 2, norm ? xn[i] : x2[i], norm ? yn[i] : y2[i], 0, 0));
            }
    close_session();
}
END_TEST

/* ---- tex2D<float4> of uchar4 read as normalized floats, and of float4 ------------------------- */
START_TEST(tex2d_uchar4_normalized)
{
    open_fixture(_i);
    long px[4 * 3 * 4];
    float conv[4 * 3 * 4], out[N2 * 4];
    for (int i = 0; i < 48; i++) {
        px[i] = (i * 37 + 11) % 256;
        conv[i] = (float)px[i] / 255.0f;
    }
    ibuf("img", "u8", px, 48);
    fbuf("xu", x2, N2);
    fbuf("yu", y2, N2);
    RUN("buffer out f32 %d", N2 * 4);
    RUN("texture t img u8 4x3 channels=4 read=normalized-float filter=linear address=clamp");
    RUN("launch tex2d4<<<1, 32>>>(t, out, xu, yu, %d)", N2);
    ck_assert_int_eq(C.kernel_failed, 0);
    readbuf("out", out, sizeof out);
    rtex t = {{4, 3, 1}, 4, conv, CLAMP, 1, 0, 0};
    for (int i = 0; i < N2; i++)
        for (int c = 0; c < 4; c++)
            expect_f("uchar4", i * 4 + c, out[i * 4 + c], ref_sample(&t, 2, x2[i], y2[i], 0, c));
    /* s8 read normalized: max(x / 127, -1); point sampling */
    long sp[4] = {-128, -127, 5, 127};
    ibuf("simg", "s8", sp, 4);
    RUN("texture ts simg s8 2x2 read=normalized-float");
    float xs[4] = {0.5f, 1.5f, 0.5f, 1.5f}, ys[4] = {0.5f, 0.5f, 1.5f, 1.5f};
    fbuf("xs4", xs, 4);
    fbuf("ys4", ys, 4);
    RUN("launch tex2d4<<<1, 4>>>(ts, out, xs4, ys4, 4)");
    readbuf("out", out, sizeof out);
    for (int i = 0; i < 4; i++) {
        float want = fmaxf((float)sp[i] / 127.0f, -1.0f);
        expect_f("s8 r", i, out[i * 4], want);
        expect_f("s8 g", i, out[i * 4 + 1], 0.0f);
        expect_f("s8 b", i, out[i * 4 + 2], 0.0f);
        expect_f("s8 a", i, out[i * 4 + 3], 1.0f);
    }
    close_session();
}
END_TEST

/* ---- tex2D<int>: element-type read of integer texels ------------------------------------------ */
START_TEST(tex2d_int_element)
{
    open_fixture(_i);
    long v[5 * 4];
    int out[N2];
    for (int i = 0; i < 20; i++)
        v[i] = (i * 7919) % 2001 - 1000;
    ibuf("iv", "s32", v, 20);
    fbuf("xu", x2, N2);
    fbuf("yu", y2, N2);
    RUN("buffer out s32 %d", N2);
    RUN("texture t iv s32 5x4 address=border border=-99");
    RUN("launch tex2di<<<1, 32>>>(t, out, xu, yu, %d)", N2);
    ck_assert_int_eq(C.kernel_failed, 0);
    readbuf("out", out, sizeof out);
    for (int i = 0; i < N2; i++) {
        long xi = (long)floorf(x2[i]), yi = (long)floorf(y2[i]);
        int want = xi < 0 || xi >= 5 || yi < 0 || yi >= 4 ? -99 : (int)v[yi * 5 + xi];
        ck_assert_msg(out[i] == want, "int[%d]: got %d want %d", i, out[i], want);
    }
    /* u16 texels, element read mode, clamp */
    long u[6] = {0, 1, 65535, 40000, 7, 12345};
    ibuf("uv", "u16", u, 6);
    RUN("texture tu uv u16 3x2");
    RUN("launch tex2di<<<1, 32>>>(tu, out, xu, yu, %d)", N2);
    readbuf("out", out, sizeof out);
    for (int i = 0; i < N2; i++) {
        long xi = (long)floorf(x2[i]), yi = (long)floorf(y2[i]);
        xi = xi < 0 ? 0 : xi > 2 ? 2 : xi;
        yi = yi < 0 ? 0 : yi > 1 ? 1 : yi;
        ck_assert_int_eq(out[i], (int)u[yi * 3 + xi]);
    }
    close_session();
}
END_TEST

/* ---- tex3D ---------------------------------------------------------------------------------- */
START_TEST(tex3d_linear)
{
    open_fixture(_i);
    float data[4 * 3 * 2], out[N2], z[N2];
    for (int i = 0; i < 24; i++)
        data[i] = (float)((i * 13) % 24) * 0.5f - 2.0f;
    for (int i = 0; i < N2; i++)
        z[i] = (float)i * 0.17f - 0.3f;
    fbuf("data", data, 24);
    fbuf("xu", x2, N2);
    fbuf("yu", y2, N2);
    fbuf("zu", z, N2);
    RUN("buffer out f32 %d", N2);
    for (int mode = CLAMP; mode <= BORDER; mode++) {
        char tn[32];
        snprintf(tn, sizeof tn, "t%d", mode);
        RUN("texture %s data f32 4x3x2 filter=linear address=%s border=1.5", tn, mode_names[mode]);
        RUN("launch tex3d<<<1, 32>>>(%s, out, xu, yu, zu, %d)", tn, N2);
        ck_assert_int_eq(C.kernel_failed, 0);
        readbuf("out", out, sizeof out);
        rtex t = {{4, 3, 2}, 1, data, mode, 1, 0, 1.5f};
        for (int i = 0; i < N2; i++)
            expect_f("3d", i, out[i], ref_sample(&t, 3, x2[i], y2[i], z[i], 0));
    }
    close_session();
}
END_TEST

/* ---- tex2Dgather: counter-clockwise from the lower left: (i,j+1) (i+1,j+1) (i+1,j) (i,j) ---- */
START_TEST(gather4)
{
    open_fixture(_i);
    float data[4 * 4 * 4], out[N2 * 4];
    for (int i = 0; i < 64; i++)
        data[i] = (float)i + 0.25f;
    fbuf("data", data, 64);
    fbuf("xu", x2, N2);
    fbuf("yu", y2, N2);
    RUN("buffer out f32 %d", N2 * 4);
    RUN("texture t data f32 4x4 channels=4");
    for (int comp = 0; comp < 4; comp++) {
        RUN("launch gather<<<1, 32>>>(t, out, xu, yu, %d, %d)", comp, N2);
        ck_assert_int_eq(C.kernel_failed, 0);
        readbuf("out", out, sizeof out);
        rtex t = {{4, 4, 1}, 4, data, CLAMP, 0, 0, 0};
        for (int i = 0; i < N2; i++) {
            long gi = (long)floorf(x2[i] - 0.5f), gj = (long)floorf(y2[i] - 0.5f);
            float want[4] = {ref_T(&t, gi, gj + 1, 0, comp), ref_T(&t, gi + 1, gj + 1, 0, comp),
                             ref_T(&t, gi + 1, gj, 0, comp), ref_T(&t, gi, gj, 0, comp)};
            for (int q = 0; q < 4; q++)
                expect_f("gather", i * 4 + q, out[i * 4 + q], want[q]);
        }
    }
    close_session();
}
END_TEST

/* ---- surfaces ------------------------------------------------------------------------------- */
START_TEST(surface_rw)
{
    open_fixture(_i);
    float s[6 * 3], out[18];
    for (int i = 0; i < 18; i++)
        s[i] = (float)i * 0.75f - 4.0f;
    fbuf("img", s, 18);
    RUN("surface sf img f32 6x3");
    RUN("launch surf2d<<<(2, 2), (4, 2)>>>(sf, 6, 3)");
    ck_assert_int_eq(C.kernel_failed, 0);
    readbuf("img", out, sizeof out);
    for (int i = 0; i < 18; i++)
        expect_f("surf", i, out[i], s[i] * 2.0f + 1.0f);
    close_session();
}
END_TEST

START_TEST(surface_boundary_modes)
{
    open_fixture(_i);
    long v[4 * 3], xs[8] = {0, 3, 4, -1, 2, 9, -5, 1}, ys[8] = {0, 2, 1, 1, 3, -1, 5, 1};
    int out[16];
    for (int i = 0; i < 12; i++)
        v[i] = 100 + i;
    ibuf("img", "s32", v, 12);
    ibuf("xs", "s32", xs, 8);
    ibuf("ys", "s32", ys, 8);
    RUN("buffer out s32 16");
    RUN("surface sf img s32 4x3");
    RUN("launch surfbound<<<1, 8>>>(sf, out, xs, ys, 8)");
    ck_assert_int_eq(C.kernel_failed, 0);
    readbuf("out", out, sizeof out);
    for (int i = 0; i < 8; i++) {
        int in = xs[i] >= 0 && xs[i] < 4 && ys[i] >= 0 && ys[i] < 3;
        long cx = xs[i] < 0 ? 0 : xs[i] > 3 ? 3 : xs[i], cy = ys[i] < 0 ? 0 : ys[i] > 2 ? 2 : ys[i];
        ck_assert_int_eq(out[2 * i], (int)v[cy * 4 + cx]);
        ck_assert_int_eq(out[2 * i + 1], in ? (int)v[ys[i] * 4 + xs[i]] : 0);
    }
    /* .trap: an out-of-range access faults the kernel */
    RUN("launch surftrap<<<1, 1>>>(sf, out, 3, 2)");
    ck_assert_int_eq(C.kernel_failed, 0);
    RUN("launch surftrap<<<1, 1>>>(sf, out, 4, 0)");
    ck_assert_int_eq(C.kernel_failed, 1);
    close_session();
}
END_TEST

START_TEST(bad_handles_fault)
{
    open_fixture(_i);
    RUN("buffer out f32 4");
    RUN("launch fetch1d<<<1, 4>>>(12345, out, 4)");
    ck_assert_int_eq(C.kernel_failed, 1);
    C.kernel_failed = 0;
    RUN("buffer img f32 4");
    RUN("surface sf img f32 4");
    /* a surface handle used as a texture */
    RUN("launch fetch1d<<<1, 4>>>(sf, out, 4)");
    ck_assert_int_eq(C.kernel_failed, 1);
    C.kernel_failed = 0;
    /* command errors */
    ck_assert_int_eq(run("texture t nosuch f32 4"), -1);
    ck_assert_int_eq(run("texture t img f32 5"), -1);                 /* larger than the buffer */
    ck_assert_int_eq(run("texture t img s32 4 filter=linear"), -1);   /* integers do not filter */
    ck_assert_int_eq(run("texture t img f32 4 address=sideways"), -1);
    ck_assert_int_eq(run("texture img img f32 4"), -1);               /* name taken */
    ck_assert_int_eq(run("texture t img f32 4 channels=3"), -1);
    RUN("texture t img f32 2x2");
    ck_assert_int_eq(run("texture t img f32 2x2"), -1);
    RUN("info textures");
    close_session();
}
END_TEST

/* =============================================================================================
 * Hand-written PTX: texture references (bind), samplers, txq, suq, istypep, sured, sust.p,
 * layered and cube textures, a reload keeping objects.
 * ============================================================================================= */
static const char ptx_refs[] =
    ".version 6.4\n.target sm_52\n.address_size 64\n"
    ".global .texref tref;\n.global .samplerref smp;\n.global .surfref sref;\n"
    ".entry q(.param .u64 out, .param .u64 th, .param .u64 sh)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [th]; ld.param.u64 %rd3, [sh];\n"
    " txq.width.b32 %r1, [%rd2]; st.global.u32 [%rd1+0], %r1;\n"
    " txq.height.b32 %r1, [%rd2]; st.global.u32 [%rd1+4], %r1;\n"
    " txq.depth.b32 %r1, [%rd2]; st.global.u32 [%rd1+8], %r1;\n"
    " txq.channel_data_type.b32 %r1, [%rd2]; st.global.u32 [%rd1+12], %r1;\n"
    " txq.channel_order.b32 %r1, [%rd2]; st.global.u32 [%rd1+16], %r1;\n"
    " txq.normalized_coords.b32 %r1, [%rd2]; st.global.u32 [%rd1+20], %r1;\n"
    " txq.filter_mode.b32 %r1, [%rd2]; st.global.u32 [%rd1+24], %r1;\n"
    " txq.addr_mode_0.b32 %r1, [%rd2]; st.global.u32 [%rd1+28], %r1;\n"
    " txq.addr_mode_1.b32 %r1, [%rd2]; st.global.u32 [%rd1+32], %r1;\n"
    " txq.array_size.b32 %r1, [%rd2]; st.global.u32 [%rd1+36], %r1;\n"
    " txq.num_mipmap_levels.b32 %r1, [%rd2]; st.global.u32 [%rd1+40], %r1;\n"
    " txq.width.b32 %r1, [tref]; st.global.u32 [%rd1+44], %r1;\n"
    " suq.width.b32 %r1, [%rd3]; st.global.u32 [%rd1+48], %r1;\n"
    " suq.height.b32 %r1, [sref]; st.global.u32 [%rd1+52], %r1;\n"
    " suq.memory_layout.b32 %r1, [%rd3]; st.global.u32 [%rd1+56], %r1;\n"
    " istypep.texref %p1, %rd2; selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd1+60], %r1;\n"
    " istypep.surfref %p1, %rd2; selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd1+64], %r1;\n"
    " istypep.surfref %p1, %rd3; selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd1+68], %r1;\n"
    " mov.u64 %rd4, smp; istypep.samplerref %p1, %rd4; selp.u32 %r1, 1, 0, %p1;"
    " st.global.u32 [%rd1+72], %r1;\n"
    " mov.u32 %r2, 1; txq.level.width.b32 %r1, [%rd2], %r2; st.global.u32 [%rd1+76], %r1;\n"
    " ret;\n}\n"
    ".entry u(.param .u64 out)\n{\n"
    " .reg .f32 %f<8>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.f32 %f1, 0f3FC00000; mov.f32 %f2, 0f3F400000;\n"
    " tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tref, {%f1, %f2}];\n"
    " st.global.v4.f32 [%rd1], {%f3, %f4, %f5, %f6};\n"
    " mov.u64 %rd2, tref;\n"
    " tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, {%f1, %f2}];\n"
    " st.global.v4.f32 [%rd1+16], {%f3, %f4, %f5, %f6};\n"
    " tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tref, smp, {%f1, %f2}];\n"
    " st.global.v4.f32 [%rd1+32], {%f3, %f4, %f5, %f6};\n"
    " tex.level.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tref, {%f1, %f2}], %f2;\n"
    " st.global.v4.f32 [%rd1+48], {%f3, %f4, %f5, %f6};\n"
    " mov.u32 %r1, 1; mov.u32 %r2, 0;\n"
    " tex.2d.v4.f32.s32 {%f3, %f4, %f5, %f6}, [tref, {%r1, %r2}], {%r1, %r1};\n"
    " st.global.v4.f32 [%rd1+64], {%f3, %f4, %f5, %f6};\n"
    " ret;\n}\n"
    ".entry s(.param .u64 out)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .b16 %rs<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, 4; mov.u32 %r2, 1; mov.u32 %r3, 5;\n"
    " sured.b.add.2d.u32.trap [sref, {%r1, %r2}], %r3;\n"
    " mov.u32 %r1, 8; mov.u32 %r3, -7;\n"
    " sured.b.min.2d.s32.trap [sref, {%r1, %r2}], %r3;\n"
    " mov.u32 %r1, 12; mov.u32 %r3, 1000;\n"
    " sured.b.max.2d.u32.clamp [sref, {%r1, %r2}], %r3;\n"
    " mov.u32 %r1, 0; mov.u32 %r3, 0xf0;\n"
    " sured.b.or.2d.b32.trap [sref, {%r1, %r2}], %r3;\n"
    " mov.u32 %r1, 1; mov.u32 %r2, 0; mov.u32 %r4, 77;\n"
    " sust.p.2d.v4.b32.trap [sref, {%r1, %r2}], {%r4, %r4, %r4, %r4};\n"
    " mov.u32 %r1, 0;\n"
    " suld.b.2d.v4.b32.trap {%r4, %r5, %r6, %r7}, [sref, {%r1, %r2}];\n"
    " st.global.v4.u32 [%rd1], {%r4, %r5, %r6, %r7};\n"
    " mov.u32 %r2, 1;\n"
    " suld.b.2d.v4.b32.trap {%r4, %r5, %r6, %r7}, [sref, {%r1, %r2}];\n"
    " st.global.v4.u32 [%rd1+16], {%r4, %r5, %r6, %r7};\n"
    " mov.u32 %r1, 5;\n"
    " suld.b.2d.b8.trap {%rs1}, [sref, {%r1, %r2}];\n"
    " cvt.u32.u16 %r4, %rs1; st.global.u32 [%rd1+32], %r4;\n"
    " mov.u32 %r1, 16;\n"
    " suld.b.2d.b32.zero %r4, [sref, {%r1, %r2}];\n"
    " st.global.u32 [%rd1+36], %r4;\n"
    " ret;\n}\n"
    ".entry lay(.param .u64 out, .param .u64 th, .param .u64 ch)\n{\n"
    " .reg .f32 %f<12>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [th]; ld.param.u64 %rd3, [ch];\n"
    " mov.u32 %r1, 1; mov.f32 %f1, 0f3FC00000; mov.f32 %f2, 0f3F000000;\n"
    " tex.a2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, {%r1, %f1, %f2, %f2}];\n"
    " st.global.f32 [%rd1], %f3;\n"
    " mov.u32 %r1, 7;\n"
    " tex.a2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, {%r1, %f1, %f2, %f2}];\n"
    " st.global.f32 [%rd1+4], %f3;\n"
    /* cube: directions along each axis -> the centre texel of faces 0..5 */
    " mov.f32 %f7, 0f3F800000; mov.f32 %f8, 0f00000000; mov.f32 %f9, 0fBF800000;\n"
    " tex.cube.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd3, {%f7, %f8, %f8, %f8}];\n"
    " st.global.f32 [%rd1+8], %f3;\n"
    " tex.cube.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd3, {%f9, %f8, %f8, %f8}];\n"
    " st.global.f32 [%rd1+12], %f3;\n"
    " tex.cube.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd3, {%f8, %f7, %f8, %f8}];\n"
    " st.global.f32 [%rd1+16], %f3;\n"
    " tex.cube.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd3, {%f8, %f9, %f8, %f8}];\n"
    " st.global.f32 [%rd1+20], %f3;\n"
    " tex.cube.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd3, {%f8, %f8, %f7, %f8}];\n"
    " st.global.f32 [%rd1+24], %f3;\n"
    " tex.cube.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd3, {%f8, %f8, %f9, %f8}];\n"
    " st.global.f32 [%rd1+28], %f3;\n"
    " ret;\n}\n";

static void open_refs(void)
{
    S = dbg_new();
    cmd_ctx_init(&C, S);
    C.batch = 1;
    ck_assert_msg(dbg_load_text(S, ptx_refs, strlen(ptx_refs), "refs.ptx") == 0, "%s",
                  dbg_errmsg(S));
}

START_TEST(txq_suq_istypep)
{
    open_refs();
    RUN("buffer img u8 48");
    RUN("buffer sim s32 12");
    RUN("buffer out u32 20");
    RUN("texture t img u8 4x3 channels=4 read=normalized-float filter=linear address=wrap,mirror "
        "normalized");
    RUN("surface sf sim s32 4x3");
    RUN("bind tref t");
    RUN("bind sref sf");
    RUN("launch q<<<1, 1>>>(out, t, sf)");
    ck_assert_int_eq(C.kernel_failed, 0);
    uint32_t o[20];
    readbuf("out", o, sizeof o);
    uint32_t want[20] = {4, 3, 1, 0x10D2, 0x10B5, 1, 1, 0, 1, 0, 0, 4, 4, 3, 1, 1, 0, 1, 1, 2};
    for (int i = 0; i < 20; i++)
        ck_assert_msg(o[i] == want[i], "query %d: got %u (0x%x) want %u", i, o[i], o[i], want[i]);
    /* binding a surface to a texref is refused; unknown variables too */
    ck_assert_int_eq(run("bind tref sf"), -1);
    ck_assert_int_eq(run("bind nosuch t"), -1);
    close_session();
}
END_TEST

START_TEST(texref_and_sampler)
{
    open_refs();
    float img[4 * 3];
    for (int i = 0; i < 12; i++)
        img[i] = (float)(i * i) * 0.5f;
    fbuf("img", img, 12);
    RUN("buffer out f32 20");
    RUN("texture t img f32 4x3");
    RUN("texture lin img f32 4x3 filter=linear");
    /* unbound texref: a fault, not a crash */
    RUN("launch u<<<1, 1>>>(out)");
    ck_assert_int_eq(C.kernel_failed, 1);
    C.kernel_failed = 0;
    RUN("bind tref t");
    RUN("bind smp lin");
    RUN("launch u<<<1, 1>>>(out)");
    ck_assert_int_eq(C.kernel_failed, 0);
    float o[20];
    readbuf("out", o, sizeof o);
    rtex pt = {{4, 3, 1}, 1, img, CLAMP, 0, 0, 0}, ln = {{4, 3, 1}, 1, img, CLAMP, 1, 0, 0};
    float want_pt = ref_sample(&pt, 2, 1.5f, 0.75f, 0, 0), want_ln = ref_sample(&ln, 2, 1.5f, 0.75f, 0, 0);
    expect_f("texref", 0, o[0], want_pt);
    expect_f("texref g", 1, o[1], 0.0f);
    expect_f("texref a", 3, o[3], 1.0f);
    expect_f("mov texref", 4, o[4], want_pt);
    expect_f("sampler", 8, o[8], want_ln);
    expect_f("level", 12, o[12], want_pt);
    expect_f("int+offset", 16, o[16], img[1 * 4 + 2]);
    /* a reload recreates the objects and bindings with the same handles */
    ck_assert_int_eq(dbg_load_text(S, ptx_refs, strlen(ptx_refs), "refs.ptx"), 0);
    memset(o, 0, sizeof o);
    RUN("info textures");
    RUN("launch u<<<1, 1>>>(out)");
    ck_assert_int_eq(C.kernel_failed, 0);
    readbuf("out", o, sizeof o);
    expect_f("reloaded", 0, o[0], want_pt);
    expect_f("reloaded sampler", 8, o[8], want_ln);
    close_session();
}
END_TEST

START_TEST(surface_reductions)
{
    open_refs();
    long v[4 * 3] = {1, 2, 3, 4, 10, 20, 30, 40, 0x0f, -3, 2000000000, 0};
    ibuf("sim", "s32", v, 12);
    RUN("buffer out u32 10");
    RUN("surface sf sim s32 4x3");
    RUN("bind sref sf");
    RUN("launch s<<<1, 1>>>(out)");
    ck_assert_int_eq(C.kernel_failed, 0);
    uint32_t o[10];
    readbuf("out", o, sizeof o);
    /* row 0 after sust.p of 77 at element 1 */
    uint32_t r0[4] = {1, 77, 3, 4};
    /* row 1: [0] |= 0xf0, [1] += 5, [2] = min(30, -7), [3] = max(40, 1000) (u32) */
    uint32_t r1[4] = {10 | 0xf0, 25, (uint32_t)-7, 1000};
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(o[i], r0[i]);
        ck_assert_uint_eq(o[4 + i], r1[i]);
    }
    ck_assert_uint_eq(o[8], 25 >> 8 & 0xff);   /* byte 5 of row 1: second byte of 25 */
    ck_assert_uint_eq(o[9], 0);                /* .zero beyond the row */
    close_session();
}
END_TEST

START_TEST(layered_and_cube)
{
    open_refs();
    float lay[3 * 2 * 2], cube[6 * 3 * 3];
    for (int i = 0; i < 12; i++)
        lay[i] = (float)i + 0.5f;
    for (int i = 0; i < 54; i++)
        cube[i] = (float)(i / 9) * 10.0f + (float)(i % 9);
    fbuf("lay", lay, 12);
    fbuf("cub", cube, 54);
    RUN("buffer out f32 8");
    RUN("texture tl lay f32 3x2 layers=2");
    RUN("texture tc cub f32 3 cube");
    RUN("launch lay<<<1, 1>>>(out, tl, tc)");
    ck_assert_int_eq(C.kernel_failed, 0);
    float o[8];
    readbuf("out", o, sizeof o);
    expect_f("layer 1", 0, o[0], lay[6 + 0 * 3 + 1]);
    expect_f("layer clamped", 1, o[1], lay[6 + 0 * 3 + 1]);
    for (int f = 0; f < 6; f++)
        expect_f("cube face", 2 + f, o[2 + f], cube[f * 9 + 4]);
    close_session();
}
END_TEST

/* The deprecated .tex space variable is a texref; .f16 and .f16x2 results. */
static const char ptx_old[] =
    ".version 6.4\n.target sm_53\n.address_size 64\n.tex .u32 oldtex;\n"
    ".entry k(.param .u64 out)\n{\n"
    " .reg .f32 %f<4>; .reg .b16 %h<8>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out]; mov.f32 %f1, 0f3FC00000;\n"
    " tex.1d.v4.f16.f32 {%h1, %h2, %h3, %h4}, [oldtex, {%f1}];\n"
    " st.global.v4.b16 [%rd1], {%h1, %h2, %h3, %h4};\n"
    " mov.f32 %f1, 0f3FE00000;\n"
    " tex.1d.v2.f16x2.f32 {%r1, %r2}, [oldtex, {%f1}];\n"
    " st.global.v2.b32 [%rd1+8], {%r1, %r2};\n"
    " ret;\n}\n";

START_TEST(tex_space_f16_results)
{
    S = dbg_new();
    cmd_ctx_init(&C, S);
    C.batch = 1;
    ck_assert_int_eq(dbg_load_text(S, ptx_old, strlen(ptx_old), "old.ptx"), 0);
    RUN("buffer d f32 4 = {1, 2.5, 3, 4}");
    RUN("buffer out u16 8");
    RUN("texture t d f32 4 filter=linear");
    RUN("bind oldtex t");
    RUN("launch k<<<1, 1>>>(out)");
    ck_assert_int_eq(C.kernel_failed, 0);
    uint16_t o[8];
    readbuf("out", o, sizeof o);
    /* x = 1.5: T[1] = 2.5 (0x4100); x = 1.75: 2.5 + 0.25 * 0.5 = 2.625 (0x4140); alpha 1.0 */
    uint16_t want[8] = {0x4100, 0, 0, 0x3c00, 0x4140, 0, 0, 0x3c00};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(o[i] == want[i], "h[%d] = 0x%04x, want 0x%04x", i, o[i], want[i]);
    close_session();
}
END_TEST

static Suite *tex_suite(void)
{
    Suite *s = suite_create("tex");
    TCase *tc = tcase_create("fixtures");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, fetch1d_linear_memory, 0, 2);
    tcase_add_loop_test(tc, tex1d_modes, 0, 2);
    tcase_add_loop_test(tc, tex2d_modes, 0, 2);
    tcase_add_loop_test(tc, tex2d_uchar4_normalized, 0, 2);
    tcase_add_loop_test(tc, tex2d_int_element, 0, 2);
    tcase_add_loop_test(tc, tex3d_linear, 0, 2);
    tcase_add_loop_test(tc, gather4, 0, 2);
    tcase_add_loop_test(tc, surface_rw, 0, 2);
    tcase_add_loop_test(tc, surface_boundary_modes, 0, 2);
    tcase_add_loop_test(tc, bad_handles_fault, 0, 2);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("ptx");
    tcase_add_test(tp, txq_suq_istypep);
    tcase_add_test(tp, texref_and_sampler);
    tcase_add_test(tp, surface_reductions);
    tcase_add_test(tp, layered_and_cube);
    tcase_add_test(tp, tex_space_f16_results);
    suite_add_tcase(s, tp);
    return s;
}

int main(void)
{
    return tu_run_suite(tex_suite());
}
