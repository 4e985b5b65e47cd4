/* Heap inputs and outputs: lists, aliasing, allocation, memory errors.
 * Each function's expected tests are in crates/cli/tests/heap.rs. */
#include <stdlib.h>

struct node {
    int data;
    struct node *next;
};

struct r {
    int f;
};

/* Seed 003, Figure 6.1, with results instead of external calls. */
int alias_m(struct r *x, struct r *y, struct r *z)
{
    x->f = 1;
    z->f = -5;
    y->f = x->f + 1;
    if (x == z)
        return y->f;
    return y->f + 100;
}

int alias_pre(struct r *x, struct r *y, struct r *z)
{
    return x != NULL && y != NULL && z != NULL;
}

/* Length of a list (k bounds the loop). */
int length(struct node *n)
{
    int c = 0;
    while (n != NULL) {
        c++;
        n = n->next;
    }
    return c;
}

/* A new node in front: the output heap has a malloc'd object. */
struct node *push(struct node *head, int v)
{
    struct node *n = malloc(sizeof *n);
    n->data = v;
    n->next = head;
    return n;
}

/* Writes through two pointers: only their aliasing decides the result. */
int swap_sum(struct node *a, struct node *b)
{
    int t = a->data;
    a->data = b->data;
    b->data = t;
    if (a->data == t)
        return 1;
    return 0;
}

/* Use after free when the flag is set. */
int use_after_free(int flag)
{
    struct node *n = malloc(sizeof *n);
    n->data = 3;
    if (flag)
        free(n);
    int d = n->data;
    if (!flag)
        free(n);
    return d;
}

/* Double free when the flag is set. */
void double_free(int flag)
{
    struct node *n = malloc(sizeof *n);
    free(n);
    if (flag)
        free(n);
}

/* `void *` parameters: the type they are converted to is what they point
 * to (seed 003's casts "where the target type is known"). */
struct point {
    int x;
    int y;
};

int void_point(void *p)
{
    struct point *q = p;
    if (q->x > q->y)
        return 1;
    return 0;
}

/* A comparator: both parameters point to ints. */
int void_compare(const void *a, const void *b)
{
    int x = *(const int *)a;
    int y = *(const int *)b;
    if (x < y)
        return -1;
    return x > y;
}

/* Conversions that disagree leave the parameter bytes: an int read from
 * them is assembled from four of them (no false out-of-bounds report). */
int void_mixed(void *p, int k)
{
    if (k)
        return *(int *)p;
    return *(char *)p;
}
