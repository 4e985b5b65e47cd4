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

/* Symbolic allocation sizes: the size stays an input of the path, so the
 * branch on n after the allocation keeps both sides (4 tests: n out of
 * range either way, 1..4, 5..8), and memset over the whole object does not
 * fix it. */
int sized_buffer(int n)
{
    char *p;
    int s;
    if (n <= 0 || n > 8)
        return -1;
    p = malloc(n);
    memset(p, 1, n);
    if (n > 4)
        s = p[4];
    else
        s = p[0] + 10;
    free(p);
    return s;
}

/* An index checked against a symbolic size: n == 0 makes a[i] out of
 * bounds; otherwise the store is in bounds and a[0] is 3 or 0. */
int sized_index(unsigned n, int i)
{
    int *a = calloc(n, sizeof(int));
    int r;
    if (i < 0 || i > 1)
        return -1;
    a[i] = 3;
    r = a[0];
    free(a);
    return r;
}

/* realloc to a symbolic larger size keeps it symbolic; copying the old
 * bytes keeps their values. */
int grow(int n)
{
    int *a = malloc(2 * sizeof(int));
    int *b;
    int r;
    if (n < 2 || n > 6)
        return -1;
    a[0] = 7;
    a[1] = 8;
    b = realloc(a, n * sizeof(int));
    b[n - 1] = 1;
    r = n > 3 ? b[0] : b[1];
    free(b);
    return r;
}

/* Symbolic indices into malloc'd ints: the store and the load index the
 * array's content (no offset is fixed), so a[j] == 5 exactly when i == j. */
int sym_index(int i, int j)
{
    int *a = malloc(4 * sizeof(int));
    int k, r;
    if ((unsigned)i > 3 || (unsigned)j > 3) {
        free(a);
        return -1;
    }
    for (k = 0; k < 4; k++)
        a[k] = 0;
    a[i] = 5;
    r = a[j] == 5 ? 1 : 0;
    if (a[j] == 5)
        r += 10;
    free(a);
    return r;
}
