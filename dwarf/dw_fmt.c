/* dw_fmt.c - print a value of a DWARF type the way gdb does ({a = 1, b = 2.5}, {1, 2}, enums). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dw_int.h"

typedef struct {
    char *b;
    size_t n, len;
    dw_read_mem_fn read;
    void *ctx;
    uint64_t elements;        /* gdb's print elements (0: unlimited) */
    uint64_t repeats;         /* print repeats: runs this long collapse (0: never) */
    int pretty;               /* print pretty: one struct member a line, indented */
} out_t;

/* A new line indented by `indent` spaces (print pretty). */
static void put_nl(out_t *o, int indent);

static void put(out_t *o, const char *s)
{
    for (; *s; s++) {
        if (o->len + 1 < o->n)
            o->b[o->len] = *s;
        o->len++;
    }
    if (o->n)
        o->b[o->len < o->n ? o->len : o->n - 1] = 0;
}

static void putf(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(out_t *o, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(o, tmp);
}

float dw_half_to_float(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    float v;
    if (exp == 0)
        v = ldexpf((float)man, -24);
    else if (exp == 31)
        v = man ? NAN : INFINITY;
    else
        v = ldexpf((float)(man | 0x400), exp - 25);
    return sign ? -v : v;
}

static uint64_t rd(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int64_t sext(uint64_t v, unsigned bits)
{
    if (bits >= 64 || bits == 0)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)((v ^ m) - m);
}

static void put_double(out_t *o, double v, int digits)
{
    if (isnan(v)) {
        put(o, signbit(v) ? "-nan" : "nan");
        return;
    }
    if (isinf(v)) {
        put(o, v < 0 ? "-inf" : "inf");
        return;
    }
    putf(o, "%.*g", digits, v);
}

static void put_char(out_t *o, unsigned c, char quote)
{
    switch (c) {
    case 0: put(o, "\\000"); return;
    case '\n': put(o, "\\n"); return;
    case '\t': put(o, "\\t"); return;
    case '\r': put(o, "\\r"); return;
    case '\\': put(o, "\\\\"); return;
    case 7: put(o, "\\a"); return;
    case 8: put(o, "\\b"); return;
    case 12: put(o, "\\f"); return;
    case 11: put(o, "\\v"); return;
    case 27: put(o, "\\033"); return;
    default:
        break;
    }
    if (c == (unsigned)quote) {
        char t[3] = {'\\', quote, 0};
        put(o, t);
    } else if (c >= 32 && c < 127) {
        char t[2] = {(char)c, 0};
        put(o, t);
    } else {
        putf(o, "\\%03o", c & 0xff);
    }
}

static void put_binary(out_t *o, uint64_t v)
{
    char t[65];
    int k = 0;
    if (!v) {
        put(o, "0");
        return;
    }
    for (int i = 63; i >= 0; i--)
        if (k || ((v >> i) & 1))
            t[k++] = (char)('0' + ((v >> i) & 1));
    t[k] = 0;
    put(o, t);
}

/* An integer of `size` bytes, with gdb's /x /o /t /d /u /c /f. */
static void put_int(out_t *o, uint64_t raw, size_t size, int is_signed, int fmt)
{
    unsigned bits = (unsigned)(size * 8);
    uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    raw &= mask;
    switch (fmt) {
    case 'x': putf(o, "0x%llx", (unsigned long long)raw); return;
    case 'o': putf(o, raw ? "0%llo" : "%llo", (unsigned long long)raw); return;
    case 't': put_binary(o, raw); return;
    case 'd': putf(o, "%lld", (long long)sext(raw, bits)); return;
    case 'u': putf(o, "%llu", (unsigned long long)raw); return;
    case 'a': putf(o, "0x%llx", (unsigned long long)raw); return;
    case 'c':
        putf(o, "%lld '", (long long)sext(raw, 8));
        put_char(o, (unsigned)(raw & 0xff), '\'');
        put(o, "'");
        return;
    case 'f':
        if (size == 4) {
            float f;
            uint32_t u = (uint32_t)raw;
            memcpy(&f, &u, 4);
            put_double(o, f, 9);
            return;
        }
        if (size == 8) {
            double f;
            memcpy(&f, &raw, 8);
            put_double(o, f, 17);
            return;
        }
        break;
    default:
        break;
    }
    if (is_signed)
        putf(o, "%lld", (long long)sext(raw, bits));
    else
        putf(o, "%llu", (unsigned long long)raw);
}

static void fmt_val(out_t *o, const dw_type *t, const uint8_t *b, size_t len, int fmt, int top,
                    int depth);

/* The NUL-terminated string at addr after a char pointer: at most `print elements` characters
 * (200 when unlimited would be more than 65536), "..." when cut. */
static void put_string_at(out_t *o, ptx_space space, uint64_t addr)
{
    if (!o->read || !addr)
        return;
    uint64_t lim = o->elements && o->elements <= 65536 ? o->elements : 65536;
    uint8_t c;
    if (o->read(o->ctx, space, addr, &c, 1) != 0) {
        putf(o, " <error: Cannot access memory at address 0x%llx>", (unsigned long long)addr);
        return;
    }
    put(o, " \"");
    uint64_t k = 0;
    for (; k < lim && c; k++) {
        put_char(o, c, '"');
        if (o->read(o->ctx, space, addr + k + 1, &c, 1) != 0)
            c = 0;
    }
    put(o, k == lim && c ? "\"..." : "\"");
}

static void put_nl(out_t *o, int indent)
{
    put(o, "\n");
    for (int i = 0; i < indent; i++)
        put(o, " ");
}

static int is_char_type(const dw_type *t)
{
    t = dw_type_strip(t);
    return t && t->kind == DW_TY_BASE && t->size == 1 &&
           (t->enc == DW_BT_SIGNED_CHAR || t->enc == DW_BT_UNSIGNED_CHAR);
}

static const char *space_prefix(ptx_space s)
{
    switch (s) {
    case PTX_SPACE_GLOBAL: return "@global ";
    case PTX_SPACE_SHARED: return "@shared ";
    case PTX_SPACE_LOCAL: return "@local ";
    case PTX_SPACE_CONST: return "@const ";
    case PTX_SPACE_PARAM: return "@param ";
    default: return "";
    }
}

static void fmt_pointer(out_t *o, const dw_type *t, const uint8_t *b, size_t len, int fmt,
                        int top)
{
    uint64_t v = rd(b, len < 8 ? len : 8);
    if (fmt && fmt != 'a' && fmt != 'x') {
        put_int(o, v, 8, 0, fmt);
        return;
    }
    if (t->kind == DW_TY_REFERENCE) {
        /* gdb: "(const unsigned long &) @0x2001000fffb8: 1024" (print), "count=@0x...: 1024"
           (frame lines): the referent follows its address */
        if (top) {
            char tn[256];
            dw_type_name(t, tn, sizeof tn);
            putf(o, "(%s%s) ", space_prefix(t->space), tn);
        }
        putf(o, "@0x%llx", (unsigned long long)v);
        const dw_type *rt = dw_type_strip(t->target);
        uint64_t rs = rt ? dw_type_size(rt) : 0;
        if (o->read && rt && rs && rs <= 4096) {
            uint8_t *buf = malloc((size_t)rs);
            if (buf && o->read(o->ctx, t->space == PTX_SPACE_NONE ? PTX_SPACE_GENERIC : t->space,
                               v, buf, (size_t)rs) == 0) {
                put(o, ": ");
                fmt_val(o, t->target, buf, (size_t)rs, fmt, 0, 1);
            } else if (buf) {
                putf(o, ": <error: Cannot access memory at address 0x%llx>",
                     (unsigned long long)v);
            }
            free(buf);
        }
        return;
    }
    if (top) {
        char tn[256];
        dw_type_name(t, tn, sizeof tn);
        putf(o, "(%s%s) ", space_prefix(t->space), tn);
    }
    putf(o, "0x%llx", (unsigned long long)v);
    if (is_char_type(t->target) && !fmt)
        put_string_at(o, t->space, v);
}

static void fmt_array(out_t *o, const dw_type *t, int dim, const uint8_t *b, size_t len, int fmt,
                      int depth)
{
    const dw_type *el = t->target;
    uint64_t esz = dw_type_size(el);
    for (int k = dim + 1; k < t->ndims; k++)
        esz *= t->dims[k];
    uint64_t cnt = t->dims[dim];
    if (!esz) {
        put(o, "{}");
        return;
    }
    if (!cnt || cnt * esz > len)
        cnt = len / esz;
    /* char arrays as strings (innermost dimension) */
    if (dim == t->ndims - 1 && is_char_type(el) && !fmt) {
        size_t k = (size_t)cnt;
        if (k && b[k - 1] == 0) {
            /* gdb stops at the first NUL when the rest is all NULs */
            size_t z = 0;
            while (z < k && b[z])
                z++;
            size_t r = z;
            while (r < k && !b[r])
                r++;
            if (r == k)
                k = z;
        }
        size_t shown = o->elements && o->elements < k ? (size_t)o->elements : k;
        put(o, "\"");
        for (size_t i = 0; i < shown; i++)
            put_char(o, b[i], '"');
        put(o, shown < k ? "\"..." : "\"");
        return;
    }
    put(o, "{");
    /* gdb: a run of `repeats` or more equal elements prints once with <repeats N times> and
     * counts as `repeats` elements; printing ends with "..." once `elements` are shown */
    uint64_t i = 0, printed = 0;
    while (i < cnt && (!o->elements || printed < o->elements)) {
        uint64_t j = i + 1;
        while (j < cnt && !memcmp(b + i * esz, b + j * esz, (size_t)esz))
            j++;
        if (i)
            put(o, ", ");
        if (dim + 1 < t->ndims)
            fmt_array(o, t, dim + 1, b + i * esz, (size_t)esz, fmt, depth + 1);
        else
            fmt_val(o, el, b + i * esz, (size_t)esz, fmt, 0, depth + 1);
        if (o->repeats && j - i >= o->repeats) {
            putf(o, " <repeats %llu times>", (unsigned long long)(j - i));
            i = j;
            printed += o->repeats;
        } else {
            i++;
            printed++;
        }
    }
    if (i < cnt)
        put(o, "...");
    put(o, "}");
}

static void fmt_struct(out_t *o, const dw_type *t, const uint8_t *b, size_t len, int fmt,
                       int depth)
{
    put(o, "{");
    for (int i = 0; i < t->nmembers; i++) {
        const dw_member *m = &t->members[i];
        if (i)
            put(o, o->pretty ? "," : ", ");
        if (o->pretty)
            put_nl(o, 2 * (depth + 1));
        if (m->name)
            putf(o, "%s = ", m->name);
        else if (!m->name && dw_type_strip(m->type) &&
                 dw_type_strip(m->type)->kind != DW_TY_UNION)
            put(o, "<base> = ");
        uint64_t sz = dw_type_size(m->type);
        if (m->offset > len || (m->offset + sz > len && !m->bit_size)) {
            put(o, "<unavailable>");
            continue;
        }
        if (m->bit_size && (m->bit_size < 0 || m->bit_size > 64 || m->bit_offset < 0 ||
                            m->bit_offset + m->bit_size > 64)) {
            put(o, "<invalid bit-field>"); /* nonsense DWARF: no shift beyond the 64-bit unit */
            continue;
        }
        if (m->bit_size) {
            size_t avail = len - (size_t)m->offset;
            uint64_t raw = rd(b + m->offset, avail < 8 ? avail : 8);
            raw >>= m->bit_offset;
            if (m->bit_size < 64)
                raw &= (1ull << m->bit_size) - 1;
            const dw_type *mt = dw_type_strip(m->type);
            int sgn = mt && mt->enc == DW_BT_SIGNED;
            put_int(o, sgn ? (uint64_t)sext(raw, (unsigned)m->bit_size) : raw, 8, sgn, fmt);
            continue;
        }
        fmt_val(o, m->type, b + m->offset, (size_t)sz, fmt, 0, depth + 1);
    }
    if (o->pretty && t->nmembers)
        put_nl(o, 2 * depth);
    put(o, "}");
}

static void fmt_val(out_t *o, const dw_type *t0, const uint8_t *b, size_t len, int fmt, int top,
                    int depth)
{
    const dw_type *t = dw_type_strip(t0);
    if (depth > 32) {
        put(o, "...");
        return;
    }
    if (!t || t->kind == DW_TY_VOID) {
        put(o, "void");
        return;
    }
    uint64_t size = t->size;
    if (t->kind == DW_TY_ARRAY && !size)
        size = len;
    if (size > len) {
        put(o, "<unavailable>");
        return;
    }
    switch (t->kind) {
    case DW_TY_BASE:
        switch (t->enc) {
        case DW_BT_FLOAT:
            if (fmt && fmt != 'f') {
                put_int(o, rd(b, (size_t)size), (size_t)size, 1, fmt);
            } else if (size == 4) {
                float f;
                memcpy(&f, b, 4);
                put_double(o, f, 9);
            } else if (size == 8) {
                double f;
                memcpy(&f, b, 8);
                put_double(o, f, 17);
            } else {
                put(o, "<unsupported float>");
            }
            return;
        case DW_BT_HALF:
            if (fmt && fmt != 'f')
                put_int(o, rd(b, 2), 2, 0, fmt);
            else
                put_double(o, dw_half_to_float((uint16_t)rd(b, 2)), 5);
            return;
        case DW_BT_BOOL: {
            uint64_t v = rd(b, (size_t)size);
            if (fmt)
                put_int(o, v, (size_t)size, 0, fmt);
            else if (v <= 1)
                put(o, v ? "true" : "false");
            else
                putf(o, "%llu", (unsigned long long)v);
            return;
        }
        case DW_BT_SIGNED_CHAR:
        case DW_BT_UNSIGNED_CHAR:
            if (!fmt && size == 1) {
                uint64_t v = b[0];
                if (t->enc == DW_BT_SIGNED_CHAR)
                    putf(o, "%d '", (int)(int8_t)b[0]);
                else
                    putf(o, "%u '", (unsigned)b[0]);
                put_char(o, (unsigned)v, '\'');
                put(o, "'");
                return;
            }
            put_int(o, rd(b, (size_t)size), (size_t)size, t->enc == DW_BT_SIGNED_CHAR, fmt);
            return;
        default:
            if (size > 8) {
                put(o, "0x");
                for (size_t i = (size_t)size; i-- > 0;)
                    putf(o, "%02x", b[i]);
                return;
            }
            put_int(o, rd(b, (size_t)size), (size_t)size, t->enc == DW_BT_SIGNED, fmt);
            return;
        }
    case DW_TY_ENUM: {
        uint64_t raw = rd(b, (size_t)size);
        int64_t v = t->enc == DW_BT_SIGNED ? sext(raw, (unsigned)size * 8) : (int64_t)raw;
        if (!fmt)
            for (int i = 0; i < t->nenums; i++)
                if (t->enums[i].value == v && t->enums[i].name) {
                    put(o, t->enums[i].name);
                    return;
                }
        put_int(o, raw, (size_t)size, t->enc == DW_BT_SIGNED, fmt);
        return;
    }
    case DW_TY_POINTER:
    case DW_TY_REFERENCE:
        fmt_pointer(o, t, b, len, fmt, top);
        return;
    case DW_TY_ARRAY:
        if (!t->ndims) {
            put(o, "{}");
            return;
        }
        fmt_array(o, t, 0, b, (size_t)size, fmt, depth);
        return;
    case DW_TY_STRUCT:
    case DW_TY_CLASS:
    case DW_TY_UNION:
        if (t->enc == DW_BT_HALF && size == 2 && (!fmt || fmt == 'f')) {
            put_double(o, dw_half_to_float((uint16_t)rd(b, 2)), 5);
            return;
        }
        if (t->enc == DW_BT_BF16 && size == 2 && (!fmt || fmt == 'f')) {
            uint32_t u = (uint32_t)rd(b, 2) << 16;
            float f;
            memcpy(&f, &u, 4);
            put_double(o, f, 5);
            return;
        }
        fmt_struct(o, t, b, (size_t)size, fmt, depth);
        return;
    case DW_TY_FUNC:
        put(o, "{function}");
        return;
    default:
        put(o, "<unknown type>");
        return;
    }
}

int dw_format_value(const dw_type *t, const uint8_t *bytes, size_t len, int fmt, int top,
                    dw_read_mem_fn read, void *ctx, char *out, size_t n)
{
    dw_format_opts d = DW_FORMAT_OPTS_DEFAULT;
    return dw_format_value_opts(t, bytes, len, fmt, top, &d, read, ctx, out, n);
}

int dw_format_value_opts(const dw_type *t, const uint8_t *bytes, size_t len, int fmt, int top,
                         const dw_format_opts *opts, dw_read_mem_fn read, void *ctx, char *out,
                         size_t n)
{
    if (!out || !n || (!bytes && len))
        return -1;
    out[0] = 0;
    out_t o = {out, n, 0, read, ctx, opts->elements, opts->repeats, opts->pretty};
    fmt_val(&o, t, bytes, len, fmt, top, 0);
    return (int)(o.len < n ? o.len : n - 1);
}
