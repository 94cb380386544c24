/* rt_fatbin.c - the runtime's view of fat binaries: the engine's (dbg_target.h) for the device's
 * compute capability. */
#include "rt.h"

size_t rt_fatbin_size(const void *image, size_t maxlen)
{
    return dbg_fatbin_size(image, maxlen);
}

/* The emulated device's compute capability (rt_device.c defines the real one). */
__attribute__((weak)) int rt_device_cc(void)
{
    return 80;
}

int rt_fatbin_ptx(const void *image, size_t len, char **ptx, size_t *ptx_len, char *err,
                  size_t errlen)
{
    /* any failure, SASS only included, is -1 here */
    return dbg_fatbin_ptx(image, len, (unsigned)rt_device_cc(), ptx, ptx_len, err, errlen) ? -1
                                                                                          : 0;
}

int rt_fatbin_sass(const void *image, size_t len, uint8_t **elf, size_t *elf_len, char *err,
                   size_t errlen)
{
    return dbg_fatbin_sass(image, len, (unsigned)rt_device_cc(), elf, elf_len, err, errlen);
}
