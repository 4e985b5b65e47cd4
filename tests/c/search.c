/* qsort and bsearch: their comparators are code of the unit (or the
 * caller's callback), which Pathwise runs inside C versions of the two
 * library functions that compare in glibc's order. Used by
 * crates/cli/tests/search.rs. */
#include <stdlib.h>

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The median of three values, by sorting them. */
int median3(int a, int b, int c)
{
    int v[3] = {a, b, c};
    qsort(v, 3, sizeof v[0], by_value);
    return v[1];
}

/* The index of key in a sorted table, or -1. */
int find(int key)
{
    static const int table[4] = {2, 3, 5, 7};
    const int *p = bsearch(&key, table, 4, sizeof table[0], by_value);
    return p ? (int)(p - table) : -1;
}

/* The smallest of three values under the caller's order. */
int first_of(int (*cmp)(const void *, const void *), int a, int b, int c)
{
    int v[3] = {a, b, c};
    qsort(v, 3, sizeof v[0], cmp);
    return v[0];
}

struct entry {
    int key;
    char tag;
};

static int by_key(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    return x->key - y->key;
}

/* Sorting structures (bytes copied whole) is stable, as glibc's merge
 * sort: equal keys keep their order. */
char stable_tag(int k0, int k1)
{
    struct entry e[2] = {{k0, 'a'}, {k1, 'b'}};
    if (k0 < -1000 || k0 > 1000 || k1 < -1000 || k1 > 1000)
        return 0;
    qsort(e, 2, sizeof e[0], by_key);
    return e[0].tag;
}
