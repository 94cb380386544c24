/* dap_console.c - the DAP debug console: evaluate (expressions, and ptxdbg commands in the repl), completions, source. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"

/* ---- evaluate -------------------------------------------------------------------------------- */
static int bare_identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return 0;
    while (isalnum((unsigned char)*s) || *s == '_')
        s++;
    return *s == 0;
}

/* The debug console: any ptxdbg command, its text as the result. */
static void repl_command(dap_srv *d, const dj *req, const char *line, const dap_lref *sel)
{
    /* the command applies to the frame the editor has selected, as cuda-gdb's to its focus */
    const dbg_focus *cur = dbg_get_focus(d->s);
    if (sel && d->stopped && (!cur->valid || cur->cta != sel->cta || cur->warp != sel->warp ||
                              cur->lane != sel->lane || cur->frame != sel->frame) &&
        dbg_set_focus(d->s, sel->cta, sel->warp, sel->lane) == 0)
        dbg_set_frame(d->s, sel->frame);
    dap_cmd_state cs;
    dap_before_command(d, line, &cs);
    int saved[2];
    dap_capture_begin(d, saved);
    int rc = dapv_command(d->v, line);
    char *text = dap_capture_end(d, saved);
    size_t n = text ? strlen(text) : 0;
    while (n && text[n - 1] == '\n')
        text[--n] = 0;
    if (rc != 0) {
        dap_respond_err(d, req, "%s", text && *text ? text : "The command failed.");
    } else {
        dj_w w;
        dap_begin_response(d, &w, req, 1, NULL);
        djw_obj(&w, "body");
        djw_str(&w, "result", text ? text : "");
        djw_int(&w, "variablesReference", 0);
        djw_obj_end(&w);
        dap_send(d, &w);
    }
    free(text);
    dap_after_command(d, &cs);
}

void dap_evaluate(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const char *expr = dj_str(a, "expression", NULL);
    const char *ctx = dj_str(a, "context", "watch");
    if (!expr) {
        dap_respond_err(d, req, "evaluate: expression is required.");
        return;
    }
    while (isspace((unsigned char)*expr))
        expr++;
    dap_lref r;
    int g = dap_get_frame(d, req, "evaluate", &r);
    if (g < 0)
        return;
    if (g == 2)
        memset(&r, 0, sizeof r); /* no kernel: buffers, globals and history still evaluate */
    if (!strcmp(ctx, "repl")) {
        const dap_lref *sel = g == 1 ? &r : NULL;
        if (!strncmp(expr, "-exec ", 6)) {
            repl_command(d, req, expr + 6, sel);
            return;
        }
        char word[64];
        size_t k = strcspn(expr, " \t/");
        snprintf(word, sizeof word, "%.*s", (int)(k < sizeof word ? k : sizeof word - 1), expr);
        int is_cmd = *expr && dapv_is_command(word);
        if (is_cmd && bare_identifier(expr)) { /* `i` may be a variable as well as `info` */
            dapv_val v;
            char err[256];
            if (dapv_eval(d->v, &r, expr, 0, &v, err, sizeof err) == 0) {
                dapv_val_free(&v);
                is_cmd = 0;
            }
        }
        if (is_cmd || !*expr) {
            repl_command(d, req, expr, sel);
            return;
        }
    }
    dapv_val v;
    char err[1024];
    if (dapv_eval(d->v, &r, expr, dap_want_hex(a), &v, err, sizeof err) != 0) {
        dap_respond_err(d, req, "%s", err);
        return;
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_str(&w, "result", v.text);
    if (v.type[0])
        djw_str(&w, "type", v.type);
    int64_t ref = v.nchildren > 0 && d->stopped ? dap_new_var(d, DAP_VR_EXPR, &r, expr, v.nchildren)
                                                : 0;
    djw_int(&w, "variablesReference", ref);
    if (v.kind == DAPV_ARRAY)
        djw_int(&w, "indexedVariables", v.nchildren);
    char mr[64];
    if (v.is_ptr && v.paddr) {
        dap_memref(mr, sizeof mr, v.pspace, v.paddr);
        djw_str(&w, "memoryReference", mr);
    } else if (v.in_mem) {
        dap_memref(mr, sizeof mr, v.space, v.addr);
        djw_str(&w, "memoryReference", mr);
    }
    djw_obj_end(&w);
    dap_send(d, &w);
    dapv_val_free(&v);
}

/* The debug console's completion: commands, their arguments, variables and members. */
void dap_completions(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const char *text = dj_str(a, "text", NULL);
    int64_t col, line = 1;
    if (!text || dj_int(a, "column", INT32_MIN, INT32_MAX, &col) != 1 ||
        dj_int(a, "line", INT32_MIN, INT32_MAX, &line) < 0) {
        dap_respond_err(d, req, "completions: text and column are required.");
        return;
    }
    /* the cursor: column in the line'th line of text (UTF-16 units; the commands are ASCII) */
    const char *ln = text;
    for (int64_t l = 1 + d->lines0; l < line && strchr(ln, '\n'); l++)
        ln = strchr(ln, '\n') + 1;
    size_t len = strcspn(ln, "\n");
    int64_t point = col - (d->cols0 ? 0 : 1);
    if (point < 0 || (size_t)point > len) {
        dap_respond_err(d, req, "completions: column %lld is outside the text.", (long long)col);
        return;
    }
    dap_lref r; /* a frameId must be known; names complete in the focus's scope */
    if (dap_get_frame(d, req, "completions", &r) < 0)
        return;
    char *one = strndup(ln, len);
    int start = 0;
    char **cands = NULL;
    int n = one ? dapv_complete(d->v, one, (int)point, &start, &cands) : -1;
    free(one);
    if (n < 0) {
        dap_respond_err(d, req, "completions: out of memory.");
        return;
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "targets");
    for (int i = 0; i < n && i < 1000; i++) {
        djw_obj(&w, NULL);
        djw_str(&w, "label", cands[i]);
        djw_int(&w, "start", start + (d->cols0 ? 0 : 1));
        djw_int(&w, "length", point - start);
        djw_obj_end(&w);
    }
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
    dapv_complete_free(cands);
}

/* The text of a source the client names by path (frames always give paths; a client may still
 * ask). */
void dap_source(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const char *path = dj_str(dj_get(a, "source"), "path", NULL);
    int64_t ref = 0;
    if (dj_int(a, "sourceReference", INT32_MIN, INT32_MAX, &ref) < 0 ||
        dj_int(dj_get(a, "source"), "sourceReference", INT32_MIN, INT32_MAX, &ref) < 0) {
        dap_respond_err(d, req, "source: sourceReference is an integer.");
        return;
    }
    if (ref > 0 || !path || !*path) {
        dap_respond_err(d, req, "source: ptxdbg names sources by path (no source reference %lld).",
                        (long long)ref);
        return;
    }
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0;
    if (f) {
        buf = malloc(16u << 20);
        n = buf ? fread(buf, 1, 16u << 20, f) : 0;
        fclose(f);
    }
    if (!buf) {
        dap_respond_err(d, req, "source: cannot read %s.", path);
        return;
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_strn(&w, "content", buf, n);
    djw_obj_end(&w);
    dap_send(d, &w);
    free(buf);
}
