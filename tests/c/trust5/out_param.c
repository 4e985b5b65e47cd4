/* A result written through an output parameter after a loop: the
   dereference of `out` is checked on every path, and once a run has
   found it dereferenced while null, no path asks for a null `out` again. */

int count_abc(const char *s, int *out)
{
    int n = 0;
    for (; *s; s++) {
        if (*s == 'a')
            n += 1;
        else if (*s == 'b')
            n += 2;
        else if (*s == 'c')
            n += 3;
    }
    *out = n;
    return 0;
}
