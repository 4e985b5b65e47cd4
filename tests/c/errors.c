/* One function per error kind Pathwise reports, each with a counterpart
 * (suffix _ok) where the error cannot happen and must not be reported.
 * crates/cli/tests/errors.rs checks the kind and line of every error. */
#include <assert.h>
#include <stdlib.h>
#include "../../crates/cfront/include/pathwise.h"

int table[4];

int div_zero(int a, int b) { return a / b; }
int div_zero_ok(int a, int b) { if (b == 0 || b == -1) return 0; return a / b; }

int div_overflow(int a, int b) { if (b == 0) return 0; return a % b; }
int div_overflow_ok(int a, int b) { if (b <= 0) return 0; return a % b; }

int overflow(int a) { return a * 2; }
int overflow_ok(short a) { return a * 2; }

int shift(unsigned a, int s) { return a << s; }
int shift_ok(unsigned a, int s) { return a << (s & 31); }

int oob_global(int i) { if (i < 0) return 0; return table[i]; }
int oob_global_ok(int i) { if (i < 0 || i >= 4) return 0; return table[i]; }

int oob_local(int i) { int loc[3] = {1, 2, 3}; if (i < 0) return 0; return loc[i]; }
int oob_local_ok(int i) { int loc[3] = {1, 2, 3}; if (i < 0 || i > 2) return 0; return loc[i]; }

int oob_input(int *a, int n) { pathwise_array_len(a, n); if (n < 1) return 0; return a[n]; }
int oob_input_ok(int *a, int n) { pathwise_array_len(a, n); if (n < 1) return 0; return a[n - 1]; }

int null_deref(int c) { int x = 5; int *p = &x; if (c == 3) p = 0; return *p; }
int null_deref_ok(int c) { int x = 5; int *p = &x; if (c == 3) p = 0; return p ? *p : 0; }

int assertion(int x) { assert(x != 42); return x; }
int assertion_ok(int x) { if (x == 42) return 0; assert(x != 42); return x; }

int aborts(int x) { if (x == 7) abort(); return x; }
int aborts_ok(int x) { if (x == 7 && x != 7) abort(); return x; }

int exits(int x) { if (x > 100) exit(3); return x; }
int exits_ok(int x) { if (x > 100 && x < 50) exit(3); return x; }

/* Input arrays whose length pathwise_array_len ties to n: a write beyond it,
 * an index from another input, and a length tied by the precondition. */
int oob_input_write(int *a, int n) { pathwise_array_len(a, n); if (n < 1) return 0; a[n] = 1; return 0; }
int oob_input_write_ok(int *a, int n) { pathwise_array_len(a, n); if (n < 1) return 0; a[n - 1] = 1; return 0; }
int oob_input_index(int *a, int n, int i) { pathwise_array_len(a, n); if (n < 2 || i < 0) return 0; return a[i]; }
int oob_input_index_ok(int *a, int n, int i) { pathwise_array_len(a, n); if (n < 2 || i < 0 || i >= n) return 0; return a[i]; }
int oob_input_valid(int *a, int n) { pathwise_array_len(a, n); return n >= 1 && n <= 4; }
int oob_input_pre(int *a, int n) { return a[n]; }
int oob_input_pre_ok(int *a, int n) { return a[n - 1]; }

long mul_overflow(long a, long b) { return a * b; }
long mul_overflow_ok(long a, long b) { if (a < -1000 || a > 1000 || b < -1000 || b > 1000) return 0; return a * b; }
