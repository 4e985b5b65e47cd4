/* Variadic functions of the unit, tested through their callers: a logger
 * that formats with vsnprintf, a sum over va_arg, an average of doubles. */
#include <stdarg.h>
#include <stdio.h>

static int verbose;
static char last[32];

/* Formats into `last` when verbose; returns the length vsnprintf gives. */
static int note(const char *fmt, ...)
{
    va_list ap;
    int n;
    if (!verbose)
        return 0;
    va_start(ap, fmt);
    n = vsnprintf(last, sizeof last, fmt, ap);
    va_end(ap);
    return n;
}

int clamp(int x, int lo, int hi)
{
    if (x < lo) {
        note("%d below %d", x, lo);
        return lo;
    }
    if (x > hi) {
        note("%d above %d", x, hi);
        return hi;
    }
    return x;
}

/* Sets `verbose` and reports: the length of the message. */
int report(int code, const char *who)
{
    verbose = 1;
    if (code < 0)
        return note("%s failed: %d", who, code);
    return note("ok %u", (unsigned)code);
}

int sum(int n, ...)
{
    va_list ap;
    va_list again;
    int s = 0, i;
    va_start(ap, n);
    va_copy(again, ap);
    for (i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    va_end(again);
    return s;
}

int pair_sum(int a, int b)
{
    return sum(2, a, b) > 10;
}

/* Asks for three arguments and passes two: reading the third is
 * undefined (out of bounds of the arguments passed). */
int short_sum(int a)
{
    return sum(3, a, a);
}

double mean(int n, ...)
{
    va_list ap;
    double s = 0;
    int i;
    va_start(ap, n);
    for (i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return n ? s / n : 0;
}

int above_mean(int a)
{
    if (mean(2, 1.5, (double)a) > 3.0)
        return 1;
    return 0;
}
