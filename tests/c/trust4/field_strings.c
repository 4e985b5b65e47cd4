/* A string kept in an input structure compared with a string parameter
 * (tests/field_strings.rs): each comparison of the two is a decision of
 * both inputs. */
#include <string.h>

struct entry {
    char *name;
    int value;
};

/* The first two characters, one decision each. */
int same_start(const struct entry *e, const char *key)
{
    if (!e->name)
        return 2;
    if (key[0] == e->name[0])
        if (key[1] == e->name[1])
            return 1;
    return 0;
}

/* The whole names, by strcmp. */
int lookup(const struct entry *e, const char *key)
{
    if (!e->name)
        return -1;
    return strcmp(key, e->name) == 0 ? e->value : -1;
}
