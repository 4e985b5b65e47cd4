//! The C test file: one self-contained `NAME_tests.c` per suite.
//!
//! Layout of the generated file:
//! 1. `#include <stdio.h>`, then the code under test included with its `main`
//!    renamed (`#define main pathwise_original_main`), so the file compiles
//!    alone: `cc NAME_tests.c && ./a.out`. Only `<stdio.h>` is included by
//!    the harness, because code under test often defines its own `strlen` or
//!    `memcpy` and a `<string.h>` would clash with them.
//! 2. `pathwise_check_*` helpers that compare one value and print
//!    `test N: WHAT expected X got Y` (only the helpers used are emitted:
//!    an unused `static` function would warn under `-Wall`).
//! 3. `pathwise_reset_globals()`: every global back to its initial value, so
//!    that each test runs from the state the engine assumed.
//! 4. Stubs of the external functions the code under test calls
//!    (`c_externs.rs`), then one function per test, named for what it
//!    checks (`pathwise_test_parse_int_returns_minus_1`,
//!    `describe::test_names`; its messages say `test N`): inputs as
//!    locals (heap inputs as allocated, linked objects: `c_heap.rs`), the
//!    external calls it expects, the call, the checks (of output heaps and
//!    external calls too).
//! 5. `main`: runs each test in its own process (see `RUNNER`), prints
//!    `P passed, F failed`, exits non-zero on any failure.
//!
//! Every harness identifier starts with `pathwise_` so that it cannot
//! capture a global of the code under test that a check must read.

use std::fmt::Write as _;

use pathwise_ir::{CType, Shape, SrcVar};
use pathwise_suite::{ErrorKind, GlobalInfo, HeapValue, InputValue, Outcome, TestCase, TestSuite};

use crate::c_heap::{
    heap_input_summary, is_heap, other_objects_summary, pointer_decl, write_heap_allocs, write_heap_checks,
    write_heap_helpers, write_heap_param, write_heap_stores,
};
use crate::describe::{comment_safe, for_each_step_summary, is_array_param, param_locals, param_name};
use crate::literal::{c_literal, display_value, is_unsigned};

/// The name a program's `main` takes in the test file (the file has its
/// own `main`); gcov reports its coverage under this name.
pub const RENAMED_MAIN: &str = "pathwise_original_main";

/// Which comparison helpers the tests use (each is emitted only if used).
#[derive(Default)]
pub(crate) struct Used {
    signed: bool,
    unsigned: bool,
    signed_at: bool,
    unsigned_at: bool,
    /// `pathwise_check_pointer` (heap outputs).
    pub(crate) pointer: bool,
    /// `pathwise_check_fresh` (objects the call allocated).
    pub(crate) fresh: bool,
    /// `pathwise_check_bytes` (strings in the output heap).
    pub(crate) bytes: bool,
    /// `pathwise_check_floating` and its indexed variant.
    floating: bool,
    floating_at: bool,
    /// `pathwise_check_frame` (frame checks, `c_frame.rs`).
    pub(crate) frame: bool,
    /// `pathwise_guarded` (input arrays before an inaccessible page).
    guarded: bool,
    /// The files' helpers (see `c_streams`).
    streams: crate::c_streams::StreamsUsed,
    /// `pathwise_feenableexcept` (error tests of IEEE exceptions).
    fp_traps: bool,
}

/// Render the C test file for `suite`. `source_include` is the path of the
/// code under test as the `#include` directive must spell it (relative to the
/// test file's directory, or absolute).
pub fn write_c_tests(suite: &TestSuite, source_include: &str) -> String {
    write_c_tests_with(suite, source_include, false, Harness::Plain)
}

/// [`write_c_tests`] as a CMocka test program (`NAME_cmocka.c`, built with
/// `-lcmocka`): the same test functions, each run by a CMocka test (see
/// `c_cmocka.rs`).
pub fn write_cmocka_tests(suite: &TestSuite, source_include: &str) -> String {
    write_c_tests_with(suite, source_include, false, Harness::Cmocka)
}

/// What runs the test functions: the file's own `main`, or CMocka's.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Harness {
    Plain,
    Cmocka,
}

/// [`write_c_tests`] with frame checks (see `c_frame.rs`): input objects
/// filled with known bytes, and every scalar the expected outputs leave
/// alone checked unchanged (hand-written summaries' conformance tests).
pub fn write_c_tests_framed(suite: &TestSuite, source_include: &str) -> String {
    write_c_tests_with(suite, source_include, true, Harness::Plain)
}

fn write_c_tests_with(suite: &TestSuite, source_include: &str, frame: bool, harness: Harness) -> String {
    let mut used = Used::default();
    let mut tests = String::new();
    let names = crate::describe::test_names(suite);
    for (test, name) in suite.tests.iter().zip(&names) {
        write_test(&mut tests, (suite, name), test, &mut used, frame);
    }
    let mut out = String::new();
    write_prologue(&mut out, suite, source_include, harness);
    out.push_str(EXPECT_DEFINES);
    crate::c_externs::write_stubs(&mut out, suite);
    write_helpers(&mut out, &used);
    write_heap_helpers(&mut out, &used);
    crate::c_frame::write_frame_helper(&mut out, &used);
    // Without tests nothing calls the reset function, and an unused
    // `static` function would warn.
    if !suite.tests.is_empty() {
        write_reset_globals(&mut out, &suite.globals);
    }
    out.push_str(&tests);
    write_runner(&mut out, suite);
    match harness {
        Harness::Plain => write_main(&mut out, suite, &names),
        Harness::Cmocka => crate::c_cmocka::write_cmocka_main(&mut out, suite, &names),
    }
    out
}

fn write_prologue(out: &mut String, suite: &TestSuite, source_include: &str, harness: Harness) {
    let _ = writeln!(
        out,
        "/* Tests of {}() generated by Pathwise ({}, k = {}).",
        suite.function,
        suite.goals.criterion_name().unwrap_or(suite.criterion.name()),
        suite.k
    );
    if let Some(pre) = &suite.precondition {
        let _ = writeln!(out, " * Precondition: {}().", comment_safe(pre));
    }
    for c in &suite.contracts {
        let _ = writeln!(out, " * Inputs as callers pass them: {}.", comment_safe(c));
    }
    // Backslashes and quotes cannot appear in a q-char-sequence portably;
    // a Windows-style path still works with forward slashes.
    let include = source_include.replace('\\', "/").replace('"', "");
    // The code under test is included by the name `gen` was given (its file
    // name alone, from the CLI), found through `-I` its directory, so that
    // this directory can move; `-I.`: the code under test may include
    // "pathwise.h", which is copied next to this file (gcc looks for quoted
    // includes next to the including file, then in -I directories).
    let dir = suite.source.as_deref().and_then(|s| std::path::Path::new(s).parent()).map(|d| d.to_string_lossy());
    let src_dir = match &dir {
        Some(d) if !d.is_empty() => format!(" -I{}", comment_safe(d).replace(' ', "\\ ")),
        _ => String::new(),
    };
    let (file, libs) = match harness {
        Harness::Plain => ("tests", ""),
        Harness::Cmocka => ("cmocka", " -lcmocka"),
    };
    let _ = writeln!(
        out,
        " * {} test(s). Build and run in this directory (-I: where {} and pathwise.h are;\n * -lm: for <math.h> functions the code may call):\n *   cc -I.{src_dir} {}_{file}.c{libs} -lm && ./a.out */",
        suite.tests.len(),
        comment_safe(&include),
        suite.function
    );
    // Before any header, as in the file under test (see
    // `TestSuite::feature_macros`).
    for line in &suite.feature_macros {
        let _ = writeln!(out, "{line}");
    }
    out.push_str("#include <stdio.h>\n\n");
    out.push_str(OUTPUT_DECLARATIONS);
    write_weak_declarations(out, suite);
    let leaks = crate::c_leaks::needs_wrappers(suite);
    if leaks {
        crate::c_leaks::write_renames(out);
    }
    out.push_str("/* The code under test, with its main() (if any) out of the way. */\n");
    let _ = writeln!(out, "#define main {RENAMED_MAIN}");
    let _ = writeln!(out, "#include \"{include}\"");
    out.push_str("#undef main\n\n");
    write_callback_declarations(out, suite);
    if leaks {
        crate::c_leaks::write_wrappers(out);
    }
}

/// The C library's output functions under names of the harness's own, bound
/// to their symbols: the code under test may `#define printf` (an embedded
/// printf library) or `fflush`, which would otherwise swallow the tests'
/// report. `__printf__` because `printf` itself may be a macro there.
const OUTPUT_DECLARATIONS: &str = "/* The C library's printf and fflush, whatever the code under test #defines. */\n\
    extern int pathwise_printf(const char *format, ...) __asm__(\"printf\") __attribute__((__format__(__printf__, 1, 2)));\n\
    extern int pathwise_fflush(FILE *stream) __asm__(\"fflush\");\n\n";

/// The callback stubs that function-pointer parameters may point to
/// (`pathwise_stub_F_P`, see `pathwise_engine::fnptr`), declared with the
/// pointer's function type so that a test can pass one; each is defined
/// below as an external function's stub is.
fn write_callback_declarations(out: &mut String, suite: &TestSuite) {
    for e in suite.externals.iter().filter(|e| e.name.starts_with(pathwise_ir::FIELD_STUB_PREFIX)) {
        let Some(func_ty) = &e.cty else { continue };
        let _ = writeln!(
            out,
            "/* A callback of the caller's that input structures may hold: returns what each test expects. */\nextern {};\n",
            func_ty.declare(&[], &e.name)
        );
    }
    for p in suite.params.iter().filter(|p| p.shape == pathwise_ir::Shape::Function) {
        let name = format!("pathwise_stub_{}_{}", suite.function, p.name);
        let Some(func_ty) = p.cty.as_ref().and_then(|c| c.pointee()) else { continue };
        if !suite.externals.iter().any(|e| e.name == name) {
            continue;
        }
        let _ = writeln!(
            out,
            "/* A callback of the caller's for `{}`: returns what each test expects. */\nextern {};\n",
            comment_safe(&p.name),
            func_ty.declare(&[], &name)
        );
    }
}

/// The functions without a body that only code the tests never run calls
/// are weak references: the file links without their definitions (the C
/// library's still bind), and none of them is a stub that would also take
/// the C library's or gcov's own calls of the same function.
fn write_weak_declarations(out: &mut String, suite: &TestSuite) {
    if suite.unreached_functions.is_empty() {
        return;
    }
    out.push_str(
        "/* Called only by code these tests never run, and defined elsewhere: weak,\n \
         * so that this file links alone. */\n",
    );
    for name in &suite.unreached_functions {
        let _ = writeln!(out, "#pragma weak {name}");
    }
    out.push('\n');
}

fn write_helpers(out: &mut String, used: &Used) {
    if used.guarded {
        out.push_str(GUARDED_HELPER);
    }
    crate::c_streams::write_helpers(out, &used.streams);
    if used.fp_traps {
        // glibc's (libm); declared under a harness name, as the runner's
        // POSIX calls are, so that `<fenv.h>` and `_GNU_SOURCE` are not needed.
        out.push_str("extern int pathwise_feenableexcept(int excepts) __asm__(\"feenableexcept\");\n\n");
    }
    // All signed C types fit `long long` and all unsigned ones fit
    // `unsigned long long`, so two helpers (plus indexed variants) cover
    // every scalar type without `-Wsign-compare` noise.
    let variants =
        [(used.signed, "signed", "long long", "%lld"), (used.unsigned, "unsigned", "unsigned long long", "%llu")];
    for (is_used, suffix, ty, fmt) in variants {
        if is_used {
            let _ = write!(
                out,
                "static int pathwise_check_{suffix}(int test, const char *what, {ty} expected, {ty} got)\n\
                 {{\n    if (expected == got)\n        return 0;\n    \
                 pathwise_printf(\"test %d: %s expected {fmt} got {fmt}\\n\", test, what, expected, got);\n    \
                 return 1;\n}}\n\n"
            );
        }
    }
    write_float_helpers(out, used);
    let indexed =
        [(used.signed_at, "signed", "long long", "%lld"), (used.unsigned_at, "unsigned", "unsigned long long", "%llu")];
    for (is_used, suffix, ty, fmt) in indexed {
        if is_used {
            let _ = write!(
                out,
                "static int pathwise_check_{suffix}_at(int test, const char *array, int index, {ty} expected, {ty} got)\n\
                 {{\n    if (expected == got)\n        return 0;\n    \
                 pathwise_printf(\"test %d: %s[%d] expected {fmt} got {fmt}\\n\", test, array, index, expected, got);\n    \
                 return 1;\n}}\n\n"
            );
        }
    }
}

/// The comparison of floating values: equal values of the same sign (so
/// `-0.0` is not `0.0`), or both NaN whatever their sign and payload (which
/// C does not fix: gcc folds `0.0 / 0.0` to a positive NaN, x86 computes a
/// negative one). Every `float`, `double` and `long double` converts
/// exactly to `long double`; `%La` prints exactly. The sign of a zero is
/// read through a double, which holds any zero, so that no conversion can
/// overflow (a test of IEEE exceptions may have enabled their traps).
fn write_float_helpers(out: &mut String, used: &Used) {
    if !(used.floating || used.floating_at) {
        return;
    }
    out.push_str(
        "static int pathwise_same_floating(long double expected, long double got)\n\
         {\n    union { double d; unsigned long long u; } e, g;\n    \
         if (expected != expected || got != got)\n        return expected != expected && got != got;\n    \
         if (expected != got)\n        return 0;\n    \
         if (expected != 0)\n        return 1;\n    \
         e.d = (double)expected;\n    g.d = (double)got;\n    \
         return e.u == g.u;\n}\n\n",
    );
    if used.floating {
        out.push_str(
            "static int pathwise_check_floating(int test, const char *what, long double expected, long double got)\n\
             {\n    if (pathwise_same_floating(expected, got))\n        return 0;\n    \
             pathwise_printf(\"test %d: %s expected %La got %La\\n\", test, what, expected, got);\n    \
             return 1;\n}\n\n",
        );
    }
    if used.floating_at {
        out.push_str(
            "static int pathwise_check_floating_at(int test, const char *array, int index, long double expected, long double got)\n\
             {\n    if (pathwise_same_floating(expected, got))\n        return 0;\n    \
             pathwise_printf(\"test %d: %s[%d] expected %La got %La\\n\", test, array, index, expected, got);\n    \
             return 1;\n}\n\n",
        );
    }
}

/// Number of elements of a global (1 for a scalar).
fn global_len(g: &GlobalInfo) -> usize {
    match g.src.shape {
        Shape::Array(n) => n as usize,
        _ => 1,
    }
}

/// A global's values padded (with zeros) or cut to its element count.
fn fit(values: &[i128], len: usize) -> Vec<i128> {
    let mut v: Vec<i128> = values.iter().copied().take(len).collect();
    v.resize(len, 0);
    v
}

/// Globals the harness can reset and check: scalar or array, not `const`
/// (the suite should not list const ones; a const one would not compile).
fn is_checkable_global(g: &GlobalInfo) -> bool {
    // Elements that are pointers (`const char *tab[] = {"a", "bc"}`) hold
    // addresses, which the suite has no values for.
    !matches!(g.src.shape, Shape::Pointer)
        && !g.src.c_scalar.contains('*')
        && !g.src.c_scalar.split_whitespace().any(|w| w == "const")
}

/// An lvalue for element `index` (a C expression) of global array `g`: through
/// a pointer to the element type, which also flattens multi-dimensional
/// arrays (the engine reports those flat).
fn global_elem(g: &GlobalInfo, index: &str) -> String {
    format!("(({} *){})[{index}]", g.src.c_scalar, g.src.name)
}

/// An array initializer: a string literal for a character array holding
/// text (`"ab\\0"` for `{'a', 'b', 0, 0}`; the declared length keeps the
/// final terminator), else a brace-enclosed list of in-range literals (no
/// casts needed).
fn initializer(values: &[i128], src: &SrcVar) -> String {
    // ISO C99 compilers need only read 4095 characters of a literal.
    if let Some(text) = crate::literal::text_bytes(values, src.scalar).filter(|t| t.len() < 1000) {
        return crate::literal::c_string_literal(&text);
    }
    let items: Vec<String> = values.iter().map(|&v| c_literal(v, src.scalar, "")).collect();
    format!("{{{}}}", items.join(", "))
}

fn write_reset_globals(out: &mut String, globals: &[GlobalInfo]) {
    out.push_str("/* Every test starts from the globals' initial values. */\n");
    out.push_str("static void pathwise_reset_globals(void)\n{\n");
    for g in globals {
        if !is_checkable_global(g) {
            let _ = writeln!(out, "    /* {}: not resettable (pointer or const) */", g.src.name);
            continue;
        }
        let values = fit(&g.init, global_len(g));
        match g.src.shape {
            Shape::Array(n) if n > 0 => {
                let _ = write!(
                    out,
                    "    {{\n        static const {ty} pathwise_init[{n}] = {init};\n        int pathwise_i;\n        \
                     for (pathwise_i = 0; pathwise_i < {n}; pathwise_i++)\n            {elem} = pathwise_init[pathwise_i];\n    }}\n",
                    ty = g.src.c_scalar,
                    init = initializer(&values, &g.src),
                    elem = global_elem(g, "pathwise_i"),
                );
            }
            Shape::Array(_) => {}
            _ => {
                let _ = writeln!(out, "    {} = {};", g.src.name, c_literal(values[0], g.src.scalar, &g.src.c_scalar));
            }
        }
    }
    out.push_str("}\n\n");
}

/// The comment above a test: its path and its inputs.
fn test_comment(suite: &TestSuite, test: &TestCase) -> String {
    let mut out = format!(" test {}\n", test.id);
    // Lines of at most 96 characters, each step whole; written as the
    // steps are described (a large suite has hundreds of thousands).
    let mut line_start = out.len();
    out.push_str(" * path:");
    if test.path.is_empty() {
        out.push_str(" (no decisions)");
    }
    let last = test.path.len().saturating_sub(1);
    let mut i = 0;
    for_each_step_summary(suite, &test.path, |step| {
        let piece = 1 + step.len() + usize::from(i < last);
        let line_len = out.len() - line_start;
        if line_len + piece > 96 && line_len > 10 {
            out.push('\n');
            line_start = out.len();
            out.push_str(" *      ");
        }
        out.push(' ');
        out.push_str(step);
        if i < last {
            out.push(',');
        }
        i += 1;
    });
    out.push('\n');
    let mut shown = std::collections::BTreeSet::new();
    let mut inputs: Vec<String> = suite
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let value = if is_heap(p) {
                let v = heap_input_summary(suite, test, test.inputs.get(i), &mut shown);
                // A structure passed by value is the object, not its address.
                match p.shape {
                    pathwise_ir::Shape::ByValue => v.strip_prefix('&').map(str::to_string).unwrap_or(v),
                    _ => v,
                }
            } else if let Some(InputValue::Pointer(v @ HeapValue::Ref { .. })) = test.inputs.get(i) {
                // Into an object of the input heap: `o2 + 3 {...}`.
                heap_input_summary(suite, test, Some(&InputValue::Pointer(v.clone())), &mut shown)
            } else {
                let names: Vec<String> = suite.params.iter().enumerate().map(|(j, q)| param_name(j, q)).collect();
                joined_input(suite, test, i, &names)
                    .unwrap_or_else(|| input_summary(test.inputs.get(i), p, &suite.enums))
            };
            format!("{} = {value}", param_name(i, p))
        })
        .collect();
    inputs.extend(other_objects_summary(suite, test, &shown));
    if let Some(bytes) = &test.stdin {
        inputs.push(format!("stdin = {}", file_summary(bytes)));
    }
    let inputs = if inputs.is_empty() { "(none)".to_string() } else { inputs.join(", ") };
    out.push_str(&format!(" * inputs: {inputs}\n"));
    for f in &test.failed_allocations {
        let at = crate::describe::short_loc(&suite.files, f.loc);
        out.push_str(&format!(
            " * out of memory: the {} at {at} (allocation {}) returns NULL\n",
            f.function, f.ordinal
        ));
    }
    if test.same_error_paths > 0 {
        out.push_str(&format!(
            " * {} other path(s) end in this error here; this test has the shortest\n",
            test.same_error_paths
        ));
    }
    if !test.cost.is_empty() {
        // Symbolic costs are expressions over the inputs named above.
        let costs: Vec<String> = test
            .cost
            .iter()
            .map(|c| match &c.symbolic {
                Some(s) => format!("{} {} (any input of this path: {s})", c.model, c.concrete),
                None => format!("{} {}", c.model, c.concrete),
            })
            .collect();
        out.push_str(&format!(" * cost: {}\n", costs.join(", ")));
    }
    // File names, callee names and input strings come from the user's
    // code: keep them from closing (or seeming to open) the comment.
    format!("/*{} */\n", comment_safe(&out))
}

/// A file's content as its text, up to 128 bytes of it.
fn file_summary(bytes: &[u8]) -> String {
    let text = &bytes[..bytes.len().min(128)];
    let more = if bytes.len() > text.len() { format!(" ... ({} bytes)", bytes.len()) } else { String::new() };
    format!("{}{more}", crate::literal::c_string_literal(text))
}

fn input_summary(value: Option<&InputValue>, src: &SrcVar, enums: &[pathwise_ir::EnumDef]) -> String {
    const SHOWN: usize = 32;
    match value {
        // Heap inputs are described by `heap_input_summary`.
        None | Some(InputValue::Pointer(_)) => "?".to_string(),
        Some(InputValue::Function(f)) => f.clone().unwrap_or_else(|| "NULL".to_string()),
        Some(InputValue::Scalar(v)) => match enums.iter().find(|e| e.c_name == src.c_scalar) {
            Some(e) => e
                .name_of(crate::literal::normalize(*v, src.scalar))
                .map_or_else(|| display_value(*v, src.scalar), str::to_string),
            None => display_value(*v, src.scalar),
        },
        // A stream's content, as the file's text.
        Some(InputValue::Array(vs)) if src.shape == pathwise_ir::Shape::Stream => {
            file_summary(&vs.iter().map(|&v| v as u8).collect::<Vec<u8>>())
        }
        Some(InputValue::Array(vs)) => {
            if let Some(text) = crate::literal::text_bytes(vs, src.scalar).filter(|t| t.len() <= 4 * SHOWN) {
                return crate::literal::c_string_literal(&text);
            }
            let mut items: Vec<String> = vs.iter().take(SHOWN).map(|&v| display_value(v, src.scalar)).collect();
            if vs.len() > SHOWN {
                items.push(format!("... ({} elements)", vs.len()));
            }
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// The arguments of the call of the function under test: the locals, and
/// a pointer to pointers through `void *`, since the test's local lacks the
/// qualifiers of the pointer it points to (`char **` for a `const char **`
/// parameter, which C does not convert implicitly); a pointer to rows
/// (`int (*)[4]`, `int (*)[m]`) too, from the flat array of the test.
fn call_args(suite: &TestSuite, locals: &[String]) -> Vec<String> {
    suite
        .params
        .iter()
        .zip(locals)
        .map(|(p, local)| match p.cty.as_ref().and_then(element) {
            Some(CType::Ptr(_)) if p.shape == Shape::Heap => format!("(void *){local}"),
            // Rows (`int (*)[4]`, `int m[3][4]`) from the flat input array.
            Some(CType::Array(..)) if p.shape == Shape::Pointer => format!("(void *){local}"),
            _ => local.clone(),
        })
        .collect()
}

/// What a pointer, or an array parameter declared with its length, points to.
fn element(c: &CType) -> Option<&CType> {
    match c {
        CType::Ptr(t) | CType::Array(t, _) => Some(t),
        _ => None,
    }
}

/// The number of scalars an array parameter is declared with (`int
/// m[3][4]`: 12), which the test's array has at least; 0 when unknown.
fn declared_scalars(p: &SrcVar) -> usize {
    fn count(c: &CType) -> Option<u64> {
        match c {
            CType::Array(e, n) => count(e)?.checked_mul(*n),
            CType::Int { .. } => Some(1),
            _ => None,
        }
    }
    match &p.cty {
        Some(c @ CType::Array(..)) if p.shape == Shape::Pointer => count(c).unwrap_or(0) as usize,
        _ => 0,
    }
}

/// The C expression of pointer parameter `i`'s input when it points into
/// another input's object (`s + 3`, `pathwise_o2 + 3`), from the locals
/// of the test's parameters.
fn joined_input(suite: &TestSuite, test: &TestCase, i: usize, locals: &[String]) -> Option<String> {
    let p = suite.params.get(i).filter(|p| !is_heap(p))?;
    match test.inputs.get(i)? {
        InputValue::Pointer(HeapValue::Param { param, offset }) => {
            let es = suite.params.get(*param).map_or(1, |t| t.scalar.ty.bytes()).max(1);
            let base = locals.get(*param)?;
            Some(match offset / es {
                0 => base.clone(),
                k => format!("{base} + {k}"),
            })
        }
        InputValue::Pointer(HeapValue::Null) => Some("NULL".to_string()),
        InputValue::Pointer(v @ HeapValue::Ref { .. }) => {
            let pointee = CType::Int { c_name: p.c_scalar.clone(), ty: p.scalar };
            Some(crate::c_heap::input_pointer_expr(suite, test, v, Some(&pointee)))
        }
        _ => None,
    }
}

/// Declare the local holding parameter `p`'s input and return the argument
/// expression passed to the function. `guarded`: an array input ends
/// where an inaccessible page starts (`pathwise_guarded`), so that the
/// read past it that an out-of-bounds error test expects traps natively,
/// as under a sanitizer. Returns whether it used `pathwise_guarded` (an
/// input shorter than the declared length of an array parameter, `const
/// char in[4]`, is passed in an array of that length instead).
fn write_input(
    out: &mut String,
    (p, enums): (&SrcVar, &[pathwise_ir::EnumDef]),
    local: &str,
    value: Option<&InputValue>,
    guarded: bool,
) -> bool {
    if p.shape == pathwise_ir::Shape::Function {
        // A function of the unit, by name (the type's declarator needs
        // the name inside: `int (*cb)(int)`).
        let decl = p.cty.as_ref().map_or_else(|| format!("void *{local}"), |c| c.declare(&[], local));
        let target = match value {
            Some(InputValue::Function(Some(name))) => name.as_str(),
            _ => "0",
        };
        let _ = writeln!(out, "    {decl} = {target};");
        return false;
    }
    if is_array_param(p) {
        let values: Vec<i128> = match value {
            Some(InputValue::Array(vs)) => vs.clone(),
            Some(InputValue::Scalar(v)) => vec![*v],
            None | Some(InputValue::Pointer(_) | InputValue::Function(_)) => Vec::new(),
        };
        let declared = declared_scalars(p);
        if guarded && values.len() >= declared {
            let ty = &p.c_scalar;
            if values.is_empty() {
                let _ = writeln!(out, "    {ty} *{local} = ({ty} *)pathwise_guarded(0, 0); /* zero-length input */");
            } else {
                let init = initializer(&values, p);
                let _ = writeln!(out, "    static const {ty} pathwise_in_{local}[{}] = {init};", values.len());
                let _ = writeln!(
                    out,
                    "    {ty} *{local} = ({ty} *)pathwise_guarded(pathwise_in_{local}, sizeof pathwise_in_{local});"
                );
            }
            return true;
        } else if values.is_empty() && declared == 0 {
            // C forbids zero-length arrays: one unused element stands in, so
            // the function still gets a valid (never dereferenced) pointer.
            let _ = writeln!(out, "    {} {local}[1] = {{0}}; /* zero-length input */", p.c_scalar);
        } else if values.len() < declared {
            // The declared length, the input's elements first (the rest,
            // zero, is never read on this path).
            let init = if values.is_empty() { "{0}".to_string() } else { initializer(&values, p) };
            let _ = writeln!(
                out,
                "    {} {local}[{declared}] = {init}; /* {} input element(s) */",
                p.c_scalar,
                values.len()
            );
        } else {
            let _ = writeln!(out, "    {} {local}[{}] = {};", p.c_scalar, values.len(), initializer(&values, p));
        }
    } else {
        let v = match value {
            Some(InputValue::Scalar(v)) => *v,
            Some(InputValue::Array(vs)) => vs.first().copied().unwrap_or(0),
            None | Some(InputValue::Pointer(_) | InputValue::Function(_)) => 0,
        };
        let _ = writeln!(out, "    {} {local} = {};", p.c_scalar, crate::literal::c_value(v, p, enums));
    }
    false
}

/// Emit the check of one scalar value (`got` is a C expression).
pub(crate) fn write_scalar_check(
    out: &mut String,
    used: &mut Used,
    id: usize,
    what: &str,
    (src, enums): (&SrcVar, &[pathwise_ir::EnumDef]),
    expected: i128,
    got: &str,
) {
    let suffix = if src.scalar.ty.is_float() {
        used.floating = true;
        "floating"
    } else if is_unsigned(src.scalar) {
        used.unsigned = true;
        "unsigned"
    } else {
        used.signed = true;
        "signed"
    };
    let lit = crate::literal::c_value(expected, src, enums);
    let _ = writeln!(out, "    pathwise_failed |= pathwise_check_{suffix}({id}, \"{what}\", {lit}, {got});");
}

/// Emit the check of every element of an array against an expected table;
/// `elem` builds the C expression of element `pathwise_i`.
fn write_array_check(
    out: &mut String,
    used: &mut Used,
    id: usize,
    what: &str,
    src: &SrcVar,
    expected: &[i128],
    elem: &str,
) {
    if expected.is_empty() {
        return;
    }
    let suffix = if src.scalar.ty.is_float() {
        used.floating_at = true;
        "floating"
    } else if is_unsigned(src.scalar) {
        used.unsigned_at = true;
        "unsigned"
    } else {
        used.signed_at = true;
        "signed"
    };
    let n = expected.len();
    let _ = write!(
        out,
        "    {{\n        static const {ty} pathwise_expected[{n}] = {init};\n        int pathwise_i;\n        \
         for (pathwise_i = 0; pathwise_i < {n}; pathwise_i++)\n            \
         pathwise_failed |= pathwise_check_{suffix}_at({id}, \"{what}\", pathwise_i, pathwise_expected[pathwise_i], {elem});\n    }}\n",
        ty = src.c_scalar,
        init = initializer(expected, src),
    );
}

fn write_test(out: &mut String, (suite, name): (&TestSuite, &str), test: &TestCase, used: &mut Used, frame: bool) {
    let id = test.id;
    out.push_str(&test_comment(suite, test));
    let _ = writeln!(out, "static int {name}(void)\n{{");
    out.push_str("    int pathwise_failed = 0;\n");
    let locals = param_locals(suite);
    write_heap_allocs(out, suite, test);
    let by_value = |p: &SrcVar| p.shape == pathwise_ir::Shape::ByValue;
    for (i, p) in suite.params.iter().enumerate() {
        if by_value(p) {
            // Copied below, once the input heap holds its values.
        } else if is_heap(p) {
            write_heap_param(out, suite, test, p, &locals[i], test.inputs.get(i));
        } else if p.shape == pathwise_ir::Shape::Stream {
            crate::c_streams::write_stream_input(out, &mut used.streams, &locals[i], test.inputs.get(i));
        } else if joined_input(suite, test, i, &locals).is_none() {
            let guarded = is_array_param(p) && reads_past_an_input(test);
            used.guarded |= write_input(out, (p, &suite.enums), &locals[i], test.inputs.get(i), guarded);
        }
    }
    if let Some(bytes) = &test.stdin {
        crate::c_streams::write_stdin(out, &mut used.streams, bytes);
    }
    // Pointers into another input's array, once every array exists.
    for (i, p) in suite.params.iter().enumerate() {
        if let (false, Some(target)) = (is_heap(p), joined_input(suite, test, i, &locals)) {
            let _ = writeln!(out, "    {} *{} = {target};", p.c_scalar, locals[i]);
        }
    }
    let fills = if frame { crate::c_frame::fills(test) } else { Default::default() };
    write_heap_stores(out, suite, test, &fills);
    for (i, p) in suite.params.iter().enumerate().filter(|(_, p)| by_value(p)) {
        write_heap_param(out, suite, test, p, &locals[i], test.inputs.get(i));
    }
    out.push_str("    pathwise_reset_globals();\n");
    crate::c_externs::write_expect_calls(out, suite, test);
    // The renamed `main` of the code under test is reached by its new name.
    let callee = if suite.function == "main" { RENAMED_MAIN } else { suite.function.as_str() };
    let call = format!("{callee}({})", call_args(suite, &locals).join(", "));
    let leak = match &test.outcome {
        Outcome::Error(e) => match e.kind {
            ErrorKind::MemoryLeak { allocation, bytes } => Some((e, allocation, bytes)),
            _ => None,
        },
        _ => None,
    };
    let failing = !test.failed_allocations.is_empty();
    if leak.is_some() || failing {
        crate::c_leaks::write_track(out, suite, test);
    }
    if let Some((e, _, _)) = leak {
        let at = crate::describe::loc_string(&suite.files, e.loc);
        let _ = writeln!(out, "    /* expected: {} at {at}: {} */", e.kind.name(), comment_safe(&e.message));
    } else if let Outcome::Error(e) = &test.outcome {
        // The run ends in the error: nothing after the call is observed.
        let at = crate::describe::loc_string(&suite.files, e.loc);
        let _ = writeln!(out, "    /* expected: {} at {at}: {} */", e.kind.name(), comment_safe(&e.message));
        if let (ErrorKind::Exit(_), Some(bytes)) = (e.kind, &test.stdout) {
            crate::c_streams::write_stdout_at_exit(out, &mut used.streams, id, bytes);
        }
        if matches!(e.kind, ErrorKind::Exit(_)) && e.message.starts_with("_exit(") {
            // The process ends without writing gcov's counters.
            let _ = writeln!(
                out,
                "#ifdef PATHWISE_GCOV
    pathwise_printf(\"coverage: test {id} not recorded (_exit writes no counters)\\n\");
    pathwise_fflush(stdout);
#endif"
            );
        }
        match fp_trap(e.kind) {
            Some((mask, name)) => {
                used.fp_traps = true;
                // The inputs are constants of the test: an optimiser would
                // compute the operation at compile time, raising nothing
                // at run time. Opaque to it from here on:
                for (i, p) in suite.params.iter().enumerate() {
                    if p.shape == pathwise_ir::Shape::Scalar {
                        let _ = writeln!(out, "    __asm__ __volatile__(\"\" : \"+m\"({}));", locals[i]);
                    }
                }
                out.push_str("    __asm__ __volatile__(\"\" : : : \"memory\");\n");
                let _ = writeln!(
                    out,
                    "    pathwise_feenableexcept({mask}); /* {name}: the exception traps (SIGFPE) where it happens */"
                );
                // An optimiser drops an unused floating operation (it has no
                // side effect but the exception): the result is kept.
                match &suite.ret {
                    Some(_) => {
                        let _ = writeln!(out, "    {{\n        volatile __typeof__({call}) pathwise_kept = {call};\n        (void)pathwise_kept;\n    }}");
                    }
                    None => {
                        let _ = writeln!(out, "    {call};");
                    }
                }
            }
            None => {
                let _ = writeln!(out, "    (void){call};");
            }
        }
        out.push_str(
            "    (void)pathwise_failed;
    return PATHWISE_RETURNED;
}

",
        );
        return;
    }
    let mut ret_var = None;
    let mut result = None;
    if test.stdout.is_some() {
        crate::c_streams::write_stdout_capture(out, &mut used.streams);
    }
    let mut ret_check = None;
    match (&suite.ret, test.ret, &test.ret_pointer) {
        (Some(ret), Some(expected), _) => {
            let _ = writeln!(out, "    {} pathwise_ret = {call};", ret.c_scalar);
            ret_check = Some((ret, expected));
            result = Some("pathwise_ret");
        }
        (Some(ret), None, Some(HeapValue::Ref { .. })) if ret.shape == pathwise_ir::Shape::ByValue => {
            // A structure returned by value: checked through a pointer to it.
            let pointee = ret.cty.as_ref().and_then(|c| c.pointee());
            let decl =
                pointee.map_or("int pathwise_ret_value".into(), |t| t.declare(&suite.structs, "pathwise_ret_value"));
            let (pdecl, _) = pointer_decl(&suite.structs, ret.cty.as_ref(), "pathwise_ret");
            let _ = writeln!(out, "    {decl} = {call};\n    {pdecl} = &pathwise_ret_value;");
            ret_var = Some("pathwise_ret");
            result = Some("pathwise_ret_value");
        }
        (Some(_), None, Some(v)) if *v != HeapValue::Opaque => {
            // Any returned pointer: checked as what it points to. Declared
            // with the function's own type, `const` included (the IR's
            // types have no qualifiers); `typeof` does not evaluate the call.
            let _ = writeln!(out, "    __typeof__({call}) pathwise_ret = {call};");
            ret_var = Some("pathwise_ret");
            result = Some("pathwise_ret");
        }
        _ => {
            // `void` function, or a run without a return value to compare.
            let _ = writeln!(out, "    {call};");
        }
    }
    // The output first: the checks print.
    if let Some(bytes) = &test.stdout {
        crate::c_streams::write_stdout_check(out, id, bytes);
    }
    if let Some((ret, expected)) = ret_check {
        write_scalar_check(out, used, id, "return", (ret, &suite.enums), expected, "pathwise_ret");
    }
    if let Some((e, allocation, bytes)) = leak {
        let at = crate::describe::loc_string(&suite.files, e.loc);
        crate::c_leaks::write_leak_check(out, id, allocation, bytes, &at);
    } else if failing {
        crate::c_leaks::write_untrack(out);
    }
    crate::c_externs::write_calls_check(out, suite);
    let allocated = write_heap_checks(out, used, suite, test, ret_var);
    if frame {
        crate::c_frame::write_frame_checks(out, used, suite, test);
    }
    if let Some(post) = &suite.postcondition {
        let args: Vec<&str> = locals.iter().map(String::as_str).chain(result).collect();
        let _ = writeln!(
            out,
            "    if (!{post}({})) {{\n        pathwise_printf(\"test {id}: postcondition {post} does not hold\\n\");\n        pathwise_failed = 1;\n    }}",
            args.join(", ")
        );
    }
    for (i, p) in suite.params.iter().enumerate() {
        if let Some(Some(expected)) = test.array_outputs.get(i) {
            let elem = format!("{}[pathwise_i]", locals[i]);
            write_array_check(out, used, id, &param_name(i, p), p, expected, &elem);
        }
    }
    for (g, observed) in suite.globals.iter().zip(&test.global_outputs) {
        if !is_checkable_global(g) {
            continue;
        }
        let expected = fit(observed, global_len(g));
        match g.src.shape {
            Shape::Array(_) => {
                let elem = global_elem(g, "pathwise_i");
                write_array_check(out, used, id, &g.src.name, &g.src, &expected, &elem);
            }
            _ => write_scalar_check(out, used, id, &g.src.name, (&g.src, &[]), expected[0], &g.src.name),
        }
    }
    crate::c_heap::write_heap_frees(out, test, &allocated);
    out.push_str("    return pathwise_failed;\n}\n\n");
}

/// Each test runs in a child process: state a test leaves behind (static
/// locals of the code under test, which no reset can reach) cannot leak into
/// the next one, and a crash fails only its own test. The POSIX calls are
/// declared under harness names bound to the libc symbols, so that no
/// header can clash with the code under test.
///
/// A child that runs longer than `PATHWISE_TEST_SECONDS` (10 unless the
/// build defines it) is stopped by `SIGALRM`: a test that hangs (after
/// the undefined behaviour it expects, a smashed stack) cannot stall the
/// others; it fails unless it expects undefined behaviour.
///
/// A test expecting an error says how the child must end: `exit(status)`,
/// `SIGABRT` (abort, failed assert), or any abnormal end for undefined
/// behaviour. A plain build may not trap the latter (`-fsanitize=undefined
/// -fsanitize-undefined-trap-on-error` makes most kinds trap, as `replay`
/// does): the call then returns, and the test is counted apart, as an error
/// not observed natively (it neither passes nor fails).
///
/// gcov (only when `PATHWISE_GCOV` is defined: `replay` defines it and
/// builds with `--coverage`). A child that returns ends with `exit`, which
/// writes its counters. gcov counts only some edges and derives the others
/// by flow conservation, so counters written after a process stopped
/// inside a basic block are wrong: gcov credits the missing flow to edges
/// that never ran (seen: the exit of `for (...; i < n && i < 4; ...)`
/// counted once per test trapping in the body). gcc ends a block at each
/// call that may not return (a fake edge to the function's exit), and at
/// the checks of most sanitizers (`integer-divide-by-zero`, `shift`,
/// `bounds`, `null`, `float-cast-overflow`), but not at the
/// `signed-integer-overflow` check (an internal function, expanded after
/// gcov's instrumentation), nor at a hardware fault. So the signal handler
/// writes the counters (`__gcov_dump`) on `SIGABRT` (a call of `abort`) and
/// on `SIGILL` when the test expects an error whose sanitizer check ends a
/// block (`value` 1 for `PATHWISE_EXPECT_UB`), and a child whose call
/// returned from an error that did not trap ends with `_exit` (its counters
/// would cover code past the error). The parent prints `coverage: test N
/// not recorded (WHY)` for every other child, so that `replay` predicts the
/// coverage of the recorded tests only.
const RUNNER: &str = r#"extern int pathwise_fork(void) __asm__("fork");
extern int pathwise_waitpid(int pid, int *status, int options) __asm__("waitpid");
extern void pathwise_exit(int status) __asm__("exit");
extern void pathwise_quick_exit(int status) __asm__("_exit");
extern void (*pathwise_signal(int sig, void (*handler)(int)))(int) __asm__("signal");
extern int pathwise_raise(int sig) __asm__("raise");
extern unsigned int pathwise_alarm(unsigned int seconds) __asm__("alarm");
#ifndef PATHWISE_TEST_SECONDS
#define PATHWISE_TEST_SECONDS 10 /* a test's child that runs longer is stopped (SIGALRM) */
#endif
#ifdef PATHWISE_GCOV
extern void __gcov_dump(void);
#endif

/* Whether a trap (SIGILL) of this child stops at a block boundary, so that
 * its gcov counters are consistent (see the runner). */
static int pathwise_trap_ends_block;

static void pathwise_on_signal(int sig)
{
#ifdef PATHWISE_GCOV
    if (sig == 6 || (sig == 4 && pathwise_trap_ends_block))
        __gcov_dump();
#endif
    pathwise_signal(sig, (void (*)(int))0);
    pathwise_raise(sig);
}

/* 0: passed, 1: failed, 2: the error the test expects was not observed. */
static int pathwise_verdict(int id, int expect, int value, const char *error, int sig, int code)
{
    if (sig == 0 && code == PATHWISE_CALLS_FAILED && !(expect == PATHWISE_EXPECT_EXIT && (value & 0xff) == code))
        return 1; /* a stub saw a call the test did not expect (message printed) */
    if (sig == 14)
        pathwise_printf("test %d: stopped after %d s%s\n", id, PATHWISE_TEST_SECONDS,
                        expect == PATHWISE_EXPECT_UB ? " (after the undefined behaviour it expects)" : "");
    switch (expect) {
    case PATHWISE_EXPECT_RETURN:
        if (sig != 0 && sig != 14)
            pathwise_printf("test %d: crashed (signal %d)\n", id, sig);
        return sig != 0 || code != 0;
    case PATHWISE_EXPECT_EXIT:
        if (sig == 0 && code == (value & 0xff))
            return 0;
        pathwise_printf("test %d: expected exit(%d), got %s %d\n", id, value, sig ? "signal" : "exit status", sig ? sig : code);
        return 1;
    case PATHWISE_EXPECT_SIGNAL:
        if (sig == value)
            return 0;
        pathwise_printf("test %d: expected signal %d, got %s %d\n", id, value, sig ? "signal" : "exit status", sig ? sig : code);
        return 1;
    default:
        if (sig != 0 || code != PATHWISE_RETURNED)
            return 0;
        pathwise_printf("test %d: error not observed natively: expected %s, but the call returned "
               "(build with -fsanitize=undefined -fsanitize-undefined-trap-on-error to trap it)\n", id, error);
        return 2;
    }
}

static int pathwise_run(int id, int (*test)(void), int expect, int value, const char *error)
{
    int pid, status = 0, sig, code;
    pathwise_fflush(stdout);
    pid = pathwise_fork();
    if (pid < 0)
        return expect == PATHWISE_EXPECT_RETURN ? test() != 0 : 0;
    if (pid == 0) {
        int result;
        pathwise_trap_ends_block = expect == PATHWISE_EXPECT_UB && value == 1;
        for (sig = 4; sig <= 11; sig++)
            if (sig != 9)
                pathwise_signal(sig, pathwise_on_signal);
        pathwise_alarm(PATHWISE_TEST_SECONDS);
        result = test();
        pathwise_fflush(stdout);
        if (result == PATHWISE_RETURNED)
            pathwise_quick_exit(result);
        pathwise_exit(result);
    }
    if (pathwise_waitpid(pid, &status, 0) < 0) {
        pathwise_printf("test %d: lost its process\n", id);
        return 1;
    }
    sig = status & 0x7f;
    code = (status >> 8) & 0xff;
#ifdef PATHWISE_GCOV
    /* (A test expecting exit(77) or exit(78) from the code wrote them.) */
    if (sig == 0 && (code == PATHWISE_RETURNED || code == PATHWISE_CALLS_FAILED)
        && !(expect == PATHWISE_EXPECT_EXIT && (value & 0xff) == code))
        pathwise_printf("coverage: test %d not recorded (%s)\n", id, code == PATHWISE_RETURNED ? "error not observed" : "unexpected call");
    else if (sig != 0 && sig != 6 && !(sig == 4 && expect == PATHWISE_EXPECT_UB && value == 1))
        pathwise_printf("coverage: test %d not recorded (stopped by signal %d inside a basic block)\n", id, sig);
#endif
    return pathwise_verdict(id, expect, value, error, sig, code);
}

"#;

/// Harness constants: how a test's child process must end.
const EXPECT_DEFINES: &str = "#define PATHWISE_RETURNED 77 /* child status of an error test whose call returned */\n\
#define PATHWISE_CALLS_FAILED 78 /* child status: a stub saw an unexpected call */\n\
#define PATHWISE_EXPECT_RETURN 0\n#define PATHWISE_EXPECT_EXIT 1\n#define PATHWISE_EXPECT_SIGNAL 2\n#define PATHWISE_EXPECT_UB 3\n\n";

/// Whether `replay`'s sanitizer check for `kind` ends a basic block, so
/// that a child trapping there has consistent gcov counters (see
/// [`RUNNER`]; `replay` enables exactly these checks for these kinds).
fn trap_ends_block(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::DivisionByZero
            | ErrorKind::DivisionOverflow
            | ErrorKind::InvalidShift
            | ErrorKind::InvalidBuiltinArgument
            | ErrorKind::OutOfBounds
            | ErrorKind::NullDereference
            | ErrorKind::FloatCastOverflow
            | ErrorKind::FloatDivisionByZero
    )
}

/// The x86-64 `<fenv.h>` exception whose trap makes a native run of a test
/// expecting `kind` stop at the error, as the engine's run did (IEEE's
/// exceptions do not stop a program by default). A division `0.0 / 0.0`
/// raises the invalid exception instead, which is not enabled (ordered
/// comparisons of NaNs raise it too): such a test is counted as not
/// observed natively unless built with `-fsanitize=float-divide-by-zero`,
/// as `replay` builds it.
fn fp_trap(kind: ErrorKind) -> Option<(&'static str, &'static str)> {
    match kind {
        ErrorKind::FloatOverflow => Some(("0x08", "FE_OVERFLOW")),
        ErrorKind::FloatDivisionByZero => Some(("0x04", "FE_DIVBYZERO")),
        _ => None,
    }
}

/// Whether `test` expects an access outside an input array.
fn reads_past_an_input(test: &TestCase) -> bool {
    matches!(&test.outcome, Outcome::Error(e) if e.kind == ErrorKind::OutOfBounds)
}

/// `pathwise_guarded(init, size)`: a copy of `size` bytes that ends where
/// an inaccessible page starts (a read past it is SIGSEGV, which the
/// runner takes as the expected error; the fault writes no coverage).
const GUARDED_HELPER: &str = "#include <sys/mman.h>\n\
static void *pathwise_guarded(const void *init, unsigned long size)\n\
{\n\
    const unsigned long page = 65536; /* a multiple of every page size */\n\
    unsigned long span = (size + page - 1) / page * page + page, i;\n\
    char *base = (char *)mmap(0, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n\
    char *start;\n\
    if (base == (char *)MAP_FAILED)\n\
        return 0;\n\
    mprotect(base + span - page, page, PROT_NONE);\n\
    start = base + span - page - size;\n\
    for (i = 0; i < size; i++)\n\
        start[i] = ((const char *)init)[i];\n\
    return start;\n\
}\n\n";

/// The expectation (`PATHWISE_EXPECT_*` name, value) of a test.
pub(crate) fn expectation(test: &TestCase) -> (&'static str, i32) {
    match &test.outcome {
        Outcome::Returned => ("PATHWISE_EXPECT_RETURN", 0),
        // Only whole programs have such tests, and they run under Test-Comp's harness.
        Outcome::BoundReached => ("PATHWISE_EXPECT_UB", 0),
        Outcome::Error(e) => match e.kind {
            ErrorKind::Exit(status) => ("PATHWISE_EXPECT_EXIT", status),
            ErrorKind::Abort | ErrorKind::AssertionFailure => ("PATHWISE_EXPECT_SIGNAL", 6),
            // The leak is checked by the test itself, which returns.
            kind if kind.returns_natively() => ("PATHWISE_EXPECT_RETURN", 0),
            kind => ("PATHWISE_EXPECT_UB", i32::from(trap_ends_block(kind))),
        },
    }
}

/// The C string describing a test's expected error for the runner's
/// messages (`"division-by-zero at f.c:3:12"`), or `0`.
pub(crate) fn error_text(suite: &TestSuite, test: &TestCase) -> String {
    match &test.outcome {
        Outcome::Error(e) => {
            let at = crate::describe::loc_string(&suite.files, e.loc);
            crate::literal::c_string_literal(format!("{} at {at}", e.kind.name()).as_bytes())
        }
        _ => "0".to_string(),
    }
}

/// The runner (`pathwise_run`, each test in its own process), when there
/// are tests to run.
fn write_runner(out: &mut String, suite: &TestSuite) {
    if !suite.tests.is_empty() {
        let runner = if crate::c_externs::has_externals(suite) {
            // gcov's own calls while writing counters are not the code's.
            RUNNER.replacen(
                "#ifdef PATHWISE_GCOV\n    if (sig == 6",
                &format!("{}#ifdef PATHWISE_GCOV\n    if (sig == 6", crate::c_externs::HANDLER_CALLS_OFF),
                1,
            )
        } else {
            RUNNER.to_string()
        };
        out.push_str(&runner);
    }
}

fn write_main(out: &mut String, suite: &TestSuite, names: &[String]) {
    out.push_str(
        "int main(void)\n{\n    int pathwise_count[3] = {0, 0, 0}; /* passed, failed, error not observed */\n",
    );
    for (test, name) in suite.tests.iter().zip(names) {
        let (expect, value) = expectation(test);
        let error = error_text(suite, test);
        let _ = writeln!(out, "    pathwise_count[pathwise_run({}, {name}, {expect}, {value}, {error})]++;", test.id);
    }
    out.push_str("    pathwise_printf(\"%d passed, %d failed\", pathwise_count[0], pathwise_count[1]);\n");
    out.push_str("    if (pathwise_count[2] != 0)\n        pathwise_printf(\", %d error(s) not observed natively\", pathwise_count[2]);\n");
    out.push_str("    pathwise_printf(\"\\n\");\n    return pathwise_count[1] != 0;\n}\n");
}

#[cfg(test)]
#[path = "c_tests_tests.rs"]
pub(crate) mod tests;
