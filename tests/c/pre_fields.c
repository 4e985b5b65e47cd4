/* A field of an input structure that the precondition reads first and a
 * library loop then decides on: the concrete replay of each test must
 * take the same library decisions as the run that found its path. */
#include <stddef.h>
#include <string.h>

struct rec {
    char name[4];
    size_t n;
};

int name_len(struct rec *v)
{
    return (int)strlen(v->name);
}

int name_len_pre(struct rec *v)
{
    return v != NULL && v->name[0] == 'a';
}
