/* cmd_pipe.h - a debugged program's stdout and stderr as pipes its debugger turns into output events. */
#ifndef CMD_PIPE_H
#define CMD_PIPE_H

#include <poll.h>
#include <stddef.h>

/* The one mechanism of both front ends that run a CUDA program in a child process and report
 * its output as it is written: JSON mode's `run` ({"event":"output",...}, cmd_prog.c) and the
 * DAP adapter (output events, dap_prog.c). The program's stdout and stderr are pipes; the
 * debugger polls them with its other descriptors and, before it passes on anything the
 * program's session wrote (a stop), drains them, so the output written before a stop comes
 * before it. A UTF-8 character split between two reads is held back until it is whole. */
typedef void (*cmd_pipe_emit)(void *ctx, const char *category, const char *text, size_t n);

typedef struct cmd_pipes {
    int fd[2];                /* the read ends: the program's stdout, stderr (-1: at the end) */
    int wfd[2];               /* the write ends, until the child has them (-1 after) */
    char carry[2][4];         /* the start of a UTF-8 character the next read completes */
    int ncarry[2];
} cmd_pipes;

/* Before fork: the two pipes (0, or -1 with errno set). */
int cmd_pipes_open(cmd_pipes *p);
/* In the child after fork: the write ends become its stdout and stderr. */
void cmd_pipes_child(cmd_pipes *p);
/* In the parent after fork: the write ends closed, the read ends close-on-exec, non-blocking. */
void cmd_pipes_parent(cmd_pipes *p);
/* The open read ends as pollfds at fds (returns how many); idx[k]: the position of stream k
 * (0 stdout, 1 stderr) or -1. */
int cmd_pipes_poll(const cmd_pipes *p, struct pollfd *fds, int idx[2]);
/* After poll: one read of each stream that is ready, stdout first; emit gets the text with its
 * category ("stdout", "stderr"). */
void cmd_pipes_read(cmd_pipes *p, const struct pollfd *fds, const int idx[2],
                    cmd_pipe_emit emit, void *ctx);
/* Everything the streams hold now, without waiting: call it before passing on what the
 * program's session wrote. */
void cmd_pipes_drain(cmd_pipes *p, cmd_pipe_emit emit, void *ctx);
/* Both streams are at their end. */
int cmd_pipes_done(const cmd_pipes *p);
void cmd_pipes_close(cmd_pipes *p);

#endif
