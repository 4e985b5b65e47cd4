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
