/* Tokenising: strtok_r-like without mutation, and CSV field counting. */
#include <stddef.h>
#include <string.h>

/* s and delims are NUL-terminated and *pos <= strlen(s); skips delimiter
   bytes from *pos, then stores the next token's offset and length in
   *start and *len and moves *pos past it, returning 1; returns 0 (with
   *pos at the end) when no token remains; all pointers valid */
int next_token(const char *s, size_t *pos, const char *delims,
               size_t *start, size_t *len)
{
    size_t i = *pos;
    while (s[i] != '\0' && strchr(delims, s[i]) != NULL)
        i++;
    if (s[i] == '\0') {
        *pos = i;
        return 0;
    }
    *start = i;
    while (s[i] != '\0' && strchr(delims, s[i]) == NULL)
        i++;
    *len = i - *start;
    *pos = i;
    return 1;
}

/* line is a NUL-terminated CSV record shorter than INT_MAX; sep is not
   '\0' or '"'; returns the number of fields ("a,\"b,c\",d" has 3, a quote
   inside quotes is doubled), or -1 if a quoted field is not closed */
int csv_count_fields(const char *line, char sep)
{
    int n = 1;
    size_t i = 0;
    while (line[i] != '\0') {
        if (line[i] == '"') {
            i++;
            for (;;) {
                if (line[i] == '\0')
                    return -1;
                if (line[i] == '"') {
                    if (line[i + 1] == '"') {
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                i++;
            }
            continue;
        }
        if (line[i] == sep)
            n++;
        i++;
    }
    return n;
}
