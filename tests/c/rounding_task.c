/* A Test-Comp style program whose run stops at what Pathwise does not
 * model (long double arithmetic rounded upward): the run's inputs are
 * still a test, and natively the program goes on past that point
 * (crates/cli/tests/rounding.rs). */
extern double __VERIFIER_nondet_double(void);
extern int fesetround(int);

int main(void)
{
    double d = __VERIFIER_nondet_double();
    if (d > 2)
        return 3;
    fesetround(0x800); /* FE_UPWARD */
    long double y = (long double)d * 3;
    if (y > 1)
        return 1;
    return 0;
}
