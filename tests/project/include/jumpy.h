/* jumpy: error recovery with setjmp/longjmp. */
#ifndef JUMPY_H
#define JUMPY_H

int checked_div(int a, int b);
int try_div(int a, int b, int *out);
int safe_mod(int a, int b);

#endif
