/* Path normalisation and basename. */
#include <stddef.h>
#include <string.h>

/* in is NUL-terminated; out has room for size bytes (size <= INT_MAX);
   writes in with "//", "/./" and "dir/.." collapsed and no trailing '/'
   ("" becomes ".", "/.." becomes "/", a relative path keeps leading "..");
   returns the length written (NUL-terminated), or -1 if out is too small */
int path_normalize(const char *in, char *out, size_t size)
{
    size_t i = 0, o = 0, root, keep = 0;
    if (in[0] == '/') {
        if (size < 2)
            return -1;
        out[o++] = '/';
    }
    root = o;
    while (in[i] != '\0') {
        size_t s, n, sep;
        while (in[i] == '/')
            i++;
        s = i;
        while (in[i] != '\0' && in[i] != '/')
            i++;
        n = i - s;
        if (n == 0 || (n == 1 && in[s] == '.'))
            continue;
        if (n == 2 && in[s] == '.' && in[s + 1] == '.') {
            if (o > root + keep) {              /* drop the last component */
                while (o > root + keep && out[o - 1] != '/')
                    o--;
                if (o > root + keep)
                    o--;
                continue;
            }
            if (root == 1)                      /* "/.." is "/" */
                continue;
        }
        sep = o > root ? 1 : 0;
        if (o + sep + n + 1 > size)
            return -1;
        if (sep)
            out[o++] = '/';
        memcpy(out + o, in + s, n);
        o += n;
        if (n == 2 && in[s] == '.' && in[s + 1] == '.')
            keep = o - root;
    }
    if (o == 0) {
        if (size < 2)
            return -1;
        out[o++] = '.';
    }
    out[o] = '\0';
    return (int)o;
}

/* path is NUL-terminated; returns the offset of its last component and
   stores its length in *len (valid), ignoring trailing slashes: "/usr/lib/"
   gives "lib", "/" and "//" give "/", "" gives an empty component */
size_t path_basename(const char *path, size_t *len)
{
    size_t n = strlen(path), end, start;
    if (n == 0) {
        *len = 0;
        return 0;
    }
    end = n;
    while (end > 1 && path[end - 1] == '/')
        end--;
    if (end == 1 && path[0] == '/') {
        *len = 1;
        return 0;
    }
    start = end;
    while (start > 0 && path[start - 1] != '/')
        start--;
    *len = end - start;
    return start;
}
