/* A function returning `bool` from <stdbool.h>: gcc -E marks the expansion
 * of `bool` as system-header text inside this file. */
#include <stdbool.h>

bool in_range(int x, int lo, int hi)
{
    if (x < lo)
        return false;
    return x <= hi;
}
