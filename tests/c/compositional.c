/* gen --compositional (crates/cli/tests/compositional.rs): summarisable
 * callees and callees with side effects, which fall back to monolithic
 * exploration. */

int calls;

/* Writes a global: not summarisable, every call explored. */
int bump(int x)
{
    calls++;
    if (x > 0)
        return 1;
    return 0;
}

int twice(int a, int b)
{
    return bump(a) + bump(b);
}

/* Summarisable, and its callee too. */
int sign(int x)
{
    if (x < 0)
        return -1;
    if (x == 0)
        return 0;
    return 1;
}

int step(int x)
{
    return sign(x - 10) + 1;
}

/* Calls a function with side effects: not summarisable either. */
int wrap(int x)
{
    return bump(x) * 2;
}

int mixed(int a, int b, int c, int d)
{
    int s = step(a) + step(b) + step(c);
    int w = wrap(d) + wrap(a);
    if (s == 6)
        return w;
    if (s + w == 1)
        return -1;
    return 0;
}

/* Ignores the result of a callee whose bottom-up cases differ only by the
 * path of its own callee (`step` has no branch, `sign` three paths): each
 * case is still taken by a test. */
int ignored(int a)
{
    step(a);
    return 1;
}
