/* External functions with floating parameters and results: the stubs take
 * and return `float`, `double` and `long double` (in xmm registers or on
 * the x87 stack), check the arguments' bits and return the chosen values. */
float gain(float level);
double calibrate(double raw, int channel);
long double refine(long double estimate);

int sense(int channel)
{
    double v = calibrate(channel * 0.5, channel);
    if (v > 1.0)
        return 2;
    if (gain(-1.5f) < 0)
        return -1;
    return 0;
}

long double improve(int steps)
{
    long double e = 1.0L / 3;
    long double r = refine(e * steps);
    if (r > e)
        return r - e;
    return e;
}
