/* A summary of lookup() with no case for a positive key: such calls are
 * reported. */
#include "pathwise.h"

int pathwise_summary_lookup(int key)
{
    if (pathwise_case(key < 0))
        return -1;
    if (pathwise_case(key == 0))
        return 0;
    return 0;
}
