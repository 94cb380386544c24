/* test_fixtures_load.c - every committed .ptx file under tests/ parses and loads (exec_new), except the malformed-on-purpose ones in tests/badinput/ and tests/e2e/bad-*.ptx. */
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

static Suite *suite(void)
{
    Suite *s = suite_create("fixtures_load");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_fixture_loads);
    tcase_add_test(tc, test_bad_ones_fail);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
