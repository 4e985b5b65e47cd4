/* Input objects whose count pathwise_array_len ties, reached through
 * another pointer that may alias them (tests/c/heap_arrays.c has the
 * counts alone).  Whether an access past the first element is checked
 * against the tied count (an out-of-bounds error) or grows a free one
 * depends on the aliasing, which the path leaves open: every run of a
 * prefix must record the same explorable entries, whichever aliasing its
 * model picks, or it is taken for a divergence and its path lost. */
#include <stddef.h>
#include "../../crates/cfront/include/pathwise.h"

struct rational {
    int num;
    int den;
};

int copies_pre(struct rational *src, struct rational *dst)
{
    pathwise_assume(src != NULL);
    pathwise_assume(dst != NULL);
    pathwise_array_len(dst, 2);
    return 1;
}

/* src[0].num equals dst[0].num after the store only when src and dst are
 * one array: the T side needs the alias, which reads src[1] against the
 * tied count where the first run (no alias) grew a free one. */
int copies(struct rational *src, struct rational *dst)
{
    dst[0].den = src[1].num;
    dst[0].num = src[0].num ^ 1;
    if (src[0].num == dst[0].num)
        return 1;
    return 0;
}

int first_past_pre(struct rational *src, struct rational *dst)
{
    pathwise_assume(src != NULL);
    pathwise_assume(dst != NULL);
    pathwise_array_len(dst, 1);
    return 1;
}

/* src[1] is out of bounds when src is dst, which has one element. */
int first_past(struct rational *src, struct rational *dst)
{
    return src[1].num > dst[0].num;
}

int arraycopy_pre(struct rational **src, struct rational **dst, int len)
{
    pathwise_assume(src != NULL);
    pathwise_assume(dst != NULL);
    pathwise_array_len(dst, len);
    return 1;
}

/* The shape of seed 003's arraycopy summary (tests/c/summaries): dst has
 * len elements, src as many as the path reads, and they may be one. */
void arraycopy(struct rational **src, struct rational **dst, int len)
{
    int i;
    for (i = 0; i < len; i++)
        dst[i] = src[i];
}
