/* A bottom-up summary whose cases carry a callee's result as an inner
 * variable (simplify2's cases compose gcd's, gcd's compose abs_int's): a
 * run the composition predicts to return must return, or the search must
 * not claim to be complete. */
int abs_int(int x)
{
    if (x >= 0)
        return x;
    return -x;
}

int gcd(int a, int b)
{
    int res;
    while (b != 0) {
        res = a % b;
        a = b;
        b = res;
    }
    return abs_int(a);
}

int simplify2(int n, int d)
{
    int g = gcd(n, d);
    return n / g + d / g;
}

int top(int n, int d)
{
    return simplify2(n, d);
}
