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
