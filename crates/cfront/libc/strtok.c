/* strtok_r and strtok as glibc 2.36 computes them (string/strtok_r.c,
 * string/strtok.c), lowered with a unit that calls them without defining
 * them: C code over the modelled strspn and strcspn, so that the tokens
 * stay symbolic. */

char *strtok_r(char *s, const char *delim, char **save_ptr)
{
    char *end;
    if (s == (char *)0)
        s = *save_ptr;
    if (*s == '\0') {
        *save_ptr = s;
        return (char *)0;
    }
    s += strspn(s, delim);
    if (*s == '\0') {
        *save_ptr = s;
        return (char *)0;
    }
    end = s + strcspn(s, delim);
    if (*end == '\0') {
        *save_ptr = end;
        return s;
    }
    *end = '\0';
    *save_ptr = end + 1;
    return s;
}

char *strtok(char *s, const char *delim)
{
    static char *olds;
    return strtok_r(s, delim, &olds);
}
