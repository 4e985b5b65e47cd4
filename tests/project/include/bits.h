/* bits: integer and bit helpers. */
#ifndef BITS_H
#define BITS_H

/* A header function: project mode tests the functions of .c files only. */
static inline int bit_at(unsigned x, int i)
{
    return (int)((x >> i) & 1u);
}

int popcount8(unsigned char x);
int is_pow2(unsigned x);
unsigned next_pow2(unsigned x);
int min3(int a, int b, int c);
int max_of(const int *a, int n);
int gcd(int a, int b);
int sign(int x);

#endif
