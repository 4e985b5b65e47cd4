/* A unit of a library: functions defined in other units of it are only
 * declared here; a static helper uses a construct Pathwise cannot lower
 * and calls one of them; another static function calls another. The test
 * file of `sign` must build and link alone. */
int lib_scale(int x);
int lib_report(int code);

static int scaled_half(int x)
{
    long double half = 0.1L; /* not a double: not lowered */
    return lib_scale(x) * (int)half;
}

static int reported(int x)
{
    return lib_report(x);
}

int sign(int x)
{
    if (x < 0)
        return -1;
    return x > 0;
}

int driver(int x)
{
    return scaled_half(x) + reported(x);
}
