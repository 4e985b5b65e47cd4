/* containers.c: heap-allocated data structures and strings as utility
 * libraries keep them: a singly linked list (remove by key, freeing the
 * node), an int vector growing with realloc, an open-addressing lookup over
 * string keys, a path join and a lower-casing strdup returning malloc'd
 * strings, and a recursive-descent evaluator of integer expressions.  Part
 * of the Pathwise corpus (crates/cli/tests/corpus.rs): each function's
 * `// pathwise:` line gives the options its suite is generated with; every
 * test must pass natively and gcov must agree with the predicted
 * coverage. */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "pathwise.h"

struct node {
    int key;
    struct node *next;
};

/* Unlink and free the first node holding key; returns 1 if one was found.
 * The pointer-to-pointer walk of the Linux kernel's lists. */
// pathwise: gen --function list_remove --k 2 --precondition list_remove_pre
int list_remove(struct node **head, int key)
{
    struct node **pp = head;

    while (*pp != NULL) {
        struct node *n = *pp;
        if (n->key == key) {
            *pp = n->next;
            free(n);
            return 1;
        }
        pp = &n->next;
    }
    return 0;
}

/* The nodes come from malloc (as list_push makes them) and form a proper
 * list: no cycle, no node reachable twice. */
int list_remove_pre(struct node **head, int key)
{
    (void)key;
    if (head == NULL)
        return 0;
    pathwise_array_len(head, 1);
    pathwise_acyclic(*head);
    return 1;
}

/* Prepend a new node; returns the new head, or NULL when out of memory
 * (the list is then unchanged). */
// pathwise: gen --function list_push --k 2 --precondition list_push_pre --check-leaks
struct node *list_push(struct node *head, int key)
{
    struct node *n = malloc(sizeof *n);

    if (n == NULL)
        return NULL;
    n->key = key;
    n->next = head;
    return n;
}

int list_push_pre(struct node *head, int key)
{
    (void)key;
    pathwise_acyclic(head);
    return 1;
}

struct intvec {
    int *items;
    size_t len;
    size_t cap;
};

/* Append x, doubling the capacity when full; -1 when out of memory. */
// pathwise: gen --function intvec_push --k 2 --precondition intvec_push_pre
int intvec_push(struct intvec *v, int x)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 2;
        int *p = realloc(v->items, cap * sizeof *p);
        if (p == NULL)
            return -1;
        v->items = p;
        v->cap = cap;
    }
    v->items[v->len++] = x;
    return 0;
}

int intvec_push_pre(struct intvec *v, int x)
{
    (void)x;
    if (v == NULL || v->cap > 4 || v->len > v->cap)
        return 0;
    pathwise_array_len(v, 1);
    if (v->cap == 0)
        return v->items == NULL;
    if (v->items == NULL)
        return 0;
    pathwise_array_len(v->items, v->cap);
    return 1;
}

struct entry {
    const char *key;
    int value;
};

#define TABLE_SIZE 4

/* Look key up in an open-addressing table (linear probing from the key's
 * djb2 hash; a NULL key ends a probe run); returns the value or -1. */
// pathwise: gen --function table_get --k 1 --precondition table_get_pre --max-array-len 4
int table_get(const struct entry *table, const char *key)
{
    unsigned long h = 5381;
    const char *p;
    size_t i, probes;

    for (p = key; *p; p++)
        h = h * 33 + (unsigned char)*p;
    i = h % TABLE_SIZE;
    for (probes = 0; probes < TABLE_SIZE; probes++) {
        const struct entry *e = &table[i];
        if (e->key == NULL)
            return -1;
        if (strcmp(e->key, key) == 0)
            return e->value;
        i = (i + 1) % TABLE_SIZE;
    }
    return -1;
}

int table_get_pre(const struct entry *table, const char *key)
{
    if (table == NULL || key == NULL)
        return 0;
    pathwise_array_len(table, TABLE_SIZE);
    return 1;
}

/* dir + "/" + name in a new string (no doubled slash when dir ends with
 * one; an empty dir gives name); NULL when out of memory. */
// pathwise: gen --function path_join --k 2 --precondition path_join_pre --check-leaks
char *path_join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    int slash = dl > 0 && dir[dl - 1] != '/';
    char *out = malloc(dl + (size_t)slash + nl + 1);

    if (out == NULL)
        return NULL;
    memcpy(out, dir, dl);
    if (slash)
        out[dl] = '/';
    memcpy(out + dl + slash, name, nl + 1);
    return out;
}

int path_join_pre(const char *dir, const char *name)
{
    return dir != NULL && name != NULL;
}

/* A lower-cased copy of s; NULL when out of memory. */
// pathwise: gen --function strdup_lower --k 2 --precondition strdup_lower_pre --check-leaks
char *strdup_lower(const char *s)
{
    size_t n = strlen(s), i;
    char *d = malloc(n + 1);

    if (d == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        d[i] = (char)tolower((unsigned char)s[i]);
    d[n] = '\0';
    return d;
}

int strdup_lower_pre(const char *s)
{
    return s != NULL;
}

/* Recursive-descent evaluation of + - * and parentheses over single-digit
 * operands (a calculator's grammar: expr = term {(+|-) term}, term =
 * factor {* factor}, factor = digit | '(' expr ')').  Errors set *err. */
static long expr(const char **s, int *err);

static long factor(const char **s, int *err)
{
    long v;

    if (isdigit((unsigned char)**s))
        return *(*s)++ - '0';
    if (**s != '(') {
        *err = 1;
        return 0;
    }
    (*s)++;
    v = expr(s, err);
    if (**s != ')') {
        *err = 1;
        return 0;
    }
    (*s)++;
    return v;
}

static long term(const char **s, int *err)
{
    long v = factor(s, err);

    while (!*err && **s == '*') {
        (*s)++;
        v *= factor(s, err);
    }
    return v;
}

static long expr(const char **s, int *err)
{
    long v = term(s, err);

    while (!*err && (**s == '+' || **s == '-')) {
        char op = *(*s)++;
        long w = term(s, err);
        v = op == '+' ? v + w : v - w;
    }
    return v;
}

/* The value of the whole string, or LONG_MIN on a syntax error. */
// (k = 5: each activation of expr, term and factor counts as one more of
// their recursive cycle, so "(5)" is already 5 activations below the first.)
// pathwise: gen --function eval_expr --k 5 --precondition eval_expr_pre --max-array-len 4
long eval_expr(const char *src)
{
    int err = 0;
    long v = expr(&src, &err);

    if (err || *src != '\0')
        return LONG_MIN;
    return v;
}

int eval_expr_pre(const char *src)
{
    return src != NULL;
}
