/* NULL as an input of every pointer parameter (issue 23): branches that
 * test a pointer get a test with NULL; a pointer used without a test is a
 * contract ("assumes non-null"), not an error test. */
#include <stddef.h>

struct pt {
    int x, y;
};

/* Tests s: the NULL side is a test. */
int len_or_minus(const char *s)
{
    if (!s)
        return -1;
    int n = 0;
    while (s[n])
        n++;
    return n;
}

/* Never tests s: one contract line. */
int starts_with_a(const char *s)
{
    return s[0] == 'a';
}

/* A structure pointer, tested. */
int getx_or(const struct pt *p, int d)
{
    if (p == NULL)
        return d;
    return p->x;
}

/* Tested after the dereference: the test is dead under the contract. */
int late(const int *v)
{
    int x = *v;
    if (v == NULL)
        return 0;
    return x;
}

/* A function pointer, tested. */
int apply_or(int (*f)(int), int x)
{
    return f ? f(x) : x;
}

/* An output buffer, tested, then written. */
int put2(char *out, size_t n)
{
    if (out == NULL || n < 2)
        return -1;
    out[0] = 'o';
    out[1] = 'k';
    return 2;
}
