/* Division with recovery through longjmp: Pathwise refuses setjmp/longjmp,
 * so two functions here are recorded as failed; safe_mod is tested. */
#include <setjmp.h>
#include "jumpy.h"

static jmp_buf recover;

int checked_div(int a, int b)
{
    if (b == 0)
        longjmp(recover, 1);
    return a / b;
}

int try_div(int a, int b, int *out)
{
    if (setjmp(recover) != 0)
        return -1;
    *out = checked_div(a, b);
    return 0;
}

int safe_mod(int a, int b)
{
    if (b == 0 || (a == -2147483647 - 1 && b == -1))
        return 0;
    return a % b;
}
