/* External functions (pathwise gen --external NAME / --external-all):
 * declared here without a body, described as changing no memory the code
 * under test can see; each call returns a fresh input. The generated test
 * file defines them as stubs. Each function's expected tests are in
 * crates/cli/tests/externs.rs (the heap-solver example of seed 003 is in
 * externs_alias.c). */

int read_sensor(void);
unsigned char read_byte(int port);
void log_value(const char *tag, long v);

/* A fresh return value steers a branch. */
int sensor(void)
{
    if (read_sensor() > 10)
        return 1;
    return 0;
}

/* Calls in a loop, an unsigned result, a pointer argument. */
int sum_bytes(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        unsigned char b = read_byte(i);
        log_value("byte", b);
        if (b == 200)
            s += 1000;
        s += b;
    }
    return s;
}

/* An error test: the divisor comes from an external call. */
int ratio(int a)
{
    return a / read_sensor();
}

/* An external function returning a pointer returns an input pointer, as
 * a pointer parameter is one: null, a fresh object, or an alias of another
 * input object of its type, whichever the path needs; the stub returns the
 * test's object. */
int *buffer(void);

int first(void)
{
    int *b = buffer();
    if (b == 0)
        return -1;
    return b[1] > b[0];
}

struct item {
    int id;
    struct item *next;
};

struct item *lookup(int key);

/* Null results, an alias (the same item twice), two items. */
int same_item(int a, int b)
{
    struct item *x = lookup(a);
    struct item *y = lookup(b);
    if (x == 0 || y == 0)
        return 0;
    if (x == y)
        return 1;
    return x->id > y->id ? 2 : 3;
}

/* A `void *` result has no type to build: refused. */
void *opaque(void);

int use_opaque(void)
{
    return opaque() != 0;
}
