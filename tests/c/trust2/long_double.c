/* `long double` in a helper and in a structure: computed while its values
 * are doubles (x87 extended precision agrees with binary64 there); a value
 * that is not a double stops its path as unsupported, never a wrong test. */
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
