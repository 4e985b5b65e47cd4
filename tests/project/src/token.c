/* Tokens of expressions such as "x1 + 42*(y)". */
#include "token.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

int is_op_char(char c)
{
    switch (c) {
    case '+':
    case '-':
    case '*':
    case '/':
    case '(':
    case ')':
        return 1;
    default:
        return 0;
    }
}

enum tok_kind classify_char(char c)
{
    if (c == '\0')
        return TOK_END;
    if (is_digit(c))
        return TOK_NUM;
    if (is_alpha(c))
        return TOK_IDENT;
    if (is_op_char(c))
        return TOK_OP;
    return TOK_ERR;
}

int skip_ws(const char *s, int i)
{
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    return i;
}

int scan_number(const char *s, int i)
{
    while (is_digit(s[i]))
        i++;
    return i;
}

int scan_ident(const char *s, int i)
{
    while (is_alpha(s[i]) || is_digit(s[i]))
        i++;
    return i;
}

/* Callers start at the beginning of a string or just past a token. */
int next_token_pre(const char *s, int *pos)
{
    return s != 0 && pos != 0 && *pos >= 0 && *pos <= 1;
}

enum tok_kind next_token(const char *s, int *pos)
{
    int i = skip_ws(s, *pos);
    enum tok_kind k = classify_char(s[i]);
    switch (k) {
    case TOK_NUM:
        i = scan_number(s, i);
        break;
    case TOK_IDENT:
        i = scan_ident(s, i);
        break;
    case TOK_OP:
    case TOK_ERR:
        i++;
        break;
    case TOK_END:
        break;
    }
    *pos = i;
    return k;
}

int count_tokens(const char *s)
{
    int pos = 0, n = 0;
    enum tok_kind k;
    while ((k = next_token(s, &pos)) != TOK_END) {
        if (k == TOK_ERR)
            return -1;
        n++;
    }
    return n;
}
