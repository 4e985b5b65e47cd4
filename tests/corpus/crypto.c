/* crypto.c: checksum and cryptography helpers as embedded and network
 * libraries write them: CRC-8 (poly 0x07) by table, CRC-16/CCITT bit by
 * bit, Adler-32, FNV-1a, the ChaCha quarter round on a state array, XTEA block
 * encryption, a constant-time comparison, PKCS#7 unpadding, the Luhn check
 * and a 64-bit xorshift step.  Part of the Pathwise corpus
 * (crates/cli/tests/corpus.rs): each function's `// pathwise:` line gives
 * the options its suite is generated with; every test must pass natively
 * and gcov must agree with the predicted coverage. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "pathwise.h"

/* CRC-8 with polynomial x^8 + x^2 + x + 1 (SMBus PEC), table-driven as
 * in the Linux kernel's lib/crc8.c. */
static const uint8_t crc8_table[256] = {
    0x00, 0x07, 0x0e, 0x09, 0x1c, 0x1b, 0x12, 0x15,
    0x38, 0x3f, 0x36, 0x31, 0x24, 0x23, 0x2a, 0x2d,
    0x70, 0x77, 0x7e, 0x79, 0x6c, 0x6b, 0x62, 0x65,
    0x48, 0x4f, 0x46, 0x41, 0x54, 0x53, 0x5a, 0x5d,
    0xe0, 0xe7, 0xee, 0xe9, 0xfc, 0xfb, 0xf2, 0xf5,
    0xd8, 0xdf, 0xd6, 0xd1, 0xc4, 0xc3, 0xca, 0xcd,
    0x90, 0x97, 0x9e, 0x99, 0x8c, 0x8b, 0x82, 0x85,
    0xa8, 0xaf, 0xa6, 0xa1, 0xb4, 0xb3, 0xba, 0xbd,
    0xc7, 0xc0, 0xc9, 0xce, 0xdb, 0xdc, 0xd5, 0xd2,
    0xff, 0xf8, 0xf1, 0xf6, 0xe3, 0xe4, 0xed, 0xea,
    0xb7, 0xb0, 0xb9, 0xbe, 0xab, 0xac, 0xa5, 0xa2,
    0x8f, 0x88, 0x81, 0x86, 0x93, 0x94, 0x9d, 0x9a,
    0x27, 0x20, 0x29, 0x2e, 0x3b, 0x3c, 0x35, 0x32,
    0x1f, 0x18, 0x11, 0x16, 0x03, 0x04, 0x0d, 0x0a,
    0x57, 0x50, 0x59, 0x5e, 0x4b, 0x4c, 0x45, 0x42,
    0x6f, 0x68, 0x61, 0x66, 0x73, 0x74, 0x7d, 0x7a,
    0x89, 0x8e, 0x87, 0x80, 0x95, 0x92, 0x9b, 0x9c,
    0xb1, 0xb6, 0xbf, 0xb8, 0xad, 0xaa, 0xa3, 0xa4,
    0xf9, 0xfe, 0xf7, 0xf0, 0xe5, 0xe2, 0xeb, 0xec,
    0xc1, 0xc6, 0xcf, 0xc8, 0xdd, 0xda, 0xd3, 0xd4,
    0x69, 0x6e, 0x67, 0x60, 0x75, 0x72, 0x7b, 0x7c,
    0x51, 0x56, 0x5f, 0x58, 0x4d, 0x4a, 0x43, 0x44,
    0x19, 0x1e, 0x17, 0x10, 0x05, 0x02, 0x0b, 0x0c,
    0x21, 0x26, 0x2f, 0x28, 0x3d, 0x3a, 0x33, 0x34,
    0x4e, 0x49, 0x40, 0x47, 0x52, 0x55, 0x5c, 0x5b,
    0x76, 0x71, 0x78, 0x7f, 0x6a, 0x6d, 0x64, 0x63,
    0x3e, 0x39, 0x30, 0x37, 0x22, 0x25, 0x2c, 0x2b,
    0x06, 0x01, 0x08, 0x0f, 0x1a, 0x1d, 0x14, 0x13,
    0xae, 0xa9, 0xa0, 0xa7, 0xb2, 0xb5, 0xbc, 0xbb,
    0x96, 0x91, 0x98, 0x9f, 0x8a, 0x8d, 0x84, 0x83,
    0xde, 0xd9, 0xd0, 0xd7, 0xc2, 0xc5, 0xcc, 0xcb,
    0xe6, 0xe1, 0xe8, 0xef, 0xfa, 0xfd, 0xf4, 0xf3,
};

// pathwise: gen --function crc8 --k 2 --precondition crc8_pre
uint8_t crc8(const uint8_t *data, size_t len)
{
    uint8_t crc = 0;

    while (len--)
        crc = crc8_table[crc ^ *data++];
    return crc;
}

int crc8_pre(const uint8_t *data, size_t len)
{
    if (data == NULL || len > 2)
        return 0;
    pathwise_array_len(data, len);
    return 1;
}

/* CRC-16/CCITT-FALSE (poly 0x1021, initial 0xFFFF), MSB first. */
// pathwise: gen --function crc16_ccitt --k 2 --precondition crc16_ccitt_pre
uint16_t crc16_ccitt(const uint8_t *data, size_t len)
{
    uint16_t crc = 0xFFFF;

    while (len--) {
        int i;

        crc ^= (uint16_t)(*data++ << 8);
        for (i = 0; i < 8; i++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

int crc16_ccitt_pre(const uint8_t *data, size_t len)
{
    if (data == NULL || len > 1)
        return 0;
    pathwise_array_len(data, len);
    return 1;
}

/* Adler-32 as in zlib, reducing modulo 65521 after each byte. */
// pathwise: gen --function adler32 --k 2 --precondition adler32_pre
uint32_t adler32(const unsigned char *buf, size_t len)
{
    uint32_t a = 1, b = 0;
    size_t i;

    for (i = 0; i < len; i++) {
        a = (a + buf[i]) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

int adler32_pre(const unsigned char *buf, size_t len)
{
    if (buf == NULL || len > 4)
        return 0;
    pathwise_array_len(buf, len);
    return 1;
}

/* 32-bit FNV-1a of a NUL-terminated string. */
// pathwise: gen --function fnv1a32 --k 2 --precondition fnv1a32_pre
uint32_t fnv1a32(const char *s)
{
    uint32_t h = 2166136261u;

    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

int fnv1a32_pre(const char *s)
{
    return s != NULL;
}

#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))

/* The ChaCha quarter round on words a, b, c, d of a 16-word state. */
// pathwise: gen --function chacha_qr --k 2 --precondition chacha_qr_pre
void chacha_qr(uint32_t *x, int a, int b, int c, int d)
{
    x[a] += x[b]; x[d] ^= x[a]; x[d] = ROTL32(x[d], 16);
    x[c] += x[d]; x[b] ^= x[c]; x[b] = ROTL32(x[b], 12);
    x[a] += x[b]; x[d] ^= x[a]; x[d] = ROTL32(x[d], 8);
    x[c] += x[d]; x[b] ^= x[c]; x[b] = ROTL32(x[b], 7);
}

int chacha_qr_pre(uint32_t *x, int a, int b, int c, int d)
{
    if (x == NULL)
        return 0;
    pathwise_array_len(x, 16);
    /* The column and diagonal rounds' index patterns. */
    return a >= 0 && a < 4 && b == a + 4 && c == a + 8 && d == a + 12;
}

/* XTEA encryption of one 64-bit block with a 128-bit key, 32 cycles. */
// pathwise: gen --function xtea_encrypt --k 2 --precondition xtea_encrypt_pre
void xtea_encrypt(uint32_t v[2], const uint32_t key[4])
{
    uint32_t v0 = v[0], v1 = v[1], sum = 0;
    const uint32_t delta = 0x9E3779B9;
    unsigned i;

    for (i = 0; i < 32; i++) {
        v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + key[sum & 3]);
        sum += delta;
        v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + key[(sum >> 11) & 3]);
    }
    v[0] = v0;
    v[1] = v1;
}

int xtea_encrypt_pre(uint32_t v[2], const uint32_t key[4])
{
    if (v == NULL || key == NULL)
        return 0;
    pathwise_array_len(v, 2);
    pathwise_array_len(key, 4);
    return 1;
}

/* Compare n bytes without an early exit (timing-safe MAC comparison):
 * 0 when equal, 1 otherwise. */
// pathwise: gen --function ct_memeq --k 2 --precondition ct_memeq_pre
int ct_memeq(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    unsigned char diff = 0;
    size_t i;

    for (i = 0; i < n; i++)
        diff |= p[i] ^ q[i];
    return (int)((diff | (unsigned char)-diff) >> 7) & 1;
}

int ct_memeq_pre(const unsigned char *a, const unsigned char *b, size_t n)
{
    if (a == NULL || b == NULL || n > 3)
        return 0;
    pathwise_array_len(a, n);
    pathwise_array_len(b, n);
    return 1;
}

/* PKCS#7 unpadding of a decrypted buffer whose length is a multiple of
 * the block size: the unpadded length, or -1 when the padding is bad. */
// pathwise: gen --function pkcs7_unpad --k 2 --precondition pkcs7_unpad_pre
long pkcs7_unpad(const uint8_t *buf, size_t len, size_t block)
{
    uint8_t pad;
    size_t i;

    if (len == 0 || len % block != 0)
        return -1;
    pad = buf[len - 1];
    if (pad == 0 || pad > block)
        return -1;
    for (i = len - pad; i < len - 1; i++)
        if (buf[i] != pad)
            return -1;
    return (long)(len - pad);
}

int pkcs7_unpad_pre(const uint8_t *buf, size_t len, size_t block)
{
    if (buf == NULL || block != 4 || len > 8)
        return 0;
    pathwise_array_len(buf, len);
    return 1;
}

/* The Luhn checksum of a card number given as digits with optional
 * spaces: 1 if valid, 0 if not, -1 on another character or fewer than two
 * digits. */
// pathwise: gen --function luhn_valid --k 2 --precondition luhn_valid_pre
int luhn_valid(const char *number)
{
    size_t len = strlen(number);
    int sum = 0, digits = 0;

    while (len-- > 0) {
        char c = number[len];
        int d;

        if (c == ' ')
            continue;
        if (!isdigit((unsigned char)c))
            return -1;
        d = c - '0';
        if (digits++ % 2 == 1) {
            d *= 2;
            if (d > 9)
                d -= 9;
        }
        sum += d;
    }
    if (digits < 2)
        return -1;
    return sum % 10 == 0;
}

int luhn_valid_pre(const char *number)
{
    return number != NULL;
}

/* Marsaglia's xorshift64* step on a generator state; the state must not be
 * zero (a seeding function replaces zero). */
// pathwise: gen --function xorshift64s --k 2 --precondition xorshift64s_pre
uint64_t xorshift64s(uint64_t *state)
{
    uint64_t x = *state;

    if (x == 0)
        x = 0x9E3779B97F4A7C15ULL;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

int xorshift64s_pre(uint64_t *state)
{
    if (state == NULL)
        return 0;
    pathwise_array_len(state, 1);
    return 1;
}
