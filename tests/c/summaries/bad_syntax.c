/* A summary file with a syntax error: the condition of line 6 lacks its
 * closing parenthesis, so the parser stops at `return` (8:9). */
#include "pathwise.h"

int pathwise_summary_lookup(int key)
{
    if (pathwise_case(key < 0)
        return -1;
    return 0;
}
