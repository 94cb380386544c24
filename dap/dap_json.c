/* dap_json.c - the DAP server's JSON reader and writer: bounded depth and size, UTF-8 checked. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_json.h"

/* ---- reader ---------------------------------------------------------------------------------- */
typedef struct {
    const char *p, *end, *start;
    char *err;
    size_t errn;
    int failed;
} dj_in;

static void fail(dj_in *in, const char *what)
{
    if (!in->failed && in->err && in->errn)
        snprintf(in->err, in->errn, "JSON: %s at byte %zu", what, (size_t)(in->p - in->start));
    in->failed = 1;
}

static void skip_ws(dj_in *in)
{
    while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' || *in->p == '\n' || *in->p == '\r'))
        in->p++;
}

void dj_free(dj *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->count; i++) {
        dj_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int hex4(dj_in *in, unsigned *out)
{
    if (in->end - in->p < 4)
        return -1;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(in->p[i]);
        if (h < 0)
            return -1;
        v = v << 4 | (unsigned)h;
    }
    in->p += 4;
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string after its opening quote; the decoded bytes are never longer than the source. */
static char *parse_string(dj_in *in, size_t *len)
{
    const char *q = in->p;
    while (q < in->end && *q != '"') /* find the end first: the output fits in q - p bytes */
        q += *q == '\\' && q + 1 < in->end ? 2 : 1;
    if (q >= in->end) {
        fail(in, "unterminated string");
        return NULL;
    }
    char *out = malloc((size_t)(q - in->p) + 1);
    if (!out) {
        fail(in, "out of memory");
        return NULL;
    }
    size_t n = 0;
    while (in->p < q) {
        unsigned char c = (unsigned char)*in->p;
        if (c < 0x20) {
            fail(in, "control character in string");
            free(out);
            return NULL;
        }
        if (c != '\\') {
            out[n++] = (char)c;
            in->p++;
            continue;
        }
        in->p++;
        char e = *in->p++;
        switch (e) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (hex4(in, &cp) != 0) {
                fail(in, "bad \\u escape");
                free(out);
                return NULL;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && q - in->p >= 6 && in->p[0] == '\\' &&
                in->p[1] == 'u') {
                const char *save = in->p;
                in->p += 2;
                if (hex4(in, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else
                    in->p = save;
            }
            if (cp >= 0xD800 && cp < 0xE000)
                cp = 0xFFFD; /* a lone surrogate */
            /* 6 source bytes (\uXXXX) give at most 3, 12 (a pair) give 4 */
            n += put_utf8(out + n, cp);
            break;
        }
        default:
            fail(in, "bad escape in string");
            free(out);
            return NULL;
        }
    }
    in->p = q + 1;
    out[n] = 0;
    *len = n;
    return out;
}

static dj *parse_value(dj_in *in, int depth);

static int add_item(dj_in *in, dj *v, dj *item, char *key)
{
    if ((v->count & (v->count - 1)) == 0) { /* grow at powers of two */
        size_t cap = v->count ? (size_t)v->count * 2 : 1;
        dj **ni = realloc(v->items, cap * sizeof *ni);
        if (ni)
            v->items = ni;
        char **nk = ni && v->kind == DJ_OBJ ? realloc(v->keys, cap * sizeof *nk) : NULL;
        if (nk)
            v->keys = nk;
        if (!ni || (v->kind == DJ_OBJ && !nk)) {
            fail(in, "out of memory");
            dj_free(item);
            free(key);
            return -1;
        }
    }
    v->items[v->count] = item;
    if (v->kind == DJ_OBJ)
        v->keys[v->count] = key;
    v->count++;
    return 0;
}

static dj *parse_container(dj_in *in, dj *v, int depth)
{
    char close = v->kind == DJ_ARR ? ']' : '}';
    skip_ws(in);
    if (in->p < in->end && *in->p == close) {
        in->p++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        if (v->kind == DJ_OBJ) {
            skip_ws(in);
            if (in->p >= in->end || *in->p != '"') {
                fail(in, "expected a member name");
                break;
            }
            in->p++;
            size_t kl;
            if (!(key = parse_string(in, &kl)))
                break;
            skip_ws(in);
            if (in->p >= in->end || *in->p != ':') {
                free(key);
                fail(in, "expected ':'");
                break;
            }
            in->p++;
        }
        dj *item = parse_value(in, depth + 1);
        if (!item) {
            free(key);
            break;
        }
        if (add_item(in, v, item, key) != 0)
            break;
        skip_ws(in);
        if (in->p < in->end && *in->p == ',') {
            in->p++;
            continue;
        }
        if (in->p < in->end && *in->p == close) {
            in->p++;
            return v;
        }
        fail(in, v->kind == DJ_ARR ? "expected ',' or ']'" : "expected ',' or '}'");
        break;
    }
    dj_free(v);
    return NULL;
}

static dj *parse_number(dj_in *in, dj *v)
{
    const char *s = in->p;
    if (in->p < in->end && *in->p == '-')
        in->p++;
    if (in->p >= in->end || *in->p < '0' || *in->p > '9')
        goto bad;
    if (*in->p == '0')
        in->p++;
    else
        while (in->p < in->end && *in->p >= '0' && *in->p <= '9')
            in->p++;
    if (in->p < in->end && *in->p == '.') {
        in->p++;
        if (in->p >= in->end || *in->p < '0' || *in->p > '9')
            goto bad;
        while (in->p < in->end && *in->p >= '0' && *in->p <= '9')
            in->p++;
    }
    if (in->p < in->end && (*in->p == 'e' || *in->p == 'E')) {
        in->p++;
        if (in->p < in->end && (*in->p == '+' || *in->p == '-'))
            in->p++;
        if (in->p >= in->end || *in->p < '0' || *in->p > '9')
            goto bad;
        while (in->p < in->end && *in->p >= '0' && *in->p <= '9')
            in->p++;
    }
    char buf[64];
    size_t n = (size_t)(in->p - s);
    if (n >= sizeof buf) { /* a long number: strtod on a bounded copy */
        char *big = strndup(s, n);
        if (!big)
            goto bad;
        v->num = strtod(big, NULL);
        free(big);
    } else {
        memcpy(buf, s, n);
        buf[n] = 0;
        v->num = strtod(buf, NULL);
    }
    v->kind = DJ_NUM;
    return v;
bad:
    fail(in, "bad number");
    dj_free(v);
    return NULL;
}

static int word(dj_in *in, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(in->end - in->p) >= n && !memcmp(in->p, w, n)) {
        in->p += n;
        return 1;
    }
    return 0;
}

static dj *parse_value(dj_in *in, int depth)
{
    skip_ws(in);
    if (depth >= DJ_MAX_DEPTH && in->p < in->end && (*in->p == '[' || *in->p == '{')) {
        fail(in, "nesting too deep"); /* at most DJ_MAX_DEPTH arrays and objects inside another */
        return NULL;
    }
    if (in->p >= in->end) {
        fail(in, "unexpected end of text");
        return NULL;
    }
    dj *v = calloc(1, sizeof *v);
    if (!v) {
        fail(in, "out of memory");
        return NULL;
    }
    char c = *in->p;
    if (c == '{' || c == '[') {
        in->p++;
        v->kind = c == '{' ? DJ_OBJ : DJ_ARR;
        return parse_container(in, v, depth);
    }
    if (c == '"') {
        in->p++;
        v->kind = DJ_STR;
        if (!(v->str = parse_string(in, &v->len))) {
            free(v);
            return NULL;
        }
        return v;
    }
    if (word(in, "true") || word(in, "false")) {
        v->kind = DJ_BOOL;
        v->b = in->p[-1] == 'e' && in->p[-2] == 'u';
        return v;
    }
    if (word(in, "null")) {
        v->kind = DJ_NULL;
        return v;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        return parse_number(in, v);
    free(v);
    fail(in, "unexpected character");
    return NULL;
}

dj *dj_parse(const char *text, size_t len, char *err, size_t n)
{
    dj_in in = {text, text + len, text, err, n, 0};
    if (err && n)
        err[0] = 0;
    if (len > DJ_MAX_TEXT) {
        fail(&in, "text too long");
        return NULL;
    }
    dj *v = parse_value(&in, 0);
    if (!v)
        return NULL;
    skip_ws(&in);
    if (in.p != in.end) {
        fail(&in, "text after the value");
        dj_free(v);
        return NULL;
    }
    return v;
}

const dj *dj_get(const dj *v, const char *key)
{
    if (!v || v->kind != DJ_OBJ)
        return NULL;
    for (int i = v->count - 1; i >= 0; i--)
        if (!strcmp(v->keys[i], key))
            return v->items[i];
    return NULL;
}

const dj *dj_at(const dj *arr, int i)
{
    return arr && arr->kind == DJ_ARR && i >= 0 && i < arr->count ? arr->items[i] : NULL;
}

const char *dj_str(const dj *v, const char *key, const char *def)
{
    const dj *m = dj_get(v, key);
    return m && m->kind == DJ_STR ? m->str : def;
}

double dj_num(const dj *v, const char *key, double def)
{
    const dj *m = dj_get(v, key);
    return m && m->kind == DJ_NUM ? m->num : def;
}

int dj_int(const dj *v, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    const dj *m = dj_get(v, key);
    if (!m)
        return 0;
    if (m->kind != DJ_NUM || m->num != floor(m->num) || m->num < (double)lo || m->num > (double)hi)
        return -1;
    *out = (int64_t)m->num;
    return 1;
}

int dj_bool(const dj *v, const char *key, int def)
{
    const dj *m = dj_get(v, key);
    return m && m->kind == DJ_BOOL ? m->b : def;
}

/* ---- writer ---------------------------------------------------------------------------------- */
void djw_init(dj_w *w)
{
    memset(w, 0, sizeof *w);
    w->first[0] = 1;
}

void djw_free(dj_w *w)
{
    free(w->p);
    memset(w, 0, sizeof *w);
}

static void put(dj_w *w, const char *s, size_t n)
{
    if (w->err)
        return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + n + 1)
            cap *= 2;
        char *np = realloc(w->p, cap);
        if (!np) {
            w->err = 1;
            return;
        }
        w->p = np;
        w->cap = cap;
    }
    memcpy(w->p + w->len, s, n);
    w->len += n;
    w->p[w->len] = 0;
}

static void puts_(dj_w *w, const char *s) { put(w, s, strlen(s)); }

/* Length of the valid UTF-8 sequence at s (1..4), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t need = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                  : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (!need || need > n)
        return 0;
    unsigned cp = need == 1 ? c : need == 2 ? c & 0x1F : need == 3 ? c & 0x0F : c & 0x07;
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
        return 0; /* overlong, out of range, or a surrogate */
    return need;
}

static void put_escaped(dj_w *w, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    put(w, "\"", 1);
    size_t i = 0;
    while (i < n) {
        size_t run = i; /* copy plain runs at once */
        while (run < n && u[run] >= 0x20 && u[run] < 0x80 && u[run] != '"' && u[run] != '\\')
            run++;
        if (run > i) {
            put(w, s + i, run - i);
            i = run;
            continue;
        }
        unsigned c = u[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(w, esc, 2);
            i++;
        } else if (c < 0x20) {
            const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                                : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
            if (named)
                puts_(w, named);
            else {
                snprintf(esc, sizeof esc, "\\u%04x", c);
                puts_(w, esc);
            }
            i++;
        } else {
            size_t l = utf8_len(u + i, n - i);
            if (l) {
                put(w, s + i, l);
                i += l;
            } else {
                puts_(w, "\xEF\xBF\xBD"); /* U+FFFD for a byte that is not UTF-8 */
                i++;
            }
        }
    }
    put(w, "\"", 1);
}

/* The comma and the key before a value. */
static void member(dj_w *w, const char *key)
{
    if (!w->first[w->depth])
        put(w, ",", 1);
    w->first[w->depth] = 0;
    if (key) {
        put_escaped(w, key, strlen(key));
        put(w, ":", 1);
    }
}

static void open_(dj_w *w, const char *key, const char *c)
{
    member(w, key);
    put(w, c, 1);
    if (w->depth >= DJ_MAX_DEPTH) {
        w->err = 1;
        return;
    }
    w->first[++w->depth] = 1;
}

static void close_(dj_w *w, const char *c)
{
    put(w, c, 1);
    if (w->depth > 0)
        w->depth--;
}

void djw_obj(dj_w *w, const char *key) { open_(w, key, "{"); }
void djw_obj_end(dj_w *w) { close_(w, "}"); }
void djw_arr(dj_w *w, const char *key) { open_(w, key, "["); }
void djw_arr_end(dj_w *w) { close_(w, "]"); }

void djw_strn(dj_w *w, const char *key, const char *s, size_t n)
{
    member(w, key);
    put_escaped(w, s ? s : "", s ? n : 0);
}

void djw_str(dj_w *w, const char *key, const char *s) { djw_strn(w, key, s, s ? strlen(s) : 0); }

void djw_int(dj_w *w, const char *key, int64_t v)
{
    char b[32];
    member(w, key);
    snprintf(b, sizeof b, "%lld", (long long)v);
    puts_(w, b);
}

void djw_num(dj_w *w, const char *key, double v)
{
    char b[40];
    member(w, key);
    if (!isfinite(v)) /* JSON has no NaN or infinity */
        snprintf(b, sizeof b, "null");
    else if (v == floor(v) && fabs(v) < 9007199254740992.0)
        snprintf(b, sizeof b, "%lld", (long long)v);
    else
        snprintf(b, sizeof b, "%.17g", v);
    puts_(w, b);
}

void djw_bool(dj_w *w, const char *key, int v)
{
    member(w, key);
    puts_(w, v ? "true" : "false");
}

void djw_null(dj_w *w, const char *key)
{
    member(w, key);
    puts_(w, "null");
}

void djw_value(dj_w *w, const char *key, const dj *v)
{
    if (!v) {
        djw_null(w, key);
        return;
    }
    switch (v->kind) {
    case DJ_NULL: djw_null(w, key); break;
    case DJ_BOOL: djw_bool(w, key, v->b); break;
    case DJ_NUM: djw_num(w, key, v->num); break;
    case DJ_STR: djw_strn(w, key, v->str, v->len); break;
    case DJ_ARR:
    case DJ_OBJ:
        if (v->kind == DJ_ARR)
            djw_arr(w, key);
        else
            djw_obj(w, key);
        for (int i = 0; i < v->count; i++)
            djw_value(w, v->kind == DJ_OBJ ? v->keys[i] : NULL, v->items[i]);
        if (v->kind == DJ_ARR)
            djw_arr_end(w);
        else
            djw_obj_end(w);
        break;
    }
}

const char *djw_text(const dj_w *w) { return w->p && !w->err ? w->p : ""; }
