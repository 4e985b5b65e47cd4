/* classify() calls lookup(), a library function this unit only declares:
 * with --summary lookup_summary.c it is explored through the summary; the
 * tests link the real lookup (lookup_real.c). */
int lookup(int key);

int classify(int k)
{
    int v = lookup(k);
    if (v < 0)
        return -1;
    if (v == 0)
        return 0;
    return 1;
}
