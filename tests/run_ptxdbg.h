/* run_ptxdbg.h - run ./ptxdbg -batch (any shell command) capturing stdout and status; compare with a transcript. */
#ifndef RUN_PTXDBG_H
#define RUN_PTXDBG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fileck.h"
#include "test_util.h"

/* The debugger binary: $PTXDBG when set (a sanitizer build), else ./ptxdbg. The sessions it
 * runs check the core round trip at every stop (PTXDBG_CORE_CHECK, unless set to 0). */
static inline const char *rp_ptxdbg(void)
{
    setenv("PTXDBG_CORE_CHECK", "1", 0);
    const char *p = getenv("PTXDBG");
    return p && *p ? p : "./ptxdbg";
}

/* Run a shell command; its stdout as a malloc'd string, NULL when it cannot run. */
static inline char *rp_run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    char *buf = fileck_read_stream(p, NULL);
    pclose(p);
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
/* A transcript script as -x options: gdb ends a script at its first failing command, so a
 * transcript that shows an error goes on in a new script after it. A line "#-x" in the .cmd file
 * starts the next script; each part is written to dir/NAME.N.cmd. The options are appended to
 * opts (" -x dir/NAME.0.cmd -x dir/NAME.1.cmd ..."). 0, or -1 when a file cannot be written. */
static inline int rp_script_parts(const char *cmdfile, const char *dir, const char *name,
                                  char *opts, size_t n)
{
    char *text = tu_read_file(cmdfile, NULL);
    if (!text)
        return -1;
    int part = 0;
    FILE *f = NULL;
    opts[0] = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        int brk = len == 3 && !strncmp(line, "#-x", 3);
        if (!f || brk) {
            if (f)
                fclose(f);
            char path[1024];
            snprintf(path, sizeof path, "%s/%s.%d.cmd", dir, name, part++);
            f = fopen(path, "w");
            if (!f) {
                free(text);
                return -1;
            }
            size_t k = strlen(opts);
            snprintf(opts + k, n - k, " -x %s", path);
        }
        if (!brk)
            fprintf(f, "%.*s\n", (int)len, line);
        line = nl ? nl + 1 : NULL;
    }
    if (f)
        fclose(f);
    free(text);
    return 0;
}

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
