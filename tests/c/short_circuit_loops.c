/* Loops whose condition is a chain of `&&` and `||` (issue: the k bound
 * did not hold for them). The front end lowers such a condition into one
 * branch block per operand; every branch of the chain that decides
 * between another iteration and leaving is a loop decision, so an
 * iteration chosen by any operand counts towards k (once). The expected
 * counts at k = 2 are derived in crates/engine/tests/short_circuit_loops.rs. */

/* A conjunction whose operands both depend on the inputs. */
int skip_spaces_n(const char *s, int n)
{
    int i = 0;
    while (i < n && s[i] == ' ')
        i++;
    return i;
}

/* A disjunction: a space or a tab continues. */
int skip_blanks(const char *s)
{
    int i = 0;
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    return i;
}

/* The length of the first word after the blanks. */
int next_word(const char *s)
{
    int i = 0;
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    int start = i;
    while (s[i] != '\0' && s[i] != ' ' && s[i] != '\t')
        i++;
    return i - start;
}

/* A disjunction under a conjunction whose last operand does not depend on
 * the inputs: the symbolic operands alone choose the iterations. */
int skip_blanks_capped(const char *s)
{
    int i = 0;
    while ((s[i] == ' ' || s[i] == '\t') && i < 8)
        i++;
    return i;
}

/* A do-while with a disjunction: its first iteration is free. */
int blanks_after_first(const char *s)
{
    int i = 0;
    do
        i++;
    while (s[i] == ' ' || s[i] == '\t');
    return i;
}

/* A fixed-count loop around a symbolic `if`: the `if` is no loop
 * decision (both sides meet again before the loop's condition), so the
 * three rounds cost nothing against k. */
int count_positive(const int *a)
{
    int c = 0;
    for (int i = 0; i < 3; i++)
        if (a[i] > 0)
            c++;
    return c;
}
