/* strsep as glibc 2.36 computes it (string/strsep.c). */

char *strsep(char **stringp, const char *delim)
{
    char *begin, *end;
    begin = *stringp;
    if (begin == (char *)0)
        return (char *)0;
    end = begin + strcspn(begin, delim);
    if (*end) {
        *end++ = '\0';
        *stringp = end;
    } else
        *stringp = (char *)0;
    return begin;
}
