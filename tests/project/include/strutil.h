/* strutil: small string helpers over NUL-terminated strings. */
#ifndef STRUTIL_H
#define STRUTIL_H

#include <stddef.h>

size_t str_len(const char *s);
int str_eq(const char *a, const char *b);
int str_starts_with(const char *s, const char *prefix);
void str_to_upper(char *s);
int str_count_char(const char *s, char c);
int str_is_blank(const char *s);
size_t str_skip_spaces(const char *s);
int str_index_of(const char *s, char c);

#endif
