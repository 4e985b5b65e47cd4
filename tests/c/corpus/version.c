/* Version-string comparison, as in dpkg/rpm "natural" ordering. */
#include <stddef.h>
#include <string.h>
#include <ctype.h>

/* a and b are NUL-terminated ("1.2.10", "2.0rc1"); digit runs compare
   numerically (leading zeros ignored), other bytes compare as unsigned
   char; returns -1, 0 or 1 */
int version_compare(const char *a, const char *b)
{
    while (*a != '\0' || *b != '\0') {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            size_t la = 0, lb = 0;
            int c;
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            while (isdigit((unsigned char)a[la]))
                la++;
            while (isdigit((unsigned char)b[lb]))
                lb++;
            if (la != lb)
                return la < lb ? -1 : 1;
            c = memcmp(a, b, la);
            if (c != 0)
                return c < 0 ? -1 : 1;
            a += la;
            b += lb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return 0;
}
