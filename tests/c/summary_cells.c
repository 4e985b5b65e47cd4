/* Summaries of callees that read and write memory through pointer
 * parameters: a local structure (run3), a structure passed by value
 * (mean), an input structure (twice). `add` has 3 paths; three calls of it
 * in sequence have 27 monolithically. */
struct acc {
    int total;
    int count;
};

void add(struct acc *a, int v)
{
    if (v > 100)
        v = 100;
    else if (v < -100)
        v = -100;
    a->total += v;
    a->count++;
}

int mean(struct acc a)
{
    if (a.count == 0)
        return 0;
    return a.total / a.count;
}

int run3(int x, int y, int z)
{
    struct acc a = {0, 0};
    add(&a, x);
    add(&a, y);
    add(&a, z);
    if (a.total == 300)
        return 1;
    if (a.total == -250)
        return 2;
    return mean(a);
}

int twice(struct acc *p, int v)
{
    add(p, v);
    add(p, v);
    if (p->count == 7)
        return p->total;
    return 0;
}
