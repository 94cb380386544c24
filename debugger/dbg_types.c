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
    int n;
    const char *s;
    switch (e) {
    case EXEC_EXC_OUT_OF_RANGE: n = 5; s = "Warp Out-of-range Address"; break;
    case EXEC_EXC_MISALIGNED: n = 6; s = "Warp Misaligned Address"; break;
    case EXEC_EXC_ILLEGAL_INSN: n = 4; s = "Warp Illegal Instruction"; break;
    case EXEC_EXC_READONLY: n = 14; s = "Warp Read-only Address Store"; break;
    case EXEC_EXC_STACK_OVERFLOW: n = 8; s = "Lane User Stack Overflow"; break;
    case EXEC_EXC_BARRIER_DEADLOCK: n = 17; s = "Warp Barrier Deadlock"; break;
    case EXEC_EXC_WARP_SYNC: n = 4; s = "Warp Sync Misuse"; break;
    case EXEC_EXC_ILLEGAL_ADDRESS: n = 14; s = "Warp Illegal Address"; break;
    case EXEC_EXC_INVALID_PC: n = 7; s = "Warp Invalid PC"; break;
    case EXEC_EXC_MALLOC: n = 14; s = "Warp Illegal Address (device heap)"; break;
    default: n = 0; s = "Unknown Exception"; break;
    }
    if (num)
        *num = n;
    return s;
}
