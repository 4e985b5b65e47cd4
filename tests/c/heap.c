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
