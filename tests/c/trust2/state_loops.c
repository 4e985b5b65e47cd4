/* Loops whose exit the input decides through state: a flag set under a
 * decision, and a state machine stepped by a driver, with a switch and a
 * callback. Their iterations count towards k (before, the search followed
 * them as far as the input string grew, and a run under a time limit never
 * ended). A loop of fixed count with a decision in its body still costs
 * nothing against k. */

/* The number of characters before the first ';' or the end. */
int until_semicolon(const char *s)
{
    int done = 0, i = 0;
    while (!done) {
        if (s[i] == ';' || s[i] == '\0')
            done = 1;
        else
            i++;
    }
    return i;
}

enum state { IDLE, NUMBER, WORD, DONE };

struct machine {
    enum state st;
    int tokens;
    void (*emit)(struct machine *, int);
    int last;
};

static void on_token(struct machine *m, int kind)
{
    m->last = kind;
    m->tokens++;
}

static enum state step(struct machine *m, char c)
{
    switch (m->st) {
    case IDLE:
        if (c >= '0' && c <= '9')
            return NUMBER;
        if (c >= 'a' && c <= 'z')
            return WORD;
        if (c == '\0')
            return DONE;
        return IDLE;
    case NUMBER:
        if (c >= '0' && c <= '9')
            return NUMBER;
        m->emit(m, 1);
        return c == '\0' ? DONE : IDLE;
    case WORD:
        if (c >= 'a' && c <= 'z')
            return WORD;
        m->emit(m, 2);
        return c == '\0' ? DONE : IDLE;
    default:
        return DONE;
    }
}

/* Tokens (runs of digits or of lower-case letters) in a string. */
int count_tokens(const char *s)
{
    struct machine m = {IDLE, 0, on_token, 0};
    for (int i = 0; m.st != DONE; i++)
        m.st = step(&m, s[i]);
    return m.tokens;
}

/* A loop of fixed count: its 4 iterations do not count towards k, so each
 * of the 2^4 sign patterns is a path. */
int positives(const int v[4])
{
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (v[i] > 0)
            n++;
    return n;
}
