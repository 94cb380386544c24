/* test_hoststack.c - the engine's cheap host stack walk (dbg_unwind.c) finds the return addresses libgcc's unwinder finds, through frames of each shape the compiler makes. */
#include <stdint.h>
#include <string.h>
#include <unwind.h>
#include "dbg_int.h"
#include "test_util.h"

#define MAXF 24

typedef struct {
    uint64_t pcs[MAXF];
    int n;
} walk;

static int visit(uint64_t pc, void *arg)
{
    walk *w = arg;
    if (!pc)
        return 0;
    w->pcs[w->n++] = pc;
    return w->n < MAXF;
}

static _Unwind_Reason_Code gcc_one(struct _Unwind_Context *ctx, void *arg)
{
    return visit((uint64_t)_Unwind_GetIP(ctx), arg) ? _URC_NO_REASON : _URC_END_OF_STACK;
}

static volatile int sink;

/* Both walks from one frame: each list starts in its own collector, then the caller's two call
 * sites differ; from the frame above, the lists must be the same. */
__attribute__((noinline)) static int fast_walk(walk *w)
{
    int r = dbg_unwind_fast(visit, w);
    sink++;
    return r;
}

__attribute__((noinline)) static void gcc_walk(walk *w)
{
    _Unwind_Backtrace(gcc_one, w);
    sink++;
}

__attribute__((noinline)) static void compare(void)
{
    walk a = {{0}, 0}, b = {{0}, 0};
    int r = fast_walk(&a);
    gcc_walk(&b);
    sink++;
#if defined(__x86_64__)
    ck_assert_int_eq(r, 0);   /* a plain C program's frames: walked without libgcc */
#endif
    if (r != 0)
        return;
    ck_assert_int_ge(a.n, 8);
    ck_assert_int_eq(a.n, b.n);
    for (int i = 2; i < a.n; i++)
        ck_assert_msg(a.pcs[i] == b.pcs[i], "frame %d: %llx vs %llx", i,
                      (unsigned long long)a.pcs[i], (unsigned long long)b.pcs[i]);
}

/* a frame addressed from %rbp (its size is known only at run time) */
__attribute__((noinline)) static void dynamic_frame(int n, int depth);

/* frames addressed from %rsp, of several sizes, recursing */
__attribute__((noinline)) static void plain_frame(int n, int depth)
{
    volatile char buf[64 * 3];
    buf[n % sizeof buf] = (char)n;
    if (depth == 0)
        compare();
    else if (depth % 2)
        dynamic_frame(n + 1, depth - 1);
    else
        plain_frame(n + 7, depth - 1);
    sink += buf[n % sizeof buf];
}

__attribute__((noinline)) static void dynamic_frame(int n, int depth)
{
    volatile char vla[n + 16];
    vla[n] = 1;
    plain_frame(n + 3, depth);
    sink += vla[n];
}

START_TEST(fast_walk_matches_libgcc)
{
    plain_frame(5, 6);
    dynamic_frame(40, 3);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("hoststack");
    TCase *t = tcase_create("walk");
    tcase_add_test(t, fast_walk_matches_libgcc);
    suite_add_tcase(su, t);
    return tu_run_suite(su);
}
