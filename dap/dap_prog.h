/* dap_prog.h - the adapter's side of a CUDA program's DAP session: start the program, relay between the client and the engine inside it. */
#ifndef DAP_PROG_H
#define DAP_PROG_H

#include "dap_int.h"

/* Whether path is a host executable (ELF, not a cubin) rather than a PTX file. */
int dap_prog_is_executable(const char *path);
/* The launch request of a CUDA program: checks it, answers it, sends `initialized`; the program
 * starts at configurationDone. From then on dap_prog_serve runs the session. */
void dap_prog_launch(dap_srv *d, const dj *req, const dj *args);
/* Relay until the client disconnects: client requests come from in (the reader's pipe). */
void dap_prog_serve(dap_srv *d, dap_reader *in);
void dap_prog_free(dap_srv *d);
/* Sessions holding the program's device modules as its fat binary has them (to tell where
 * breakpoints will resolve before the program loads them); the count (0 when none). */
int dap_prog_sessions(dap_srv *d, dbg_session ***ss, dapv ***vs);
/* The program's path (NULL when the session debugs no CUDA program). */
const char *dap_prog_path(const dap_srv *d);

#endif
