/* core_harness.h - parse a PTX snippet or file, exec_new, allocate/read/write buffers, launch a kernel and run it. */
/* HDR (the PTX header for snippets) and T_MAX_STEPS (t_run's step limit) may be defined
 * before the include. */
#ifndef CORE_HARNESS_H
#define CORE_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "exec.h"
#include "test_util.h"

#ifndef HDR
#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
#endif
#ifndef T_MAX_STEPS
#define T_MAX_STEPS 50000000
#endif

typedef struct {
    ptx_module *mod;
    exec_machine *m;
    char err[1024];
} T;

/* Parse src and make a machine; -1 with the message in t->err. */
static inline int t_load(T *t, const char *src)
{
    ptx_error pe;
    memset(t, 0, sizeof *t);
    t->mod = ptx_parse(src, strlen(src), "t.ptx", &pe);
    if (!t->mod) {
        snprintf(t->err, sizeof t->err, "%s", pe.msg);
        return -1;
    }
    t->m = exec_new(t->mod, t->err, sizeof t->err);
    return t->m ? 0 : -1;
}

/* Parse a PTX file and make a machine; fails the test otherwise. */
static inline void t_load_file(T *t, const char *path)
{
    ptx_error pe;
    memset(t, 0, sizeof *t);
    t->mod = ptx_parse_file(path, &pe);
    ck_assert_msg(t->mod != NULL, "%s", pe.msg);
    t->m = exec_new(t->mod, t->err, sizeof t->err);
    ck_assert_msg(t->m != NULL, "%s", t->err);
}

/* Free the machine and the module; t may be freed again (or reloaded) afterwards. */
static inline void t_free(T *t)
{
    exec_free(t->m);
    ptx_module_free(t->mod);
    t->m = NULL;
    t->mod = NULL;
}

static inline uint64_t t_buf(T *t, size_t n)
{
    uint64_t a = 0;
    ck_assert_int_eq(exec_global_alloc(t->m, n, &a), 0);
    return a;
}

static inline void t_read(T *t, uint64_t a, void *buf, size_t n)
{
    ck_assert_int_eq(exec_mem_read(t->m, PTX_SPACE_GLOBAL, a, buf, n, 0, 0, 0), 0);
}

static inline void t_write(T *t, uint64_t a, const void *buf, size_t n)
{
    ck_assert_int_eq(exec_mem_write(t->m, PTX_SPACE_GLOBAL, a, buf, n, 0, 0, 0), 0);
}

/* A global buffer of n bytes holding data. */
static inline uint64_t t_buf_init(T *t, const void *data, size_t n)
{
    uint64_t a = t_buf(t, n);
    t_write(t, a, data, n);
    return a;
}

/* Launch kernel k on a grid g of blocks b with dyn bytes of dynamic shared memory and the
 * parameter bytes p[0..n). */
static inline void t_launch_dims(T *t, const char *k, exec_dim3 g, exec_dim3 b, uint32_t dyn,
                                 const void *p, size_t n)
{
    const ptx_func *f = ptx_find_func(t->mod, k);
    ck_assert_ptr_nonnull(f);
    ck_assert_msg(exec_launch(t->m, f, g, b, dyn, p, n) == 0, "%s", exec_errmsg(t->m));
}

/* Launch kernel k on gx blocks of bx threads with the parameter bytes p[0..n). */
static inline void t_launch(T *t, const char *k, unsigned gx, unsigned bx, const void *p, size_t n)
{
    exec_dim3 g = { gx, 1, 1 }, b = { bx, 1, 1 };
    t_launch_dims(t, k, g, b, 0, p, n);
}

/* Launch kernel k with parameters given as 64-bit values, each stored at the kernel's
 * parameter offset with the size that parameter has (pointers 8, ints 4). */
static inline void t_launch_args(T *t, const char *k, unsigned gx, unsigned bx,
                                 const uint64_t *vals, int n)
{
    const ptx_func *f = ptx_find_func(t->mod, k);
    ck_assert_msg(f != NULL, "no kernel %s", k);
    uint64_t off[16], sz[16];
    uint8_t buf[256];
    memset(buf, 0, sizeof buf);
    int64_t total = exec_param_layout(f, off, sz, 16);
    ck_assert_int_ge(total, 0);
    ck_assert_int_le(total, (int64_t)sizeof buf);
    ck_assert_int_le(n, 16);
    ck_assert_int_eq(f->nparams, n);
    for (int i = 0; i < n; i++)
        memcpy(buf + off[i], &vals[i], (size_t)sz[i]);
    exec_dim3 g = { gx, 1, 1 }, b = { bx, 1, 1 };
    ck_assert_msg(exec_launch(t->m, f, g, b, 0, buf, (size_t)total) == 0, "%s",
                  exec_errmsg(t->m));
}

/* Run the launch for at most max_steps steps; returns the stop. */
static inline exec_stop t_run_steps(T *t, uint64_t max_steps)
{
    exec_run_opts o;
    exec_stop st;
    memset(&o, 0, sizeof o);
    o.max_steps = max_steps;
    ck_assert_int_eq(exec_run(t->m, &o, &st), 0);
    return st;
}

static inline exec_stop t_run(T *t) { return t_run_steps(t, T_MAX_STEPS); }

/* ---- the fixture steps every suite repeats ------------------------------------------------- */
/* Load src; fails the test with the loader's message otherwise. */
static inline void t_open(T *t, const char *src)
{
    ck_assert_msg(t_load(t, src) == 0, "%s", t->err);
}

/* Run to the end; fails the test on any other stop. */
static inline exec_stop t_run_done(T *t)
{
    exec_stop st = t_run(t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "stop %d exc %d: %s", st.kind, st.exc, st.msg);
    return st;
}

/* Run and expect exception e with a message containing `want`. */
static inline exec_stop t_run_exc(T *t, exec_exc e, const char *want)
{
    exec_stop st = t_run(t);
    ck_assert_msg(st.kind == EXEC_STOP_EXCEPTION, "stop %d: %s", st.kind, st.msg);
    ck_assert_msg(st.exc == e, "exc %d (want %d): %s", st.exc, e, st.msg);
    ck_assert_msg(strstr(st.msg, want) != NULL, "'%s' not in '%s'", want, st.msg);
    return st;
}

/* Loading src must fail with a message containing `want`. */
static inline void t_load_fails(const char *src, const char *want)
{
    T t;
    ck_assert_int_ne(t_load(&t, src), 0);
    ck_assert_msg(strstr(t.err, want) != NULL, "'%s' not in '%s'", want, t.err);
    t_free(&t);
}

#endif
