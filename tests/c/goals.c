/* Small units for cost models, cost policies and guided generation
 * (crates/cli/tests/cost.rs and guided.rs). */
#include <stdlib.h>

int helper(int x)
{
    return x + 1;
}

/* The allocation is n ints (a symbolic cost: 4*n); helper runs once or
 * twice. */
int alloc_sum(int n, int twice)
{
    int *p;
    int s;
    if (n <= 0 || n > 100)
        return -1;
    p = malloc(n * sizeof(int));
    p[0] = helper(n);
    if (twice)
        p[0] = helper(p[0]);
    s = p[0];
    free(p);
    return s;
}

/* `return 7` is dead; `return 99` needs a third iteration (k >= 3). */
int count_up(int x)
{
    int i, s = 0;
    if (x > 5 && x < 3)
        return 7;
    for (i = 0; i < x; i++) {
        s++;
        if (s == 3)
            return 99;
    }
    return s;
}
