/* Functions returning pointers (crates/cli/tests/pointer_returns.rs): each
 * test checks the returned pointer as what it points to, never as an
 * integer. */
#include <stdlib.h>
#include <string.h>

/* Into the argument: an offset into the test's input array. */
char *skip_spaces(char *s)
{
    while (*s == ' ')
        s++;
    return s;
}

/* NULL, or into the argument (strchr-like). */
char *find_char(char *s, char c)
{
    for (; *s; s++)
        if (*s == c)
            return s;
    return 0;
}

/* An int array: the element's address. */
int *largest(int *a, int n)
{
    int *best = a;
    for (int i = 1; i < n; i++)
        if (a[i] > best[0])
            best = &a[i];
    return best;
}

/* A fresh object: the test compares its bytes, then frees it. */
char *duplicate(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d == 0)
        return 0;
    memcpy(d, s, n + 1);
    return d;
}

/* String literals: constant storage, compared by contents. */
const char *sign_name(int x)
{
    if (x < 0)
        return "negative";
    if (x == 0)
        return "zero";
    return "positive";
}

/* A static buffer: the returned pointer is the global's address. */
static char digit_buf[4];

char *digit_text(int d)
{
    if (d < 0 || d > 9)
        return 0;
    digit_buf[0] = (char)('0' + d);
    digit_buf[1] = '\0';
    return digit_buf;
}
