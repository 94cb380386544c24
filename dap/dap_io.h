/* dap_io.h - DAP base protocol framing: "Content-Length: N\r\n\r\n" + N bytes of JSON, over file descriptors. */
#ifndef DAP_IO_H
#define DAP_IO_H

#include <stddef.h>

#define DAP_MAX_HEADER 4096           /* bytes of one header block */
#define DAP_MAX_BODY (16u << 20)      /* bytes of one message body */

/* A buffered reader of framed messages from one descriptor. */
typedef struct {
    int fd;
    char *buf;
    size_t len, cap;
    int eof;
    unsigned long long skip;  /* bytes of an oversized body still to discard */
} dap_reader;

void dap_reader_init(dap_reader *r, int fd);
void dap_reader_free(dap_reader *r);
/* The next message body (malloc'd, NUL-terminated, *n bytes). Returns 1 with a message, 0 at
 * the end of the input, -1 for a framing error that was skipped (message in err; the reader
 * stays usable: a bad header block is dropped up to its blank line, a body longer than
 * DAP_MAX_BODY is read and discarded without being stored). nonblock: return 2 at once when a
 * whole message is not available yet (the descriptor must then be non-blocking). */
int dap_read_msg(dap_reader *r, char **body, size_t *n, char *err, size_t errn, int nonblock);
/* Whether a whole message (or the end, or an error) is buffered, so dap_read_msg will not
 * block. */
int dap_reader_ready(const dap_reader *r);
/* Write one framed message; 0 or -1 (the peer is gone). */
int dap_write_msg(int fd, const char *body, size_t n);

#endif
