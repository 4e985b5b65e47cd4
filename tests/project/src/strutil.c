/* String helpers: what every C library ends up writing itself. */
#include "strutil.h"

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

size_t str_len(const char *s)
{
    size_t n = 0;
    while (s[n] != '\0')
        n++;
    return n;
}

int str_eq(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] != '\0' && a[i] == b[i])
        i++;
    return a[i] == b[i];
}

int str_starts_with(const char *s, const char *prefix)
{
    size_t i;
    for (i = 0; prefix[i] != '\0'; i++) {
        if (s[i] != prefix[i])
            return 0;
    }
    return 1;
}

void str_to_upper(char *s)
{
    for (; *s != '\0'; s++) {
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A');
    }
}

int str_count_char(const char *s, char c)
{
    int n = 0;
    size_t i;
    for (i = 0; s[i] != '\0'; i++) {
        if (s[i] == c)
            n++;
    }
    return n;
}

int str_is_blank(const char *s)
{
    if (s == NULL)
        return 1;
    while (*s != '\0') {
        if (!is_space(*s))
            return 0;
        s++;
    }
    return 1;
}

size_t str_skip_spaces(const char *s)
{
    size_t i = 0;
    while (is_space(s[i]))
        i++;
    return i;
}

int str_index_of(const char *s, char c)
{
    int i;
    for (i = 0; s[i] != '\0'; i++) {
        if (s[i] == c)
            return i;
    }
    return -1;
}
