/* <ctype.h> through glibc's headers: the classification macros expand to
 * lookups in glibc's class table, (*__ctype_b_loc())[(int)(c)] & _ISxxx,
 * so a symbolic character indexes a table (crates/cli/tests/libc.rs). */
#include <ctype.h>
#include <stdio.h>

/* 3 paths: a digit, a letter, anything else. */
int classify(char c)
{
    if (isdigit(c))
        return 1;
    if (isalpha(c))
        return 2;
    return 0;
}

/* 6 paths: every "C"-locale character is in one of these classes or a
 * digit, and negative chars are in none. */
int kind(char c)
{
    if (isspace(c))
        return 1;
    if (isupper(c))
        return 2;
    if (islower(c))
        return 3;
    if (ispunct(c))
        return 4;
    if (iscntrl(c))
        return 5;
    return 0;
}

/* 3 paths; tolower is a call of glibc's function (no optimisation). */
int xdigit_value(char c)
{
    if (isdigit(c))
        return c - '0';
    if (isxdigit(c))
        return tolower(c) - 'a' + 10;
    return -1;
}

/* 3 paths: the first test holds; only the second; neither. */
int same_letter(char a, char b)
{
    if (tolower(a) == toupper(b) + ('a' - 'A') || tolower(a) == tolower(b))
        return 1;
    return 0;
}

/* The function forms return glibc's values: (isalpha)(c) is 1024 for a
 * letter, (isdigit)(c) gcc's built-in 0 or 1, toupper(c) maps -128..-2 to
 * 128..254; 4 paths (below, above, negative, in range). */
int fn_forms(int c)
{
    if (c < -128 || c > 255)
        return -1;
    if (c < 0)
        return toupper(c);
    return (isalpha)(c) + (isdigit)(c) + (isspace)(c) + (isgraph)(c) + toupper(c);
}

/* The case tables through the _tolower/_toupper macros: 2 paths. */
int fold(char c)
{
    if (isupper(c))
        return _tolower(c);
    return _toupper(c);
}

/* EOF and bytes above 127: all concrete, 1 path. */
int eof_and_high(void)
{
    unsigned char high = 200;
    return isalpha(EOF) + isspace(EOF) + tolower(EOF) + toupper(EOF) + isprint(high) + tolower(high)
           + (isblank)(' ') + (isblank)('\t') + isascii(200) + toascii(200);
}

/* Words of a string: isspace in a loop over an input string. */
int words(const char *s)
{
    int n = 0, in = 0;
    for (; *s; s++) {
        if (isspace((unsigned char)*s))
            in = 0;
        else if (!in) {
            in = 1;
            n++;
        }
    }
    return n;
}

/* Every argument glibc's tables cover, in every form: one path whose
 * checksum the native run recomputes. */
unsigned all_characters(void)
{
    unsigned sum = 0;
    int c;
    for (c = -128; c < 256; c++) {
        unsigned v = (unsigned)(isalnum(c) ^ isalpha(c) << 1 ^ iscntrl(c) << 2 ^ isdigit(c) << 3 ^ isgraph(c) << 4
                                ^ islower(c) << 5 ^ isprint(c) << 6 ^ ispunct(c) << 7 ^ isspace(c) << 8
                                ^ isupper(c) << 9 ^ isxdigit(c) << 10 ^ isblank(c) << 11);
        unsigned f = (unsigned)((isalnum)(c) + (isalpha)(c) + (iscntrl)(c) + (isdigit)(c) + (isgraph)(c)
                                + (islower)(c) + (isprint)(c) + (ispunct)(c) + (isspace)(c) + (isupper)(c)
                                + (isxdigit)(c) + (isblank)(c));
        unsigned t = (unsigned)(tolower(c) * 3 + toupper(c) * 5 + _tolower(c) * 7 + _toupper(c) * 11);
        sum = sum * 33 + v + f * 17 + t;
    }
    return sum;
}
