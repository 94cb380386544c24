/* cu_hash.c - the static CUDA runtime's driver check: HMAC over MD2 (RFC 1319, RFC 2104). */
#include <string.h>
#include "cu_hash.h"

/* RFC 1319's substitution table: a permutation of 0..255 built from the digits of pi. */
static const unsigned char md2_s[256] = {
    41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19,
    98, 167, 5, 243, 192, 199, 115, 140, 152, 147, 43, 217, 188, 76, 130, 202,
    30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111, 24, 138, 23, 229, 18,
    190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122,
    169, 104, 121, 145, 21, 178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33,
    128, 127, 93, 154, 90, 144, 50, 39, 53, 62, 204, 231, 191, 247, 151, 3,
    255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42, 172, 86, 170, 198,
    79, 184, 56, 210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4, 241,
    69, 157, 112, 89, 100, 113, 135, 32, 134, 91, 207, 101, 230, 45, 168, 2,
    27, 96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15,
    85, 71, 163, 35, 221, 81, 175, 58, 195, 92, 249, 206, 186, 197, 234, 38,
    44, 83, 13, 110, 133, 40, 132, 9, 211, 223, 205, 244, 65, 129, 77, 82,
    106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74,
    120, 136, 149, 139, 227, 99, 232, 109, 233, 203, 213, 254, 59, 0, 29, 57,
    242, 239, 183, 14, 102, 88, 208, 228, 166, 119, 114, 248, 235, 117, 75, 10,
    49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51, 159, 17, 131, 20
};

void cu_md2_init(cu_md2 *h)
{
    memset(h, 0, sizeof *h);
}

/* One 16-byte block: the checksum update, then 18 rounds over the 48-byte state. */
static void md2_block(cu_md2 *h, const unsigned char *blk)
{
    unsigned char l = h->c[15];
    for (int j = 0; j < 16; j++) {
        h->x[16 + j] = blk[j];
        h->x[32 + j] = (unsigned char)(blk[j] ^ h->x[j]);
        l = h->c[j] ^= md2_s[blk[j] ^ l];
    }
    unsigned t = 0;
    for (int round = 0; round < 18; round++) {
        for (int k = 0; k < 48; k++)
            t = h->x[k] ^= md2_s[t];
        t = (t + (unsigned)round) & 0xff;
    }
}

void cu_md2_update(cu_md2 *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n--) {
        h->buf[h->n++] = *p++;
        if (h->n == 16) {
            md2_block(h, h->buf);
            h->n = 0;
        }
    }
}

void cu_md2_final(cu_md2 *h, unsigned char digest[16])
{
    unsigned char pad[16];
    unsigned k = 16 - h->n;                     /* 1..16 bytes, each the count */
    memset(pad, (int)k, k);
    cu_md2_update(h, pad, k);
    unsigned char c[16];
    memcpy(c, h->c, 16);
    cu_md2_update(h, c, 16);
    memcpy(digest, h->x, 16);
}

void cu_hmac_md2_begin(cu_md2 *h, const unsigned char key[16])
{
    unsigned char k[16];
    for (int i = 0; i < 16; i++)
        k[i] = key[i] ^ 0x36;
    cu_md2_init(h);
    cu_md2_update(h, k, 16);
}

void cu_hmac_md2_end(cu_md2 *h, const unsigned char key[16], unsigned char mac[16])
{
    unsigned char inner[16], k[16];
    cu_md2_final(h, inner);
    for (int i = 0; i < 16; i++)
        k[i] = key[i] ^ 0x5c;
    cu_md2_init(h);
    cu_md2_update(h, k, 16);
    cu_md2_update(h, inner, 16);
    cu_md2_final(h, mac);
}
