/* Units of the concolic statement and branch covers
 * (crates/cli/tests/concolic_covers.rs): the counts there are derived by
 * hand from these bodies. */

/* Three outcomes; the x == 0 path runs no statement of its own. */
int sign(int x) {
    int r = 0;
    if (x > 0)
        r = 1;
    else if (x < 0)
        r = -1;
    return r;
}

/* The inner return is dead: no x is both above 10 and below 5. */
int dead(int x) {
    if (x > 10) {
        if (x < 5)
            return -1;
        return 1;
    }
    return 0;
}

static int clamp(int v, int lo, int hi) {
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

/* Two calls of clamp per test: its three returns need two tests. */
int clamp2(int a, int b) {
    return clamp(a, 0, 100) + clamp(b, 0, 100);
}

/* `hit = 1` needs a third iteration: infeasible at k = 2, not at k = 3. */
int third(int n) {
    int i = 0;
    int hit = 0;
    while (i < n) {
        i++;
        if (i == 3)
            hit = 1;
    }
    return hit;
}
