/* A summary of a function lookup.c does not have (a typo). */
#include "pathwise.h"

int pathwise_summary_lokup(int key)
{
    if (pathwise_case(key < 0))
        return -1;
    return 0;
}
