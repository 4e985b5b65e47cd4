/* logger: a small in-memory event log. */
#ifndef LOGGER_H
#define LOGGER_H

#define LOG_SIZE 4

void log_event(int code);
int log_count(void);
int log_last(void);
void log_reset(void);

#endif
