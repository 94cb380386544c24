/* dap_data.c - DAP data breakpoints: what dataBreakpointInfo says can be watched (variables, members, elements, addresses), and dataIds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"

/* ---- data breakpoints ------------------------------------------------------------------------- */
/* dataId: "SPACE:ADDR:LEN:TYPE" */
int dap_data_id_parse(const char *id, ptx_space *sp, uint64_t *addr, uint32_t *len, char *type,
                      size_t tn)
{
    char spn[32];
    unsigned long long a;
    unsigned l;
    int used = 0;
    if (!id || sscanf(id, "%31[a-z]:%llx:%u:%n", spn, &a, &l, &used) != 3 || !used)
        return -1;
    snprintf(type, tn, "%s", id + used);
    static const struct { const char *n; ptx_space s; } spaces[] = {
        {"global", PTX_SPACE_GLOBAL}, {"shared", PTX_SPACE_SHARED}, {"local", PTX_SPACE_LOCAL},
        {"generic", PTX_SPACE_GENERIC}};
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (!strcmp(spaces[i].n, spn)) {
            *sp = spaces[i].s;
            *addr = a;
            *len = l;
            return l >= 1 && l <= 8 ? 0 : -1;
        }
    return -1;
}

/* What a data breakpoint on name (an expression, or a child of a variables container) would
 * watch: 0 with space, address and size, or -1 with why. */
static int data_target(dap_srv *d, const dj *a, const char *name, ptx_space *sp, uint64_t *addr,
                       uint64_t *size, char *type, size_t tn, char *why, size_t wn)
{
    int64_t ref = 0, fid = 0;
    int hr = dj_int(a, "variablesReference", 0, INT32_MAX, &ref);
    int hf = dj_int(a, "frameId", 0, INT32_MAX, &fid);
    if (hr < 0 || hf < 0) {
        snprintf(why, wn, "variablesReference and frameId are integers.");
        return -1;
    }
    if (dj_bool(a, "asAddress", 0)) { /* name is an address: "0x..." or "@shared 0x..." */
        if (dap_memref_parse(name, sp, addr) != 0) {
            snprintf(why, wn, "\"%s\" is not an address.", name);
            return -1;
        }
        if (*sp == PTX_SPACE_GENERIC && (*sp = dbg_generic_decode(*addr, addr)) == PTX_SPACE_NONE)
            *sp = PTX_SPACE_GLOBAL;
        *size = 0;
        snprintf(type, tn, "char");
        return 0;
    }
    char expr[1200];
    dap_lref r;
    memset(&r, 0, sizeof r);
    if (hr && ref > 0) {
        if (ref > d->nvars) {
            snprintf(why, wn, "Unknown variablesReference %lld (references are valid until the "
                     "next resume).", (long long)ref);
            return -1;
        }
        dap_var_ref *vr = &d->vars[ref - 1];
        r = vr->r;
        int ok = 0;
        if (vr->kind == DAP_VR_LOCALS || vr->kind == DAP_VR_LANE || vr->kind == DAP_VR_SHARED) {
            snprintf(expr, sizeof expr, "%s", name);
            ok = 1;
        } else if (vr->kind == DAP_VR_EXPR) {
            for (int64_t i = 0; i < vr->n && i < 100000 && !ok; i++) {
                char cn[300], *ce = NULL;
                if (dapv_child(d->v, &r, vr->expr, i, cn, sizeof cn, &ce) == 0 &&
                    !strcmp(cn, name) && strlen(ce) < sizeof expr) {
                    snprintf(expr, sizeof expr, "%s", ce);
                    ok = 1;
                }
                free(ce);
            }
            if (!ok) {
                snprintf(why, wn, "No member %s.", name);
                return -1;
            }
        } else if (vr->kind == DAP_VR_SHVAR && name[0] == '[') {
            char *end;
            long long i = strtoll(name + 1, &end, 10);
            int eb = dbg_type_bits(vr->type) / 8;
            if (*end != ']' || end[1] || i < 0 || i >= vr->n) {
                snprintf(why, wn, "No element %s.", name);
                return -1;
            }
            *sp = PTX_SPACE_SHARED;
            *addr = vr->addr + (uint64_t)i * (uint64_t)(eb > 0 ? eb : 1);
            *size = eb > 0 ? (uint64_t)eb : 1;
            snprintf(type, tn, "%s", eb > 0 ? dbg_type_name(vr->type) : "b8");
            return 0;
        } else if (vr->kind == DAP_VR_REGS) {
            snprintf(why, wn, "%s is a register: registers cannot be watched (watch memory).",
                     name);
            return -1;
        } else {
            snprintf(why, wn, "%s cannot be watched: watch a variable or an expression.", name);
            return -1;
        }
        (void)ok;
    } else {
        const dap_frame_ref *fr = hf ? dap_frame_get(d, fid) : NULL;
        if (hf && !fr) {
            snprintf(why, wn, "Unknown frameId %lld (frames are valid until the next resume).",
                     (long long)fid);
            return -1;
        }
        if (fr)
            r = fr->r;
        else if (dap_focus_lref(d, &r) != 0)
            memset(&r, 0, sizeof r);
        snprintf(expr, sizeof expr, "%s", name);
    }
    dapv_val v;
    char err[512];
    if (dapv_eval(d->v, &r, expr, 0, &v, err, sizeof err) != 0) {
        snprintf(why, wn, "%s", err);
        return -1;
    }
    int rc = -1;
    if (!v.in_mem)
        snprintf(why, wn, "%s is not in memory (a register or a computed value): it cannot be "
                 "watched.", name);
    else if (v.space == PTX_SPACE_GENERIC &&
             (v.space = dbg_generic_decode(v.addr, &v.addr)) == PTX_SPACE_NONE)
        snprintf(why, wn, "%s is at a generic address outside every space.", name);
    else if (v.space != PTX_SPACE_GLOBAL && v.space != PTX_SPACE_SHARED &&
             v.space != PTX_SPACE_LOCAL)
        snprintf(why, wn, "%s is in @%s memory, which cannot be written, so not watched.", name,
                 dbg_space_name(v.space));
    else {
        *sp = v.space;
        *addr = v.addr;
        *size = v.size;
        snprintf(type, tn, "%s", v.type);
        rc = 0;
    }
    dapv_val_free(&v);
    return rc;
}

void dap_bps_data_info(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const char *name = dj_str(a, "name", NULL);
    if (!name || !*name) {
        dap_respond_err(d, req, "dataBreakpointInfo: a name is required.");
        return;
    }
    int64_t bytes = 0;
    int hb = dj_int(a, "bytes", 1, 1 << 30, &bytes);
    if (hb < 0) {
        dap_respond_err(d, req, "dataBreakpointInfo: bytes must be a positive integer.");
        return;
    }
    if (dj_bool(a, "asAddress", 0) && !hb) {
        dap_respond_err(d, req, "dataBreakpointInfo: an address (asAddress) needs bytes.");
        return;
    }
    char why[1200] = "", type[200], dataid[300] = "", desc[1400] = "";
    ptx_space sp = PTX_SPACE_NONE;
    uint64_t addr = 0, size = 0;
    if (data_target(d, a, name, &sp, &addr, &size, type, sizeof type, why, sizeof why) == 0) {
        if (hb) { /* a range of that many bytes from there, watched as bytes */
            size = (uint64_t)bytes;
            if (size == 1 || size == 2 || size == 4 || size == 8)
                snprintf(type, sizeof type, "%s", size == 1 ? "unsigned char" : size == 2
                         ? "unsigned short" : size == 4 ? "unsigned int" : "unsigned long long");
        }
        if (size < 1 || size > 8)
            snprintf(why, sizeof why, "%s is %llu bytes: a data breakpoint watches 1 to 8 bytes "
                     "(watch a member or an element).", name, (unsigned long long)size);
        else {
            snprintf(dataid, sizeof dataid, "%s:%llx:%llu:%s", dbg_space_name(sp),
                     (unsigned long long)addr, (unsigned long long)size, type);
            snprintf(desc, sizeof desc, "%s (@%s 0x%llx, %llu bytes)", name, dbg_space_name(sp),
                     (unsigned long long)addr, (unsigned long long)size);
        }
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    if (dataid[0]) {
        djw_str(&w, "dataId", dataid);
        djw_str(&w, "description", desc);
        djw_arr(&w, "accessTypes");
        djw_str(&w, NULL, "write");
        djw_str(&w, NULL, "read");
        djw_str(&w, NULL, "readWrite");
        djw_arr_end(&w);
        djw_bool(&w, "canPersist", 0);
    } else {
        djw_null(&w, "dataId");
        djw_str(&w, "description", why[0] ? why : "Cannot watch this.");
    }
    djw_obj_end(&w);
    dap_send(d, &w);
}
