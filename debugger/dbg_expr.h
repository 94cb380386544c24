/* dbg_expr.h - expression syntax tree shared by the parser (dbg_expr.c) and evaluator (dbg_eval.c). */
#ifndef DBG_EXPR_H
#define DBG_EXPR_H

#include "dbg_int.h"

typedef enum {
    EX_INT, EX_FLOAT, EX_REG, EX_IDENT, EX_DOLLAR, EX_MEMBER,
    EX_NEG, EX_POS, EX_NOT, EX_BITNOT, EX_DEREF, EX_ADDR, EX_CAST, EX_INDEX,
    EX_MUL, EX_DIV, EX_MOD, EX_ADD, EX_SUB, EX_SHL, EX_SHR,
    EX_LT, EX_GT, EX_LE, EX_GE, EX_EQ, EX_NE, EX_BAND, EX_BXOR, EX_BOR, EX_LAND, EX_LOR,
    EX_COND, EX_ASSIGN, EX_SIZEOF,
    EX_ARRAY,                 /* gdb's artificial array VALUE@COUNT */
} dbg_exop;

/* The deepest expression tree the parser builds (and so the deepest recursion of the evaluator
 * and of dbg_expr_free); deeper ones fail with "Expression nested too deeply.". */
#define DBG_EXPR_MAX_DEPTH 1000

struct dbg_expr {
    dbg_exop op;
    int depth;                /* 1 + the deepest operand's depth */
    dbg_expr *a, *b, *c;
    char *name;               /* REG ("%r1", "%tid.x"), IDENT, DOLLAR (without '$'), MEMBER */
    uint64_t ival;
    double fval;
    ptx_type type;            /* literal type; CAST target (pointee when nptr > 0) */
    int nptr;                 /* CAST: pointer depth */
    ptx_space space;          /* CAST: @space of the pointee */
    /* A type written out (casts, sizeof(TYPE), {TYPE} ADDR) that needs source-level types:
     * CAST/SIZEOF with tname set name it as base words ("struct Cell", "float"), then ndims
     * array dimensions, then nptrs pointers ("float (*)[4]": dims {4}, nptrs 1). The
     * evaluator builds it from the debug info (or the PTX scalar types). */
    char *tname;
    int nptrs, ndims;
    uint64_t dims[4];
    int call_form;            /* CAST written "(NAME)(...)": a call when NAME is no type */
};

#endif
