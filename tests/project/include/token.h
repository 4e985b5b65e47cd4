/* token: a tokenizer for arithmetic expressions. */
#ifndef TOKEN_H
#define TOKEN_H

enum tok_kind { TOK_END, TOK_NUM, TOK_IDENT, TOK_OP, TOK_ERR };

enum tok_kind classify_char(char c);
int skip_ws(const char *s, int i);
int scan_number(const char *s, int i);
int scan_ident(const char *s, int i);
enum tok_kind next_token(const char *s, int *pos);
int count_tokens(const char *s);
int is_op_char(char c);

#endif
