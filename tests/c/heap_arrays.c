/* Arrays behind input pointers: a pointer to a structure or to a pointer
 * may point to the first of several elements.  Without a stated length the
 * array is as long as the path needs (no out-of-bounds report); a length
 * stated with pathwise_array_len makes an access beyond it an error. */
#include <stddef.h>
#include "../../crates/cfront/include/pathwise.h"

struct rec {
    int key;
    struct rec *next;
};

/* Free length: n <= 0, a null v (n >= 1), 1 and 2 iterations (k = 2). */
int sum_keys(struct rec *v, int n)
{
    int s = 0;
    int i;
    for (i = 0; i < n; i++)
        s += v[i].key;
    return s;
}

/* An array of pointers, each possibly null: the second element's target
 * is reached through an input array of pointers. */
int second_key(struct rec **rs)
{
    if (rs[1] == NULL)
        return -1;
    return rs[1]->key;
}

/* A length tied to n: reading v[1] when n == 1 is out of bounds. */
int first_two(struct rec *v, int n)
{
    if (n < 1)
        return 0;
    return v[0].key + v[1].key;
}

int first_two_pre(struct rec *v, int n)
{
    if (v == NULL || n > 4)
        return 0;
    pathwise_array_len(v, n);
    return 1;
}

/* A length tied through a field: l->items has l->count elements. */
struct vec {
    int count;
    struct rec *items;
};

int last_key(struct vec *l)
{
    return l->items[l->count - 1].key;
}

int last_key_pre(struct vec *l)
{
    if (l == NULL || l->items == NULL || l->count < 1 || l->count > 3)
        return 0;
    pathwise_array_len(l->items, l->count);
    return 1;
}

/* An off-by-one through the same tie: the loop reads count + 1 elements. */
int sum_vec_bad(struct vec *l)
{
    int s = 0;
    int i;
    for (i = 0; i <= l->count; i++)
        s += l->items[i].key;
    return s;
}
