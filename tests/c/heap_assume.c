/* Heap assumptions (seed 003, section 6.3): each function is generated
 * without and with a precondition stating one assumption; the paths the
 * assumption rules out must disappear, the others stay. */
#include <stddef.h>
#include "../../crates/cfront/include/pathwise.h"

struct node {
    int data;
    struct node *next;
};

/* A one-node cycle. */
int self_loop(struct node *l)
{
    if (l == NULL)
        return 0;
    if (l->next == l)
        return 1;
    return 2;
}

int self_loop_pre(struct node *l)
{
    pathwise_acyclic(l);
    return 1;
}

/* A two-node cycle, found through a second access path. */
int two_cycle(struct node *l)
{
    if (l == NULL || l->next == NULL)
        return 0;
    if (l->next->next == l)
        return 1;
    return 2;
}

int two_cycle_pre(struct node *l)
{
    pathwise_acyclic(l);
    return 1;
}

/* Two non-null lists. */
int same_list(struct node *a, struct node *b)
{
    if (a == b)
        return 1;
    return 2;
}

int same_list_pre(struct node *a, struct node *b)
{
    pathwise_noalias(a, b);
    return a != NULL;
}

/* Two lists sharing their second node. */
int share_next(struct node *a, struct node *b)
{
    if (a == NULL || b == NULL)
        return 0;
    if (a->next != NULL && a->next == b->next)
        return 1;
    return 2;
}

int share_next_pre(struct node *a, struct node *b)
{
    pathwise_nonsharing(a, b);
    return 1;
}
