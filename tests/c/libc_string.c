/* <string.h> models on input strings (crates/cli/tests/libc.rs). */
#include <stdlib.h>
#include <string.h>

/* The position of "ab" in s, or -1. */
int find_ab(const char *s)
{
    const char *p = strstr(s, "ab");
    if (!p)
        return -1;
    return (int)(p - s);
}

/* The index of the last '/' (or -1) and of the first. */
int last_slash(const char *s)
{
    const char *p = strrchr(s, '/');
    const char *q = strchr(s, '/');
    if (!p)
        return -1;
    return (int)(p - s) * 10 + (int)(q - s);
}

/* Lengths of the leading digits and of the part before a separator. */
int spans(const char *s)
{
    size_t digits = strspn(s, "0123456789");
    size_t field = strcspn(s, ",;");
    const char *sep = strpbrk(s, ",;");
    return (int)digits * 100 + (int)field * 10 + (sep ? 1 : 0);
}

/* memchr and strnlen over a fixed-size buffer. */
int scan(const char *s)
{
    const char *z = memchr(s, 'z', 3);
    return (int)strnlen(s, 3) * 10 + (z ? (int)(z - s) : 9);
}

/* strcat and strncat into a local buffer. */
int concat(const char *s)
{
    char buf[16] = "ab";
    if (strlen(s) > 4)
        return -1;
    strcat(buf, s);
    strncat(buf, "xyz", 2);
    return (int)strlen(buf) * 100 + buf[2];
}

/* strdup and strndup: heap copies, freed. */
int dup(const char *s)
{
    char *d = strdup(s);
    char *e = strndup(s, 1);
    int n = (int)strlen(d) * 10 + (int)strlen(e);
    if (strcmp(d, s) != 0)
        n = -1;
    free(d);
    free(e);
    return n;
}

/* Concrete strings: every function, 1 path. */
int fixed(void)
{
    char buf[16];
    const char *t = "hello, world";
    int r = 0;
    r += (int)(strstr(t, "wor") - t);
    r += (int)(strrchr(t, 'o') - t) * 100;
    r += (int)strspn(t, "hel") * 1000;
    r += (int)strcspn(t, " ") * 10000;
    r += strstr(t, "xyz") == NULL;
    r += strpbrk(t, "xyz") == NULL;
    r += memchr(t, 'w', 5) == NULL;
    r += (int)strnlen(t, 40);
    strcpy(buf, "a");
    strncat(buf, "bcdef", 3);
    r += (int)strlen(buf) * 7;
    memmove(buf + 1, buf, 4);
    r += buf[1] * 3 + buf[4];
    return r;
}

/* Every search and comparison on a table of string pairs: one path whose
 * checksum the native run recomputes. */
unsigned long string_table(void)
{
    static const char *const strings[] = {"", "a", "ab", "abc", "aab", "abab", "ba", "b,c;d", ";;", "xyz", "zzz",
                                          "\xff\x80", "a\xff", "hello, world"};
    const unsigned n = sizeof strings / sizeof strings[0];
    unsigned long sum = 0;
    unsigned i, j;
    for (i = 0; i < n; i++) {
        const char *s = strings[i];
        const char *p;
        sum = sum * 31 + strlen(s) + strnlen(s, 2) * 3;
        p = strchr(s, 'b');
        sum = sum * 31 + (p ? (unsigned long)(p - s) : 99);
        p = strrchr(s, 'b');
        sum = sum * 31 + (p ? (unsigned long)(p - s) : 99);
        p = strchr(s, '\xff');
        sum = sum * 31 + (p ? (unsigned long)(p - s) : 99);
        p = memchr(s, 'a', strlen(s));
        sum = sum * 31 + (p ? (unsigned long)(p - s) : 99);
        for (j = 0; j < n; j++) {
            const char *t = strings[j];
            size_t k;
            int c = strcmp(s, t);
            sum = sum * 31 + (unsigned long)(c < 0 ? 1 : c > 0 ? 2 : 3);
            for (k = 0; k < 4; k++) {
                c = strncmp(s, t, k);
                sum = sum * 31 + (unsigned long)(c < 0 ? 1 : c > 0 ? 2 : 3);
            }
            p = strstr(s, t);
            sum = sum * 31 + (p ? (unsigned long)(p - s) : 99);
            sum = sum * 31 + strspn(s, t) * 7 + strcspn(s, t);
            p = strpbrk(s, t);
            sum = sum * 31 + (p ? (unsigned long)(p - s) : 99);
        }
    }
    return sum;
}

/* strcasecmp and strncasecmp on a table of mixed-case pairs (letters,
 * punctuation between the cases, bytes above 127): one path whose
 * checksum, exact results included, the native run recomputes. */
unsigned long case_table(void)
{
    static const char *const strings[] = {"", "a", "A", "ab", "aB", "Ab", "abc", "ABD", "[", "{", "@", "`",
                                          "Z", "z", "\xc0", "\xe0", "x-Y", "X-y"};
    const unsigned n = sizeof strings / sizeof strings[0];
    unsigned long sum = 0;
    unsigned i, j, k;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            sum = sum * 31 + (unsigned long)(strcasecmp(strings[i], strings[j]) + 1000);
            for (k = 0; k < 4; k++)
                sum = sum * 31 + (unsigned long)(strncasecmp(strings[i], strings[j], k) + 1000);
        }
    }
    return sum;
}

/* An input word against keywords, ignoring case. */
int keyword(const char *s)
{
    if (strcasecmp(s, "on") == 0)
        return 1;
    if (strncasecmp(s, "x-", 2) == 0)
        return 2;
    return 0;
}

/* Sizes from the inputs bound the byte loops: each `i < n` is a decision
 * (n was fixed to its first value, and each function had one test). */
int find_colon(const char *buf, size_t n)
{
    const char *p = memchr(buf, ':', n);
    if (!p)
        return -1;
    return (int)(p - buf);
}

int same_prefix(const char *a, const char *b, size_t n)
{
    return strncmp(a, b, n) == 0;
}

/* strncpy pads with zeros up to n: n > 4 overflows t. */
int padded(const char *src, size_t n)
{
    char t[4];
    strncpy(t, src, n);
    return n > 0 && t[0] == 'x';
}
