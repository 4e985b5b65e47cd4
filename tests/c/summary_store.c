/* --summary-store DIR (crates/cli/tests/compositional.rs): two functions under
 * test share helpers; the test edits a copy of this file to change one. */

int magnitude(int x)
{
    if (x < 0)
        return -x;
    return x;
}

int level(int x)
{
    if (magnitude(x) > 10)
        return 2;
    return 1;
}

int parity(int y)
{
    if (y % 2 == 0)
        return 0;
    return 1;
}

int first(int a, int b)
{
    return level(a) + level(b) + parity(a);
}

int second(int a)
{
    if (level(a) == 2)
        return parity(a);
    return 3;
}
