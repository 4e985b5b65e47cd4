/* A summary of lookup() that opens no case. */
#include "pathwise.h"

int pathwise_summary_lookup(int key)
{
    return key;
}
