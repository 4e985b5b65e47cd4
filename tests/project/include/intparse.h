/* intparse: checked integer parsing and arithmetic. */
#ifndef INTPARSE_H
#define INTPARSE_H

int parse_digit(char c);
int parse_hex_digit(char c);
int parse_uint(const char *s, int *out);
int parse_int(const char *s, int *out);
int parse_hex(const char *s, unsigned *out);
int clamp_int(int v, int lo, int hi);
int int_abs(int v);
int saturating_add(int a, int b);

#endif
