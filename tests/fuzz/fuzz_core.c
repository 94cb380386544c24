/* fuzz_core.c - libFuzzer harness: the core-file loader (core-file FILE) on mutated core files. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "exec.h"
#include "fuzz_module.h"

/* The input is a whole core file. At startup the harness writes a real one: a small module
 * (loop, device call, shared, local and const memory) launched as work<<<2, 32>>> and stopped
 * at a breakpoint inside the device function, saved with generate-core-file. Each input is
 * written to a scratch file and opened as `core-file` opens it (cmd_core_open -> dbg_core_load
 * -> exec_core_open/exec_core_restore + the debugger's sections, then the banner); when it
 * opens, a few inspection commands run on the postmortem session.
 *
 * The loader checks a CRC-32 and the length in the header before it decodes anything, and it
 * has no switch to skip them, so the harness rewrites both (bytes 16..23 = the input's size,
 * the last 4 bytes = exec_crc32 of the rest) unless the input's byte 12 (the header's flags,
 * 0 in real cores) has bit 7 set: those inputs reach the loader as they are, so the
 * magic/version/length/checksum checks stay exercised too.
 *
 * FUZZ_CORE_SEEDS=DIR writes the generated core and a few truncations of it into DIR and
 * exits (tests/fuzz.sh seeds the corpus this way). FUZZ_VERBOSE=1 keeps the session's output. */

static const char module[] =
    FUZZ_MODULE_HEAD
    ".func (.param .b32 r) twice(.param .b32 a)\n{\n"
    "\t.local .align 4 .b8 fdepot[8];\n"
    "\t.reg .b32 %t<3>;\n\t.reg .b64 %tl<2>;\n\tld.param.b32 %t1, [a];\n"
    "\tmov.u64 %tl1, fdepot;\n\tst.local.u32 [%tl1], %t1;\n\tshl.b32 %t2, %t1, 1;\n"
    "\tst.param.b32 [r], %t2;\n\tret;\n}\n"
    FUZZ_MODULE_WORK;

static const char *const make_cmds[] = {
    "buffer out f32 128",
    "buffer in s32 16 = iota",
    "break twice",
    "break work if %tid.x == 9999",
    "display %tid.x",
    "launch work<<<2, 32>>>(out, 5, 1.5)",
};

/* Run on a successfully opened core: what a user does next. */
static const char *const inspect_cmds[] = {
    "info cuda kernels", "info trap", "bt", "info registers", "info warps", "print out[3]",
    "x/1xw &gcount", "info breakpoints", "cuda thread 7", "frame 1", "info locals",
    "continue",
};

static uint8_t *core;      /* the generated core file */
static size_t core_len;
static char scratch[4096]; /* where each input is written */

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb)
                abort();
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (!r)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "fuzz_core: cannot write %s\n", path);
        abort();
    }
}

static void remove_scratch(void)
{
    unlink(scratch);
}

static void make_core(void)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(scratch, sizeof scratch, "%s/fuzz_core.%ld", dir, (long)getpid());
    dbg_session *s = dbg_new();
    if (!s)
        abort();
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    if (dbg_load_text(s, module, sizeof module - 1, "fuzz_core.ptx") != 0)
        abort();
    for (size_t i = 0; i < sizeof make_cmds / sizeof make_cmds[0]; i++)
        cmd_execute(&c, make_cmds[i]);
    if (dbg_core_save(s, scratch) != 0) {
        fprintf(stderr, "fuzz_core: generate-core-file failed: %s\n", dbg_errmsg(s));
        abort();
    }
    cmd_ctx_free(&c);
    dbg_free(s);
    core = (uint8_t *)read_all(scratch, &core_len);
    if (!core || core_len < 36)
        abort();
    atexit(remove_scratch);
}

static void write_seeds(const char *dir)
{
    static const int cuts[] = {1000, 999, 750, 500, 250, 100}; /* per mille of the size */
    char path[8192];
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        snprintf(path, sizeof path, "%s/core-%d", dir, cuts[i]);
        write_file(path, core, core_len * (size_t)cuts[i] / 1000);
    }
    snprintf(path, sizeof path, "%s/core-header", dir);
    write_file(path, core, 36);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!getenv("FUZZ_VERBOSE")) {
        if (!freopen("/dev/null", "w", stdout))
            abort();
        FILE *null = fopen("/dev/null", "w"); /* libFuzzer and the sanitizers keep fd 2 */
        if (null)
            stderr = null;
    }
    make_core();
    const char *seeds = getenv("FUZZ_CORE_SEEDS");
    if (seeds && *seeds) {
        write_seeds(seeds);
        exit(0);
    }
    return 0;
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    if (size >= 36 && !(buf[12] & 0x80)) {
        put_u64(buf + 16, size);
        uint32_t crc = exec_crc32(0, buf, size - 4);
        for (int i = 0; i < 4; i++)
            buf[size - 4 + (size_t)i] = (uint8_t)(crc >> (8 * i));
    }
    write_file(scratch, buf, size);
    free(buf);

    dbg_session *s = dbg_new();
    if (!s)
        return 0;
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    dbg_opts(s)->run_max_steps = 1000;
    dbg_opts(s)->max_steps = 1000;
    if (cmd_core_open(&c, scratch) == 0)
        for (size_t i = 0; i < sizeof inspect_cmds / sizeof inspect_cmds[0]; i++)
            cmd_execute(&c, inspect_cmds[i]);
    fflush(stdout);
    cmd_ctx_free(&c);
    dbg_free(s);
    return 0;
}
