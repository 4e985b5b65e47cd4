/* Subscripts of arrays that lie inside a larger object: a structure
 * member, a row of a two-dimensional array. C bounds such an index by the
 * array's own length (gcc's -fsanitize=bounds checks it), which the
 * object's bounds do not: buf[8] below reads `head`. */

#define N 8

struct ring {
    int buf[N];
    unsigned head, tail;
};

/* head >= 8 reads past buf: the input model used to fix head to the run's
 * value, and no test ever asked for such a head. */
int ring_peek(const struct ring *r)
{
    if (r->head == r->tail)
        return -1;
    return r->buf[r->head];
}

/* The address one past the end is valid, and no access is made there. */
int ring_room(const struct ring *r)
{
    const int *end = &r->buf[N];
    const int *at = &r->buf[r->tail % N];
    return (int)(end - at);
}

/* A structure passed by value is one object: vals[i] for i >= 4 reads
 * past it (before, the run lengthened it into an array of two). */
struct table {
    int n;
    int vals[4];
};

int lookup(struct table t, int i)
{
    if (i < 0 || i > 10)
        return 0;
    return t.vals[i];
}

/* m[0][5] lies inside m, but outside its row. */
int cell(int i, int j)
{
    int m[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    if (i < 0 || i >= 3 || j < 0)
        return -1;
    return m[i][j];
}

/* The pre-C99 flexible array member: a trailing one-element array that
 * the caller allocates longer. Not checked, as -fsanitize=bounds does not
 * check it. */
struct message {
    unsigned len;
    char text[1];
};

int last_char(const struct message *m)
{
    if (m->len == 0 || m->len > 4)
        return -1;
    return m->text[m->len - 1];
}

/* A trailing array of 8 is no flexible array member: C gives it 8
 * elements, and slots[8] reads past it (the heap model let the caller's
 * object be an array of two, and the read went on into the second). */
struct pool {
    unsigned used;
    int slots[N];
};

int pool_get(const struct pool *p, unsigned i)
{
    if (i >= p->used)
        return -1;
    return p->slots[i];
}

/* Through a pointer, only the object bounds the index: vals[i] for
 * i >= 4 is then past the 20-byte copy. */
int lookup_ptr(struct table t, int i)
{
    const int *v = t.vals;
    if (i < 0 || i > 10)
        return 0;
    return v[i];
}
