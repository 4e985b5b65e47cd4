/* sscanf as C code uses it to parse text: every test is checked against
 * glibc's sscanf natively. */
#include <stdio.h>
#include <string.h>

/* "HH:MM" in minutes; -1 unparsed, -2 out of range. */
int hhmm(const char *s)
{
    int h, m;
    if (sscanf(s, "%d:%d", &h, &m) != 2)
        return -1;
    if (h < 0 || h > 23 || m < 0 || m > 59)
        return -2;
    return h * 60 + m;
}

/* Two hexadecimal digits and nothing after: %n says where they end. */
int hexbyte(const char *s)
{
    unsigned v;
    int n = 0;
    if (sscanf(s, " %2x%n", &v, &n) != 1)
        return -1;
    return s[n] == 0 ? (int)v : -2;
}

/* `key=value` with a lower-case key: what sscanf returns. */
int keyval(const char *s, char *key, int *val)
{
    return sscanf(s, "%7[a-z]=%d", key, val);
}

/* A word of at most three characters, then a character. */
int word(const char *s)
{
    char w[4];
    char c;
    int r = sscanf(s, "%3s %c", w, &c);
    if (r == 2)
        return w[0] + c;
    return r;
}

/* %i reads decimal, octal (0...) and hexadecimal (0x...). */
int anyint(const char *s)
{
    int v;
    int r = sscanf(s, "%i", &v);
    return r == 1 ? v : r - 10;
}

/* %s without a width: a long word overflows the buffer. */
int name_len(const char *s)
{
    char name[4];
    if (sscanf(s, "%s", name) != 1)
        return -1;
    return (int)strlen(name);
}
