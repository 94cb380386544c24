/* dw_host.c - a CUDA program's own (host) ELF: its function symbols and sections; its DWARF
 * is dw_hostdw.c's (launch sites, host backtraces, which code is host code). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dw_int.h"

#define DH_MAX_FILE (1ull << 31)   /* programs larger than 2 GB are not read */

/* ---- ELF ------------------------------------------------------------------------------------ */
static uint16_t r16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t r32(const uint8_t *p) { return (uint32_t)r16(p) | (uint32_t)r16(p + 2) << 16; }
static uint64_t r64(const uint8_t *p) { return (uint64_t)r32(p) | (uint64_t)r32(p + 4) << 32; }

typedef struct { const uint8_t *sh; uint16_t n, size; const uint8_t *names; uint64_t nlen; } dh_shdrs;

static int shdrs(const dw_host *h, dh_shdrs *s)
{
    const uint8_t *e = h->map;
    if (h->len < 64 || memcmp(e, "\177ELF", 4) || e[4] != 2 || e[5] != 1)
        return -1;   /* ELF64 little-endian only */
    uint64_t off = r64(e + 40);
    s->size = r16(e + 58);
    s->n = r16(e + 60);
    uint16_t str = r16(e + 62);
    if (s->size < 64 || off > h->len || (uint64_t)s->n * s->size > h->len - off || str >= s->n)
        return -1;
    s->sh = e + off;
    const uint8_t *ss = s->sh + (size_t)str * s->size;
    uint64_t so = r64(ss + 24), sl = r64(ss + 32);
    if (so > h->len || sl > h->len - so)
        return -1;
    s->names = e + so;
    s->nlen = sl;
    return 0;
}

int dw_host_section(const dw_host *h, const char *name, const uint8_t **data, size_t *len)
{
    dh_shdrs s;
    if (!h || shdrs(h, &s) != 0)
        return -1;
    for (int i = 0; i < s.n; i++) {
        const uint8_t *x = s.sh + (size_t)i * s.size;
        uint32_t no = r32(x);
        uint64_t off = r64(x + 24), sz = r64(x + 32);
        if (no >= s.nlen || strncmp((const char *)s.names + no, name, s.nlen - no) ||
            r32(x + 4) == 8 /* SHT_NOBITS */ || off > h->len || sz > h->len - off)
            continue;
        *data = h->map + off;
        *len = (size_t)sz;
        return 0;
    }
    return -1;
}

static int sym_cmp(const void *a, const void *b)
{
    const dw_hsym *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Defined functions of .symtab (else .dynsym), sorted by address. */
static void read_syms(dw_host *h)
{
    dh_shdrs s;
    if (shdrs(h, &s) != 0)
        return;
    for (int pass = 0; pass < 2 && !h->nsyms; pass++) {
        for (int i = 0; i < s.n; i++) {
            const uint8_t *x = s.sh + (size_t)i * s.size;
            uint32_t type = r32(x + 4), link = r32(x + 40);
            if (type != (pass == 0 ? 2u : 11u) || link >= s.n) /* SHT_SYMTAB / SHT_DYNSYM */
                continue;
            const uint8_t *sx = s.sh + (size_t)link * s.size;
            uint64_t off = r64(x + 24), sz = r64(x + 32), soff = r64(sx + 24), ssz = r64(sx + 32);
            if (off > h->len || sz > h->len - off || soff > h->len || ssz > h->len - soff)
                continue;
            uint64_t n = sz / 24;
            dw_hsym *t = calloc((size_t)n + 1, sizeof *t);
            if (!t)
                return;
            int k = 0;
            for (uint64_t j = 0; j < n; j++) {
                const uint8_t *e = h->map + off + j * 24;
                uint32_t nm = r32(e);
                unsigned info = e[4];
                uint16_t shndx = r16(e + 6);
                uint64_t val = r64(e + 8), size = r64(e + 16);
                if ((info & 15) != 2 || !shndx || !val || nm >= ssz) /* STT_FUNC, defined */
                    continue;
                const char *name = (const char *)h->map + soff + nm;
                if (!memchr(name, 0, (size_t)(ssz - nm)))
                    continue;
                t[k++] = (dw_hsym){val, val + (size ? size : 1), name};
            }
            qsort(t, (size_t)k, sizeof *t, sym_cmp);
            h->syms = t;
            h->nsyms = k;
            break;
        }
    }
}

const char *dw_host_symbol(const dw_host *h, uint64_t addr, uint64_t *off)
{
    if (!h)
        return NULL;
    int lo = 0, hi = h->nsyms - 1, best = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (h->syms[mid].lo <= addr) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (best < 0 || addr >= h->syms[best].hi)
        return NULL;
    if (off)
        *off = addr - h->syms[best].lo;
    return h->syms[best].name;
}

int dw_host_nsymbols(const dw_host *h) { return h ? h->nsyms : 0; }
const char *dw_host_symbol_name(const dw_host *h, int i)
{
    return h && i >= 0 && i < h->nsyms ? h->syms[i].name : NULL;
}

int dw_path_matches(const char *path, const char *name)
{
    if (!path || !name || !*name)
        return 0;
    size_t pl = strlen(path), nl = strlen(name);
    if (nl > pl)
        return 0;
    if (strcmp(path + pl - nl, name))
        return 0;
    return nl == pl || path[pl - nl - 1] == '/' || name[0] == '/';
}

/* ---- open / close --------------------------------------------------------------------------- */
dw_host *dw_host_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 64 || (uint64_t)st.st_size > DH_MAX_FILE) {
        close(fd);
        return NULL;
    }
    dw_host *h = calloc(1, sizeof *h);
    if (!h) {
        close(fd);
        return NULL;
    }
    h->len = (size_t)st.st_size;
    void *m = mmap(NULL, h->len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        free(h);
        return NULL;
    }
    h->map = m;
    dh_shdrs s;
    if (shdrs(h, &s) != 0) {
        dw_host_close(h);
        return NULL;
    }
    read_syms(h);
    dw_hostdw_load(h);
    return h;
}

void dw_host_close(dw_host *h)
{
    if (!h)
        return;
    dw_hostdw_free(h);
    free(h->syms);
    if (h->map)
        munmap(h->map, h->len);
    free(h);
}
