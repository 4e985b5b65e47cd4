/* A header-only library: its functions are static inline in the header. */
#ifndef CLAMP_LIB_H
#define CLAMP_LIB_H
static inline int clamp_to(int x, int lo, int hi)
{
    if (x < lo)
        return lo;
    if (x > hi)
        return hi;
    return x;
}
#endif
