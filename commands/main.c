/* main.c - ptxdbg entry point: options, batch scripts and commands, then the interactive REPL. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_prog.h"
#include "cmd_ui.h"
#include "dap.h"
#include "chk.h"

/* A module with nothing in it, so buffers and the PTX REPL work before any file is loaded. */
static const char empty_module[] = ".version 7.0\n.target sm_80\n.address_size 64\n";

#define PTXDBG_VERSION "1.0"

static void usage(FILE *f)
{
    fprintf(f, "Usage: ptxdbg [-batch] [-q] [-j N] [-x SCRIPT]... [-ex 'COMMAND']... [--core CORE] [FILE.ptx]\n"
               "       ptxdbg [OPTIONS] PROGRAM [ARGS...]   or   ptxdbg [OPTIONS] --args PROGRAM [ARGS...]\n"
               "Debug PTX kernels on the CPU. In -batch mode ptxdbg exits after the scripts and\n"
               "commands, with a non-zero status when a command failed or a kernel trapped or\n"
               "faulted. A script (-x) stops at its first error; -ex commands all run.\n"
               "A CUDA PROGRAM (an executable built with nvcc -cudart shared) starts with \"run\";\n"
               "its kernels run on ptxdbg; with -batch ptxdbg exits with the program's status.\n"
               "Options (one or two dashes; a value also as OPTION=VALUE):\n"
               "  -batch                  exit after the scripts and commands\n"
               "  -q, -quiet, -silent     no banner\n"
               "  -x, -command FILE       run the commands in FILE\n"
               "  -ex, -eval-command CMD  run CMD\n"
               "  -core, -c FILE          open a core file\n"
               "  -j N                    worker threads (0: one per CPU)\n"
               "  -version                print the version\n"
               "  -help                   this text\n"
               "  -print-libdir           the folder holding libcudart.so.13 and libcuda.so.1\n"
               "  -check=LIST             checkers on (memcheck,racecheck,initcheck,synccheck\n"
               "                          or all; none); memcheck is on by default\n"
               "  -check-report=FILE      write every finding as JSON lines to FILE at the end\n"
               "  -leak-check [full|no]   report a program's allocations never freed at exit\n"
               "  -schedule=random:SEED   run warps and blocks in a seeded random order (set\n"
               "                          scheduler); -schedule=round-robin is the default\n"
               "  -schedules=N            rerun each launch of a PTX file that finishes under\n"
               "                          random schedules 1..N; report the first result that\n"
               "                          differs (and racecheck's racing pair)\n"
               "  -json                   every result, stop and error as one JSON object a "
               "line\n"
               "  -dap                    speak the Debug Adapter Protocol on stdin/stdout\n"
               "  -args PROGRAM ARGS...   debug a CUDA PROGRAM with these arguments\n");
}

/* "-name=value" (after "--name" became "-name"): the value, and the name alone in name. */
static const char *opt_value(const char *a, char *name, size_t n)
{
    const char *eq = strchr(a, '=');
    size_t l = eq ? (size_t)(eq - a) : strlen(a);
    snprintf(name, n, "%.*s", (int)(l < n ? l : n - 1), a);
    return eq ? eq + 1 : NULL;
}

/* --print-libdir: the absolute folder holding libcudart.so.13 (LD_LIBRARY_PATH for CUDA
 * programs), found as `run` finds it (cmd_prog_libdir). */
static int print_libdir(void)
{
    char dir[PATH_MAX];
    if (cmd_prog_libdir(dir, sizeof dir) != 0) {
        fprintf(stderr, "ptxdbg: the CUDA runtime library is not built (looked in %s; run make)\n",
                dir);
        return 1;
    }
    printf("%s\n", dir);
    return 0;
}

int main(int argc, char **argv)
{
    int batch = 0, quiet = 0, threads = 0, json = 0;
    const char *file = NULL;
    const char *core = NULL;  /* --core FILE: open a core file (postmortem) */
    /* -x and -ex in the order given */
    const char **acts = calloc((size_t)argc, sizeof *acts);
    char *kinds = calloc((size_t)argc, 1);
    int nacts = 0;
    char **pargs = calloc((size_t)argc, sizeof *pargs); /* a program's arguments */
    int npargs = 0, args_opt = 0;
    if (!acts || !kinds || !pargs)
        return 2;
    int rc = -1;  /* >= 0: an option ends ptxdbg with this status */
    const char *check_list = NULL, *check_report = NULL, *schedule = NULL;
    uint64_t schedules = 0;
    int leak_check = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--args") || !strcmp(a, "-args")) { /* gdb: PROGRAM ARGS... follow */
            if (i + 1 >= argc) {
                fprintf(stderr, "ptxdbg: --args needs a program\n");
                rc = 2;
                goto opts_done;
            }
            file = argv[++i];
            while (++i < argc)
                pargs[npargs++] = argv[i];
            args_opt = 1;
            break;
        }
        if (a[0] == '-' && a[1] == '-' && a[2])
            a++; /* --batch == -batch */
        char name[64];
        const char *val = a[0] == '-' ? opt_value(a, name, sizeof name) : NULL;
        if (a[0] != '-')
            name[0] = 0;
        if (!strcmp(name, "-interpreter") || !strcmp(name, "-i")) {
            /* gdb's MI front ends: one message whatever the spelling (=mi, a separate value,
               none); the default console interpreter is what ptxdbg is */
            const char *iv = val ? val : i + 1 < argc && argv[i + 1][0] != '-' ? argv[++i] : "";
            if (!strcmp(iv, "console"))
                continue;
            if (!strcmp(iv, "dap") && argc == 2) {   /* gdb's --interpreter=dap is --dap */
                free(acts);
                free(kinds);
                free(pargs);
                return dap_main();
            }
            if (iv[0] && strncmp(iv, "mi", 2) && strcmp(iv, "dap"))
                fprintf(stderr, "ptxdbg: Interpreter `%s' unrecognized (console, dap, or --json; "
                        "there is no MI interpreter)\n", iv);
            else if (!strcmp(iv, "dap"))
                fprintf(stderr, "ptxdbg: --interpreter=dap takes no other option (the editor's "
                        "launch configuration names the program)\n");
            else
                fprintf(stderr, "ptxdbg has no MI interpreter; use --dap (Debug Adapter "
                        "Protocol) or --json\n");
            rc = 2;
            goto opts_done;
        }
        int takes = !strcmp(name, "-x") || !strcmp(name, "-ex") || !strcmp(name, "-command") ||
                    !strcmp(name, "-eval-command") || !strcmp(name, "-core") ||
                    !strcmp(name, "-c") || !strcmp(name, "-check") ||
                    !strcmp(name, "-check-report") || !strcmp(name, "-schedule") ||
                    !strcmp(name, "-schedules");
        if (!strcmp(name, "-leak-check")) {   /* --leak-check [full|no] (compute-sanitizer's) */
            const char *v = val;
            if (!v && i + 1 < argc && (!strcmp(argv[i + 1], "full") || !strcmp(argv[i + 1], "no")))
                v = argv[++i];
            if (v && strcmp(v, "full") && strcmp(v, "no")) {
                fprintf(stderr, "ptxdbg: --leak-check takes full or no ('%s')\n", v);
                rc = 2;
                goto opts_done;
            }
            leak_check = !v || !strcmp(v, "full");
            continue;
        }
        if (takes && !val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ptxdbg: option '%s' requires an argument\n", argv[i]);
                usage(stderr);
                rc = 2;
                goto opts_done;
            }
            val = argv[++i];
        } else if (!takes && val && strncmp(name, "-j", 2) != 0) {
            fprintf(stderr, "ptxdbg: option '%s' doesn't allow an argument\n", argv[i]);
            rc = 2;
            goto opts_done;
        }
        if (!strcmp(a, "-dap")) { /* an editor's debug adapter: nothing else may be given */
            if (argc != 2) {
                fprintf(stderr, "ptxdbg: --dap takes no other option (the editor's launch "
                                "configuration names the program)\n");
                rc = 2;
                goto opts_done;
            }
            free(acts);
            free(kinds);
            free(pargs);
            return dap_main();
        } else if (!strcmp(a, "-batch")) {
            batch = 1;
        } else if (!strcmp(a, "-json")) {
            json = 1;         /* results as JSON lines (docs/JSON.md) */
        } else if (!strcmp(a, "-print-libdir")) {
            rc = print_libdir();
            goto opts_done;
        } else if (!strcmp(a, "-q") || !strcmp(a, "-quiet") || !strcmp(a, "-silent") ||
                   !strcmp(a, "-nx") || !strcmp(a, "-n")) {
            quiet = 1;
        } else if (!strcmp(a, "-version") || !strcmp(a, "-v")) {
            printf("ptxdbg %s\nA debugger for NVIDIA PTX kernels, run on the CPU with GPU "
                   "semantics.\n", PTXDBG_VERSION);
            rc = 0;
            goto opts_done;
        } else if (!strcmp(name, "-x") || !strcmp(name, "-ex") || !strcmp(name, "-command") ||
                   !strcmp(name, "-eval-command")) {
            kinds[nacts] = !strcmp(name, "-x") || !strcmp(name, "-command") ? 'x' : 'e';
            acts[nacts++] = val;
        } else if (!strncmp(a, "-j", 2) && (a[2] || i + 1 < argc)) {
            const char *v = a[2] == '=' ? a + 3 : a[2] ? a + 2 : argv[++i];
            char *end;
            long n = strtol(v, &end, 10);
            if (*v < '0' || *v > '9' || *end || n > 256) {
                fprintf(stderr, "ptxdbg: -j needs a thread count from 0 to 256 ('%s')\n", v);
                rc = 2;
                goto opts_done;
            }
            threads = (int)n;
        } else if (!strcmp(name, "-core") || !strcmp(name, "-c")) {
            core = val;
        } else if (!strcmp(name, "-check")) {
            char err[256];
            chk_ctx *k = chk_new();   /* the list is checked before anything starts */
            int bad = !k || chk_set_list(k, val, err, sizeof err) != 0;
            chk_free(k);
            if (bad) {
                fprintf(stderr, "ptxdbg: --check: %s\n", k ? err : "out of memory");
                rc = 2;
                goto opts_done;
            }
            check_list = val;
        } else if (!strcmp(name, "-check-report")) {
            check_report = val;
        } else if (!strcmp(name, "-schedules")) {   /* N reruns of each finished launch */
            char *end;
            unsigned long long nn = strtoull(val, &end, 10);
            if (!val[0] || *end || val[0] == '-' || nn == 0 || nn > 100000) {
                fprintf(stderr, "ptxdbg: --schedules takes a number of schedules from 1 to "
                        "100000 ('%s')\n", val);
                rc = 2;
                goto opts_done;
            }
            schedules = nn;
        } else if (!strcmp(name, "-schedule")) {   /* random:SEED or round-robin */
            const char *d = strchr(val, ':');
            if (strcmp(val, "round-robin") && (strncmp(val, "random", 6) || (val[6] && !d) ||
                                               (d && (!d[1] || strspn(d + 1, "0123456789") !=
                                                                  strlen(d + 1))))) {
                fprintf(stderr, "ptxdbg: --schedule takes random:SEED or round-robin ('%s')\n",
                        val);
                rc = 2;
                goto opts_done;
            }
            schedule = val;
        } else if (!strcmp(a, "-help") || !strcmp(a, "-h")) {
            usage(stdout);
            rc = 0;
            goto opts_done;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ptxdbg: unrecognized option '%s'\n", argv[i]);
            usage(stderr);
            rc = 2;
            goto opts_done;
        } else if (!file) {
            file = argv[i];
        } else if (cmd_is_executable(file)) {
            pargs[npargs++] = argv[i];
        } else {
            fprintf(stderr, "ptxdbg: only one PTX file may be given ('%s')\n", argv[i]);
            rc = 2;
            goto opts_done;
        }
    }
opts_done:
    if (rc >= 0) {
        free(acts);
        free(kinds);
        free(pargs);
        return rc;
    }
    dbg_session *s = dbg_new();
    if (!s)
        return 2;
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    cmd_ui_attach_output(&c);   /* kernel printf through the output model */
    c.batch = batch;
    if (batch)   /* in a batch run findings are reports, not stops (set check stop on) */
        chk_set_stop(dbg_checks(s), 0);
    c.kernel_events = !batch;
    if (batch) { /* the watchdog: nobody is there to press Ctrl-C */
        dbg_opts(s)->run_max_steps = CMD_BATCH_MAX_STEPS;
        const char *env = getenv("PTXDBG_MAX_STEPS");
        char *end = NULL;
        errno = 0;
        unsigned long long v = env && *env ? strtoull(env, &end, 0) : 0;
        /* digits only: "-1" would wrap and a value past 2^64 saturate, silently disabling it */
        if (env && *env && *end == 0 && isdigit((unsigned char)env[0]) && errno != ERANGE)
            dbg_opts(s)->run_max_steps = v;
        else if (env && *env)
            fprintf(stderr, "ptxdbg: ignoring PTXDBG_MAX_STEPS='%s' (not a number)\n", env);
    }
    dbg_opts(s)->threads = threads;
    int program = file && (args_opt || cmd_is_executable(file));
    if (program && cmd_prog_set(&c, file, pargs, npargs) != 0)
        c.failed = 1;
    if (program && !isatty(STDIN_FILENO)) /* the program's session reads stdin after us */
        setvbuf(stdin, NULL, _IONBF, 0);
    if (json)
        cmd_execute(&c, "set output json");
    if (!batch && !quiet && !json)
        printf("ptxdbg: a PTX debugger running CUDA kernels on the CPU. Type \"help\" for commands.\n");
    if (program) {
        /* no module until the program registers its own: breakpoints are pending */
    } else if (file) {
        if (dbg_load_file(s, file) != 0) {
            cmd_error(&c, "%s", dbg_errmsg(s));
            cmd_program_hint(file);
        } else
            cmd_load_warnings(&c);
    } else if (dbg_load_text(s, empty_module, sizeof empty_module - 1, "<repl>") != 0) {
        cmd_error(&c, "%s", dbg_errmsg(s));
    }
    if (core)
        cmd_core_open(&c, core);
    if (schedules) {
        if (c.prog || c.inproc) {
            cmd_error(&c, "--schedules reruns launches of PTX files; a program's kernels run "
                      "once each: use --schedule=random:SEED to run a program under one random "
                      "schedule.");
            rc = 2;
            goto opts_done;
        }
        c.opt.schedules = schedules;
    }
    if (schedule) {   /* as `set scheduler` (a program's session gets it with its config) */
        char line[96];
        snprintf(line, sizeof line, "set scheduler %.60s", schedule);
        cmd_execute(&c, line);
    }
    /* the checker options, as the commands that set them (a program's session replays them) */
    if (check_list) {
        char line[600], buf[300];
        cmd_execute(&c, "set check all off");
        snprintf(buf, sizeof buf, "%s", check_list);
        for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv))
            if (strcmp(t, "none") != 0) {
                snprintf(line, sizeof line, "set check %s on", t);
                cmd_execute(&c, line);
            }
    }
    if (check_report) {
        char line[CMD_PATH_MAX + 32];
        snprintf(line, sizeof line, "set check report %s", check_report);
        cmd_execute(&c, line);
    }
    if (leak_check)
        cmd_execute(&c, "set check leaks on");
    const char *fill = getenv("PTXDBG_FILL");   /* initcheck's companion (set fill) */
    if (fill && *fill) {
        char line[128];
        snprintf(line, sizeof line, "set fill %.100s", fill);
        cmd_execute(&c, line);
    }
    /* the terminal (not in batch mode) below main's -ex/-x list: one command feed reads them,
       so a program's `run` hands the rest of both to the program's session (cmd_feed.c) */
    if (!batch && cmd_feed_push_term(&c, NULL) != 0)
        c.failed = 1;
    size_t alen = 0;
    for (int i = 0; i < nacts; i++)
        alen += strlen(acts[i]) + 3;
    char *list = malloc(alen + 1), *lp = list;
    for (int i = 0; list && i < nacts; i++) {
        /* "e COMMAND" / "x SCRIPT", one a line (a newline inside a -ex ends the command) */
        size_t k = strcspn(acts[i], "\n");
        lp += sprintf(lp, "%c %.*s\n", kinds[i], (int)k, acts[i]);
    }
    if (!list || (nacts && cmd_feed_push(&c, CMD_FR_TEXT, CMD_FF_ACTS, "-ex/-x", NULL, list,
                                         (size_t)(lp - list)) != 0))
        c.failed = 1;
    free(list);
    if (!c.quit)
        cmd_feed_run(&c, 0);
    cmd_term_close(&c);
    if (!program)
        cmd_check_finish(&c);   /* a program's findings are its session's (cmd_inproc.c) */
    int status = c.quit > 1 ? (c.quit & 0xff) : (c.failed || c.kernel_failed) && batch ? 1 : 0;
    /* a program's batch exits with the program's status */
    if (program && batch && c.quit <= 1 && c.prog_exited && c.prog_status != 0)
        status = c.prog_status;
    cmd_prog_free(&c);
    free(pargs);
    cmd_ctx_free(&c);
    dbg_free(s);
    free(acts);
    free(kinds);
    return status;
}
