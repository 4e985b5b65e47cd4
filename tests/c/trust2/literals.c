/* Library loops over string literals are bounded by the literal, not by
 * k (issue 23): at k = 2, strchr's not-found side and strcmp's match of a
 * 3-letter word were cut, and the run still said "complete". */
#include <string.h>

int special(int c)
{
    if (strchr("!#$%&", c))
        return 1;
    return 0;
}

int method(const char *m)
{
    if (strcmp(m, "GET") == 0)
        return 1;
    if (strncmp(m, "POST", 4) == 0)
        return 2;
    if (strstr(m, "HTTP/1.1"))
        return 3;
    return 0;
}
