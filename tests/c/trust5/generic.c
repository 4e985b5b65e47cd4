/* _Generic (tests/real_c_sweep.rs): the association of the controlling
 * expression's type, which is not evaluated. */
#define KIND(x) _Generic((x), int: 1, unsigned int: 2, char *: 3, default: 0)
#define TWICE(x) _Generic((x), float: twice_f, default: twice_d)(x)

static float twice_f(float x) { return 2 * x; }
static double twice_d(double x) { return 2 * x; }

int kinds(int a, unsigned b, char *s, float f)
{
    int k = KIND(a) + KIND(b) * 10 + KIND(s) * 100 + KIND(f) * 1000 + KIND(a++);
    if (TWICE(f) > 2.0f)
        return k + a;
    return -k - a;
}
