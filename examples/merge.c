/* The bundled example: Merge, the running example of seed 002 (PathCrawler),
 * with its precondition stated for Pathwise.
 *
 *     pathwise gen examples/merge.c --function Merge --precondition merge_valid --k 2
 *
 * gives the 17 feasible 2-paths of Merge (1 + k * 2^(k+1)).
 */
#include "../crates/cfront/include/pathwise.h"
#include "../tests/bench/merge.c"

/* The paper's Figure 5: t1, t2 and t3 hold exactly l1, l2 and l1 + l2
 * elements, and merge_pre (lengths 0..10000, values -100..100, sorted). */
int merge_valid(int t1[], int t2[], int t3[], int l1, int l2)
{
    pathwise_array_len(t1, l1);
    pathwise_array_len(t2, l2);
    pathwise_array_len(t3, l1 + l2);
    return merge_pre(t1, t2, t3, l1, l2);
}
