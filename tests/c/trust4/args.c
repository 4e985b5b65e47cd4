/* A whole program reading its arguments (tests/main_args.rs): argv holds
 * argc strings, then NULL, as the C runtime passes them; no test passes
 * a null argument or fewer pointers than argc says. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int verbose = 0, i;
    if (argc < 2) {
        fprintf(stderr, "usage: %s [-v] NAME...\n", argv[0]);
        return 2;
    }
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else if (verbose)
            printf("hello, %s (argument %d of %d)\n", argv[i], i, argc - 1);
        else
            printf("hello, %s\n", argv[i]);
    }
    return 0;
}

/* A precondition of the user's, which replaces the built-in one: two
 * names. */
int two_names(int argc, char **argv)
{
    return argc == 3 && argv[1] != 0 && argv[2] != 0 && argv[1] != argv[2] && argv[3] == 0;
}
