/* Structures passed and returned by value (crates/cli/tests/heap.rs): an
 * input structure is a fresh object aliasing nothing, built by the test and
 * passed as a copy; a returned one is checked field by field. Line numbers
 * are part of the tests. */
#include <stddef.h>
#include <string.h>

struct point {
    int x;
    int y;
};

struct seg {
    struct point a;
    struct point b;
    struct point *link;
};

/* Four quadrants: four tests. */
int quadrant(struct point p)
{
    if (p.x >= 0) {
        if (p.y >= 0)
            return 1;
        return 4;
    }
    if (p.y >= 0)
        return 2;
    return 3;
}

/* A structure result (and two overflow errors). */
struct point mid(struct point a, struct point b)
{
    struct point m;
    m.x = a.x / 2 + b.x / 2;
    m.y = a.y / 2 + b.y / 2;
    return m;
}

/* By-value arguments and results between functions of the unit. */
int mid_quadrant(struct point a, struct point b)
{
    return quadrant(mid(a, b));
}

/* The callee's copy: changing it changes nothing the caller sees. */
int modify(struct point p)
{
    p.x = 5;
    return p.x + p.y / 2;
}

/* Nested structures and a pointer member (an input pointer like any). */
int linked(struct seg s)
{
    if (s.link == NULL)
        return 0;
    if (s.link->x == s.b.x - s.a.x / 2)
        return 1;
    return 2;
}

/* A copy of *p returned while *p changes: the result is the old value. */
struct point take(struct point *p)
{
    struct point r = *p;
    p->x = 0;
    return r;
}

/* A union by value and through a pointer: the cells are the members the
 * code reads (bytes beside an int). */
union num {
    int i;
    unsigned char b[4];
};

int second_byte(union num u)
{
    if (u.b[1] == 7)
        return 1;
    return 0;
}

int set_byte(union num *u)
{
    if (u->i == 5) {
        u->b[2] = 9;
        return 1;
    }
    return 0;
}

/* A structure returned from behind a pointer: `*p` is read in this
 * function, so a null p is its null dereference. */
struct point copy_of(struct point *p)
{
    return *p;
}

/* memcmp reads the bytes of the input structures: each byte belongs to a
 * field, which is the input (padding reads as the zeros tests start with). */
struct rec {
    int a;
    short b;
    long c;
};

int same_rec(struct rec *x, struct rec *y)
{
    if (memcmp(x, y, sizeof *x) == 0)
        return 1;
    return 0;
}
