/* Eight independent decisions before two divisions: 2^8 paths reach each
 * division, and every one of them can divide by zero. Two bugs. */
int sum_ratios(const int a[8], int d)
{
    int acc = 0;
    if (a[0] > 0)
        acc += 1;
    if (a[1] > 0)
        acc += 1;
    if (a[2] > 0)
        acc += 1;
    if (a[3] > 0)
        acc += 1;
    if (a[4] > 0)
        acc += 1;
    if (a[5] > 0)
        acc += 1;
    if (a[6] > 0)
        acc += 1;
    if (a[7] > 0)
        acc += 1;
    acc += 100 / (d - 1);
    if (acc > 4)
        acc += 100 / (d - 2);
    return acc;
}
