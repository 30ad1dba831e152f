/* Parallel-search statistics as text: see smpstats.h. */
#include "commands/smpstats.h"

#include <string.h>

#include "engine/engine.h"
#include "search/checks.h"
#include "search/threads.h"
#include "util/options.h"
#include "util/timeutil.h"

/* A time as a percentage of the threads' wall time, and a mean per event. */
static double thread_share(const SplitStats *s, int threads, int64_t ns)
{
    return s->wall_ns > 0 ? 100.0 * (double)ns / ((double)s->wall_ns * threads) : 0.0;
}

static double per(double x, uint64_t n)
{
    return n ? x / (double)n : 0.0;
}

void smpstats_print_summary(Writer *out, const SplitStats *s, int threads)
{
    writer_printf(out, "Splits: %llu (%.2f helpers each, %llu ended by a cutoff, %llu found no "
                  "helper), helpful-master joins: %llu, idle %.1f%%, waiting %.1f%% of thread "
                  "time (virtual clock: %.1f%%, %.1f%%)\n",
                  (unsigned long long)s->splits, per((double)s->helpers, s->splits),
                  (unsigned long long)s->cutoffs, (unsigned long long)s->split_failed,
                  (unsigned long long)s->master_joins, thread_share(s, threads, s->idle_ns),
                  thread_share(s, threads, s->wait_ns),
                  100.0 * per((double)s->idle_vns, (uint64_t)s->virtual_ns) / threads,
                  100.0 * per((double)s->wait_vns, (uint64_t)s->virtual_ns) / threads);
    if (!SMP_LOCK_TIMING) {
        writer_printf(out, "Locks: pool %llu taken, split points %llu taken (hold times: a "
                      "build with -DSMP_LOCK_TIMING=1)\n", (unsigned long long)s->pool_lock.count,
                      (unsigned long long)s->sp_lock.count);
        return;
    }
    writer_printf(out, "Locks: pool %llu taken, %.0f ns held and %.0f ns to take each, %llu "
                  "holds over %d us; split points %llu taken, %.0f ns held each\n",
                  (unsigned long long)s->pool_lock.count,
                  per((double)s->pool_lock.hold_ns, s->pool_lock.count),
                  per((double)s->pool_lock.wait_ns, s->pool_lock.count),
                  (unsigned long long)s->pool_lock.long_count, LOCK_LONG_NS / 1000,
                  (unsigned long long)s->sp_lock.count,
                  per((double)s->sp_lock.hold_ns, s->sp_lock.count));
}

/* What one read of the clock costs, in ns: a timed hold (SMP_LOCK_TIMING) includes one. */
static double clock_read_ns(void)
{
    enum { READS = 20000 };
    int64_t start = time_now_ns();
    for (int i = 0; i < READS; i++)
        (void)time_now_ns(); /* clock_gettime: not optimised away */
    return (double)(time_now_ns() - start) / READS;
}

void smpstats_print_line(Writer *out, const SplitStats *s, int threads, uint64_t nodes)
{
    const LockStats *l[2] = {&s->pool_lock, &s->sp_lock};
    const char *name[2] = {"pool_lock", "sp_lock"};
    writer_printf(out, "SMP stats: threads=%d cpus=%d nodes=%llu wall_ns=%lld virtual_ns=%lld "
                  "cpu_ns=%lld gap_ns=%lld gap_vns=%lld splits=%llu helpers=%llu "
                  "cutoffs=%llu no_helper=%llu master_joins=%llu idle_ns=%lld wait_ns=%lld "
                  "idle_vns=%lld wait_vns=%lld lock_timing=%d clock_ns=%.1f",
                  threads, s->cpus, (unsigned long long)nodes, (long long)s->wall_ns,
                  (long long)s->virtual_ns, (long long)s->cpu_ns, (long long)s->gap_ns,
                  (long long)s->gap_vns, (unsigned long long)s->splits,
                  (unsigned long long)s->helpers, (unsigned long long)s->cutoffs,
                  (unsigned long long)s->split_failed, (unsigned long long)s->master_joins,
                  (long long)s->idle_ns, (long long)s->wait_ns, (long long)s->idle_vns,
                  (long long)s->wait_vns, SMP_LOCK_TIMING, clock_read_ns());
    for (int i = 0; i < 2; i++)
        writer_printf(out, " %s_count=%llu %s_hold_ns=%lld %s_wait_ns=%lld %s_long=%llu "
                      "%s_long_ns=%lld", name[i], (unsigned long long)l[i]->count, name[i],
                      (long long)l[i]->hold_ns, name[i], (long long)l[i]->wait_ns, name[i],
                      (unsigned long long)l[i]->long_count, name[i], (long long)l[i]->long_ns);
    writer_printf(out, "\n");
}

void smpstats_print_checks(Writer *out, const SplitStats *s)
{
    writer_printf(out, "Search checks: %llu stale exclusions, %llu wrong double-extension counts, "
                  "%llu wrong node counts\n", (unsigned long long)s->stale_exclusions,
                  (unsigned long long)s->bad_double_extensions,
                  (unsigned long long)s->bad_node_counts);
}

void smpstats_command(Engine *e, int argc, char **argv, Writer *out, char *err, size_t err_size)
{
    bool reset = argc == 2 && !strcmp(argv[1], "reset");
    if (argc > 2 || (argc == 2 && !reset)) {
        snprintf(err, err_size, "usage: smpstats [reset]");
        return;
    }
    SplitStats stats;
    engine_smp_stats(e, &stats, false);
    int threads = (int)option_int(engine_options(e), OPT_THREADS);
    if (threads > 1)
        smpstats_print_summary(out, &stats, threads);
    if (SEARCH_CHECKS)
        smpstats_print_checks(out, &stats);
    else
        writer_printf(out, "Search checks: not counted in this build (make checks)\n");
    if (reset)
        engine_smp_stats(e, &stats, true);
}
