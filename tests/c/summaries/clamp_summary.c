/* Summary of clamp() of clamp.c: 100 above 100, 0 below 0, else 2x. */
#include "pathwise.h"

int pathwise_summary_clamp(int x)
{
    if (pathwise_case(x > 100))
        return 100;
    if (pathwise_case(x < 0))
        return 0;
    if (pathwise_case(x >= 0))
        return 2 * x;
    return 0;
}
