/* Buffers passed with their size to the C library (tests/real_c_sweep.rs):
 * snprintf's and fgets's size is the room in the buffer, so the tests pass
 * a buffer of that size (_FORTIFY_SOURCE aborts a call whose size exceeds
 * its buffer). */
#include <stdio.h>
#include <string.h>

int format_id(char *buf, size_t cap, int id)
{
    int n;
    if (id < 0)
        return -2;
    n = snprintf(buf, cap, "id-%d", id);
    if (n < 0 || (size_t)n >= cap)
        return -1;
    return n;
}

int first_line_length(FILE *f, char *line, int size)
{
    if (fgets(line, size, f) == NULL)
        return -1;
    return (int)strcspn(line, "\n");
}
