/* fileck.h - refuse what is not a regular file (directories, devices, FIFOs) before reading it. */
#ifndef FILECK_H
#define FILECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Largest PTX file ptx_parse_file reads (1 GiB). */
#define FILECK_PTX_MAX ((uint64_t)1 << 30)

/* 0 when `path` names a regular file of at most `limit` bytes (0: any size), its size in *size
 * (may be NULL). Otherwise -1 with the reason, without the path or a final period, in why:
 * "Is a directory", "not a regular file", "file too large (N bytes; the limit is M)", or
 * strerror(errno) ("No such file or directory") when it cannot be examined. Never blocks
 * (a FIFO is not opened). */
int fileck_regular(const char *path, uint64_t limit, uint64_t *size, char *why, size_t n);

/* The whole contents of the file at path, NUL-terminated (malloc'd; *len bytes, the NUL not
 * counted); NULL when it cannot be opened, is larger than 64 MB, or memory runs out. */
char *fileck_read_all(const char *path, size_t *len);
/* The same for what is left to read from f (a file or a pipe; len may be NULL); f stays open. */
char *fileck_read_stream(FILE *f, size_t *len);

/* The reason text for a file that grew past `limit` while it was read. */
void fileck_too_large(uint64_t got, uint64_t limit, char *why, size_t n);

#endif
