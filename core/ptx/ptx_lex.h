/* ptx_lex.h - PTX front-end internals: arena, interned names, tokens, lexer, parser state. */
#ifndef PTX_LEX_H
#define PTX_LEX_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include "ptx.h"

/* ---- arena: bump allocation in large zeroed chunks, freed all at once ------------------- */
typedef struct ptx_arena ptx_arena;
ptx_arena *ptx_arena_new(void);
void *ptx_arena_alloc(ptx_arena *a, size_t n);      /* zeroed, 16-aligned; NULL when out of memory */
void ptx_arena_free(ptx_arena *a);

/* ---- interned names ------------------------------------------------------------------------
 * Every identifier is interned once; the returned string is the `s` member of a ptx_name, so
 * pointer equality is string equality and PTX_NAME(str) reaches the binding fields. Scopes
 * are a shadow stack over `bind` (see ptx_parse.c); labels use their own per-function slot. */
typedef struct ptx_name {
    struct ptx_name *next;     /* hash chain */
    ptx_sym *bind;             /* innermost visible declaration, or NULL */
    int depth;                 /* scope depth of `bind` */
    ptx_sym *label;            /* code label of the function being parsed (see label_gen) */
    unsigned label_gen;
    int op;                    /* 1 + index in ptx_ops.def when this is a known base opcode */
    uint32_t hash;
    uint32_t len;
    char s[];
} ptx_name;
#define PTX_NAME(str) ((ptx_name *)(void *)((char *)(str) - offsetof(ptx_name, s)))

typedef struct {
    ptx_name **tab;
    size_t cap, n;
    ptx_arena *arena;
} ptx_intern;
int ptx_intern_init(ptx_intern *t, ptx_arena *a);          /* 0 or -1 (out of memory) */
const char *ptx_intern_str(ptx_intern *t, const char *s, size_t len);  /* NULL: out of memory */
void ptx_intern_free(ptx_intern *t);

/* ---- tokens -------------------------------------------------------------------------------- */
typedef enum {
    PTX_TK_EOF,
    PTX_TK_IDENT,      /* foo, %r1, $L__BB0_2, _ */
    PTX_TK_DIR,        /* .reg, .u32, .shared::cta, .L2::cache_hint (text includes the dot) */
    PTX_TK_INT,        /* ival; is_unsigned for a U suffix */
    PTX_TK_FLOAT,      /* fval/fbits/fsize: 0fXXXXXXXX (32), 0dXXXX... or decimal (64) */
    PTX_TK_STRING,     /* "..." (text includes the quotes) */
    PTX_TK_PUNCT,      /* punct: a character or one of the PTX_P_* codes */
    PTX_TK_ERROR,      /* lexical error: message in the lexer */
} ptx_tokkind;

enum { PTX_P_SHL = 256, PTX_P_SHR, PTX_P_LE, PTX_P_GE, PTX_P_EQ, PTX_P_NE, PTX_P_ANDAND,
       PTX_P_OROR };

typedef struct {
    ptx_tokkind kind;
    int punct;
    const char *p;      /* start in the source */
    int len;
    int line, col;      /* 1-based; col counts bytes */
    uint64_t ival;
    int is_unsigned;
    double fval;
    uint64_t fbits;
    int fsize;
    int ws_before;      /* whitespace or a comment came before the token */
    const char *msg;    /* PTX_TK_ERROR: the message */
} ptx_token;

typedef struct {
    const char *text, *p, *end;
    const char *line_start;
    int line;
    const char *errmsg;  /* set with a PTX_TK_ERROR token */
} ptx_lexer;

void ptx_lex_init(ptx_lexer *lx, const char *text, size_t len);
/* Scan the next token; never reads outside [text, text+len). */
void ptx_lex_next(ptx_lexer *lx, ptx_token *t);
/* Token kind name for messages ("identifier", "';'"). */
const char *ptx_tok_desc(const ptx_token *t, char *buf, size_t n);

/* ---- error formatting (shared by lexer-level and parser-level errors) ------------------- */
void ptx_format_error(ptx_error *err, const char *path, const char *text, size_t len,
                      int line, int col, const char *msg);

/* ---- special registers (ptx_module.c) ------------------------------------------------------ */
extern ptx_sym ptx_sregs[PTX_SREG__COUNT];
extern const char *const ptx_sreg_names[PTX_SREG__COUNT];


/* ---- parser state (ptx_parse*.c) --------------------------------------------------------- */
#define PTX_LOOKAHEAD 4
#define PTX_MAX_NEST 200          /* nesting limit for blocks, braces and expressions */
#define PTX_MAX_PARAM_REGS (1 << 20) /* `%r<N>` registers per module */
#define PTX_MAX_VAR_SIZE ((uint64_t)1 << 32)
#define PTX_MAX_INIT_SIZE ((uint64_t)1 << 26) /* initialised variables (bytes) */

typedef struct {
    ptx_name *name;
    ptx_sym *old;
    int olddepth;
} ptx_undo;

typedef struct ptx_parser {
    ptx_lexer lx;
    ptx_token la[PTX_LOOKAHEAD];   /* la[0] is the current token */
    int nla;
    ptx_module *m;
    ptx_arena *arena;
    ptx_intern in;
    ptx_error *err;
    const char *path;
    jmp_buf jb;
    int nest;                      /* recursion depth (blocks, braces, expressions) */
    int depth;                     /* scope depth: 0 sregs, 1 module, 2 function, 3+ blocks */
    ptx_undo *undo; int nundo, capundo;
    /* module arrays (arena, doubling) */
    int capvars, capfuncs, capfiles, caplocs, capsections, capaliases;
    /* the function being parsed */
    ptx_func *fn;
    int capregs, capfvars, caplabels, capinsns;
    ptx_sym **pending; int npending, cappending;  /* labels used before definition */
    unsigned label_gen;
    int last_loc;                  /* .loc in force, -1 */
    int loc_open;                  /* no instruction since the last .loc */
    uint64_t nparam_regs;
    const char *s_underscore;      /* interned "_" */
    uint32_t used_mask;            /* .pragma "used_bytes_mask N" for the next instruction */
} ptx_parser;

/* ptx_parse.c */
_Noreturn void ptx_perr(ptx_parser *p, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn void ptx_perr_tok(ptx_parser *p, const ptx_token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
ptx_token *ptx_peek(ptx_parser *p, int k);
void ptx_advance(ptx_parser *p);
int ptx_is_punct(ptx_parser *p, int k, int c);
int ptx_is_dir(ptx_parser *p, int k, const char *dir);
void ptx_expect_punct(ptx_parser *p, int c, const char *what);
const char *ptx_tok_intern(ptx_parser *p, const ptx_token *t);
void *ptx_alloc(ptx_parser *p, size_t n);
void ptx_grow(ptx_parser *p, void **arr, int *cap, int n, size_t elem);
#define PTX_PUSH(p, arr, n, cap, val) \
    do { ptx_grow((p), (void **)&(arr), &(cap), (n), sizeof *(arr)); (arr)[(n)++] = (val); } while (0)
/* push with an implicit capacity (8, 16, 32... from the count): for arrays whose owner may
 * change while they grow (function pragmas, target lists) */
void ptx_grow_implicit(ptx_parser *p, void **arr, int n, size_t elem);
#define PTX_PUSHI(p, arr, n, val) \
    do { ptx_grow_implicit((p), (void **)&(arr), (n), sizeof *(arr)); (arr)[(n)++] = (val); } while (0)
ptx_sym *ptx_new_sym(ptx_parser *p, ptx_symkind kind, const char *name, const ptx_token *at);
void ptx_declare(ptx_parser *p, ptx_sym *s, const ptx_token *at);
ptx_sym *ptx_lookup(ptx_parser *p, const char *name);
ptx_sym *ptx_use_label(ptx_parser *p, const char *name, const ptx_token *at);
ptx_space ptx_space_from_dir(const char *dir, int len);

/* ptx_parse_insn.c */
void ptx_parse_insn(ptx_parser *p);
void ptx_parse_loc(ptx_parser *p);
/* constant expression: value and whether it is unsigned */
int64_t ptx_parse_expr(ptx_parser *p, int *is_unsigned);
int ptx_tok_is_warp_sz(const ptx_token *t);   /* the predefined identifier WARP_SZ (= 32) */

/* ptx_parse_data.c */
void ptx_parse_init(ptx_parser *p, ptx_sym *var);
void ptx_parse_section(ptx_parser *p);

#endif
