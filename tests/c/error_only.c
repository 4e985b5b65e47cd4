/* Suites whose tests end in errors (crates/cli/tests/trustworthy.rs):
 * replay still measures their coverage where gcov can (a sanitizer check
 * ends a basic block), and leaves out the tests it cannot (a signed
 * overflow traps inside a block). */

/* Every path divides by zero: two error tests, no test returns. */
int always_div(int x)
{
    int zero = 0;
    if (x > 10)
        return x / zero;
    return 1 / zero;
}

/* Every path overflows (through a variable: gcc folds `x - C1 - C2` into
 * one subtraction, which may not overflow). */
int always_overflow(int x)
{
    int big = 2147483647;
    if (x > 0)
        return x + big;
    return x - big - 2;
}

/* One test returns, one overflows: the overflowing test alone takes the
 * branch's then side, which gcov cannot see. */
int sometimes_overflow(int x)
{
    if (x > 1000)
        return x * 3000000;
    return x;
}

/* A precondition no input meets: no test at all. */
int never(int x)
{
    (void)x;
    return 0;
}
