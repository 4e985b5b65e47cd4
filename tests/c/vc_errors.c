/* Runtime errors that --method vc and the concolic search must agree on
 * (issue 28, "Methods that agree"): crates/cli/tests/vc_method.rs compares
 * the (kind, line) of every error test of both methods. */
#include "../../crates/cfront/include/pathwise.h"

/* An index from the caller that the precondition does not bound (a read
 * before the start, a read past the end), and a division by a parameter
 * (by zero, INT_MIN / -1). */
int pick(int *a, int n, int i, int d)
{
    int s = 0;
    for (int j = 0; j < n; j++)
        s += a[j];
    if (i < n)
        s = a[i];
    else
        s = s + a[i - n];
    return s / d;
}

int pick_pre(int *a, int n, int i, int d)
{
    pathwise_array_len(a, n);
    return n >= 1 && n <= 3;
}

/* A shift by a parameter: out of range, or overflowing. */
int scale(int x, int by)
{
    if (x < 0)
        return 0;
    return x << by;
}

/* The inferred contract (buf, len): buf has len elements, and the read
 * at `at` may be past it (no precondition). */
int at_or_last(const int *buf, int len, int at)
{
    int last = 0;
    for (int i = 0; i < len; i++)
        last = buf[i];
    if (at > 0)
        return buf[at];
    return last;
}

/* A string parameter (read only, no length): reading s[1] when s is ""
 * reads past its NUL, an error the VC's encoding has no model of. */
int first_two(const char *s)
{
    return s[0] + s[1];
}

/* The index of a string read merged from two paths: the engine knows it
 * on each run (and checks the NUL), the VC's encoding does not (one term
 * for both paths): that read's error is named as not sought. */
int second_or_first(const char *s, int second)
{
    int j = 0;
    if (second)
        j = 1;
    return s[j];
}
