/* ptx_num.h - f32 -> f16 / bf16 bit conversions shared by the parser (variable initializers)
 * and the decoder (immediate operands): round to nearest even, NaN kept quiet with its sign. */
#ifndef PTX_NUM_H
#define PTX_NUM_H

#include <stdint.h>
#include <string.h>

static inline uint16_t ptx_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int e = (int)((x >> 23) & 0xff);
    uint32_t man = x & 0x7fffffu;
    if (e == 255)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    int ne = e - 127 + 15;
    if (ne >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (ne <= 0) {
        if (ne < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        int shift = 14 - ne;
        uint32_t r = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (r & 1)))
            r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = ((uint32_t)ne << 10) | (man >> 13), rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1)))
        r++;
    return (uint16_t)(sign | r);
}

static inline uint16_t ptx_f32_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

#endif
