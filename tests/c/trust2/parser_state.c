/* A parser's state, which the library's initialiser sets up: position
 * and line count start at 0 there, but a test may start them anywhere. */
struct parser {
    int pos;
    int line;
    const char *text;
};

int next_line(struct parser *p)
{
    if (p->pos < 0)
        return -1;
    p->line += 1;
    return p->line;
}

/* What the initialiser guarantees, stated as a precondition. */
int parser_ready(struct parser *p)
{
    return p != 0 && p->line >= 0 && p->line < 1000000;
}
