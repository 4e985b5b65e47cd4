/* SEEDED BUG (line 32): after a backslash the index skips two bytes without
   checking that the byte after the backslash is not the terminating NUL; for
   a string ending in a single '\\' the loop condition on line 15 then reads
   s[i] one byte past the NUL. */
#include <stddef.h>

/* s is NUL-terminated; out has room for strlen(s) + 1 bytes; copies s with
   the escapes \n \t \\ (and \c as c) replaced; returns the length written */
size_t unescape_buggy(const char *s, char *out)
{
    size_t i = 0, o = 0;
    while (1) {
        char c;
        char e;
        if (s[i] == '\0')
            break;
        c = s[i];
        if (c != '\\') {
            out[o++] = c;
            i++;
            continue;
        }
        e = s[i + 1];
        if (e == 'n')
            out[o++] = '\n';
        else if (e == 't')
            out[o++] = '\t';
        else if (e == '\\')
            out[o++] = '\\';
        else if (e != '\0')
            out[o++] = e;
        i += 2;
    }
    out[o] = '\0';
    return o;
}
