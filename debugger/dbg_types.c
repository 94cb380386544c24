/* dbg_types.c - the vocabulary's properties for front ends: PTX type and state space names, sizes, signedness. */
#include "dbg_int.h"

int dbg_type_bits(ptx_type t) { return ptx_type_bits(t); }
const char *dbg_type_name(ptx_type t) { return ptx_type_name(t); }
ptx_type dbg_type_from_name(const char *s) { return ptx_type_from_name(s); }
int dbg_type_is_float(ptx_type t) { return ptx_type_is_float(t); }
int dbg_type_is_signed(ptx_type t) { return ptx_type_is_signed(t); }
const char *dbg_space_name(ptx_space s) { return ptx_space_name(s); }

const char *dbg_exc_name(exec_exc e, int *num)
{
    static const struct { int num; const char *name; } t[] = {
        {0, "Unknown Exception"},
#define EXC(id, n, name, cuda_error) {n, name},
#include "ptxdbg_exc.def"
#undef EXC
    };
    unsigned i = (unsigned)e < sizeof t / sizeof t[0] ? (unsigned)e : 0;
    if (num)
        *num = t[i].num;
    return t[i].name;
}
