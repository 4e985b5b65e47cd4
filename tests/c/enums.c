/* Enumerations have gcc's types (crates/cli/tests/trustworthy.rs): without
 * negative constants an enumeration is an `unsigned int`, so large values
 * are positive; with one it is an `int`. */
enum flags { F_NONE = 0, F_READ = 1, F_WRITE = 2, F_HIGH = 0x80000000u };
enum delta { D_DOWN = -1, D_SAME = 0, D_UP = 1 };

/* f > F_WRITE holds for F_HIGH and every value above it. */
int flag_class(enum flags f)
{
    if (f == F_NONE)
        return 0;
    if (f > F_WRITE)
        return 2;
    return 1;
}

/* The unsigned enumeration wraps; the signed one keeps its sign. */
int step(enum flags f, enum delta d)
{
    if (f - 1 > F_HIGH)
        return -1;
    if (d < D_SAME)
        return 1;
    return 0;
}
