/* Units for `gen --criterion all-local-paths` (seed 003, ch. 5.3.1):
 * one test per path of the function under test's own CFG, whatever paths
 * its callees take.  Counts derived by hand in
 * crates/cli/tests/local_paths.rs. */

/* A callee with three paths. */
int sign3(int x)
{
    if (x < 0)
        return -1;
    if (x == 0)
        return 0;
    return 1;
}

/* Two calls of sign3 (3 x 3 callee paths), then two own decisions:
 * local paths: s == 0; s != 0 and a > b; s != 0 and a <= b. */
int twice(int a, int b)
{
    int s = sign3(a) + sign3(b);
    if (s == 0)
        return 0;
    if (a > b)
        return 1;
    return 2;
}

/* A loop whose body calls sign3: the own decisions are the loop's
 * condition and `t > 1`; sign3's paths are free. */
int count_pos(int a, int b, int n)
{
    int t = 0;
    int i;
    for (i = 0; i < n; i++)
        t += sign3(i == 0 ? a : b);
    if (t > 1)
        return 1;
    return 0;
}
