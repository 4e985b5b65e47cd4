/* reset() calls set_last(), which this unit only declares; its summary
 * (set_last_summary.c) writes the last of len pointers, at an offset the
 * conformance search concretises (an offset into an input object), so
 * that search is not complete and gen says so. */
struct rational {
    int num;
    int den;
};

void set_last(struct rational **a, int len);

int reset(struct rational **a, int len)
{
    if (len <= 0)
        return 0;
    set_last(a, len);
    return 1;
}
