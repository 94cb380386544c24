/* cmd_rl.c - opening libreadline.so.8 at the first interactive prompt and finding what cmd_repl.c uses of it. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_rl.h"

static cmd_rl_api rl;
static int rl_state;   /* 0 not tried, 1 loaded, -1 unavailable */

/* Every name, or the first one missing (a readline too old or not readline at all). */
static const char *rl_find(void *h)
{
#define RL_SYM(f)                                                                                  \
    do {                                                                                           \
        *(void **)&rl.f = dlsym(h, #f);                                                            \
        if (!rl.f)                                                                                 \
            return #f;                                                                             \
    } while (0)
    RL_SYM(readline);
    RL_SYM(add_history);
    RL_SYM(history_get);
    RL_SYM(append_history);
    RL_SYM(read_history);
    RL_SYM(history_truncate_file);
    RL_SYM(using_history);
    RL_SYM(stifle_history);
    RL_SYM(rl_clear_history);
    RL_SYM(rl_completion_matches);
    RL_SYM(rl_replace_line);
    RL_SYM(rl_crlf);
    RL_SYM(rl_on_new_line);
    RL_SYM(rl_redisplay);
    RL_SYM(history_length);
    RL_SYM(history_base);
    RL_SYM(rl_outstream);
    RL_SYM(rl_line_buffer);
    RL_SYM(rl_point);
    RL_SYM(rl_end);
    RL_SYM(rl_mark);
    RL_SYM(rl_attempted_completion_over);
    RL_SYM(rl_completion_append_character);
    RL_SYM(rl_readline_name);
    RL_SYM(rl_attempted_completion_function);
    RL_SYM(rl_completion_word_break_hook);
    RL_SYM(rl_signal_event_hook);
#undef RL_SYM
    return NULL;
}

const cmd_rl_api *cmd_rl(void)
{
    if (rl_state)
        return rl_state > 0 ? &rl : NULL;
    rl_state = -1;
    const char *file = getenv("PTXDBG_READLINE");
    if (!file)
        file = "libreadline.so.8";
    if (!*file)
        return NULL;   /* asked for plain lines: nothing to say */
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        fprintf(stderr, "ptxdbg: %s; reading plain lines (no editing, history or completion)\n",
                why ? why : file);
        return NULL;
    }
    const char *missing = rl_find(h);
    if (missing) {
        fprintf(stderr, "ptxdbg: %s has no %s; reading plain lines (no editing, history or "
                        "completion)\n", file, missing);
        memset(&rl, 0, sizeof rl);
        dlclose(h);
        return NULL;
    }
    rl_state = 1;   /* h stays open for the process */
    return &rl;
}
