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

/* Inside a CUDA program the server is an in-process front end (dap_inproc.c registers its hooks,
 * "dap", with the engine: debugger/include/dbg_frontend.h); the runtime library calls only
 * through them. */

#endif
