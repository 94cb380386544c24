/* exec_alu.c - the decode helpers every ALU family shares (type and modifier parsing, rounding modes, operand decoding): used by the integer, float, half, compare, bit and conversion families, and using none of them. */
#include <stdint.h>
#include <string.h>
#include "exec_insn.h"
#include "exec_fp.h"

/* =============================================================================================
 * Shared decode helpers of the ALU families.
 * ============================================================================================= */
static const struct { const char *name; ptx_type t; } alu_types[] = {
    {"b8", PTX_T_B8}, {"b16", PTX_T_B16}, {"b32", PTX_T_B32}, {"b64", PTX_T_B64},
    {"b128", PTX_T_B128}, {"u8", PTX_T_U8}, {"u16", PTX_T_U16}, {"u32", PTX_T_U32},
    {"u64", PTX_T_U64}, {"s8", PTX_T_S8}, {"s16", PTX_T_S16}, {"s32", PTX_T_S32},
    {"s64", PTX_T_S64}, {"f16", PTX_T_F16}, {"f16x2", PTX_T_F16X2}, {"bf16", PTX_T_BF16},
    {"bf16x2", PTX_T_BF16X2}, {"tf32", PTX_T_TF32}, {"e4m3", PTX_T_E4M3}, {"e5m2", PTX_T_E5M2},
    {"e4m3x2", PTX_T_E4M3X2}, {"e5m2x2", PTX_T_E5M2X2}, {"f32", PTX_T_F32}, {"f64", PTX_T_F64},
    {"pred", PTX_T_PRED},
};
static const struct { const char *name; int bit; } alu_words[] = {
    {"rn", EXEC_M_RN}, {"rz", EXEC_M_RZ}, {"rm", EXEC_M_RM}, {"rp", EXEC_M_RP},
    {"rna", EXEC_M_RNA}, {"rs", EXEC_M_RS}, {"rni", EXEC_M_RNI}, {"rzi", EXEC_M_RZI},
    {"rmi", EXEC_M_RMI}, {"rpi", EXEC_M_RPI}, {"ftz", EXEC_M_FTZ}, {"sat", EXEC_M_SAT},
    {"satfinite", EXEC_M_SATFINITE}, {"relu", EXEC_M_RELU}, {"approx", EXEC_M_APPROX},
    {"full", EXEC_M_FULL}, {"cc", EXEC_M_CC}, {"lo", EXEC_M_LO}, {"hi", EXEC_M_HI},
    {"wide", EXEC_M_WIDE}, {"NaN", EXEC_M_NAN}, {"xorsign", EXEC_M_XORSIGN},
    {"abs", EXEC_M_ABS}, {"shiftamt", EXEC_M_SHIFTAMT}, {"l", EXEC_M_L}, {"r", EXEC_M_R},
    {"wrap", EXEC_M_WRAP}, {"clamp", EXEC_M_CLAMP}, {"and", EXEC_M_AND}, {"or", EXEC_M_OR},
    {"xor", EXEC_M_XOR}, {"f4e", EXEC_M_F4E}, {"b4e", EXEC_M_B4E}, {"rc8", EXEC_M_RC8},
    {"ecl", EXEC_M_ECL}, {"ecr", EXEC_M_ECR}, {"rc16", EXEC_M_RC16},
};
static const char *const alu_cmps[EXEC_CMP__COUNT] = {
    NULL, "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};
static const char *const alu_classes[] = {
    NULL, "finite", "infinite", "number", "notanumber", "normal", "subnormal",
};

int exec_alu_parse(exec_dec *d, const ptx_insn *pi, uint64_t allowed, exec_alu_mods *mo)
{
    memset(mo, 0, sizeof *mo);
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        int found = 0;
        for (size_t j = 0; j < sizeof alu_types / sizeof alu_types[0]; j++)
            if (!strcmp(s, alu_types[j].name)) {
                if (mo->ntypes == 4)
                    return exec_dec_error(d, pi, "too many type modifiers");
                mo->t[mo->ntypes++] = alu_types[j].t;
                found = 1;
                break;
            }
        if (found)
            continue;
        int bit = -1;
        for (size_t j = 0; j < sizeof alu_words / sizeof alu_words[0]; j++)
            if (!strcmp(s, alu_words[j].name)) {
                bit = alu_words[j].bit;
                break;
            }
        if (bit >= 0 && !(allowed >> bit & 1))
            bit = -1; /* e.g. .lo / .hi as comparison operators */
        if (bit < 0)
            for (int j = 1; j < EXEC_CMP__COUNT; j++)
                if (!strcmp(s, alu_cmps[j]) && (allowed & EXEC_MB(CMP))) {
                    if (mo->cmp)
                        return exec_dec_error(d, pi, "more than one comparison operator");
                    mo->cmp = j;
                    bit = EXEC_M_CMP;
                    break;
                }
        if (bit < 0)
            for (int j = 1; j <= EXEC_CLS_SUBNORMAL; j++)
                if (!strcmp(s, alu_classes[j]) && (allowed & EXEC_MB(CLASS))) {
                    mo->cls = j;
                    bit = EXEC_M_CLASS;
                    break;
                }
        if (bit < 0 || !(allowed >> bit & 1))
            return exec_dec_error(d, pi, "unsupported modifier .%s", s);
        if (mo->bits >> bit & 1)
            return exec_dec_error(d, pi, "repeated modifier .%s", s);
        mo->bits |= 1ull << bit;
    }
    uint64_t r = mo->bits & (EXEC_MB_RND | EXEC_MB(RNA) | EXEC_MB(RS));
    uint64_t ir = mo->bits & EXEC_MB_IRND;
    if ((r & (r - 1)) || (ir & (ir - 1)) || (r && ir))
        return exec_dec_error(d, pi, "more than one rounding modifier");
    return 0;
}

int exec_alu_rnd(const exec_alu_mods *mo, int def)
{
    if (mo->bits & EXEC_MB(RN)) return EXEC_RN;
    if (mo->bits & EXEC_MB(RZ)) return EXEC_RZ;
    if (mo->bits & EXEC_MB(RM)) return EXEC_RM;
    if (mo->bits & EXEC_MB(RP)) return EXEC_RP;
    if (mo->bits & EXEC_MB(RNA)) return EXEC_RNA;
    return def;
}

int exec_alu_irnd(const exec_alu_mods *mo, int def)
{
    if (mo->bits & EXEC_MB(RNI)) return EXEC_RN;
    if (mo->bits & EXEC_MB(RZI)) return EXEC_RZ;
    if (mo->bits & EXEC_MB(RMI)) return EXEC_RM;
    if (mo->bits & EXEC_MB(RPI)) return EXEC_RP;
    return def;
}

int exec_alu_bits(ptx_type t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: case PTX_T_E4M3: case PTX_T_E5M2: return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16:
    case PTX_T_E4M3X2: case PTX_T_E5M2X2: return 16;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F16X2: case PTX_T_BF16X2:
    case PTX_T_TF32: case PTX_T_F32: return 32;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64: return 64;
    case PTX_T_B128: return 128;
    case PTX_T_PRED: return 1;
    default: return 0;
    }
}

int exec_alu_ops(exec_dec *d, const ptx_insn *pi, exec_insn *in, int n, const ptx_type *types)
{
    if (pi->nops != n)
        return exec_dec_error(d, pi, "expects %d operands, got %d", n, pi->nops);
    for (int k = 0; k < n; k++) {
        int rc;
        if (types[k] == PTX_T_PRED)
            rc = k ? exec_dec_psrc(d, in, k, &pi->ops[k]) : exec_dec_pdst(d, in, k, &pi->ops[k]);
        else
            rc = k ? exec_dec_src(d, in, k, &pi->ops[k], types[k])
                   : exec_dec_dst(d, in, k, &pi->ops[k], types[k]);
        if (rc)
            return -1;
    }
    in->nops = (uint8_t)n;
    return 0;
}
