/* test_isa_forms.c - every syntax form listed in tests/isa_forms.txt (forms ptxas accepts) loads: parses and decodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "test_util.h"

#define FORMS "tests/isa_forms.txt"

typedef struct {
    char mod[2048], decl[2048];
    char (*form)[256];
    int *line;
    int n;
} forms;

static void forms_read(forms *f)
{
    FILE *fp = fopen(FORMS, "r");
    ck_assert_msg(fp != NULL, "cannot open " FORMS);
    memset(f, 0, sizeof *f);
    f->form = calloc(1024, sizeof *f->form);
    f->line = calloc(1024, sizeof *f->line);
    char buf[512];
    int ln = 0;
    while (fgets(buf, sizeof buf, fp)) {
        ln++;
        buf[strcspn(buf, "\n")] = 0;
        if (!buf[0] || buf[0] == '#')
            continue;
        if (buf[0] == '>') {
            char *dst = buf[1] == 'm' ? f->mod : f->decl;
            ck_assert_msg(buf[1] == 'm' || buf[1] == 'k', FORMS ":%d: bad prelude line", ln);
            strncat(dst, buf + 3, 2047 - strlen(dst) - 2);
            strcat(dst, "\n");
            continue;
        }
        ck_assert_msg(f->n < 1024 && strlen(buf) < 256, FORMS ":%d: too many or too long", ln);
        f->line[f->n] = ln;
        memcpy(f->form[f->n++], buf, strlen(buf) + 1);   /* length checked above */
    }
    fclose(fp);
}

static int form_loads(const forms *f, const char *form, char *err, size_t errlen)
{
    char src[8192];
    snprintf(src, sizeof src, ".version 8.7\n.target sm_90a\n.address_size 64\n%s"
             ".visible .entry isa_forms(.param .u64 kp)\n{\n%s %s\nL1:\n ret;\n}\n", f->mod,
             f->decl, form);
    ptx_error pe;
    ptx_module *mod = ptx_parse(src, strlen(src), "form.ptx", &pe);
    if (!mod) {
        snprintf(err, errlen, "%s", pe.msg);
        return 0;
    }
    exec_machine *m = exec_new(mod, err, errlen);
    int ok = m != NULL;
    if (m)
        exec_free(m);
    ptx_module_free(mod);
    return ok;
}

START_TEST(every_form_loads)
{
    forms f;
    forms_read(&f);
    ck_assert_int_ge(f.n, 150);
    char msg[8192] = "", err[1024];
    size_t ml = 0;
    int bad = 0;
    for (int i = 0; i < f.n; i++)
        if (!form_loads(&f, f.form[i], err, sizeof err)) {
            bad++;
            if (ml < sizeof msg - 300)
                ml += (size_t)snprintf(msg + ml, sizeof msg - ml, "\n  " FORMS ":%d: %s: %.200s",
                                       f.line[i], f.form[i], err);
        }
    ck_assert_msg(bad == 0, "%d of %d forms do not load:%s", bad, f.n, msg);
    free(f.form);
    free(f.line);
}
END_TEST

/* The check can fail: a form with an undeclared register or an unknown opcode is refused. */
START_TEST(bad_forms_refused)
{
    forms f;
    forms_read(&f);
    char err[1024];
    ck_assert(!form_loads(&f, "add.u32 r0, nosuch, 1;", err, sizeof err));
    ck_assert(!form_loads(&f, "frob.u32 r0;", err, sizeof err));
    ck_assert(!form_loads(&f, "add.u32 r0, v2, 1;", err, sizeof err));
    free(f.form);
    free(f.line);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("isa_forms");
    TCase *tc = tcase_create("forms");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_form_loads);
    tcase_add_test(tc, bad_forms_refused);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
