/* Checksums over (buf, len). */
#include <stddef.h>
#include <stdint.h>

/* buf has len bytes; adler is 1 or a previous adler32 result; returns the
   zlib Adler-32 of the bytes continued from adler */
uint32_t adler32(uint32_t adler, const unsigned char *buf, size_t len)
{
    uint32_t a = adler & 0xFFFF, b = adler >> 16;
    size_t i = 0, k;
    while (i < len) {
        size_t chunk = len - i < 5552 ? len - i : 5552;
        for (k = 0; k < chunk; k++) {
            a += buf[i + k];
            b += a;
        }
        a %= 65521;
        b %= 65521;
        i += chunk;
    }
    return (b << 16) | a;
}

/* buf has len bytes; returns CRC-8/SMBUS (poly 0x07, init 0, no reflection) */
uint8_t crc8(const unsigned char *buf, size_t len)
{
    uint8_t crc = 0;
    size_t i;
    int b;
    for (i = 0; i < len; i++) {
        crc ^= buf[i];
        for (b = 0; b < 8; b++) {
            if (crc & 0x80)
                crc = (uint8_t)((crc << 1) ^ 0x07);
            else
                crc = (uint8_t)(crc << 1);
        }
    }
    return crc;
}

/* buf has len bytes; returns the Fletcher-16 checksum (RFC 1146 style
   with the sums started at 0xff, reduced every 20 bytes) */
uint16_t fletcher16(const unsigned char *buf, size_t len)
{
    uint32_t s1 = 0xff, s2 = 0xff;
    while (len > 0) {
        size_t t = len > 20 ? 20 : len;
        len -= t;
        do {
            s1 += *buf++;
            s2 += s1;
        } while (--t);
        s1 = (s1 & 0xff) + (s1 >> 8);
        s2 = (s2 & 0xff) + (s2 >> 8);
    }
    s1 = (s1 & 0xff) + (s1 >> 8);
    s2 = (s2 & 0xff) + (s2 >> 8);
    return (uint16_t)(s2 << 8 | s1);
}
