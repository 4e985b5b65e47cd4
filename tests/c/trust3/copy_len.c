/* Copies and fills whose length the inputs set. */
#include <string.h>

/* With cap == 0, n = cap - 1 is SIZE_MAX: memcpy copies 2^64 - 1 bytes.
 * Before, the run stopped as "allocation or copy of -1 bytes (more than
 * modelled)", an unsupported construct, and the search said "explored,
 * not complete": the bug had no test. */
size_t copy_field(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
    return n;
}

int field_of_line(const char *line, size_t cap)
{
    char field[8];
    if (cap > sizeof field)
        return -1;
    return (int)copy_field(field, cap, line);
}

/* The classic overflow: a length from the input into a fixed buffer. The
 * length was fixed to the run's value before the copy, so no test ever
 * asked for n > 4. */
int header(const unsigned char *packet, unsigned n)
{
    unsigned char h[4];
    if (n > 64)
        return -1;
    memcpy(h, packet, n);
    return h[0];
}

int clear_tail(unsigned n)
{
    char buf[16];
    memset(buf, 'x', sizeof buf);
    if (n > 1000)
        return -1;
    memset(buf + 8, 0, n);
    return buf[0];
}
