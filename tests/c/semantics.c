/* Integer semantics corpus: each function is generated for and its tests
 * run natively, so any disagreement between Pathwise's model of C and gcc
 * shows up as a failing test (the expected outputs come from the engine). */
#include <limits.h>

unsigned char uc_wrap(unsigned char a, unsigned char b)
{
    unsigned char c = a + b;          /* promoted to int, truncated back */
    if (c < a)
        return 1;
    return (unsigned char)(a * b);
}

int mixed_signedness(int i, unsigned u)
{
    if (i < u)                         /* usual arithmetic conversions: unsigned */
        return 1;
    if ((long)i < (long)u)
        return 2;
    return 3;
}

int shifts(int x, unsigned s, unsigned char c)
{
    if (s >= 32)
        return 0;
    int r = (x >> s) ^ (int)(c << 3);  /* arithmetic shift; char promoted */
    if (r < 0)
        return -1;
    return (int)((unsigned)x >> s) & 0xff;
}

long div_mod(long a, long b)
{
    if (b == 0 || (a == LONG_MIN && b == -1))
        return 0;
    long q = a / b, r = a % b;         /* truncation toward zero */
    if (r < 0)
        return q * 10 + 1;
    return q * 10;
}

short narrow(int a, signed char b)
{
    short s = (short)(a * 3);
    if (s == b)
        return 7;
    if ((unsigned short)s > 40000)
        return (short)(s - b);
    return s;
}

int bools(_Bool p, int q)
{
    _Bool r = q;                       /* any nonzero is 1 */
    if (p && !r)
        return 1;
    return (p || r) ? 2 + r : 4;
}

unsigned long long big(unsigned long long x, long long y)
{
    if (x > 0xF000000000000000ULL && y < -5)
        return x + (unsigned long long)y;
    if (x * 3 == 9)
        return ~x;
    return x ^ (unsigned long long)y;
}

int counters(const int *a, int n, int key)
{
    int lt = 0, eq = 0;
    for (int i = 0; i < n && i < 4; i++) {
        switch (a[i] - key) {
        case 0:
            eq++;
            break;
        case -1:
        case -2:
            lt += 2;
            /* fall through */
        default:
            lt++;
        }
    }
    return lt * 16 + eq;
}

int g_total;
int g_hist[4];

void histogram(const unsigned char *v, int n)
{
    int i = 0;
    while (i < n) {
        g_hist[v[i] & 3]++;
        g_total += v[i];
        i++;
    }
}

int aliasing(int x, int y, int tab[])
{
    /* seed 002, Figure 3: a write through a pointer computed from inputs
     * may or may not alias the element the condition reads */
    int v = x * 2;
    int *pt;
    if (x < -50 || x > 50 || y < -50 || y > 50)
        return 0;
    v = v - y;
    pt = &tab[2];
    tab[2] = x;
    *(pt + v) = y;
    if (tab[y + 4] > 5)
        return 1;
    return 2;
}

int goto_loop(int n)
{
    int s = 0;
again:
    if (n > 0) {
        s += n--;
        if (s > 100)
            goto done;
        goto again;
    }
done:
    return s;
}

static int fact(int n)
{
    return n <= 1 ? 1 : n * fact(n - 1);
}

int use_fact(int n)
{
    if (n > 12)
        return -1;
    return fact(n) % 1000;
}

int bytes_of(void *p, int n)
{
    unsigned char *c = p;
    if (n > 0 && c[0] == 7)
        return 1;
    return 0;
}

int quotient(int a, int b)
{
    return a / b;                      /* b == 0 ends a run; b != 0 is a test */
}

/* Mutual recursion: one cycle entered through is_even; k bounds the
 * activations of is_even nested below the first one (seed 000's depth). */
int is_odd(int n);

int is_even(int n)
{
    if (n == 0)
        return 1;
    return is_odd(n - 1);
}

int is_odd(int n)
{
    if (n == 0)
        return 0;
    return is_even(n - 1);
}

enum colour { RED, GREEN = 5, BLUE };

int compound(signed char c, unsigned short u, int i)
{
    c += 300;                          /* converted back to signed char */
    u -= i;                            /* unsigned short arithmetic in int */
    i ^= c << 2;
    i %= 7 + (u & 1);
    if (c > 10)
        return i + u;
    return i - (int)sizeof(c) * BLUE;
}

int incdec(unsigned char x, int y)
{
    int a = x++;
    a += ++x;
    int b = (y--, y * 2);
    unsigned char z = 255;
    z++;
    if (x == 2 && z == 0)
        return a + b;
    return y > 0 ? a : -b;
}

int matrix(int r, int c)
{
    int m[3][4];
    int i, j, s = 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            m[i][j] = i * 10 + j;
    if (r < 0 || r >= 3 || c < 0 || c >= 4)
        return -1;
    int *p = &m[r][c];
    int *q = &m[0][0];
    s = (int)(p - q);
    return s * 100 + m[r][c];
}

/* A static local: each test runs in its own process, so its state starts
 * fresh in every test, as it did during generation. */
int counter(int step)
{
    static int total = 0;
    total += step;
    if (total > 10)
        total = 0;
    return total;
}
