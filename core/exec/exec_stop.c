/* exec_stop.c - stops and faults: raising them on a warp, interrupts, deadlock reports. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "exec_core.h"

/* ---- stops ----------------------------------------------------------------------------------- */
void exec_stop_fill(exec_warp *w, const exec_insn *in, exec_stop_kind k, exec_exc e,
                    uint32_t lanes)
{
    exec_stop *st = &w->m->stop;
    memset(st, 0, sizeof *st);
    st->kind = k;
    st->exc = e;
    st->cta = w->cta->id;
    st->warp = w->id;
    st->lanes = lanes;
    st->lane = lanes ? (uint32_t)exec_ctz(lanes) : 0;
    st->pc = in ? in->pc : w->cur_pc;
    st->watch_id = -1;
    w->m->stop_set = 1;
    if (in)
        w->npc = in->pc;
}

void exec_stop_raise(exec_warp *w, const exec_insn *in, exec_stop_kind k, exec_exc e,
                     uint32_t lanes, const char *fmt, ...)
{
    if (w->m->stop_set && w->m->stop.kind != EXEC_STOP_WATCH &&
        w->m->stop.kind != EXEC_STOP_CHECK)
        return;
    exec_stop_fill(w, in, k, e, lanes);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->m->stop.msg, sizeof w->m->stop.msg, fmt, ap);
    va_end(ap);
    if (k == EXEC_STOP_TRAP || k == EXEC_STOP_ASSERT || k == EXEC_STOP_EXCEPTION) {
        w->stopped = 1;
        w->trapped |= lanes;
    }
}

void exec_fault(exec_warp *w, const exec_insn *in, exec_exc e, int lane, ptx_space sp,
                uint64_t addr, uint32_t size, const char *fmt, ...)
{
    exec_machine *m = w->m;
    if (m->stop_set && m->stop.kind == EXEC_STOP_EXCEPTION)
        return;
    exec_stop_fill(w, in, EXEC_STOP_EXCEPTION, e, lane >= 0 ? 1u << lane : w->cur_mask);
    exec_stop *st = &m->stop;
    st->space = sp;
    st->addr = addr;
    st->size = size;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->msg, sizeof st->msg, fmt, ap);
    va_end(ap);
    w->stopped = 1;
    w->trapped |= st->lanes;
}

/* Stop with EXEC_STOP_INTERRUPT at warp w (live), or at the CTA's first live warp. */
void exec_interrupt_stop(exec_machine *m, exec_warp *w)
{
    for (uint32_t k = 0; (!w || !exec_live(w)) && k < m->nwarps; k++)
        w = &m->warps[(m->cta.rr + k) % m->nwarps];
    if (!w)
        w = &m->warps[0];
    exec_sched(w);
    exec_stop_fill(w, NULL, EXEC_STOP_INTERRUPT, EXEC_EXC_NONE,
                   w->cur_mask ? w->cur_mask : exec_live(w));
    snprintf(m->stop.msg, sizeof m->stop.msg, "interrupted");
}

static int exec_describe_lanes(const exec_machine *m, char *buf, size_t n)
{
    size_t k = 0;
    for (uint32_t i = 0; i < m->nwarps && k < n; i++) {
        const exec_warp *w = &m->warps[i];
        for (int b = 0; b < EXEC_NBAR; b++) {
            uint32_t lanes = 0, pc = 0;
            EXEC_FOR_LANES(l, w->bar_wait)
                if (w->lane_bar[l] == b) {
                    lanes |= 1u << l;
                    pc = w->pc[l] - 1;
                }
            if (lanes && k < n) {
                const exec_insn *in = &m->code[pc];
                k += (size_t)snprintf(buf + k, n - k, "; warp %u lanes 0x%08x wait at barrier "
                                      "%d (pc 0x%x, line %d)", i, lanes, b, pc,
                                      in->src ? in->src->line : 0);
            }
        }
        if (w->ws_wait && k < n)
            k += (size_t)snprintf(buf + k, n - k, "; warp %u lanes 0x%08x wait in a "
                                  "warp-synchronous instruction", i, w->ws_wait);
        if (w->yielded && w->cur_mask && k < n) {
            const exec_insn *in = &m->code[w->cur_pc];
            k += (size_t)snprintf(buf + k, n - k, "; warp %u lanes 0x%08x wait in %s (pc 0x%x, "
                                  "line %d), which cannot proceed", i, w->cur_mask,
                                  in->src ? in->src->opcode : "?", w->cur_pc,
                                  in->src ? in->src->line : 0);
        }
        if ((w->exited & w->valid) && k < n)
            k += (size_t)snprintf(buf + k, n - k, "; warp %u lanes 0x%08x exited", i,
                                  w->exited & w->valid);
    }
    return (int)k;
}

void exec_deadlock(exec_machine *m)
{
    exec_warp *w0 = NULL;
    for (uint32_t i = 0; i < m->nwarps && !w0; i++)
        if (exec_live(&m->warps[i]))
            w0 = &m->warps[i];
    if (!w0)
        w0 = &m->warps[0];
    char buf[400];
    exec_describe_lanes(m, buf, sizeof buf);
    uint32_t lanes = exec_live(w0);
    int l = lanes ? exec_ctz(lanes) : 0;
    uint32_t pc = w0->pc[l];
    for (uint32_t i = 0; i < m->nwarps; i++)
        if (m->warps[i].yielded && m->warps[i].cur_mask) {
            /* warps that only yield (EXEC_YIELD): report the first one where it waits */
            w0 = &m->warps[i];
            lanes = w0->cur_mask;
            l = exec_ctz(lanes);
            pc = w0->cur_pc;
            break;
        }
    exec_fault(w0, &m->code[pc], EXEC_EXC_BARRIER_DEADLOCK, l, PTX_SPACE_NONE, 0, 0,
               "barrier deadlock in CTA %u: no thread can proceed%s", m->cta.id, buf);
    m->stop.lanes = lanes;
}
