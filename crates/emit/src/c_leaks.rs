//! Native observation of memory leaks in the C test file.
//!
//! A `memory-leak` test returns normally, so the harness checks its outputs
//! like any returning test, and also that the leak is there: the object
//! the engine found unreachable is still allocated after the call. The
//! engine names it by its allocation's rank in the run (the n-th `malloc`,
//! `calloc` or `realloc` call of the code under test) and its size.
//!
//! To count those calls, the file renames the code under test's
//! `malloc`, `calloc`, `realloc` and `free` to wrappers by macros around
//! its `#include` (a `<stdlib.h>` it includes then declares the wrappers,
//! with the same prototypes); the wrappers call the C library through asm
//! labels, as the harness's POSIX calls do, and record each allocation of
//! the code under test while a test tracks them. `strdup` and `strndup`
//! allocate too (the generator counts them): they are renamed to wrappers
//! that copy into a counted `malloc`. Calls by the harness
//! itself (`__builtin_malloc`) are not renamed. Only suites with a leak
//! test get any of this, so other test files do not depend on it.
//!
//! The native test cannot see reachability; it observes that the object is
//! never freed, and the comment above the test says where it was
//! allocated and why the generator found it lost.
//!
//! The same wrappers make allocations fail: a test whose run had some
//! allocation calls return null (see `pathwise_engine::alloc_fail`) names
//! their ordinals (`pathwise_fail_allocation(2)`) before the call, and the
//! wrapper returns null for exactly those calls of the code under test
//! (counting them, as the generator does); a failing `realloc` leaves its
//! block alone, as the C library's does.

use std::fmt::Write as _;

use pathwise_suite::{ErrorKind, Outcome, TestCase, TestSuite};

use crate::describe::comment_safe;

/// Whether some test of the suite expects a leak or makes an allocation
/// fail: then the code's allocations go through the wrappers.
pub(crate) fn needs_wrappers(suite: &TestSuite) -> bool {
    suite.tests.iter().any(|t| {
        !t.failed_allocations.is_empty()
            || matches!(&t.outcome, Outcome::Error(e) if matches!(e.kind, ErrorKind::MemoryLeak { .. }))
    })
}

/// Before the code under test's `#include`: the wrappers' prototypes and
/// the renaming macros.
pub(crate) fn write_renames(out: &mut String) {
    out.push_str(
        "/* Memory-leak tests and tests of failing allocations count the code's\n \
         * allocations: its allocation functions are renamed to counting\n \
         * wrappers (defined below). */\n\
         void *pathwise_malloc(size_t pathwise_size);\n\
         void *pathwise_calloc(size_t pathwise_count, size_t pathwise_size);\n\
         void *pathwise_realloc(void *pathwise_ptr, size_t pathwise_size);\n\
         void pathwise_free(void *pathwise_ptr);\n\
         char *pathwise_strdup(const char *pathwise_s);\n\
         char *pathwise_strndup(const char *pathwise_s, size_t pathwise_n);\n\
         #define malloc pathwise_malloc\n#define calloc pathwise_calloc\n\
         #define realloc pathwise_realloc\n#define free pathwise_free\n\
         #define strdup pathwise_strdup\n#define strndup pathwise_strndup\n",
    );
}

/// After the `#include`: the macros undone and the wrappers defined.
pub(crate) fn write_wrappers(out: &mut String) {
    out.push_str(WRAPPERS);
}

/// The call of the function under test starts counting allocations;
/// those of `test.failed_allocations` will return null.
pub(crate) fn write_track(out: &mut String, suite: &TestSuite, test: &TestCase) {
    out.push_str("    pathwise_track_allocations();\n");
    for f in &test.failed_allocations {
        let at = comment_safe(&crate::describe::loc_string(&suite.files, f.loc));
        let _ = writeln!(out, "    pathwise_fail_allocation({}); /* {} at {at} returns NULL */", f.ordinal, f.function);
    }
}

/// After a returning call that made allocations fail (without a leak
/// check, which ends the tracking itself): the harness's checks are not
/// the code's calls.
pub(crate) fn write_untrack(out: &mut String) {
    out.push_str("    pathwise_tracking = 0;\n");
}

/// After the call: the leaked allocation must still be there.
pub(crate) fn write_leak_check(out: &mut String, id: usize, allocation: u32, bytes: u64, site: &str) {
    let site = site.replace('\\', "/").replace('"', "'");
    let _ = writeln!(out, "    pathwise_failed |= pathwise_check_leak({id}, {allocation}, {bytes}ULL, \"{site}\");");
}

const WRAPPERS: &str = r#"#undef malloc
#undef calloc
#undef realloc
#undef free
#undef strdup
#undef strndup
extern void *pathwise_libc_malloc(size_t size) __asm__("malloc");
extern void *pathwise_libc_calloc(size_t count, size_t size) __asm__("calloc");
extern void *pathwise_libc_realloc(void *ptr, size_t size) __asm__("realloc");
extern void pathwise_libc_free(void *ptr) __asm__("free");

#define PATHWISE_MAX_ALLOCATIONS 4096
static struct pathwise_allocation {
    void *ptr;
    unsigned long long size;
    int live;
} pathwise_allocations[PATHWISE_MAX_ALLOCATIONS];
static int pathwise_allocation_count, pathwise_tracking;

#define PATHWISE_MAX_FAILURES 64
/* The ordinals of the allocation calls that return NULL in this test. */
static int pathwise_failures[PATHWISE_MAX_FAILURES], pathwise_failure_count;

static void pathwise_track_allocations(void)
{
    pathwise_allocation_count = 0;
    pathwise_failure_count = 0;
    pathwise_tracking = 1;
}

/* (Unused in a suite whose tests only leak, as the leak check is in one
 * whose tests only fail allocations.) */
__attribute__((__unused__)) static void pathwise_fail_allocation(int ordinal)
{
    if (pathwise_failure_count < PATHWISE_MAX_FAILURES)
        pathwise_failures[pathwise_failure_count++] = ordinal;
}

/* Whether the code's next allocation call is one that fails. */
static int pathwise_next_fails(void)
{
    int i;
    for (i = 0; pathwise_tracking && i < pathwise_failure_count; i++)
        if (pathwise_failures[i] == pathwise_allocation_count + 1)
            return 1;
    return 0;
}

/* Every allocation call counts, as in the generator, even one that fails. */
static void pathwise_allocated(void *ptr, unsigned long long size)
{
    struct pathwise_allocation *a;
    if (!pathwise_tracking || pathwise_allocation_count >= PATHWISE_MAX_ALLOCATIONS)
        return;
    a = &pathwise_allocations[pathwise_allocation_count++];
    a->ptr = ptr;
    a->size = size;
    a->live = ptr != 0;
}

static void pathwise_released(void *ptr)
{
    int i;
    for (i = pathwise_allocation_count - 1; ptr && i >= 0; i--)
        if (pathwise_allocations[i].live && pathwise_allocations[i].ptr == ptr) {
            pathwise_allocations[i].live = 0;
            return;
        }
}

void *pathwise_malloc(size_t size)
{
    void *p = pathwise_next_fails() ? 0 : pathwise_libc_malloc(size);
    pathwise_allocated(p, size);
    return p;
}

void *pathwise_calloc(size_t count, size_t size)
{
    void *p = pathwise_next_fails() ? 0 : pathwise_libc_calloc(count, size);
    pathwise_allocated(p, (unsigned long long)count * size);
    return p;
}

void *pathwise_realloc(void *ptr, size_t size)
{
    void *p;
    if (pathwise_next_fails()) {
        /* The block stays as it was. */
        pathwise_allocated(0, size);
        return 0;
    }
    p = pathwise_libc_realloc(ptr, size);
    pathwise_released(ptr);
    pathwise_allocated(p, size);
    return p;
}

void pathwise_free(void *ptr)
{
    pathwise_released(ptr);
    pathwise_libc_free(ptr);
}

char *pathwise_strndup(const char *s, size_t n)
{
    size_t len = 0, i;
    char *d;
    while (len < n && s[len])
        len++;
    d = pathwise_malloc(len + 1);
    for (i = 0; d && i < len; i++)
        d[i] = s[i];
    if (d)
        d[len] = 0;
    return d;
}

char *pathwise_strdup(const char *s)
{
    return pathwise_strndup(s, (size_t)-1);
}

__attribute__((__unused__)) static int pathwise_check_leak(int test, int allocation, unsigned long long size, const char *site)
{
    struct pathwise_allocation *a;
    pathwise_tracking = 0;
    if (allocation > pathwise_allocation_count) {
        pathwise_printf("test %d: expected allocation %d (%llu bytes at %s) to be leaked, but only %d allocation(s) happened\n",
               test, allocation, size, site, pathwise_allocation_count);
        return 1;
    }
    a = &pathwise_allocations[allocation - 1];
    if (a->live && a->size == size)
        return 0;
    pathwise_printf("test %d: expected allocation %d (%llu bytes at %s) to be leaked, but ", test, allocation, size, site);
    if (!a->live)
        pathwise_printf("it was freed\n");
    else
        pathwise_printf("it has %llu bytes\n", a->size);
    return 1;
}

"#;
