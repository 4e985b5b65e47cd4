/* Sums accumulated in a loop: each iteration checks the sum for signed
 * overflow, so a path of a 64-element checksum carries 63 checks of a
 * chain of sums. Bit-blasted, such a chain was beyond Z3 in 30 s; read
 * over the integers (each check that holds makes its sum exact) it is
 * solved in milliseconds. */
int checksum(const int buf[64])
{
    int sum = 0;
    for (int i = 0; i < 64; i++)
        sum += buf[i];
    return sum;
}

/* `ticks + rate` adds the same input again and again: the pool reduces
 * the overflow rule of `x + x`, which must be read exactly too. Counting
 * the positive elements is a decision in every iteration. */
int ticks_after(int rate, const int steps[8])
{
    int ticks = 0, positive = 0;
    if (rate < 16)
        rate = 16;
    for (int i = 0; i < 1000; i++)
        ticks = ticks + rate;
    for (int i = 0; i < 8; i++)
        if (steps[i] > 0)
            positive++;
    return ticks - positive;
}
