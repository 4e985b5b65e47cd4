/* qsort and bsearch as glibc 2.36 runs them, lowered with a unit that
 * calls them without defining them (see cfront's `libc_sources`): the
 * comparator is code of the unit, which the engine can only call from
 * code. The comparisons are made in glibc's order, so that a test whose
 * comparator is a stub that checks its calls passes against the real
 * library. PW_SIZE_T is the data model's size_t. */

/* glibc's msort_with_tmp: a stable top-down merge sort through a buffer. */
static void pathwise_msort(char *b, PW_SIZE_T n, PW_SIZE_T s, int (*cmp)(const void *, const void *), char *t)
{
    PW_SIZE_T n1, n2, i;
    char *b1, *b2, *tmp;
    if (n <= 1)
        return;
    n1 = n / 2;
    n2 = n - n1;
    b1 = b;
    b2 = b + n1 * s;
    pathwise_msort(b1, n1, s, cmp, t);
    pathwise_msort(b2, n2, s, cmp, t);
    tmp = t;
    while (n1 > 0 && n2 > 0) {
        if ((*cmp)(b1, b2) <= 0) {
            for (i = 0; i < s; i++)
                tmp[i] = b1[i];
            b1 += s;
            --n1;
        } else {
            for (i = 0; i < s; i++)
                tmp[i] = b2[i];
            b2 += s;
            --n2;
        }
        tmp += s;
    }
    for (i = 0; i < n1 * s; i++)
        tmp[i] = b1[i];
    for (i = 0; i < (n - n2) * s; i++)
        b[i] = t[i];
}

void qsort(void *base, PW_SIZE_T n, PW_SIZE_T s, int (*cmp)(const void *, const void *))
{
    char t[n * s + 1];
    pathwise_msort((char *)base, n, s, cmp, t);
}

/* glibc's bits/stdlib-bsearch.h. */
void *bsearch(const void *key, const void *base, PW_SIZE_T n, PW_SIZE_T s, int (*cmp)(const void *, const void *))
{
    PW_SIZE_T l = 0, u = n, idx;
    const void *p;
    int c;
    while (l < u) {
        idx = (l + u) / 2;
        p = (const void *)((const char *)base + idx * s);
        c = (*cmp)(key, p);
        if (c < 0)
            u = idx;
        else if (c > 0)
            l = idx + 1;
        else
            return (void *)p;
    }
    return (void *)0;
}
