/* Readable suites (issue 28): a checked integer parser over a string, whose
 * inputs should be printable characters and NUL-terminated string literals,
 * and an enumeration state machine, whose values should be enumerator
 * names (crates/cli/tests/readable.rs). */
#include <limits.h>

/* -1 on a bad digit or an empty string, -2 on overflow, 0 with *out set. */
int parse_int(const char *s, int *out)
{
    int v = 0, neg = 0;
    if (*s == '-') {
        neg = 1;
        s++;
    }
    if (*s == 0)
        return -1;
    while (*s) {
        int d;
        if (*s < '0' || *s > '9')
            return -1;
        d = *s - '0';
        if (v > (INT_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
        s++;
    }
    *out = neg ? -v : v;
    return 0;
}

/* A byte in decimal: -2 past 255 (three digits reach it, k = 3). */
int parse_byte(const char *s)
{
    int v = 0;
    if (*s == 0)
        return -1;
    while (*s) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > 255)
            return -2;
        s++;
    }
    return v;
}

/* Division by zero and INT_MIN / -1 are error tests. */
int per_tick(int total, int ticks)
{
    if (total < 0)
        return -1;
    return total / ticks;
}

enum light { RED, RED_AMBER, GREEN, AMBER };
enum event { TICK = 1, EMERGENCY = 4 };

enum light next(enum light l, enum event e)
{
    if (e == EMERGENCY)
        return RED;
    switch (l) {
    case RED:
        return RED_AMBER;
    case RED_AMBER:
        return GREEN;
    case GREEN:
        return AMBER;
    default:
        return RED;
    }
}

/* How many ticks a light takes to reach GREEN; -1 when it never does. */
int ticks_to_green(enum light l, int limit)
{
    int n = 0;
    while (l != GREEN) {
        if (n >= limit)
            return -1;
        l = next(l, TICK);
        n++;
    }
    return n;
}

/* An input structure's integer fields read as the parameters' do: the
 * name's bytes printable or NUL, the numbers small where the path allows. */
struct record {
    char name[8];
    int id;
    unsigned short flags;
    long balance;
};

int classify_record(const struct record *r)
{
    if (r->name[0] == 'x' && r->id > 1000)
        return 2;
    if (r->name[1] != 0 && r->flags > 3)
        return 1;
    if (r->balance < 0)
        return -1;
    return 0;
}
