/* dbg_break.c - breakpoints and watchpoints: numbering, resolution, conditions, sync to the core. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

int dbg_bp_breaks_at(const dbg_bp *b, uint32_t pc)
{
    if (b->type != DBG_BP_BREAK || !b->enabled)
        return 0;
    for (int k = 0; k < b->npcs; k++)
        if (b->pcs[k] == pc)
            return 1;
    return 0;
}

int dbg_bp_at_pc(dbg_session *s, uint32_t pc)
{
    for (int i = 0; i < s->nbps; i++)
        if (dbg_bp_breaks_at(s->bps[i], pc))
            return s->bps[i]->num;
    return 0;
}

/* The core condition of the breakpoints at pc: the OR of their conditions when every enabled
 * breakpoint there has one the front end can translate; none (stop always) otherwise. */
static void bp_sync_cond(dbg_session *s, uint32_t pc)
{
    exec_cond prog[EXEC_COND_MAX];
    const ptx_func *f;
    const ptx_insn *pi;
    int n = 0;
    if (exec_pc_insn(s->m, pc, &f, &pi) != 0)
        goto none;
    for (int i = 0; i < s->nbps; i++) {
        dbg_bp *b = s->bps[i];
        if (!dbg_bp_breaks_at(b, pc))
            continue;
        if (!b->cond_compiled)
            goto none;
        int k = dbg_cond_core(s->m, b->cond_compiled, f, prog + n, EXEC_COND_MAX - n - 1);
        if (k <= 0)
            goto none;
        n += k;
        if (n > k) {
            memset(&prog[n], 0, sizeof prog[n]);
            prog[n++].op = EXEC_C_LOR;
        }
    }
    if (n && exec_set_break_cond(s->m, pc, prog, n) == 0)
        return;
none:
    exec_set_break_cond(s->m, pc, NULL, 0);
}

void dbg_bp_sync(dbg_session *s)
{
    if (!s->m)
        return;
    uint32_t n = exec_ninsns(s->m);
    for (uint32_t pc = 0; pc < n; pc++) {
        int on = dbg_bp_at_pc(s, pc) != 0, entry = dbg_entry_at(s, pc);
        exec_set_break(s->m, pc, on || entry);
        if (entry)
            exec_set_break_cond(s->m, pc, NULL, 0); /* the entry stop is unconditional */
        else if (on)
            bp_sync_cond(s, pc);
    }
}

static void watch_arm(dbg_session *s, dbg_bp *b)
{
    if (b->exec_id >= 0 && s->m)
        exec_watch_del(s->m, b->exec_id);
    b->exec_id = -1;
    if (!s->m || !b->enabled)
        return;
    int kinds = b->type == DBG_BP_WATCH ? 1 : b->type == DBG_BP_RWATCH ? 2 : 3;
    uint32_t cta = UINT32_MAX;
    if (b->space == PTX_SPACE_SHARED && s->focus.valid && dbg_launch_info(s))
        cta = s->focus.cta;
    b->exec_id = exec_watch_add(s->m, b->space, b->addr, b->len, kinds, cta);
}

void dbg_bp_resolve_all(dbg_session *s)
{
    for (int i = 0; i < s->nbps; i++) {
        dbg_bp *b = s->bps[i];
        if (b->type != DBG_BP_BREAK) {
            b->exec_id = -1; /* the machine is new */
            watch_arm(s, b);
            continue;
        }
        int n = s->m ? dbg_resolve_location(s, b->spec, b->pcs, DBG_MAX_LOCS) : -1;
        b->npcs = n > 0 ? n : 0;
        b->pending = n <= 0;
    }
    dbg_bp_sync(s);
}

static dbg_bp *bp_new(dbg_session *s, dbg_bp_type type, const char *spec)
{
    dbg_bp **nb = realloc(s->bps, (size_t)(s->nbps + 1) * sizeof *nb);
    if (!nb)
        return NULL;
    s->bps = nb;
    dbg_bp *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->spec = strdup(spec);
    if (!b->spec) {
        free(b);
        return NULL;
    }
    b->type = type;
    b->enabled = 1;
    b->exec_id = -1;
    b->num = s->next_bp++;
    s->bps[s->nbps++] = b;
    return b;
}

static void bp_free(dbg_session *s, dbg_bp *b)
{
    dbg_cond_release(b->cond_compiled);
    if (b->exec_id >= 0 && s->m)
        exec_watch_del(s->m, b->exec_id);
    for (int i = 0; i < b->ncommands; i++)
        free(b->commands[i]);
    free(b->commands);
    free(b->spec);
    free(b->cond);
    free(b);
}

void dbg_bp_free_all(dbg_session *s)
{
    for (int i = 0; i < s->nbps; i++)
        bp_free(s, s->bps[i]);
    free(s->bps);
    s->bps = NULL;
    s->nbps = 0;
}

static int set_cond(dbg_session *s, dbg_bp *b, const char *cond)
{
    void *compiled = NULL;
    if (cond && *cond) {
        char err[512] = "";
        compiled = dbg_cond_compile(s, cond, err, sizeof err);
        if (!compiled)
            return dbg_err(s, "%s", err[0] ? err : "Invalid condition.");
    }
    dbg_cond_release(b->cond_compiled);
    free(b->cond);
    b->cond = cond && *cond ? strdup(cond) : NULL;
    b->cond_compiled = compiled;
    dbg_bp_sync(s);
    return 0;
}

int dbg_break_add(dbg_session *s, const char *spec, const char *cond, int temp)
{
    uint32_t pcs[DBG_MAX_LOCS];
    int n = 0;
    if (s->m) {
        n = dbg_resolve_location(s, spec, pcs, DBG_MAX_LOCS);
        /* a function or file this module lacks: a module the program registers later may
         * have it (a bad line of a file this module has stays an error) */
        int elsewhere = !strncmp(s->err, "Function \"", 10) ||
                        !strncmp(s->err, "No source file", 14);
        if (n < 0 && (!s->multi || !elsewhere))
            return -1;
        if (n < 0)
            n = 0;
    }
    dbg_bp *b = bp_new(s, DBG_BP_BREAK, spec);
    if (!b)
        return dbg_err(s, "Out of memory.");
    b->temp = temp;
    memcpy(b->pcs, pcs, (size_t)n * sizeof pcs[0]);
    b->npcs = n;
    b->pending = !s->m || n == 0;
    if (set_cond(s, b, cond) != 0) {
        char keep[sizeof s->err];
        memcpy(keep, s->err, sizeof keep);
        dbg_bp_delete(s, b->num);
        s->next_bp--;
        memcpy(s->err, keep, sizeof keep);
        return -1;
    }
    dbg_bp_sync(s);
    return b->num;
}

int dbg_watch_add(dbg_session *s, dbg_bp_type type, const char *expr, ptx_space space,
                  uint64_t addr, uint32_t len, ptx_type shown_as)
{
    if (!s->m)
        return dbg_err(s, "No PTX module loaded.");
    if (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_SHARED)
        return dbg_err(s, "Cannot watch %s memory; only global and shared memory can be watched.",
                       ptx_space_name(space));
    if (len == 0 || len > 16)
        return dbg_err(s, "Cannot watch a value of %u bytes (1 to 16 bytes).", len);
    dbg_bp *b = bp_new(s, type, expr);
    if (!b)
        return dbg_err(s, "Out of memory.");
    b->space = space;
    b->addr = addr;
    b->len = len;
    b->wtype = shown_as;
    watch_arm(s, b);
    if (b->exec_id < 0) {
        char msg[600];
        snprintf(msg, sizeof msg, "Cannot watch that location: %s", exec_errmsg(s->m));
        dbg_bp_delete(s, b->num);
        s->next_bp--;
        return dbg_err(s, "%s", msg);
    }
    return b->num;
}

dbg_bp *dbg_bp_find(dbg_session *s, int num)
{
    for (int i = 0; i < s->nbps; i++)
        if (s->bps[i]->num == num)
            return s->bps[i];
    return NULL;
}

int dbg_bp_count(const dbg_session *s) { return s->nbps; }
int dbg_bp_next_number(const dbg_session *s) { return s->next_bp; }

void dbg_bp_set_next_number(dbg_session *s, int num)
{
    if (num > s->next_bp)
        s->next_bp = num;
}
dbg_bp *dbg_bp_at(dbg_session *s, int i) { return i >= 0 && i < s->nbps ? s->bps[i] : NULL; }

int dbg_bp_delete(dbg_session *s, int num)
{
    int found = 0;
    for (int i = 0; i < s->nbps;) {
        if (num == 0 || s->bps[i]->num == num) {
            bp_free(s, s->bps[i]);
            memmove(&s->bps[i], &s->bps[i + 1], (size_t)(s->nbps - i - 1) * sizeof s->bps[0]);
            s->nbps--;
            found = 1;
        } else {
            i++;
        }
    }
    if (!found && num != 0)
        return dbg_err(s, "No breakpoint number %d.", num);
    dbg_bp_sync(s);
    return 0;
}

int dbg_bp_enable(dbg_session *s, int num, int on)
{
    int found = 0;
    for (int i = 0; i < s->nbps; i++) {
        dbg_bp *b = s->bps[i];
        if (num != 0 && b->num != num)
            continue;
        found = 1;
        b->enabled = on;
        if (b->type != DBG_BP_BREAK)
            watch_arm(s, b);
    }
    if (!found && num != 0)
        return dbg_err(s, "No breakpoint number %d.", num);
    dbg_bp_sync(s);
    return 0;
}

int dbg_bp_enable_disp(dbg_session *s, int num, int how, int count)
{
    if (how == 3 && count < 1)
        return dbg_err(s, "Bad count: %d.", count);
    int found = 0;
    for (int i = 0; i < s->nbps; i++) {
        dbg_bp *b = s->bps[i];
        if (num != 0 && b->num != num)
            continue;
        found = 1;
        if (how == 1 || how == 3) {
            b->temp = 0;
            b->disp_dis = 1;
            b->disable_after = how == 1 ? 1 : count;
        } else if (how == 2) {
            b->temp = 1;
            b->disp_dis = 0;
            b->disable_after = 0;
        } else {
            b->disable_after = 0; /* gdb: the disposition stays, the count is 0 */
        }
    }
    if (!found && num != 0)
        return dbg_err(s, "No breakpoint number %d.", num);
    return dbg_bp_enable(s, num, 1);
}

int dbg_bp_condition(dbg_session *s, int num, const char *cond)
{
    dbg_bp *b = dbg_bp_find(s, num);
    if (!b)
        return dbg_err(s, "No breakpoint number %d.", num);
    return set_cond(s, b, cond);
}

int dbg_bp_ignore(dbg_session *s, int num, int count)
{
    dbg_bp *b = dbg_bp_find(s, num);
    if (!b)
        return dbg_err(s, "No breakpoint number %d.", num);
    b->ignore = count < 0 ? 0 : count;
    return 0;
}

int dbg_bp_set_commands(dbg_session *s, int num, char **lines, int n)
{
    dbg_bp *b = dbg_bp_find(s, num);
    if (!b) {
        for (int i = 0; i < n; i++)
            free(lines[i]);
        free(lines);
        return dbg_err(s, "No breakpoint number %d.", num);
    }
    for (int i = 0; i < b->ncommands; i++)
        free(b->commands[i]);
    free(b->commands);
    b->commands = lines;
    b->ncommands = n;
    return 0;
}
