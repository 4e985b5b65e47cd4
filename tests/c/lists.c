/* Linked structures whose paths revisit objects through other access
 * paths (crates/cli/tests/heap.rs): every solved prefix must be followed
 * by its run, and every test replayed concretely along its path. */
#include <stdlib.h>
#include <string.h>

struct node {
    int val;
    struct node *next;
};

/* A cyclic list makes c->next a node read before: the reference the heap
 * solver's expression ends in must stay a valid one (null or an object). */
struct node *insert_sorted(struct node *l, int v)
{
    struct node *n = malloc(sizeof *n);
    struct node *c;
    n->val = v;
    if (!l || v <= l->val) {
        n->next = l;
        return n;
    }
    c = l;
    while (c->next && c->next->val < v)
        c = c->next;
    n->next = c->next;
    c->next = n;
    return l;
}

struct entry {
    char name[8];
    int age;
    struct entry *next;
};

struct table {
    int nbuckets;
    struct entry *buckets[4];
};

/* strcmp's byte tests on an input structure's field are decisions of the
 * path in the concrete replay too. */
int lookup(struct table *tb, const char *name)
{
    unsigned h;
    struct entry *e;
    if (!tb || tb->nbuckets <= 0 || tb->nbuckets > 4)
        return -1;
    h = (unsigned char)name[0] % (unsigned)tb->nbuckets;
    for (e = tb->buckets[h]; e; e = e->next)
        if (strcmp(e->name, name) == 0)
            return e->age;
    return -2;
}
