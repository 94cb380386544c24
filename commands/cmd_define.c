/* cmd_define.c - gdb's user-defined commands and control flow: define, document, if/else, while, loop_break, loop_continue. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"

/* ---------------------------------------------------------------------------------------------
 * As gdb documents them (Sequences > Define, Command Files):
 *   define NAME ... end       a user command; its body's $argc and $arg0, $arg1, ... are the
 *                             number and the text of the arguments it is called with
 *                             (whitespace-separated; quotes and brackets keep an argument
 *                             whole). A missing $argN is an error when its line runs.
 *   document NAME ... end     its `help` text
 *   if EXPR ... [else ...] end, while EXPR ... end, loop_break, loop_continue
 * Bodies nest (a `while` inside an `if` inside a `define`), each block closed by its own `end`.
 * A structure is read whole, then runs as frames of the command feed (cmd_feed.c): the branch
 * of an `if`, a `while` loop (the condition tested before every pass), a user command's body
 * with its arguments, so they run at a program's stops like any script, and an error ends
 * them and the scripts that called them. Ctrl-C ends a loop. Hooks (hook-NAME, hookpost-NAME)
 * are refused: ptxdbg does not run them.
 * ------------------------------------------------------------------------------------------- */

struct cmd_user {
    char *name;
    char **lines;
    int n;
    char *doc;
};

static const char *skip_ws(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* The first word of a line (letters, digits, _ and -). */
static size_t first_word(const char *p, char *w, size_t n)
{
    size_t k = 0;
    while ((isalnum((unsigned char)p[k]) || p[k] == '_' || p[k] == '-') && k + 1 < n) {
        w[k] = p[k];
        k++;
    }
    w[k] = 0;
    return k;
}

static int opens_block(const char *word)
{
    static const char *const openers[] = {"while", "if", "commands", "define", "document",
                                          NULL};
    for (int i = 0; openers[i]; i++)
        if (!strcmp(word, openers[i]))
            return 1;
    return 0;
}

static void free_lines(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

int cmd_read_block(cmd_ctx *c, char ***out, int *nout, int *else_at)
{
    char **lines = NULL;
    int n = 0, depth = 0, ended = 0;
    if (else_at)
        *else_at = -1;
    while (c->in) {
        char *line = c->in->next(c->in, ">");
        if (!line)
            break;
        const char *p = skip_ws(line);
        size_t l = strlen(p);
        while (l && isspace((unsigned char)p[l - 1]))
            l--;
        char word[32];
        first_word(p, word, sizeof word);
        int is_end = l == 3 && !strncmp(p, "end", 3);
        if (is_end && depth == 0) {
            free(line);
            ended = 1;
            break;
        }
        if (is_end)
            depth--;
        else if (opens_block(word))
            depth++;
        if (else_at && depth == 0 && l == 4 && !strncmp(p, "else", 4)) {
            if (*else_at >= 0) {
                free(line);
                free_lines(lines, n);
                return cmd_error(c, "Only one \"else\" is allowed in an \"if\".");
            }
            *else_at = n;
        }
        char **nl = realloc(lines, sizeof *nl * (size_t)(n + 1));
        char *copy = strndup(p, l);
        free(line);
        if (!nl || !copy) {
            free(copy);
            free_lines(nl ? nl : lines, n);
            return cmd_error(c, "Out of memory.");
        }
        lines = nl;
        lines[n++] = copy;
    }
    if (!ended) {
        free_lines(lines, n);
        return cmd_error(c, "The input ended before \"end\".");
    }
    *out = lines;
    *nout = n;
    return 0;
}

/* Lines [lo, hi) joined with newlines (malloc'd). */
static char *join(char **lines, int lo, int hi, size_t *len)
{
    size_t n = 0;
    for (int i = lo; i < hi; i++)
        n += strlen(lines[i]) + 1;
    char *t = malloc(n + 1), *p = t;
    if (!t)
        return NULL;
    for (int i = lo; i < hi; i++) {
        size_t k = strlen(lines[i]);
        memcpy(p, lines[i], k);
        p += k;
        *p++ = '\n';
    }
    *p = 0;
    *len = n;
    return t;
}

/* The arguments of the user command whose body the feed runs (frames inherit them). */
static const char *current_args(cmd_ctx *c)
{
    for (int i = c->nframes - 1; i >= 0; i--)
        if (c->frames[i].args)
            return c->frames[i].args;
    return NULL;
}

/* Push lines [lo, hi) as a nested frame that runs next (an `if` branch, a loop, a body). */
static int push_lines(cmd_ctx *c, int kind, int flags, const char *name, const char *cond,
                      char **lines, int lo, int hi, const char *args)
{
    size_t len;
    char *text = join(lines, lo, hi, &len);
    if (!text)
        return cmd_error(c, "Out of memory.");
    int rc = cmd_feed_push(c, kind, CMD_FF_NEST | flags, name, cond, text, len);
    free(text);
    if (rc == 0 && args && !(c->frames[c->nframes - 1].args = strdup(args)))
        return cmd_error(c, "Out of memory.");
    return rc;
}

/* ---- $argc / $argN --------------------------------------------------------------------------- */
/* args: "COUNT\nARG0\nARG1...". The line with $argc and $argN replaced; NULL with err set when
 * it names an argument that was not given. */
char *cmd_user_subst(const char *line, const char *args, char *err, size_t en)
{
    long count = strtol(args, NULL, 10);
    const char *vals = strchr(args, '\n');
    size_t cap = strlen(line) + strlen(args) * 4 + 64, k = 0;
    char *out = malloc(cap);
    if (!out) {
        snprintf(err, en, "Out of memory.");
        return NULL;
    }
    for (const char *p = line; *p;) {
        const char *q = p + 4;
        if (strncmp(p, "$arg", 4) != 0) {
            out[k++] = *p++;
            continue;
        }
        const char *val = NULL;
        size_t vl = 0;
        char num[24];
        if (*q == 'c' && !(isalnum((unsigned char)q[1]) || q[1] == '_')) {
            vl = (size_t)snprintf(num, sizeof num, "%ld", count);
            val = num;
            q++;
        } else if (isdigit((unsigned char)*q)) {
            char *e;
            long i = strtol(q, &e, 10);
            if (isalnum((unsigned char)*e) || *e == '_') {
                out[k++] = *p++;
                continue;
            }
            if (i >= count) {
                free(out);
                snprintf(err, en, "Missing argument %ld in user function.", i);
                return NULL;
            }
            const char *v = vals ? vals + 1 : "";
            for (long j = 0; j < i && v; j++) {
                v = strchr(v, '\n');
                v = v ? v + 1 : NULL;
            }
            val = v ? v : "";
            vl = strcspn(val, "\n");
            q = e;
        } else {
            out[k++] = *p++;
            continue;
        }
        if (k + vl + strlen(q) + 1 > cap) {
            cap = (k + vl + strlen(q)) * 2 + 64;
            char *no = realloc(out, cap);
            if (!no) {
                free(out);
                snprintf(err, en, "Out of memory.");
                return NULL;
            }
            out = no;
        }
        memcpy(out + k, val, vl);
        k += vl;
        p = q;
    }
    out[k] = 0;
    return out;
}

/* Split a user command's argument text: whitespace separates; quotes and brackets keep an
 * argument whole (they stay in it, as gdb passes them). "COUNT\nARG0\n..." (malloc'd). */
static char *split_args(const char *text)
{
    size_t cap = strlen(text) + 32, k = 0;
    char *out = malloc(cap), *vals = malloc(cap);
    if (!out || !vals) {
        free(out);
        free(vals);
        return NULL;
    }
    int count = 0;
    const char *p = skip_ws(text);
    while (*p) {
        int depth = 0;
        char quote = 0;
        const char *s = p;
        for (; *p; p++) {
            if (quote) {
                if (*p == '\\' && p[1])
                    p++;
                else if (*p == quote)
                    quote = 0;
            } else if (*p == '"' || *p == '\'') {
                quote = *p;
            } else if (*p == '(' || *p == '[' || *p == '{') {
                depth++;
            } else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0) {
                depth--;
            } else if (isspace((unsigned char)*p) && depth == 0) {
                break;
            }
        }
        memcpy(vals + k, s, (size_t)(p - s));
        k += (size_t)(p - s);
        vals[k++] = '\n';
        count++;
        p = skip_ws(p);
    }
    vals[k] = 0;
    snprintf(out, cap, "%d\n%s", count, vals);
    free(vals);
    return out;
}

/* ---- the table of user commands -------------------------------------------------------------- */
const cmd_user *cmd_user_find(const cmd_ctx *c, const char *name)
{
    for (int i = 0; i < c->nusers; i++)
        if (!strcmp(c->users[i].name, name))
            return &c->users[i];
    return NULL;
}

/* A user command by unique prefix (after the built-ins found nothing); NULL + err when
 * ambiguous. */
const cmd_user *cmd_user_lookup(const cmd_ctx *c, const char *word, char *err, size_t n)
{
    const cmd_user *u = cmd_user_find(c, word);
    if (u)
        return u;
    size_t l = strlen(word);
    int found = 0;
    for (int i = 0; i < c->nusers; i++)
        if (l && !strncmp(c->users[i].name, word, l)) {
            u = &c->users[i];
            found++;
        }
    if (found > 1) {
        if (err && n)
            snprintf(err, n, "Ambiguous command \"%s\".", word);
        return NULL;
    }
    return u;
}

void cmd_users_free(cmd_ctx *c)
{
    for (int i = 0; i < c->nusers; i++) {
        free(c->users[i].name);
        free_lines(c->users[i].lines, c->users[i].n);
        free(c->users[i].doc);
    }
    free(c->users);
    c->users = NULL;
    c->nusers = 0;
}

int cmd_user_run(cmd_ctx *c, const cmd_user *u, const char *args)
{
    char *a = split_args(args ? args : "");
    if (!a)
        return cmd_error(c, "Out of memory.");
    int rc = push_lines(c, CMD_FR_TEXT, CMD_FF_USER, u->name, NULL, u->lines, 0, u->n, a);
    free(a);
    return rc;
}

void cmd_user_describe(const cmd_user *u, FILE *out, int whole)
{
    if (!whole) {
        const char *d = u->doc ? u->doc : "User-defined.";
        fprintf(out, "%s -- %.*s\n", u->name, (int)strcspn(d, "\n"), d);
        return;
    }
    fprintf(out, "%s\n", u->doc ? u->doc : "User-defined.");
}

int cmd_user_log(const cmd_ctx *c, const char *name, int doc, char **text, size_t *len)
{
    const cmd_user *u = cmd_user_find(c, name);
    if (!u)
        return -1;
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m)
        return -1;
    if (doc) {
        fprintf(m, "document %s\n%s%send\n", u->name, u->doc ? u->doc : "",
                u->doc && *u->doc ? "\n" : "");
    } else {
        fprintf(m, "define %s\n", u->name);
        for (int i = 0; i < u->n; i++)
            fprintf(m, "%s\n", u->lines[i]);
        fprintf(m, "end\n");
    }
    if (fclose(m) != 0) {
        free(buf);
        return -1;
    }
    *text = buf;
    *len = n;
    return 0;
}

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
            return 0;
    return 1;
}

int cmd_define(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    const char *name = argv[0];
    if (!valid_name(name))
        return cmd_error(c, "Invalid command name \"%s\".", name);
    if (!strncmp(name, "hook-", 5) || !strncmp(name, "hookpost-", 9))
        return cmd_error(c, "Hooks (define hook-COMMAND, hookpost-COMMAND) are not supported "
                            "by ptxdbg.");
    if (cmd_is_builtin(name))
        return cmd_error(c, "\"%s\" is a built-in command; it cannot be redefined.", name);
    const cmd_user *old = cmd_user_find(c, name);
    if (old && c->interactive) {
        char q[300];
        snprintf(q, sizeof q, "Redefine command \"%s\"?", name);
        if (!cmd_confirm(c, q))
            return cmd_error(c, "Command \"%s\" not redefined.", name);
    }
    if (c->interactive)
        printf("Type commands for definition of \"%s\".\nEnd with a line saying just "
               "\"end\".\n", name);
    char **lines;
    int n;
    if (cmd_read_block(c, &lines, &n, NULL) != 0)
        return -1;
    cmd_user *u = (cmd_user *)cmd_user_find(c, name);
    if (!u) {
        cmd_user *nu = realloc(c->users, sizeof *nu * (size_t)(c->nusers + 1));
        char *nm = strdup(name);
        if (!nu || !nm) {
            free(nm);
            if (nu)
                c->users = nu;
            free_lines(lines, n);
            return cmd_error(c, "Out of memory.");
        }
        c->users = nu;
        u = &c->users[c->nusers++];
        memset(u, 0, sizeof *u);
        u->name = nm;
    } else {
        free_lines(u->lines, u->n);
    }
    u->lines = lines;
    u->n = n;
    return 0;
}

int cmd_document(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    const char *name = argv[0];
    cmd_user *u = (cmd_user *)cmd_user_find(c, name);
    if (!u) {
        if (cmd_lookup(cmd_table, name, NULL, 0))
            return cmd_error(c, "Command \"%s\" is built-in.", name);
        return cmd_error(c, "Undefined command: \"%s\".", name);
    }
    if (c->interactive)
        printf("Type documentation for \"%s\".\nEnd with a line saying just \"end\".\n", name);
    char **lines;
    int n;
    if (cmd_read_block(c, &lines, &n, NULL) != 0)
        return -1;
    size_t len;
    char *doc = join(lines, 0, n, &len);
    free_lines(lines, n);
    if (!doc)
        return cmd_error(c, "Out of memory.");
    if (len && doc[len - 1] == '\n')
        doc[len - 1] = 0;
    free(u->doc);
    u->doc = doc;
    return 0;
}

/* if EXPR / while EXPR: the expression, which gdb requires */
static const char *cond_of(cmd_ctx *c, const char *args)
{
    const char *p = skip_ws(args);
    if (!*p) {
        cmd_error(c, "if/while commands require arguments.");
        return NULL;
    }
    return p;
}

int cmd_if(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const char *cond = cond_of(c, args);
    if (!cond)
        return -1;
    char **lines;
    int n, else_at;
    if (cmd_read_block(c, &lines, &n, &else_at) != 0)
        return -1;
    dbg_value v;
    char err[512];
    int rc;
    if (dbg_eval_focus(c->s, cond, &v, err, sizeof err) != 0) {
        rc = cmd_error(c, "%s", err);
    } else {
        int yes = dbg_value_true(&v);
        int lo = yes ? 0 : else_at + 1, hi = yes ? (else_at >= 0 ? else_at : n) : n;
        rc = (!yes && else_at < 0) || lo >= hi
                 ? 0
                 : push_lines(c, CMD_FR_TEXT, 0, "if", NULL, lines, lo, hi, current_args(c));
    }
    free_lines(lines, n);
    return rc;
}

int cmd_while(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const char *cond = cond_of(c, args);
    if (!cond)
        return -1;
    char **lines;
    int n;
    if (cmd_read_block(c, &lines, &n, NULL) != 0)
        return -1;
    int rc = push_lines(c, CMD_FR_LOOP, 0, "while", cond, lines, 0, n, current_args(c));
    free_lines(lines, n);
    return rc;
}

int cmd_loop_break(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    return cmd_feed_loop_control(c, 1);
}

int cmd_loop_continue(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    return cmd_feed_loop_control(c, 0);
}

int cmd_block_end(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    return cmd_error(c, "This command cannot be used at the top level.");
}

int cmd_help_user(cmd_ctx *c)
{
    cmd_ui_textf(c,
        "User-defined commands.\nThe commands in this class are those defined by the user.\n"
           "Use the \"define\" command to define a command.\n\nList of commands:\n\n");
    for (int i = 0; i < c->nusers; i++)
        cmd_user_show(c, &c->users[i], 0);
    return 0;
}

void cmd_user_show(cmd_ctx *c, const cmd_user *u, int full)
{
    char *b = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&b, &n);
    if (!m)
        return;
    cmd_user_describe(u, m, full);
    fclose(m);
    if (b)
        cmd_ui_text(c, b);   /* through the model */
    free(b);
}
