/* cmd_complete.h - tab completion of command lines (used by the readline REPL, testable alone). */
#ifndef CMD_COMPLETE_H
#define CMD_COMPLETE_H

#include "cmd.h"

enum {
    CMD_COMPLETE_FILES = 1,   /* the word is a file name: let the line editor complete paths */
};

/* Characters that end the word being completed when the cursor is at `point` in `line`:
 * expressions break at operators, file names only at blanks and quotes, the rest at blanks. */
const char *cmd_complete_breaks(const char *line, int point);

/* Start of the word being completed at `point` (using cmd_complete_breaks). */
int cmd_complete_word_start(const char *line, int point);

/* Candidates for the word line[start, end): every command name, sub-command, setting, function
 * (mangled and demangled), source file, register, special register, breakpoint or display
 * number, buffer, source variable or struct member that fits the context and begins with the
 * word. Returns a NULL-terminated, sorted array without duplicates (free with
 * cmd_complete_free; NULL only when out of memory); *flags receives CMD_COMPLETE_*. */
char **cmd_complete(cmd_ctx *c, const char *line, int start, int end, int *flags);
void cmd_complete_free(char **v);

#endif
