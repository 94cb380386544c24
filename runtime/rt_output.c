/* rt_output.c - device printf output: a buffer per machine while its kernel runs, a FIFO written out at synchronisation. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

/* ---------------------------------------------------------------------------------------------
 * As on a GPU, where printf writes into a buffer the host prints at synchronisation points, the
 * output of a kernel goes into its machine's buffer while it runs (a stream of our own that the
 * core writes to, dbg_target_set_output), joins the device FIFO when the kernel completes, and is
 * written to stdout by the synchronising call (device, stream and event synchronisation,
 * synchronous copies, queries, cudaDeviceReset, exit). So the host's own output and the
 * kernels' come out in the order CUDA defines, whatever thread ran the kernel and however long
 * it took. The buffers are bounded: past RT_OUT_MAX bytes a kernel's output (and the FIFO
 * before it) goes straight to stdout.
 * ------------------------------------------------------------------------------------------- */

#define RT_OUT_MAX (4u << 20)

typedef struct {
    char *p;
    size_t n, cap;
} rt_buf;

static rt_buf rt_fifo;                          /* completed kernels' output, in order */
static rt_buf rt_mbuf[RT_MAX_MODULES];          /* each machine's running kernel's */
static FILE *rt_mfile[RT_MAX_MODULES];

static int rt_buf_add(rt_buf *b, const char *p, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q)
            return -1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
    return 0;
}

static void rt_buf_write(rt_buf *b)
{
    if (b->n)
        fwrite(b->p, 1, b->n, stdout);
    b->n = 0;
    if (b->cap > (1u << 20)) {
        free(b->p);
        b->p = NULL;
        b->cap = 0;
    }
}

/* The core's writes for machine `idx` (under the FILE's own lock). */
static ssize_t rt_out_write(void *cookie, const char *p, size_t n)
{
    rt_buf *b = &rt_mbuf[(intptr_t)cookie];
    if (b->n + n <= RT_OUT_MAX && rt_buf_add(b, p, n) == 0)
        return (ssize_t)n;
    /* too much to hold: the FIFO, this kernel's output so far and the rest go out now */
    rt_lock();
    rt_buf_write(&rt_fifo);
    rt_buf_write(b);
    fwrite(p, 1, n, stdout);
    fflush(stdout);
    rt_unlock();
    return (ssize_t)n;
}

FILE *rt_out_file(rt_module *mod)
{
    int i = mod->index;
    if (i < 0 || i >= RT_MAX_MODULES)
        return NULL;
    if (!rt_mfile[i]) {
        cookie_io_functions_t io = { NULL, rt_out_write, NULL, NULL };
        rt_mfile[i] = fopencookie((void *)(intptr_t)i, "w", io);
        if (rt_mfile[i])
            setvbuf(rt_mfile[i], NULL, _IONBF, 0);
    }
    return rt_mfile[i];
}

void rt_out_collect(rt_module *mod)
{
    int i = mod->index;
    if (i < 0 || i >= RT_MAX_MODULES || !rt_mbuf[i].n)
        return;
    if (rt_buf_add(&rt_fifo, rt_mbuf[i].p, rt_mbuf[i].n) != 0) {
        rt_buf_write(&rt_fifo);
        rt_buf_write(&rt_mbuf[i]);
        fflush(stdout);
        return;
    }
    rt_mbuf[i].n = 0;
    if (rt_fifo.n > RT_OUT_MAX)
        rt_flush_output();
}

void rt_flush_output(void)
{
    rt_buf_write(&rt_fifo);
    fflush(stdout);
}
