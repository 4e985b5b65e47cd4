/* The Kernighan-Pike regular-expression matcher: c . ^ $ and x*. */
#include <stddef.h>

static int re_match_here(const char *re, const char *text);

static int re_match_star(int c, const char *re, const char *text)
{
    do {
        if (re_match_here(re, text))
            return 1;
    } while (*text != '\0' && (*text++ == c || c == '.'));
    return 0;
}

static int re_match_here(const char *re, const char *text)
{
    if (re[0] == '\0')
        return 1;
    if (re[1] == '*')
        return re_match_star(re[0], re + 2, text);
    if (re[0] == '$' && re[1] == '\0')
        return *text == '\0';
    if (*text != '\0' && (re[0] == '.' || re[0] == *text))
        return re_match_here(re + 1, text + 1);
    return 0;
}

/* re and text are NUL-terminated; returns 1 if re matches anywhere in text */
int re_match(const char *re, const char *text)
{
    if (re[0] == '^')
        return re_match_here(re + 1, text);
    do {
        if (re_match_here(re, text))
            return 1;
    } while (*text++ != '\0');
    return 0;
}
