/* dbg_frontend.h - in-process front ends: a front end that debugs a program from inside its process registers its hooks here, the runtime calls through them. */
#ifndef DBG_FRONTEND_H
#define DBG_FRONTEND_H

#include <stddef.h>
#include <stdint.h>
#include "ptxdbg_types.h"
#include "dbg.h"

/* ---------------------------------------------------------------------------------------------
 * A CUDA program started by `ptxdbg ./app` or by `ptxdbg --dap` runs its kernels on the
 * runtime library (runtime/), and the debugger that shows them lives inside the program: the
 * CLI's session (commands/cmd_inproc.c) or the DAP server (dap/dap_inproc.c). The runtime
 * names neither: each front end registers a table of hooks with a name and a priority (from a
 * constructor in its in-process file, which runs before the runtime's own constructor asks),
 * and the runtime asks the engine, once, for the front end that takes the process
 * (dbg_frontend_attach): the registered ones are asked in priority order (highest first) and
 * the first whose start() answers 1 is the one; from then on the runtime calls only through
 * its table. The engine keeps the registry and nothing else: it never calls a hook itself.
 * Errors are values: registration refuses a table without a name, start or launch, a second
 * table of the same name, or more than DBG_FRONTEND_MAX tables (-1, the reason in err).
 * ------------------------------------------------------------------------------------------- */

#define DBG_FRONTEND_MAX 8

typedef struct dbg_frontend {
    const char *name;      /* "cli", "dap": messages and tests */
    int priority;          /* asked before the front ends of lower priority */
    /* Does this front end take this process? It reads what its parent set in the environment
     * (PTXDBG_SESSION, PTXDBG_DAP) and, when asked to, starts its session: 1 debugging, 0 not
     * asked to, -1 asked to but failed (said on stderr; the next front end is asked). */
    int (*start)(void);
    /* Run a launch the runtime prepared on machine m of module mod (dbg_target_launch done)
     * under the session until the kernel completes or the user leaves a fault: *out is the
     * final stop, *reported 1 when the front end showed the fault itself. id: the process-wide
     * kernel number; dir: where the program's sources are. 0, or -1 when it could not run. */
    int (*launch)(ptx_module *mod, exec_machine *m, const char *dir, const ptx_func *k,
                  uint32_t id, exec_stop *out, int *reported);
    /* A module was loaded / is about to be freed: the session drops what it read of a module
     * at that address (may be NULL). */
    void (*module_loaded)(const ptx_module *mod);
    void (*module_unloading)(const ptx_module *mod);
    /* Raise the session's interrupt flag (a kernel the runtime needs parked), as Ctrl-C would;
     * called from any thread (may be NULL). */
    void (*interrupt)(void);
    /* The runtime's hook around every run of the session's kernels (dbg_set_run_hook). */
    void (*set_run_hook)(dbg_run_hook fn, void *ctx);
    /* The session's checkers, or NULL (may be NULL: the front end has none). */
    chk_ctx *(*checks)(void);
    /* The function that lists the program's live allocations for the leak check at exit
     * (may be NULL: the front end makes no leak check). */
    void (*set_leak_lister)(void (*fn)(chk_ctx *k));
} dbg_frontend;

/* Register fe (kept by pointer: it must live as long as the process). 0, or -1 with err. */
int dbg_frontend_register(const dbg_frontend *fe, char *err, size_t errlen);
/* Ask the registered front ends in priority order; the first that takes the process, or NULL
 * when none does (nobody debugs it: a plain run). Asks once; later calls give the same answer.
 * A process the program forks must not call it (the session belongs to the parent). */
const dbg_frontend *dbg_frontend_attach(void);
/* The registered front ends in priority order (at most max into out); how many there are. */
int dbg_frontend_list(const dbg_frontend **out, int max);

#endif
