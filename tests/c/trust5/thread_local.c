/* Thread-local state (tests/real_c_sweep.rs): a test runs on one thread,
 * whose instance of each object is a static one. */
static _Thread_local int depth;
__thread int calls;

int enter(int x)
{
    calls++;
    if (depth > 3)
        return -1;
    depth++;
    return x + calls;
}
