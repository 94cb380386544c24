/* cmd_corecheck.c - PTXDBG_CORE_CHECK: every stop is written to a core, reopened and compared with the live session. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_ui.h"

/* ---------------------------------------------------------------------------------------------
 * Reopening a core file must show what the live stop showed: the round trip is a property of the
 * whole system, not of a few tests. With PTXDBG_CORE_CHECK=1 in the environment (the test suites
 * set it, so every debugging test exercises it), each reported stop of a kernel - PTX sessions
 * and CUDA programs alike - is saved with dbg_core_save, opened in a scratch session, and both
 * sessions print the same views: the focus, `backtrace`, `info cuda threads`, `info cuda kernels`
 * and `info cuda blocks` (a core of a breakpoint shows its kernel Active), and for every
 * frame `info args` and `info locals` (each variable printed as `print` does). A difference is
 * an error naming the first differing line (the batch exit status becomes non-zero), so a core
 * that does not reopen, or reopens differently, fails whatever test reached that stop. The
 * live session is left exactly as it was: output is captured, the selected frame restored, and
 * nothing is recorded in the value history.
 * ------------------------------------------------------------------------------------------- */

int cmd_corecheck_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("PTXDBG_CORE_CHECK");
        on = e && *e && strcmp(e, "0") != 0;
    }
    return on;
}

/* The views of the focused lane, as text. */
static char *views(cmd_ctx *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return NULL;
    fflush(stdout);
    fflush(stderr);
    FILE *so = stdout, *se = stderr;
    stdout = stderr = mem;
    int failed = c->failed, saved = dbg_get_focus(c->s)->frame;
    cmd_ui_hold(c, 1);        /* text only: nothing joins the running command's JSON object */
    const dbg_focus *f = dbg_get_focus(c->s);
    printf("focus valid %d kernel %u cta %u warp %u lane %u frame %d\n", f->valid, f->kernel,
           f->cta, f->warp, f->lane, f->frame);
    cmd_execute(c, "backtrace");
    cmd_execute(c, "info cuda threads");
    cmd_execute(c, "info cuda kernels");   /* Active / Terminated, the launch site */
    cmd_execute(c, "info cuda blocks");    /* running, exception, terminated */
    dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_frames(c->s, fr, DBG_MAX_FRAMES);
    for (int i = 0; i < nf; i++) {
        if (dbg_set_frame(c->s, i) != 0)
            break;
        printf("-- frame %d\n", i);
        cmd_execute(c, "info args");
        cmd_execute(c, "info locals");
    }
    if (nf > 0)
        dbg_set_frame(c->s, saved);
    cmd_ui_hold(c, 0);
    fflush(mem);
    stdout = so;
    stderr = se;
    fclose(mem);
    c->failed = failed;
    return buf;
}

/* The first line where a and b differ (copied into la and lb), and its number. */
static void first_diff(const char *a, const char *b, char *la, char *lb, size_t n, int *line)
{
    const char *sa = a, *sb = b;
    *line = 1;
    while (*a && *a == *b) {
        if (*a == '\n') {
            (*line)++;
            sa = a + 1;
            sb = b + 1;
        }
        a++;
        b++;
    }
    snprintf(la, n, "%.*s", (int)strcspn(sa, "\n"), sa);
    snprintf(lb, n, "%.*s", (int)strcspn(sb, "\n"), sb);
}

void cmd_corecheck(cmd_ctx *c)
{
    if (!cmd_corecheck_on() || c->corecheck_busy || dbg_core_path(c->s) ||
        !dbg_launch_info(c->s))
        return;
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/ptxdbg-corecheck.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return;
    close(fd);
    c->corecheck_busy = 1;
    /* a stop Ctrl-C made keeps the flag raised until the next command: the check's own save
       and load, which poll it, run without it, and the flag is as it was afterwards */
    int pending = cmd_interrupt_pending();
    cmd_interrupt_clear();
    char *live = NULL, *core = NULL, why[1200] = "";
    if (dbg_core_save(c->s, path) != 0) {
        snprintf(why, sizeof why, "the core could not be written: %s", dbg_errmsg(c->s));
    } else {
        live = views(c);
        dbg_session *s2 = dbg_new();
        cmd_ctx c2;
        if (s2) {
            cmd_ctx_init(&c2, s2);
            c2.batch = 1;
            c2.opt = c->opt;
            c2.opt.log_enabled = 0;
            c2.corecheck_busy = 1;
            dbg_opts(s2)->print_elements = dbg_opts(c->s)->print_elements;
            dbg_opts(s2)->print_repeats = dbg_opts(c->s)->print_repeats;
            dbg_opts(s2)->print_pretty = dbg_opts(c->s)->print_pretty;
            dbg_opts(s2)->threads = 1;
            if (dbg_core_load(s2, path) != 0)
                snprintf(why, sizeof why, "the core does not reopen: %s", dbg_errmsg(s2));
            else
                core = views(&c2);
            cmd_ctx_free(&c2);
            dbg_free(s2);
        }
    }
    unlink(path);
    if (!why[0] && live && core && strcmp(live, core) != 0) {
        char la[500], lb[500];
        int line;
        first_diff(live, core, la, lb, sizeof la, &line);
        snprintf(why, sizeof why, "the reopened core differs (view line %d):\n  live: %s\n  core: %s",
                 line, la, lb);
    }
    if (why[0])
        cmd_error(c, "Core round trip (PTXDBG_CORE_CHECK) at this stop: %s", why);
    free(live);
    free(core);
    if (pending)
        cmd_interrupt();
    c->corecheck_busy = 0;
}
