/* cmd_rl.h - GNU readline loaded at the first interactive prompt (dlopen), so neither ptxdbg nor the runtime library needs it to start. */
#ifndef CMD_RL_H
#define CMD_RL_H

#include <stdio.h>
#include <readline/history.h>
#include <readline/readline.h>

/* ---------------------------------------------------------------------------------------------
 * The terminal's line editing, history and completion come from libreadline.so.8, opened the
 * first time a prompt is read from a terminal. Nothing links it: the runtime library
 * (libcudart.so.13, which hosts the CLI inside a debugged program) has no DT_NEEDED on it, and a
 * program run without the debugger never loads it. When it cannot be opened, the prompt reads
 * plain lines (said once on stderr). The headers give the types only.
 * ------------------------------------------------------------------------------------------- */
typedef struct {
    char *(*readline)(const char *prompt);
    void (*add_history)(const char *line);
    HIST_ENTRY *(*history_get)(int offset);
    int (*append_history)(int n, const char *file);
    int (*read_history)(const char *file);
    int (*history_truncate_file)(const char *file, int lines);
    void (*using_history)(void);
    void (*stifle_history)(int max);
    void (*rl_clear_history)(void);
    char **(*rl_completion_matches)(const char *text, rl_compentry_func_t *fn);
    void (*rl_replace_line)(const char *text, int clear_undo);
    int (*rl_crlf)(void);
    int (*rl_on_new_line)(void);
    void (*rl_redisplay)(void);
    /* readline's variables */
    int *history_length, *history_base;
    FILE **rl_outstream;
    char **rl_line_buffer;
    int *rl_point, *rl_end, *rl_mark;
    int *rl_attempted_completion_over, *rl_completion_append_character;
    const char **rl_readline_name;
    rl_completion_func_t **rl_attempted_completion_function;
    rl_cpvfunc_t **rl_completion_word_break_hook;
    rl_hook_func_t **rl_signal_event_hook;
} cmd_rl_api;

/* readline, loaded on the first call (PTXDBG_READLINE names another file to open, "" none);
 * NULL when it cannot be, said once on stderr. Later calls give the same answer. */
const cmd_rl_api *cmd_rl(void);

#endif
