/* cmd_ophelp.c - help on PTX instructions: `help instructions [NAME]` and `help OPCODE`, read from the opcode table. */
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"
#include "dbg_ops.h"

/* The instruction's summary, family and properties. */
static void describe(cmd_ctx *c, int i)
{
    dbg_opcode op;
    char props[256];
    dbg_opcode_get(i, &op);
    dbg_opcode_props(i, props, sizeof props);
    cmd_ui_textf(c, "%s -- %s\n", op.name, op.summary);
    cmd_ui_textf(c, "PTX instruction of family %s.\n", op.family);
    if (props[0])
        cmd_ui_textf(c, "Properties: %s.\n", props);
    cmd_ui_textf(c,
        "Typed at the prompt, with its modifiers and operands, it runs in the PTX REPL.\n");
}

int cmd_help_opcode(cmd_ctx *c, const char *name)
{
    int i = dbg_opcode_find(name);
    if (i < 0)
        return -1;
    describe(c, i);
    return 0;
}

int cmd_help_instructions(cmd_ctx *c, int argc, char **argv)
{
    if (argc > 0) {
        if (cmd_help_opcode(c, argv[0]) == 0)
            return 0;
        return cmd_error(c, "Undefined PTX instruction: \"%s\".  Try \"help instructions\".",
                         argv[0]);
    }
    cmd_ui_textf(c, "PTX instructions, by family (typed at the prompt they run in the PTX REPL; "
           "\"help instructions NAME\" describes one):\n");
    int n = dbg_opcode_count();
    dbg_opcode op, prev;
    for (int i = 0; i < n; i++) {
        dbg_opcode_get(i, &op);
        int seen = 0;   /* rows of one family are listed together, in table order */
        for (int j = 0; j < i && !seen; j++) {
            dbg_opcode_get(j, &prev);
            seen = !strcmp(prev.family, op.family);
        }
        if (seen)
            continue;
        cmd_ui_textf(c, "\n%s:\n", op.family);
        for (int j = i; j < n; j++) {
            dbg_opcode_get(j, &prev);
            if (!strcmp(prev.family, op.family))
                cmd_ui_textf(c, "  %-14s -- %s\n", prev.name, prev.summary);
        }
    }
    return 0;
}
