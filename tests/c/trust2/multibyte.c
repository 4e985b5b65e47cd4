/* Multibyte conversions in the "C" locale (issue 23: a glob matcher
 * calling mbtowc had no model, and the suggested external stub could not
 * write *pwc). */
#include <errno.h>
#include <stdlib.h>
#include <wchar.h>

/* The first character of s: none (NULL or ""), invalid (a byte above
 * 127) or its code. */
int first_wide(const char *s)
{
    wchar_t w = 0;
    int r = mbtowc(&w, s, MB_CUR_MAX);
    if (r < 0)
        return -1;
    if (r == 0)
        return 0;
    return (int)w + 1000;
}

/* Every byte through mbtowc, mblen, mbrtowc and mbrlen, the edge cases,
 * btowc and wctob: a checksum the test compares with glibc's. */
unsigned long mb_table(void)
{
    unsigned long sum = 0;
    char s[2] = {0, 0};
    wchar_t w;
    for (int c = 0; c < 256; c++) {
        s[0] = (char)c;
        w = 7;
        errno = 0;
        int r = mbtowc(&w, s, 1);
        sum = sum * 31 + r * 1000 + w + errno;
        sum = sum * 31 + mblen(s, 1);
        w = 9;
        size_t q = mbrtowc(&w, s, 1, NULL);
        sum = sum * 31 + (unsigned long)q + w;
        sum = sum * 31 + (unsigned long)mbrlen(s, 1, NULL);
        sum = sum * 31 + btowc(c) + wctob(c);
    }
    sum = sum * 31 + mbtowc(&w, "a", 0);
    sum = sum * 31 + mbtowc(&w, NULL, 1);
    sum = sum * 31 + mbtowc(NULL, "b", 1);
    sum = sum * 31 + mblen(NULL, 0);
    sum = sum * 31 + (unsigned long)mbrtowc(&w, "c", 0, NULL);
    sum = sum * 31 + (unsigned long)mbrtowc(NULL, NULL, 0, NULL);
    sum = sum * 31 + wctob(-1) + btowc(-1) + wctob(0x100) + (unsigned long)MB_CUR_MAX;
    return sum;
}
