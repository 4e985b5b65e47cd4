/* Modelled string functions, leaks and uninitialised heap reads
 * (crates/cli/tests/memory.rs). Line numbers are part of the tests. */
#include <stdlib.h>
#include <string.h>
#include "pathwise.h"

struct pair {
    int a;
    char c;
    int b;
};

/* One path per length of s up to k, then the k bound. */
int str_len(char *s)
{
    return (int)strlen(s);
}

/* Equal, less, greater: decided byte by byte. */
int str_cmp(char *s, char *t)
{
    int r = strcmp(s, t);
    if (r < 0)
        return -1;
    if (r > 0)
        return 1;
    return 0;
}

/* memcmp over two 2-byte inputs: the arrays grow to the bytes read. */
int mem_cmp(char *s, char *t)
{
    if (memcmp(s, t, 2) == 0)
        return 1;
    return 0;
}

/* The copy is leaked when x is positive. */
int leak_some(int x)
{
    int *p = malloc(2 * sizeof *p);
    p[0] = x;
    if (x > 0)
        return p[0];
    free(p);
    return 0;
}

/* Always freed: no leak. */
int leak_none(int x)
{
    int *p = malloc(sizeof *p);
    *p = x;
    int r = *p + 1;
    free(p);
    return r;
}

/* Returned, so reachable: no leak. */
struct pair *leak_returned(int x)
{
    struct pair *p = malloc(sizeof *p);
    p->a = x;
    return p;
}

/* p[1] is never written. */
int uninit_read(int x)
{
    int *p = malloc(2 * sizeof *p);
    p[0] = x;
    int r = p[1];
    free(p);
    return r;
}

/* calloc's memory is zero, written memory is initialised, and copying a
 * partly initialised structure (padding and b unset) is fine as long as
 * only the initialised fields are read. */
int uninit_none(int x)
{
    int *z = calloc(2, sizeof *z);
    struct pair *p = malloc(sizeof *p);
    struct pair *q = malloc(sizeof *q);
    p->a = x;
    p->c = 'c';
    memcpy(q, p, sizeof *p);
    struct pair copy = *p;
    int r = z[1] + q->a + q->c + copy.a;
    free(z);
    free(p);
    free(q);
    return r;
}

/* A local array without a terminator when x is 0: strlen reads past it. */
int str_unterminated(int x)
{
    char b[2];
    b[0] = 'a';
    b[1] = x ? 0 : 'b';
    return (int)strlen(b);
}

/* strlen(NULL) is a null dereference. */
int str_null(int x)
{
    char *s = x ? "ab" : 0;
    return (int)strlen(s);
}

/* strcpy into a fresh buffer and strchr in the copy. */
int str_copy_find(void)
{
    char buf[8];
    strcpy(buf, "hello");
    char *e = strchr(buf, 'l');
    return (int)(e - buf) + (strchr(buf, 'z') == 0);
}
