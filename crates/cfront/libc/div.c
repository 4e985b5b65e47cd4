/* div, ldiv and lldiv as glibc 2.36 computes them (stdlib/div.c): C99's
 * truncating division, so that dividing by zero or INT_MIN by -1 is the
 * program's error, at the call. */

div_t div(int numer, int denom)
{
    div_t r;
    r.quot = numer / denom;
    r.rem = numer % denom;
    return r;
}

ldiv_t ldiv(long numer, long denom)
{
    ldiv_t r;
    r.quot = numer / denom;
    r.rem = numer % denom;
    return r;
}

lldiv_t lldiv(long long numer, long long denom)
{
    lldiv_t r;
    r.quot = numer / denom;
    r.rem = numer % denom;
    return r;
}
