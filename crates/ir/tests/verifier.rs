//! Each verifier check, triggered by a small hand-written program.

mod common;

use common::parse;
use pathwise_ir::*;

const HEADER: &str = r#"file 0 "t.c"
global @g: i32 x 2 = [1, 2]
declare @ext(%0: i32, %1: ptr) -> i32
declare @sink(%0: i64) -> void
"#;

/// Verify `HEADER` plus `body`, returning the error messages.
fn errors(body: &str) -> Vec<String> {
    let p = parse(&format!("{HEADER}{body}"));
    match verify(&p) {
        Ok(()) => vec![],
        Err(es) => es.into_iter().map(|e| e.to_string()).collect(),
    }
}

/// Expect exactly one error, mentioning `needle`.
fn expect_one(body: &str, needle: &str) {
    let es = errors(body);
    assert_eq!(es.len(), 1, "expected one error mentioning `{needle}`, got {es:#?}\n{body}");
    assert!(es[0].contains(needle), "`{}` does not mention `{needle}`", es[0]);
}

const VALID: &str = r#"
func @f(%0: i32, %1: ptr) -> i32 @ 0:1:1 {
  local $0 "a": i32 x 4
bb0:
  %2 = addr $0
  %3 = addr @g
  %4 = cmp eq ptr %1, 0:ptr
  br %4, bb1, bb2
bb1:
  %5 = call @ext(%0, %3)
  %6 = sext i32 %5 to i64
  call @sink(%6)
  %7 = ptradd %2, %6
  %8 = ptrdiff %7, %2
  %9 = trunc i64 %8 to i8
  %10 = zext i8 %9 to i32
  store i32 %7, %10
  jmp bb2
bb2:
  %11 = load i32 %2
  %12 = cmp ult ptr %1, %1
  %13 = and i1 %12, 1:i1
  %14 = sext i32 %0 to i64
  %15 = alloca i16, %14
  %16 = load i16 %15
  ret %11
}
"#;

#[test]
fn valid_program_passes() {
    assert_eq!(errors(VALID), Vec::<String>::new());
}

#[test]
fn reg_types_follow_definitions() {
    let p = parse(&format!("{HEADER}{VALID}"));
    let f = &p.funcs[2];
    let t = reg_types(f);
    assert_eq!(t.len(), 17);
    assert_eq!(t[15], Some(Type::Ptr), "alloca gives a pointer");
    assert_eq!(t[0], Some(Type::I32));
    assert_eq!(t[1], Some(Type::Ptr));
    assert_eq!(t[4], Some(Type::I1));
    assert_eq!(t[5], None, "a call result is untyped without the program");
    assert_eq!(t[8], Some(Type::I64));
    assert_eq!(reg_types_in(&p, f)[5], Some(Type::I32));
}

fn func(body: &str) -> String {
    format!("func @f(%0: i32, %1: ptr) -> i32 {{\n{body}\n}}\n")
}

#[test]
fn cfg_and_register_checks() {
    expect_one(&func("bb0:\n jmp bb7"), "missing block bb7");
    expect_one(&func("bb0:\n br 1:i1, bb0, bb3"), "missing block bb3");
    expect_one("func @f() -> void num_regs 1 {\nbb0:\n %1 = add i32 1:i32, 2:i32\n ret\n}", "out of range");
    expect_one(&func("bb0:\n ret %5"), "undefined register %5");
    expect_one(&func("bb0:\n %2 = udiv nsw i32 1:i32, 2:i32\n ret %2"), "`nsw` on `udiv`");
    expect_one(&func("bb0:\n %0 = add i32 1:i32, 2:i32\n ret %0"), "defined more than once");
    expect_one(
        &func("bb0:\n %2 = add i32 1:i32, 2:i32\n %2 = add i32 1:i32, 2:i32\n ret %2"),
        "defined more than once",
    );
    expect_one("declare @d(%0: i32, %0: i32) -> void\n", "defined more than once");
}

#[test]
fn dominance_checks() {
    // Use before the definition in the same block.
    expect_one(&func("bb0:\n %3 = add i32 %2, 1:i32\n %2 = add i32 %0, 1:i32\n ret %3"), "not dominated");
    // Definition in one branch, use at the join.
    expect_one(
        &func("bb0:\n %2 = cmp eq i32 %0, 0:i32\n br %2, bb1, bb2\nbb1:\n %3 = add i32 %0, 1:i32\n jmp bb2\nbb2:\n ret %3"),
        "not dominated",
    );
    // A definition in a later block that dominates the use is fine: block
    // order is irrelevant.
    assert!(errors(&func("bb0:\n jmp bb2\nbb1:\n ret %3\nbb2:\n %3 = add i32 %0, 1:i32\n jmp bb1")).is_empty());
    // Uses in unreachable blocks are not checked.
    assert!(errors(&func(
        "bb0:\n ret %0\nbb1:\n %2 = add i32 %3, 1:i32\n jmp bb2\nbb2:\n %3 = add i32 %0, 1:i32\n ret %2"
    ))
    .is_empty());
}

#[test]
fn operand_type_checks() {
    let one = |inst: &str, needle: &str| expect_one(&func(&format!("bb0:\n {inst}\n ret %0")), needle);
    one("%2 = add i32 %0, 1:i64", "second operand has type i64, expected i32");
    one("%2 = add ptr %1, %1", "non-integer");
    one("%2 = cmp slt i32 %1, %0", "first operand has type ptr");
    one("%2 = cmp sgt ptr %1, %1", "signed comparison");
    one("%2 = zext i32 %0 to i16", "does not widen");
    one("%2 = sext i32 %0 to i32", "does not widen");
    one("%2 = trunc i32 %0 to i64", "does not narrow");
    one("%2 = zext i16 %0 to i64", "cast operand has type i32");
    one("%2 = zext i32 %0 to ptr", "non-integer");
    one("%2 = ptradd %0, 1:i64", "ptradd base");
    one("%2 = ptradd %1, 1:i32", "ptradd offset");
    one("%2 = ptrdiff %1, %0", "second ptrdiff operand");
    one("%2 = load i32 %0", "load address");
    one("%2 = alloca i32, %0", "alloca count has type i32, expected i64");
    one("alloca i32, 4:i64", "needs a result");
    one("store i32 %0, %0", "store address");
    one("store i64 %1, %0", "stored value has type i32, expected i64");
    one("%2 = addr $4", "missing local $4");
    one("%2 = addr @#9", "missing global");
    one("%2 = call @#9()", "missing function");
    one("%2 = call @ext(%0)", "1 arguments, expected 2");
    one("%2 = call @ext(%0, %0)", "argument #1");
    one("call @ext(%0, %1)", "needs a result register");
    one("%2 = call @sink(0:i64)", "cannot have a result");
    one("%2 = store i32 %1, %0", "cannot have a result");
    one("add i32 %0, %0", "needs a result");
    one("%2 = add i8 %0, 1:i8", "first operand has type i32");
}

#[test]
fn terminator_and_constant_checks() {
    expect_one(&func("bb0:\n br %0, bb0, bb0"), "branch condition has type i32, expected i1");
    expect_one(&func("bb0:\n ret %1"), "returned value has type ptr");
    expect_one(&func("bb0:\n ret"), "without a value");
    expect_one("func @v() -> void {\nbb0:\n ret 0:i32\n}\n", "void function");
    expect_one(&func("bb0:\n ret 4294967296:i32"), "does not fit i32");
    expect_one(&func("bb0:\n %2 = cmp eq ptr %1, 8:ptr\n ret %0"), "does not fit ptr");
    expect_one(&func("bb0:\n %2 = add i1 2:i1, 1:i1\n ret %0"), "does not fit i1");
}

#[test]
fn program_level_checks() {
    expect_one("global @h: i8 x 1 = [1, 2]\n", "2 initial values for 1 elements");
    expect_one("global @h: i8 x 2 = [256]\n", "does not fit i8");
    expect_one("global @h: ptr x 1 = [4]\n", "does not fit ptr");
    expect_one("global @g: i8 x 1\n", "global name @g");
    expect_one("declare @ext() -> void\n", "function name @ext");
    expect_one(&func("bb0:\n ret %0 @ 3:1:1"), "missing file 3");
}

#[test]
fn error_display_names_function_and_block() {
    let p = parse(&format!("{HEADER}{}", func("bb0:\n jmp bb1\nbb1:\n ret %1")));
    let es = verify(&p).unwrap_err();
    assert_eq!(es.len(), 1);
    assert_eq!(es[0].func, "f");
    assert_eq!(es[0].block, Some(Block(1)));
    assert_eq!(es[0].to_string(), "in @f, bb1: returned value has type ptr, expected i32");
}

#[test]
fn generated_programs_do_not_crash_the_verifier() {
    for seed in 0..2000 {
        let p = common::program(seed);
        if let Err(es) = verify(&p) {
            for e in es {
                let _ = e.to_string();
            }
        }
    }
}

#[test]
fn struct_and_c_type_checks() {
    let node = "struct 0 \"struct node\" size 16 align 8 { \"data\": int(\"int\", i32 signed) @ 0, \"next\": ptr(struct 0) @ 8 }\n";
    assert!(errors(node).is_empty(), "{:?}", errors(node));
    expect_one("struct 0 \"s\" size 4 align 4 { \"x\": int(\"long\", i64 signed) @ 0 }\n", "exceeds the size 4");
    expect_one("struct 0 \"s\" size 8 align 4 { \"x\": ptr(struct 3) @ 0 }\n", "refers to struct 3");
    expect_one("union 0 \"union u\" size 8 align 4 { \"x\": int(\"int\", i32 signed) @ 4 }\n", "not at offset 0");
    expect_one(
        "struct 0 \"s\" size 8 align 4 { \"a\": array(int(\"int\", i32 signed), 3) @ 0 }\n",
        "exceeds the size 8",
    );
    expect_one("declare @h(%0: ptr src(\"p\", \"int\", i32 signed, heap)) -> void\n", "a heap variable needs a C type");
    expect_one(
        "declare @h(%0: ptr src(\"p\", \"int\", i32 signed, heap, type(ptr(struct 1)))) -> void\n",
        "refers to struct 1",
    );
    let ok = format!("{node}declare @h(%0: ptr src(\"p\", \"\", i8 unsigned, heap, type(ptr(struct 0)))) -> void\n");
    assert!(errors(&ok).is_empty(), "{:?}", errors(&ok));
}

/// Floating operations: well-typed ones pass, each misuse is reported.
#[test]
fn floating_point_rules() {
    let ok = r#"
func @f(%0: i32, %1: f64) -> f32 {
bb0:
  %2 = sitofp i32 %0 to f64
  %3 = fadd f64 %2, %1
  %4 = fneg f64 %3
  %5 = fcmp une f64 %4, 4607182418800017408:f64
  %6 = fptrunc f64 %4 to f32
  %7 = fpext f32 %6 to f64
  %8 = fptoui f64 %7 to i8
  %9 = uitofp i8 %8 to f32
  br %5, bb1, bb1
bb1:
  ret %9
}
"#;
    assert_eq!(errors(ok), Vec::<String>::new());
    let body = |inst: &str| format!("func @f(%0: i32, %1: f64) -> void {{\nbb0:\n  {inst}\n  ret\n}}\n");
    expect_one(&body("%2 = fadd i32 %0, %0"), "non-floating type i32");
    expect_one(&body("%2 = fmul f64 %1, %0"), "second operand");
    expect_one(&body("%2 = fcmp olt f32 %1, 0:f32"), "first operand");
    expect_one(&body("%2 = cmp eq f64 %1, %1"), "use `fcmp`");
    expect_one(&body("%2 = fpext f64 %1 to f64"), "`fpext` from f64 to f64");
    expect_one(&body("%2 = fptosi f64 %1 to i1"), "`fptosi` from f64 to i1");
    expect_one(&body("%2 = sext i32 %0 to f64"), "non-integer");
}
