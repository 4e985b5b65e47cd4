/* parsers.c: the small parsers configuration files, network tools and data
 * formats are built from: a JSON tokenizer step, an INI line parser,
 * integer parsing with strtol and by hand with overflow checks, a dotted
 * IPv4 address parser, a boolean option parser, a syslog level name parser
 * (strcasecmp), a duration parser ("90s", "5m", "2h"), a state-machine lexer
 * for arithmetic expressions and URL percent-decoding.  Part of the Pathwise
 * corpus (crates/cli/tests/corpus.rs): each function's `// pathwise:` line
 * gives the options its suite is generated with; every test must pass
 * natively and gcov must agree with the predicted coverage. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pathwise.h"

enum json_tok {
    JSON_ERROR = -1,
    JSON_END,
    JSON_LBRACE,
    JSON_RBRACE,
    JSON_LBRACKET,
    JSON_RBRACKET,
    JSON_COLON,
    JSON_COMMA,
    JSON_STRING,
    JSON_NUMBER,
    JSON_TRUE,
    JSON_FALSE,
    JSON_NULL
};

/* One step of a JSON tokenizer: skip white space from *pos, classify the
 * next token and advance *pos past it (strings without escapes checked in
 * detail: a backslash skips one character; numbers as -?digits). */
// (--max-array-len bounds the input: the iterations of a `while (a || b)`
// loop that `a` alone continues do not count towards k yet.)
// pathwise: gen --function json_next --k 1 --precondition json_next_pre --max-array-len 4
enum json_tok json_next(const char *s, size_t *pos)
{
    size_t i = *pos;

    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
        i++;
    *pos = i + 1;
    switch (s[i]) {
    case '\0':
        *pos = i;
        return JSON_END;
    case '{':
        return JSON_LBRACE;
    case '}':
        return JSON_RBRACE;
    case '[':
        return JSON_LBRACKET;
    case ']':
        return JSON_RBRACKET;
    case ':':
        return JSON_COLON;
    case ',':
        return JSON_COMMA;
    case '"':
        for (i++; s[i] != '"'; i++) {
            if (s[i] == '\0' || (unsigned char)s[i] < 0x20)
                return JSON_ERROR;
            if (s[i] == '\\' && s[++i] == '\0')
                return JSON_ERROR;
        }
        *pos = i + 1;
        return JSON_STRING;
    case 't':
        if (strncmp(s + i, "true", 4) != 0)
            return JSON_ERROR;
        *pos = i + 4;
        return JSON_TRUE;
    case 'f':
        if (strncmp(s + i, "false", 5) != 0)
            return JSON_ERROR;
        *pos = i + 5;
        return JSON_FALSE;
    case 'n':
        if (strncmp(s + i, "null", 4) != 0)
            return JSON_ERROR;
        *pos = i + 4;
        return JSON_NULL;
    default:
        if (s[i] == '-')
            i++;
        if (!isdigit((unsigned char)s[i]))
            return JSON_ERROR;
        while (isdigit((unsigned char)s[i]))
            i++;
        *pos = i;
        return JSON_NUMBER;
    }
}

int json_next_pre(const char *s, size_t *pos)
{
    if (s == NULL || pos == NULL)
        return 0;
    pathwise_array_len(pos, 1);
    return *pos == 0;
}

enum ini_kind { INI_BLANK, INI_SECTION, INI_PAIR, INI_ERROR };

struct ini_line {
    char name[8];
    char value[8];
};

/* Classify one line of an INI file: blank or comment (';' or '#'),
 * "[section]" (name copied), or "key=value" (both copied, the key trimmed
 * at its end); an over-long name or value is an error. */
// pathwise: gen --function ini_parse_line --k 1 --precondition ini_parse_line_pre --max-array-len 6
enum ini_kind ini_parse_line(const char *line, struct ini_line *out)
{
    const char *eq;
    size_t n;

    while (isspace((unsigned char)*line))
        line++;
    if (*line == '\0' || *line == ';' || *line == '#')
        return INI_BLANK;
    if (*line == '[') {
        const char *end = strchr(line, ']');
        if (end == NULL)
            return INI_ERROR;
        n = (size_t)(end - line - 1);
        if (n == 0 || n >= sizeof out->name)
            return INI_ERROR;
        memcpy(out->name, line + 1, n);
        out->name[n] = '\0';
        return INI_SECTION;
    }
    eq = strchr(line, '=');
    if (eq == NULL || eq == line)
        return INI_ERROR;
    n = (size_t)(eq - line);
    while (n > 0 && isspace((unsigned char)line[n - 1]))
        n--;
    if (n >= sizeof out->name || strlen(eq + 1) >= sizeof out->value)
        return INI_ERROR;
    memcpy(out->name, line, n);
    out->name[n] = '\0';
    strcpy(out->value, eq + 1);
    return INI_PAIR;
}

int ini_parse_line_pre(const char *line, struct ini_line *out)
{
    if (line == NULL || out == NULL)
        return 0;
    pathwise_array_len(out, 1);
    return 1;
}

/* Parse a whole string as an int in the given base (0 for C's prefixes):
 * 0 on success, -1 on no digits or trailing garbage, -2 out of range. */
// pathwise: gen --function parse_int --k 1 --precondition parse_int_pre
int parse_int(const char *s, int base, int *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, base);
    if (end == s || *end != '\0')
        return -1;
    if (errno == ERANGE || v < INT_MIN || v > INT_MAX)
        return -2;
    *out = (int)v;
    return 0;
}

int parse_int_pre(const char *s, int base, int *out)
{
    if (s == NULL || out == NULL || (base != 0 && base != 10 && base != 16))
        return 0;
    pathwise_array_len(out, 1);
    return 1;
}

/* Parse a decimal uint32 by hand, rejecting signs, empty strings, trailing
 * characters and overflow (checked before each multiplication). */
// pathwise: gen --function parse_u32 --k 2 --precondition parse_u32_pre
int parse_u32(const char *s, uint32_t *out)
{
    uint32_t v = 0;

    if (!isdigit((unsigned char)*s))
        return -1;
    for (; isdigit((unsigned char)*s); s++) {
        uint32_t d = (uint32_t)(*s - '0');
        if (v > (UINT32_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    if (*s != '\0')
        return -1;
    *out = v;
    return 0;
}

int parse_u32_pre(const char *s, uint32_t *out)
{
    if (s == NULL || out == NULL)
        return 0;
    pathwise_array_len(out, 1);
    return 1;
}

/* inet_aton's strict dotted-quad form: four decimal parts 0..255 without
 * leading zeros, separated by dots; the address in host order. */
// pathwise: gen --function ip4_parse --k 4 --precondition ip4_parse_pre --max-array-len 10
int ip4_parse(const char *s, uint32_t *addr)
{
    uint32_t a = 0;
    int part;

    for (part = 0; part < 4; part++) {
        unsigned v = 0;
        int digits = 0;

        if (part > 0) {
            if (*s != '.')
                return -1;
            s++;
        }
        while (isdigit((unsigned char)*s)) {
            if (digits > 0 && v == 0)
                return -1;
            v = v * 10 + (unsigned)(*s++ - '0');
            if (v > 255)
                return -1;
            digits++;
        }
        if (digits == 0)
            return -1;
        a = a << 8 | v;
    }
    if (*s != '\0')
        return -1;
    *addr = a;
    return 0;
}

int ip4_parse_pre(const char *s, uint32_t *addr)
{
    if (s == NULL || addr == NULL)
        return 0;
    pathwise_array_len(addr, 1);
    return 1;
}

/* A configuration boolean: 1 for yes/true/on/1, 0 for no/false/off/0 (any
 * case), -1 otherwise. */
// pathwise: gen --function parse_bool --k 5 --precondition parse_bool_pre --max-array-len 9
int parse_bool(const char *s)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    char low[8];
    size_t i, n = strlen(s);

    if (n >= sizeof low)
        return -1;
    for (i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)s[i]);
    for (i = 0; i < 4; i++) {
        if (strcmp(low, yes[i]) == 0)
            return 1;
        if (strcmp(low, no[i]) == 0)
            return 0;
    }
    return -1;
}

int parse_bool_pre(const char *s)
{
    return s != NULL;
}

/* The syslog level of a name ("err", "warning", "info", ...; "error" and
 * "warn" too), ignoring case and an optional "LOG_" prefix; -1 for an
 * unknown name. */
// pathwise: gen --function log_level --k 8 --precondition log_level_pre --max-array-len 9
int log_level(const char *name)
{
    static const struct {
        const char *name;
        int level;
    } levels[] = {
        {"err", 3}, {"error", 3}, {"warn", 4}, {"warning", 4}, {"notice", 5}, {"info", 6}, {"debug", 7},
    };
    size_t i;

    if (strncasecmp(name, "log_", 4) == 0)
        name += 4;
    for (i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcasecmp(name, levels[i].name) == 0)
            return levels[i].level;
    return -1;
}

int log_level_pre(const char *name)
{
    return name != NULL;
}

/* A duration such as "90", "90s", "15m" or "2h", in seconds; -1 on a bad
 * string or when the result does not fit a long. */
// pathwise: gen --function parse_duration --k 1 --precondition parse_duration_pre
long parse_duration(const char *s)
{
    char *end;
    long v, mult;

    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno == ERANGE)
        return -1;
    switch (*end) {
    case '\0':
    case 's':
        mult = 1;
        break;
    case 'm':
        mult = 60;
        break;
    case 'h':
        mult = 3600;
        break;
    default:
        return -1;
    }
    if (*end != '\0' && end[1] != '\0')
        return -1;
    if (v > LONG_MAX / mult)
        return -1;
    return v * mult;
}

int parse_duration_pre(const char *s)
{
    return s != NULL;
}

/* Count the tokens of an arithmetic expression (identifiers, integers,
 * operators and parentheses) with a three-state lexer; -1 on a character
 * outside the language or a digit run running into a letter. */
// pathwise: gen --function count_tokens --k 2 --precondition count_tokens_pre --max-array-len 5
int count_tokens(const char *src)
{
    enum { START, IDENT, NUMBER } state = START;
    int count = 0;
    const char *p;

    for (p = src;; p++) {
        unsigned char c = (unsigned char)*p;

        switch (state) {
        case IDENT:
            if (isalnum(c) || c == '_')
                continue;
            break;
        case NUMBER:
            if (isdigit(c))
                continue;
            if (isalpha(c) || c == '_')
                return -1;
            break;
        case START:
            break;
        }
        state = START;
        if (c == '\0')
            return count;
        if (isspace(c))
            continue;
        count++;
        if (isalpha(c) || c == '_')
            state = IDENT;
        else if (isdigit(c))
            state = NUMBER;
        else if (strchr("+-*/()", c) == NULL)
            return -1;
    }
}

int count_tokens_pre(const char *src)
{
    return src != NULL;
}

/* Percent-decoding of a URL component into dst (dstsz bytes, terminated):
 * "%41" is 'A', '+' is a space; returns the decoded length, -1 on a bad
 * escape, -2 when dst is too small. */
// pathwise: gen --function url_decode --k 1 --precondition url_decode_pre --max-array-len 6
int url_decode(const char *src, char *dst, size_t dstsz)
{
    size_t n = 0;

    while (*src) {
        int c = (unsigned char)*src++;

        if (c == '+') {
            c = ' ';
        } else if (c == '%') {
            int hi, lo;

            if (!isxdigit((unsigned char)src[0]) || !isxdigit((unsigned char)src[1]))
                return -1;
            hi = isdigit((unsigned char)src[0]) ? src[0] - '0' : tolower((unsigned char)src[0]) - 'a' + 10;
            lo = isdigit((unsigned char)src[1]) ? src[1] - '0' : tolower((unsigned char)src[1]) - 'a' + 10;
            c = hi << 4 | lo;
            src += 2;
        }
        if (n + 1 >= dstsz)
            return -2;
        dst[n++] = (char)c;
    }
    if (dstsz == 0)
        return -2;
    dst[n] = '\0';
    return (int)n;
}

int url_decode_pre(const char *src, char *dst, size_t dstsz)
{
    if (src == NULL || dst == NULL || dstsz > 3)
        return 0;
    pathwise_array_len(dst, dstsz);
    return 1;
}
