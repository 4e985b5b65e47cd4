/* Function pointers in the style of real libraries: a table of handlers,
 * callbacks passed as parameters (optional or not), a comparator, and a
 * structure of operations. */
#include <stddef.h>

typedef int (*binop_fn)(int, int);

static int op_add(int a, int b) { return a + b; }
static int op_sub(int a, int b) { return a - b; }
static int op_min(int a, int b) { return a < b ? a : b; }

struct op { char sym; binop_fn fn; };
static const struct op ops[] = { {'+', op_add}, {'-', op_sub}, {'m', op_min} };

/* Looks the operator up in a table and applies its handler. */
int eval_op(char sym, int a, int b, int *out)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (ops[i].sym == sym) {
            *out = ops[i].fn(a, b);
            return 0;
        }
    }
    return -1;
}

int is_even(int x) { return x % 2 == 0; }
int is_negative(int x) { return x < 0; }

/* Counts the elements a predicate accepts. */
int count_if(const int *v, int n, int (*pred)(int))
{
    int c = 0;
    for (int i = 0; i < n; i++)
        if (pred(v[i]))
            c++;
    return c;
}

int count_if_pre(const int *v, int n, int (*pred)(int))
{
    return v != NULL && n >= 0 && n <= 2 && pred != NULL;
}

/* Folds an array with an optional operator (NULL: the first element). */
int fold(const int *v, int n, binop_fn f)
{
    if (n <= 0)
        return 0;
    int acc = v[0];
    if (f == NULL)
        return acc;
    for (int i = 1; i < n; i++)
        acc = f(acc, v[i]);
    return acc;
}

int fold_pre(const int *v, int n, binop_fn f)
{
    (void)f;
    return n >= 0 && n <= 2 && v[0] > -100 && v[0] < 100 && v[1] > -100 && v[1] < 100;
}

/* A callback API: the unit defines no function of the visitor's type, so
 * the visitor is the caller's (a stub returning what each test needs). */
typedef int (*visit_fn)(void *ctx, int item);

int for_each(const int *items, int n, visit_fn visit, void *ctx)
{
    int visited = 0;
    for (int i = 0; i < n; i++) {
        int r = visit(ctx, items[i]);
        if (r < 0)
            return r;
        if (r == 0)
            break;
        visited++;
    }
    return visited;
}

int for_each_pre(const int *items, int n, visit_fn visit, void *ctx)
{
    (void)items;
    (void)ctx;
    return n >= 0 && n <= 2 && visit != NULL;
}
