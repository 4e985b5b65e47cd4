/* Seed 004's locate/top (tests/bench/locate.c) with its input of size N:
 * input[0..N], input[N] == 0 (crates/cli/tests/compositional.rs: runs of
 * the monolithic and the compositional search, -D N=... for other sizes). */
#include "pathwise.h"
#include "../bench/locate.c"

#ifndef N
#define N 4
#endif

int top_pre(char *input)
{
    pathwise_array_len(input, N + 1);
    return input[N] == 0;
}
