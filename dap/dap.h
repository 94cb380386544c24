/* dap.h - the Debug Adapter Protocol front end: `ptxdbg --dap`, and its side inside a CUDA program. */
#ifndef DAP_H
#define DAP_H

#include <stdint.h>
#include "ptxdbg_types.h"

/* ---------------------------------------------------------------------------------------------
 * `ptxdbg --dap` speaks DAP on stdin/stdout until the client disconnects (or its input ends);
 * returns the process exit status. A PTX program runs in this process; a CUDA program runs as a
 * child process whose runtime library hosts the engine, reached over a socket (dap_prog.c,
 * dap_inproc.c; docs/ARCHITECTURE.md "DAP server").
 * ------------------------------------------------------------------------------------------- */
int dap_main(void);

/* ---- inside a CUDA program (the runtime library calls these) --------------------------------- */
/* Start the DAP side when PTXDBG_DAP names the adapter's socket: 1 started, 0 not asked to,
 * -1 failed (said on stderr; the program then runs plainly). */
int dap_inproc_start(void);
/* Run a launch the runtime prepared on machine m of module mod under the DAP session, as
 * cmd_inproc_launch does for the CLI: *out is the final stop, *reported 1 when a fault was shown
 * to the client. 0, or -1 when it could not run. */
int dap_inproc_launch(ptx_module *mod, exec_machine *m, const char *dir, const ptx_func *k,
                      uint32_t id, exec_stop *out, int *reported);
/* Kernels run on the runtime's stream threads while host threads go on: the runtime's hook
 * around every exec_run of the session (dbg_set_run_hook), and the session's interrupt flag
 * raised for it (a kernel the runtime needs to park), as the adapter's pause would. */
void dap_inproc_set_run_hook(int (*fn)(void *ctx, const exec_run_opts *o, const exec_stop *st),
                             void *ctx);
void dap_inproc_interrupt(void);

/* The runtime loaded mod or is about to free it: the session forgets what it read of it. */
void dap_inproc_forget(const ptx_module *mod);

#endif
