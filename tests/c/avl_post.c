/* insertAVL (seed 000, Figure 2) with its precondition, and a
 * postcondition for the emitted tests: the tree returned is still an AVL
 * tree (keys ordered, heights right, balanced). avl_ok's key bounds are
 * exclusive and exclude INT_MIN and INT_MAX, which x may be: the check
 * widens them. */
#include "../bench/avl.c"

int avl_post(int x, struct avl *t, struct avl *result)
{
    (void)x;
    (void)t;
    return avl_check(result, -2147483649LL, 2147483648LL) >= 0;
}
