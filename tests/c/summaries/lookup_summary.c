/* Summary of lookup(): -1 for a negative key, 0 for 0, the key itself
 * for a positive one. */
#include "pathwise.h"

int pathwise_summary_lookup(int key)
{
    if (pathwise_case(key < 0))
        return -1;
    if (pathwise_case(key == 0))
        return 0;
    if (pathwise_case(key > 0))
        return key;
    return 0;
}
