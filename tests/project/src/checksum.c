/* Checksums. CHECKSUM_SEED comes from config.h, force-included by the build. */
#include "checksum.h"

#ifndef CHECKSUM_SEED
#error "build with -include config.h"
#endif

unsigned char sum8(const unsigned char *p, int n)
{
    unsigned char s = CHECKSUM_SEED;
    int i;
    for (i = 0; i < n; i++)
        s = (unsigned char)(s + p[i]);
    return s;
}

unsigned char xor8(const unsigned char *p, int n)
{
    unsigned char x = 0;
    int i;
    for (i = 0; i < n; i++)
        x ^= p[i];
    return x;
}

unsigned short fletcher16(const unsigned char *p, int n)
{
    unsigned a = 0, b = 0;
    int i;
    for (i = 0; i < n; i++) {
        a = (a + p[i]) % 255;
        b = (b + a) % 255;
    }
    return (unsigned short)((b << 8) | a);
}

unsigned adler32(const unsigned char *p, int n)
{
    unsigned a = 1, b = 0;
    int i;
    if (p == 0)
        return 1;
    for (i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

/* One byte of CRC-8 (polynomial 0x07), without branches. */
unsigned char crc8_update(unsigned char crc, unsigned char b)
{
    unsigned c = crc ^ b;
    int i;
    for (i = 0; i < 8; i++)
        c = ((c << 1) ^ (0x07u & (0u - ((c >> 7) & 1u)))) & 0xffu;
    return (unsigned char)c;
}

int parity_byte(unsigned char b)
{
    int ones = 0;
    int i;
    for (i = 0; i < 8; i++)
        ones += (b >> i) & 1;
    return ones % 2;
}

int frame_ok(const unsigned char *p, int n, unsigned char expected)
{
    if (n <= 0)
        return 0;
    return sum8(p, n) == expected;
}
