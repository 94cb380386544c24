/* dbg_progmods.c - the device code of a CUDA program before it runs: the PTX of each .nv_fatbin container, for front ends that resolve breakpoints early. */
#include <stdlib.h>
#include "dbg_int.h"
#include "dw.h"

int dbg_program_ptx(const char *path, dbg_ptx_fn fn, void *ctx)
{
    dw_host *h = path ? dw_host_open(path) : NULL;
    const uint8_t *fb;
    size_t len;
    if (!h || dw_host_section(h, ".nv_fatbin", &fb, &len) != 0) {
        dw_host_close(h);
        return -1;
    }
    int n = 0;
    size_t off = 0;
    while (off + 16 <= len) {
        size_t cs = ptx_fatbin_size(fb + off, len - off);
        if (!cs) {
            off += 8; /* containers are 8-aligned; padding between them */
            continue;
        }
        char *text = NULL, err[256];
        size_t tl = 0;
        /* the highest target a launch would pick (as the runtime and dbg_host read them) */
        if (ptx_fatbin_ptx(fb + off, cs, 1000, &text, &tl, err, sizeof err) == 0) {
            n++;
            fn(ctx, text, tl);
        }
        free(text);
        off += (cs + 7) & ~(size_t)7;
    }
    dw_host_close(h);
    return n;
}
