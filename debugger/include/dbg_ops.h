/* dbg_ops.h - the PTX opcode table for front ends: names, families, summaries and properties (help, completion). */
#ifndef DBG_OPS_H
#define DBG_OPS_H

#include <stddef.h>

/* One row of the opcode table (core/ptx/ptx_ops.def), as `help` and completion show it. */
typedef struct {
    const char *name;          /* "bra" */
    const char *family;        /* "control" */
    const char *summary;       /* one line */
} dbg_opcode;

int dbg_opcode_count(void);
/* Row i (0 <= i < dbg_opcode_count()): 0, or -1 past the end. */
int dbg_opcode_get(int i, dbg_opcode *out);
/* The row of base opcode `name` ("bra", not "bra.uni"), or -1. */
int dbg_opcode_find(const char *name);
/* Row i's properties as words joined by ", " ("branch, no-destination"); "" when none.
 * Returns the length written (truncated to n - 1). */
size_t dbg_opcode_props(int i, char *buf, size_t n);

#endif
