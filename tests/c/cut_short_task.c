/* A Test-Comp style program whose run stops at what Pathwise does not
 * model (printf's `%p`): the run's inputs are still a test, and natively
 * the program goes on past that point (crates/cli/tests/honest_exits.rs). */
extern int __VERIFIER_nondet_int(void);
extern int printf(const char *, ...);

int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x > 2)
        return 3;
    printf("%p\n", (void *)&x);
    if (x > 1)
        return 1;
    return 0;
}
