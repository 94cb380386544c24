/* cmd_table.c - the command table (one source of truth), lookup, dispatch, help, set/show/info. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_prog.h"
#include "cmd_ui.h"

#define NOSUB NULL

const cmd_def cmd_info_table[] = {
    {"breakpoints", "b break watchpoints", cmd_info_breakpoints, 0, -1, "info breakpoints [N...]",
     "Status of breakpoints and watchpoints (hit counts, conditions).",
     CMD_CLASS_BREAKPOINTS, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"registers", "r all-registers", cmd_info_registers, 0, -1, "info registers [REG...]",
     "Registers of the focused lane (all declared ones, or those named).",
     CMD_CLASS_DATA, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"display", "", cmd_info_display, 0, 0, "info display",
     "Expressions to display when the program stops.",
     CMD_CLASS_DATA, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"functions", "", cmd_info_functions, 0, 1, "info functions [REGEXP]",
     "Kernels and device functions of the module.",
     CMD_CLASS_STATUS, CMD_F_NEEDS_MODULE | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"buffers", "", cmd_info_buffers, 0, 0, "info buffers",
     "Global buffers: name, type, count, address.",
     CMD_CLASS_STATUS, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"textures", "surfaces", cmd_info_textures, 0, 0, "info textures",
     "Texture and surface objects (handle, buffer, format, sampling) and bindings.",
     CMD_CLASS_STATUS, 0, NOSUB},
    {"frame", "f", cmd_info_frame, 0, 0, "info frame", "The selected frame.",
     CMD_CLASS_STACK, CMD_F_NEEDS_STACK | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"locals", "", cmd_info_locals, 0, 0, "info locals",
     "Local variables of the selected frame (innermost blocks first).",
     CMD_CLASS_STACK, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"args", "", cmd_info_args, 0, 0, "info args", "Arguments of the selected frame.",
     CMD_CLASS_STACK, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"scope", "", cmd_info_scope, 1, -1, "info scope LOCATION",
     "Variables visible at LOCATION and where they live.", CMD_CLASS_STATUS, CMD_F_MODEL_ONLY,
     NOSUB},
    {"line", "", cmd_info_line, 0, -1, "info line [LOCATION]",
     "Addresses of the code of a source line (default: the current line).",
     CMD_CLASS_STATUS, CMD_F_NEEDS_MODULE | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY,
     NOSUB},
    {"source", "", cmd_info_source, 0, 0, "info source", "The current source file.",
     CMD_CLASS_FILES, CMD_F_NEEDS_MODULE | CMD_F_MODEL_ONLY, NOSUB},
    {"address", "", cmd_info_address, 1, 1, "info address VAR",
     "Where VAR lives: a register, or a state space and address.", CMD_CLASS_DATA, 0, NOSUB},
    {"warps", "", cmd_info_warps, 0, -1, "info warps [FILTER]",
     "Warps of the focused block (FILTER: device|sm|warp|lane|kernel|grid N, block|thread (X,Y,Z); "
     "values may be current, any or *): PC, line, masks, barrier.",
     CMD_CLASS_CUDA, CMD_F_NEEDS_KERNEL | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"lanes", "", cmd_info_lanes, 0, -1, "info lanes [FILTER | EXPR]",
     "Lanes of the focused warp (state, PC, thread; FILTER as for info warps), or EXPR per lane.",
     CMD_CLASS_CUDA, CMD_F_NEEDS_KERNEL | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"blocks", "", cmd_info_blocks, 0, -1, "info blocks [FILTER]",
     "Blocks of the current kernel and their state (FILTER: device, sm, kernel, grid, block).",
     CMD_CLASS_CUDA, CMD_F_NEEDS_KERNEL | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"threads", "", cmd_info_threads, 0, -1, "info threads [FILTER]",
     "Threads of the current kernel, coalesced by block and PC (FILTER as for info warps, and "
     "breakpoint N|all: threads at a breakpoint).",
     CMD_CLASS_CUDA, CMD_F_NEEDS_KERNEL | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"kernels", "", cmd_info_kernels, 0, 0, "info kernels", "The current kernel launch.",
     CMD_CLASS_CUDA, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"sharedmem", "shared", cmd_info_sharedmem, 0, 0, "info sharedmem",
     "Shared variables and dynamic shared memory of the focused block.",
     CMD_CLASS_CUDA, CMD_F_NEEDS_KERNEL | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"checks", "check", cmd_info_checks, 0, 0, "info checks",
     "Checkers (memcheck ...): which are on, and the findings so far with their counts.",
     CMD_CLASS_STATUS, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"trap", "exception", cmd_info_trap, 0, 0, "info trap",
     "Why the kernel trapped or faulted: which lanes, where each warp stood, which exited.",
     CMD_CLASS_STATUS, 0, NOSUB},
    {"cuda", "", cmd_info_cuda, 1, -1, "info cuda warps|lanes|blocks|threads|kernels|sharedmem",
     "cuda-gdb spellings of the info tables.", CMD_CLASS_CUDA, 0, NOSUB},
    {NULL, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL},
};


const cmd_def cmd_table[] = {
    /* files and launches */
    {"file", "", cmd_file, 1, 1, "file FILE.ptx", "Load a PTX module.", CMD_CLASS_FILES, 0, NOSUB},
    {"buffer", "buf", cmd_buffer, 3, -1,
     "buffer NAME TYPE COUNT [= {V, ...} | = file PATH | = fill V | = iota]",
     "Allocate global memory named NAME (zeroed unless initialised); TYPE u8..u64 s8..s64 f16 f32 f64.",
     CMD_CLASS_FILES, CMD_F_PTX_ONLY | CMD_F_NEEDS_MODULE, NOSUB},
    {"launch", "", cmd_launch, 1, -1,
     "launch KERNEL<<<GRID, BLOCK[, SHMEM][, cluster=DIM]>>>(ARG, ...)",
     "Launch a kernel and run it until it completes or stops. cluster=(X,Y,Z) launches it in "
     "thread block clusters of XxYxZ CTAs (sm_90; at most 16, the grid a multiple of it); "
     "without it a kernel runs in the clusters its .reqnctapercluster declares, else every "
     "CTA is a cluster of one.", CMD_CLASS_RUNNING, CMD_F_PTX_ONLY | CMD_F_NEEDS_MODULE |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"run", "r", cmd_run, 0, -1, "run [ARGS]",
     "Relaunch the last launch from scratch (buffers restored to their contents at that launch); "
     "with a program (ptxdbg PROGRAM, --args PROGRAM ARGS), start it, with ARGS as its new "
     "arguments.",
     CMD_CLASS_RUNNING, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"start", "", cmd_start, 0, -1, "start [KERNEL<<<GRID, BLOCK[, SHMEM]>>>(ARG, ...)]",
     "Launch KERNEL (or relaunch the last launch, as run does) and stop at the kernel's first "
     "line.", CMD_CLASS_RUNNING, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"kill", "k", cmd_kill, 0, 0, "kill", "End the current launch.", CMD_CLASS_RUNNING,
     CMD_F_NEEDS_LIVE | CMD_F_MODEL_ONLY, NOSUB},
    {"generate-core-file", "gcore", cmd_generate_core, 0, 1, "generate-core-file [FILE]",
     "Save the whole state (module, sources, memory, threads, stop) to FILE (core.KERNEL.N).",
     CMD_CLASS_FILES, 0, NOSUB},
    {"core-file", "core", cmd_core_file, 1, 1, "core-file FILE",
     "Open a core file written by generate-core-file: inspect it, it cannot run.",
     CMD_CLASS_FILES, 0, NOSUB},
    {"target", "", cmd_target, 2, 2, "target core FILE", "Same as core-file FILE.",
     CMD_CLASS_FILES, 0, NOSUB},
    {"dump", "", cmd_dump, 2, 2, "dump NAME PATH", "Write a buffer's bytes to a file.",
     CMD_CLASS_DATA, 0, NOSUB},
    {"texture", "tex", cmd_texture, 4, -1,
     "texture NAME BUFFER TYPE W[xH[xD]] [channels=N] [address=MODE[,MODE,MODE]] "
     "[filter=point|linear] [normalized] [read=element|normalized-float] [border=V[,V,V,V]] "
     "[layers=N] [cube] [linear]",
     "Make a texture object over BUFFER (TYPE u8 s8 u16 s16 u32 s32 f16 f32; MODE wrap clamp "
     "mirror border; defaults: clamp, point, unnormalized, element). NAME is its handle "
     "(cudaTextureObject_t) in launch arguments and expressions. layers=N: 1D/2D layered; "
     "cube: cubemap of WxW faces (with layers=N, N cubemaps); linear: a 1D linear-memory "
     "texture (tex1Dfetch outside gives 0).",
     CMD_CLASS_FILES, CMD_F_PTX_ONLY | CMD_F_NEEDS_MODULE, NOSUB},
    {"surface", "surf", cmd_surface, 4, -1,
     "surface NAME BUFFER TYPE W[xH[xD]] [channels=N] [layers=N] [read=element|normalized-float]",
     "Make a surface object over BUFFER; NAME is its handle (cudaSurfaceObject_t). "
     "read=normalized-float makes 8/16-bit channels UNORM/SNORM for sust.p.", CMD_CLASS_FILES,
     CMD_F_PTX_ONLY | CMD_F_NEEDS_MODULE, NOSUB},
    {"bind", "", cmd_bind, 2, 2, "bind TEXREF NAME|none",
     "Bind a module-scope .texref/.samplerref/.surfref variable to a texture or surface object.",
     CMD_CLASS_FILES, CMD_F_PTX_ONLY | CMD_F_NEEDS_MODULE, NOSUB},
    /* running */
    {"continue", "c cont fg", cmd_continue, 0, 1, "continue [N]",
     "Resume; with N, ignore the current breakpoint N-1 more times.",
     CMD_CLASS_RUNNING, CMD_F_RESUMES | CMD_F_NEEDS_LIVE | CMD_F_REPEAT |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"step", "s", cmd_step, 0, 2, "step [-lane] [N]",
     "Step to the next source line (into calls), the focused warp (or lane with -lane).",
     CMD_CLASS_RUNNING, CMD_F_RESUMES | CMD_F_NEEDS_LIVE | CMD_F_STEPS | CMD_F_REPEAT |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"next", "n", cmd_next, 0, 2, "next [-lane] [N]",
     "Step to the next source line (over calls), the focused warp (or lane with -lane).",
     CMD_CLASS_RUNNING, CMD_F_RESUMES | CMD_F_NEEDS_LIVE | CMD_F_STEPS | CMD_F_REPEAT |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"stepi", "si", cmd_stepi, 0, 2, "stepi [-lane] [N]",
     "Execute one PTX instruction of the focused warp (or lane with -lane), into calls. A "
     "lane never executes a warp-synchronous instruction (bar/barrier, bar.warp.sync, shfl, "
     "vote, match, redux, elect, activemask, wmma/mma/ldmatrix) or a call alone: the lanes of "
     "its warp that are behind it run up to it (no further) and execute it with it; lanes its "
     "membermask names elsewhere run until they complete it, and at a CTA barrier the other "
     "warps run until they arrive, so the step ends past it. Every step runs at full speed, "
     "stops on Ctrl-C and obeys max-steps.",
     CMD_CLASS_RUNNING, CMD_F_RESUMES | CMD_F_NEEDS_LIVE | CMD_F_STEPS | CMD_F_REPEAT |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"nexti", "ni", cmd_nexti, 0, 2, "nexti [-lane] [N]",
     "Execute one PTX instruction of the focused warp (or lane), over calls.", CMD_CLASS_RUNNING,
     CMD_F_RESUMES | CMD_F_NEEDS_LIVE | CMD_F_STEPS | CMD_F_REPEAT |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"finish", "fin", cmd_finish, 0, 0, "finish", "Run until the selected function returns.",
     CMD_CLASS_RUNNING, CMD_F_RESUMES | CMD_F_NEEDS_LIVE | CMD_F_STEPS |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"until", "u", cmd_until, 0, -1, "until [LOCATION]",
     "Like next, but do not go backwards (leave loops); with LOCATION, like advance.",
     CMD_CLASS_RUNNING, CMD_F_RESUMES | CMD_F_NEEDS_LIVE | CMD_F_STEPS | CMD_F_REPEAT |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"advance", "", cmd_advance, 1, -1, "advance LOCATION",
     "Run the focused warp until LOCATION or until the current frame returns.",
     CMD_CLASS_RUNNING, CMD_F_RESUMES | CMD_F_NEEDS_LIVE | CMD_F_STEPS |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    /* breakpoints */
    {"break", "b br brea", cmd_break, 0, -1, "break [LOCATION] [if COND]",
     "Set a breakpoint: FUNC, FILE:LINE, LINE, ptx:LINE or *PC.",
     CMD_CLASS_BREAKPOINTS, CMD_F_SETUP, NOSUB},
    {"tbreak", "tb", cmd_tbreak, 0, -1, "tbreak [LOCATION] [if COND]",
     "Set a temporary breakpoint (deleted when hit).", CMD_CLASS_BREAKPOINTS, CMD_F_SETUP, NOSUB},
    {"condition", "", cmd_condition, 1, -1, "condition N [COND]",
     "Make breakpoint N conditional (no COND: unconditional).",
     CMD_CLASS_BREAKPOINTS, CMD_F_SETUP, NOSUB},
    {"ignore", "", cmd_ignore, 2, 2, "ignore N COUNT", "Ignore the next COUNT hits of breakpoint N.",
     CMD_CLASS_BREAKPOINTS, CMD_F_SETUP, NOSUB},
    {"delete", "d", cmd_delete, 0, -1, "delete [N...]", "Delete breakpoints (all without N).",
     CMD_CLASS_BREAKPOINTS, CMD_F_SETUP, NOSUB},
    {"disable", "dis disa", cmd_disable, 0, -1, "disable [N...] | disable display [N...]",
     "Disable breakpoints (or displays).",
     CMD_CLASS_BREAKPOINTS, CMD_F_SETUP, NOSUB},
    {"enable", "en", cmd_enable, 0, -1,
     "enable [once|delete|count COUNT] [N...] | enable display [N...]",
     "Enable breakpoints (or displays). once: disable it again when it is next hit; delete: "
     "delete it when it is next hit; count COUNT: disable it after COUNT more hits.",
     CMD_CLASS_BREAKPOINTS, CMD_F_SETUP, NOSUB},
    {"clear", "", cmd_clear, 0, -1, "clear [LOCATION]",
     "Delete the breakpoints at LOCATION (FUNC, FILE:LINE, LINE, *PC; without it: at the "
     "selected frame's line).", CMD_CLASS_BREAKPOINTS, 0, NOSUB},
    {"commands", "", cmd_commands, 0, -1, "commands [N | A-B]...",
     "Commands to run when breakpoint N (each named; the last one without N) is hit, one a "
     "line, ended by \"end\"; a command that resumes ends the list (gdb).",
     CMD_CLASS_BREAKPOINTS, CMD_F_SETUP, NOSUB},
    {"watch", "", cmd_watch, 1, -1, "watch EXPR",
     "Stop when EXPR (global or shared memory) is written with a new value.",
     CMD_CLASS_BREAKPOINTS, 0, NOSUB},
    {"rwatch", "", cmd_rwatch, 1, -1, "rwatch EXPR", "Stop when EXPR is read.",
     CMD_CLASS_BREAKPOINTS, 0, NOSUB},
    {"awatch", "", cmd_awatch, 1, -1, "awatch EXPR", "Stop when EXPR is read or written.",
     CMD_CLASS_BREAKPOINTS, 0, NOSUB},
    /* data */
    {"print", "p pr pri prin inspect", cmd_print, 0, -1, "print[/FMT] [-lanes] EXPR",
     "Evaluate EXPR in the focused lane (-lanes: in every lane of the warp).",
     CMD_CLASS_DATA, CMD_F_FORMAT | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY,
     NOSUB},
    {"call", "", cmd_call, 0, -1, "call[/FMT] EXPR",
     "Evaluate EXPR like print; a void result prints nothing. Calling program functions is "
     "not supported.", CMD_CLASS_DATA, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"output", "", cmd_output, 1, -1, "output[/FMT] EXPR", "Print EXPR's value without $N or newline.",
     CMD_CLASS_DATA, CMD_F_FORMAT | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"x", "", cmd_x, 0, -1, "x/NFU [@SPACE] ADDRESS",
     "Examine memory: N units, format F (x d u o t a c f s i z), unit U (b h w g).",
     CMD_CLASS_DATA, CMD_F_FORMAT | CMD_F_STRUCTURED | CMD_F_REPEAT | CMD_F_MODEL_ONLY, NOSUB},
    {"display", "disp", cmd_display, 0, -1, "display[/FMT] [EXPR]",
     "Print EXPR every time the program stops.", CMD_CLASS_DATA, CMD_F_SETUP | CMD_F_FORMAT, NOSUB},
    {"undisplay", "", cmd_undisplay, 0, -1, "undisplay [N...]", "Cancel displays.",
     CMD_CLASS_DATA, CMD_F_SETUP, NOSUB},
    {"ptype", "", cmd_ptype, 1, -1, "ptype EXPR | TYPE",
     "The type of EXPR (or a named type), structs and enums expanded, typedefs resolved.",
     CMD_CLASS_DATA, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"whatis", "", cmd_whatis, 1, -1, "whatis EXPR | TYPE", "The type name of EXPR.",
     CMD_CLASS_DATA, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"eval", "", cmd_eval_ptx, 1, -1, "eval PTX-INSTRUCTION",
     "Run one PTX instruction (or .reg declaration) on a scratch copy of the focused lane's "
     "registers; ld/ldu read the real memory, stores are refused, nothing is written back.",
     CMD_CLASS_DATA, 0, NOSUB},
    {"set", "", cmd_set, 1, -1, "set var LVALUE = EXPR | set SETTING VALUE",
     "Assign (var) or change a setting (\"help set\" lists them).",
     CMD_CLASS_DATA, CMD_F_SETUP, NOSUB},
    {"show", "", cmd_show, 0, -1, "show [SETTING]", "Show settings (all without SETTING).",
     CMD_CLASS_SUPPORT, CMD_F_MODEL_ONLY, NOSUB},
    /* stack */
    {"backtrace", "bt where", cmd_backtrace, 0, 1, "backtrace [N]",
     "Frames of the focused lane, innermost first.",
     CMD_CLASS_STACK, CMD_F_NEEDS_STACK | CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"frame", "f", cmd_frame, 0, 1, "frame [N]", "Select and print frame N.",
     CMD_CLASS_STACK, CMD_F_NEEDS_STACK | CMD_F_STRUCTURED,
     NOSUB},
    {"up", "", cmd_up, 0, 1, "up [N]", "Select the caller's frame.",
     CMD_CLASS_STACK, CMD_F_NEEDS_STACK | CMD_F_STRUCTURED, NOSUB},
    {"down", "do", cmd_down, 0, 1, "down [N]", "Select the callee's frame.",
     CMD_CLASS_STACK, CMD_F_NEEDS_STACK | CMD_F_STRUCTURED,
     NOSUB},
    {"list", "l", cmd_list, 0, -1, "list [LINE | FILE:LINE | FUNC | FIRST,LAST | - | ptx:LINE]",
     "Source lines; `list` continues, `list -` goes back (PTX lines when there is no source).",
     CMD_CLASS_FILES, CMD_F_NEEDS_MODULE | CMD_F_REPEAT |
     CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    {"directory", "dir", cmd_directory, 0, -1, "directory [DIR...]",
     "Add directories to search for source files (none: reset).",
     CMD_CLASS_FILES, CMD_F_SETUP, NOSUB},
    {"unset", "", cmd_unset, 1, 2, "unset substitute-path [FROM]",
     "Remove source path substitution rules.", CMD_CLASS_FILES, CMD_F_SETUP, NOSUB},
    {"disassemble", "disas", cmd_disassemble, 0, -1,
     "disassemble [/MODIFIERS] [FUNC|ADDRESS|START,END|START,+LENGTH]",
     "PTX of the current function (or FUNC, the function at ADDRESS, a pc range) with => at "
     "the PC. /s: source lines in pc order; /m: source-centric; /r: each instruction's PTX "
     "line (PTX has no binary encoding).",
     CMD_CLASS_DATA, CMD_F_STRUCTURED | CMD_F_MODEL_ONLY, NOSUB},
    /* status */
    {"info", "i inf", cmd_info, 1, -1, "info SUBCOMMAND", "Status of the program and debugger.",
     CMD_CLASS_STATUS, 0, cmd_info_table},
    /* cuda */
    {"cuda", "", cmd_cuda, 1, -1,
     "cuda [kernel N] [block (x,y,z)] [thread (x,y,z)] | cuda warp N [lane M] | cuda lane M",
     "Print or switch the CUDA focus.", CMD_CLASS_CUDA, CMD_F_NEEDS_KERNEL, NOSUB},
    /* support */
    {"printf", "", cmd_printf, 1, -1, "printf \"FORMAT\", ARG...",
     "Print ARGs (expressions in the focused lane) under the control of a C FORMAT string.",
     CMD_CLASS_DATA, 0, NOSUB},
    {"echo", "", cmd_echo, 0, -1, "echo TEXT", "Print TEXT (C escapes like \\n understood).",
     CMD_CLASS_SUPPORT, CMD_F_MODEL_ONLY, NOSUB},
    {"source", "", cmd_source, 1, 1, "source FILE", "Run the commands in FILE.", CMD_CLASS_SUPPORT,
     0, NOSUB},
    {"define", "", cmd_define, 1, 1, "define NAME",
     "Define a new command NAME: its lines follow, ended by \"end\". In them $argc is the "
     "number of arguments it is called with and $arg0, $arg1, ... their text; if, while and "
     "other blocks nest.", CMD_CLASS_SUPPORT, CMD_F_SETUP, NOSUB},
    {"document", "", cmd_document, 1, 1, "document NAME",
     "Document user-defined command NAME for help: the text follows, ended by \"end\".",
     CMD_CLASS_SUPPORT, CMD_F_SETUP, NOSUB},
    {"if", "", cmd_if, 0, -1, "if EXPR",
     "Run the lines up to \"else\" or \"end\" when EXPR is true (non-zero), the lines from "
     "\"else\" to \"end\" otherwise.", CMD_CLASS_SUPPORT, 0, NOSUB},
    {"while", "", cmd_while, 0, -1, "while EXPR",
     "Run the lines up to \"end\" as long as EXPR is true; loop_break leaves the loop, "
     "loop_continue starts the next pass.", CMD_CLASS_SUPPORT, 0, NOSUB},
    {"loop_break", "", cmd_loop_break, 0, 0, "loop_break", "Leave the innermost \"while\" loop.",
     CMD_CLASS_SUPPORT, 0, NOSUB},
    {"loop_continue", "", cmd_loop_continue, 0, 0, "loop_continue",
     "Start the next pass of the innermost \"while\" loop.", CMD_CLASS_SUPPORT, 0, NOSUB},
    {"else", "", cmd_block_end, 0, -1, "else", "Part of \"if\".", CMD_CLASS_SUPPORT, 0, NOSUB},
    {"end", "", cmd_block_end, 0, -1, "end",
     "Ends the lines of define, document, if, while and commands.", CMD_CLASS_SUPPORT, 0,
     NOSUB},
    {"help", "h", cmd_help, 0, -1, "help [COMMAND | CLASS]", "Print the list of commands, or help on one.",
     CMD_CLASS_SUPPORT, CMD_F_MODEL_ONLY, NOSUB},
    {"quit", "q exit", cmd_quit, 0, 1, "quit [STATUS]", "Leave ptxdbg.",
     CMD_CLASS_SUPPORT, 0, NOSUB},
    {NULL, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL},
};

static const char *class_names[CMD_CLASS__COUNT][2] = {
    {"files", "Loading PTX, buffers and sources."},
    {"running", "Launching and running kernels."},
    {"breakpoints", "Making the kernel stop at certain points."},
    {"data", "Examining and changing data."},
    {"stack", "Examining the call stack."},
    {"status", "Status inquiries."},
    {"cuda", "CUDA focus and tables (kernels, blocks, warps, lanes)."},
    {"support", "Support facilities."},
};

const char *cmd_class_name(cmd_class c) { return class_names[c][0]; }

int cmd_error(cmd_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    c->failed = 1;
    if (cmd_ui_errorv(c, fmt, ap)) {   /* JSON, a command running uncaptured: its "error" */
        va_end(ap);
        return -1;
    }
    fflush(stdout);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    return -1;
}

int cmd_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!s)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s) && !((*s == '-' || *s == '+') && isdigit((unsigned char)s[1])))
        return -1;
    errno = 0;
    long v = strtol(s, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    if (*end || errno == ERANGE || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* One unsigned 32-bit number at *p, blanks before it allowed; no '-' (strtoul would wrap "-1")
 * and nothing a uint32_t would truncate (4294967296 to 0). */
static int dim_num(const char **p, unsigned long *v)
{
    char *end;
    while (isspace((unsigned char)**p))
        (*p)++;
    if (!isdigit((unsigned char)**p) && !(**p == '+' && isdigit((unsigned char)(*p)[1])))
        return -1;
    errno = 0;
    *v = strtoul(*p, &end, 0);
    if (errno == ERANGE || *v > UINT32_MAX)
        return -1;
    *p = end;
    return 0;
}

const char *cmd_parse_dim3(const char *p, unsigned long v[3])
{
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '(')
        return dim_num(&p, &v[0]) == 0 ? p : NULL;
    p++;
    for (int i = 0; i < 3; i++) {
        if (dim_num(&p, &v[i]) != 0)
            return NULL;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == ')')
            return p + 1;
        if (*p != ',')
            return NULL;
        p++;
    }
    return NULL; /* a fourth component */
}

static int has_word(const char *list, const char *w)
{
    size_t l = strlen(w);
    for (const char *p = list; p && *p;) {
        while (*p == ' ')
            p++;
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == l && strncmp(p, w, l) == 0)
            return 1;
        p += n;
    }
    return 0;
}

const cmd_def *cmd_lookup(const cmd_def *table, const char *word, char *err, size_t n)
{
    for (const cmd_def *d = table; d->name; d++)
        if (!strcmp(d->name, word) || has_word(d->aliases, word))
            return d;
    const cmd_def *found = NULL;
    int nfound = 0;
    size_t l = strlen(word);
    char list[512] = "";
    for (const cmd_def *d = table; d->name; d++)
        if (l && !strncmp(d->name, word, l)) {
            found = d;
            nfound++;
            size_t k = strlen(list);
            snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", d->name);
        }
    if (nfound == 1)
        return found;
    if (err && n) {
        if (nfound > 1)
            snprintf(err, n, "Ambiguous command \"%s\": %s.", word, list);
        else
            err[0] = 0;
    }
    return NULL;
}

int cmd_split(const char *args, char **buf, char ***argv)
{
    *buf = strdup(args ? args : "");
    *argv = NULL;
    if (!*buf)
        return 0;
    int argc = 0, cap = 0;
    for (char *p = *buf; *p;) {
        while (isspace((unsigned char)*p))
            *p++ = 0;
        if (!*p)
            break;
        if (argc == cap) {
            cap = cap ? cap * 2 : 8;
            char **na = realloc(*argv, (size_t)cap * sizeof *na);
            if (!na)
                break;
            *argv = na;
        }
        (*argv)[argc++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
    }
    return argc;
}

/* ---- the flags' preconditions (cmd.h: each message lives here once) --------------------------- */
int cmd_preconditions(cmd_ctx *c, const cmd_def *d)
{
    if ((d->flags & CMD_F_PTX_ONLY) && (c->prog || c->inproc))
        return cmd_error(c, "\"%s\" is for a PTX file: a CUDA program allocates its own memory "
                            "and launches its own kernels.", d->name);
    if ((d->flags & CMD_F_NEEDS_MODULE) && !dbg_has_module(c->s))
        return cmd_error(c, "%s", CMD_MSG_NO_SYMBOLS);
    if ((d->flags & CMD_F_NEEDS_KERNEL) && !dbg_launch_info(c->s))
        return cmd_error(c, "%s", CMD_MSG_NO_KERNEL);
    if ((d->flags & CMD_F_NEEDS_LIVE) && !c->inproc && !dbg_launch_alive(c->s))
        return cmd_error(c, "%s", CMD_MSG_NOT_RUN);
    if (d->flags & CMD_F_NEEDS_STACK) {
        exec_frame fr[1];
        if (dbg_backtrace(c->s, fr, 1) <= 0)
            return cmd_error(c, "No stack.");
    }
    return 0;
}

/* Run `d` with the text after its name; the central arity/usage check. */
static int run_def(cmd_ctx *c, const cmd_def *d, const char *args)
{
    char *buf;
    char **argv;
    while (isspace((unsigned char)*args))
        args++;
    /* /FMT sticks to the name (print/x, x/4xw): it does not count as an argument word. Only
     * the commands that take a format have one; elsewhere a leading '/' is a path. */
    int argc = cmd_split(args, &buf, &argv);
    int words = argc - (argc > 0 && argv[0][0] == '/' && (d->flags & CMD_F_FORMAT));
    int rc;
    if (words < d->min_args || (d->max_args >= 0 && words > d->max_args)) {
        if (d->sub && words == 0)
            rc = cmd_error(c, "\"%s\" must be followed by the name of a subcommand.\n"
                              "Usage: %s", d->name, d->usage);
        else
            rc = cmd_error(c, "Usage: %s", d->usage);
    } else if (cmd_core_guard(c, d) != 0 || cmd_preconditions(c, d) != 0) {
        rc = -1;
    } else {
        rc = d->fn(c, args, argc, argv);
    }
    free(argv);
    free(buf);
    return rc;
}

int cmd_is_builtin(const char *name)
{
    for (const cmd_def *d = cmd_table; d->name; d++)
        if (!strcmp(d->name, name) || has_word(d->aliases, name))
            return 1;
    return 0;
}

static int execute_line(cmd_ctx *c, const char *line);

const cmd_def *cmd_line_def(const char *line)
{
    char word[64];
    size_t k = strspn(line, " \t");
    size_t n = strcspn(line + k, " \t/");
    if (!n || n >= sizeof word)
        return NULL;
    snprintf(word, sizeof word, "%.*s", (int)n, line + k);
    return cmd_lookup(cmd_table, word, NULL, 0);
}

/* A line the feed reads runs alone; a line run from elsewhere (a test, a front end) also runs
 * the lines it brings (a script, a user command, a branch, breakpoint commands) to their end. */
int cmd_execute(cmd_ctx *c, const char *line)
{
    if (c->feeding)
        return execute_line(c, line);
    int base = c->nframes;
    int rc = execute_line(c, line);
    if (c->nframes > base && cmd_feed_run_local(c, base) != 0)
        rc = -1;
    return rc;
}

static int execute_line(cmd_ctx *c, const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    if (!*line || *line == '#')
        return 0;
    if (cmd_ui_top(c) || cmd_ui_nested(c))
        return cmd_ui_execute(c, line, execute_line);
    char word[64];
    size_t n = 0;
    while ((isalnum((unsigned char)line[n]) || line[n] == '_' || line[n] == '-') &&
           n + 1 < sizeof word) {
        word[n] = line[n];
        n++;
    }
    word[n] = 0;
    if (n == 0) {
        /* PTX typed at the prompt (".reg ...", "@%p1 bra ...") goes to the PTX REPL */
        if (*line == '.' || *line == '@')
            return cmd_ptx_repl_line(c, line);
        return cmd_error(c, "Undefined command: \"%.*s\".  Try \"help\".",
                         (int)strcspn(line, " \t"), line);
    }
    char err[512];
    /* a PTX instruction whose opcode is also a command's name ("set.lt.s32.s32 %r1, ...;"):
       no command is followed by a '.' */
    if (line[n] == '.' && (strchr(line, ';') || strchr(line, '%')))
        return cmd_ptx_repl_line(c, line);
    const cmd_user *u = cmd_user_find(c, word);
    if (u && (!line[n] || isspace((unsigned char)line[n])))
        return cmd_user_run(c, u, line + n);
    const cmd_def *d = cmd_lookup(cmd_table, word, err, sizeof err);
    if (!d) {
        /* a PTX instruction ("add.s32 %r1, ...;") at the prompt runs in the PTX REPL */
        if (strchr(line, ';') || (line[n] == '.' && strchr(line, '%')))
            return cmd_ptx_repl_line(c, line);
        if (err[0])
            return cmd_error(c, "%s", err);
        u = cmd_user_lookup(c, word, err, sizeof err);
        if (u && (!line[n] || isspace((unsigned char)line[n])))
            return cmd_user_run(c, u, line + n);
        if (err[0])
            return cmd_error(c, "%s", err);
        return cmd_error(c, "Undefined command: \"%s\".  Try \"help\".", word);
    }
    /* gdb: a command that resumes ends the breakpoint command list it runs in (the new stop's
       commands, pushed while it reports the stop, run next) */
    if (d->flags & CMD_F_RESUMES)
        cmd_feed_resumed(c);
    int rc = run_def(c, d, line + n);
    if (rc == 0 && c->prog)
        cmd_prog_record(c, d, line, line + n);
    return rc;
}

/* Dispatch to a subcommand table ("info registers", "set var"). */
static int run_sub(cmd_ctx *c, const char *prefix, const cmd_def *table, const char *args,
                   int argc, char **argv)
{
    if (argc == 0)
        return cmd_error(c, "\"%s\" must be followed by the name of a subcommand.", prefix);
    char err[512];
    const cmd_def *d = cmd_lookup(table, argv[0], err, sizeof err);
    if (!d) {
        if (err[0])
            return cmd_error(c, "%s", err);
        return cmd_error(c, "Undefined %s command: \"%s\".  Try \"help %s\".", prefix, argv[0],
                         prefix);
    }
    while (isspace((unsigned char)*args))
        args++;
    return run_def(c, d, args + strlen(argv[0]));
}

int cmd_info(cmd_ctx *c, const char *args, int argc, char **argv)
{
    return run_sub(c, "info", cmd_info_table, args, argc, argv);
}

/* ---- help --------------------------------------------------------------------------------------- */
static void help_list(cmd_ctx *c, const cmd_def *table, int cls, const char *prefix)
{
    for (const cmd_def *d = table; d->name; d++) {
        if (cls >= 0 && (int)d->cls != cls)
            continue;
        char name[64];
        snprintf(name, sizeof name, "%s%s", prefix, d->name);
        cmd_ui_textf(c, "%s -- %s\n", name, d->help);
        if (d->sub)
            help_list(c, d->sub, -1, "info ");
    }
}

int cmd_help(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc == 0) {
        cmd_ui_textf(c, "List of classes of commands:\n\n");
        for (int k = 0; k < CMD_CLASS__COUNT; k++)
            cmd_ui_textf(c, "%s -- %s\n", class_names[k][0], class_names[k][1]);
        cmd_ui_textf(c, "\nCommands by class:\n");
        for (int k = 0; k < CMD_CLASS__COUNT; k++) {
            cmd_ui_textf(c, "\n%s:\n", class_names[k][0]);
            for (const cmd_def *d = cmd_table; d->name; d++)
                if ((int)d->cls == k)
                    cmd_ui_textf(c, "  %-12s -- %s\n", d->name, d->help);
        }
        cmd_ui_textf(c, "\nuser-defined -- User-defined commands (\"define\").\n");
        cmd_ui_textf(c,
            "instructions -- PTX instructions the prompt runs (\"help instructions\").\n");
        cmd_ui_textf(c,
            "\nType \"help\" followed by a class name for a list of commands in that class.\n"
               "Type \"help\" followed by a command name for full documentation.\n"
               "Command name abbreviations are allowed if unambiguous.\n");
        return 0;
    }
    if (!strcmp(argv[0], "user-defined"))
        return cmd_help_user(c);
    if (!strcmp(argv[0], "instructions"))
        return cmd_help_instructions(c, argc - 1, argv + 1);
    const cmd_user *u = cmd_user_find(c, argv[0]);
    if (u) {
        cmd_user_show(c, u, 1);
        return 0;
    }
    for (int k = 0; k < CMD_CLASS__COUNT; k++)
        if (!strcmp(argv[0], class_names[k][0])) {
            cmd_ui_textf(c, "%s\n\nList of commands:\n\n", class_names[k][1]);
            help_list(c, cmd_table, k, "");
            return 0;
        }
    char err[512];
    const cmd_def *d = cmd_lookup(cmd_table, argv[0], err, sizeof err);
    /* a PTX opcode that is not a command's own name ("help bra"; "help set" is the command's,
       "help instructions set" the instruction's) */
    if ((!d || (strcmp(d->name, argv[0]) && !has_word(d->aliases, argv[0]))) && argc == 1 &&
        cmd_help_opcode(c, argv[0]) == 0)
        return 0;
    if (d && (d->fn == cmd_set || d->fn == cmd_show))
        return cmd_help_settings(c, d->name, argc - 1, argv + 1);
    if (d && d->sub && argc > 1) {
        const cmd_def *s = cmd_lookup(d->sub, argv[1], err, sizeof err);
        if (s)
            d = s;
        else
            d = NULL;
    }
    if (!d) {
        if (err[0])
            return cmd_error(c, "%s", err);
        return cmd_error(c, "Undefined command: \"%s\".  Try \"help\".", argv[0]);
    }
    cmd_ui_textf(c, "%s\nUsage: %s\n", d->help, d->usage);
    if (d->aliases && d->aliases[0])
        cmd_ui_textf(c, "Aliases: %s\n", d->aliases);
    if (d->sub) {
        cmd_ui_textf(c, "\nList of %s subcommands:\n\n", d->name);
        help_list(c, d->sub, -1, "info ");
    }
    return 0;
}
