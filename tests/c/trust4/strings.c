/* C library functions Pathwise runs as C code (glibc 2.36's algorithms,
 * cfront/libc/): strtok, strtok_r, strsep, stpcpy, memrchr, div. The
 * tests link the real library. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

/* Fields of a comma-separated line, empty ones included. */
int count_fields(char *line)
{
    int n = 0;
    char *p = line;
    while (strsep(&p, ",") != NULL)
        n++;
    return n;
}

/* Words separated by spaces; the first word's length. */
int first_word_len(char *text)
{
    char *save;
    char *w = strtok_r(text, " ", &save);
    if (w == NULL)
        return -1;
    return (int)strlen(w);
}

/* The number of `key=value` tokens among `;`-separated ones. */
int pairs(char *s)
{
    int n = 0;
    for (char *t = strtok(s, ";"); t != NULL; t = strtok(NULL, ";"))
        if (strchr(t, '=') != NULL)
            n++;
    return n;
}

/* "dir/base" from two strings: the length written. */
int join(char *out, const char *dir, const char *base)
{
    char *end = stpcpy(out, dir);
    *end++ = '/';
    end = stpcpy(end, base);
    return (int)(end - out);
}

/* The extension's offset: after the last dot of the first n bytes. */
int extension(const char *name, unsigned n)
{
    const char *dot = memrchr(name, '.', n);
    if (dot == NULL || dot == name)
        return -1;
    return (int)(dot - name) + 1;
}

/* Minutes and seconds of a duration; a negative one is rejected. */
int minutes(int seconds)
{
    if (seconds < 0)
        return -1;
    div_t d = div(seconds, 60);
    return d.rem == 0 ? d.quot : d.quot + 1;
}

/* A rate: divides by an input (division by zero is an error test). */
long per(long total, long parts)
{
    ldiv_t d = ldiv(total, parts);
    return d.quot;
}

/* Whether a record holds the two-byte marker "ab" in its first n bytes. */
int has_marker(const char *rec, unsigned n)
{
    return memmem(rec, n, "ab", 2) != NULL ? 1 : 0;
}

/* The length of the first comma-separated field. */
int field_len(const char *s)
{
    return (int)(strchrnul(s, ',') - s);
}

/* Whether a header line names the content type, in any case. */
int is_content_type(const char *line)
{
    if (strcasestr(line, "ct:") == line)
        return 1;
    return strcasestr(line, "ct:") != NULL ? 2 : 0;
}
