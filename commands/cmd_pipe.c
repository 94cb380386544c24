/* cmd_pipe.c - a debugged program's stdout and stderr as pipes its debugger reads and turns into output events (JSON mode's run, the DAP adapter). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "cmd_pipe.h"

static const char *const category[2] = {"stdout", "stderr"};

int cmd_pipes_open(cmd_pipes *p)
{
    memset(p, 0, sizeof *p);
    int a[2], b[2];
    if (pipe(a) != 0)
        return -1;
    if (pipe(b) != 0) {
        close(a[0]);
        close(a[1]);
        return -1;
    }
    p->fd[0] = a[0];
    p->wfd[0] = a[1];
    p->fd[1] = b[0];
    p->wfd[1] = b[1];
    return 0;
}

void cmd_pipes_child(cmd_pipes *p)
{
    close(p->fd[0]);
    close(p->fd[1]);
    for (int k = 0; k < 2; k++) {
        dup2(p->wfd[k], k + 1);
        if (p->wfd[k] != k + 1)
            close(p->wfd[k]);
    }
}

void cmd_pipes_parent(cmd_pipes *p)
{
    for (int k = 0; k < 2; k++) {
        close(p->wfd[k]);
        p->wfd[k] = -1;
        fcntl(p->fd[k], F_SETFD, FD_CLOEXEC);
        /* drained without blocking (cmd_pipes_drain); poll says when there is more */
        fcntl(p->fd[k], F_SETFL, fcntl(p->fd[k], F_GETFL) | O_NONBLOCK);
    }
}

int cmd_pipes_poll(const cmd_pipes *p, struct pollfd *fds, int idx[2])
{
    int n = 0;
    for (int k = 0; k < 2; k++) {
        idx[k] = -1;
        if (p->fd[k] >= 0) {
            idx[k] = n;
            fds[n++] = (struct pollfd){p->fd[k], POLLIN, 0};
        }
    }
    return n;
}

/* The bytes at the end of b[0..n) that start a UTF-8 sequence not complete yet (0..3): held
 * back for the next read, so a character split across two reads is not two bad bytes. */
static size_t utf8_tail(const unsigned char *b, size_t n)
{
    for (size_t back = 1; back <= 3 && back <= n; back++) {
        unsigned ch = b[n - back];
        if ((ch & 0xc0) == 0x80)
            continue;         /* a continuation byte: look further back for the lead */
        size_t want = ch >= 0xf0 && ch <= 0xf4 ? 4 : ch >= 0xe0 && ch < 0xf0 ? 3
                      : ch >= 0xc2 && ch < 0xe0 ? 2 : 1;
        return want > back ? back : 0;
    }
    return 0;
}

/* One read of stream k: 1 read something, 0 nothing now, -1 the end (closed). */
static int read_one(cmd_pipes *p, int k, cmd_pipe_emit emit, void *ctx)
{
    char buf[65536 + 4];
    size_t have = p->ncarry[k];
    memcpy(buf, p->carry[k], have);
    ssize_t r = read(p->fd[k], buf + have, sizeof buf - 4);
    if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;
    if (r <= 0) {             /* the end: what was held goes out as it is */
        if (have)
            emit(ctx, category[k], buf, have);
        p->ncarry[k] = 0;
        close(p->fd[k]);
        p->fd[k] = -1;
        return -1;
    }
    size_t n = have + (size_t)r;
    size_t hold = utf8_tail((const unsigned char *)buf, n);
    memcpy(p->carry[k], buf + n - hold, hold);
    p->ncarry[k] = (int)hold;
    if (n > hold)
        emit(ctx, category[k], buf, n - hold);
    return 1;
}

void cmd_pipes_read(cmd_pipes *p, const struct pollfd *fds, const int idx[2],
                    cmd_pipe_emit emit, void *ctx)
{
    for (int k = 0; k < 2; k++)
        if (idx[k] >= 0 && p->fd[k] >= 0 && fds[idx[k]].revents)
            read_one(p, k, emit, ctx);
}

void cmd_pipes_drain(cmd_pipes *p, cmd_pipe_emit emit, void *ctx)
{
    for (int k = 0; k < 2; k++) {
        /* bounded: a program writing without pause cannot hold the caller here for ever */
        for (int i = 0; i < 64 && p->fd[k] >= 0; i++)
            if (read_one(p, k, emit, ctx) <= 0)
                break;
    }
}

int cmd_pipes_done(const cmd_pipes *p)
{
    return p->fd[0] < 0 && p->fd[1] < 0;
}

void cmd_pipes_close(cmd_pipes *p)
{
    for (int k = 0; k < 2; k++) {
        if (p->fd[k] >= 0)
            close(p->fd[k]);
        if (p->wfd[k] >= 0)
            close(p->wfd[k]);
        p->fd[k] = p->wfd[k] = -1;
    }
}
