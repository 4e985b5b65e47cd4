/* gcc's integer bit built-ins on symbolic inputs (crates/cli/tests/builtins.rs). */
#include <stdint.h>

/* No decision: one test whatever the inputs. */
int bits_mix(unsigned x, unsigned long long y) {
    return __builtin_popcount(x) + __builtin_parityll(y) + (int)(__builtin_bswap32(x) >> 24);
}

/* The count steers a decision: both sides are solved for. */
int weight_is_3(unsigned x) {
    if (__builtin_popcount(x) == 3)
        return 1;
    return 0;
}

/* 0 is undefined for clz: an error test, then both sides. */
int high_half(unsigned x) {
    int n = 31 - __builtin_clz(x);
    if (n >= 16)
        return 1;
    return 0;
}

/* Solved backwards through a byte swap. */
int swapped(uint16_t v) {
    if (__builtin_bswap16(v) == 0x1234)
        return 1;
    return 0;
}

/* ffs is defined for 0. */
int lowest(long long v) {
    int i = __builtin_ffsll(v);
    if (i == 0)
        return -1;
    if (i > 40)
        return 1;
    return 0;
}

/* ctz counted on the high word of a 64-bit value. */
int trailing(unsigned long long v) {
    if (__builtin_ctzll(v) == 63)
        return 1;
    return 0;
}
