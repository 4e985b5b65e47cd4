/* Arrays inside structures indexed by a value the inputs choose: the
   element is read and written at that index symbolically, not fixed to
   the run's value. */

#define CAP 6
struct heap { int items[CAP]; int size; };

/* Min-heap insertion through an input structure. */
int heap_push(struct heap *h, int v)
{
    if (h->size < 0 || h->size >= CAP)
        return -1;
    int i = h->size++;
    h->items[i] = v;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (h->items[p] <= h->items[i])
            break;
        int t = h->items[p];
        h->items[p] = h->items[i];
        h->items[i] = t;
        i = p;
    }
    return 0;
}

/* Two input structures that may be one: the write through `a` is seen
   through `b` only when they alias and the index is 2. */
int write_then_read(struct heap *a, struct heap *b, int i)
{
    if (i < 0 || i >= CAP)
        return -1;
    if (b->items[2] == 5)
        return 2;
    a->items[i] = 5;
    if (b->items[2] == 5)
        return 1;
    return 0;
}

/* A local structure whose array is indexed by input data. */
struct tally { int count[4]; int total; };

int most_common(const unsigned char *v, int n)
{
    struct tally t = { { 0, 0, 0, 0 }, 0 };
    if (n < 0 || n > 3)
        return -1;
    for (int i = 0; i < n; i++) {
        t.count[v[i] & 3]++;
        t.total++;
    }
    int best = 0;
    for (int c = 1; c < 4; c++)
        if (t.count[c] > t.count[best])
            best = c;
    return t.count[best] * 10 + best;
}

/* A row and a column of a two-dimensional member. */
struct grid { unsigned char cell[3][3]; int flips; };

int flip(struct grid *g, int r, int c)
{
    if (r < 0 || r >= 3 || c < 0 || c >= 3)
        return -1;
    g->cell[r][c] ^= 1;
    g->flips++;
    if (g->cell[1][2] == 7)
        return 2;
    return g->cell[r][c];
}
