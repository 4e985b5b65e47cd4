/* Pointers a function stores through a pointer parameter, into another
 * parameter's array or a static buffer (tests/real_c_sweep.rs): each test
 * checks where they point. */
#include <string.h>

/* `key=value`: the key ends at '=', *val is the text after it. */
int find_value(char *line, char **val)
{
    char *p = strchr(line, '=');
    if (!p)
        return -1;
    *p = '\0';
    *val = p + 1;
    return 0;
}

static char scratch[16];

/* A static buffer handed out through an out parameter. */
void borrow(int wide, char **out)
{
    *out = wide ? scratch : scratch + 8;
}
