/* rt_sass.c - kernels' register counts from the SASS (the cubin) a fat binary carries for the device. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

/* ---------------------------------------------------------------------------------------------
 * ptxas records each kernel's registers in the cubin (an ELF64 file) twice: in the section
 * header of `.text.NAME` (the top 8 bits of sh_info) and in the `.nv.info` section as
 * EIATTR_REGCOUNT (attribute 0x2f, format EIFMT_SVAL: u16 size, u32 symbol index, u32 count).
 * Both are read (the attribute wins); everything is bounds-checked, a malformed cubin gives no
 * counts. The table is made once per module, at its first use.
 * ------------------------------------------------------------------------------------------- */
#define EIATTR_REGCOUNT 0x2f
#define EIFMT_NVAL 0x01
#define EIFMT_BVAL 0x02
#define EIFMT_HVAL 0x03
#define EIFMT_SVAL 0x04

typedef struct {
    const uint8_t *d;
    size_t n;
    uint64_t shoff;
    uint32_t shnum, shentsize;
} sass_elf;

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Section i's header fields; 0 when out of bounds. */
static int sass_sect(const sass_elf *e, uint32_t i, uint32_t *name, uint32_t *type, uint64_t *off,
                     uint64_t *size, uint32_t *link, uint32_t *info)
{
    if (i >= e->shnum)
        return 0;
    uint64_t h = e->shoff + (uint64_t)i * e->shentsize;
    if (h > e->n || e->n - h < 64)
        return 0;
    const uint8_t *p = e->d + h;
    *name = rd32(p);
    *type = rd32(p + 4);
    *off = rd64(p + 24);
    *size = rd64(p + 32);
    *link = rd32(p + 40);
    *info = rd32(p + 44);
    return *off <= e->n && e->n - *off >= *size;
}

/* The NUL-terminated string at offset o of section strsec; NULL when not inside it. */
static const char *sass_str(const sass_elf *e, uint32_t strsec, uint64_t o)
{
    uint32_t nm, ty, lk, inf;
    uint64_t off, size;
    if (!sass_sect(e, strsec, &nm, &ty, &off, &size, &lk, &inf) || o >= size)
        return NULL;
    const char *s = (const char *)e->d + off + o;
    return memchr(s, 0, (size_t)(size - o)) ? s : NULL;
}

static int sass_add(rt_module *mod, const char *name, int regs)
{
    for (int i = 0; i < mod->nsass; i++)
        if (!strcmp(mod->sass[i].name, name)) {
            mod->sass[i].regs = regs;
            return 0;
        }
    rt_sass_fn *t = realloc(mod->sass, sizeof *t * (size_t)(mod->nsass + 1));
    if (!t)
        return -1;
    mod->sass = t;
    if (!(t[mod->nsass].name = strdup(name)))
        return -1;
    t[mod->nsass++].regs = regs;
    return 0;
}

static void sass_read(rt_module *mod, const uint8_t *d, size_t n)
{
    if (n < 64 || memcmp(d, "\177ELF", 4) || d[4] != 2 || d[5] != 1)
        return;
    sass_elf e = { d, n, rd64(d + 0x28), rd16(d + 0x3c), rd16(d + 0x3a) };
    uint32_t shstr = rd16(d + 0x3e), nm, ty, lk, inf;
    uint64_t off, size;
    if (e.shentsize < 64)
        return;
    uint32_t symtab = UINT32_MAX;
    for (uint32_t i = 0; i < e.shnum; i++) {
        if (!sass_sect(&e, i, &nm, &ty, &off, &size, &lk, &inf))
            continue;
        const char *s = sass_str(&e, shstr, nm);
        if (ty == 2)   /* SHT_SYMTAB */
            symtab = i;
        if (s && !strncmp(s, ".text.", 6) && s[6] && (inf >> 24))
            sass_add(mod, s + 6, (int)(inf >> 24));
    }
    uint32_t sl, sty, slk, sinf;
    uint64_t soff, ssize;
    if (symtab == UINT32_MAX || !sass_sect(&e, symtab, &sl, &sty, &soff, &ssize, &slk, &sinf))
        return;
    for (uint32_t i = 0; i < e.shnum; i++) {
        if (!sass_sect(&e, i, &nm, &ty, &off, &size, &lk, &inf))
            continue;
        const char *s = sass_str(&e, shstr, nm);
        if (!s || strcmp(s, ".nv.info"))
            continue;
        for (uint64_t k = 0; k + 2 <= size;) {
            const uint8_t *a = d + off + k;
            uint8_t fmt = a[0], attr = a[1];
            uint64_t len = fmt == EIFMT_NVAL ? 2 : fmt == EIFMT_BVAL || fmt == EIFMT_HVAL ? 4
                         : fmt == EIFMT_SVAL && k + 4 <= size ? 4 + (uint64_t)rd16(a + 2) : 0;
            if (!len || len > size - k)
                break;
            if (attr == EIATTR_REGCOUNT && fmt == EIFMT_SVAL && len >= 12) {
                uint64_t sym = rd32(a + 4), so = sym * 24;
                if (so < ssize && ssize - so >= 24) {
                    const char *fn = sass_str(&e, slk, rd32(d + soff + so));
                    if (fn && *fn)
                        sass_add(mod, fn, (int)rd32(a + 8));
                }
            }
            k += len;
        }
    }
}

int rt_sass_regs(rt_module *mod, const char *kernel)
{
    if (!mod->sass_done) {
        mod->sass_done = 1;
        uint8_t *elf;
        size_t n;
        char err[256];
        if (mod->fatbin && rt_fatbin_sass(mod->fatbin, mod->fatbin_len, &elf, &n, err,
                                          sizeof err) == 0) {
            sass_read(mod, elf, n);
            free(elf);
        }
    }
    for (int i = 0; i < mod->nsass; i++)
        if (!strcmp(mod->sass[i].name, kernel))
            return mod->sass[i].regs > 0 && mod->sass[i].regs <= 255 ? mod->sass[i].regs : -1;
    return -1;
}

void rt_sass_free(rt_module *mod)
{
    for (int i = 0; i < mod->nsass; i++)
        free(mod->sass[i].name);
    free(mod->sass);
    mod->sass = NULL;
    mod->nsass = 0;
    mod->sass_done = 0;
}
