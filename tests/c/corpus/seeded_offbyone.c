/* SEEDED BUG (line 9): the loop condition `i <= len` lets line 10 read
   buf[len], one byte past the end of the len-byte buffer. */
#include <stddef.h>

/* buf has len bytes; returns the sum of the bytes */
unsigned sum_bytes_buggy(const unsigned char *buf, size_t len)
{
    unsigned s = 0;
    for (size_t i = 0; i <= len; i++)
        s += buf[i];
    return s;
}
