/* level() calls clamp(), whose helper twice() only clamp calls: with a
 * summary of clamp, neither is predicted (the summary runs instead), and
 * gcov's coverage of level agrees. */
static int twice(int x)
{
    if (x < 0)
        return 0;
    return 2 * x;
}

int clamp(int x)
{
    if (x > 100)
        return 100;
    return twice(x);
}

int level(int x)
{
    int c = clamp(x);
    if (c == 100)
        return 2;
    if (c == 0)
        return 0;
    return 1;
}
