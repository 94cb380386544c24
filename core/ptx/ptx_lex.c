/* ptx_lex.c - the PTX lexer: identifiers, directives, numbers, strings, punctuation, comments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_lex.h"

void ptx_lex_init(ptx_lexer *lx, const char *text, size_t len)
{
    lx->text = lx->p = lx->line_start = text;
    lx->end = text + len;
    lx->line = 1;
    lx->errmsg = NULL;
}

static int is_ident_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int lex_error(ptx_lexer *lx, ptx_token *t, const char *msg)
{
    t->kind = PTX_TK_ERROR;
    t->msg = msg;
    lx->errmsg = msg;
    return 0;
}

/* Skip blanks, newlines and comments; returns -1 on an unterminated comment (t filled). */
static int skip_space(ptx_lexer *lx, ptx_token *t)
{
    const char *p = lx->p, *end = lx->end;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            p++;
            lx->line++;
            lx->line_start = p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
        } else if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (c == '/' && p + 1 < end && p[1] == '*') {
            int line = lx->line, col = (int)(p - lx->line_start) + 1;
            p += 2;
            for (;;) {
                if (p + 1 >= end) {
                    lx->p = end;
                    t->line = line;
                    t->col = col;
                    return lex_error(lx, t, "unterminated comment"), -1;
                }
                if (p[0] == '*' && p[1] == '/') {
                    p += 2;
                    break;
                }
                if (*p == '\n') {
                    lx->line++;
                    lx->line_start = p + 1;
                }
                p++;
            }
        } else {
            break;
        }
    }
    lx->p = p;
    return 0;
}

/* number: 0fHHHHHHHH | 0dHHHHHHHHHHHHHHHH | 0x.. | 0b.. | 0octal | decimal | decimal float,
 * with an optional U suffix on integers. */
static void lex_number(ptx_lexer *lx, ptx_token *t)
{
    const char *p = lx->p, *end = lx->end;
    if (p + 1 < end && p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        int nd = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
        const char *q = p + 2;
        uint64_t bits = 0;
        int i;
        for (i = 0; i < nd && q < end && hexval(*q) >= 0; i++, q++)
            bits = bits << 4 | (uint64_t)hexval(*q);
        if (i != nd || (q < end && is_ident_char(*q))) {
            lx->p = q;
            lex_error(lx, t, nd == 8 ? "malformed float literal (0f needs 8 hex digits)"
                                     : "malformed double literal (0d needs 16 hex digits)");
            return;
        }
        t->kind = PTX_TK_FLOAT;
        t->fsize = nd == 8 ? 32 : 64;
        t->fbits = bits;
        if (nd == 8) {
            uint32_t b = (uint32_t)bits;
            float f;
            memcpy(&f, &b, 4);
            t->fval = f;
        } else {
            memcpy(&t->fval, &bits, 8);
        }
        lx->p = q;
        return;
    }
    uint64_t v = 0;
    int overflow = 0;
    const char *q = p;
    if (p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        q = p + 2;
        if (q >= end || hexval(*q) < 0) {
            lx->p = q;
            lex_error(lx, t, "malformed hexadecimal literal");
            return;
        }
        for (; q < end && hexval(*q) >= 0; q++) {
            if (v >> 60) overflow = 1;
            v = v << 4 | (uint64_t)hexval(*q);
        }
    } else if (p + 1 < end && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
        q = p + 2;
        if (q >= end || (*q != '0' && *q != '1')) {
            lx->p = q;
            lex_error(lx, t, "malformed binary literal");
            return;
        }
        for (; q < end && (*q == '0' || *q == '1'); q++) {
            if (v >> 63) overflow = 1;
            v = v << 1 | (uint64_t)(*q - '0');
        }
    } else {
        const char *d = p;
        while (d < end && is_digit(*d))
            d++;
        /* decimal float: digits '.' digits [exp] | digits exp */
        int isfloat = 0;
        const char *f = d;
        if (f < end && *f == '.' && f + 1 < end && is_digit(f[1])) {
            isfloat = 1;
            f++;
            while (f < end && is_digit(*f))
                f++;
        } else if (f < end && *f == '.' && !(f + 1 < end && is_ident_char(f[1]))) {
            isfloat = 1; /* "1." */
            f++;
        }
        if (f < end && (*f == 'e' || *f == 'E')) {
            const char *e = f + 1;
            if (e < end && (*e == '+' || *e == '-'))
                e++;
            if (e < end && is_digit(*e)) {
                isfloat = 1;
                while (e < end && is_digit(*e))
                    e++;
                f = e;
            }
        }
        if (isfloat) {
            char buf[128];
            size_t n = (size_t)(f - p);
            if (n >= sizeof buf) {
                lx->p = f;
                lex_error(lx, t, "float literal too long");
                return;
            }
            memcpy(buf, p, n);
            buf[n] = 0;
            t->kind = PTX_TK_FLOAT;
            t->fval = strtod(buf, NULL);
            t->fsize = 64;
            memcpy(&t->fbits, &t->fval, 8);
            lx->p = f;
            if (f < end && is_ident_char(*f)) {
                lex_error(lx, t, "malformed float literal");
                lx->p = f;
            }
            return;
        }
        int octal = p[0] == '0';
        for (q = p; q < end && is_digit(*q); q++) {
            int dg = *q - '0';
            if (octal) {
                if (dg > 7) {
                    lx->p = q;
                    lex_error(lx, t, "invalid digit in octal literal");
                    return;
                }
                if (v >> 61) overflow = 1;
                v = v << 3 | (uint64_t)dg;
            } else {
                if (v > (UINT64_MAX - (uint64_t)dg) / 10) overflow = 1;
                v = v * 10 + (uint64_t)dg;
            }
        }
    }
    t->kind = PTX_TK_INT;
    t->ival = v;
    t->is_unsigned = 0;
    if (q < end && *q == 'U') {
        t->is_unsigned = 1;
        q++;
    }
    lx->p = q;
    if (q < end && is_ident_char(*q)) {
        lex_error(lx, t, "malformed number");
        return;
    }
    if (overflow)
        lex_error(lx, t, "integer literal too large");
}

void ptx_lex_next(ptx_lexer *lx, ptx_token *t)
{
    const char *before = lx->p;
    memset(t, 0, sizeof *t);
    if (skip_space(lx, t) < 0)
        return;
    t->ws_before = lx->p != before;
    const char *p = lx->p, *end = lx->end;
    t->p = p;
    t->line = lx->line;
    t->col = (int)(p - lx->line_start) + 1;
    if (p >= end) {
        t->kind = PTX_TK_EOF;
        return;
    }
    char c = *p;
    if (is_ident_char(c) && !is_digit(c)) {
        while (p < end && is_ident_char(*p))
            p++;
        t->kind = PTX_TK_IDENT;
        if (p - t->p == 7 && !memcmp(t->p, "WARP_SZ", 7)) {
            /* the predefined identifier WARP_SZ (CUDA's warpSize): the constant 32 */
            t->kind = PTX_TK_INT;
            t->ival = 32;
        }
    } else if (c == '%' && p + 1 < end && is_ident_char(p[1])) {
        p++;
        while (p < end && is_ident_char(*p))
            p++;
        t->kind = PTX_TK_IDENT;
    } else if (c == '.' && p + 1 < end && is_ident_char(p[1])) {
        /* .name or .a::b::c */
        p++;
        for (;;) {
            while (p < end && is_ident_char(*p))
                p++;
            if (p + 2 < end && p[0] == ':' && p[1] == ':' && is_ident_char(p[2]))
                p += 2;
            else
                break;
        }
        t->kind = PTX_TK_DIR;
    } else if (is_digit(c)) {
        lex_number(lx, t);
        t->len = (int)(lx->p - t->p);
        return;
    } else if (c == '"') {
        p++;
        while (p < end && *p != '"' && *p != '\n') {
            if (*p == '\\' && p + 1 < end && p[1] != '\n')
                p++;
            p++;
        }
        if (p >= end || *p != '"') {
            lx->p = p;
            t->len = (int)(p - t->p);
            lex_error(lx, t, "unterminated string");
            return;
        }
        p++;
        t->kind = PTX_TK_STRING;
    } else {
        t->kind = PTX_TK_PUNCT;
        int c2 = p + 1 < end ? p[1] : 0;
        int code = 0;
        if (c == '<' && c2 == '<') code = PTX_P_SHL;
        else if (c == '>' && c2 == '>') code = PTX_P_SHR;
        else if (c == '<' && c2 == '=') code = PTX_P_LE;
        else if (c == '>' && c2 == '=') code = PTX_P_GE;
        else if (c == '=' && c2 == '=') code = PTX_P_EQ;
        else if (c == '!' && c2 == '=') code = PTX_P_NE;
        else if (c == '&' && c2 == '&') code = PTX_P_ANDAND;
        else if (c == '|' && c2 == '|') code = PTX_P_OROR;
        if (code) {
            t->punct = code;
            p += 2;
        } else if (strchr(",;:()[]{}<>+-*/%~!&|^?=@", c) && c) {
            t->punct = (unsigned char)c;
            p++;
        } else {
            lx->p = p + 1;
            t->len = 1;
            lex_error(lx, t, (unsigned char)c < 32 || (unsigned char)c >= 127
                                 ? "invalid character" : "unexpected character");
            return;
        }
    }
    lx->p = p;
    t->len = (int)(p - t->p);
}

const char *ptx_tok_desc(const ptx_token *t, char *buf, size_t n)
{
    switch (t->kind) {
    case PTX_TK_EOF: return "end of file";
    case PTX_TK_ERROR: return "invalid token";
    default: break;
    }
    int len = t->len > 40 ? 40 : t->len;
    snprintf(buf, n, "'%.*s'", len, t->p);
    return buf;
}

void ptx_format_error(ptx_error *err, const char *path, const char *text, size_t len,
                      int line, int col, const char *msg)
{
    err->line = line;
    err->col = col;
    /* find the line */
    const char *p = text, *end = text + len;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n')
            l++;
    const char *e = p;
    while (e < end && *e != '\n')
        e++;
    int linelen = (int)(e - p);
    if (linelen > 0 && p[linelen - 1] == '\r')
        linelen--;
    int off = snprintf(err->msg, sizeof err->msg, "%s:%d:%d: error: %s\n%.*s\n",
                       path ? path : "<string>", line, col, msg, linelen, p);
    if (off < 0 || (size_t)off >= sizeof err->msg)
        return;
    size_t o = (size_t)off;
    for (int i = 0; i < col - 1 && o + 2 < sizeof err->msg; i++)
        err->msg[o++] = (i < linelen && p[i] == '\t') ? '\t' : ' ';
    if (o + 1 < sizeof err->msg)
        err->msg[o++] = '^';
    err->msg[o] = 0;
}
