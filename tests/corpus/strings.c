/* strings.c: string utilities in the style of small C libraries (BSD's
 * strlcpy/strlcat, a whitespace trimmer, a case-insensitive compare, a
 * suffix test, a glob matcher, a version comparator, a shell-like word
 * splitter, Rob Pike's regular expression matcher).  Part of the Pathwise
 * corpus (crates/cli/tests/corpus.rs): each function's `// pathwise:` line
 * gives the options its suite is generated with; every test must pass
 * natively and gcov must agree with the predicted coverage. */
#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include "pathwise.h"

/* OpenBSD's strlcpy: copy src into dst of size bytes, always terminated
 * when size > 0; returns strlen(src), so truncation is ret >= size. */
// pathwise: gen --function str_lcpy --k 2 --precondition str_lcpy_pre
size_t str_lcpy(char *dst, const char *src, size_t size)
{
    const char *s = src;
    size_t left = size;

    if (left != 0) {
        while (--left != 0) {
            if ((*dst++ = *s++) == '\0')
                break;
        }
    }
    if (left == 0) {
        if (size != 0)
            *dst = '\0';
        while (*s++)
            ;
    }
    return (size_t)(s - src - 1);
}

int str_lcpy_pre(char *dst, const char *src, size_t size)
{
    if (src == NULL || dst == NULL || size > 4)
        return 0;
    pathwise_array_len(dst, size);
    return 1;
}

/* OpenBSD's strlcat: append src to the string in dst of size bytes;
 * returns the length of the string it tried to create. */
// pathwise: gen --function str_lcat --k 2 --precondition str_lcat_pre
size_t str_lcat(char *dst, const char *src, size_t size)
{
    char *d = dst;
    const char *s = src;
    size_t n = size;
    size_t dlen;

    while (n-- != 0 && *d != '\0')
        d++;
    dlen = (size_t)(d - dst);
    n = size - dlen;

    if (n == 0)
        return dlen + strlen(s);
    while (*s != '\0') {
        if (n != 1) {
            *d++ = *s;
            n--;
        }
        s++;
    }
    *d = '\0';
    return dlen + (size_t)(s - src);
}

int str_lcat_pre(char *dst, const char *src, size_t size)
{
    if (src == NULL || dst == NULL || size < 1 || size > 3)
        return 0;
    pathwise_array_len(dst, size);
    return 1;
}

/* Strip leading and trailing white space in place (the string moves to the
 * start of the buffer); returns the new length. */
// pathwise: gen --function str_trim --k 2 --precondition str_trim_pre
size_t str_trim(char *s)
{
    size_t start = 0, len;

    while (isspace((unsigned char)s[start]))
        start++;
    len = strlen(s + start);
    while (len > 0 && isspace((unsigned char)s[start + len - 1]))
        len--;
    if (start > 0)
        memmove(s, s + start, len);
    s[len] = '\0';
    return len;
}

int str_trim_pre(char *s)
{
    return s != NULL;
}

/* strcasecmp in the "C" locale: compares the lower-case forms. */
// pathwise: gen --function str_casecmp --k 2 --precondition str_casecmp_pre
int str_casecmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;
    int c1, c2;

    do {
        c1 = tolower(*p++);
        c2 = tolower(*q++);
        if (c1 != c2)
            return c1 - c2;
    } while (c1 != '\0');
    return 0;
}

int str_casecmp_pre(const char *a, const char *b)
{
    return a != NULL && b != NULL;
}

/* Does s end with suffix?  (Both NUL-terminated.) */
// pathwise: gen --function str_has_suffix --k 2 --precondition str_has_suffix_pre
int str_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s);
    size_t m = strlen(suffix);

    if (m > n)
        return 0;
    return memcmp(s + n - m, suffix, m) == 0;
}

int str_has_suffix_pre(const char *s, const char *suffix)
{
    return s != NULL && suffix != NULL;
}

/* Glob matching with '*' (any run) and '?' (one character), iterative with
 * one backtrack point, as in many shells and build tools. */
// pathwise: gen --function glob_match --k 2 --precondition glob_match_pre --timeout 20
int glob_match(const char *pat, const char *str)
{
    const char *star = NULL;
    const char *resume = NULL;

    while (*str) {
        if (*pat == '?' || *pat == *str) {
            pat++;
            str++;
        } else if (*pat == '*') {
            star = pat++;
            resume = str;
        } else if (star) {
            pat = star + 1;
            str = ++resume;
        } else {
            return 0;
        }
    }
    while (*pat == '*')
        pat++;
    return *pat == '\0';
}

int glob_match_pre(const char *pat, const char *str)
{
    return pat != NULL && str != NULL;
}

/* Compare dotted version strings numerically ("1.10" > "1.9",
 * "1.2" < "1.2.1"); returns -1, 0 or 1. */
// (--max-array-len bounds the input: the iterations of a `while (a || b)`
// loop that `a` alone continues do not count towards k yet.)
// pathwise: gen --function version_cmp --k 1 --precondition version_cmp_pre --max-array-len 5
int version_cmp(const char *a, const char *b)
{
    while (*a || *b) {
        unsigned long x = 0, y = 0;

        while (isdigit((unsigned char)*a)) {
            x = x * 10 + (unsigned long)(*a - '0');
            a++;
        }
        while (isdigit((unsigned char)*b)) {
            y = y * 10 + (unsigned long)(*b - '0');
            b++;
        }
        if (x != y)
            return x < y ? -1 : 1;
        if (*a == '.')
            a++;
        else if (*a)
            return 1;
        if (*b == '.')
            b++;
        else if (*b)
            return -1;
    }
    return 0;
}

int version_cmp_pre(const char *a, const char *b)
{
    return a != NULL && b != NULL;
}

/* Split the next white-space separated word of line (from *pos) into word,
 * with "double quotes" grouping and backslash escapes as a shell does.
 * Returns the word's length, -1 at the end of the line, -2 when the word
 * does not fit, -3 on an unterminated quote. */
// (--max-array-len bounds the input: the iterations of a `while (a || b)`
// loop that `a` alone continues do not count towards k yet.)
// pathwise: gen --function next_word --k 1 --precondition next_word_pre --max-array-len 8
int next_word(const char *line, size_t *pos, char *word, size_t wordsz)
{
    size_t i = *pos, n = 0;
    int quoted = 0;

    while (line[i] == ' ' || line[i] == '\t')
        i++;
    if (line[i] == '\0')
        return -1;
    for (; line[i] != '\0'; i++) {
        char c = line[i];
        if (c == '"') {
            quoted = !quoted;
            continue;
        }
        if (!quoted && (c == ' ' || c == '\t'))
            break;
        if (c == '\\' && line[i + 1] != '\0')
            c = line[++i];
        if (n + 1 >= wordsz)
            return -2;
        word[n++] = c;
    }
    if (quoted)
        return -3;
    word[n] = '\0';
    *pos = i;
    return (int)n;
}

int next_word_pre(const char *line, size_t *pos, char *word, size_t wordsz)
{
    if (line == NULL || pos == NULL || word == NULL || wordsz < 1 || wordsz > 3)
        return 0;
    pathwise_array_len(pos, 1);
    pathwise_array_len(word, wordsz);
    return *pos == 0;
}

/* Rob Pike's regular expression matcher (The Practice of Programming,
 * ch. 9): c, '.', '^', '$' and '*'. */
static int matchhere(const char *re, const char *text);

static int matchstar(int c, const char *re, const char *text)
{
    do {
        if (matchhere(re, text))
            return 1;
    } while (*text != '\0' && (*text++ == c || c == '.'));
    return 0;
}

static int matchhere(const char *re, const char *text)
{
    if (re[0] == '\0')
        return 1;
    if (re[1] == '*')
        return matchstar(re[0], re + 2, text);
    if (re[0] == '$' && re[1] == '\0')
        return *text == '\0';
    if (*text != '\0' && (re[0] == '.' || re[0] == *text))
        return matchhere(re + 1, text + 1);
    return 0;
}

/* Does re match anywhere in text? */
// pathwise: gen --function re_match --k 2 --precondition re_match_pre --max-array-len 4
int re_match(const char *re, const char *text)
{
    if (re[0] == '^')
        return matchhere(re + 1, text);
    do {
        if (matchhere(re, text))
            return 1;
    } while (*text++ != '\0');
    return 0;
}

int re_match_pre(const char *re, const char *text)
{
    return re != NULL && text != NULL;
}
