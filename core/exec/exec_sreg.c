/* exec_sreg.c - special registers: slot mapping, per-launch/per-CTA values, clocks. */
#include <string.h>
#include "exec_core.h"

/* Map a special register (and component) to its slot in a warp's sreg block; *bits gets its
 * width. Registers without a meaning here (%pm*, %current_graph_exec) read as zero. */
int exec_sreg_slot(ptx_sreg_id id, int comp, int *bits)
{
    *bits = 32;
    if (id == PTX_SREG_ENVREG)   /* values given by exec_set_envreg / cooperative launches */
        return comp >= 0 && comp < 32 ? EXEC_SR_ENVREG + comp : EXEC_SR_ZERO;
    if (comp < 0 || comp > 3)
        comp = 0;
    switch (id) {
    case PTX_SREG_TID: return EXEC_SR_TID + comp;
    case PTX_SREG_NTID: return EXEC_SR_NTID + comp;
    case PTX_SREG_CTAID: return EXEC_SR_CTAID + comp;
    case PTX_SREG_NCTAID: return EXEC_SR_NCTAID + comp;
    case PTX_SREG_CLUSTERID: return EXEC_SR_CLUSTERID + comp;
    case PTX_SREG_NCLUSTERID: return EXEC_SR_NCLUSTERID + comp;
    case PTX_SREG_CLUSTER_CTAID: return EXEC_SR_CLUSTER_CTAID + comp;
    case PTX_SREG_CLUSTER_NCTAID: return EXEC_SR_CLUSTER_NCTAID + comp;
    case PTX_SREG_LANEID: return EXEC_SR_LANEID;
    case PTX_SREG_WARPID: return EXEC_SR_WARPID;
    case PTX_SREG_NWARPID: return EXEC_SR_NWARPID;
    case PTX_SREG_SMID: return EXEC_SR_SMID;
    case PTX_SREG_NSMID: return EXEC_SR_NSMID;
    case PTX_SREG_GRIDID: *bits = 64; return EXEC_SR_GRIDID;
    case PTX_SREG_LANEMASK_EQ: return EXEC_SR_LM_EQ;
    case PTX_SREG_LANEMASK_LE: return EXEC_SR_LM_LE;
    case PTX_SREG_LANEMASK_LT: return EXEC_SR_LM_LT;
    case PTX_SREG_LANEMASK_GE: return EXEC_SR_LM_GE;
    case PTX_SREG_LANEMASK_GT: return EXEC_SR_LM_GT;
    case PTX_SREG_CLOCK: return EXEC_SR_CLOCK;
    case PTX_SREG_CLOCK_HI: return EXEC_SR_CLOCK_HI;
    case PTX_SREG_CLOCK64: *bits = 64; return EXEC_SR_CLOCK64;
    case PTX_SREG_GLOBALTIMER: *bits = 64; return EXEC_SR_GTIMER;
    case PTX_SREG_GLOBALTIMER_LO: return EXEC_SR_GTIMER_LO;
    case PTX_SREG_GLOBALTIMER_HI: return EXEC_SR_GTIMER_HI;
    case PTX_SREG_TOTAL_SMEM_SIZE: return EXEC_SR_TOTAL_SMEM;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return EXEC_SR_DYN_SMEM;
    case PTX_SREG_AGGR_SMEM_SIZE: return EXEC_SR_AGGR_SMEM;
    case PTX_SREG_CLUSTER_CTARANK: return EXEC_SR_CTARANK;
    case PTX_SREG_CLUSTER_NCTARANK: return EXEC_SR_NCTARANK;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return EXEC_SR_IS_EXPLICIT;
    case PTX_SREG_PM0_64: case PTX_SREG_PM1_64: case PTX_SREG_PM2_64: case PTX_SREG_PM3_64:
    case PTX_SREG_PM4_64: case PTX_SREG_PM5_64: case PTX_SREG_PM6_64: case PTX_SREG_PM7_64:
    case PTX_SREG_CURRENT_GRAPH_EXEC:
        *bits = 64;
        return EXEC_SR_ZERO;
    case PTX_SREG_PM0: case PTX_SREG_PM1: case PTX_SREG_PM2: case PTX_SREG_PM3:
    case PTX_SREG_PM4: case PTX_SREG_PM5: case PTX_SREG_PM6: case PTX_SREG_PM7:
        return EXEC_SR_ZERO;
    case PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN: return EXEC_SR_RES_BEGIN;
    case PTX_SREG_RESERVED_SMEM_OFFSET_END: return EXEC_SR_RES_END;
    case PTX_SREG_RESERVED_SMEM_OFFSET_CAP: return EXEC_SR_RES_CAP;
    case PTX_SREG_RESERVED_SMEM_OFFSET_2:
        return comp == 1 ? EXEC_SR_RES_OFF1 : EXEC_SR_RES_BEGIN;
    default:
        return -1;
    }
}

static void exec_sr_fill32(uint8_t *blk, int slot, uint32_t v)
{
    uint32_t *p = (uint32_t *)(void *)(blk + (size_t)slot * EXEC_SLOT);
    for (int i = 0; i < EXEC_LANES; i++)
        p[i] = v;
}

static void exec_sr_fill64(uint8_t *blk, int slot, uint64_t v)
{
    uint64_t *p = (uint64_t *)(void *)(blk + (size_t)slot * EXEC_SLOT);
    for (int i = 0; i < EXEC_LANES; i++)
        p[i] = v;
}

void exec_sreg_init_launch(exec_machine *m)
{
    exec_dim3 b = m->li.block, g = m->li.grid, cd;
    int expl = exec_cluster_dims(m, &cd);   /* cluster shape (exec_cluster.c) */
    if (!cd.x || !cd.y || !cd.z)
        cd.x = cd.y = cd.z = 1;             /* invalid: exec_launch refuses it */
    uint32_t total = (uint32_t)((m->shared_static + 15) / 16 * 16 + m->li.dyn_shmem);
    uint32_t total_r = (total + 255) / 256 * 256;
    for (uint32_t k = 0; k < m->nwarps; k++) {
        uint8_t *blk = m->sregs + (size_t)k * EXEC_SR__COUNT * EXEC_SLOT;
        uint32_t *tx = (uint32_t *)(void *)(blk + EXEC_SR_TID * EXEC_SLOT);
        uint32_t *ty = (uint32_t *)(void *)(blk + (EXEC_SR_TID + 1) * EXEC_SLOT);
        uint32_t *tz = (uint32_t *)(void *)(blk + (EXEC_SR_TID + 2) * EXEC_SLOT);
        uint32_t *lid = (uint32_t *)(void *)(blk + EXEC_SR_LANEID * EXEC_SLOT);
        for (uint32_t i = 0; i < EXEC_LANES; i++) {
            uint32_t t = k * 32 + i;
            tx[i] = t % b.x;
            ty[i] = (t / b.x) % b.y;
            tz[i] = t / (b.x * b.y);
            lid[i] = i;
            ((uint32_t *)(void *)(blk + EXEC_SR_LM_EQ * EXEC_SLOT))[i] = 1u << i;
            ((uint32_t *)(void *)(blk + EXEC_SR_LM_LE * EXEC_SLOT))[i] =
                i == 31 ? EXEC_FULL : (2u << i) - 1;
            ((uint32_t *)(void *)(blk + EXEC_SR_LM_LT * EXEC_SLOT))[i] = (1u << i) - 1;
            ((uint32_t *)(void *)(blk + EXEC_SR_LM_GE * EXEC_SLOT))[i] = ~((1u << i) - 1);
            ((uint32_t *)(void *)(blk + EXEC_SR_LM_GT * EXEC_SLOT))[i] =
                i == 31 ? 0 : ~((2u << i) - 1);
        }
        exec_sr_fill32(blk, EXEC_SR_NTID, b.x);
        exec_sr_fill32(blk, EXEC_SR_NTID + 1, b.y);
        exec_sr_fill32(blk, EXEC_SR_NTID + 2, b.z);
        exec_sr_fill32(blk, EXEC_SR_NCTAID, g.x);
        exec_sr_fill32(blk, EXEC_SR_NCTAID + 1, g.y);
        exec_sr_fill32(blk, EXEC_SR_NCTAID + 2, g.z);
        /* clusters (1x1x1 without: cluster ids are then the CTA ids); per-CTA ids below */
        exec_sr_fill32(blk, EXEC_SR_NCLUSTERID, g.x / cd.x);
        exec_sr_fill32(blk, EXEC_SR_NCLUSTERID + 1, g.y / cd.y);
        exec_sr_fill32(blk, EXEC_SR_NCLUSTERID + 2, g.z / cd.z);
        for (int c = 0; c < 3; c++) {
            exec_sr_fill32(blk, EXEC_SR_CLUSTER_CTAID + c, 0);
            exec_sr_fill32(blk, EXEC_SR_CLUSTER_NCTAID + c, c == 0 ? cd.x : c == 1 ? cd.y : cd.z);
        }
        /* the unused fourth component (.w) of every vector register reads zero */
        for (int v = EXEC_SR_TID; v <= EXEC_SR_CLUSTER_NCTAID; v += 4)
            exec_sr_fill32(blk, v + 3, 0);
        exec_sr_fill32(blk, EXEC_SR_WARPID, k);
        exec_sr_fill32(blk, EXEC_SR_NWARPID, 64);
        exec_sr_fill32(blk, EXEC_SR_NSMID, EXEC_NSM);
        exec_sr_fill64(blk, EXEC_SR_GRIDID, (uint64_t)m->li.launch_id + 1);
        exec_sr_fill32(blk, EXEC_SR_TOTAL_SMEM, total_r);
        exec_sr_fill32(blk, EXEC_SR_DYN_SMEM, m->li.dyn_shmem);
        exec_sr_fill32(blk, EXEC_SR_AGGR_SMEM, total_r);
        /* the system's 1 KB (exec_core.h): %reserved_smem_offset_0 is its start, _1 its
           second half (cooperative groups' multi-warp scratch, 288 bytes at most) */
        exec_sr_fill32(blk, EXEC_SR_RES_BEGIN, EXEC_SMEM_RES_BASE);
        exec_sr_fill32(blk, EXEC_SR_RES_END, EXEC_SMEM_RES_BASE + EXEC_SMEM_RESERVED);
        exec_sr_fill32(blk, EXEC_SR_RES_CAP, EXEC_SMEM_RESERVED);
        exec_sr_fill32(blk, EXEC_SR_RES_OFF1, EXEC_SMEM_RES_BASE + EXEC_SMEM_RESERVED / 2);
        exec_sr_fill32(blk, EXEC_SR_CTARANK, 0);
        exec_sr_fill32(blk, EXEC_SR_NCTARANK, cd.x * cd.y * cd.z);
        exec_sr_fill32(blk, EXEC_SR_IS_EXPLICIT, (uint32_t)expl);
        memset(blk + EXEC_SR_ZERO * EXEC_SLOT, 0, EXEC_SLOT);
        for (int e = 0; e < 32; e++)
            exec_sr_fill32(blk, EXEC_SR_ENVREG + e, m->envreg[e]);
    }
}

void exec_sreg_init_cta(exec_machine *m)
{
    exec_dim3 c = m->cta.coord, cid, cct;
    uint32_t rank;
    exec_cluster_cta_ids(m, c, &cid, &cct, &rank);
    for (uint32_t k = 0; k < m->nwarps; k++) {
        uint8_t *blk = m->sregs + (size_t)k * EXEC_SR__COUNT * EXEC_SLOT;
        exec_sr_fill32(blk, EXEC_SR_CTAID, c.x);
        exec_sr_fill32(blk, EXEC_SR_CTAID + 1, c.y);
        exec_sr_fill32(blk, EXEC_SR_CTAID + 2, c.z);
        exec_sr_fill32(blk, EXEC_SR_CLUSTERID, cid.x);
        exec_sr_fill32(blk, EXEC_SR_CLUSTERID + 1, cid.y);
        exec_sr_fill32(blk, EXEC_SR_CLUSTERID + 2, cid.z);
        exec_sr_fill32(blk, EXEC_SR_CLUSTER_CTAID, cct.x);
        exec_sr_fill32(blk, EXEC_SR_CLUSTER_CTAID + 1, cct.y);
        exec_sr_fill32(blk, EXEC_SR_CLUSTER_CTAID + 2, cct.z);
        exec_sr_fill32(blk, EXEC_SR_CTARANK, rank);
        exec_sr_fill32(blk, EXEC_SR_SMID, m->cta.id % EXEC_NSM);
    }
}

/* Clocks: %clock64 counts 4 cycles per warp-instruction executed by the machine; the global
 * timer advances 1 ns per warp-instruction from a fixed epoch. Deterministic and monotonic. */
void exec_sreg_refresh(exec_warp *w, int slot)
{
    uint64_t now = exec_now(w);
    uint64_t clk = now * 4, gt = 1700000000000000000ull + now;
    uint8_t *blk = w->r.sregs;
    switch (slot) {
    case EXEC_SR_CLOCK: exec_sr_fill32(blk, slot, (uint32_t)clk); break;
    case EXEC_SR_CLOCK_HI: exec_sr_fill32(blk, slot, (uint32_t)(clk >> 32)); break;
    case EXEC_SR_CLOCK64: exec_sr_fill64(blk, slot, clk); break;
    case EXEC_SR_GTIMER: exec_sr_fill64(blk, slot, gt); break;
    case EXEC_SR_GTIMER_LO: exec_sr_fill32(blk, slot, (uint32_t)gt); break;
    case EXEC_SR_GTIMER_HI: exec_sr_fill32(blk, slot, (uint32_t)(gt >> 32)); break;
    default: break;
    }
}
