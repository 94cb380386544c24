/* test_cudrv.c - Check suite of the driver's private tables (cu_export.c) and MD2 (cu_hash.c). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "test_util.h"
#include "cu_hash.h"
#include "cu_int.h"

CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId);
CUresult cuCtxDestroy_v2(CUcontext ctx);

static void hex(const unsigned char *d, char *out)
{
    for (int i = 0; i < 16; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

static void md2_hex(const char *msg, char *out)
{
    cu_md2 h;
    unsigned char d[16];
    cu_md2_init(&h);
    cu_md2_update(&h, msg, strlen(msg));
    cu_md2_final(&h, d);
    hex(d, out);
}

/* RFC 1319's test suite (A.5). */
START_TEST(test_md2_rfc1319)
{
    static const char *const v[][2] = {
        { "", "8350e5a3e24c153df2275c9f80692773" },
        { "a", "32ec01ec4a6dac72c0ab96fb34c0b5d1" },
        { "abc", "da853b0d3f88d99b30283a69e6ded6bb" },
        { "message digest", "ab4f496bfb2a530b219ff33031fe06b0" },
        { "abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b" },
        { "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
          "da33def2a42df13975352846c30338cd" },
        { "1234567890123456789012345678901234567890123456789012345678901234567890123456"
          "7890", "d5976f79d83d3a0dc9806c3c66f3efd8" },
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        char out[33];
        md2_hex(v[i][0], out);
        ck_assert_msg(!strcmp(out, v[i][1]), "MD2(\"%s\") = %s, want %s", v[i][0], out, v[i][1]);
    }
    /* fed in pieces: the same digest */
    cu_md2 h;
    unsigned char d[16];
    char out[33];
    cu_md2_init(&h);
    cu_md2_update(&h, "message ", 8);
    cu_md2_update(&h, "digest", 6);
    cu_md2_final(&h, d);
    hex(d, out);
    ck_assert_str_eq(out, "ab4f496bfb2a530b219ff33031fe06b0");
}
END_TEST

/* HMAC (RFC 2104) with MD2's 16-byte block, against the definition H(K^opad, H(K^ipad, m)). */
START_TEST(test_hmac_md2)
{
    unsigned char key[16], k[16], inner[16], want[16], got[16];
    for (int i = 0; i < 16; i++)
        key[i] = (unsigned char)(i * 37 + 5);
    const char *msg = "the runtime and the driver agree";
    cu_md2 h;
    for (int i = 0; i < 16; i++) k[i] = key[i] ^ 0x36;
    cu_md2_init(&h);
    cu_md2_update(&h, k, 16);
    cu_md2_update(&h, msg, strlen(msg));
    cu_md2_final(&h, inner);
    for (int i = 0; i < 16; i++) k[i] = key[i] ^ 0x5c;
    cu_md2_init(&h);
    cu_md2_update(&h, k, 16);
    cu_md2_update(&h, inner, 16);
    cu_md2_final(&h, want);
    cu_hmac_md2_begin(&h, key);
    cu_md2_update(&h, msg, strlen(msg));
    cu_hmac_md2_end(&h, key, got);
    ck_assert(!memcmp(got, want, 16));
}
END_TEST

static const unsigned char U_CUDART[16] = { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
                                            0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 };
static const unsigned char U_CLS[16] = { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
                                         0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 };
static const unsigned char U_CHECK[16] = { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
                                           0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 };

static void *const *table(const unsigned char *u)
{
    CUuuid id;
    memcpy(id.bytes, u, 16);
    const void *t = NULL;
    ck_assert_int_eq(cuGetExportTable(&t, &id), CUDA_SUCCESS);
    ck_assert_ptr_nonnull(t);
    return (void *const *)t;
}

/* Run fn with stderr sent to a file; return what it printed (static buffer). */
static const char *stderr_of(CUresult (*fn)(void *), void *arg, CUresult *r)
{
    static char buf[4096];
    char path[] = "/tmp/ptxdbg-cudrv-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    *r = fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return buf;
}

static CUresult get_table(void *arg)
{
    const void *t;
    return cuGetExportTable(&t, arg);
}

static CUresult call_slot3(void *arg)
{
    CUresult (*f)(void) = (CUresult (*)(void))((void *const *)arg)[3];
    return f();
}

START_TEST(test_export_tables)
{
    const void *t;
    CUuuid id;
    memcpy(id.bytes, U_CUDART, 16);
    ck_assert_int_eq(cuGetExportTable(NULL, &id), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGetExportTable(&t, NULL), CUDA_ERROR_INVALID_VALUE);
    /* slot 0 of a sized table holds its size: the runtime's interface has 10 slots */
    void *const *cudart = table(U_CUDART);
    ck_assert_uint_eq((uintptr_t)cudart[0], 10 * sizeof(void *));
    ck_assert_ptr_eq(table(U_CUDART), cudart);          /* one table per UUID */
    /* the table asked for before cuInit is declined quietly */
    static const unsigned char declined[16] = { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
                                                0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 };
    CUresult r;
    memcpy(id.bytes, declined, 16);
    const char *err = stderr_of(get_table, &id, &r);
    ck_assert_int_eq(r, CUDA_ERROR_NOT_FOUND);
    ck_assert_str_eq(err, "");
    /* an unknown table is refused with its UUID named */
    for (int i = 0; i < 16; i++) id.bytes[i] = (char)(0x10 + i);
    err = stderr_of(get_table, &id, &r);
    ck_assert_int_eq(r, CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_msg(strstr(err, "{10111213-1415-1617-1819-1a1b1c1d1e1f}"), "message: %s", err);
    err = stderr_of(get_table, &id, &r);                    /* named once */
    ck_assert_int_eq(r, CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_str_eq(err, "");
    /* a slot not provided names its table and slot and returns CUDA_ERROR_NOT_SUPPORTED */
    err = stderr_of(call_slot3, (void *)cudart, &r);
    ck_assert_int_eq(r, CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_msg(strstr(err, "slot 3") && strstr(err, "cudart interface") &&
                  strstr(err, "{6bd5fb6c-5bf4-e74a-8987-d93912fd9df9}"), "message: %s", err);
}
END_TEST

typedef CUresult (*cls_put_fn)(CUcontext, void *, void *, void (*)(CUcontext, void *, void *));
typedef CUresult (*cls_del_fn)(CUcontext, void *);
typedef CUresult (*cls_get_fn)(void **, CUcontext, void *);

static int dtor_calls;
static void *dtor_value;
static void dtor(CUcontext ctx, void *key, void *value)
{
    (void)ctx, (void)key;
    dtor_calls++;
    dtor_value = value;
}

START_TEST(test_context_local_storage)
{
    ck_assert_int_eq(cuInit(0), CUDA_SUCCESS);
    void *const *cls = table(U_CLS);
    cls_put_fn put = (cls_put_fn)cls[0];
    cls_del_fn del = (cls_del_fn)cls[1];
    cls_get_fn get = (cls_get_fn)cls[2];
    CUcontext ctx;
    ck_assert_int_eq(cuCtxCreate_v2(&ctx, 0, 0), CUDA_SUCCESS);
    int key1, key2, v1, v2;
    void *v = NULL;
    ck_assert_int_ne(get(&v, ctx, &key1), CUDA_SUCCESS);       /* nothing stored yet */
    ck_assert_int_eq(put(ctx, &key1, &v1, dtor), CUDA_SUCCESS);
    ck_assert_int_eq(put(NULL, &key2, &v2, dtor), CUDA_SUCCESS);  /* NULL: the current one */
    ck_assert_int_eq(get(&v, ctx, &key1), CUDA_SUCCESS);
    ck_assert_ptr_eq(v, &v1);
    ck_assert_int_eq(get(&v, NULL, &key2), CUDA_SUCCESS);
    ck_assert_ptr_eq(v, &v2);
    ck_assert_int_eq(put(ctx, &key1, &v2, dtor), CUDA_SUCCESS);   /* replaced */
    ck_assert_int_eq(get(&v, ctx, &key1), CUDA_SUCCESS);
    ck_assert_ptr_eq(v, &v2);
    ck_assert_int_eq(del(ctx, &key2), CUDA_SUCCESS);
    ck_assert_int_ne(get(&v, ctx, &key2), CUDA_SUCCESS);
    /* destroying the context runs the destructors of what is left */
    dtor_calls = 0;
    ck_assert_int_eq(cuCtxDestroy_v2(ctx), CUDA_SUCCESS);
    ck_assert_int_eq(dtor_calls, 1);
    ck_assert_ptr_eq(dtor_value, &v2);
}
END_TEST

typedef CUresult (*check_fn)(unsigned, uint64_t, uint64_t *);

/* The driver check: fixed answers for versions ending in 0 and 1, else the HMAC-MD2 of the
 * facts both sides know (restated here from what the check hashes). */
START_TEST(test_driver_check)
{
    ck_assert_int_eq(cuInit(0), CUDA_SUCCESS);
    void *const *chk = table(U_CHECK);
    ck_assert_uint_eq((uintptr_t)chk[0], 3 * sizeof(void *));
    check_fn f = (check_fn)chk[1];
    uint64_t out[2];
    ck_assert_int_eq(f(13000, 1700000000, out), CUDA_SUCCESS);
    ck_assert(out[0] == 0x3341181c03cb675cull && out[1] == 0x8ed383aa1f4cd1e8ull);
    ck_assert_int_eq(f(13001, 1700000000, out), CUDA_SUCCESS);
    ck_assert(out[0] == 0x1841181c03cb675cull && out[1] == 0x8ed383aa1f4cd1e8ull);
    ck_assert_int_eq(f(13002, 1700000000, out), CUDA_SUCCESS);
    static const unsigned char key[16] = { 0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                                           0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f };
    struct {
        uint32_t driver, version, pid, thread;
        const void *cudart, *check, *fn;
        uint64_t seconds;
    } in = { 13000, 13002, (uint32_t)getpid(), (uint32_t)(uintptr_t)pthread_self(),
             table(U_CUDART), chk, chk[1], 1700000000 };
    int dv = 0;
    ck_assert_int_eq(cuDriverGetVersion(&dv), CUDA_SUCCESS);
    ck_assert_int_eq(dv, 13000);
    cu_md2 h;
    cu_hmac_md2_begin(&h, key);
    cu_md2_update(&h, &in, sizeof in);
    struct { CUuuid uuid; int32_t domain, bus, device; } dev;
    memset(&dev, 0, sizeof dev);
    ck_assert_int_eq(cuDeviceGetUuid(&dev.uuid, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuDeviceGetAttribute(&dev.domain, 50, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuDeviceGetAttribute(&dev.bus, 33, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuDeviceGetAttribute(&dev.device, 34, 0), CUDA_SUCCESS);
    cu_md2_update(&h, &dev, sizeof dev);
    unsigned char mac[16];
    cu_hmac_md2_end(&h, key, mac);
    ck_assert(!memcmp(out, mac, 16));
    uint64_t later[2];
    ck_assert_int_eq(f(13002, 1700000001, later), CUDA_SUCCESS);
    ck_assert(memcmp(out, later, 16) != 0);               /* the time is part of it */
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cudrv");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, test_md2_rfc1319);
    tcase_add_test(tc, test_hmac_md2);
    tcase_add_test(tc, test_export_tables);
    tcase_add_test(tc, test_context_local_storage);
    tcase_add_test(tc, test_driver_check);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
