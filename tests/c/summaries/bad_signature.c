/* A summary of lookup() with the wrong parameter type. */
#include "pathwise.h"

int pathwise_summary_lookup(long key)
{
    if (pathwise_case(key < 0))
        return -1;
    return 0;
}
