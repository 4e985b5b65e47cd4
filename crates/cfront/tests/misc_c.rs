//! Everyday C that whole programs use: `switch` on characters (and GNU case
//! ranges), nested conditionals, the comma operator, compound literals,
//! enumeration constants; and the located errors for undeclared names.

mod common;

use common::interp::Interp;
use common::*;
use pathwise_ir::{CmpOp, InstKind, Operand, Type};

/// Each `long tN(void)` is run by gcc and by the test interpreter.
const CASES: &str = r#"
enum color { RED, GREEN = 5, BLUE };
typedef enum { A1 = -2, A2, A3 = 10 } anon_t;
int g_by_enum[BLUE] = {[GREEN] = GREEN};
long t0(void) { char c = 'b'; switch (c) { case 'a': return 1; case 'b': return 2; case -1: return 3; default: return 4; } }
long t1(void) { signed char c = -1; switch (c) { case 'a': return 1; case -1: return 3; case 255: return 5; } return 9; }
long t2(void) { unsigned char c = 255; switch (c) { case -1: return 3; case 255: return 5; } return 9; }
long t3(void) { int x = 7; return x > 5 ? x > 6 ? 1 : 2 : x < 0 ? 3 : 4; }
long t4(void) { int a = 1, b = 2, c; c = (a++, b++, a + b); return c * 100 + a * 10 + b; }
long t5(void) { int x = (int){7}; long l = (long){x + 1}; int *p = &(int){3}; *p += 1; return x * 100 + l * 10 + *p; }
long t6(void) { enum color c = BLUE; anon_t t = A2; return c * 100 + t + A3 * 1000 + GREEN; }
long t7(void) { int s = 0; for (int i = 0, j = 10; i < j; i++, j--) s += i * j; return s; }
long t8(void) { int *p = (int[]){1, 2, 3}; return p[0] + p[2] * 10 + sizeof((int[]){4, 5}) * 100; }
long t9(void) { enum color c = GREEN; switch (c) { case RED: return 1; case GREEN: return 2; case BLUE: return 3; } return 0; }
long t10(void) { int a[BLUE]; return sizeof a / sizeof a[0] + g_by_enum[GREEN] * 10; }
long t11(void) { long s = 0; for (int i = 0; i < 3; i++) { int *q = (int[2]){i}; s = s * 100 + q[0] * 10 + q[1]; q[1] = 9; } return s; }
long t12(void) { int a = 0, b = 3, c = 4, n = 0; for (int i = 0; i < 4; i++, a = i & 1, b--) if (a ? b > 1 ? c : 0 : b) n += i; return n; }
long t13(void) { char s[] = "a-Z"; int n = 0; for (int i = 0; s[i]; i++) switch (s[i]) { case 'a' ... 'z': n += 1; break; case '-': n += 10; break; default: n += 100; } return n; }
"#;

const N_CASES: usize = 14;

#[test]
fn everyday_c_computes_what_gcc_computes() {
    assert_cases_match_gcc(CASES, N_CASES);
}

#[test]
fn switch_on_a_char_compares_the_promoted_value() {
    let p = program(
        "int f(char c) {\n  switch (c) {\n  case 'a': return 1;\n  case '\\xff': return 2;\n  }\n  return 0;\n}\n",
    );
    let f = func(&p, "f");
    let cases: Vec<u64> = insts(f)
        .filter_map(|i| match i.kind {
            InstKind::Cmp { op: CmpOp::Eq, ty: Type::I32, b: Operand::Const(_, v), .. } => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(cases, vec![97, 0xFFFF_FFFF], "{}", print(&p, f));
    assert_eq!(f.switches.len(), 1);
    assert_eq!(Interp::new(&p).call_by_name("f", &[0xFF]), Some(2));
}

#[test]
fn nested_conditionals_are_one_decision_per_condition() {
    let p = program("int f(int a, int b, int c) { return a ? b ? 1 : 2 : c ? 3 : 4; }");
    assert_eq!(branches(func(&p, "f")), 3);
}

#[test]
fn undeclared_names_are_located_errors() {
    let e = compile_err("int f(int x) {\n  return x + yy;\n}\nint g(void) {\n  return h(2);\n}\n");
    assert_eq!(
        e,
        "test.c:2:14: error: use of undeclared identifier `yy`\n\
         test.c:5:10: error: call to undeclared function `h` (C99 has no implicit declarations)"
    );
}

#[test]
fn case_ranges_are_one_decision_and_constant_switches_none() {
    let src = "int g(int x) {\n  switch (x) {\n  case 1 ... 3: return 1;\n  case 9 ... 7: return 2;\n  case 5: return 3;\n  }\n  return 0;\n}\n\
               int h(void) { switch (3) { case 1: return 5; case 2 ... 4: return 1; } return 0; }\n";
    let p = program(src);
    let g = func(&p, "g");
    // The empty range `9 ... 7` selects nothing and costs no decision.
    assert_eq!((branches(g), g.switches.len(), g.switches[0].len()), (2, 1, 2), "{}", print(&p, g));
    assert!(insts(g).any(|i| matches!(i.kind, InstKind::Cmp { op: CmpOp::Ule, .. })));
    let mut it = Interp::new(&p);
    let got: Vec<u64> = (0..10).map(|x| it.call_by_name("g", &[x]).unwrap()).collect();
    assert_eq!(got, vec![0, 1, 1, 1, 0, 3, 0, 0, 0, 0]);
    let h = func(&p, "h");
    assert_eq!((branches(h), h.switches.len()), (0, 0), "{}", print(&p, h));
    assert_eq!(it.call_by_name("h", &[]), Some(1));
}
