/* Functions that write on the standard output (tests/stdout.rs): each
 * test compares what the call wrote there, byte for byte, with what the
 * generator observed. */
#include <stdio.h>

/* A symbolic number printed: its text follows the test's value. */
int print_sign(int x)
{
    if (x < 0) {
        printf("%d is negative\n", x);
        return -1;
    }
    printf("%5d|%-4x|\n", x, x);
    return x > 0;
}

/* A byte loop: "%02x" per byte, then a newline. */
void hex_dump(const unsigned char *p, int n)
{
    for (int i = 0; i < n; i++)
        printf("%02x", p[i]);
    putchar('\n');
}

/* puts, fputs and fputc on stdout; stderr is not compared. */
int greet(const char *name)
{
    if (name[0] == '\0') {
        fputs("nobody\n", stderr);
        return 0;
    }
    fputs("hello, ", stdout);
    fputs(name, stdout);
    fputc('!', stdout);
    puts("");
    return 1;
}

/* fprintf and fwrite on stdout. */
void table(int rows)
{
    static const char rule[] = "+--+\n";
    fwrite(rule, 1, sizeof rule - 1, stdout);
    for (int i = 0; i < rows && i < 3; i++)
        fprintf(stdout, "|%2d|\n", i * rows);
    fwrite(rule, 1, sizeof rule - 1, stdout);
}

/* Never writes: no output to compare. */
int quiet(int x)
{
    return x > 3;
}

/* Output, then `exit`: the test compares what `exit` flushes. `_exit`
 * discards the buffer: nothing to compare. */
#include <stdlib.h>
#include <unistd.h>
int check_or_die(int x)
{
    if (x < 0) {
        printf("bad value %d\n", x);
        exit(2);
    }
    if (x == 7) {
        printf("lost");
        _exit(3);
    }
    printf("ok %d\n", x);
    return 0;
}
