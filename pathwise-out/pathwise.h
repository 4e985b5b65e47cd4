/* pathwise.h: annotations for the Pathwise white-box test generator.
 *
 * pathwise_assume(cond)
 *     Paths on which cond is false are not valid inputs: Pathwise discards
 *     them and generates no test for them.  Use it to state preconditions,
 *     e.g. pathwise_assume(n >= 0 && n <= 10).
 *
 * pathwise_array_len(p, n)
 *     The input array that p points to has exactly n elements.  p must be an
 *     input pointer: a pointer parameter of the function under test, or a
 *     pointer read from an input structure (a field, an element of an input
 *     array of pointers), pointing at element 0 of its array (not advanced);
 *     n is typically another parameter or a constant.  An access beyond the
 *     n elements is then an out-of-bounds error.  Without it, Pathwise
 *     chooses array lengths itself: as long as the path needs.
 *
 * pathwise_noalias(p, q)
 *     Input pointers p and q do not point to the same object (p may be
 *     null).
 *
 * pathwise_acyclic(p)
 *     No cycle is reachable from input pointer p: following pointer fields
 *     from p never comes back to an object already on the way.
 *
 * pathwise_nonsharing(p, q)
 *     The structures reachable from input pointers p and q have no object in
 *     common.
 *
 *     These three heap assumptions constrain the input heaps as Pathwise
 *     builds them; state them in the precondition, before reading through
 *     the pointers.  By default inputs may alias, share and have cycles.
 *
 * pathwise_same_object(p, q)
 *     Input pointer p points into the object q points into: for
 *     f(const char *s, const char *end), pathwise_same_object(end, s) makes
 *     end point into the array of s, at an element Pathwise chooses (from
 *     0 to one past the last), so that end - s is a length of its choice.
 *     p is typically a pointer parameter, q another one of the same element
 *     type or a pointer read from an input (*pp).  pathwise_assume(end ==
 *     s + n) ties them the same way.  Without either, a function that
 *     orders or subtracts two input pointers (end > s, end - s) has them
 *     point into one object, since C defines nothing else.
 *
 * pathwise_case(cond)
 *     In a hand-written summary (a function pathwise_summary_F in a file
 *     given to `pathwise gen --summary`, run in place of F's body): opens a
 *     case of the summary, `if (pathwise_case(precondition)) { effect;
 *     return ...; }`.  It returns cond != 0.  Cases are tried in order; a
 *     call whose arguments satisfy none (the summary returns without a case
 *     holding) is reported at the call.  Each case gets a conformance test
 *     that calls the real F.
 *
 * Under Pathwise (__PATHWISE__ is defined by its front end) these are plain
 * declarations of built-ins that the engine models.  Under an ordinary C
 * compiler they are no-op static inline functions, so that annotated code and
 * the generated tests compile with cc.
 *
 * The short name assume(c) is also defined, unless PATHWISE_NO_SHORT_NAMES is
 * defined before this header is included.
 */
#ifndef PATHWISE_H
#define PATHWISE_H

#ifdef __PATHWISE__
void pathwise_assume(int cond);
void pathwise_array_len(const void *array, long length);
void pathwise_noalias(const void *p, const void *q);
void pathwise_acyclic(const void *p);
void pathwise_nonsharing(const void *p, const void *q);
void pathwise_same_object(const void *p, const void *q);
int pathwise_case(int cond);
#else
/* inline is C99; older dialects get a plain static function, marked unused
 * where the compiler knows how, so that -Wall stays quiet. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define PATHWISE_FN_ static inline
#elif defined(__GNUC__)
#define PATHWISE_FN_ static __inline__ __attribute__((unused))
#else
#define PATHWISE_FN_ static
#endif

PATHWISE_FN_ void pathwise_assume(int cond)
{
    (void)cond;
}

PATHWISE_FN_ void pathwise_array_len(const void *array, long length)
{
    (void)array;
    (void)length;
}

PATHWISE_FN_ void pathwise_noalias(const void *p, const void *q)
{
    (void)p;
    (void)q;
}

PATHWISE_FN_ void pathwise_acyclic(const void *p)
{
    (void)p;
}

PATHWISE_FN_ void pathwise_nonsharing(const void *p, const void *q)
{
    (void)p;
    (void)q;
}

PATHWISE_FN_ void pathwise_same_object(const void *p, const void *q)
{
    (void)p;
    (void)q;
}

PATHWISE_FN_ int pathwise_case(int cond)
{
    return cond != 0;
}
#endif

#ifndef PATHWISE_NO_SHORT_NAMES
#define assume(c) pathwise_assume(c)
#endif

#endif /* PATHWISE_H */
