/* Functions that read a `FILE *` parameter, as C code reads files: a
 * character loop, a line parser, a binary header, a tokenizer with
 * one character of look-ahead, a reader that closes its stream, and a
 * reader of a stream kept in a structure (not modelled: reported, never
 * a test). The standard input is tested in stdin.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Newlines in the file. */
int count_lines(FILE *f)
{
    int c, n = 0;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n')
            n++;
    }
    return n;
}

/* `key=value` lines; `#` starts a comment; returns the digit of the
 * first `n=` line, -1 without one. */
int config_n(FILE *f)
{
    char line[4];
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#')
            continue;
        if (line[0] == 'n' && line[1] == '=')
            return line[2] - '0';
    }
    return -1;
}

struct header {
    unsigned char magic[2];
    unsigned char version;
};

/* A three-byte header: -1 short, -2 bad magic, else its version. */
int read_header(FILE *f)
{
    struct header h;
    if (fread(&h, sizeof h, 1, f) != 1)
        return -1;
    if (h.magic[0] != 'P' || h.magic[1] != 'W')
        return -2;
    return h.version;
}

/* A comment line is skipped; else one character is looked at and put
 * back. */
int peek(FILE *f)
{
    int c = getc(f);
    if (c == '#') {
        while ((c = getc(f)) != EOF && c != '\n')
            ;
        return 1;
    }
    ungetc(c, f);
    return fgetc(f) == 'x' ? 2 : 0;
}

/* Reads two characters, closes the stream, and says whether the file
 * ended before them. */
int read_and_close(FILE *f)
{
    int a = fgetc(f);
    int b = fgetc(f);
    int ended = feof(f) != 0;
    fclose(f);
    if (ended)
        return a == EOF ? 0 : 1;
    return a == b ? 3 : 2;
}

/* "W H" then a newline: the area; -1 without two numbers, -2 without the
 * newline right after them. */
int area(FILE *f)
{
    int w, h;
    if (fscanf(f, "%d %d", &w, &h) != 2)
        return -1;
    return fgetc(f) == '\n' ? w * h : -2;
}

/* The file's size, the way C programs ask for it, then its first byte
 * read again from the start. */
long size_then_first(FILE *f)
{
    if (fseek(f, 0, SEEK_END) != 0)
        return -1;
    long n = ftell(f);
    rewind(f);
    int c = fgetc(f);
    return n * 1000 + c;
}

/* A '#', a byte skipped with SEEK_CUR (the file may end before it),
 * then the 'x' bytes up to the end, and where the end was. */
int skip_one(FILE *f)
{
    if (fgetc(f) != '#')
        return -1;
    fseek(f, 1, SEEK_CUR);
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        if (c == 'x')
            n++;
    return n * 100 + (int)ftell(f);
}

/* glibc drops a pushed-back byte even when fseek fails. */
int failed_seek(FILE *f)
{
    if (fgetc(f) == EOF)
        return -2;
    ungetc('z', f);
    long at = ftell(f);
    if (fseek(f, -5, SEEK_CUR) == 0)
        return 99;
    return (int)at * 1000 + fgetc(f);
}

/* The lines that start with '#', read with getline (its buffer is
 * glibc's, freed here). */
int comment_lines(FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    int count = 0;
    while (getline(&line, &cap, f) != -1)
        if (line[0] == '#')
            count++;
    free(line);
    return count;
}

/* getline's buffer freed, then an allocation of the code's own that
 * leaks: for the tests it is allocation 1 (glibc's malloc inside getline
 * is not counted). */
int line_then_leak(FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, f);
    free(line);
    char *p = malloc(4);
    if (!p)
        return -9;
    p[0] = 'a';
    return (int)n;
}

/* The position after the first byte kept with fgetpos, the second byte
 * read, then read again after fsetpos. */
int reread(FILE *f)
{
    fpos_t at;
    if (fgetc(f) == EOF)
        return -1;
    if (fgetpos(f, &at) != 0)
        return -2;
    int a = fgetc(f);
    fsetpos(f, &at);
    int b = fgetc(f);
    return a == b ? a : -3;
}

/* Not modelled: a stream kept in a structure is reported, with no test. */
struct reader {
    FILE *in;
    int lines;
};

int next_is_y(struct reader *r)
{
    return fgetc(r->in) == 'y';
}
