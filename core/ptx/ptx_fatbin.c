/* ptx_fatbin.c - PTX and SASS inside nvcc fat binaries (.nv_fatbin containers): the best entry
 * for a compute capability, inflated (zstd) when compressed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "ptx.h"

/* Layout (little-endian), see docs/ARCHITECTURE.md "CUDA runtime":
 * container: u32 magic 0xBA55ED50, u16 version, u16 header size, u64 payload size; then the
 * payload, a run of entries: u16 kind (1 PTX, 2 ELF cubin), u16, u32 entry header size,
 * u64 stored size, u32 compressed size, u32, u16 minor, u16 major, u32 sm arch, u32 name
 * offset, u32 name size, u64 flags, u64, u64 uncompressed size; the stored bytes follow the
 * entry header. */
#define FB_KIND_PTX   1
#define FB_KIND_ELF   2
#define FB_COMPRESSED 0x2000u      /* the older, proprietary compression */
#define FB_ZSTD       0x8000u
#define FB_PTX_MAX    (1ull << 30) /* refuse to inflate more than 1 GB of PTX */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

size_t ptx_fatbin_size(const void *image, size_t maxlen)
{
    const uint8_t *p = image;
    if (!p || maxlen < 16 || rd32(p) != PTX_FATBIN_MAGIC)
        return 0;
    uint16_t hsize = rd16(p + 6);
    uint64_t psize = rd64(p + 8);
    if (hsize < 16 || hsize > maxlen || psize > maxlen - hsize)
        return 0;
    return (size_t)(hsize + psize);
}

typedef struct {
    const uint8_t *hdr, *data;
    uint32_t arch;
    uint64_t stored, usize, flags;
} fb_entry;

static int fb_better(const fb_entry *a, const fb_entry *best, uint32_t cc)
{
    if (!best)
        return 1;
    int a_ok = a->arch <= cc, b_ok = best->arch <= cc;
    if (a_ok != b_ok)
        return a_ok;   /* an entry the device can run beats one it cannot */
    return a_ok ? a->arch > best->arch : a->arch < best->arch;
}

/* The bytes of entry e, inflated (zstd) when compressed, NUL-terminated and malloc'd in *out,
 * their length in *np; -1 with the reason in err. `what` names them in messages. */
static int fb_inflate(const fb_entry *e, const char *what, char **out, uint64_t *np, char *err,
                      size_t errlen)
{
    const fb_entry best = *e;
    uint64_t n = best.stored;
    char *text;
    if (best.flags & FB_ZSTD) {
        size_t fsz = ZSTD_findFrameCompressedSize(best.data, (size_t)best.stored);
        unsigned long long cs = ZSTD_isError(fsz) ? ZSTD_CONTENTSIZE_ERROR
                                                  : ZSTD_getFrameContentSize(best.data, fsz);
        if (cs == ZSTD_CONTENTSIZE_ERROR) {
            snprintf(err, errlen, "corrupt compressed %s (sm_%u)", what, best.arch);
            return -1;
        }
        if (cs == ZSTD_CONTENTSIZE_UNKNOWN)
            cs = best.usize;
        if (cs > FB_PTX_MAX) {
            snprintf(err, errlen, "compressed %s too large (%llu bytes)", what, cs);
            return -1;
        }
        text = malloc((size_t)cs + 1);
        if (!text) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        size_t got = ZSTD_decompress(text, (size_t)cs, best.data, fsz);
        if (ZSTD_isError(got)) {
            free(text);
            snprintf(err, errlen, "cannot decompress the %s: %s", what, ZSTD_getErrorName(got));
            return -1;
        }
        n = got;
    } else if (best.flags & FB_COMPRESSED) {
        snprintf(err, errlen, "the %s is compressed with a method ptxdbg does not read; rebuild "
                 "with nvcc -Xfatbin=-compress-all=false or with CUDA 12.8 or later (zstd)", what);
        return -1;
    } else {
        text = malloc((size_t)n + 1);
        if (!text) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        memcpy(text, best.data, (size_t)n);
    }
    text[n] = 0;
    *out = text;
    *np = n;
    return 0;
}

/* Visit every entry of the containers at image (back to back), with its kind (FB_KIND_*); 0,
 * or -1 with the reason in err when a container or an entry is corrupt. */
typedef void (*fb_visit)(void *ctx, uint16_t kind, const fb_entry *x);
static int fb_walk(const void *image, size_t len, fb_visit fn, void *ctx, char *err,
                   size_t errlen)
{
    const uint8_t *p = image, *end = p + len;
    while ((size_t)(end - p) >= 16 && rd32(p) == PTX_FATBIN_MAGIC) {
        size_t csize = ptx_fatbin_size(p, (size_t)(end - p));
        if (!csize) {
            snprintf(err, errlen, "corrupt fat binary container");
            return -1;
        }
        const uint8_t *e = p + rd16(p + 6), *cend = p + csize;
        while (cend - e >= 64) {
            fb_entry x;
            uint32_t ehs = rd32(e + 4);
            x.hdr = e;
            x.stored = rd64(e + 8);
            x.arch = rd32(e + 28);
            x.flags = rd64(e + 40);
            x.usize = rd64(e + 56);
            if (ehs < 64 || ehs > (size_t)(cend - e) || x.stored > (size_t)(cend - e) - ehs) {
                snprintf(err, errlen, "corrupt fat binary entry");
                return -1;
            }
            x.data = e + ehs;
            fn(ctx, rd16(e), &x);
            e = x.data + x.stored;
        }
        p += (csize + 7) & ~(size_t)7;
        if (p > end)
            break;
    }
    return 0;
}

/* ptx_fatbin_ptx's walk: the best PTX entry for cc, and the SASS architectures seen. */
typedef struct {
    unsigned cc;
    fb_entry best;
    int have;
    char sass[128];
    size_t sn;
} fb_ptx_pick;

static void fb_pick_ptx(void *ctx, uint16_t kind, const fb_entry *x)
{
    fb_ptx_pick *k = ctx;
    if (kind == FB_KIND_PTX) {
        if (fb_better(x, k->have ? &k->best : NULL, k->cc)) {
            k->best = *x;
            k->have = 1;
        }
    } else if (kind == FB_KIND_ELF && k->sn < sizeof k->sass - 16) {
        k->sn += (size_t)snprintf(k->sass + k->sn, sizeof k->sass - k->sn, "%ssm_%u",
                                  k->sn ? ", " : "", x->arch);
    }
}

int ptx_fatbin_ptx(const void *image, size_t len, unsigned cc, char **ptx, size_t *ptx_len,
                   char *err, size_t errlen)
{
    fb_ptx_pick k = { .cc = cc };
    *ptx = NULL;
    *ptx_len = 0;
    if (fb_walk(image, len, fb_pick_ptx, &k, err, errlen))
        return -1;
    if (!k.have) {
        if (k.sn)
            snprintf(err, errlen, "the fat binary carries only SASS (%s) and no PTX; ptxdbg runs "
                     "PTX: rebuild with -arch=sm_XX or -gencode arch=compute_XX,code=compute_XX",
                     k.sass);
        else
            snprintf(err, errlen, "the fat binary holds no PTX");
        return -2;
    }
    char *text;
    uint64_t n;
    if (fb_inflate(&k.best, "PTX", &text, &n, err, errlen))
        return -1;
    text[n] = 0;
    *ptx_len = strlen(text);   /* the stored PTX may be padded with NULs */
    *ptx = text;
    return 0;
}

/* ptx_fatbin_sass's walk: the SASS of the highest architecture <= cc. */
typedef struct {
    unsigned cc;
    fb_entry best;
    int have;
} fb_sass_pick;

static void fb_pick_sass(void *ctx, uint16_t kind, const fb_entry *x)
{
    fb_sass_pick *k = ctx;
    if (kind == FB_KIND_ELF && x->arch <= k->cc && (!k->have || x->arch > k->best.arch)) {
        k->best = *x;
        k->have = 1;
    }
}

int ptx_fatbin_sass(const void *image, size_t len, unsigned cc, uint8_t **elf, size_t *elf_len,
                    char *err, size_t errlen)
{
    fb_sass_pick k = { .cc = cc };
    *elf = NULL;
    *elf_len = 0;
    if (fb_walk(image, len, fb_pick_sass, &k, err, errlen))
        return -1;
    if (!k.have)
        return 1;
    char *bytes;
    uint64_t n;
    if (fb_inflate(&k.best, "SASS", &bytes, &n, err, errlen))
        return -1;
    *elf = (uint8_t *)bytes;
    *elf_len = (size_t)n;
    return 0;
}
