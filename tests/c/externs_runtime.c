/* External functions next to the C library's (crates/cli/tests/externs.rs):
 * with --external-all, only what the function under test can call gets a
 * stub. The C library and gcov's runtime call some of the same functions
 * (gcov calls fopen when a test process writes its counters); a stub of
 * those must leave their calls alone. */
#include <stdio.h>
#include <stdlib.h>

int read_level(int channel);

/* Calls read_level only; fopen is called by other code. */
int classify_level(int channel)
{
    int v = read_level(channel);
    if (v > 100)
        return 2;
    if (v > 10)
        return 1;
    return 0;
}

/* Never run by the tests of classify_level: fopen is no stub there. */
int open_log(const char *path)
{
    FILE *f = fopen(path, "a");
    return f != NULL;
}

/* A C library function the function under test calls: its stub replays the
 * test's value for this call, and passes gcov's own calls of getenv (it
 * reads GCOV_PREFIX when it writes the counters) to the C library. */
int verbose(void)
{
    return getenv("VERBOSE") != 0;
}
