/* Arrays read far past 16 elements at constant offsets: a key schedule,
 * and a fixed loop over a long buffer taking a decision per element. */
int mix_key(const unsigned char key[176])
{
    unsigned acc = 0;
    for (int i = 0; i < 176; i++)
        acc = acc * 31u + key[i];
    if (key[175] == 0x5a)
        return 1;
    return (acc & 0xffu) == 7u ? 2 : 0;
}

int count_positive(const int v[3000])
{
    int c = 0;
    for (int i = 0; i < 3000; i++)
        if (v[i] > 0)
            c++;
    return c;
}
