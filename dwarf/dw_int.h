/* dw_int.h - internals shared by the dwarf/ sources (no libdwarf here either). */
#ifndef DW_INT_H
#define DW_INT_H

#include <stdarg.h>
#include "dw.h"

/* A reassembled section. */
typedef struct {
    const char *name;
    uint8_t *data;
    size_t len;
    size_t *datum_off;        /* byte offset of each datum (ndata + 1 entries) */
} dw_sect;

/* Symbol of the address model. */
typedef enum { DW_SK_NONE, DW_SK_CODE, DW_SK_DATA, DW_SK_SECTLABEL, DW_SK_SECTION } dw_symkind;
typedef struct {
    const char *name;
    dw_symkind kind;
    uint64_t addr;            /* CODE: pc; DATA: DW_SYMADDR; SECTLABEL: offset; SECTION: 0 */
    const ptx_sym *sym;       /* DATA/CODE when known */
    int sect;                 /* SECTLABEL/SECTION: index in d->sects */
} dw_symbol;

/* One row per pc. */
typedef struct {
    int loc;                  /* module loc index or -1 */
    int file, line, col;
    int is_stmt;
    int func;                 /* index in d->funcs */
} dw_row;

/* A lexical block or inlined-subroutine instance. */
typedef struct {
    uint32_t lo, hi;
    int parent;               /* enclosing inlined scope index, -1 = the function itself */
    int func;
    int is_inlined;
    const char *name, *linkage;
    const char *call_file; int call_line, call_col;
} dw_scope_int;

/* One DIE as read by the libdwarf walk (dw_libdwarf.c); tables are built from these. */
typedef struct {
    uint64_t off;
    int tag, parent, depth;
    const char *name, *linkage;
    uint64_t type, origin, spec;          /* global DIE offsets, 0 = none */
    uint64_t low_pc, high_pc;
    int has_low, has_high, high_is_len;
    const uint8_t *loc; size_t loc_len;   /* location expression (copied) */
    int64_t loclist;                      /* .debug_loc offset, -1 none */
    int has_loc;
    const uint8_t *mloc; size_t mloc_len; /* data_member_location as a block */
    uint64_t moff; int has_moff;          /* ... or as a constant */
    uint64_t byte_size; int has_size;
    int addr_class;
    int64_t upper, lower; uint64_t count; int has_upper, has_count;
    int64_t cvalue; int has_cvalue;
    int encoding, decl_file, decl_line;
    int call_file, call_line, call_col;
    int external, artificial, declaration;
    int bit_size, bit_offset, data_bit_offset;
} dw_die;

struct dw_info {
    const ptx_module *m;
    char *warn; size_t warn_n, warn_len; int nwarn;
    /* pcs */
    uint32_t npcs;
    const ptx_func **pc_func; /* per pc */
    uint32_t *func_first;     /* per module func: first pc or UINT32_MAX */
    dw_row *rows;             /* per pc */
    int *loc_parent;          /* per module loc: enclosing inlined .loc or -1 */
    const char **loc_names;   /* per module loc: demangled inlined-function name or NULL */
    dw_demangle_fn dm;        /* the front end's demangler for display names, or NULL */
    /* address model */
    dw_symbol *syms; int nsyms;
    int *sym_hash; int hash_size;
    int *data_syms; int ndata_syms; /* index in syms by DATA number k */
    /* sections */
    dw_sect *sects; int nsects;
    /* DWARF tables */
    dw_die *dies; int ndies, capdies;
    int has_dwarf;
    dw_type **types; int ntypes, captypes;         /* sorted by die offset */
    dw_func **funcs; int nfuncs, capfuncs;
    dw_var **vars; int nvars, capvars;             /* every variable (locals, params, globals) */
    dw_var **globals; int nglobals, capglobals;
    dw_type **tmap;                                /* per DIE while building */
    dw_scope_int *scopes; int nscopes, capscopes;
    int *scope_vars_first; /* unused placeholder */
    dw_type **synth; int nsynth, capsynth;        /* synthetic types for expressions */
    dw_type void_type;
    /* ownership: a simple list of malloc'd blocks */
    void **blocks; int nblocks, capblocks;
    int refs;                 /* dw_retain calls not yet matched by dw_free */
};

/* helpers (dw_sect.c) */
void dw_warn(dw_info *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *dw_alloc(dw_info *d, size_t n);            /* zeroed, owned by d; NULL on OOM */
char *dw_strdup(dw_info *d, const char *s);
int dw_build_pcs(dw_info *d);
int dw_build_symbols(dw_info *d);
const dw_symbol *dw_symbol_find(const dw_info *d, const char *name);
int dw_assemble_sections(dw_info *d);
const dw_sect *dw_sect_find(const dw_info *d, const char *name);
/* lines (dw_line.c) */
int dw_build_lines(dw_info *d);
/* DIE walk through libdwarf (dw_libdwarf.c): fills d->dies */
int dw_walk_dies(dw_info *d);
/* tables from the DIEs (dw_die.c) */
int dw_read_dwarf(dw_info *d);
dw_die *dw_die_new(dw_info *d);
/* PTX-only function table (dw_info.c), after DWARF */
int dw_build_funcs(dw_info *d);
/* DWARF inlined-subroutine scopes containing pc, innermost first; returns the count. */
int dw_inline_scopes(const dw_info *d, uint32_t pc, int *out, int max);
const char *dw_debug_str(const dw_info *d, const char *label);

/* dw_libdwarf.c: a libdwarf handle (Dwarf_Debug, as void *) over in-memory sections, which
 * must outlive it (dw_host.c; libdwarf's own ELF reader is not used: opening a file with it
 * breaks later in-memory opens in libdwarf 20210528). NULL when refused. */
void *dw_lib_open_mem(const char *const *names, uint8_t *const *data, const uint64_t *sizes,
                      int n, void **dbg);
void dw_lib_close_mem(void *h);

/* A program's host ELF (dw_host.c) and its DWARF (dw_hostdw.c, which alone knows the CU type
 * and holds dbg as the Dwarf_Debug of dw_lib_open_mem). */
typedef struct { uint64_t lo, hi; const char *name; } dw_hsym;
struct dw_hcu;
struct dw_host {
    uint8_t *map; size_t len;
    dw_hsym *syms; int nsyms;
    void *dbg;                /* NULL without host DWARF */
    void *lib;                /* the in-memory libdwarf handle */
    struct dw_hcu *cus; int ncus;
    char **strs; int nstrs, capstrs;  /* names handed out, freed with the object */
};
void dw_hostdw_load(dw_host *h);
void dw_hostdw_free(dw_host *h);

#endif
