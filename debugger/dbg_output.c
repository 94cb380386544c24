/* dbg_output.c - kernel printf of a session: to the front end's function, or stdout. */

#include <stdio.h>
#include <stdlib.h>
#include "dbg_int.h"

/* A stream of our own that the core writes kernel printf to (exec_set_output): each flush (the
 * core flushes after every printf instruction and after a parallel run's CTAs are joined, in
 * CTA order) hands the bytes to the front end's function, on the thread that runs the kernel. */
static ssize_t out_write(void *cookie, const char *b, size_t n)
{
    dbg_session *s = cookie;
    if (s->out_fn && n)
        s->out_fn(s->out_ctx, b, n);
    return (ssize_t)n;
}

int dbg_set_output(dbg_session *s, dbg_output_fn fn, void *ctx)
{
    if (s->out) {
        fclose(s->out);   /* flushes what is pending to the old function */
        s->out = NULL;
    }
    s->out_fn = fn;
    s->out_ctx = ctx;
    if (fn) {
        cookie_io_functions_t io = { .write = out_write };
        s->out = fopencookie(s, "w", io);
        if (!s->out) {
            s->out_fn = NULL;
            dbg_output_apply(s, s->m && !s->borrowed ? s->m : NULL);
            return dbg_err(s, "Out of memory.");
        }
        /* one buffer big enough for a warp's printf: the core's flush makes it one piece */
        setvbuf(s->out, NULL, _IOFBF, 1 << 16);
    }
    dbg_output_apply(s, s->m && !s->borrowed ? s->m : NULL);
    return 0;
}

void dbg_output_apply(dbg_session *s, exec_machine *m)
{
    if (m)
        exec_set_output(m, s->out);
}

void dbg_output_free(dbg_session *s)
{
    if (s->out)
        fclose(s->out);
    s->out = NULL;
    s->out_fn = NULL;
}
