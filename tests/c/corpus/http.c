/* HTTP/1.x request-line, header-line and chunk-size parsing over (buf, len). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <ctype.h>

/* line has len bytes (not NUL-terminated); returns 1..5 for GET PUT POST
   HEAD DELETE as the first space-delimited word, 0 otherwise */
int http_method(const char *line, size_t len)
{
    static const char *const names[] = { "GET", "PUT", "POST", "HEAD", "DELETE" };
    size_t n = 0;
    int m;
    while (n < len && line[n] != ' ')
        n++;
    for (m = 0; m < 5; m++) {
        if (strlen(names[m]) == n && memcmp(line, names[m], n) == 0)
            return m + 1;
    }
    return 0;
}

/* buf has len bytes: "METHOD SP URI SP HTTP/1.x" without CRLF; on success
   stores the URI's offset and length and x in the out-pointers (all valid)
   and returns 0; returns -1 on a malformed line */
int http_request_line(const char *buf, size_t len, size_t *uri_off,
                      size_t *uri_len, int *minor)
{
    size_t i = 0, start;
    while (i < len && buf[i] >= 'A' && buf[i] <= 'Z')
        i++;
    if (i == 0 || i >= len || buf[i] != ' ')
        return -1;
    i++;
    start = i;
    while (i < len && buf[i] != ' ') {
        if ((unsigned char)buf[i] < 0x21 || buf[i] == 0x7f)
            return -1;
        i++;
    }
    if (i == start || i >= len)
        return -1;
    *uri_off = start;
    *uri_len = i - start;
    i++;
    if (len - i != 8 || memcmp(buf + i, "HTTP/1.", 7) != 0)
        return -1;
    if (buf[i + 7] != '0' && buf[i + 7] != '1')
        return -1;
    *minor = buf[i + 7] - '0';
    return 0;
}

/* s has len bytes: hex size, optional ";ext", then CRLF; on success stores
   the size in *size (valid) and returns the bytes consumed including CRLF;
   returns 0 if more input is needed, -1 on bad syntax or a size > 2^64-1 */
long http_chunk_size(const char *s, size_t len, uint64_t *size)
{
    size_t i = 0;
    uint64_t v = 0;
    int any = 0;
    for (; i < len; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            break;
        if (v > (UINT64_MAX >> 4))
            return -1;
        v = (v << 4) | d;
        any = 1;
    }
    if (i == len)
        return 0;
    if (!any)
        return -1;
    if (s[i] == ';') {
        while (i < len && s[i] != '\r')
            i++;
    }
    if (i + 1 >= len)
        return 0;
    if (s[i] != '\r' || s[i + 1] != '\n')
        return -1;
    *size = v;
    return (long)(i + 2);
}

static int http_is_tchar(unsigned char c)
{
    if (isalnum(c))
        return 1;
    return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* buf has len bytes: "Name: value" without CRLF; on success stores the
   name length and the value's offset and length with surrounding spaces and
   tabs removed (out-pointers valid) and returns 0; -1 if malformed */
int http_header(const char *buf, size_t len, size_t *name_len,
                size_t *val_off, size_t *val_len)
{
    size_t i = 0, end, j;
    while (i < len && http_is_tchar((unsigned char)buf[i]))
        i++;
    if (i == 0 || i == len || buf[i] != ':')
        return -1;
    *name_len = i;
    i++;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
        i++;
    end = len;
    while (end > i && (buf[end - 1] == ' ' || buf[end - 1] == '\t'))
        end--;
    for (j = i; j < end; j++) {
        if ((unsigned char)buf[j] < 0x20 && buf[j] != '\t')
            return -1;
    }
    *val_off = i;
    *val_len = end - i;
    return 0;
}
