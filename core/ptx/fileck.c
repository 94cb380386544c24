/* fileck.c - refuse what is not a regular file (directories, devices, FIFOs) before reading it; read one whole. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fileck.h"

void fileck_too_large(uint64_t got, uint64_t limit, char *why, size_t n)
{
    snprintf(why, n, "file too large (%" PRIu64 " bytes; the limit is %" PRIu64 ")", got, limit);
}

int fileck_regular(const char *path, uint64_t limit, uint64_t *size, char *why, size_t n)
{
    struct stat st;
    if (!path || stat(path, &st) != 0) {
        snprintf(why, n, "%s", strerror(path ? errno : EINVAL));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(why, n, "Is a directory");
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, n, "not a regular file");
        return -1;
    }
    if (limit && (uint64_t)st.st_size > limit) {
        fileck_too_large((uint64_t)st.st_size, limit, why, n);
        return -1;
    }
    if (size)
        *size = (uint64_t)st.st_size;
    return 0;
}

char *fileck_read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = fileck_read_stream(f, len);
    fclose(f);
    return buf;
}

char *fileck_read_stream(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
        if (n == cap) {
            char *nb = cap > (64u << 20) ? NULL : realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (buf)
        buf[n] = 0;
    if (len)
        *len = buf ? n : 0;
    return buf;
}
