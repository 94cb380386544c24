/* dbg_format.c - gdb-style value formatting (/x /d /u /o /t /a /c /f /z), literals, /FMT parsing. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

static int nbytes_of(ptx_type t)
{
    if (t == PTX_T_PRED)
        return 1;
    int b = ptx_type_bits(t);
    return b > 0 ? b / 8 : 8;
}

/* Float as gdb prints it: %g with 9 (float) or 17 (double) significant digits; nan(0x...). */
static void fmt_float(double f, ptx_type t, char *out, size_t n)
{
    if (isnan(f)) {
        uint64_t bits;
        uint64_t mant;
        if (t == PTX_T_F64) {
            memcpy(&bits, &f, 8);
            mant = bits & ((UINT64_C(1) << 52) - 1);
        } else {
            float ff = (float)f;
            uint32_t b32;
            memcpy(&b32, &ff, 4);
            bits = (uint64_t)b32 << 32;
            mant = b32 & 0x7fffff;
        }
        snprintf(out, n, "%snan(0x%llx)", (bits >> 63) ? "-" : "", (unsigned long long)mant);
        return;
    }
    if (isinf(f)) {
        snprintf(out, n, "%sinf", f < 0 ? "-" : "");
        return;
    }
    int digits = t == PTX_T_F64 ? 17 : t == PTX_T_F16 || t == PTX_T_BF16 ? 5 : 9;
    snprintf(out, n, "%.*g", digits, f);
}

static void fmt_binary(uint64_t v, int bytes, int zero_pad, char *out, size_t n)
{
    int bits = bytes * 8, start = bits - 1;
    if (!zero_pad)
        while (start > 0 && !(v >> start & 1))
            start--;
    size_t k = 0;
    for (int i = start; i >= 0 && k + 1 < n; i--)
        out[k++] = (char)('0' + (v >> i & 1));
    out[k] = 0;
}

static void fmt_char(uint64_t v, char *out, size_t n)
{
    int c = (int)(int8_t)(uint8_t)v;
    unsigned char uc = (unsigned char)v;
    if (uc == '\'' || uc == '\\')
        snprintf(out, n, "%d '\\%c'", c, uc);
    else if (isprint(uc))
        snprintf(out, n, "%d '%c'", c, uc);
    else if (uc == 0)
        snprintf(out, n, "0 '\\000'");
    else if (uc == '\n')
        snprintf(out, n, "%d '\\n'", c);
    else if (uc == '\t')
        snprintf(out, n, "%d '\\t'", c);
    else
        snprintf(out, n, "%d '\\%03o'", c, uc);
}

void dbg_format_bits(uint64_t bits, ptx_type t, char fmt, char *out, size_t n)
{
    if ((t == PTX_T_F16X2 || t == PTX_T_BF16X2) && (!fmt || fmt == 'f')) {
        /* a pair: {low half, high half}, as mov.b32 %r, {lo, hi} packs it */
        char lo[48], hi[48];
        ptx_type h = t == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        dbg_format_bits(bits & 0xffff, h, fmt, lo, sizeof lo);
        dbg_format_bits((bits >> 16) & 0xffff, h, fmt, hi, sizeof hi);
        snprintf(out, n, "{%s, %s}", lo, hi);
        return;
    }
    dbg_value v;
    dbg_value_from_bits(&v, t, bits);
    dbg_format_value(&v, fmt, NULL, NULL, out, n);
}

static void fmt_int(uint64_t u, ptx_type t, int bytes, char fmt, char *out, size_t n)
{
    uint64_t mask = bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (bytes * 8)) - 1;
    uint64_t m = u & mask;
    switch (fmt) {
    case 'x': snprintf(out, n, "0x%llx", (unsigned long long)m); return;
    case 'z': snprintf(out, n, "0x%0*llx", bytes * 2, (unsigned long long)m); return;
    case 'o': snprintf(out, n, m ? "0%llo" : "0", (unsigned long long)m); return;
    case 't': fmt_binary(m, bytes, 0, out, n); return;
    case 'c': fmt_char(m, out, n); return;
    case 'u': snprintf(out, n, "%llu", (unsigned long long)m); return;
    case 'd': {
        int64_t s = (int64_t)m;
        if (bytes < 8 && (m >> (bytes * 8 - 1) & 1))
            s = (int64_t)(m | ~mask);
        snprintf(out, n, "%lld", (long long)s);
        return;
    }
    case 'a': snprintf(out, n, "0x%llx", (unsigned long long)m); return;
    default:
        if (ptx_type_is_signed(t))
            snprintf(out, n, "%lld", (long long)(int64_t)u);
        else
            snprintf(out, n, "%llu", (unsigned long long)m);
    }
}

int dbg_format_value(const dbg_value *v, char fmt, dbg_describe_pc_fn describe, void *dctx,
                     char *out, size_t n)
{
    if (fmt && !strchr("xduotacfsz", fmt)) {
        snprintf(out, n, "Undefined output format \"%c\".", fmt);
        return -1;
    }
    if (fmt == 's')
        fmt = 0;
    switch (v->kind) {
    case DBG_V_VOID:
        snprintf(out, n, v->optout ? "<optimized out>" : "void");
        return 0;
    case DBG_V_AGG: /* formatted by dbg_format_at, which can read its memory */
        snprintf(out, n, "<aggregate at 0x%llx>", (unsigned long long)v->maddr);
        return 0;
    case DBG_V_DIM3: {
        char a[3][48];
        for (int i = 0; i < 3; i++) {
            dbg_value c;
            dbg_value_from_bits(&c, PTX_T_U32, v->d3[i]);
            dbg_format_value(&c, fmt, NULL, NULL, a[i], sizeof a[i]);
        }
        snprintf(out, n, "{x = %s, y = %s, z = %s}", a[0], a[1], a[2]);
        return 0;
    }
    case DBG_V_CODE: {
        char d[256] = "";
        if (describe)
            describe(dctx, v->u, d, sizeof d);
        if (fmt && fmt != 'a' && fmt != 'x') {
            fmt_int(v->u, PTX_T_U64, 8, fmt, out, n);
            return 0;
        }
        snprintf(out, n, "%s0x%llx%s%s", fmt ? "" : "(void (*)()) ", (unsigned long long)v->u,
                 d[0] ? " " : "", d);
        return 0;
    }
    case DBG_V_PTR:
        if (fmt && fmt != 'a' && fmt != 'x' && fmt != 'z') {
            fmt_int(v->u, PTX_T_U64, 8, fmt, out, n);
            return 0;
        }
        if (fmt) {
            fmt_int(v->u, PTX_T_U64, 8, fmt, out, n);
            return 0;
        }
        if (v->space != PTX_SPACE_GENERIC && v->space != PTX_SPACE_NONE)
            snprintf(out, n, "(@%s %s *) 0x%llx", ptx_space_name(v->space),
                     dbg_type_c_name(v->type), (unsigned long long)v->u);
        else
            snprintf(out, n, "(%s *) 0x%llx", dbg_type_c_name(v->type), (unsigned long long)v->u);
        return 0;
    case DBG_V_FLOAT:
        if (!fmt || fmt == 'f') {
            fmt_float(v->f, v->type, out, n);
            return 0;
        }
        {
            /* gdb converts a float to an integer for integer formats; /x keeps the size */
            int bytes = nbytes_of(v->type);
            int64_t iv = dbg_value_int(v);
            fmt_int((uint64_t)iv, bytes == 8 ? PTX_T_S64 : PTX_T_S32, bytes, fmt, out, n);
        }
        return 0;
    case DBG_V_INT:
        if (v->type == PTX_T_PRED && !fmt) {
            snprintf(out, n, "%d", v->u ? 1 : 0);
            return 0;
        }
        if (fmt == 'f') {
            /* /f on an integer reinterprets it when the size matches a float type */
            int bytes = nbytes_of(v->type);
            dbg_value f;
            if (bytes == 4 || bytes == 8 || bytes == 2) {
                dbg_value_from_bits(&f, bytes == 4 ? PTX_T_F32 : bytes == 8 ? PTX_T_F64 : PTX_T_F16,
                                    v->u);
                fmt_float(f.f, f.type, out, n);
            } else {
                fmt_int(v->u, v->type, bytes, 0, out, n);
            }
            return 0;
        }
        fmt_int(v->u, v->type, nbytes_of(v->type), fmt, out, n);
        return 0;
    }
    snprintf(out, n, "?");
    return 0;
}

int dbg_parse_literal(const char *text, ptx_type t, uint64_t *bits)
{
    while (isspace((unsigned char)*text))
        text++;
    if (!*text)
        return -1;
    char *end;
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    char buf[128];
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, text, len);
    buf[len] = 0;
    /* PTX bit patterns 0fXXXXXXXX / 0dXXXX... */
    if (buf[0] == '0' && (buf[1] == 'f' || buf[1] == 'F' || buf[1] == 'd' || buf[1] == 'D') &&
        isxdigit((unsigned char)buf[2])) {
        uint64_t b = strtoull(buf + 2, &end, 16);
        if (*end)
            return -1;
        dbg_value v;
        if (buf[1] == 'f' || buf[1] == 'F')
            dbg_value_from_bits(&v, PTX_T_F32, b);
        else
            dbg_value_from_bits(&v, PTX_T_F64, b);
        *bits = dbg_value_to_bits(&v, t);
        return 0;
    }
    dbg_value v;
    memset(&v, 0, sizeof v);
    int is_float_text = strpbrk(buf, ".eEnN") && !(buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) &&
                        !(buf[0] == '-' && buf[1] == '0' && (buf[2] == 'x' || buf[2] == 'X'));
    if (is_float_text || !strcmp(buf, "inf") || !strcmp(buf, "-inf")) {
        errno = 0;
        double d = strtod(buf, &end);
        if (*end == 'f' || *end == 'F')
            end++;
        if (*end || end == buf)
            return -1;
        v.kind = DBG_V_FLOAT;
        v.type = PTX_T_F64;
        v.f = d;
    } else {
        errno = 0;
        int neg = buf[0] == '-';
        const char *p = buf + (neg || buf[0] == '+');
        if (!isdigit((unsigned char)*p))
            return -1;
        unsigned long long u = strtoull(p, &end, 0);
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
        if (*end || errno == ERANGE)
            return -1;
        v.kind = DBG_V_INT;
        v.type = neg ? PTX_T_S64 : PTX_T_U64;
        v.u = neg ? (uint64_t)0 - u : u;
        /* range check for integer destinations */
        int b = ptx_type_bits(t);
        if (!ptx_type_is_float(t) && b > 0 && b < 64) {
            int64_t s = (int64_t)v.u;
            if (neg ? s < -(INT64_C(1) << (b - 1)) : u > ((UINT64_C(1) << b) - 1))
                return -1;
        }
    }
    *bits = dbg_value_to_bits(&v, t);
    return 0;
}

int dbg_parse_fmt(const char *spec, int *count, char *fmt, char *size)
{
    /* spec is what follows '/', up to whitespace */
    const char *p = spec;
    if (isdigit((unsigned char)*p) || *p == '-') {
        char *end;
        errno = 0;
        long c = strtol(p, &end, 10);
        if (end == p || errno == ERANGE || c > INT_MAX || c < -INT_MAX)
            return -1; /* a count past int is an error, never a wrapped value */
        if (count)
            *count = (int)c;
        p = end;
    }
    for (; *p && !isspace((unsigned char)*p); p++) {
        if (strchr("bhwg", *p) && size)
            *size = *p;
        else if (strchr("xduotacfsiz", *p) && fmt)
            *fmt = *p;
        else
            return -1;
    }
    return 0;
}
