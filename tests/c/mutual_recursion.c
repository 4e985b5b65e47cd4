/* Mutual recursion (issue: the recursion bound counted every call of a
 * call-graph cycle as one level). Seed 000 (section 4.4) measures the depth
 * of a cycle's path by the hits of the cycle's entry function: one level
 * per re-entry, not per call along the cycle. Expected counts at k = 2
 * are derived in crates/engine/tests/mutual_recursion.rs. */

int eval_expr(const char *s, int *pos);

/* factor := '(' expr ')' | '5' */
int eval_factor(const char *s, int *pos)
{
    if (s[*pos] == '(') {
        (*pos)++;
        int v = eval_expr(s, pos);
        if (s[*pos] == ')') {
            (*pos)++;
            return v;
        }
        return -1;
    }
    if (s[*pos] == '5') {
        (*pos)++;
        return 5;
    }
    return -1;
}

/* term := factor */
int eval_term(const char *s, int *pos)
{
    return eval_factor(s, pos);
}

/* expr := term */
int eval_expr(const char *s, int *pos)
{
    return eval_term(s, pos);
}

/* The function under test: "(5)" is one nesting of the cycle
 * eval_expr -> eval_term -> eval_factor -> eval_expr. */
int parse(const char *s)
{
    int pos = 0;
    return eval_expr(s, &pos);
}

/* A cycle entered through ping whose other function also calls itself:
 * pong's own recursion is bounded like ping's. */
int ping(int n);

int pong(int n)
{
    if (n <= 0)
        return 0;
    if (n % 2)
        return pong(n - 1) + 1;
    return ping(n - 1) + 2;
}

int ping(int n)
{
    if (n <= 0)
        return 0;
    return pong(n - 1) + 3;
}
