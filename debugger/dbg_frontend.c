/* dbg_frontend.c - the registry of in-process front ends: registration in priority order, the one that takes the process. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "dbg_frontend.h"

/* Registration happens in constructors (before any thread) and attach in the runtime's
 * constructor; the lock only keeps a late caller honest. */
static pthread_mutex_t fe_lock = PTHREAD_MUTEX_INITIALIZER;
static const dbg_frontend *fe_tab[DBG_FRONTEND_MAX];
static int fe_n;
static int fe_asked;
static const dbg_frontend *fe_taken;

int dbg_frontend_register(const dbg_frontend *fe, char *err, size_t errlen)
{
    if (!fe || !fe->name || !*fe->name || !fe->start || !fe->launch) {
        snprintf(err, errlen, "an in-process front end needs a name, start and launch");
        return -1;
    }
    pthread_mutex_lock(&fe_lock);
    int rc = -1;
    int i = 0;
    for (; i < fe_n && strcmp(fe_tab[i]->name, fe->name); i++)
        ;
    if (i < fe_n)
        snprintf(err, errlen, "in-process front end \"%s\" registered twice", fe->name);
    else if (fe_n == DBG_FRONTEND_MAX)
        snprintf(err, errlen, "more than %d in-process front ends", DBG_FRONTEND_MAX);
    else {
        /* insert after those of the same or higher priority: equal ones keep their order */
        int at = fe_n;
        while (at > 0 && fe_tab[at - 1]->priority < fe->priority) {
            fe_tab[at] = fe_tab[at - 1];
            at--;
        }
        fe_tab[at] = fe;
        fe_n++;
        rc = 0;
    }
    pthread_mutex_unlock(&fe_lock);
    return rc;
}

const dbg_frontend *dbg_frontend_attach(void)
{
    pthread_mutex_lock(&fe_lock);
    if (!fe_asked) {
        fe_asked = 1;
        for (int i = 0; i < fe_n && !fe_taken; i++)
            if (fe_tab[i]->start() == 1)
                fe_taken = fe_tab[i];
    }
    const dbg_frontend *fe = fe_taken;
    pthread_mutex_unlock(&fe_lock);
    return fe;
}

int dbg_frontend_list(const dbg_frontend **out, int max)
{
    pthread_mutex_lock(&fe_lock);
    for (int i = 0; out && i < fe_n && i < max; i++)
        out[i] = fe_tab[i];
    int n = fe_n;
    pthread_mutex_unlock(&fe_lock);
    return n;
}
