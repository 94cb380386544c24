/* cu_hash.h - MD2 (RFC 1319) and HMAC-MD2 with a 16-byte key, for the driver check. */
#ifndef CU_HASH_H
#define CU_HASH_H

#include <stddef.h>

typedef struct {
    unsigned char x[48];        /* state */
    unsigned char c[16];        /* checksum */
    unsigned char buf[16];      /* pending input */
    unsigned n;                 /* bytes in buf */
} cu_md2;

void cu_md2_init(cu_md2 *h);
void cu_md2_update(cu_md2 *h, const void *data, size_t n);
void cu_md2_final(cu_md2 *h, unsigned char digest[16]);
/* HMAC (RFC 2104) with MD2's 16-byte block: begin, cu_md2_update the message, end. */
void cu_hmac_md2_begin(cu_md2 *h, const unsigned char key[16]);
void cu_hmac_md2_end(cu_md2 *h, const unsigned char key[16], unsigned char mac[16]);

#endif
