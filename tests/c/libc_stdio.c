/* <stdio.h> models (crates/cli/tests/libc.rs): formatting into buffers,
 * printing without effect on the program's memory. */
#include <stdio.h>
#include <string.h>

/* Printing an input neither forks nor fixes it: 2 paths. */
int show(int x)
{
    printf("value %d\n", x);
    fprintf(stdout, "debug %d\n", x);
    if (x > 10)
        return 1;
    return 0;
}

/* What printf returns is an expression of the value (1 path). */
int printed_length(int x, unsigned u)
{
    return printf("[%5d|%x|%-3u|%+.2d|%#o]\n", x, u, u, x, u);
}

/* Branches on what printf returns: the solver finds inputs of each
 * length, and the native run checks them. 4 paths: "%#o|%#x|%.0u\n" is at
 * least 5 bytes ("0|0|\n"), so b == 4 is infeasible. */
int branch_on_length(int x, unsigned u)
{
    int a = printf("%d\n", x);
    int b = printf("%#o|%#x|%.0u\n", u, u, u);
    if (a == 4)
        return 1;
    if (a == 12)
        return 2;
    if (b == 4)
        return 3;
    if (b > 20)
        return 4;
    return 0;
}

/* snprintf of an input string into a buffer, then strlen. */
int bracket(const char *s)
{
    char buf[6];
    int n = snprintf(buf, sizeof buf, "[%s]", s);
    return n * 10 + (int)strlen(buf);
}

/* A symbolic integer formatted into a buffer is fixed (reported). */
int digits(int x)
{
    char buf[16];
    sprintf(buf, "%d", x);
    return (int)strlen(buf);
}

/* Concrete formats: flags, widths, precisions, length modifiers and
 * floating conversions; the checksum compares every byte natively. */
int formats(void)
{
    char b[256];
    int n = 0, i;
    unsigned sum = 0;
    n += sprintf(b, "%5.3d|%-4s|%#o|%#x|%+d|% d|%.0d|%#.0o|%hhd|%lu|%zu|%05d|%-05d|%.3s|%c|%%|%*d|%-*d|%.*s", 7, "ab",
                 8, 255, 3, 4, 0, 0, 300, 4294967296UL, (size_t)5, -42, 42, "abcdef", 'Z', 4, 1, 3, 2, 2, "xyz");
    for (i = 0; b[i]; i++)
        sum = sum * 31 + (unsigned char)b[i];
    n += snprintf(b, sizeof b, "%f %e %g %.3g %G %10.2f %-8.1e| %g %g %#g %+.0f", 3.14159, 1234.5, 0.0001,
                  123456789.0, 1e-10, -2.5, 0.5, 100000.0, 1e6, 1.5, 2.5);
    for (i = 0; b[i]; i++)
        sum = sum * 31 + (unsigned char)b[i];
    n += snprintf(b, 4, "%s", "truncated");
    n += (int)strlen(b) * 1000;
    n += snprintf(NULL, 0, "%d", -12345) * 10000;
    return n + (int)(sum % 1000003);
}

/* puts, fputs, putchar, fputc return glibc's values. */
int others(void)
{
    int r = puts("line");
    r = r * 10 + fputs("text\n", stdout);
    r = r * 1000 + putchar(200 + 256);
    r = r * 1000 + fputc('A', stdout);
    r += fflush(stdout);
    putchar('\n');
    return r;
}

/* Integer conversions of a table of values under a table of formats: one
 * path whose checksum of every byte the native run recomputes. */
unsigned format_table(void)
{
    static const char *const formats[] = {
        "%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%.3d", "%8.3d", "%-8.3d|", "%.0d", "%+.0d", "%x", "%#x", "%#X",
        "%08x", "%#08x", "%#.0x", "%o", "%#o", "%#.0o", "%#5o", "%u", "%10u", "%-10u|", "%c", "%3c|", "%-3c|",
        "%hhd", "%hhu", "%hd", "%hu", "%%%d%%",
    };
    static const int values[] = {0, 1, -1, 7, 8, 10, -10, 255, 256, 1000, -12345, 65535, 65536, 2147483647,
                                 -2147483647 - 1};
    static const long longs[] = {0, -1, 4294967296L, -9223372036854775807L - 1, 9223372036854775807L};
    unsigned sum = 0;
    char b[64];
    unsigned i, j;
    int k;
    for (i = 0; i < sizeof formats / sizeof formats[0]; i++)
        for (j = 0; j < sizeof values / sizeof values[0]; j++) {
            int n = snprintf(b, sizeof b, formats[i], values[j]);
            sum = sum * 31 + (unsigned)n;
            for (k = 0; b[k]; k++)
                sum = sum * 31 + (unsigned char)b[k];
        }
    for (j = 0; j < sizeof longs / sizeof longs[0]; j++) {
        int n = snprintf(b, sizeof b, "%ld|%lu|%lx|%lld|%llo|%zu|%20ld|%-+21ld|", longs[j], (unsigned long)longs[j],
                         (unsigned long)longs[j], (long long)longs[j], (unsigned long long)longs[j],
                         (size_t)longs[j], longs[j], longs[j]);
        sum = sum * 31 + (unsigned)n;
        for (k = 0; b[k]; k++)
            sum = sum * 31 + (unsigned char)b[k];
    }
    return sum;
}

/* Floating conversions of a table of values: one path whose checksum the
 * native run recomputes (exact decimal expansions, ties to even). */
unsigned float_table(void)
{
    static const char *const formats[] = {"%f", "%.0f", "%.1f", "%#.0f", "%10.3f", "%-10.2f|", "%+f", "% .2f", "%010.2f",
                                          "%e", "%.0e", "%#.0e", "%.3E", "%12.4e", "%g", "%.0g", "%.1g", "%#g",
                                          "%.10g", "%G", "%-12g|", "%+.3g", "%012g"};
    static const double values[] = {0.0, -0.0, 1.0, -1.5, 0.5, 2.5, 0.125, 0.375, 1e-5, 123456.789, 1e15, 1e16,
                                    1e21, -1e-300, 5e-324, 1.7976931348623157e308, 0.1, 9.9999, 99999.95, 1e-4};
    unsigned sum = 0;
    char b[400];
    unsigned i, j;
    int k;
    for (i = 0; i < sizeof formats / sizeof formats[0]; i++)
        for (j = 0; j < sizeof values / sizeof values[0]; j++) {
            int n = snprintf(b, sizeof b, formats[i], values[j]);
            sum = sum * 31 + (unsigned)n;
            for (k = 0; b[k]; k++)
                sum = sum * 31 + (unsigned char)b[k];
        }
    return sum;
}

/* `%s` of a string reached through an input structure, which may be null:
 * the null pointer is an error test and the strings of length 0..2 are the
 * others (the error check's other side is explored, as for a load). */
struct named {
    const char *name;
};

int show_name(const struct named *n)
{
    return printf("<%s>\n", n->name);
}

/* A buffer size from the inputs: whether the output fits is a decision of
 * the path (the size was fixed to its first value, and the output always
 * fitted or never did). */
int fits(size_t cap)
{
    char buf[16];
    if (cap > sizeof buf)
        return -1;
    int n = snprintf(buf, cap, "%s", "abc");
    if ((size_t)n >= cap)
        return 0;
    return n;
}
