//! External functions in the C test file: stubs that replay the calls the
//! generator observed.
//!
//! The user declared these functions (body-less in the code under test) as
//! changing no memory the code can see and returning a fresh input
//! (`pathwise gen --external NAME`). The test file must define them, or it
//! would not link without the user's other sources, and each test must make
//! them return the values the solver chose for its path. So the file defines
//! one stub per function, bound to the function's symbol by an asm label
//! (as the harness binds `fork` and `exit`): the stub's C name and parameter
//! types are the harness's own, which need only be ABI-compatible with the
//! declaration (`void *` for any pointer, the integer of the same width and
//! signedness), not spell it exactly (`const`, typedefs, enums).
//!
//! Each test installs the table of calls it expects (function, scalar
//! arguments, pointer arguments as null or not, return value). A stub takes
//! the next entry, checks that it is a call of this function with these
//! arguments, and returns the recorded value. A call the test does not
//! expect (another function, other arguments, one call too many) prints what
//! differs and ends the test's process with `PATHWISE_CALLS_FAILED`, which
//! the runner counts as a failure whatever the test expected; missing calls
//! are checked after the call of the function under test. A test ending in
//! undefined behaviour accepts any calls past the recorded ones (natively
//! the code may go on past the point where the generator stopped).
//!
//! Stubs exist only for the functions the function under test (or its
//! precondition) can call. Since a stub owns the function's symbol, it
//! also receives calls that are not the code's: gcov's runtime writing its
//! counters (`fopen`, `fclose`...) when a test process ends, the harness's
//! own calls. A stub therefore replays only while the test's call of the
//! function under test runs (`pathwise_calling`), and passes any other
//! call to the next definition of the symbol (the C library's, found by
//! `dlsym(RTLD_NEXT, ...)`).

use std::fmt::Write as _;

use pathwise_ir::{Shape, SrcVar, Type};
use pathwise_suite::{CallArg, ExternalCall, Outcome, TestCase, TestSuite};

use crate::describe::comment_safe;
use crate::literal::{is_unsigned, normalize};

/// The declarations and helpers every stub uses (before the stubs).
const CALLS_HELPERS: &str = r#"extern void pathwise_exit_now(int status) __asm__("_exit");
/* Weak: a C library without dlsym (or one needing -ldl) still links. */
extern void *pathwise_dlsym(void *handle, const char *name) __asm__("dlsym") __attribute__((weak));

/* Nonzero while a test's call of the function under test runs: only then
 * do the stubs replay recorded calls. */
static int pathwise_calling;
static const struct pathwise_call *pathwise_calls;
static int pathwise_calls_test, pathwise_calls_expected, pathwise_calls_made, pathwise_calls_open;

/* The process ends without writing gcov's counters: they would count the
 * code past the unexpected call. */
static void pathwise_calls_fail(void)
{
    pathwise_fflush(stdout);
    pathwise_exit_now(PATHWISE_CALLS_FAILED);
}

/* The definition of `name` after this file's stub (the C library's), for
 * calls made outside the function under test. */
static void *pathwise_next_symbol(const char *name)
{
    void *f = pathwise_dlsym ? pathwise_dlsym((void *)-1 /* RTLD_NEXT */, name) : 0;
    if (!f) {
        pathwise_printf("%s called outside the function under test, and no other definition of it found\n", name);
        pathwise_calls_fail();
    }
    return f;
}

/* The expected call that a stub of function `func` is making (NULL past
 * the recorded calls of a test that ends in undefined behaviour). */
static const struct pathwise_call *pathwise_next_call(int func)
{
    const struct pathwise_call *c;
    if (pathwise_calls_made >= pathwise_calls_expected) {
        pathwise_calls_made++;
        if (pathwise_calls_open)
            return 0;
        pathwise_printf("test %d: call %d: unexpected call of %s (%d call(s) expected)\n", pathwise_calls_test,
               pathwise_calls_made, pathwise_ext_names[func], pathwise_calls_expected);
        pathwise_calls_fail();
        return 0;
    }
    c = &pathwise_calls[pathwise_calls_made++];
    if (c->func != func) {
        pathwise_printf("test %d: call %d: expected a call of %s, got %s\n", pathwise_calls_test, pathwise_calls_made,
               pathwise_ext_names[c->func], pathwise_ext_names[func]);
        pathwise_calls_fail();
        return 0;
    }
    return c;
}

"#;

/// Argument check (emitted when some external function has parameters).
/// `kind`: 0 unsigned, 1 signed, 2 pointer (0 null, 1 not), 3 a `float`'s
/// bits, 4 a `double`'s (a `long double` as the double nearest): two NaNs
/// are the same argument, whatever their sign and payload.
const CHECK_ARG: &str = r#"static int pathwise_nan_bits(unsigned long long bits, int kind)
{
    unsigned long long exp = kind == 3 ? 0x7f800000ULL : 0x7ff0000000000000ULL;
    unsigned long long frac = kind == 3 ? 0x7fffffULL : 0xfffffffffffffULL;
    return (kind == 3 || kind == 4) && (bits & exp) == exp && (bits & frac) != 0;
}

static void pathwise_check_arg(const struct pathwise_call *c, int index, unsigned long long got, int kind)
{
    unsigned long long expected = c->args[index];
    if (expected == got || (pathwise_nan_bits(expected, kind) && pathwise_nan_bits(got, kind)))
        return;
    pathwise_printf("test %d: call %d (%s): argument %d expected ", pathwise_calls_test, pathwise_calls_made,
           pathwise_ext_names[c->func], index + 1);
    if (kind >= 3)
        pathwise_printf("bits %#llx got %#llx\n", expected, got);
    else if (kind == 2)
        pathwise_printf("%s got %s\n", expected ? "non-null" : "null", got ? "non-null" : "null");
    else if (kind == 1)
        pathwise_printf("%lld got %lld\n", (long long)expected, (long long)got);
    else
        pathwise_printf("%llu got %llu\n", expected, got);
    pathwise_calls_fail();
}

"#;

/// Installing a test's table and checking that every call was made
/// (emitted when there are tests).
const EXPECT_CALLS: &str = r#"static void pathwise_expect_calls(int test, const struct pathwise_call *calls, int n, int open)
{
    pathwise_calls_test = test;
    pathwise_calls = calls;
    pathwise_calls_expected = n;
    pathwise_calls_made = 0;
    pathwise_calls_open = open;
}

static int pathwise_check_calls(void)
{
    if (pathwise_calls_made == pathwise_calls_expected)
        return 0;
    pathwise_printf("test %d: %d external call(s) expected, got %d\n", pathwise_calls_test, pathwise_calls_expected,
           pathwise_calls_made);
    return 1;
}

"#;

/// The bits of floating values and back, each emitted when a stub uses it
/// (a `float` or `double` parameter, a `float` or `double` returned).
const FLOAT_BITS: [(&str, &str); 4] = [
    (
        "pathwise_float_bits",
        "static unsigned long long pathwise_float_bits(float x)\n{\n    union { float f; unsigned int u; } v;\n    v.f = x;\n    return v.u;\n}\n\n",
    ),
    (
        "pathwise_double_bits",
        "static unsigned long long pathwise_double_bits(double x)\n{\n    union { double d; unsigned long long u; } v;\n    v.d = x;\n    return v.u;\n}\n\n",
    ),
    (
        "pathwise_float_of",
        "static float pathwise_float_of(unsigned long long bits)\n{\n    union { float f; unsigned int u; } v;\n    v.u = (unsigned int)bits;\n    return v.f;\n}\n\n",
    ),
    (
        "pathwise_double_of",
        "static double pathwise_double_of(unsigned long long bits)\n{\n    union { double d; unsigned long long u; } v;\n    v.u = bits;\n    return v.d;\n}\n\n",
    ),
];

/// The helpers of [`FLOAT_BITS`] the stubs of `suite` use, by name.
fn float_helpers(suite: &TestSuite) -> Vec<&'static str> {
    let mut used = Vec::new();
    for f in &suite.externals {
        for p in &f.params {
            match floating(p) {
                Some(Type::F32) => used.push("pathwise_float_bits"),
                Some(_) => used.push("pathwise_double_bits"),
                None => {}
            }
        }
        match f.ret.as_ref().and_then(floating) {
            Some(Type::F32) => used.push("pathwise_float_of"),
            Some(Type::F64) => used.push("pathwise_double_of"),
            _ => {}
        }
    }
    used
}

/// The floating type of a scalar parameter or return value, if it is one.
fn floating(src: &SrcVar) -> Option<Type> {
    (src.shape == Shape::Scalar && src.scalar.ty.is_float()).then_some(src.scalar.ty)
}

/// Whether some external function returns a `long double`: the table's
/// entries then have a `ret_ld` (80 bits do not fit `ret`).
fn returns_long_double(suite: &TestSuite) -> bool {
    suite.externals.iter().any(|f| f.ret.as_ref().and_then(floating) == Some(Type::F80))
}

/// A floating value of type `ty` as the bits a table entry holds (a
/// `long double`: the double nearest's).
fn float_bits_literal(value: i128, ty: Type) -> String {
    match ty {
        Type::F32 => format!("{:#x}ULL", value as u32),
        Type::F80 => format!("{:#x}ULL", crate::literal::x87_value(value).to_f64().to_bits()),
        _ => format!("{:#x}ULL", value as u64),
    }
}

/// Whether the suite's tests need stubs.
pub(crate) fn has_externals(suite: &TestSuite) -> bool {
    !suite.externals.is_empty()
}

/// The harness type of a parameter or return value of an external function:
/// ABI-compatible with the declared one.
fn stub_type(src: &SrcVar) -> &'static str {
    if matches!(src.shape, Shape::Pointer | Shape::Heap | Shape::Array(_)) {
        return "void *";
    }
    if src.c_scalar == "_Bool" {
        return "_Bool";
    }
    match (src.scalar.ty, is_unsigned(src.scalar)) {
        (Type::F32, _) => "float",
        (Type::F64, _) => "double",
        (Type::F80, _) => "long double",
        (Type::I1 | Type::I8, false) => "signed char",
        (Type::I1 | Type::I8, true) => "unsigned char",
        (Type::I16, false) => "short",
        (Type::I16, true) => "unsigned short",
        (Type::I32, false) => "int",
        (Type::I32, true) => "unsigned int",
        (_, false) => "long long",
        (_, true) => "unsigned long long",
    }
}

fn is_pointer(src: &SrcVar) -> bool {
    stub_type(src) == "void *"
}

/// Write the stubs and their helpers (after the code under test and the
/// harness constants). Nothing without external functions.
pub(crate) fn write_stubs(out: &mut String, suite: &TestSuite) {
    if !has_externals(suite) {
        return;
    }
    out.push_str(
        "/* External functions: declared without a body in the code under test and\n \
         * described to pathwise gen (--external) as changing no memory it can see.\n \
         * Each is defined below as a stub bound to the function's symbol by an asm\n \
         * label (its parameter types need only be ABI-compatible with the\n \
         * declaration). A stub checks that its call is the next one the test\n \
         * expects (function, integer arguments, pointer arguments null or not) and\n \
         * returns the value the generator chose; an unexpected call ends the test's\n \
         * process with PATHWISE_CALLS_FAILED. Calls made while the function under\n \
         * test is not running (gcov's runtime, the harness) go to the real function. */\n",
    );
    let nargs = suite.externals.iter().map(|f| f.params.len()).max().unwrap_or(0).max(1);
    let ret_ld = if returns_long_double(suite) { "    long double ret_ld; /* a long double returned */\n" } else { "" };
    let _ = write!(
        out,
        "struct pathwise_call {{\n    int func; /* index in pathwise_ext_names */\n    \
         unsigned long long args[{nargs}]; /* two's complement; floating: bits; pointers: 0 null, 1 not */\n    \
         unsigned long long ret;\n    void *ret_pointer; /* what a function returning a pointer returns */\n{ret_ld}}};\n\n"
    );
    let used = float_helpers(suite);
    for (name, text) in FLOAT_BITS {
        if used.contains(&name) {
            out.push_str(text);
        }
    }
    let names: Vec<String> = suite.externals.iter().map(|f| format!("\"{}\"", f.name)).collect();
    let _ = writeln!(out, "static const char *const pathwise_ext_names[] = {{{}}};", names.join(", "));
    out.push_str(CALLS_HELPERS);
    if suite.externals.iter().any(|f| !f.params.is_empty()) {
        out.push_str(CHECK_ARG);
    }
    if !suite.tests.is_empty() {
        out.push_str(EXPECT_CALLS);
    }
    for (index, f) in suite.externals.iter().enumerate() {
        write_stub(out, index, f);
    }
}

/// The stub of external function `f` (`index` in `pathwise_ext_names`).
fn write_stub(out: &mut String, index: usize, f: &pathwise_suite::ExternalFunction) {
    let ret = f.ret.as_ref().map_or("void", stub_type);
    let params: Vec<String> =
        f.params.iter().enumerate().map(|(i, p)| format!("{} pathwise_a{}", stub_type(p), i + 1)).collect();
    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
    let stub = format!("{ret} pathwise_stub_{}({params})", f.name);
    let _ = writeln!(out, "{stub} __asm__(\"{}\");", f.name);
    let _ = writeln!(out, "{stub}\n{{\n    const struct pathwise_call *pathwise_c;");
    write_forward(out, f, ret);
    // Calls the checks make (printf) are not the code's.
    let _ = writeln!(out, "    pathwise_calling = 0;\n    pathwise_c = pathwise_next_call({index});");
    if !f.params.is_empty() {
        out.push_str("    if (pathwise_c) {\n");
        for (i, p) in f.params.iter().enumerate() {
            let a = format!("pathwise_a{}", i + 1);
            let (got, kind) = if let Some(ty) = floating(p) {
                match ty {
                    Type::F32 => (format!("pathwise_float_bits({a})"), 3),
                    Type::F64 => (format!("pathwise_double_bits({a})"), 4),
                    _ => (format!("pathwise_double_bits((double){a})"), 4),
                }
            } else if is_pointer(p) {
                (format!("(unsigned long long)({a} != 0)"), 2)
            } else if is_unsigned(p.scalar) {
                (format!("(unsigned long long){a}"), 0)
            } else {
                (format!("(unsigned long long)(long long){a}"), 1)
            };
            let _ = writeln!(out, "        pathwise_check_arg(pathwise_c, {i}, {got}, {kind});");
        }
        out.push_str("    }\n");
    }
    if f.params.is_empty() && f.ret.is_none() {
        out.push_str("    (void)pathwise_c; /* checked by pathwise_next_call */\n");
    }
    out.push_str("    pathwise_calling = 1;\n");
    // No entry: a call past the recorded ones of a test ending in undefined
    // behaviour.
    match &f.ret {
        Some(r) if is_pointer(r) => out.push_str("    return pathwise_c ? pathwise_c->ret_pointer : 0;\n"),
        Some(r) if floating(r).is_some() => {
            let value = match floating(r) {
                Some(Type::F32) => "pathwise_float_of(pathwise_c->ret)",
                Some(Type::F64) => "pathwise_double_of(pathwise_c->ret)",
                _ => "pathwise_c->ret_ld",
            };
            let _ = writeln!(out, "    return pathwise_c ? {value} : 0;");
        }
        Some(_) => {
            let _ = writeln!(out, "    return pathwise_c ? ({ret})pathwise_c->ret : 0;");
        }
        None => {}
    }
    out.push_str("}\n\n");
}

/// The start of a stub: a call made while the function under test is not
/// running is passed on to the real function (`ret`: the stub's return
/// type).
fn write_forward(out: &mut String, f: &pathwise_suite::ExternalFunction, ret: &str) {
    let types: Vec<&str> = f.params.iter().map(stub_type).collect();
    let types = if types.is_empty() { "void".to_string() } else { types.join(", ") };
    let args: Vec<String> = (1..=f.params.len()).map(|i| format!("pathwise_a{i}")).collect();
    let call = format!("pathwise_real.f({})", args.join(", "));
    let call = if f.ret.is_some() { format!("return {call};") } else { format!("{call};\n        return;") };
    // Through a union: ISO C has no conversion from `void *` to a function
    // pointer (gcc -Wpedantic).
    let _ = writeln!(
        out,
        "    if (!pathwise_calling) {{\n        union {{ void *p; {ret} (*f)({types}); }} pathwise_real;\n        \
         pathwise_real.p = pathwise_next_symbol(\"{}\");\n        {call}\n    }}",
        f.name
    );
}

/// `value` of C type `src` as the bits a `pathwise_call` table holds.
fn bits_literal(value: i128, src: &SrcVar) -> String {
    let v = normalize(value, src.scalar);
    if v >= 0 {
        format!("{v}ULL")
    } else if v == i64::MIN as i128 {
        "(unsigned long long)(-9223372036854775807LL - 1)".to_string()
    } else {
        format!("(unsigned long long){v}LL")
    }
}

/// A call as the comment of its table entry shows it: `call_c(-4)`,
/// `read_sensor() returns 11`.
fn call_text(suite: &TestSuite, call: &ExternalCall) -> String {
    let f = suite.externals.iter().find(|f| f.name == call.name);
    let args: Vec<String> = call
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| match a {
            CallArg::Null => "NULL".to_string(),
            CallArg::NonNull => "non-null".to_string(),
            CallArg::Int(v) => match f.and_then(|f| f.params.get(i)) {
                Some(p) if p.scalar.ty.is_float() => crate::literal::display_value(*v, p.scalar),
                Some(p) => normalize(*v, p.scalar).to_string(),
                None => v.to_string(),
            },
        })
        .collect();
    let mut text = format!("{}({})", call.name, args.join(", "));
    if let (Some(v), Some(ret)) = (call.ret, f.and_then(|f| f.ret.as_ref())) {
        let _ = write!(text, " returns {}", crate::literal::display_value(v, ret.scalar));
    }
    match &call.ret_pointer {
        Some(pathwise_suite::HeapValue::Ref { obj, offset: 0 }) => {
            let _ = write!(text, " returns o{obj}");
        }
        Some(pathwise_suite::HeapValue::Ref { obj, offset }) => {
            let _ = write!(text, " returns (char *)o{obj} + {offset}");
        }
        Some(pathwise_suite::HeapValue::Null) => text.push_str(" returns NULL"),
        _ => {}
    }
    text
}

/// Before the call of the function under test: install the calls `test`
/// expects. Nothing without external functions.
pub(crate) fn write_expect_calls(out: &mut String, suite: &TestSuite, test: &TestCase) {
    if !has_externals(suite) {
        return;
    }
    // Past undefined behaviour the native run may make calls the generator
    // never saw; an exit, abort or failed assert stops where it did.
    let open = matches!(&test.outcome, Outcome::Error(e) if !e.kind.traps_natively() && !e.kind.returns_natively());
    let n = test.calls.len();
    if n == 0 {
        let _ = writeln!(out, "    pathwise_expect_calls({}, 0, 0, {});", test.id, u8::from(open));
        out.push_str("    pathwise_calling = 1;\n");
        return;
    }
    // Not static: returned pointers point into the test's input heap.
    let _ = writeln!(out, "    const struct pathwise_call pathwise_expected_calls[{n}] = {{");
    for call in &test.calls {
        let Some((index, f)) = suite.externals.iter().enumerate().find(|(_, f)| f.name == call.name) else {
            continue;
        };
        let args: Vec<String> = call
            .args
            .iter()
            .zip(&f.params)
            .map(|(a, p)| match a {
                CallArg::Null => "0ULL".to_string(),
                CallArg::NonNull => "1ULL".to_string(),
                CallArg::Int(v) => match floating(p) {
                    Some(ty) => float_bits_literal(*v, ty),
                    None => bits_literal(*v, p),
                },
            })
            .collect();
        let args = if args.is_empty() { "0ULL".to_string() } else { args.join(", ") };
        let ret = match (call.ret, &f.ret) {
            (Some(v), Some(src)) if floating(src).is_some_and(|t| t != Type::F80) => {
                float_bits_literal(v, src.scalar.ty)
            }
            (Some(_), Some(src)) if floating(src).is_some() => "0ULL".to_string(),
            (Some(v), Some(src)) => bits_literal(v, src),
            _ => "0ULL".to_string(),
        };
        let ret_ld = match (call.ret, &f.ret) {
            (Some(v), Some(src)) if floating(src) == Some(Type::F80) => {
                format!(", {}", crate::literal::c_literal(v, src.scalar, &src.c_scalar))
            }
            _ if returns_long_double(suite) => ", 0".to_string(),
            _ => String::new(),
        };
        let ret_pointer = match &call.ret_pointer {
            Some(v) => crate::c_heap::input_pointer_expr(suite, test, v, None),
            None => "0".to_string(),
        };
        let text = comment_safe(&call_text(suite, call));
        let _ = writeln!(out, "        {{{index}, {{{args}}}, {ret}, {ret_pointer}{ret_ld}}}, /* {text} */");
    }
    out.push_str("    };\n");
    let _ = writeln!(out, "    pathwise_expect_calls({}, pathwise_expected_calls, {n}, {});", test.id, u8::from(open));
    out.push_str("    pathwise_calling = 1;\n");
}

/// After the call of a test that returned: every expected call was made.
pub(crate) fn write_calls_check(out: &mut String, suite: &TestSuite) {
    if has_externals(suite) {
        out.push_str("    pathwise_calling = 0;\n    pathwise_failed |= pathwise_check_calls();\n");
    }
}

/// In the signal handler, before gcov writes its counters: the calls
/// gcov's runtime makes are not the code's.
pub(crate) const HANDLER_CALLS_OFF: &str = "    pathwise_calling = 0;\n";
