/* Functions that read the standard input (tests/stdin.rs): its content and
 * size are inputs, as a `FILE *` parameter's are. */
#include <stdio.h>
#include <string.h>

/* Newlines on stdin, character by character. */
int count_lines(void)
{
    int c, n = 0;
    while ((c = getchar()) != EOF)
        if (c == '\n')
            n++;
    return n;
}

/* The first line: 'q' quits (1), another first character is kept in
 * `out` (0), no line at all is -1. */
int first_command(char *out)
{
    char line[8];
    if (fgets(line, sizeof line, stdin) == NULL)
        return -1;
    if (line[0] == 'q')
        return 1;
    out[0] = line[0];
    return 0;
}

/* "W H": the area, -1 without two numbers. */
int area(void)
{
    int w, h;
    if (scanf("%d %d", &w, &h) != 2)
        return -1;
    if (w < 0 || h < 0)
        return -2;
    return w * h;
}

/* The answer comes from a helper the function calls. */
static int ask(void)
{
    int c = getchar();
    return c == 'y' || c == 'Y';
}

int confirm(int dflt)
{
    int c = ask();
    if (c)
        return 1;
    return dflt;
}

/* Never reads stdin: its tests pass none, though the program reads it. */
int twice(int x)
{
    if (x > 100)
        return 0;
    return 2 * x;
}

/* A whole program: echoes its input upper-cased, exits 1 on a digit. */
int main(void)
{
    int c;
    while ((c = getchar()) != EOF) {
        if (c >= '0' && c <= '9')
            return 1;
        putchar(c >= 'a' && c <= 'z' ? c - 32 : c);
    }
    return 0;
}
