/* chk_int.h - inside the checkers: the registry row, the session state, helpers shared by checkers. */
#ifndef CHK_INT_H
#define CHK_INT_H

#include "chk.h"
#include "dw.h"
#include "exec.h"

/* One row of the registry (chk_registry.c). `attach` makes the checker's state for machine m
 * and adds its observers (exec_observer_add), returning the state; `detach` removes them and
 * frees it. A row without attach is a checker not implemented yet: its name is known (and
 * refused with a clear message). */
typedef struct {
    const char *name;
    const char *summary;
    void *(*attach)(chk_ctx *c, exec_machine *m);
    void (*detach)(chk_ctx *c, exec_machine *m, void *state);
} chk_def;
const chk_def *chk_def_of(chk_id id);

/* A machine the session's checkers observe, and each checker's state on it. */
typedef struct {
    exec_machine *m;
    void *state[CHK_N];
    dw_info *dw;              /* its module's lines, read at the first finding when the front end
                                 gives no dwarf hook (freed with the entry) */
    int dw_tried;
} chk_machine;

struct chk_ctx {
    unsigned enabled;         /* 1u << chk_id */
    int stop;                 /* findings stop the kernel */
    chk_hooks hooks;
    chk_finding **f;          /* findings (pointers stay valid until chk_clear / chk_free) */
    int nf, capf;
    int next_id;
    chk_machine *mach;
    int nmach, capmach;
    /* initcheck: global memory's shadow, shared by every machine (chk_initcheck.c), and the
       fill byte + 1 (0: none) */
    struct ic_global *ic;
    int fill;
};

/* ---- helpers for checkers (chk_finding.c, chk_where.c) ---------------------------------------- */
/* The finding with this key (checker, kind, module, pc pair), or NULL. */
chk_finding *chk_find(chk_ctx *c, chk_id id, chk_kind kind, const void *module, uint32_t pc,
                      uint32_t pc2);
/* A new finding (zeroed but for id, checker, kind, module, count 1); NULL when out of memory. */
chk_finding *chk_add(chk_ctx *c, chk_id id, chk_kind kind, const void *module);
/* Fill party p with lane's position: block and thread, pc, function, source and user lines. */
void chk_party_fill(chk_ctx *c, exec_machine *m, chk_party *p, uint32_t cta, uint32_t warp,
                    uint32_t lane, uint32_t pc, uint8_t access);
/* Fill the launch fields (number, kernel). */
void chk_launch_fill(chk_ctx *c, exec_machine *m, chk_finding *f);
/* A new finding is made: stop at it (exec_obs_stop) or report it (hooks.report). ev may be NULL
 * (a finding outside an access). A fault always carries its finding. chk_repeat: a finding
 * seen again counts; with stops on it stops again in a later launch (or at a fault). */
void chk_repeat(chk_ctx *c, exec_machine *m, const exec_mem_ev *ev, uint32_t lane,
                chk_finding *f, int fault);
void chk_deliver(chk_ctx *c, exec_machine *m, const exec_mem_ev *ev, uint32_t lane,
                 chk_finding *f);
/* Whether a source path is a CUDA header (the toolkit's include folder, crt/, cooperative
 * groups ...), whose lines are not the user's. */
int chk_system_file(const char *path);

/* The module's DWARF for a machine (the front end's, or read at the first finding). */
dw_info *chk_dwarf(chk_ctx *c, exec_machine *m);

/* initcheck (chk_initcheck.c) */
void *chk_initcheck_attach(chk_ctx *c, exec_machine *m);
void chk_initcheck_detach(chk_ctx *c, exec_machine *m, void *state);
void chk_initcheck_free(chk_ctx *c);
/* The finding's lines after its threads (chk_format). */
void chk_initcheck_lines(const chk_finding *f, void (*put)(void *o, const char *line), void *o);

/* memcheck (chk_memcheck.c) */
void *chk_memcheck_attach(chk_ctx *c, exec_machine *m);
void chk_memcheck_detach(chk_ctx *c, exec_machine *m, void *state);

/* racecheck (chk_racecheck.c) */
void *chk_racecheck_attach(chk_ctx *c, exec_machine *m);
void chk_racecheck_detach(chk_ctx *c, exec_machine *m, void *state);
/* synccheck (chk_synccheck.c) */
void *chk_synccheck_attach(chk_ctx *c, exec_machine *m);
void chk_synccheck_detach(chk_ctx *c, exec_machine *m, void *state);

#endif
