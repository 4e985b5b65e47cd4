/* Hand-written summary of arraycopy() of tests/bench/rational.c (seed 003,
 * Table 3.2 gives the thesis's), for `pathwise gen rational.c --summary
 * arraycopy_summary.c`.  Read after rational.c, whose types it uses:
 * `gcc -fsyntax-only -include tests/bench/rational.c arraycopy_summary.c`.
 *
 * A deliberately WRONG summary: it copies one element fewer than
 * arraycopy does, so the tests that call the real arraycopy fail.  Both
 * arrays have len elements (so its conformance tests build them so). */
#include "pathwise.h"

void pathwise_summary_arraycopy(struct rational **src, struct rational **dst, int len)
{
    int i;
    if (pathwise_case(len <= 0))
        return;
    if (pathwise_case(len > 0)) {
        pathwise_array_len(src, len);
        pathwise_array_len(dst, len);
        for (i = 0; i < len - 1; i++) /* wrong: one element short */
            dst[i] = src[i];
        return;
    }
}
