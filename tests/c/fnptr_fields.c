/* Function pointers in input structures: a member is null, one of the
 * unit's functions of its type or the caller's callback (a stub the tests
 * define), decided where the path calls or compares it. Used by
 * crates/cli/tests/function_pointers.rs. */

struct ops {
    int (*read)(int);
    int state;
};

int twice(int x)
{
    return 2 * x;
}

int neg(int x)
{
    return -x;
}

int use(struct ops *o, int v)
{
    if (o->read == 0)
        return -1;
    if (o->read(v) > 10)
        return 1;
    return 0;
}

struct sorter {
    int (*cmp)(const void *, const void *);
    const char *name;
};

int by_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

int ordered(const struct sorter *s, int x, int y)
{
    if (s->cmp(&x, &y) < 0)
        return 1;
    return 0;
}
