/* Loops whose trip count does not depend on the inputs: a key schedule
 * (256 iterations, twice) before one decision on the input. Each loop has
 * one path, so at k = 2 the function has 3 paths; under the strict count
 * of seed 002 (every iteration counts) it has none within any k < 256. */
unsigned char sbox[256];

int keyed(unsigned char *key, int n)
{
    int i, j = 0;
    for (i = 0; i < 256; i++)
        sbox[i] = (unsigned char)i;
    for (i = 0; i < 256; i++) {
        j = (j + sbox[i] + 3) & 255;
        unsigned char t = sbox[i];
        sbox[i] = sbox[j];
        sbox[j] = t;
    }
    if (n > 0 && key[0] == sbox[7])
        return 1;
    return 0;
}

/* A fixed-count loop around a symbolic loop: only the inner loop's
 * iterations count (at most k per entry), the outer one runs 4 times. */
int rounds(int x)
{
    int s = 0;
    for (int r = 0; r < 4; r++) {
        int m = x;
        while (m > 0 && s < 1000) {
            s += r;
            m -= 50;
        }
    }
    return s;
}
