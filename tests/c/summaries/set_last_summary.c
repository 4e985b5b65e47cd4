/* Summary of set_last() of set_last.c: a has len elements, the last
 * becomes NULL. */
#include "pathwise.h"

void pathwise_summary_set_last(struct rational **a, int len)
{
    if (pathwise_case(len <= 0))
        return;
    if (pathwise_case(len > 0)) {
        pathwise_array_len(a, len);
        a[len - 1] = 0;
        return;
    }
}
