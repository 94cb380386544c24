/* dbg_ops.c - the opcode table (names, families, summaries, property flags) read for front ends. */
#include <stdio.h>
#include "dbg_int.h"
#include "dbg_ops.h"

int dbg_opcode_count(void) { return PTX_OPC__COUNT; }

int dbg_opcode_get(int i, dbg_opcode *out)
{
    if (i < 0 || i >= PTX_OPC__COUNT)
        return -1;
    out->name = ptx_ops[i].name;
    out->family = ptx_ops[i].family;
    out->summary = ptx_ops[i].summary;
    return 0;
}

int dbg_opcode_find(const char *name) { return ptx_op_lookup(name); }

size_t dbg_opcode_props(int i, char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    if (i < 0 || i >= PTX_OPC__COUNT || !n)
        return 0;
    for (int b = 0; b < PTX_OPF__NBITS; b++)
        if ((ptx_ops[i].flags >> b) & 1u) {
            int w = snprintf(buf + k, n - k, "%s%s", k ? ", " : "", ptx_opf_word(b));
            if (w < 0 || (size_t)w >= n - k) {
                k = n - 1;
                break;
            }
            k += (size_t)w;
        }
    return k;
}
