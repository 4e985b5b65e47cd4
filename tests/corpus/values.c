/* values.c: value types as modern C libraries pass them around: string
 * views passed and returned by value (trim, split at a separator), a
 * tagged union of a configuration value with its truthiness and an integer
 * coercion, and an option parser that reports errors through a global
 * error code and message buffer, as libraries without errno conventions
 * do.  Part of the Pathwise corpus (crates/cli/tests/corpus.rs): each
 * function's `// pathwise:` line gives the options its suite is generated
 * with; every test must pass natively and gcov must agree with the
 * predicted coverage. */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "pathwise.h"

/* A view of len bytes at p (not terminated). */
struct strview {
    const char *p;
    size_t len;
};

/* The view without leading and trailing white space. */
// pathwise: gen --function sv_trim --k 2 --precondition sv_trim_pre
struct strview sv_trim(struct strview sv)
{
    while (sv.len > 0 && isspace((unsigned char)sv.p[0])) {
        sv.p++;
        sv.len--;
    }
    while (sv.len > 0 && isspace((unsigned char)sv.p[sv.len - 1]))
        sv.len--;
    return sv;
}

int sv_trim_pre(struct strview sv)
{
    if (sv.p == NULL || sv.len > 3)
        return 0;
    pathwise_array_len(sv.p, sv.len);
    return 1;
}

/* Split *sv at the first sep: returns the part before it and leaves *sv
 * after it (the whole view, and *sv empty, when there is none). */
// pathwise: gen --function sv_split --k 2 --precondition sv_split_pre
struct strview sv_split(struct strview *sv, char sep)
{
    struct strview head = *sv;
    const char *at = memchr(sv->p, sep, sv->len);

    if (at == NULL) {
        sv->p += sv->len;
        sv->len = 0;
        return head;
    }
    head.len = (size_t)(at - sv->p);
    sv->len -= head.len + 1;
    sv->p = at + 1;
    return head;
}

int sv_split_pre(struct strview *sv, char sep)
{
    (void)sep;
    if (sv == NULL || sv->p == NULL || sv->len > 3)
        return 0;
    pathwise_array_len(sv, 1);
    pathwise_array_len(sv->p, sv->len);
    return 1;
}

enum value_type { V_NULL, V_BOOL, V_INT, V_STRING };

/* A configuration value. */
struct value {
    enum value_type type;
    union {
        int b;
        long i;
        const char *s;
    } u;
};

/* Truthiness as a scripting language defines it: null, false, 0 and ""
 * are false. */
// pathwise: gen --function value_truthy --k 2 --precondition value_truthy_pre
int value_truthy(const struct value *v)
{
    switch (v->type) {
    case V_NULL:
        return 0;
    case V_BOOL:
        return v->u.b != 0;
    case V_INT:
        return v->u.i != 0;
    case V_STRING:
        return v->u.s != NULL && v->u.s[0] != '\0';
    }
    return 0;
}

int value_truthy_pre(const struct value *v)
{
    if (v == NULL)
        return 0;
    pathwise_array_len(v, 1);
    return v->type >= V_NULL && v->type <= V_STRING;
}

/* The value as an integer in [lo, hi] (strings by their decimal digits);
 * 0 on success, -1 when it has none or is out of range. */
// pathwise: gen --function value_to_int --k 2 --precondition value_to_int_pre
int value_to_int(const struct value *v, long lo, long hi, long *out)
{
    long x = 0;

    switch (v->type) {
    case V_BOOL:
        x = v->u.b != 0;
        break;
    case V_INT:
        x = v->u.i;
        break;
    case V_STRING: {
        const char *s = v->u.s;
        int neg = *s == '-';

        if (neg)
            s++;
        if (!isdigit((unsigned char)*s))
            return -1;
        while (isdigit((unsigned char)*s)) {
            if (x > (hi - (*s - '0')) / 10)
                return -1;
            x = x * 10 + (*s++ - '0');
        }
        if (*s != '\0')
            return -1;
        if (neg)
            x = -x;
        break;
    }
    default:
        return -1;
    }
    if (x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

int value_to_int_pre(const struct value *v, long lo, long hi, long *out)
{
    if (v == NULL || out == NULL || lo > hi || lo < -1000 || hi > 1000)
        return 0;
    pathwise_array_len(v, 1);
    pathwise_array_len(out, 1);
    if (v->type == V_STRING && v->u.s == NULL)
        return 0;
    return v->type >= V_NULL && v->type <= V_STRING;
}

/* The last error of the option parser, as a code and a message. */
int opt_errno;
char opt_errmsg[32];

static int opt_fail(int code, const char *what, char opt)
{
    opt_errno = code;
    snprintf(opt_errmsg, sizeof opt_errmsg, "%s: -%c", what, opt);
    return -1;
}

/* Parse one command-line argument against an option string in getopt's
 * format ("ab:" : -a without, -b with an argument): returns the option
 * character, 0 for an operand, -1 with opt_errno/opt_errmsg set for an
 * unknown option or a missing argument (next is the following argument,
 * or NULL). */
// pathwise: gen --function parse_opt --k 2 --precondition parse_opt_pre --max-array-len 4
int parse_opt(const char *arg, const char *next, const char *optstring)
{
    const char *spec;

    if (arg[0] != '-' || arg[1] == '\0')
        return 0;
    spec = strchr(optstring, arg[1]);
    if (spec == NULL || arg[1] == ':')
        return opt_fail(1, "unknown option", arg[1]);
    if (spec[1] == ':' && arg[2] == '\0' && next == NULL)
        return opt_fail(2, "missing argument", arg[1]);
    return arg[1];
}

int parse_opt_pre(const char *arg, const char *next, const char *optstring)
{
    (void)next;
    return arg != NULL && optstring != NULL && strcmp(optstring, "ab:") == 0;
}
