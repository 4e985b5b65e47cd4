/* Allocations that fail: each function tests (or forgets to test) what
 * malloc, calloc, realloc or strdup returned. */
#include <stdlib.h>
#include <string.h>

struct vec {
    int *data;
    unsigned len, cap;
};

/* realloc failing leaves v as it was. */
int vec_push(struct vec *v, int x)
{
    if (v->len == v->cap) {
        unsigned nc = v->cap ? v->cap * 2 : 4;
        int *d = realloc(v->data, nc * sizeof *d);
        if (!d)
            return -1;
        v->data = d;
        v->cap = nc;
    }
    if (v->len >= v->cap)
        return -2;
    v->data[v->len++] = x;
    return 0;
}

/* The result stored into a structure, then tested there. */
int vec_init(struct vec *v, unsigned cap)
{
    v->len = 0;
    v->cap = 0;
    v->data = calloc(cap ? cap : 1, sizeof *v->data);
    if (v->data == NULL)
        return -1;
    v->cap = cap;
    return 0;
}

struct pair {
    char *name;
    int *vals;
};

/* Two allocations; the second one's failure path frees the first. */
struct pair *pair_new(const char *name)
{
    struct pair *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    p->name = strdup(name);
    if (!p->name) {
        free(p);
        return NULL;
    }
    p->vals = NULL;
    return p;
}

/* The same, with the classic leak on the error path. */
struct pair *pair_new_leaky(int n)
{
    struct pair *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    p->vals = malloc(sizeof(int) * 4);
    if (!p->vals)
        return NULL;
    p->vals[0] = n;
    p->name = NULL;
    return p;
}

/* Never tested: a valid object unless every allocation may fail. */
int scratch(int n)
{
    int *p = malloc(sizeof(int) * 4);
    p[0] = n;
    p[1] = p[0] + 1;
    n = p[1];
    free(p);
    return n;
}

/* Used before it is tested: when malloc fails, the store crashes. */
int late_check(int n)
{
    int *p = malloc(sizeof *p);
    *p = n;
    if (!p)
        return -1;
    n = *p;
    free(p);
    return n;
}
