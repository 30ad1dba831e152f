/* The last line of defence around calls into Fathom: a fault inside a probe (a bad
 * memory access, a failed assertion, a runaway recursion) interrupts the call instead of
 * taking the process down. The tables are checked before Fathom sees them (tbcheck.h);
 * this catches what a check could not foresee, e.g. a file changed on disk after the
 * check. After a fault Fathom's state is unknown (a half-built table, memory it never
 * freed), so the caller must make no further call into it.
 *
 * Mechanism: one handler for SIGSEGV, SIGBUS, SIGABRT, SIGFPE and SIGILL, installed the
 * first time a guard runs; while a guarded call runs on a thread, a fault on that thread
 * jumps back to the guard. Faults anywhere else go to the disposition the process had
 * before (the default crash, or a sanitizer's report). Each thread that runs a guarded
 * call gets an alternate signal stack, so that a stack overflow can be caught as well.
 * The Debian build of Fathom has no locks (TB_NO_THREADS), so a call interrupted inside
 * it leaves no lock held. */
#ifndef SAAVEDRA_TBGUARD_H
#define SAAVEDRA_TBGUARD_H

typedef void (*TbGuardFn)(void *ctx);

/* Runs fn(ctx). Returns 0 when it returned normally, or the number of the signal that
 * interrupted it. Not reentrant on one thread (fn must not run a guard itself). */
int tbguard_run(TbGuardFn fn, void *ctx);

#endif
