/* Tests of the check build (src/search/checks.h): the search compiled with its invariants
 * counted. Each invariant is counted per thread and summed by engine_smp_stats; any
 * count above zero fails. */
#include "search/checks.h"
#include "test.h"

/* The build compiles src/search/ with the checks on, or every test here is vacuous. */
TEST(checks_are_compiled_in)
{
    CHECK_EQ(SEARCH_CHECKS, 1);
}
