/* String functions writing into an array inside a larger object
 * (tests/real_c_sweep.rs): C's array ends with the member or the row, and
 * _FORTIFY_SOURCE=2 aborts a call writing past it, though the bytes after
 * it are still in the object (ASan sees nothing). */
#include <stdio.h>
#include <string.h>

struct user {
    char name[8];
    int id;
};

/* The bug: a name of 8 characters leaves no room for the NUL. */
int set_name(struct user *u, const char *name)
{
    if (strlen(name) > 8)
        return -1;
    strcpy(u->name, name);
    return u->id;
}

/* Correct: at most 7 characters and the NUL. */
int set_name_checked(struct user *u, const char *name)
{
    if (strlen(name) >= sizeof u->name)
        return -1;
    strcpy(u->name, name);
    return u->id;
}

/* snprintf bounded by the member: never past it. */
int label(struct user *u, int n)
{
    return snprintf(u->name, sizeof u->name, "user%d", n) < (int)sizeof u->name;
}

/* memset from the first member over the whole structure: allowed. */
void clear(struct user *u)
{
    memset(u->name, 0, sizeof *u);
}

/* A row of a two-dimensional array. */
static char rows[2][4];
int keep(int i, const char *w)
{
    if (i < 0 || i > 1 || strlen(w) > 4)
        return -1;
    strcpy(rows[i], w);
    return (int)strlen(rows[i]);
}

/* A precondition of set_name's: the summary's free fields are what it
 * accepts, with no advice to write one. */
int set_name_pre(struct user *u, const char *name)
{
    return u != 0 && name != 0 && u->id > 0;
}
