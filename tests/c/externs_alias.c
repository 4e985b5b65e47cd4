/* Seed 003, Figure 6.1 (the heap-solver example of chapter 6) with its
 * external calls: call_a .. call_d have no body and do not touch the heap
 * (pathwise gen --external NAME). Expected tests in
 * crates/cli/tests/externs.rs. */
#include <stddef.h>

struct r {
    int f;
};

void call_a(void);
void call_b(void);
void call_c(int v);
void call_d(int v);

/* 2 tests, not one per aliasing of the three pointers: x == z calls
 * call_c(-4), x != z calls call_d(2). */
void m(struct r *x, struct r *y, struct r *z)
{
    x->f = 1;
    z->f = -5;
    call_a();
    y->f = x->f + 1;
    call_b();
    if (x == z)
        call_c(y->f);
    else
        call_d(y->f);
}

int m_pre(struct r *x, struct r *y, struct r *z)
{
    return x != NULL && y != NULL && z != NULL;
}

