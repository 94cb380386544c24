/* dap_prog.c - the adapter's side of a CUDA program's DAP session (placeholder during bring-up). */
#include <fcntl.h>
#include <unistd.h>
#include "dap_prog.h"

int dap_prog_is_executable(const char *path)
{
    unsigned char h[20];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, h, sizeof h);
    close(fd);
    return n == 20 && h[0] == 0x7f && h[1] == 'E' && h[2] == 'L' && h[3] == 'F' &&
           (h[18] | h[19] << 8) != 190;
}

void dap_prog_launch(dap_srv *d, const dj *req, const dj *args)
{
    (void)args;
    dap_respond_err(d, req, "launch: CUDA programs are not supported yet.");
}

void dap_prog_serve(dap_srv *d, dap_reader *in) { (void)d; (void)in; }
void dap_prog_free(dap_srv *d) { (void)d; }
