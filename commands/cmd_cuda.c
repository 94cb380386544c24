/* cmd_cuda.c - CUDA focus (`cuda ...`) and the kernel/block/warp/lane/thread/shared tables. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

/* A coordinate "(x,y,z)", "(x,y)", or "N" (missing components 0). */
static const char *parse_coord(const char *p, exec_dim3 *d)
{
    unsigned long v[3] = {0, 0, 0};
    p = cmd_parse_dim3(p, v);
    if (!p)
        return NULL;
    d->x = (uint32_t)v[0];
    d->y = (uint32_t)v[1];
    d->z = (uint32_t)v[2];
    return p;
}

static void print_focus(cmd_ctx *c, int want[6])
{
    const dbg_focus *f = dbg_get_focus(c->s);
    exec_dim3 b = dbg_focus_block(c->s), t = dbg_focus_thread(c->s);
    const exec_launch_info *li = dbg_launch_info(c->s);
    char out[512] = "";
    size_t n = 0;
#define ADD(...) n += (size_t)snprintf(out + n, sizeof out - n, __VA_ARGS__)
    if (want[0])
        ADD("%skernel %u", n ? ", " : "", f->kernel);
    if (want[1])
        ADD("%sgrid %u", n ? ", " : "", li->launch_id + 1);
    if (want[2])
        ADD("%sblock (%u,%u,%u)", n ? ", " : "", b.x, b.y, b.z);
    if (want[3])
        ADD("%sthread (%u,%u,%u)", n ? ", " : "", t.x, t.y, t.z);
    if (want[6])
        ADD("%sdevice 0", n ? ", " : "");
    if (want[7]) {
        uint64_t sm = 0;
        dbg_sm_of(c->s, f->cta, &sm);
        ADD("%ssm %llu", n ? ", " : "", (unsigned long long)sm);
    }
    if (want[4])
        ADD("%swarp %u", n ? ", " : "", f->warp);
    if (want[5])
        ADD("%slane %u", n ? ", " : "", f->lane);
#undef ADD
    printf("%s\n", out);
}

/* The focus arguments with every $NAME, $N, $ or $$N (convenience variables, value history)
 * replaced by its integer value, so scripts can walk lanes and blocks ("cuda lane $l"). NULL
 * (message printed) when one is not an integer. */
static char *subst_vars(cmd_ctx *c, const char *args)
{
    size_t cap = strlen(args) * 2 + 64, k = 0;
    char *out = malloc(cap);
    for (const char *p = args; out && *p;) {
        if (*p != '$') {
            out[k++] = *p++;
            continue;
        }
        size_t l = 1;
        while (isalnum((unsigned char)p[l]) || p[l] == '_' || p[l] == '$')
            l++;
        char name[128], err[512];
        snprintf(name, sizeof name, "%.*s", (int)l, p);
        dbg_value v;
        if (dbg_eval_host(c->s, name, &v, err, sizeof err) != 0 || v.kind != DBG_V_INT ||
            (dbg_type_is_signed(v.type) && (int64_t)v.u < 0)) {
            cmd_error(c, "%s is not a coordinate (a non-negative integer).", name);
            free(out);
            return NULL;
        }
        char num[32];
        int w = snprintf(num, sizeof num, "%llu", (unsigned long long)v.u);
        if (k + (size_t)w + strlen(p + l) + 1 > cap) {
            cap = (k + (size_t)w + strlen(p + l)) * 2 + 64;
            char *no = realloc(out, cap);
            if (!no) {
                free(out);
                return NULL;
            }
            out = no;
        }
        memcpy(out + k, num, (size_t)w);
        k += (size_t)w;
        p += l;
    }
    if (out)
        out[k] = 0;
    return out;
}

static int cuda_focus(cmd_ctx *c, const char *args);

int cmd_cuda(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!strchr(args, '$'))
        return cuda_focus(c, args);
    char *a = subst_vars(c, args);
    if (!a)
        return -1;
    int rc = cuda_focus(c, a);
    free(a);
    return rc;
}

static int cuda_focus(cmd_ctx *c, const char *args)
{
    static const char *keys[] = {"kernel", "grid", "block", "thread", "warp", "lane", "device",
                                 "sm", NULL};
    int want[8] = {0}, given[8] = {0};
    exec_dim3 val[8];
    memset(val, 0, sizeof val);
    const char *p = args;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        size_t l = strcspn(p, " \t(");
        int k;
        for (k = 0; keys[k]; k++)
            if (strlen(keys[k]) == l && !strncmp(p, keys[k], l))
                break;
        if (!keys[k])
            return cmd_error(c, "Unrecognized argument(s): \"%.*s\".", (int)l, p);
        p += l;
        while (isspace((unsigned char)*p))
            p++;
        want[k] = 1;
        if (*p == '(' || isdigit((unsigned char)*p)) {
            const char *q = parse_coord(p, &val[k]);
            if (!q)
                return cmd_error(c, "Invalid coordinates for \"%s\".", keys[k]);
            given[k] = 1;
            p = q;
        }
    }
    int any = 0;
    for (int k = 0; k < 8; k++)
        any |= given[k];
    if (!any) {
        print_focus(c, want);
        return 0;
    }
    const dbg_focus *f = dbg_get_focus(c->s);
    const exec_launch_info *li = dbg_launch_info(c->s);
    dbg_session *m = c->s;
    uint32_t cta = f->cta, warp = f->warp, lane = f->lane;
    if ((given[0] && val[0].x != f->kernel) || (given[1] && val[1].x != li->launch_id + 1) ||
        (given[6] && val[6].x != 0))
        return cmd_error(c, "Invalid coordinates requested. CUDA focus unchanged.");
    if (given[2]) {
        if (val[2].y == 0 && li->grid.y >= 1 && !strchr(args, ','))
            val[2].y = 0;
        if (dbg_cta_index(m, val[2], &cta) != 0)
            return cmd_error(c, "Invalid coordinates requested. CUDA focus unchanged.");
    }
    if (given[7]) {
        /* hardware coordinates: the running block on that SM (the focused one if it is) */
        uint32_t pick = UINT32_MAX, n = dbg_ncta(m);
        for (uint32_t k = 0; k <= n && pick == UINT32_MAX;) {
            uint32_t i = k == 0 ? cta : k - 1;
            uint64_t sm = UINT64_MAX;
            if (i < n && dbg_cta_state(m, i) == EXEC_CTA_RUNNING &&
                dbg_sm_of(m, i, &sm) == 0 && sm == val[7].x)
                pick = i;
            k = k == 0 ? dbg_cta_next_running(m, 0) + 1 : dbg_cta_next_running(m, k) + 1;
        }
        if (pick == UINT32_MAX || (given[2] && pick != cta))
            return cmd_error(c, "Invalid coordinates requested. CUDA focus unchanged.");
        cta = pick;
    }
    if (given[3]) {
        if (dbg_thread_to_lane(c->s, val[3], &warp, &lane) != 0)
            return cmd_error(c, "Invalid coordinates requested. CUDA focus unchanged.");
    }
    if (given[4])
        warp = val[4].x;
    if (given[5])
        lane = val[5].x;
    if (warp >= dbg_nwarps(m) || lane >= 32)
        return cmd_error(c, "Invalid coordinates requested. CUDA focus unchanged.");
    exec_cta_state st = dbg_cta_state(m, cta);
    exec_dim3 bc = dbg_cta_coord(m, cta);
    if (st == EXEC_CTA_NOT_STARTED)
        return cmd_error(c, "Block (%u,%u,%u) has not started yet. CUDA focus unchanged.", bc.x,
                         bc.y, bc.z);
    if (st == EXEC_CTA_DONE && dbg_launch_alive(c->s))
        return cmd_error(c, "Block (%u,%u,%u) has already exited. CUDA focus unchanged.", bc.x,
                         bc.y, bc.z);
    exec_lane_info info;
    if (dbg_lane_get(m, cta, warp, lane, &info) != 0 || info.state == EXEC_LANE_INVALID)
        return cmd_error(c, "Invalid coordinates requested. CUDA focus unchanged.");
    if (dbg_set_focus(c->s, cta, warp, lane) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    cmd_announce_focus(c, 1);
    if (info.state == EXEC_LANE_EXITED) {
        exec_dim3 t = dbg_focus_thread(c->s);
        printf("Thread (%u,%u,%u) has exited.\n", t.x, t.y, t.z);
        return 0;
    }
    cmd_print_frame_line(c, -1, 1);
    return 0;
}

/* ---- filters (cuda-gdb: info cuda threads|warps|lanes|blocks [FILTER]) ---------------------------
 * A filter is restrictions "device N", "sm N", "warp N", "lane N", "kernel N", "grid N",
 * "block X[,Y[,Z]]" or "block (X[,Y[,Z]])", "thread X[,Y[,Z]]" or "thread (...)", "breakpoint N"
 * and "breakpoint all" (info cuda threads only). A value may be "current" (the focus's), "any"
 * or "all" (no restriction); a coordinate component may be "*". */
enum { F_DEVICE, F_SM, F_WARP, F_LANE, F_KERNEL, F_GRID, F_BLOCK, F_THREAD, F_BREAKPOINT, F_N };
static const char *const fkeys[F_N] = {"device", "sm", "warp", "lane", "kernel", "grid",
                                       "block", "thread", "breakpoint"};

typedef struct {
    int has[F_N];
    uint32_t v[F_N][3];
    int wild[F_N][3];         /* a "*" component */
    int bp_all;               /* breakpoint all */
} cuda_filter;

/* Whether the text starts a filter (a keyword followed by a value), not an expression. */
static int is_filter(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    for (int k = 0; k < F_N; k++) {
        size_t l = strlen(fkeys[k]);
        if (!strncmp(p, fkeys[k], l) && (isspace((unsigned char)p[l]) || p[l] == '(')) {
            const char *q = p + l;
            while (isspace((unsigned char)*q))
                q++;
            if (*q == '(' || isdigit((unsigned char)*q) || !strncmp(q, "current", 7) ||
                !strncmp(q, "any", 3) || !strncmp(q, "all", 3) || *q == '*')
                return 1;
        }
    }
    return 0;
}

static const char *filter_comp(const char *p, uint32_t *v, int *wild)
{
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '*') {
        *wild = 1;
        return p + 1;
    }
    char *end;
    errno = 0;
    unsigned long x = strtoul(p, &end, 0);
    if (end == p || !isdigit((unsigned char)*p) || errno == ERANGE || x > UINT32_MAX)
        return NULL;
    *v = (uint32_t)x;
    return end;
}

/* Parse args into f; `allowed` is a bit mask of the keys the table takes. -1 with a message. */
static int filter_parse(cmd_ctx *c, const char *table, const char *p, unsigned allowed,
                        cuda_filter *f)
{
    memset(f, 0, sizeof *f);
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            return 0;
        size_t l = strcspn(p, " \t(");
        int k;
        for (k = 0; k < F_N; k++)
            if (strlen(fkeys[k]) == l && !strncmp(p, fkeys[k], l))
                break;
        if (k == F_N)
            return cmd_error(c, "Invalid filter \"%.*s\" for \"info cuda %s\" (device, sm, "
                                "warp, lane, kernel, grid, block, thread%s).", (int)l, p, table,
                             allowed >> F_BREAKPOINT & 1 ? ", breakpoint" : "");
        if (!(allowed >> k & 1))
            return cmd_error(c, "The \"%s\" filter does not apply to \"info cuda %s\".",
                             fkeys[k], table);
        p += l;
        while (isspace((unsigned char)*p))
            p++;
        if (!strncmp(p, "any", 3) || !strncmp(p, "all", 3)) {
            if (k == F_BREAKPOINT) {
                f->has[k] = 1;
                f->bp_all = 1;
            } else {
                f->has[k] = 0;
            }
            p += 3;
            continue;
        }
        f->has[k] = 1;
        if (!strncmp(p, "current", 7)) {
            const dbg_focus *fo = dbg_get_focus(c->s);
            exec_dim3 d = k == F_BLOCK ? dbg_focus_block(c->s) : dbg_focus_thread(c->s);
            uint64_t sm = 0;
            if (k == F_SM)
                dbg_sm_of(c->s, fo->cta, &sm);
            uint32_t one = k == F_WARP ? fo->warp : k == F_LANE ? fo->lane
                           : k == F_KERNEL ? fo->kernel
                           : k == F_GRID ? dbg_launch_info(c->s)->launch_id + 1
                           : k == F_SM ? (uint32_t)sm : 0;
            if (k == F_BLOCK || k == F_THREAD) {
                f->v[k][0] = d.x;
                f->v[k][1] = d.y;
                f->v[k][2] = d.z;
            } else {
                f->v[k][0] = one;
            }
            if (k == F_BREAKPOINT)
                return cmd_error(c, "\"breakpoint current\" is not a filter (breakpoint N or "
                                    "all).");
            p += 7;
            continue;
        }
        int paren = *p == '(';
        int ncomp = k == F_BLOCK || k == F_THREAD ? 3 : 1;
        const char *q = p + paren;
        for (int i = 0; i < ncomp; i++) {
            q = filter_comp(q, &f->v[k][i], &f->wild[k][i]);
            if (!q)
                return cmd_error(c, "Invalid value for the \"%s\" filter.", fkeys[k]);
            const char *after = q;
            while (isspace((unsigned char)*after))
                after++;
            if (*after != ',' || i == ncomp - 1)
                break;
            q = after + 1;
        }
        if (paren) {
            while (isspace((unsigned char)*q))
                q++;
            if (*q != ')')
                return cmd_error(c, "Invalid value for the \"%s\" filter.", fkeys[k]);
            q++;
        }
        if (*q && !isspace((unsigned char)*q))
            return cmd_error(c, "Invalid value for the \"%s\" filter.", fkeys[k]);
        p = q;
    }
}

static int f_one(const cuda_filter *f, int k, uint32_t v)
{
    return !f->has[k] || f->wild[k][0] || f->v[k][0] == v;
}

static int f_dim(const cuda_filter *f, int k, exec_dim3 d)
{
    if (!f->has[k])
        return 1;
    uint32_t a[3] = {d.x, d.y, d.z};
    for (int i = 0; i < 3; i++)
        if (!f->wild[k][i] && f->v[k][i] != a[i])
            return 0;
    return 1;
}

/* The launch-wide restrictions (kernel, grid, device). */
static int f_launch(cmd_ctx *c, const cuda_filter *f)
{
    const exec_launch_info *li = dbg_launch_info(c->s);
    return f_one(f, F_KERNEL, li->launch_id) && f_one(f, F_GRID, li->launch_id + 1) &&
           f_one(f, F_DEVICE, 0);
}

/* A block: launch restrictions, its coordinates and its SM. */
static int f_block(cmd_ctx *c, const cuda_filter *f, uint32_t cta)
{
    dbg_session *m = c->s;
    if (!f_launch(c, f) || !f_dim(f, F_BLOCK, dbg_cta_coord(m, cta)))
        return 0;
    if (f->has[F_SM]) {
        uint64_t sm = UINT64_MAX;
        if (dbg_sm_of(m, cta, &sm) != 0 || !f_one(f, F_SM, (uint32_t)sm))
            return 0;
    }
    return 1;
}

/* A thread (lane) of a block that passed f_block. */
static int f_lane(cmd_ctx *c, const cuda_filter *f, uint32_t warp, uint32_t lane, exec_dim3 tid,
                  uint32_t pc)
{
    if (!f_one(f, F_WARP, warp) || !f_one(f, F_LANE, lane) || !f_dim(f, F_THREAD, tid))
        return 0;
    if (f->has[F_BREAKPOINT]) {
        int hit = 0;
        for (int i = 0; i < dbg_bp_count(c->s) && !hit; i++) {
            const dbg_bp *b = dbg_bp_at(c->s, i);
            if (b->type != DBG_BP_BREAK || !b->enabled || (!f->bp_all && b->num != (int)f->v[F_BREAKPOINT][0]))
                continue;
            for (int k = 0; k < b->npcs; k++)
                hit |= b->pcs[k] == pc;
        }
        return hit;
    }
    return 1;
}

#define FILTER_ALL ((1u << F_BREAKPOINT) - 1)

/* ---- tables --------------------------------------------------------------------------------- */
static void line_of(cmd_ctx *c, uint32_t pc, char *out, size_t n)
{
    dbg_where w;
    if (dbg_pc_where(c->s, pc, &w) != 0)
        snprintf(out, n, "??");
    else if (w.file && w.line > 0)
        snprintf(out, n, "%s:%d (ptx %d)", base_name(w.file), w.line, w.ptx_line);
    else
        snprintf(out, n, "%s:%d", base_name(dbg_module_name(c->s)), w.ptx_line);
}

void cmd_where_data(cmd_ctx *c, uint32_t pc)
{
    char fn[512];
    dbg_where w;
    if (dbg_pc_func_name(c->s, pc, 0, fn, sizeof fn) >= 0)
        cmd_ui_str(c, "function", fn);
    if (dbg_pc_where(c->s, pc, &w) == 0) {
        if (w.file && w.line > 0) {
            cmd_ui_str(c, "file", w.file);
            cmd_ui_int(c, "line", w.line);
        }
        cmd_ui_int(c, "ptx_line", w.ptx_line);
    }
}

static void dim3_data(cmd_ctx *c, const char *name, exec_dim3 d)
{
    cmd_ui_open(c, name, 1);
    cmd_ui_uint(c, NULL, d.x);
    cmd_ui_uint(c, NULL, d.y);
    cmd_ui_uint(c, NULL, d.z);
    cmd_ui_close(c);
}

/* One warp row of info warps. */
static void warp_row(cmd_ctx *c, uint32_t cta, uint32_t w)
{
    dbg_session *m = c->s;
    const dbg_focus *f = dbg_get_focus(c->s);
    const exec_launch_info *li = dbg_launch_info(c->s);
    exec_warp_info wi;
    if (dbg_warp_get(m, cta, w, &wi) != 0)
        return;
    char bar[32] = "-", line[600] = "-", first[48] = "-";
    if (wi.at_barrier)
        snprintf(bar, sizeof bar, "bar %d", wi.barrier < 0 ? 0 : wi.barrier);
    uint32_t live = wi.valid & ~wi.exited;
    if (live)
        line_of(c, wi.pc, line, sizeof line);
    exec_dim3 ft = {0, 0, 0};
    if (wi.active) {
        uint32_t lin = w * 32 + (uint32_t)__builtin_ctz(wi.active);
        ft = (exec_dim3){lin % li->block.x, (lin / li->block.x) % li->block.y,
                         lin / (li->block.x * li->block.y)};
        snprintf(first, sizeof first, "(%u,%u,%u)", ft.x, ft.y, ft.z);
    }
    const char *state = !live ? "exited" : wi.stopped ? "stopped" : "";
    cmd_ui_row_begin(c);
    cmd_ui_field_bool(c, "focused", cta == f->cta && w == f->warp, "*", " ");
    dim3_data(c, "block", dbg_cta_coord(m, cta));
    cmd_ui_field_uint(c, "warp", w);
    cmd_ui_field_hex(c, "active_mask", wi.active, 8);
    cmd_ui_field_hex(c, "divergent_mask", wi.divergent, 8);
    cmd_ui_uint(c, "live_mask", live);
    if (wi.at_barrier)
        cmd_ui_field_str(c, "barrier", bar);
    else
        cmd_ui_cell(c, bar);
    if (live) {
        char pc[16];
        snprintf(pc, sizeof pc, "0x%x", wi.pc);
        cmd_ui_cell(c, pc);          /* JSON: "pc" a number */
        cmd_ui_uint(c, "pc", wi.pc);
        cmd_ui_cell(c, line);
        cmd_where_data(c, wi.pc);
    } else {
        cmd_ui_cell(c, "-");
        cmd_ui_cell(c, line);
    }
    if (wi.active) {
        cmd_ui_cell(c, first);
        dim3_data(c, "first_active_thread", ft);
    } else {
        cmd_ui_cell(c, first);
    }
    if (*state) {
        cmd_ui_textf(c, " (%s)", state);
        cmd_ui_str(c, "state", state);
    }
    cmd_ui_row_end(c);
}

/* The blocks a filter names: those matching when it restricts blocks or SMs, else the focused
 * block (when the launch restrictions hold). */
/* The CTAs the warp and lane tables visit, in order: the running ones and the focused one (a
 * finished CTA still shows its warps there); ncta when none is left. */
static uint32_t next_cta(cmd_ctx *c, uint32_t from)
{
    dbg_session *m = c->s;
    uint32_t n = dbg_cta_next_running(m, from);
    const dbg_focus *f = dbg_get_focus(c->s);
    return f->valid && f->cta >= from && f->cta < n ? f->cta : n;
}

static int block_selected(cmd_ctx *c, const cuda_filter *fl, uint32_t cta)
{
    dbg_session *m = c->s;
    if (dbg_cta_state(m, cta) != EXEC_CTA_RUNNING && cta != dbg_get_focus(c->s)->cta)
        return 0;
    if (!fl->has[F_BLOCK] && !fl->has[F_SM] && cta != dbg_get_focus(c->s)->cta)
        return 0;
    return f_block(c, fl, cta);
}

/* Whether some lane of warp w (of a selected block) passes the lane restrictions. */
static int warp_selected(cmd_ctx *c, const cuda_filter *fl, uint32_t cta, uint32_t w)
{
    if (!f_one(fl, F_WARP, w))
        return 0;
    if (!fl->has[F_LANE] && !fl->has[F_THREAD])
        return 1;
    dbg_session *m = c->s;
    for (uint32_t l = 0; l < 32; l++) {
        exec_lane_info li;
        if (dbg_lane_get(m, cta, w, l, &li) == 0 && li.state != EXEC_LANE_INVALID &&
            f_one(fl, F_LANE, l) && f_dim(fl, F_THREAD, li.tid))
            return 1;
    }
    return 0;
}

int cmd_info_warps(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cuda_filter fl;
    if (filter_parse(c, "warps", args, FILTER_ALL, &fl) != 0)
        return -1;
    dbg_session *m = c->s;
    cmd_ui_table_begin(c, "warps");
    cmd_ui_table_col(c, 1, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 2, CMD_UI_RIGHT, "Wp");
    cmd_ui_table_col(c, 11, CMD_UI_RIGHT, "Active Mask");
    cmd_ui_table_col(c, 14, CMD_UI_RIGHT, "Divergent Mask");
    cmd_ui_table_col(c, 9, CMD_UI_LEFT, "Barrier");
    cmd_ui_table_col(c, 8, CMD_UI_RIGHT, "PC");
    cmd_ui_table_col(c, 24, CMD_UI_LEFT, "Line");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "First Active ThreadIdx");
    for (uint32_t cta = next_cta(c, 0); cta < dbg_ncta(m); cta = next_cta(c, cta + 1)) {
        if (!block_selected(c, &fl, cta))
            continue;
        int head = 0;
        for (uint32_t w = 0; w < dbg_nwarps(m); w++) {
            if (!warp_selected(c, &fl, cta, w))
                continue;
            if (!head++) {
                exec_dim3 b = dbg_cta_coord(m, cta);
                cmd_ui_textf(c, "Block (%u,%u,%u)\n", b.x, b.y, b.z);
            }
            warp_row(c, cta, w);
        }
    }
    int rows = cmd_ui_table_end(c);
    cmd_ui_bool(c, "truncated", 0);
    if (!rows)
        cmd_ui_text(c, "No CUDA warps match the filter.\n");
    return 0;
}

int cmd_info_lanes(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argv;
    if (argc > 0 && !is_filter(args))
        return cmd_info_lanes_expr(c, args, argc, argv);
    cuda_filter fl;
    if (filter_parse(c, "lanes", args, FILTER_ALL, &fl) != 0)
        return -1;
    dbg_session *m = c->s;
    const dbg_focus *f = dbg_get_focus(c->s);
    static const char *names[] = {"invalid", "active", "divergent", "barrier", "exited",
                                  "trapped"};
    /* the focused warp unless the filter names warps, threads, blocks or SMs */
    int wide = fl.has[F_WARP] || fl.has[F_THREAD] || fl.has[F_BLOCK] || fl.has[F_SM];
    cmd_ui_table_begin(c, "lanes");
    cmd_ui_table_col(c, 1, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 2, CMD_UI_RIGHT, "Ln");
    cmd_ui_table_col(c, 9, CMD_UI_RIGHT, "State");
    cmd_ui_table_col(c, 8, CMD_UI_RIGHT, "PC");
    cmd_ui_table_col(c, 11, CMD_UI_LEFT, "ThreadIdx");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "Line");
    for (uint32_t cta = next_cta(c, 0); cta < dbg_ncta(m); cta = next_cta(c, cta + 1)) {
        if (!block_selected(c, &fl, cta))
            continue;
        for (uint32_t w = 0; w < dbg_nwarps(m); w++) {
            if (!wide && (cta != f->cta || w != f->warp))
                continue;
            int head = 0;
            for (uint32_t l = 0; l < 32; l++) {
                exec_lane_info li;
                if (dbg_lane_get(m, cta, w, l, &li) != 0 || li.state == EXEC_LANE_INVALID ||
                    !f_lane(c, &fl, w, l, li.tid, li.pc))
                    continue;
                exec_dim3 b = dbg_cta_coord(m, cta);
                if (!head++) {
                    if (cta == f->cta)
                        cmd_ui_textf(c, "Warp %u\n", w);
                    else
                        cmd_ui_textf(c, "Block (%u,%u,%u) warp %u\n", b.x, b.y, b.z, w);
                }
                char line[600] = "", pc[16] = "-";
                int live = li.state != EXEC_LANE_EXITED;
                if (live) {
                    line_of(c, li.pc, line, sizeof line);
                    snprintf(pc, sizeof pc, "0x%x", li.pc);
                }
                cmd_ui_row_begin(c);
                cmd_ui_field_bool(c, "focused", cta == f->cta && w == f->warp && l == f->lane,
                                  "*", " ");
                dim3_data(c, "block", b);
                cmd_ui_uint(c, "warp", w);
                cmd_ui_field_uint(c, "lane", l);
                cmd_ui_field_str(c, "state", names[li.state]);
                cmd_ui_cell(c, pc);
                cmd_ui_uint(c, "pc", li.pc);
                char tid[48];
                snprintf(tid, sizeof tid, "(%u,%u,%u)", li.tid.x, li.tid.y, li.tid.z);
                cmd_ui_cell(c, tid);
                dim3_data(c, "thread", li.tid);
                cmd_ui_cell(c, line);
                if (live)
                    cmd_where_data(c, li.pc);
                cmd_ui_row_end(c);
            }
        }
    }
    if (!cmd_ui_table_end(c))
        cmd_ui_text(c, "No CUDA lanes match the filter.\n");
    return 0;
}

/* A block's state as the tables show it. Once the kernel ended in a fault, trap or failed
 * assertion nothing runs any more (the kernel is "Terminated"): the block where it happened
 * shows what ended it, the other blocks that had started "terminated". */
static const char *block_state(cmd_ctx *c, uint32_t cta)
{
    static const char *sn[] = {"not started", "running", "exited"};
    exec_cta_state st = dbg_cta_state(c->s, cta);
    exec_stop last;
    int over = 0;
    if (st != EXEC_CTA_RUNNING || dbg_launch_running(c->s) ||
        dbg_last_stop(c->s, &last, &over) != 0)
        return sn[st];
    if (last.cta == cta && (last.kind == EXEC_STOP_EXCEPTION || last.kind == EXEC_STOP_TRAP ||
                            last.kind == EXEC_STOP_ASSERT))
        return last.kind == EXEC_STOP_TRAP ? "trapped" : last.kind == EXEC_STOP_ASSERT
                                                           ? "assert failed" : "exception";
    return "terminated";
}

int cmd_info_blocks(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cuda_filter fl;
    unsigned allowed = 1u << F_DEVICE | 1u << F_SM | 1u << F_KERNEL | 1u << F_GRID | 1u << F_BLOCK;
    if (filter_parse(c, "blocks", args, allowed, &fl) != 0)
        return -1;
    dbg_session *m = c->s;
    const dbg_focus *f = dbg_get_focus(c->s);
    uint32_t n = dbg_ncta(m);
    cmd_ui_int(c, "kernel", f->kernel);
    cmd_ui_table_begin(c, "blocks");
    cmd_ui_table_col(c, 1, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 10, CMD_UI_RIGHT, "BlockIdx");
    cmd_ui_table_col(c, 12, CMD_UI_RIGHT, "To BlockIdx");
    cmd_ui_table_col(c, 7, CMD_UI_RIGHT, "Count");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "State");
    cmd_ui_table_heading(c, "  BlockIdx To BlockIdx   Count State");   /* cuda-gdb's */
    int rows = 0;
    for (uint32_t i = 0; i < n;) {
        if (!f_block(c, &fl, i)) {
            i++;
            continue;
        }
        exec_cta_state est;
        uint32_t j = i, span = dbg_cta_state_span(m, i, &est);
        const char *st = block_state(c, i);
        if (est == EXEC_CTA_RUNNING) /* running CTAs side by side (resident, a cluster) */
            while (j + 1 < n && dbg_cta_next_running(m, j + 1) == j + 1 &&
                   !strcmp(block_state(c, j + 1), st) && f_block(c, &fl, j + 1))
                j++;
        else if (!fl.has[F_BLOCK] && !fl.has[F_SM])
            j = span;   /* a run of one state at once, whatever the grid's size */
        else
            while (j + 1 <= span && f_block(c, &fl, j + 1))
                j++;
        if (!rows++)
            cmd_ui_textf(c, "Kernel %u\n", f->kernel);
        exec_dim3 a = dbg_cta_coord(m, i), b = dbg_cta_coord(m, j);
        char as[48], bs[48];
        snprintf(as, sizeof as, "(%u,%u,%u)", a.x, a.y, a.z);
        snprintf(bs, sizeof bs, "(%u,%u,%u)", b.x, b.y, b.z);
        cmd_ui_row_begin(c);
        cmd_ui_field_bool(c, "focused", f->cta >= i && f->cta <= j, "*", " ");
        cmd_ui_cell(c, as);
        dim3_data(c, "from", a);
        cmd_ui_cell(c, bs);
        dim3_data(c, "to", b);
        cmd_ui_field_uint(c, "count", j - i + 1);
        cmd_ui_field_str(c, "state", st);
        cmd_ui_row_end(c);
        i = j + 1;
    }
    if (!cmd_ui_table_end(c))
        cmd_ui_text(c, "No CUDA blocks match the filter.\n");
    return 0;
}

int cmd_info_threads(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cuda_filter fl;
    if (filter_parse(c, "threads", args, FILTER_ALL | 1u << F_BREAKPOINT, &fl) != 0)
        return -1;
    dbg_session *m = c->s;
    const dbg_focus *f = dbg_get_focus(c->s);
    /* walk live threads in order; a run continues while the PC and the block stay the same and
     * no thread in between is left out by the filter */
    int open = 0, focus_in = 0, rows = 0;
    uint32_t rpc = 0, rcta = 0, count = 0;
    exec_dim3 rb = {0, 0, 0}, rt = {0, 0, 0}, lt = {0, 0, 0};
    uint32_t nw = dbg_nwarps(m);
    /* the running CTAs only (a grid of 2^31 CTAs costs nothing), then one last round that
       closes the open run */
    int done = 0;
    static const char *names[] = {"invalid", "active", "divergent", "barrier", "exited",
                                  "trapped"};
    /* JSON: "threads", every live lane shown (the text shows runs of them) */
    cmd_ui_open(c, "threads", 1);
    cmd_ui_table_begin(c, NULL);
    cmd_ui_table_col(c, 1, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 9, CMD_UI_RIGHT, "BlockIdx");
    cmd_ui_table_col(c, 9, CMD_UI_RIGHT, "ThreadIdx");
    cmd_ui_table_col(c, 11, CMD_UI_RIGHT, "To BlockIdx");
    cmd_ui_table_col(c, 9, CMD_UI_RIGHT, "ThreadIdx");
    cmd_ui_table_col(c, 7, CMD_UI_RIGHT, "Count");
    cmd_ui_table_col(c, 8, CMD_UI_RIGHT, "PC");
    cmd_ui_table_col(c, 18, CMD_UI_LEFT, "Filename");
    cmd_ui_table_col(c, 4, CMD_UI_RIGHT, "Line");
    cmd_ui_table_heading(c, "  BlockIdx ThreadIdx To BlockIdx ThreadIdx   Count       PC "
                            "Filename           Line");   /* cuda-gdb's */
    for (uint32_t cta = dbg_cta_next_running(m, 0); !done;
         cta = dbg_cta_next_running(m, cta + 1)) {
        int last = done = cta >= dbg_ncta(m);
        if (last)
            cta = dbg_ncta(m);
        if (!last && !f_block(c, &fl, cta))
            continue;
        for (uint32_t w = 0; w < (last ? 1 : nw); w++)
            for (uint32_t l = 0; l < 32; l++) {
                exec_lane_info li;
                int live = !last && dbg_lane_get(m, cta, w, l, &li) == 0 &&
                           li.state != EXEC_LANE_INVALID && li.state != EXEC_LANE_EXITED;
                if (!last && !live)
                    continue;
                int skip = !last && !f_lane(c, &fl, w, l, li.tid, li.pc);
                if (open && (last || skip || li.pc != rpc || cta != rcta)) {
                    char a[40], b[40], e[40], d[40], file[600];
                    exec_dim3 bc = rb;
                    snprintf(a, sizeof a, "(%u,%u,%u)", bc.x, bc.y, bc.z);
                    snprintf(b, sizeof b, "(%u,%u,%u)", rt.x, rt.y, rt.z);
                    snprintf(e, sizeof e, "(%u,%u,%u)", bc.x, bc.y, bc.z);
                    snprintf(d, sizeof d, "(%u,%u,%u)", lt.x, lt.y, lt.z);
                    dbg_where wh;
                    int line = 0;
                    snprintf(file, sizeof file, "??");
                    if (dbg_pc_where(c->s, rpc, &wh) == 0) {
                        if (wh.file && wh.line > 0) {
                            snprintf(file, sizeof file, "%s", base_name(wh.file));
                            line = wh.line;
                        } else {
                            snprintf(file, sizeof file, "%s", base_name(dbg_module_name(c->s)));
                            line = wh.ptx_line;
                        }
                    }
                    if (!rows++)
                        cmd_ui_textf(c, "Kernel %u\n", f->kernel);
                    char pcs[16], ln[16];
                    snprintf(pcs, sizeof pcs, "0x%x", rpc);
                    snprintf(ln, sizeof ln, "%d", line);
                    const char *cells[] = {focus_in ? "*" : " ", a, b, e, d, NULL, pcs, file, ln};
                    char cnt[16];
                    snprintf(cnt, sizeof cnt, "%u", count);
                    cells[5] = cnt;
                    cmd_ui_row_begin(c);
                    for (int k = 0; k < 9; k++)
                        cmd_ui_cell(c, cells[k]);
                    cmd_ui_row_end(c);
                    open = 0;
                }
                if (last)
                    break;
                if (skip)
                    continue;
                if (!open) {
                    open = 1;
                    focus_in = 0;
                    rpc = li.pc;
                    rcta = cta;
                    rb = dbg_cta_coord(m, cta);
                    rt = li.tid;
                    count = 0;
                }
                lt = li.tid;
                count++;
                cmd_ui_open(c, NULL, 0);
                dim3_data(c, "block", rb);
                dim3_data(c, "thread", li.tid);
                cmd_ui_uint(c, "warp", w);
                cmd_ui_uint(c, "lane", l);
                cmd_ui_str(c, "state", names[li.state]);
                cmd_ui_uint(c, "pc", li.pc);
                cmd_where_data(c, li.pc);
                cmd_ui_bool(c, "focused", cta == f->cta && w == f->warp && l == f->lane);
                cmd_ui_close(c);
                if (cta == f->cta && w == f->warp && l == f->lane)
                    focus_in = 1;
            }
    }
    cmd_ui_table_end(c);
    cmd_ui_close(c);
    cmd_ui_bool(c, "truncated", 0);
    if (!rows)
        cmd_ui_text(c, "No CUDA threads match the filter.\n");
    return 0;
}

int cmd_info_kernels(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    const exec_launch_info *li = dbg_launch_info(c->s);
    cmd_ui_table_begin(c, "kernels");
    if (!li) {
        cmd_ui_table_end(c);
        cmd_ui_text(c, "No CUDA kernels.\n");
        return 0;
    }
    char name[1024];
    dbg_func_name(c->s, li->kernel, 1, name, sizeof name);
    char g[48], b[48];
    snprintf(g, sizeof g, "(%u,%u,%u)", li->grid.x, li->grid.y, li->grid.z);
    snprintf(b, sizeof b, "(%u,%u,%u)", li->block.x, li->block.y, li->block.z);
    /* a CUDA program's launch: the host line that launched it (from its own debug info) */
    char site[1024];
    int hs = dbg_launch_site(c->s, site, sizeof site) == 0;
    int sw = hs ? (int)strlen(site) > 11 ? (int)strlen(site) : 11 : 0;
    cmd_ui_table_col(c, 1, CMD_UI_LEFT, " ");
    cmd_ui_table_col(c, 6, CMD_UI_RIGHT, "Kernel");
    cmd_ui_table_col(c, 3, CMD_UI_RIGHT, "Dev");
    cmd_ui_table_col(c, 4, CMD_UI_RIGHT, "Grid");
    cmd_ui_table_col(c, 10, CMD_UI_LEFT, "Status");
    cmd_ui_table_col(c, 10, CMD_UI_LEFT, "GridDim");
    cmd_ui_table_col(c, 10, CMD_UI_LEFT, "BlockDim");
    cmd_ui_table_col(c, 9, CMD_UI_RIGHT, "SharedDyn");
    if (hs)
        cmd_ui_table_col(c, sw, CMD_UI_LEFT, "Launch Site");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "Invocation");
    /* cuda-gdb's heading: the launch site's column only for a program's launch */
    char head[256];
    snprintf(head, sizeof head,
             "  Kernel Dev Grid Status     GridDim    BlockDim  SharedDyn %-*s%sInvocation", sw,
             hs ? "Launch Site" : "", hs ? " " : "");
    cmd_ui_table_heading(c, head);
    cmd_ui_row_begin(c);
    cmd_ui_field_bool(c, "focused", 1, "*", " ");
    cmd_ui_field_uint(c, "kernel", li->launch_id);
    cmd_ui_field_int(c, "device", 0);
    cmd_ui_field_uint(c, "grid", li->launch_id + 1);
    cmd_ui_field_str(c, "status", dbg_launch_running(c->s) ? "Active" : "Terminated");
    cmd_ui_cell(c, g);
    dim3_data(c, "grid_dim", li->grid);
    cmd_ui_cell(c, b);
    dim3_data(c, "block_dim", li->block);
    cmd_ui_field_uint(c, "shared_dynamic", li->dyn_shmem);
    if (hs)
        cmd_ui_field_str(c, "launch_site", site);
    cmd_ui_field_str(c, "invocation", name);
    cmd_ui_row_end(c);
    cmd_ui_table_end(c);
    return 0;
}

int cmd_info_sharedmem(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    dbg_shared_row rows[257];
    uint64_t st = 0;
    int n = dbg_shared_layout(c->s, rows, 257, &st);
    if (n < 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    uint64_t db = 0, ds = 0;
    if (n > 0 && !rows[n - 1].name[0]) { /* the dynamic part comes last */
        db = rows[n - 1].addr;
        ds = rows[n - 1].size;
        n--;
    }
    exec_dim3 b = dbg_focus_block(c->s);
    cmd_ui_textf(c, "Shared memory of block (%u,%u,%u): ", b.x, b.y, b.z);
    dim3_data(c, "block", b);
    cmd_ui_field_uint(c, "static_bytes", st);
    cmd_ui_text(c, " static bytes, ");
    cmd_ui_field_uint(c, "dynamic_bytes", ds);
    cmd_ui_text(c, " dynamic bytes\n");
    /* JSON: "variables": [{"address" (hex), "size", "name"; "dynamic" for the dynamic part}] */
    cmd_ui_table_begin(c, "variables");
    cmd_ui_table_col(c, 10, CMD_UI_LEFT, "Address");
    cmd_ui_table_col(c, 10, CMD_UI_LEFT, "Size");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "Variable");
    cmd_ui_text(c, "");       /* the heading, even with no variables */
    for (int i = 0; i <= n; i++) {
        char dm[1024];
        const char *name = i < n ? rows[i].name : "(dynamic shared memory)";
        if (i == n && !ds)
            break;
        if (i < n && dbg_demangle(name, dm, sizeof dm, 0) == 0)
            name = dm;
        cmd_ui_row_begin(c);
        cmd_ui_field_addr(c, "address", i < n ? rows[i].addr : db);
        cmd_ui_field_uint(c, "size", i < n ? rows[i].size : ds);
        cmd_ui_field_str(c, "name", name);
        if (i == n)
            cmd_ui_bool(c, "dynamic", 1);
        cmd_ui_row_end(c);
    }
    cmd_ui_table_end(c);
    return 0;
}

int cmd_info_cuda(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    char err[256];
    const cmd_def *d = cmd_lookup(cmd_info_table, argv[0], err, sizeof err);
    if (!d || d->cls != CMD_CLASS_CUDA || d->fn == cmd_info_cuda)
        return cmd_error(c, "Undefined info cuda command: \"%s\".  Try \"help info cuda\".",
                         argv[0]);
    if (d->max_args >= 0 && argc - 1 > d->max_args) /* what the table takes, as "info X" */
        return cmd_error(c, "Usage: info cuda %s", d->usage + strlen("info "));
    if (cmd_preconditions(c, d) != 0)
        return -1;
    while (isspace((unsigned char)*args))
        args++;
    args += strlen(argv[0]);
    return d->fn(c, args, argc - 1, argv + 1);
}
