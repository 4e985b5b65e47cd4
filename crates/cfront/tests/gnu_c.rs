//! GNU C as found in sv-benchmarks (Test-Comp) programs: attributes and
//! other extensions, statement expressions, built-ins, function-name
//! strings, whole translation units including system headers, and files
//! that are already preprocessed (`.i`).

mod common;

use std::path::PathBuf;

use common::interp::Interp;
use common::*;
use pathwise_cfront::{compile_file, Compiled, FrontendOptions};
use pathwise_ir::{InstKind, Terminator};

fn c_file(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c")).join(name)
}

fn compile_path(path: &std::path::Path) -> Compiled {
    let c = compile_file(path, &FrontendOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    verify_program(&c.program);
    c
}

fn unsupported_names(c: &Compiled) -> Vec<&str> {
    c.unsupported.iter().map(|u| u.name.as_str()).collect()
}

fn calls<'p>(p: &'p pathwise_ir::Program, f: &pathwise_ir::FuncData) -> Vec<&'p str> {
    insts(f)
        .filter_map(|i| match &i.kind {
            InstKind::Call { func, .. } => Some(p.func(*func).name.as_str()),
            _ => None,
        })
        .collect()
}

/// A scratch directory for generated files, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("cfront-gnu-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn sv_benchmark_style_program_lowers_except_the_function_using_float128() {
    let c = compile_path(&c_file("sv_style.c"));
    // Only the function that uses `_Float128` is unavailable;
    // the other declarations of the headers (FILE, printf, ...) are never
    // looked at.
    assert_eq!(unsupported_names(&c), vec!["uses_div"]);
    let d = &c.unsupported[0].diagnostic;
    assert_eq!((d.line, d.col), (24, 3));
    assert_eq!(d.message, "unsupported: extended floating types (`_FloatN`, `__float128`)");
    let p = &c.program;
    for name in ["main", "reach_error", "h", "sq"] {
        assert!(!func(p, name).is_declaration(), "{name} is not lowered");
    }
    let main = func(p, "main");
    let called = calls(p, main);
    for name in ["__VERIFIER_nondet_int", "__VERIFIER_nondet_bool", "__VERIFIER_assume", "__assert_fail", "abort"] {
        assert!(called.contains(&name), "main does not call {name}: {called:?}");
    }
    assert!(func(p, "__VERIFIER_nondet_int").is_declaration());
    // `__builtin_unreachable()` and the noreturn callees end their blocks.
    let unreachable = main.blocks.iter().filter(|b| b.term == Terminator::Unreachable).count();
    assert!(unreachable >= 3, "{}", print(p, main));
    // `__func__` and its gcc spellings are one `const char` array.
    let strings: Vec<_> = p.globals.iter().filter(|g| g.name.starts_with(".str.")).collect();
    assert_eq!(strings.len(), 1);
    assert_eq!((strings[0].count, strings[0].is_const, strings[0].src.is_none()), (5, true, true));
    assert_eq!(strings[0].init, b"main".iter().map(|&b| u64::from(b)).collect::<Vec<_>>());
    // The asm-labelled, unused `g` brings nothing into the program.
    assert!(p.func_by_name("g").is_none());
}

#[test]
fn attributes_in_every_position_are_ignored() {
    let c = compile_path(&c_file("gnu_attributes.c"));
    assert!(c.unsupported.is_empty(), "{:?}", c.unsupported);
    // `struct __attribute__((packed)) S {...};`, which lang-c alone cannot
    // parse, is a structure definition (see `packed.rs`).
    assert!(c.unsupported_globals.is_empty(), "{:?}", c.unsupported_globals);
    let p = &c.program;
    // `__VERIFIER_error` is declared noreturn through an attribute.
    let main = func(p, "main");
    assert!(calls(p, main).contains(&"__VERIFIER_error"));
    assert!(main.blocks.iter().any(|b| b.term == Terminator::Unreachable), "{}", print(p, main));
    let mut it = Interp::new(p);
    assert_eq!(it.call_by_name("labels", &[3]), Some(3));
    assert_eq!(it.call_by_name("l", &[]), Some(6));
    assert_eq!(it.call_by_name("j", &[1, 2]), Some(2));
    assert_eq!(it.call_by_name("sum_aligned", &[1, 2]), Some(7));
}

#[test]
fn preprocessed_files_are_read_as_they_are() {
    let dir = TempDir::new("i");
    let i_file = dir.0.join("sv_style.i");
    let st =
        std::process::Command::new("gcc").arg("-E").arg(c_file("sv_style.c")).arg("-o").arg(&i_file).status().unwrap();
    assert!(st.success());
    let c = compile_path(&i_file);
    assert_eq!(unsupported_names(&c), vec!["uses_div"]);
    let p = &c.program;
    let main = func(p, "main");
    assert!(!main.is_declaration());
    // Lines follow the line markers (the original `.c` file); the file is
    // the one given.
    assert_eq!((p.files[main.loc.file as usize].as_str(), main.loc.line), (i_file.to_str().unwrap(), 28));
    // Without line markers (`gcc -E -P`, as many sv-benchmarks files are),
    // the headers' declarations are user code: the header structs are
    // unsupported declarations, not errors, and `typedef
    // __builtin_va_list __gnuc_va_list;` declares `va_list`'s type.
    let flat = dir.0.join("flat.i");
    let st =
        std::process::Command::new("gcc").args(["-E", "-P"]).arg(c_file("sv_style.c")).arg("-o").arg(&flat).status();
    assert!(st.unwrap().success());
    let c = compile_path(&flat);
    assert!(unsupported_names(&c).contains(&"uses_div"));
    assert!(!func(&c.program, "main").is_declaration());
    assert!(!c.unsupported_globals.iter().any(|u| u.name == "__gnuc_va_list"), "{:?}", c.unsupported_globals);
    // Not preprocessed again: `linux` and `unix` are predefined macros of
    // gcc's GNU dialects but ordinary identifiers here.
    let raw = dir.0.join("raw.i");
    std::fs::write(&raw, "# 1 \"raw.c\"\nint linux(int unix) { return unix + 1; }\n").unwrap();
    let c = compile_path(&raw);
    assert_eq!(Interp::new(&c.program).call_by_name("linux", &[41]), Some(42));
}

/// Each `long tN(void)` is run by gcc and by the test interpreter.
const CASES: &str = r#"
static inline int sq(int x) { return x * x; }
static __inline__ int inc(int x) { return x + 1; }
static __inline int dec(int x) __attribute__((const));
static __inline int dec(int x) { return x - 1; }
typeof(long) g_long = 5;
__typeof__(g_long) g_arr[3] = {1, 2, 3};
long t0(void) { int x = 4; return ({ int t = x * 2; t + 1; }) + ({ 7; }) * 100; }
long t1(void) { int x = 3; return __builtin_expect(x == 3, 1) * 10 + __builtin_expect(x, 0); }
long t2(void) { return sizeof(__func__) * 100 + __func__[0] + sizeof("abc") * 1000; }
long t3(void) { const char *s = "hello"; int n = 0; while (s[n]) n++; return n * 1000 + s[4]; }
long t4(void) { typeof(1L) l = 1L << 40; __typeof__(l + 1) m = l >> 30; return m + sizeof(typeof(char)) + sizeof(g_arr); }
long t5(void) { register int r = 5; volatile int v = r * 2; __extension__ long long x = 1; return r + v + x; }
long t6(void) { return "xyz"[2] + __FUNCTION__[1] * 1000 + __PRETTY_FUNCTION__[0] * 100000; }
long t7(void) { int i = 0; loop: if (i < 5) { i += 2; goto loop; } return i; }
long t8(void) { _Bool b = 5; _Bool c = 0; return b + c * 2 + (_Bool)(b + 1) * 4; }
long t9(void) { int __attribute__((unused)) a = 2; __attribute__((unused)) int b = 3; int * __restrict p = &a; return *p * b; }
long t10(void) { __signed__ char c = -3; __const int k = 7; return sq(c) + inc(k) * 100 + dec(k) * 10000; }
long t11(void) { int x = 0; int y = ({ int z = 3; if (z > 2) x = 5; else x = 6; x * 2; }); return x * 10 + y; }
long t12(void) { long s = 0; for (int i = 0; i < 3; i++) s += g_arr[i] * g_long; return s; }
"#;

const N_CASES: usize = 13;

#[test]
fn gnu_extensions_compute_what_gcc_computes() {
    assert_cases_match_gcc(CASES, N_CASES);
}

#[test]
fn builtin_unreachable_is_the_unreachable_terminator() {
    let p = program("int f(int x) {\n  if (x > 3)\n    __builtin_unreachable();\n  return x;\n}\n");
    let f = func(&p, "f");
    let b = f.blocks.iter().find(|b| b.term == Terminator::Unreachable).expect("an unreachable block");
    assert_eq!((b.term_loc.line, b.term_loc.col), (3, 5), "{}", print(&p, f));
    assert_eq!(branches(f), 1);
}

#[test]
fn string_literals_are_shared_const_arrays() {
    let p = program("int f(int i) { const char *a = \"ab\"; const char *b = \"ab\"; return a[i] + b[i] + \"cd\"[i]; }");
    let names: Vec<&str> = p.globals.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, vec![".str.0", ".str.1"]);
    assert_eq!(p.globals[0].count, 3);
    let mut it = Interp::new(&p);
    assert_eq!(it.call_by_name("f", &[1]), Some(2 * u64::from(b'b') + u64::from(b'd')));
    // A string passed to assert's failure function is a null pointer: the
    // engine's model never reads it.
    let p = program(
        "void __assert_fail(const char *, const char *, unsigned, const char *);\n\
         void f(void) { __assert_fail(\"x\", \"f.c\", 2, __func__); }",
    );
    assert!(p.globals.is_empty());
    // Any other body-less function gets the string (an external function
    // sees a non-null pointer, as natively).
    let p = program("void ext(const char *);\nvoid f(void) { ext(\"x\"); ext(__func__); }");
    assert_eq!(p.globals.len(), 2);
}
