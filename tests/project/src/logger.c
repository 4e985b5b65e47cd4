/* The last LOG_SIZE event codes, kept in a static array. */
#include "logger.h"

static int log_codes[LOG_SIZE];
static int log_n;

void log_event(int code)
{
    if (log_n < 0 || log_n >= LOG_SIZE)
        log_n = 0;
    log_codes[log_n] = code;
    log_n++;
}

int log_count(void)
{
    return log_n;
}

int log_last(void)
{
    if (log_n <= 0 || log_n > LOG_SIZE)
        return -1;
    return log_codes[log_n - 1];
}

void log_reset(void)
{
    int i;
    for (i = 0; i < LOG_SIZE; i++)
        log_codes[i] = 0;
    log_n = 0;
}
