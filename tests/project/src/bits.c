/* Bit and integer helpers. */
#include "bits.h"

int popcount8(unsigned char x)
{
    int n = 0;
    int i;
    for (i = 0; i < 8; i++)
        n += bit_at(x, i);
    return n;
}

int is_pow2(unsigned x)
{
    return x != 0 && (x & (x - 1)) == 0;
}

unsigned next_pow2(unsigned x)
{
    if (x <= 1)
        return 1;
    if (x > 0x80000000u)
        return 0;
    x--;
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return x + 1;
}

int min3(int a, int b, int c)
{
    int m = a;
    if (b < m)
        m = b;
    if (c < m)
        m = c;
    return m;
}

int max_of_pre(const int *a, int n)
{
    return a != 0 && n > 0;
}

int max_of(const int *a, int n)
{
    int m = a[0];
    int i;
    for (i = 1; i < n; i++) {
        if (a[i] > m)
            m = a[i];
    }
    return m;
}

/* Non-negative arguments only: see pathwise.toml (precondition gcd_args). */
int gcd_args(int a, int b)
{
    return a >= 0 && b >= 0;
}

int gcd(int a, int b)
{
    while (b != 0) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int sign(int x)
{
    if (x > 0)
        return 1;
    if (x < 0)
        return -1;
    return 0;
}
