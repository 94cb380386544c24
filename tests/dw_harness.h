/* dw_harness.h - what the DWARF and line-table suites (test_dwarf.c, test_lines.c) share: a
 * parsed module with its debug info, and the pc of an instruction found by its source text.
 * DW_WARN_SIZE (the size of the warning buffer dw_load fills) may be defined before the
 * include. */
#ifndef DW_HARNESS_H
#define DW_HARNESS_H

#include <stdio.h>
#include <string.h>
#include "dw.h"
#include "test_util.h"

#define FIX "tests/fixtures/dwarf/"

#ifndef DW_WARN_SIZE
#define DW_WARN_SIZE 4096
#endif

typedef struct {
    ptx_module *m;
    dw_info *d;
    char warn[DW_WARN_SIZE];
} loaded;

/* The debug info of the module m (parsed by the caller, who checks it is not NULL). */
static inline loaded load_module(ptx_module *m)
{
    loaded l;
    memset(&l, 0, sizeof l);
    l.m = m;
    l.d = dw_load(l.m, l.warn, sizeof l.warn);
    ck_assert_ptr_nonnull(l.d);
    return l;
}

static inline void unload(loaded *l)
{
    dw_free(l->d);
    ptx_module_free(l->m);
}

/* pc of the nth (0-based) instruction whose PTX source line contains `text` */
static inline uint32_t pc_of(const loaded *l, const char *text, int nth)
{
    for (uint32_t pc = 0; pc < dw_npcs(l->d); pc++) {
        const ptx_insn *in;
        ck_assert_int_eq(dw_pc_insn(l->d, pc, NULL, &in), 0);
        int len = 0;
        const char *s = ptx_source_line(l->m, in->line, &len);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", len, s ? s : "");
        if (strstr(buf, text) && nth-- == 0)
            return pc;
    }
    ck_abort_msg("instruction '%s' not found", text);
    return 0;
}

#endif
