/* dap_mem.c - DAP code and memory views: memory references, disassemble, readMemory, writeMemory. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"

void dap_memref(char *out, size_t n, ptx_space sp, uint64_t addr)
{
    if (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_GENERIC || sp == PTX_SPACE_NONE)
        snprintf(out, n, "0x%llx", (unsigned long long)addr);
    else
        snprintf(out, n, "@%s 0x%llx", dbg_space_name(sp), (unsigned long long)addr);
}

int dap_memref_parse(const char *s, ptx_space *sp, uint64_t *addr)
{
    *sp = PTX_SPACE_GENERIC;
    if (!s)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '@') {
        static const struct { const char *n; ptx_space s; } spaces[] = {
            {"global", PTX_SPACE_GLOBAL}, {"shared", PTX_SPACE_SHARED},
            {"local", PTX_SPACE_LOCAL},   {"const", PTX_SPACE_CONST},
            {"param", PTX_SPACE_PARAM},   {"generic", PTX_SPACE_GENERIC}};
        size_t k = strcspn(s + 1, " \t");
        int found = 0;
        for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
            if (strlen(spaces[i].n) == k && !strncmp(spaces[i].n, s + 1, k)) {
                *sp = spaces[i].s;
                found = 1;
            }
        if (!found)
            return -1;
        s += 1 + k;
        while (isspace((unsigned char)*s))
            s++;
    }
    char *end;
    if (!isdigit((unsigned char)*s))
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return -1;
    *addr = v;
    return 0;
}

/* ---- disassembly ----------------------------------------------------------------------------- */
void dap_disassemble(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    ptx_space sp;
    uint64_t base_pc;
    int64_t off = 0, ioff = 0, count;
    if (dap_memref_parse(dj_str(a, "memoryReference", NULL), &sp, &base_pc) != 0 ||
        dj_int(a, "instructionCount", 0, 100000, &count) != 1 ||
        dj_int(a, "offset", -(1ll << 40), 1ll << 40, &off) < 0 ||
        dj_int(a, "instructionOffset", -(1ll << 40), 1ll << 40, &ioff) < 0) {
        dap_respond_err(d, req, "disassemble: memoryReference (a pc such as \"0x1f\") and "
                        "instructionCount (at most 100000) are required.");
        return;
    }
    if (sp != PTX_SPACE_GENERIC) {
        dap_respond_err(d, req, "disassemble: %s is data, not code (code addresses are "
                        "instruction numbers: \"0x1f\").", dj_str(a, "memoryReference", ""));
        return;
    }
    if (!dbg_has_module(d->s)) {
        dap_respond_err(d, req, "disassemble: no module is loaded.");
        return;
    }
    /* addresses are instruction indexes: a byte offset counts instructions too */
    int64_t first = (int64_t)base_pc + off + ioff;
    uint32_t ninsns = dbg_ninsns(d->s);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "instructions");
    const ptx_func *prev = NULL;
    for (int64_t i = 0; i < count; i++) {
        int64_t pc = first + i;
        char addr[32], text[600];
        dbg_where wh;
        /* before the first instruction there is no address: those rows say 0x0 (clients
           parse addresses as unsigned numbers) */
        snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)(pc < 0 ? 0 : pc));
        djw_obj(&w, NULL);
        if (pc < 0 || pc >= ninsns || dbg_insn_text(d->s, (uint32_t)pc, text, sizeof text, &wh) != 0) {
            prev = NULL;
            djw_str(&w, "address", addr);
            djw_str(&w, "instruction", "??");
            djw_str(&w, "presentationHint", "invalid");
            djw_obj_end(&w);
            continue;
        }
        djw_str(&w, "address", addr);
        djw_str(&w, "instruction", text);
        if (wh.func && wh.func != prev) {
            char fn[512];
            dbg_func_name(d->s, wh.func, 0, fn, sizeof fn);
            djw_str(&w, "symbol", fn);
        }
        prev = wh.func;
        dap_write_source(d, &w, "location", wh.file, wh.line, (uint32_t)pc);
        djw_obj_end(&w);
    }
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* ---- memory ---------------------------------------------------------------------------------- */
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *b64_encode(const uint8_t *p, size_t n)
{
    char *o = malloc(4 * ((n + 2) / 3) + 1), *q = o;
    if (!o)
        return NULL;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *q++ = b64[v >> 18 & 63];
        *q++ = b64[v >> 12 & 63];
        *q++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
        *q++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *q = 0;
    return o;
}

static int b64_decode(const char *s, uint8_t **out, size_t *n)
{
    size_t len = strlen(s);
    uint8_t *o = malloc(len / 4 * 3 + 3);
    if (!o)
        return -1;
    size_t k = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '=' || isspace((unsigned char)c))
            continue;
        const char *p = strchr(b64, c);
        if (!p || !c) {
            free(o);
            return -1;
        }
        acc = acc << 6 | (uint32_t)(p - b64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            o[k++] = (uint8_t)(acc >> bits);
        }
    }
    *out = o;
    *n = k;
    return 0;
}

void dap_read_memory(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    ptx_space sp;
    uint64_t addr;
    int64_t off = 0, count;
    if (dap_memref_parse(dj_str(a, "memoryReference", NULL), &sp, &addr) != 0 ||
        dj_int(a, "count", 0, 1 << 24, &count) != 1 ||
        dj_int(a, "offset", -(1ll << 40), 1ll << 40, &off) < 0) {
        dap_respond_err(d, req, "readMemory: memoryReference (\"0x...\" or \"@shared 0x...\") and "
                        "count (at most 16 MB) are required.");
        return;
    }
    dap_lref r;
    if (dap_focus_lref(d, &r) != 0 && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_GENERIC &&
        sp != PTX_SPACE_CONST) {
        dap_respond_err(d, req, "readMemory: @%s memory needs a stopped kernel.",
                        dbg_space_name(sp));
        return;
    }
    uint64_t at = addr + (uint64_t)off;
    uint8_t *buf = malloc(count ? (size_t)count : 1);
    if (!buf) {
        dap_respond_err(d, req, "readMemory: out of memory.");
        return;
    }
    /* unreadable bytes first: none is read, and unreadableBytes says how many to skip; else the
       bytes up to the first unreadable one, and how many unreadable bytes follow in the range */
    int64_t lead = count ? dbg_mem_readable_from(d->s, sp, at, (size_t)count, r.cta, r.warp,
                                                 r.lane)
                         : 0;
    int64_t got = 0, gap = lead;
    if (lead == 0 && count) {
        got = dbg_mem_read(d->s, sp, at, buf, (size_t)count, r.cta, r.warp, r.lane);
        if (got < 0)
            got = 0;
        gap = got < count ? dbg_mem_readable_from(d->s, sp, at + (uint64_t)got,
                                                  (size_t)(count - got), r.cta, r.warp, r.lane)
                          : 0;
    }
    char *data = b64_encode(buf, (size_t)got);
    char mr[64];
    dap_memref(mr, sizeof mr, sp, at);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_str(&w, "address", mr);
    if (gap > 0)
        djw_int(&w, "unreadableBytes", gap);
    djw_str(&w, "data", data ? data : "");
    djw_obj_end(&w);
    dap_send(d, &w);
    free(data);
    free(buf);
}

void dap_write_memory(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    ptx_space sp;
    uint64_t addr;
    int64_t off = 0;
    const char *data = dj_str(a, "data", NULL);
    uint8_t *bytes;
    size_t n;
    if (dap_memref_parse(dj_str(a, "memoryReference", NULL), &sp, &addr) != 0 || !data ||
        dj_int(a, "offset", -(1ll << 40), 1ll << 40, &off) < 0) {
        dap_respond_err(d, req, "writeMemory: memoryReference and data (base64) are required.");
        return;
    }
    if (b64_decode(data, &bytes, &n) != 0) {
        dap_respond_err(d, req, "writeMemory: data is not base64.");
        return;
    }
    dap_lref r;
    if (dap_focus_lref(d, &r) != 0 && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_GENERIC) {
        free(bytes);
        dap_respond_err(d, req, "writeMemory: @%s memory needs a stopped kernel.",
                        dbg_space_name(sp));
        return;
    }
    uint64_t at = addr + (uint64_t)off;
    int partial = dj_bool(a, "allowPartial", 0);
    if (partial && n) { /* as far as the memory goes: up to the first byte that is not there */
        int64_t len = 0;
        uint8_t *probe = dbg_mem_readable_from(d->s, sp, at, n, r.cta, r.warp, r.lane) == 0
                             ? malloc(n) : NULL;
        if (probe)
            len = dbg_mem_read(d->s, sp, at, probe, n, r.cta, r.warp, r.lane);
        free(probe);
        n = len > 0 ? (size_t)len : 0;
    }
    int rc = n ? dbg_mem_write(d->s, sp, at, bytes, n, r.cta, r.warp, r.lane) : 0;
    free(bytes);
    if (rc != 0) {
        dap_respond_err(d, req, "writeMemory: %s", dbg_errmsg(d->s));
        return;
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    if (partial)
        djw_int(&w, "offset", 0);
    djw_int(&w, "bytesWritten", (int64_t)n);
    djw_obj_end(&w);
    dap_send(d, &w);
    dap_invalidated(d);
    if (!d->client_memory || !n)
        return;
    dj_w e;
    dap_begin_event(d, &e, "memory");
    djw_obj(&e, "body");
    char mr[64];
    dap_memref(mr, sizeof mr, sp, at);
    djw_str(&e, "memoryReference", mr);
    djw_int(&e, "offset", 0);
    djw_int(&e, "count", (int64_t)n);
    djw_obj_end(&e);
    dap_send(d, &e);
}
