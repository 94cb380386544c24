/* dbg_tgt.h - the engine's private view of a dbg_target (dbg_target.c, dbg_tlaunch.c). */
#ifndef DBG_TGT_H
#define DBG_TGT_H

#include "dbg_target.h"

/* One loaded module and the machine that runs it; both owned. */
struct dbg_target {
    ptx_module *pm;
    exec_machine *m;
};

#endif
