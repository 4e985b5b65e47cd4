/* Two pointer parameters into one buffer, as real C libraries pass them
 * (crates/cli/tests/same_buffer.rs): a start and an end, a cursor and a
 * limit. Pathwise makes them point into one array where the function
 * orders or subtracts them (C defines nothing else), or where the
 * precondition says so (pathwise_same_object, pathwise_assume(end == s +
 * n)); the tests build one array and pass `s` and `s + n`. */
#include <stddef.h>
#include "pathwise.h"

/* The first character of [p, end) that is not a blank, or end. */
const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Parse the decimal digits at *pp (before end) into *out and advance *pp
 * past them; -1 when there is none. */
int parse_uint(const char **pp, const char *end, unsigned *out)
{
    const char *p = *pp;
    unsigned v = 0;
    if (p == end || *p < '0' || *p > '9')
        return -1;
    while (p < end && *p >= '0' && *p <= '9') {
        v = v * 10 + (unsigned)(*p - '0');
        p++;
    }
    *out = v;
    *pp = p;
    return 0;
}

/* How many times c occurs in [s, end). */
int count_char(const char *s, const char *end, char c)
{
    int n = 0;
    for (const char *p = s; p != end; p++)
        if (*p == c)
            n++;
    return n;
}

/* The last c in [s, end), or NULL (memrchr). */
const char *last_char(const char *s, const char *end, char c)
{
    while (end > s) {
        end--;
        if (*end == c)
            return end;
    }
    return NULL;
}

/* The length of [s, end). */
long span(const char *s, const char *end)
{
    return end - s;
}

/* The sum of the n ints at a, or -1 when they do not fit before end. */
long sum_n(const int *a, const int *end, size_t n)
{
    if (n > (size_t)(end - a))
        return -1;
    long sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += a[i];
    return sum;
}

/* end is a + n, one past the n ints of a: the precondition says so. */
int sum_n_pre(const int *a, const int *end, size_t n)
{
    pathwise_array_len(a, n);
    pathwise_assume(end == a + n);
    return 1;
}

/* skip_ws's precondition stated: end points into the array of p. */
int skip_ws_pre(const char *p, const char *end)
{
    pathwise_same_object(end, p);
    return 1;
}
