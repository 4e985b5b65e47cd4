//! Variable-length arrays (IR `alloca`), large local arrays and their
//! zero fill, against gcc and in the IR text.

mod common;

use common::interp::Interp;
use common::*;
use pathwise_ir::{InstKind, Type};

fn allocas(f: &pathwise_ir::FuncData) -> Vec<Type> {
    insts(f)
        .filter_map(|i| match i.kind {
            InstKind::Alloca { elem, .. } => Some(elem),
            _ => None,
        })
        .collect()
}

#[test]
fn a_vla_is_an_alloca_of_its_evaluated_length() {
    let p = program("int f(int n) {\n  int a[n];\n  n = 1;\n  a[0] = 7;\n  return a[0] + sizeof a;\n}\n");
    let f = func(&p, "f");
    let text = print(&p, f);
    assert_eq!(allocas(f), vec![Type::I32], "{text}");
    // The length is kept in a slot of its own; `a` holds the address.
    let names: Vec<&str> = f.locals.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, vec!["n", "a.len", "a"], "{text}");
    assert!(text.contains(" = alloca i32, %"), "{text}");
    // `sizeof a` is 4 * the length at the declaration, not at the use.
    let mut it = Interp::new(&p);
    assert_eq!(it.call_by_name("f", &[5]), Some(27));
}

/// Each `long tN(void)` is run by gcc and by the test interpreter.
const CASES: &str = r#"
static int sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
static int vla_sum(int n) { int a[n]; for (int i = 0; i < n; i++) a[i] = i * i; return sum(a, n); }
long t0(void) { return vla_sum(5) + vla_sum(1) * 1000; }
long t1(void) { int n = 3; int m[n][4]; for (int i = 0; i < n; i++) for (int j = 0; j < 4; j++) m[i][j] = i * 10 + j; return m[2][3] + m[1][0] * 100 + sizeof m * 10000 + sizeof m[1] * 1000000; }
long t2(void) { int n = 6; long s = sizeof(int[n]) + sizeof(char[n + 1]) * 100; n = 2; return s; }
long t3(void) { long s = 0; for (int i = 1; i <= 3; i++) { int a[i]; a[i - 1] = i; s = s * 10 + a[i - 1] + sizeof a; } return s; }
long t4(void) { int n = 4; int a[n]; typeof(a) b; n = 9; b[3] = 5; a[3] = 6; return sizeof b + b[3] * 10 + a[3] * 100; }
long t5(void) { unsigned char k = 3; char s[k + 1]; s[0] = 'a'; s[1] = 'b'; s[2] = 0; return sizeof(s) * 1000 + s[1]; }
long t6(void) { int big[100000] = {1, 2, [99998] = 3}; return big[0] + big[1] * 10 + big[99998] * 100 + big[99999] + big[50000] + sizeof(big); }
long t7(void) { long s = 0; for (int i = 0; i < 3; i++) { int z[5000] = {i}; s = s * 10 + z[0] + z[7]; z[7] = 9; } return s; }
long t8(void) { static int counter; int big[1 << 20]; big[(1 << 20) - 1] = 4; counter++; return big[(1 << 20) - 1] + counter; }
long t9(void) { int n = 2; int *p[n]; int x = 3, y = 4; p[0] = &x; p[1] = &y; return *p[0] * 10 + *p[1] + sizeof p / sizeof p[0] * 100; }
static long grid(int rows, int cols) { int m[rows][cols]; for (int i = 0; i < rows; i++) for (int j = 0; j < cols; j++) m[i][j] = i * cols + j; rows = 1; cols = 1; return m[2][3] * 1000 + sizeof m * 10 + sizeof m[1]; }
long t10(void) { return grid(3, 5); }
long t11(void) { int n = 3; short b[4][n]; for (int i = 0; i < 4; i++) for (int j = 0; j < n; j++) b[i][j] = i - j; return b[3][0] * 100 + sizeof b + (&b[3][0] - &b[0][0]) * 10000; }
long t12(void) { int r = 2, c = 3, d = 4; char cube[r][c][d]; cube[1][2][3] = 7; long s = &cube[1][2][3] - &cube[0][0][0]; return s * 100 + cube[1][2][3] + sizeof cube[1] * 10000 + sizeof(cube[0][1]) * 1000000; }
long t13(void) { int c = 4; int m[3][c]; int (*row)[c] = m; row++; row[0][1] = 9; return m[1][1] + (row - m) * 10 + sizeof *row * 100 + sizeof(int[c][2]) * 10000; }
long t14(void) { int n = 2; struct { int a; char b; } s[n][n + 1]; s[1][2].a = 5; s[1][2].b = 6; return s[1][2].a * 10 + s[1][2].b + sizeof s * 100; }
long t15(void) { int n = 3; int m[n][n]; typeof(m) w; n = 7; w[2][2] = 4; return sizeof w + w[2][2] * 1000; }
static long psum(int n, int m, int a[n][m]) { long s = 0; for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) s += a[i][j] * (i + 1); return s * 100 + sizeof a[0]; }
long t16(void) { int g[2][3] = {{1, 2, 3}, {4, 5, 6}}; return psum(2, 3, g); }
static long prow(int n, int (*r)[n], int k) { r += k; n = 100; return r[0][1] * 1000 + sizeof *r + (r[1] - r[0]); }
long t17(void) { int g[4][4] = {{0}, {0, 7}, {0, 8}}; return prow(4, g, 2); }
static long p3(int a, int b, int c, char x[a][b][c]) { return x[1][1][2] + (&x[1][1][2] - &x[0][0][0]) * 100 + sizeof x[1] * 10000; }
long t18(void) { char cube[2][3][4]; cube[1][1][2] = 9; return p3(2, 3, 4, cube); }
static long pstar(int n, int a[][*]);
static long pstar(int n, int a[][n]) { return a[1][0] + sizeof a[0] * 10; }
long t19(void) { int g[2][5] = {{1}, {2}}; return pstar(5, g); }
"#;

const N_CASES: usize = 20;

#[test]
fn vlas_and_large_arrays_compute_what_gcc_computes() {
    let p = assert_cases_match_gcc(CASES, N_CASES);
    // The large initialized arrays are zeroed storage, not 100,000 stores.
    let t6 = func(&p, "t6");
    assert_eq!(allocas(t6), vec![Type::I32]);
    assert!(insts(t6).count() < 100, "{}", print(&p, t6));
    // A small one keeps its explicit zero fill.
    let p = program("int f(void) { int a[8] = {1}; return a[7]; }");
    assert!(allocas(func(&p, "f")).is_empty());
}

/// `name: diagnostic` of each unsupported function.
fn unsupported(src: &str) -> Vec<String> {
    compile(src).unsupported.iter().map(|u| format!("{}: {}", u.name, u.diagnostic)).collect()
}

#[test]
fn unsupported_vla_forms_are_located() {
    assert_eq!(
        unsupported("int f(int n, int (**p)[n]) { return 0; }\nint g(void) { return 1; }\n"),
        vec!["f: test.c:1:21: error: unsupported: this parameter of variably modified type"]
    );
    // A signature that cannot be represented leaves no declaration behind.
    let c = compile("int f(int n, int (**p)[n]) { return 0; }\n");
    assert!(c.program.func_by_name("f").is_none());
    let c = compile("int n = 3;\nint a[n];\nint g(void) { return 1; }\n");
    let globals: Vec<String> = c.unsupported_globals.iter().map(|u| u.diagnostic.to_string()).collect();
    assert_eq!(globals, vec!["test.c:2:5: error: unsupported: variable-length arrays"]);
    let e = compile_err("int f(int n) {\n  int a[n] = {0};\n  return a[0];\n}\n");
    assert_eq!(e, "test.c:2:7: error: variable-sized object may not be initialized");
}
