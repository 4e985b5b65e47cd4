/* IEEE 754 exceptions as errors a user asks for (`gen --check
 * float-overflow,float-div-by-zero`), and the float-to-int check that is on
 * by default (`--no-check float-to-int` turns it off). Single precision
 * where the solver has to multiply: it is much faster than double. */

/* A product that may overflow, then a branch on it. */
float scale(float x, float y)
{
    float r = x * y;
    if (r > 1.0f)
        return r / 2.0f;
    return r;
}

/* A division that may overflow (a tiny divisor) or divide by zero. */
float ratio(float num, float den)
{
    return num / den;
}

/* A double too large for a float. */
float narrow(double d)
{
    return (float)d;
}

/* A sum that may overflow only where the guard lets it. */
double sum_if_small(double a, double b)
{
    if (a < 1e300 && a > -1e300)
        return a + 1.0;
    return a + b;
}

/* A conversion that C leaves undefined out of int's range. */
int truncate(double d)
{
    return (int)d;
}
