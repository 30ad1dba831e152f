/* Guarded calls into Fathom: see tbguard.h. */
#define _GNU_SOURCE
#include "tablebase/tbguard.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/platform.h"

static const int GUARDED[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
#define GUARDED_COUNT (int)(sizeof GUARDED / sizeof *GUARDED)
#define ALT_STACK_MIN 65536

/* Built once by install(), then only read: the dispositions before ours. */
static struct sigaction previous[GUARDED_COUNT];
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static pthread_key_t stack_key;

typedef struct {
    sigjmp_buf jump;
    volatile sig_atomic_t active; /* a guarded call runs on this thread */
    volatile sig_atomic_t caught; /* the signal that ended it */
    bool stack_checked;           /* this thread has an alternate signal stack */
} Guard;

static _Thread_local Guard guard;

static void on_fault(int sig, siginfo_t *info, void *uc)
{
    (void)uc;
    if (guard.active) {
        guard.active = 0;
        guard.caught = sig;
        siglongjmp(guard.jump, 1);
    }
    /* Not a guarded call: the disposition the process had before, as if we had never
     * been asked. A fault re-executes the faulting instruction on return; a signal sent
     * by another process (or raise) is sent again. */
    for (int i = 0; i < GUARDED_COUNT; i++)
        if (GUARDED[i] == sig)
            sigaction(sig, &previous[i], NULL);
    if (info->si_code <= 0)
        raise(sig);
}

static void free_stack(void *stack)
{
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    free(stack);
}

static void install(void)
{
    pthread_key_create(&stack_key, free_stack);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    /* SA_NODEFER: the jump out of the handler need not restore the signal mask (so the
     * guard's sigsetjmp saves none, which costs no system call per probe). */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < GUARDED_COUNT; i++)
        sigaction(GUARDED[i], &sa, &previous[i]);
}

/* A stack for the handler, unless the thread has one already (sanitizers set one up). */
static void ensure_alt_stack(void)
{
    guard.stack_checked = true;
    stack_t now;
    if (sigaltstack(NULL, &now) != 0 || !(now.ss_flags & SS_DISABLE))
        return;
    long min = pf_min_signal_stack();
    size_t size = min > 0 && (size_t)min * 4 > ALT_STACK_MIN ? (size_t)min * 4 : ALT_STACK_MIN;
    void *stack = malloc(size);
    if (!stack)
        return;
    stack_t ss = {.ss_sp = stack, .ss_size = size, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0 || pthread_setspecific(stack_key, stack) != 0) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
        free(stack);
    }
}

int tbguard_run(TbGuardFn fn, void *ctx)
{
    pthread_once(&installed, install);
    if (!guard.stack_checked)
        ensure_alt_stack();
    if (sigsetjmp(guard.jump, 0))
        return guard.caught;
    guard.active = 1;
    fn(ctx);
    guard.active = 0;
    return 0;
}
