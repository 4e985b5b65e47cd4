/* Tables the program owns, indexed by an input: handlers called through
   a table of function pointers, names looked up in a table of strings,
   and entries of a constant table returned by address. */

static int op_add(int a, int b) { return a + b; }
static int op_sub(int a, int b) { return a - b; }
static int op_max(int a, int b) { return a > b ? a : b; }

static int (*const handlers[3])(int, int) = { op_add, op_sub, op_max };

/* One path per handler: each is called, and its overflow found. */
int dispatch(unsigned op, int a, int b)
{
    if (op >= 3)
        return 0;
    return handlers[op](a, b);
}

static const char *const names[] = { "zero", "one", "two" };

/* One path per name. */
const char *name_of(unsigned i)
{
    if (i > 2)
        return "many";
    return names[i];
}

static const int primes[] = { 2, 3, 5, 7 };

/* The address of an entry of a constant table, checked as that address. */
const int *prime_after(int n)
{
    if (n < 2)
        return &primes[0];
    if (n < 5)
        return &primes[2];
    return 0;
}
