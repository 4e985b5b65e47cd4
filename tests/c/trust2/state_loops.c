/* Loops whose exit the input decides through state: a flag set under a
 * decision, and a state machine stepped by a driver, with a switch and a
 * callback. Their iterations count towards k (before, the search followed
 * them as far as the input string grew, and a run under a time limit never
 * ended). A loop of fixed count with a decision in its body still costs
 * nothing against k. */
#include <string.h>

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

/* An index stepped by 1 or 2 under a decision, tested against a constant:
 * 3 to 6 iterations, which the bound does not cut: 21 paths (a decision
 * at each index reached, the last one may step past 6). */
int skip_pairs(const unsigned char b[6])
{
    int i = 0, n = 0;
    while (i < 6) {
        if (b[i] & 0x80)
            i += 2;
        else
            i++;
        n++;
    }
    return n;
}

/* A flag set by a fixed count: counted like state (the rule is static), so
 * at k = 2 no path ends within the bound and the summary says so; --k 3
 * gives the 2^4 paths. */
int flagged_four(const int v[4])
{
    int done = 0, i = 0, n = 0;
    while (!done) {
        if (v[i] > 0)
            n++;
        if (i == 3)
            done = 1;
        i++;
    }
    return n;
}

static const struct {
    const char *name;
    int id;
} keywords[] = {{"if", 1}, {"else", 2}, {"while", 3}, {"for", 4}, {"do", 5}, {0, 0}};

/* A keyword table searched to its end (no early return): `strcmp` writes
 * nothing, so the table's end, not k, ends the loop, and every keyword is
 * found. */
int keyword_id(const char *s)
{
    int id = 0;
    for (int i = 0; keywords[i].name; i++)
        if (strcmp(keywords[i].name, s) == 0)
            id = keywords[i].id;
    return id;
}
