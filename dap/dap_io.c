/* dap_io.c - DAP framing: read "Content-Length" messages with bounds, write them whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "dap_io.h"

void dap_reader_init(dap_reader *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
}

void dap_reader_free(dap_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->len = r->cap = 0;
}

/* Read what is there into the buffer: 1 got bytes, 0 end of input, 2 would block, -1 error. */
static int fill(dap_reader *r)
{
    if (r->eof)
        return 0;
    if (r->cap - r->len < 65536) {
        size_t cap = r->cap ? r->cap : 65536;
        while (cap - r->len < 65536)
            cap *= 2;
        char *nb = realloc(r->buf, cap + 1);
        if (!nb)
            return -1;
        r->buf = nb;
        r->cap = cap;
    }
    for (;;) {
        ssize_t got = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (got > 0) {
            r->len += (size_t)got;
            return 1;
        }
        if (got == 0) {
            r->eof = 1;
            return 0;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return 2;
        r->eof = 1;
        return 0;
    }
}

static void drop(dap_reader *r, size_t n)
{
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
}

static const char *find_blank(const char *p, size_t n)
{
    for (size_t i = 0; i + 3 < n; i++)
        if (p[i] == '\r' && p[i + 1] == '\n' && p[i + 2] == '\r' && p[i + 3] == '\n')
            return p + i;
    return NULL;
}

/* Content-Length of a header block (hl bytes); -1 when absent or malformed. */
static long long content_length(const char *h, size_t hl)
{
    long long found = -1;
    const char *end = h + hl;
    while (h < end) {
        const char *eol = h;
        while (eol < end && *eol != '\r')
            eol++;
        static const char key[] = "Content-Length:";
        size_t kl = sizeof key - 1;
        if ((size_t)(eol - h) > kl && !strncasecmp(h, key, kl)) {
            const char *q = h + kl;
            while (q < eol && *q == ' ')
                q++;
            if (q == eol)
                return -1;
            unsigned long long v = 0;
            for (; q < eol; q++) {
                if (*q < '0' || *q > '9' || v > (1ull << 50))
                    return -1;
                v = v * 10 + (unsigned)(*q - '0');
            }
            found = (long long)v;
        }
        h = eol + 2;
    }
    return found;
}

int dap_reader_ready(const dap_reader *r)
{
    if (r->eof || r->skip)
        return 1;
    const char *b = find_blank(r->buf, r->len);
    if (!b)
        return r->len >= DAP_MAX_HEADER;
    long long cl = content_length(r->buf, (size_t)(b - r->buf));
    size_t hl = (size_t)(b - r->buf) + 4;
    return cl < 0 || cl > (long long)DAP_MAX_BODY || r->len >= hl + (size_t)cl;
}

int dap_read_msg(dap_reader *r, char **body, size_t *n, char *err, size_t errn, int nonblock)
{
    *body = NULL;
    *n = 0;
    for (;;) {
        if (r->skip) { /* the rest of an oversized body */
            size_t k = r->len < r->skip ? r->len : (size_t)r->skip;
            drop(r, k);
            r->skip -= k;
            if (r->skip == 0) {
                snprintf(err, errn, "message body longer than %u bytes skipped", DAP_MAX_BODY);
                return -1;
            }
        } else {
            const char *b = r->len ? find_blank(r->buf, r->len) : NULL;
            if (b) {
                size_t hl = (size_t)(b - r->buf) + 4;
                long long cl = content_length(r->buf, hl - 4);
                if (cl < 0) {
                    drop(r, hl);
                    snprintf(err, errn, "header without a valid Content-Length skipped");
                    return -1;
                }
                if (cl > (long long)DAP_MAX_BODY) {
                    drop(r, hl);
                    r->skip = (unsigned long long)cl;
                    continue;
                }
                if (r->len >= hl + (size_t)cl) {
                    char *m = malloc((size_t)cl + 1);
                    if (!m) {
                        drop(r, hl + (size_t)cl);
                        snprintf(err, errn, "out of memory for a message");
                        return -1;
                    }
                    memcpy(m, r->buf + hl, (size_t)cl);
                    m[cl] = 0;
                    drop(r, hl + (size_t)cl);
                    *body = m;
                    *n = (size_t)cl;
                    return 1;
                }
            } else if (r->len >= DAP_MAX_HEADER) {
                r->len = 0;
                snprintf(err, errn, "header longer than %d bytes skipped", DAP_MAX_HEADER);
                return -1;
            }
        }
        if (r->eof) {
            if (r->len || r->skip) {
                r->len = 0;
                r->skip = 0;
                snprintf(err, errn, "input ended inside a message");
                return -1;
            }
            return 0;
        }
        int f = fill(r);
        if (f == 2 && nonblock)
            return 2;
        if (f < 0) {
            snprintf(err, errn, "out of memory reading a message");
            r->len = 0;
            return -1;
        }
    }
}

int dap_write_msg(int fd, const char *body, size_t n)
{
    char head[64];
    int hl = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
    const char *parts[2] = {head, body};
    size_t lens[2] = {(size_t)hl, n};
    for (int i = 0; i < 2; i++) {
        size_t off = 0;
        while (off < lens[i]) {
            ssize_t w = write(fd, parts[i] + off, lens[i] - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return -1;
            off += (size_t)w;
        }
    }
    return 0;
}
