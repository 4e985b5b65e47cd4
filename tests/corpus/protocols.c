/* protocols.c: the wire-format and message helpers of network daemons and
 * file tools: IPv4 header validation with its ones'-complement checksum, a
 * TLV option walk, an HTTP status line parser, a human-readable size
 * formatter (snprintf), a "key: value" header splitter that allocates both
 * halves with goto-based cleanup, and a permission string from a mode's bits
 * (strmode).  Part of the Pathwise corpus (crates/cli/tests/corpus.rs):
 * each function's `// pathwise:` line gives the options its suite is
 * generated with; every test must pass natively and gcov must agree with
 * the predicted coverage. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathwise.h"

/* Check an IPv4 header at the start of a packet of len bytes: version 4,
 * a header length of at least 20 bytes that fits, a total length that
 * fits, and a zero ones'-complement sum.  Returns the header length or a
 * negative reason. */
// pathwise: gen --function ipv4_header_check --k 12 --precondition ipv4_header_check_pre --max-array-len 24
int ipv4_header_check(const uint8_t *pkt, size_t len)
{
    size_t ihl, total, i;
    uint32_t sum = 0;

    if (len < 20)
        return -1;
    if (pkt[0] >> 4 != 4)
        return -2;
    ihl = (size_t)(pkt[0] & 0x0f) * 4;
    if (ihl < 20 || ihl > len)
        return -3;
    total = (size_t)pkt[2] << 8 | pkt[3];
    if (total < ihl || total > len)
        return -4;
    for (i = 0; i < ihl; i += 2)
        sum += (uint32_t)pkt[i] << 8 | pkt[i + 1];
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    if (sum != 0xffff)
        return -5;
    return (int)ihl;
}

int ipv4_header_check_pre(const uint8_t *pkt, size_t len)
{
    if (pkt == NULL || len > 24)
        return 0;
    pathwise_array_len(pkt, len);
    return 1;
}

/* Find option type in a TLV list (type byte, length byte, value; type 0
 * pads one byte, type 255 ends the list, as in DHCP options).  Returns the
 * value's offset, -1 when absent, -2 when an option overruns the buffer. */
// pathwise: gen --function tlv_find --k 2 --precondition tlv_find_pre
int tlv_find(const uint8_t *buf, size_t len, uint8_t type)
{
    size_t i = 0;

    while (i < len) {
        uint8_t t = buf[i];

        if (t == 0) {
            i++;
            continue;
        }
        if (t == 255)
            return -1;
        if (i + 1 >= len || i + 2 + buf[i + 1] > len)
            return -2;
        if (t == type)
            return (int)(i + 2);
        i += 2 + (size_t)buf[i + 1];
    }
    return -1;
}

int tlv_find_pre(const uint8_t *buf, size_t len, uint8_t type)
{
    if (buf == NULL || len > 5 || type == 0 || type == 255)
        return 0;
    pathwise_array_len(buf, len);
    return 1;
}

/* Parse "HTTP/1.x NNN reason": the status code (100..599), -1 on a bad
 * line; *minor gets the protocol's minor version. */
// pathwise: gen --function http_status --k 2 --precondition http_status_pre --max-array-len 14
int http_status(const char *line, int *minor)
{
    int code = 0, i;

    if (strncmp(line, "HTTP/1.", 7) != 0)
        return -1;
    if (line[7] != '0' && line[7] != '1')
        return -1;
    *minor = line[7] - '0';
    if (line[8] != ' ')
        return -1;
    for (i = 9; i < 12; i++) {
        if (!isdigit((unsigned char)line[i]))
            return -1;
        code = code * 10 + (line[i] - '0');
    }
    if (line[12] != ' ' && line[12] != '\0')
        return -1;
    if (code < 100 || code > 599)
        return -1;
    return code;
}

int http_status_pre(const char *line, int *minor)
{
    if (line == NULL || minor == NULL)
        return 0;
    pathwise_array_len(minor, 1);
    return 1;
}

/* Format a byte count as "512B", "1.5K", "20M" (one decimal below 10 of a
 * unit, as ls -h does); returns snprintf's length. */
// pathwise: gen --function format_size --k 2 --precondition format_size_pre
int format_size(unsigned long bytes, char *buf, size_t n)
{
    static const char units[] = "BKMGT";
    unsigned long whole = bytes, rem = 0;
    int u = 0;

    while (whole >= 1024 && u < 4) {
        rem = whole % 1024;
        whole /= 1024;
        u++;
    }
    if (u > 0 && whole < 10)
        return snprintf(buf, n, "%lu.%lu%c", whole, rem * 10 / 1024, units[u]);
    return snprintf(buf, n, "%lu%c", whole, units[u]);
}

int format_size_pre(unsigned long bytes, char *buf, size_t n)
{
    (void)bytes;
    if (buf == NULL || n != 8)
        return 0;
    pathwise_array_len(buf, n);
    return 1;
}

/* Split "Key: value" into two new strings (the value without leading
 * blanks); 0 on success, -1 on a line without a colon or an empty key,
 * -2 when out of memory (nothing is then allocated). */
// (--max-array-len bounds the input: the iterations of a `while (a || b)`
// loop that `a` alone continues do not count towards k yet.)
// pathwise: gen --function split_header --k 2 --precondition split_header_pre --check-leaks --max-array-len 5
int split_header(const char *line, char **key, char **value)
{
    const char *colon = strchr(line, ':');
    const char *v;
    size_t klen;
    char *k = NULL, *val = NULL;

    if (colon == NULL || colon == line)
        return -1;
    klen = (size_t)(colon - line);
    k = malloc(klen + 1);
    if (k == NULL)
        goto fail;
    memcpy(k, line, klen);
    k[klen] = '\0';
    for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
        ;
    val = strdup(v);
    if (val == NULL)
        goto fail;
    *key = k;
    *value = val;
    return 0;
fail:
    free(k);
    free(val);
    return -2;
}

int split_header_pre(const char *line, char **key, char **value)
{
    if (line == NULL || key == NULL || value == NULL)
        return 0;
    pathwise_array_len(key, 1);
    pathwise_array_len(value, 1);
    return 1;
}

#define MODE_DIR 040000u

/* "drwxr-x---" of a mode's type and permission bits into out (11 bytes),
 * as BSD's strmode does. */
// pathwise: gen --function mode_string --k 2 --precondition mode_string_pre
void mode_string(unsigned mode, char *out)
{
    static const char rwx[] = "rwx";
    int i;

    out[0] = (mode & 0170000u) == MODE_DIR ? 'd' : '-';
    for (i = 0; i < 9; i++)
        out[1 + i] = mode & (0400u >> i) ? rwx[i % 3] : '-';
    out[10] = '\0';
}

int mode_string_pre(unsigned mode, char *out)
{
    (void)mode;
    if (out == NULL)
        return 0;
    pathwise_array_len(out, 11);
    return 1;
}
