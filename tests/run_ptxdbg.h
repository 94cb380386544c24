/* run_ptxdbg.h - run ./ptxdbg -batch (any shell command) capturing stdout and status; compare with a transcript. */
#ifndef RUN_PTXDBG_H
#define RUN_PTXDBG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

/* The debugger binary: $PTXDBG when set (a sanitizer build), else ./ptxdbg. */
static inline const char *rp_ptxdbg(void)
{
    const char *p = getenv("PTXDBG");
    return p && *p ? p : "./ptxdbg";
}

/* Run a shell command; its stdout as a malloc'd string, NULL when it cannot run. */
static inline char *rp_run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n - 1, p);
        n += r;
        if (r == 0)
            break;
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    pclose(p);
    if (buf)
        buf[n] = 0;
    return buf;
}

/* rp_run, and the command's exit status into *st (when st is not NULL). */
static inline char *rp_run_status(const char *cmd, int *st)
{
    char full[8192];
    snprintf(full, sizeof full, "%s; echo \"@status=$?\"", cmd);
    char *buf = rp_run(full);
    if (!buf)
        return NULL;
    char *s = strstr(buf, "@status=");
    if (s) {
        if (st)
            *st = atoi(s + 8);
        *s = 0;
    }
    return buf;
}

/* Run cmd; its stdout must equal tests/transcripts/NAME.out exactly (else the first differing
 * line is reported). */
static inline void rp_check_transcript(const char *name, const char *cmd)
{
    char path[256];
    snprintf(path, sizeof path, "tests/transcripts/%s.out", name);
    char *want = tu_read_file(path, NULL);
    ck_assert_msg(want != NULL, "cannot read %s", path);
    char *got = rp_run(cmd);
    ck_assert_msg(got != NULL, "cannot run %s", cmd);
    if (strcmp(got, want) != 0) {
        /* show the first differing line */
        const char *g = got, *w = want;
        int line = 1;
        while (*g && *g == *w) {
            if (*g == '\n')
                line++;
            g++;
            w++;
        }
        ck_abort_msg("%s: output differs at line %d: got \"%.60s\", want \"%.60s\"", name, line,
                     g, w);
    }
    free(got);
    free(want);
}

#endif
