/* chk_finding.c - the findings of a session: deduplicated store, compute-sanitizer text, JSON lines. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

/* ---- the store -------------------------------------------------------------------------------- */
chk_finding *chk_find(chk_ctx *c, chk_id id, chk_kind kind, const void *module, uint32_t pc,
                      uint32_t pc2)
{
    for (int i = 0; i < c->nf; i++) {
        chk_finding *f = c->f[i];
        if (f->checker == id && f->kind == kind && f->module == module && f->nparties &&
            f->party[0].pc == pc && (f->nparties < 2 || f->party[1].pc == pc2))
            return f;
    }
    return NULL;
}

chk_finding *chk_add(chk_ctx *c, chk_id id, chk_kind kind, const void *module)
{
    if (c->nf == c->capf) {
        int nc = c->capf ? c->capf * 2 : 16;
        chk_finding **nf = realloc(c->f, sizeof *nf * (size_t)nc);
        if (!nf)
            return NULL;
        c->f = nf;
        c->capf = nc;
    }
    chk_finding *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->id = ++c->next_id;
    f->checker = id;
    f->kind = kind;
    f->module = module;
    f->count = 1;
    f->gpu_faults = -1;
    c->f[c->nf++] = f;
    return f;
}

int chk_count(const chk_ctx *c) { return c->nf; }
const chk_finding *chk_at(const chk_ctx *c, int i) { return i >= 0 && i < c->nf ? c->f[i] : NULL; }

const chk_finding *chk_by_id(const chk_ctx *c, int id)
{
    for (int i = 0; i < c->nf; i++)
        if (c->f[i]->id == id)
            return c->f[i];
    return NULL;
}

uint64_t chk_occurrences(const chk_ctx *c)
{
    uint64_t n = 0;
    for (int i = 0; i < c->nf; i++)
        n += c->f[i]->count;
    return n;
}

void chk_clear(chk_ctx *c)
{
    for (int i = 0; i < c->nf; i++)
        free(c->f[i]);
    c->nf = 0;
}

/* ---- words ------------------------------------------------------------------------------------ */
static const char *chk_space_word(ptx_space sp)
{
    switch (sp) {
    case PTX_SPACE_GLOBAL: return "__global__";
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return "__shared__";
    case PTX_SPACE_LOCAL: return "__local__";
    case PTX_SPACE_CONST: return "__constant__";
    case PTX_SPACE_PARAM: return "parameter";
    default: return "__generic__";
    }
}

static const char *chk_access_word(int a)
{
    return a == EXEC_ACC_READ ? "read" : a == EXEC_ACC_WRITE ? "write" : "atomic";
}

const char *chk_kind_name(chk_kind k)
{
    switch (k) {
    case CHK_K_OOB: return "out-of-bounds";
    case CHK_K_MISALIGNED: return "misaligned";
    case CHK_K_READONLY: return "read-only";
    case CHK_K_NULL: return "null-pointer";
    case CHK_K_FREED: return "use-after-free";
    case CHK_K_HEAP_OVERFLOW: return "heap-overflow";
    case CHK_K_DOUBLE_FREE: return "double-free";
    case CHK_K_BAD_FREE: return "invalid-free";
    case CHK_K_LEAK: return "leak";
    /* synccheck */
    case CHK_K_BAR_DIVERGENT: return "divergent-barrier";
    case CHK_K_BAR_COUNT: return "barrier-count-mismatch";
    case CHK_K_BAR_INVALID: return "invalid-barrier";
    case CHK_K_WARP_NOT_MEMBER: return "not-in-membermask";
    case CHK_K_SHFL_UNDEF: return "shuffle-from-inactive-lane";
    case CHK_K_MBAR_MISUSE: return "mbarrier-misuse";
    case CHK_K_CLUSTER_BAR: return "cluster-barrier-misuse";
    }
    return "?";
}

int chk_headline(const chk_finding *f, char *out, size_t n)
{
    switch (f->kind) {
    case CHK_K_DOUBLE_FREE:
        return snprintf(out, n, "Malloc/Free error encountered : Double free");
    case CHK_K_BAD_FREE:
        return snprintf(out, n, "Malloc/Free error encountered : Invalid pointer to free");
    case CHK_K_LEAK:
        return snprintf(out, n, "Leaked %" PRIu64 " bytes at 0x%" PRIx64, f->size, f->addr);
    /* synccheck: compute-sanitizer's words where it has them */
    case CHK_K_BAR_DIVERGENT:
        return snprintf(out, n, "Barrier error detected. Divergent thread(s) in block");
    case CHK_K_BAR_COUNT:
    case CHK_K_BAR_INVALID:
    case CHK_K_WARP_NOT_MEMBER:
        return snprintf(out, n, "Barrier error detected. Invalid arguments");
    case CHK_K_SHFL_UNDEF:
        return snprintf(out, n, "Warp shuffle error detected. Source lane(s) not participating");
    case CHK_K_MBAR_MISUSE:
        return snprintf(out, n, "Barrier error detected. Invalid mbarrier operation");
    case CHK_K_CLUSTER_BAR:
        return snprintf(out, n, "Barrier error detected. Invalid cluster barrier operation");
    default:
        return snprintf(out, n, "Invalid %s %s of size %" PRIu64 " bytes",
                        chk_space_word(f->space), chk_access_word(f->access), f->size);
    }
}

/* A small appending writer (never past n; the total length is still counted). */
typedef struct { char *p; size_t n, len; const char *pre; } chk_out;

static void chk_put(chk_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void chk_put(chk_out *o, const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    int k = snprintf(o->len < o->n ? o->p + o->len : NULL, o->len < o->n ? o->n - o->len : 0,
                     "%s%s\n", o->pre, line);
    if (k > 0)
        o->len += (size_t)k;
}

static void chk_put_party(chk_out *o, const chk_party *p, const chk_finding *f, int k)
{
    char pos[400];
    if (p->file[0])
        snprintf(pos, sizeof pos, " in %s:%d", p->file, p->line);
    else
        pos[0] = 0;
    chk_put(o, "    %sat %s%s (pc 0x%x, PTX line %d)", k ? "and " : "", p->func[0] ? p->func : "?",
            pos, p->pc, p->ptx_line);
    if (p->ufile[0] && (strcmp(p->ufile, p->file) || p->uline != p->line))
        chk_put(o, "    called from %s:%d%s%s", p->ufile, p->uline, p->ufunc[0] ? " in " : "",
                p->ufunc);
    chk_put(o, "    by thread (%u,%u,%u) in block (%u,%u,%u) (warp %u, lane %u) of kernel %u%s%s",
            p->thread.x, p->thread.y, p->thread.z, p->block.x, p->block.y, p->block.z, p->warp,
            p->lane, f->launch, f->kernel[0] ? ", " : "", f->kernel);
}

int chk_format(const chk_finding *f, const char *prefix, char *out, size_t n)
{
    chk_out o = { out, n, 0, prefix ? prefix : "" };
    if (n)
        out[0] = 0;
    char head[256];
    chk_headline(f, head, sizeof head);
    chk_put(&o, "%s", head);
    if (f->kind == CHK_K_LEAK) {
        if (f->site[0])
            chk_put(&o, "    %s was allocated at %s", f->alloc_name[0] ? f->alloc_name
                                                                        : "the memory", f->site);
        else
            chk_put(&o, "    %s (no host backtrace saved)", f->alloc_name);
        return (int)o.len;
    }
    for (int k = 0; k < f->nparties; k++)
        chk_put_party(&o, &f->party[k], f, k);
    if (f->checker == CHK_SYNCCHECK) {   /* synccheck: the lanes involved, line by line */
        char buf[sizeof f->sync_detail];
        snprintf(buf, sizeof buf, "%s", f->sync_detail);
        for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
            chk_put(&o, "    %s", l);
        if (f->gpu_faults == 1)
            chk_put(&o, "    The warp faults here (as a GPU's does).");
        if (f->count > 1)
            chk_put(&o, "    (%" PRIu64 " occurrences)", f->count);
        return (int)o.len;
    }
    switch (f->kind) {
    case CHK_K_DOUBLE_FREE:
    case CHK_K_BAD_FREE:
        chk_put(&o, "    Address 0x%" PRIx64 "%s%s", f->addr, f->where[0] ? ": " : "", f->where);
        break;
    case CHK_K_MISALIGNED:
        chk_put(&o, "    Address 0x%" PRIx64 " is misaligned", f->addr);
        break;
    case CHK_K_READONLY:
        chk_put(&o, "    Address 0x%" PRIx64 " is in read-only %s memory", f->addr,
                f->space == PTX_SPACE_CONST ? "constant" : "kernel parameter");
        break;
    default:
        chk_put(&o, "    Address 0x%" PRIx64 " is out of bounds%s", f->addr,
                f->kind == CHK_K_NULL ? " (a null pointer)" : "");
        break;
    }
    if (f->kind != CHK_K_MISALIGNED || f->alloc_name[0]) {
        if (f->freed && f->alloc_name[0])
            chk_put(&o, "    and is inside %s [0x%" PRIx64 ", %" PRIu64 " bytes) at offset %" PRIu64
                    ", which was freed", f->alloc_name, f->alloc_base, f->alloc_size,
                    f->addr - f->alloc_base);
        else if (f->alloc_name[0] && f->rel == 1)
            chk_put(&o, "    and is %" PRIu64 " bytes after the nearest allocation at 0x%" PRIx64
                    " of size %" PRIu64 " bytes (%s)", f->dist, f->alloc_base, f->alloc_size,
                    f->alloc_name);
        else if (f->alloc_name[0] && f->rel == -1)
            chk_put(&o, "    and is %" PRIu64 " bytes before the nearest allocation at 0x%"
                    PRIx64 " of size %" PRIu64 " bytes (%s)", f->dist, f->alloc_base,
                    f->alloc_size, f->alloc_name);
        else if (f->alloc_name[0] && f->rel == 0)
            chk_put(&o, "    and is inside the allocation at 0x%" PRIx64 " of size %" PRIu64
                    " bytes (%s) at offset %" PRIu64, f->alloc_base, f->alloc_size,
                    f->alloc_name, f->addr - f->alloc_base);
        else if (f->where[0] && f->kind != CHK_K_DOUBLE_FREE && f->kind != CHK_K_BAD_FREE)
            chk_put(&o, "    and is %s", f->where);
    }
    if (f->gpu_faults == 0)
        chk_put(&o, "    A GPU would not fault here: the address lies in the %" PRIu64 " bytes it "
                "maps after %s.", f->pad, f->pad_owner[0] ? f->pad_owner : "that allocation");
    else if (f->gpu_faults == 1 && f->kind == CHK_K_FREED)
        chk_put(&o, "    A GPU faults here unless its driver kept the freed memory mapped.");
    else if (f->gpu_faults == 1)
        chk_put(&o, "    A GPU would fault here.");
    if (f->count > 1)
        chk_put(&o, "    (%" PRIu64 " occurrences)", f->count);
    return (int)o.len;
}

/* ---- JSON ------------------------------------------------------------------------------------- */
static void chk_json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(fp, "\\u%04x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

void chk_write_json(const chk_finding *f, FILE *fp)
{
    char head[256];
    chk_headline(f, head, sizeof head);
    static const char *const sev[] = { "error", "warning", "info" };
    fprintf(fp, "{\"checker\":");
    chk_json_str(fp, chk_name(f->checker));
    fprintf(fp, ",\"kind\":");
    chk_json_str(fp, chk_kind_name(f->kind));
    fprintf(fp, ",\"severity\":\"%s\",\"message\":", sev[f->severity]);
    chk_json_str(fp, head);
    fprintf(fp, ",\"space\":");
    chk_json_str(fp, f->kind == CHK_K_LEAK ? "global" : ptx_space_name(f->space));
    fprintf(fp, ",\"address\":\"0x%" PRIx64 "\",\"size\":%" PRIu64 ",\"access\":", f->addr,
            f->size);
    chk_json_str(fp, f->kind == CHK_K_LEAK ? "" : chk_access_word(f->access));
    fprintf(fp, ",\"count\":%" PRIu64, f->count);
    if (f->kind != CHK_K_LEAK) {
        fprintf(fp, ",\"kernel\":");
        chk_json_str(fp, f->kernel);
        fprintf(fp, ",\"launch\":%u", f->launch);
    }
    if (f->gpu_faults >= 0)
        fprintf(fp, ",\"gpu_faults\":%s", f->gpu_faults ? "true" : "false");
    if (f->alloc_name[0]) {
        fprintf(fp, ",\"allocation\":{\"name\":");
        chk_json_str(fp, f->alloc_name);
        fprintf(fp, ",\"base\":\"0x%" PRIx64 "\",\"size\":%" PRIu64 ",\"offset\":%" PRId64
                ",\"freed\":%s", f->alloc_base, f->alloc_size,
                (int64_t)(f->addr - f->alloc_base), f->freed ? "true" : "false");
        fputc('}', fp);
    }
    if (f->where[0]) {
        fprintf(fp, ",\"where\":");
        chk_json_str(fp, f->where);
    }
    if (f->site[0]) {
        fprintf(fp, ",\"site\":");
        chk_json_str(fp, f->site);
    }
    if (f->sync_detail[0]) {   /* synccheck */
        fprintf(fp, ",\"detail\":");
        chk_json_str(fp, f->sync_detail);
    }
    fprintf(fp, ",\"threads\":[");
    for (int k = 0; k < f->nparties; k++) {
        const chk_party *p = &f->party[k];
        fprintf(fp, "%s{\"block\":[%u,%u,%u],\"thread\":[%u,%u,%u],\"warp\":%u,\"lane\":%u,"
                "\"pc\":%u,\"ptx_line\":%d,\"access\":", k ? "," : "", p->block.x, p->block.y,
                p->block.z, p->thread.x, p->thread.y, p->thread.z, p->warp, p->lane, p->pc,
                p->ptx_line);
        chk_json_str(fp, chk_access_word(p->access));
        fprintf(fp, ",\"function\":");
        chk_json_str(fp, p->func);
        fprintf(fp, ",\"file\":");
        chk_json_str(fp, p->file);
        fprintf(fp, ",\"line\":%d,\"user_file\":", p->line);
        chk_json_str(fp, p->ufile);
        fprintf(fp, ",\"user_line\":%d}", p->uline);
    }
    fprintf(fp, "]}");
}

int chk_write_report(const chk_ctx *c, const char *path, char *err, size_t n)
{
    FILE *fp = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!fp) {
        snprintf(err, n, "cannot write %s", path);
        return -1;
    }
    for (int i = 0; i < c->nf; i++) {
        chk_write_json(c->f[i], fp);
        fputc('\n', fp);
    }
    if (fp != stdout && fclose(fp) != 0) {
        snprintf(err, n, "cannot write %s", path);
        return -1;
    }
    fflush(stdout);
    return 0;
}

void chk_summary_line(const chk_ctx *c, const char *prefix, FILE *fp)
{
    uint64_t n = chk_occurrences(c);
    fprintf(fp, "%sERROR SUMMARY: %" PRIu64 " error%s\n", prefix ? prefix : "", n,
            n == 1 ? "" : "s");
}

/* ---- leaks ------------------------------------------------------------------------------------ */
int chk_leak_add(chk_ctx *c, const chk_alloc *a)
{
    chk_finding *f = chk_add(c, CHK_MEMCHECK, CHK_K_LEAK, NULL);
    if (!f)
        return -1;
    f->addr = a->base;
    f->size = a->size;
    f->alloc_base = a->base;
    f->alloc_size = a->size;
    snprintf(f->alloc_name, sizeof f->alloc_name, "%s", a->name ? a->name : "");
    snprintf(f->site, sizeof f->site, "%s", a->site ? a->site : "");
    return f->id;
}

void chk_leak_summary(const chk_ctx *c, const char *prefix, FILE *fp)
{
    uint64_t bytes = 0, k = 0;
    for (int i = 0; i < c->nf; i++)
        if (c->f[i]->kind == CHK_K_LEAK) {
            bytes += c->f[i]->size;
            k++;
        }
    if (k)
        fprintf(fp, "%sLEAK SUMMARY: %" PRIu64 " bytes leaked in %" PRIu64 " allocation%s\n",
                prefix ? prefix : "", bytes, k, k == 1 ? "" : "s");
}
