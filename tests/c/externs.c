/* External functions (pathwise gen --external NAME / --external-all):
 * declared here without a body, described as changing no memory the code
 * under test can see; each call returns a fresh input. The generated test
 * file defines them as stubs. Each function's expected tests are in
 * crates/cli/tests/externs.rs (the heap-solver example of seed 003 is in
 * externs_alias.c). */

int read_sensor(void);
unsigned char read_byte(int port);
void log_value(const char *tag, long v);

/* A fresh return value steers a branch. */
int sensor(void)
{
    if (read_sensor() > 10)
        return 1;
    return 0;
}

/* Calls in a loop, an unsigned result, a pointer argument. */
int sum_bytes(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        unsigned char b = read_byte(i);
        log_value("byte", b);
        if (b == 200)
            s += 1000;
        s += b;
    }
    return s;
}

/* An error test: the divisor comes from an external call. */
int ratio(int a)
{
    return a / read_sensor();
}

/* An external function returning a pointer is refused (for now); the stub
 * other suites define for it returns NULL and is never called. */
int *buffer(void);

int first(void)
{
    return *buffer();
}
