/* dap_launch.c - DAP launch of a PTX file (kernel lines checked, setupCommands, checks) and configurationDone, which runs its kernels. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dap_int.h"
#include "dap_prog.h"
#include "chk.h"

/* Run a CLI command for the launch (setupCommands, checks): its text goes to the console; on
 * failure the text is in *why (malloc'd). */
static int launch_command(dap_srv *d, const char *line, char **why)
{
    int saved[2];
    dap_capture_begin(d, saved);
    int rc = dapv_command(d->v, line);
    char *text = dap_capture_end(d, saved);
    if (rc == 0) {
        if (text)
            dap_output(d, "console", text, strlen(text));
        free(text);
        *why = NULL;
    } else {
        size_t n = text ? strlen(text) : 0;
        while (n && text[n - 1] == '\n')
            text[--n] = 0;
        *why = text;
    }
    return rc;
}

/* The launch's "check" as a comma-separated list of names (a string is taken as it is, an
 * array joined); -1 when it is neither or a name holds a space or a separator. */
int dap_check_names(const dj *check, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    if (check->kind == DJ_STR) {
        if (!check->str[0] || strlen(check->str) >= n || strpbrk(check->str, " \t\n;"))
            return -1;
        snprintf(out, n, "%s", check->str);
        return 0;
    }
    if (check->kind != DJ_ARR)
        return -1;
    for (int i = 0; i < check->count; i++) {
        const dj *c = check->items[i];
        if (c->kind != DJ_STR || !c->str[0] || strpbrk(c->str, " \t\n;,"))
            return -1;
        int w = snprintf(out + k, n - k, "%s%s", k ? "," : "", c->str);
        if (w < 0 || (size_t)w >= n - k)
            return -1;
        k += (size_t)w;
    }
    if (!k)
        snprintf(out, n, "none");
    return 0;
}

/* The launch arguments a PTX file and a CUDA program share: setupCommands, check, checks. */
int dap_launch_setup(dap_srv *d, const dj *req, const dj *a)
{
    const dj *setup = dj_get(a, "setupCommands");
    if (setup && setup->kind != DJ_ARR) {
        dap_respond_err(d, req, "launch: setupCommands must be an array of ptxdbg commands.");
        return -1;
    }
    for (int i = 0; setup && i < setup->count; i++) {
        const dj *c = setup->items[i];
        if (c->kind != DJ_STR) {
            dap_respond_err(d, req, "launch: setupCommands[%d] is not a string.", i);
            return -1;
        }
        char *why;
        if (launch_command(d, c->str, &why) != 0) {
            dap_respond_err(d, req, "launch: setup command \"%s\" failed: %s", c->str,
                            why && *why ? why : "error");
            free(why);
            return -1;
        }
    }
    /* "check": exactly these checkers ("all", "none", "memcheck,synccheck" or an array) */
    const dj *check = dj_get(a, "check");
    if (check) {
        char names[512];
        if (dap_check_names(check, names, sizeof names) != 0) {
            dap_respond_err(d, req, "launch: check must be \"all\", \"none\", a comma-separated "
                            "list or an array of checker names.");
            return -1;
        }
        char *why;
        if (launch_command(d, "set check all off", &why) != 0) {
            free(why);
            why = NULL;
        }
        free(why);
        char *save = NULL;
        for (char *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (!strcmp(t, "none"))
                continue;
            char line[300];
            snprintf(line, sizeof line, "set check %s on", t);
            if (launch_command(d, line, &why) != 0) {
                dap_respond_err(d, req, "launch: the check \"%s\" cannot be enabled: %s", t,
                                why && *why ? why : "error");
                free(why);
                return -1;
            }
            free(why);
        }
    }
    const dj *checks = dj_get(a, "checks");
    if (checks && checks->kind != DJ_ARR) {
        dap_respond_err(d, req, "launch: checks must be an array of checker names.");
        return -1;
    }
    for (int i = 0; checks && i < checks->count; i++) {
        const dj *c = checks->items[i];
        if (c->kind != DJ_STR || !c->str[0] || strpbrk(c->str, " \t\n;")) {
            dap_respond_err(d, req, "launch: checks[%d] is not a checker name.", i);
            return -1;
        }
        char line[256], *why;
        snprintf(line, sizeof line, "set check %s on", c->str);
        if (launch_command(d, line, &why) != 0) {
            dap_respond_err(d, req, "launch: the check \"%s\" cannot be enabled: %s", c->str,
                            why && *why ? why : "error");
            free(why);
            return -1;
        }
    }
    return 0;
}

/* A launch line as far as it can be checked before it runs: KERNEL<<<...>>>(ARGS) naming a
 * kernel of the module, with as many arguments as it has parameters (the CLI's `launch` checks
 * the rest when it runs). */
static int check_kernel_line(dap_srv *d, const char *line, char *why, size_t n)
{
    const char *p = line + strspn(line, " \t");
    const char *lt = strstr(p, "<<<"), *gt = lt ? strstr(lt, ">>>") : NULL;
    if (!lt || !gt) {
        snprintf(why, n, "\"%s\" is not a launch line: KERNEL<<<GRID, BLOCK>>>(ARG, ...).", line);
        return -1;
    }
    char name[512];
    const char *ke = lt;
    while (ke > p && (ke[-1] == ' ' || ke[-1] == '\t'))
        ke--;
    snprintf(name, sizeof name, "%.*s", (int)(ke - p), p);
    const ptx_func *f = dbg_find_func(d->s, name);
    if (!f) {
        snprintf(why, n, "%s", dbg_errmsg(d->s));
        return -1;
    }
    dbg_func_info fi;
    dbg_func_info_of(f, &fi);
    if (!fi.kernel) {
        snprintf(why, n, "\"%s\" is a device function, not a kernel (.entry).", name);
        return -1;
    }
    const char *q = gt + 3 + strspn(gt + 3, " \t");
    if (*q && *q != '(') {
        snprintf(why, n, "\"%s\": the arguments come in parentheses after >>>.", line);
        return -1;
    }
    int args = 0, depth = 0, any = 0;
    char quote = 0;
    for (const char *c = *q ? q + 1 : q; *c; c++) {
        if (quote) {
            if (*c == '\\' && c[1])
                c++;
            else if (*c == quote)
                quote = 0;
            continue;
        }
        if (*c == '"' || *c == '\'')
            quote = *c;
        else if (*c == '(' || *c == '[' || *c == '{')
            depth++;
        else if ((*c == ')' || *c == ']' || *c == '}') && depth > 0)
            depth--;
        else if (*c == ')' && !depth) {
            if (c[1 + strspn(c + 1, " \t")]) {
                snprintf(why, n, "\"%s\": text after the arguments.", line);
                return -1;
            }
            break;
        } else if (*c == ',' && !depth) {
            args++;
            continue;
        }
        if (*c != ' ' && *c != '\t')
            any = 1;
    }
    args += any || args;
    if (args != fi.nparams) {
        char full[600];
        dbg_func_name(d->s, f, 1, full, sizeof full);
        snprintf(why, n, "%s takes %d argument%s, %d given.", full, fi.nparams,
                 fi.nparams == 1 ? "" : "s", args);
        return -1;
    }
    return 0;
}

void dap_launch(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    if (d->launched) {
        dap_respond_err(d, req, "launch: the session is already launched.");
        return;
    }
    const char *prog = dj_str(a, "program", NULL);
    if (!prog || !*prog) {
        dap_respond_err(d, req, "launch: \"program\" (a .ptx file or a CUDA executable) is required.");
        return;
    }
    const char *cwd = dj_str(a, "cwd", NULL);
    if (cwd && *cwd && chdir(cwd) != 0) {
        dap_respond_err(d, req, "launch: cannot change to cwd \"%s\": %s.", cwd, strerror(errno));
        return;
    }
    const dj *soe = dj_get(a, "stopOnEntry");
    if (soe && soe->kind != DJ_BOOL) {
        dap_respond_err(d, req, "launch: stopOnEntry must be true or false.");
        return;
    }
    d->no_debug = dj_bool(a, "noDebug", 0);
    if (d->no_debug)   /* a run without debugging reports findings, never stops at them */
        chk_set_stop(dbg_checks(d->s), 0);
    d->stop_on_entry = soe && soe->b && !d->no_debug;
    if (dap_prog_is_executable(prog)) {
        dap_prog_launch(d, req, a);
        return;
    }
    if (dj_get(a, "args") || dj_get(a, "env")) {
        dap_respond_err(d, req, "launch: \"args\" and \"env\" are for a CUDA program; \"%s\" is a "
                        "PTX file (give \"kernel\", a launch line).", prog);
        return;
    }
    const dj *k = dj_get(a, "kernel");
    if (k && k->kind != DJ_STR && k->kind != DJ_ARR) {
        dap_respond_err(d, req, "launch: \"kernel\" must be a launch line (KERNEL<<<GRID, BLOCK>>>(ARGS)) "
                        "or an array of them.");
        return;
    }
    int nk = !k ? 0 : k->kind == DJ_STR ? 1 : k->count;
    for (int i = 0; k && k->kind == DJ_ARR && i < k->count; i++)
        if (k->items[i]->kind != DJ_STR) {
            dap_respond_err(d, req, "launch: kernel[%d] is not a launch line.", i);
            return;
        }
    if (dbg_load_file(d->s, prog) != 0) {
        dap_respond_err(d, req, "launch: %s", dbg_errmsg(d->s));
        return;
    }
    if (dap_launch_setup(d, req, a) != 0)
        return;
    for (int i = 0; i < nk; i++) {
        char why[1200];
        if (check_kernel_line(d, k->kind == DJ_STR ? k->str : k->items[i]->str, why,
                              sizeof why) != 0) {
            dap_respond_err(d, req, "launch: kernel%s: %s", nk > 1 ? "s" : "", why);
            return;
        }
    }
    d->kernels = calloc((size_t)nk + 1, sizeof *d->kernels);
    for (int i = 0; d->kernels && i < nk; i++) {
        const char *line = k->kind == DJ_STR ? k->str : k->items[i]->str;
        d->kernels[d->nkernels++] = strdup(line);
    }
    d->program = strdup(prog);
    d->launched = 1;
    dap_respond_ok(d, req);
    dap_bps_refresh(d); /* breakpoints a client set before launch now resolve */
    dj_w w;
    dap_begin_event(d, &w, "initialized");
    dap_send(d, &w);
}

void dap_configuration_done(dap_srv *d, const dj *req)
{
    if (!d->launched) {
        dap_respond_err(d, req, "configurationDone: launch first.");
        return;
    }
    if (d->configured) {
        dap_respond_err(d, req, "configurationDone: the configuration is already done.");
        return;
    }
    d->configured = 1;
    dap_respond_ok(d, req);
    if (d->nkernels == 0) {
        dap_outputf(d, "console", "No kernel given (launch argument \"kernel\"): type commands "
                    "in the debug console, e.g. launch KERNEL<<<GRID, BLOCK>>>(ARGS).\n");
        return;
    }
    dap_next_kernel(d);
}
