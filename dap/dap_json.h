/* dap_json.h - a small bounded JSON reader (value tree) and writer (string builder) for the DAP server. */
#ifndef DAP_JSON_H
#define DAP_JSON_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------------------------
 * Reader: dj_parse turns one JSON text into a tree of dj values. Everything is bounded: the text
 * (DJ_MAX_TEXT bytes), the nesting (DJ_MAX_DEPTH arrays/objects one inside another), and the number of values (at
 * most one per input byte, so memory is linear in the input). Strings are decoded to UTF-8
 * (\uXXXX escapes and surrogate pairs included) and may hold NUL bytes (len says how many).
 * An error leaves NULL and a message naming the byte offset.
 * ------------------------------------------------------------------------------------------- */
#define DJ_MAX_DEPTH 64
#define DJ_MAX_TEXT (64u << 20)

typedef enum { DJ_NULL, DJ_BOOL, DJ_NUM, DJ_STR, DJ_ARR, DJ_OBJ } dj_kind;

typedef struct dj {
    dj_kind kind;
    int b;                    /* BOOL */
    double num;               /* NUM */
    char *str;                /* STR: NUL-terminated (len bytes before it) */
    size_t len;
    int count;                /* ARR / OBJ: members */
    struct dj **items;        /* ARR / OBJ: values */
    char **keys;              /* OBJ: names */
} dj;

dj *dj_parse(const char *text, size_t len, char *err, size_t n);
void dj_free(dj *v);
/* Member of an object (the last one of that name), NULL when absent or v is not an object. */
const dj *dj_get(const dj *v, const char *key);
/* Typed member access with defaults (the default also when the member has another type). */
const char *dj_str(const dj *v, const char *key, const char *def);
double dj_num(const dj *v, const char *key, double def);
/* An integer member: 1 when present and an integer within [lo, hi] (stored in *out), 0 when
 * absent, -1 when present but not such an integer. */
int dj_int(const dj *v, const char *key, int64_t lo, int64_t hi, int64_t *out);
int dj_bool(const dj *v, const char *key, int def);
const dj *dj_at(const dj *arr, int i);

/* ---------------------------------------------------------------------------------------------
 * Writer: a growing buffer with a stack of containers that places commas. key is the member
 * name inside an object, NULL inside an array or at the top. Strings are escaped; bytes that
 * are not valid UTF-8 become U+FFFD, so the output is always valid JSON text. Out of memory
 * sets err (the text is then unusable).
 * ------------------------------------------------------------------------------------------- */
typedef struct {
    char *p;
    size_t len, cap;
    int err;
    int depth;
    unsigned char first[DJ_MAX_DEPTH + 1]; /* no member yet at this depth */
} dj_w;

void djw_init(dj_w *w);
void djw_free(dj_w *w);
void djw_obj(dj_w *w, const char *key);
void djw_obj_end(dj_w *w);
void djw_arr(dj_w *w, const char *key);
void djw_arr_end(dj_w *w);
void djw_str(dj_w *w, const char *key, const char *s);
void djw_strn(dj_w *w, const char *key, const char *s, size_t n);
void djw_int(dj_w *w, const char *key, int64_t v);
void djw_num(dj_w *w, const char *key, double v);
void djw_bool(dj_w *w, const char *key, int v);
void djw_null(dj_w *w, const char *key);
/* A parsed value written back whole. */
void djw_value(dj_w *w, const char *key, const dj *v);
/* The text so far (NUL-terminated; "" when empty or after an error). */
const char *djw_text(const dj_w *w);

#endif
