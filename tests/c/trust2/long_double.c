/* `long double` in a helper and in a structure, and a value that is no
 * double (1/3 rounded to x87's 64 bits), computed in 80 bits as x87 does
 * and checked natively. */
struct sample {
    int id;
    long double weight;
};

static long double scale_ld(long double x)
{
    return x * 2.5L;
}

static int scaled(int x)
{
    return (int)scale_ld(x);
}

int scaled_sum(int a, int b)
{
    return scaled(a) + scaled(b);
}

long double weighted(const struct sample *s, int n)
{
    long double sum = 0;
    for (int i = 0; i < n && i < 2; i++)
        sum += s[i].weight * s[i].id;
    return sum;
}

int third_positive(int x)
{
    if (x <= 0)
        return 0;
    long double t = 1.0L / 3; /* x87 rounds to 64 bits: not a double */
    return t > 0.25L;
}
