/* exec_libc.c - CUDA runtime functions without a PTX body: vprintf, __assertfail, malloc, free. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "exec_core.h"


int exec_libc_known(const char *name)
{
    return !strcmp(name, "vprintf") || !strcmp(name, "__assertfail") ||
           !strcmp(name, "malloc") || !strcmp(name, "free");
}

/* Read a NUL-terminated string at generic address a (bounds-checked). */
static int exec_read_str(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t a,
                         char *buf, size_t n)
{
    size_t k = 0;
    for (; k + 1 < n; k++) {
        const uint8_t *h = mem_xlate(w, in, (int)lane, PTX_SPACE_GENERIC, a + k, 1, 0);
        if (!h)
            return -1;
        if (!*h)
            break;
        buf[k] = (char)*h;
    }
    buf[k] = 0;
    return 0;
}

static int exec_arg_read(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t args,
                         uint64_t *off, uint32_t size, void *out)
{
    *off = (*off + size - 1) / size * size;
    const uint8_t *h = mem_xlate(w, in, (int)lane, PTX_SPACE_GENERIC, args + *off, size, 0);
    if (!h)
        return -1;
    memcpy(out, h, size);
    *off += size;
    return 0;
}

/* Format like CUDA's device printf: each argument is aligned to its size in the argument
 * buffer; %f/%e/%g/%a take doubles, %s a generic pointer, %p a 64-bit pointer. Returns the
 * number of arguments consumed, or -1 after a fault. */
static int exec_printf(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t fmtp,
                       uint64_t args, FILE *out)
{
    char fmt[4096], res[8192];
    size_t rn = 0;
    if (exec_read_str(w, in, lane, fmtp, fmt, sizeof fmt))
        return -1;
    uint64_t off = 0;
    int nargs = 0;
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            if (rn + 1 < sizeof res)
                res[rn++] = *p;
            p++;
            continue;
        }
        if (p[1] == '%') {
            if (rn + 1 < sizeof res)
                res[rn++] = '%';
            p += 2;
            continue;
        }
        /* %[flags][width][.prec][length]conv */
        char spec[64];
        size_t sn = 0;
        const char *q = p + 1;
        spec[sn++] = '%';
        while (*q && strchr("-+ #0", *q) && sn < 40)
            spec[sn++] = *q++;
        /* width and precision: one conversion prints at most sizeof piece - 1 characters, so
         * larger values are clamped to that (the C library would otherwise format, and
         * allocate, gigabytes for a width or precision read from device memory) */
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (*q != '.')
                    break;
                spec[sn++] = *q++;
            }
            uint32_t v = 0;
            int any = 0;
            for (; *q >= '0' && *q <= '9'; q++, any = 1)
                v = v > 1023 ? 1024 : v * 10 + (uint32_t)(*q - '0');
            if (any)
                sn += (size_t)snprintf(spec + sn, 8, "%u", v > 1023 ? 1023 : v);
        }
        int lng = 0;
        while (*q && strchr("hlLqjzt", *q)) {
            if (*q == 'l' || *q == 'L' || *q == 'q' || *q == 'j' || *q == 'z' || *q == 't')
                lng++;
            q++;
        }
        char conv = *q;
        if (!conv)
            break;
        q++;
        char piece[1024];
        int pn = 0;
        switch (conv) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
            uint64_t v = 0;
            uint32_t sz = lng ? 8 : 4;
            if (exec_arg_read(w, in, lane, args, &off, sz, &v))
                return -1;
            memcpy(spec + sn, "ll", 2);
            spec[sn + 2] = conv;
            spec[sn + 3] = 0;
            if (conv == 'c') {
                spec[sn] = 'c';
                spec[sn + 1] = 0;
                pn = snprintf(piece, sizeof piece, spec, (int)(uint8_t)v);
            } else if (conv == 'd' || conv == 'i') {
                long long sv = lng ? (long long)v : (long long)(int32_t)v;
                pn = snprintf(piece, sizeof piece, spec, sv);
            } else {
                unsigned long long uv = lng ? v : (uint32_t)v;
                pn = snprintf(piece, sizeof piece, spec, uv);
            }
            nargs++;
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            double v;
            if (exec_arg_read(w, in, lane, args, &off, 8, &v))
                return -1;
            spec[sn] = conv;
            spec[sn + 1] = 0;
            pn = snprintf(piece, sizeof piece, spec, v);
            nargs++;
            break;
        }
        case 'p': {
            uint64_t v;
            if (exec_arg_read(w, in, lane, args, &off, 8, &v))
                return -1;
            spec[sn] = 'p';
            spec[sn + 1] = 0;
            pn = snprintf(piece, sizeof piece, spec, (void *)(uintptr_t)v);
            nargs++;
            break;
        }
        case 's': {
            uint64_t v;
            char str[1024];
            if (exec_arg_read(w, in, lane, args, &off, 8, &v))
                return -1;
            if (!v)
                snprintf(str, sizeof str, "(null)");
            else if (exec_read_str(w, in, lane, v, str, sizeof str))
                return -1;
            spec[sn] = 's';
            spec[sn + 1] = 0;
            pn = snprintf(piece, sizeof piece, spec, str);
            nargs++;
            break;
        }
        default: /* unknown conversion: print it as text */
            pn = snprintf(piece, sizeof piece, "%.*s", (int)(q - p), p);
            break;
        }
        if (pn > (int)sizeof piece - 1)
            pn = (int)sizeof piece - 1;
        if (pn > 0 && rn + (size_t)pn < sizeof res) {
            memcpy(res + rn, piece, (size_t)pn);
            rn += (size_t)pn;
        }
        p = q;
    }
    fwrite(res, 1, rn, out);
    return nargs;
}

int exec_libc_call(exec_warp *w, const exec_insn *in, uint32_t m, const ptx_func *callee)
{
    exec_machine *mc = w->m;
    const char *name = callee->sym->name;
    if (!strcmp(name, "vprintf")) {
        EXEC_FOR_LANES(i, m) {
            uint64_t fmt = 0, args = 0;
            exec_call_arg(w, in, 0, i, &fmt, 8);
            exec_call_arg(w, in, 1, i, &args, 8);
            int32_t r = fmt ? exec_printf(w, in, i, fmt, args, mc->out ? mc->out : stdout) : -1;
            if (mc->stop_set && mc->stop.kind == EXEC_STOP_EXCEPTION)
                return EXEC_STOPPED;
            exec_call_ret(w, in, i, &r, 4);
        }
        fflush(mc->out ? mc->out : stdout);
        return EXEC_NEXT;
    }
    if (!strcmp(name, "__assertfail")) {
        uint32_t l = (uint32_t)exec_ctz(m);
        uint64_t msg = 0, file = 0, func = 0;
        uint32_t line = 0;
        char smsg[256], sfile[256], sfunc[256];
        exec_call_arg(w, in, 0, l, &msg, 8);
        exec_call_arg(w, in, 1, l, &file, 8);
        exec_call_arg(w, in, 2, l, &line, 4);
        exec_call_arg(w, in, 3, l, &func, 8);
        if (exec_read_str(w, in, l, msg, smsg, sizeof smsg) ||
            exec_read_str(w, in, l, file, sfile, sizeof sfile) ||
            exec_read_str(w, in, l, func, sfunc, sizeof sfunc))
            return EXEC_STOPPED;
        uint32_t t = w->id * 32 + l;
        exec_dim3 b = mc->li.block, c = mc->cta.coord;
        exec_stop_raise(w, in, EXEC_STOP_ASSERT, EXEC_EXC_NONE, m,
                        "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                        sfile, line, sfunc, c.x, c.y, c.z, t % b.x, (t / b.x) % b.y,
                        t / (b.x * b.y), smsg);
        return EXEC_STOPPED;
    }
    if (!strcmp(name, "malloc")) {
        EXEC_FOR_LANES(i, m) {
            uint64_t size = 0, a = 0;
            exec_call_arg(w, in, 0, i, &size, 8);
            if (size && mc->heap_used <= mc->heap_limit && size <= mc->heap_limit - mc->heap_used) {
                a = mem_global_add(&mc->glob, size, MEM_R_HEAP, NULL);
                if (a)
                    mc->heap_used += size;
            }
            exec_call_ret(w, in, i, &a, 8);
            if (EXEC_OBS_SYNC_ON(mc)) {
                exec_sync_ev ev = { .kind = EXEC_SYNC_MALLOC, .cta = w->cta->id, .warp = w->id,
                                    .pc = in->pc, .lanes = 1u << i, .addr = a, .size = size,
                                    .what = "malloc" };
                exec_obs_sync_ev(mc, &ev);
            }
        }
        return EXEC_NEXT;
    }
    if (!strcmp(name, "free")) {
        EXEC_FOR_LANES(i, m) {
            uint64_t a = 0;
            exec_call_arg(w, in, 0, i, &a, 8);
            if (!a)
                continue;
            mem_region *r = mem_global_find(&mc->glob, a, 0);
            if (!r || r->base != a || r->kind != MEM_R_HEAP) {
                const mem_freed *f = mem_global_freed(&mc->glob, a);
                int twice = f && f->base == a && f->kind == MEM_R_HEAP;
                exec_fault(w, in, EXEC_EXC_MALLOC, (int)i, PTX_SPACE_GLOBAL, a, 0,
                           twice ? "free(0x%" PRIx64 "): double free (the block was already "
                                   "freed)"
                                 : "free(0x%" PRIx64 "): not a pointer returned by malloc", a);
                if (mc->obs_want & EXEC_OBS_BAD)   /* memcheck: a device heap error */
                    exec_obs_lane(w, in, (int)i, PTX_SPACE_GLOBAL, a, 0, EXEC_ACC_WRITE,
                                  twice ? EXEC_ACC_FREE_TWICE : EXEC_ACC_FREE_BAD, 0, NULL,
                                  NULL);
                return EXEC_STOPPED;
            }
            if (EXEC_OBS_SYNC_ON(mc)) {
                exec_sync_ev ev = { .kind = EXEC_SYNC_FREE, .cta = w->cta->id, .warp = w->id,
                                    .pc = in->pc, .lanes = 1u << i, .addr = a,
                                    .size = r->size, .what = "free" };
                exec_obs_sync_ev(mc, &ev);
            }
            mc->heap_used -= r->size;
            mem_global_remove(&mc->glob, a, MEM_R_HEAP);
        }
        return EXEC_NEXT;
    }
    exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, exec_ctz(m), PTX_SPACE_NONE, 0, 0,
               "call to external function %s, which has no body", name);
    return EXEC_STOPPED;
}
