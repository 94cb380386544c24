/* test_fixtures_load.c - every committed .ptx file under tests/ parses and loads (exec_new), except the malformed-on-purpose ones in tests/badinput/ and tests/e2e/bad-*.ptx; operand-size rules. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "exec.h"
#include "test_util.h"

typedef struct { char *log; size_t n, cap; int checked, failed; } result;

static void note(result *r, const char *path, const char *msg)
{
    size_t need = strlen(path) + strlen(msg) + 8;
    if (r->n + need >= r->cap) {
        r->cap = (r->cap + need) * 2;
        r->log = realloc(r->log, r->cap);
        ck_assert_ptr_nonnull(r->log);
    }
    r->n += (size_t)snprintf(r->log + r->n, r->cap - r->n, "\n  %s: %s", path, msg);
}

static int skipped(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strncmp(path, "tests/badinput/", 15) == 0 ||
           (strncmp(path, "tests/e2e/", 10) == 0 && strncmp(base, "bad-", 4) == 0);
}

static void load_one(result *r, const char *path)
{
    ptx_error pe;
    ptx_module *mod = ptx_parse_file(path, &pe);
    r->checked++;
    if (!mod) {
        r->failed++;
        note(r, path, pe.msg);
        return;
    }
    char err[1024];
    exec_machine *m = exec_new(mod, err, sizeof err);
    if (!m) {
        r->failed++;
        note(r, path, err);
    } else {
        exec_free(m);
    }
    ptx_module_free(mod);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Depth-first, names sorted, so failures come out in a stable order. */
static void walk(result *r, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
            ck_assert_ptr_nonnull(names);
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0) {
            size_t len = strlen(path);
            if (S_ISDIR(st.st_mode))
                walk(r, path);
            else if (len > 4 && strcmp(path + len - 4, ".ptx") == 0 && !skipped(path))
                load_one(r, path);
        }
        free(names[i]);
    }
    free(names);
}

START_TEST(test_every_fixture_loads)
{
    result r = { 0 };
    walk(&r, "tests");
    char msg[6000];
    snprintf(msg, sizeof msg, "%.5900s", r.log ? r.log : "");
    free(r.log);
    ck_assert_msg(r.checked > 100, "only %d .ptx files found (run from the repository root)",
                  r.checked);
    ck_assert_msg(r.failed == 0, "%d of %d .ptx fixtures do not load:%s", r.failed, r.checked,
                  msg);
}
END_TEST

/* The malformed ones really are rejected (so the exclusion above hides nothing that loads). */
START_TEST(test_bad_ones_fail)
{
    static const char *const bad[] = { "tests/badinput/width-mismatch.ptx",
                                       "tests/e2e/bad-register.ptx" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ptx_error pe;
        ptx_module *mod = ptx_parse_file(bad[i], &pe);
        if (!mod)
            continue;
        char err[1024];
        exec_machine *m = exec_new(mod, err, sizeof err);
        ck_assert_msg(m == NULL, "%s loads", bad[i]);
        ptx_module_free(mod);
    }
}
END_TEST

/* Operand sizes (PTX ISA 9.4.1): only ld/st/cvt (and relatives) take wider registers; the
 * spec's own mixed-size operands still load. */
static int load_body(const char *body, char *err, size_t n)
{
    char src[2048];
    snprintf(src, sizeof src, ".version 8.0\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n"
             " .reg .b16 %%h<4>; .reg .b32 %%r<4>; .reg .b64 %%rd<4>; .reg .pred %%p<2>;\n"
             " .reg .f32 %%f<2>;\n ld.param.u64 %%rd1, [p];\n %s\n ret;\n}\n", body);
    ptx_error pe;
    ptx_module *mod = ptx_parse(src, strlen(src), "w.ptx", &pe);
    if (!mod) {
        snprintf(err, n, "%s", pe.msg);
        return -1;
    }
    exec_machine *m = exec_new(mod, err, n);
    int rc = m ? 0 : -1;
    if (m)
        exec_free(m);
    ptx_module_free(mod);
    return rc;
}

START_TEST(test_operand_width)
{
    static const struct { const char *body, *msg; } bad[] = {
        { "add.s32 %r1, %rd2, 1;", "operand 2: register %rd2 is 64 bits, instruction type .s32 needs 32" },
        { "and.b32 %rd2, %r1, %r2;", "operand 1: register %rd2 is 64 bits" },
        { "mul.lo.u64 %rd2, %r1, %rd1;", "operand 2: register %r1 is 32 bits, instruction type .u64 needs 64" },
        { "add.f32 %f1, %f1, %rd1;", "register %rd1 is 64 bits" },
        { "setp.eq.s32 %p1, %rd1, 0;", "register %rd1 is 64 bits" },
        { "mov.u32 %r1, %rd1;", "register %rd1 is 64 bits" },
    };
    static const char *const good[] = {
        "shl.b64 %rd2, %rd1, %r1;", "mul.wide.s32 %rd2, %r1, %r2;", "cvt.u32.u64 %r1, %rd1;",
        "st.global.u8 [%rd1], %r1;", "ld.global.u16 %r1, [%rd1];", "ld.global.s8 %rd2, [%rd1];",
        "st.global.b16 [%rd1], %rd2;", "selp.b32 %r1, %r2, %r3, %p1;",
        "setp.eq.s64 %p1, %rd1, %rd2;", "bfe.u64 %rd2, %rd1, %r1, %r2;",
        "mov.b64 %rd2, {%r1, %r2};", "mov.b64 {%r1, %r2}, %rd2;", "popc.b64 %r1, %rd1;",
        "cvt.rn.f32.s64 %f1, %rd1;", "mad.wide.u32 %rd2, %r1, %r2, %rd1;",
        "shf.l.wrap.b32 %r1, %r2, %r3, %r1;", "mov.u32 %r1, %tid.x;",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[1024];
        ck_assert_msg(load_body(bad[i].body, err, sizeof err) != 0, "accepted %s", bad[i].body);
        ck_assert_msg(strstr(err, bad[i].msg) && strstr(err, "w.ptx:9:"), "%s: %s",
                      bad[i].body, err);
    }
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char err[1024];
        ck_assert_msg(load_body(good[i], err, sizeof err) == 0, "%s: %s", good[i], err);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("fixtures_load");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_fixture_loads);
    tcase_add_test(tc, test_bad_ones_fail);
    tcase_add_test(tc, test_operand_width);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
