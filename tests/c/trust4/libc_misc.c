/* C library functions modelled as glibc computes them: perror, fwrite,
 * strerror, rand and srand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reports a negative value on stderr. */
int check(int x)
{
    if (x < 0) {
        errno = EINVAL;
        perror("check");
        return -1;
    }
    return x;
}

/* Writes a record to an output stream: the items fwrite reports. */
int save(const char *rec)
{
    size_t n = strlen(rec);
    if (n == 0)
        return 0;
    return (int)fwrite(rec, 1, n, stdout);
}

/* The first letter of the message of errno value e (ENOENT or EACCES). */
int first_letter(int which)
{
    const char *m = strerror(which ? ENOENT : EACCES);
    return m[0];
}

/* Two dice from a seeded generator: a double, or their sum. */
int dice(int lucky)
{
    srand(lucky ? 7 : 3);
    int a = rand() % 6 + 1, b = rand() % 6 + 1;
    if (a == b)
        return 100 + a;
    return a + b;
}

/* glibc's printf reads a `long double` for `%llg` and `%qe`, as for
   `%Lg`: the length of the text (1 + 2^-60 has no `double`). */
int long_double_text(int fine)
{
    char buf[80];
    long double v = fine ? 1.0L + 0x1p-60L : -1.25L;
    return snprintf(buf, sizeof buf, "%.20llg|%.20Lg|%.20qe", v, v, v);
}
