//! Parsing hand-written IR text, error reporting, and robustness against
//! truncated or garbled input.

mod common;

use common::{parse, program, Rng};
use pathwise_ir::*;

/// The example from the `printer` module documentation.
const MAX_EXAMPLE: &str = r#"file 0 "merge.c"

global @g: i32 x 10 = [1, -2, 3] const src("g", "int", i32 signed, array 10)

declare @abort() -> void

func @max(%0: i32 src("a", "int", i32 signed, scalar), %1: i32) -> i32 static num_regs 4 @ 0:3:5 {
  local $0 "r": i32 x 1
bb0:
  %2 = cmp sgt i32 %0, %1               @ 0:4:9
  br %2, bb1, bb2                       @ 0:4:9
bb1:
  ret %0
bb2:
  call @abort()
  unreachable
}
"#;

#[test]
fn doc_example_parses_and_verifies() {
    let p = parse(MAX_EXAMPLE);
    assert_eq!(verify(&p), Ok(()));
    assert_eq!(p.files, vec!["merge.c".to_string()]);
    let g = &p.globals[0];
    assert_eq!((g.elem, g.count, g.is_const), (Type::I32, 10, true));
    assert_eq!(g.init, vec![1, 0xffff_fffe, 3]);
    assert_eq!(g.src.as_ref().unwrap().shape, Shape::Array(10));
    assert!(p.funcs[0].is_declaration());
    let f = p.func(p.func_by_name("max").unwrap());
    assert!(f.is_static);
    assert_eq!(f.num_regs, 4);
    assert_eq!(f.loc, Loc { file: 0, line: 3, col: 5 });
    assert_eq!(f.params[0].src.name, "a");
    // Omitted `src(...)` gives the default description.
    assert_eq!(f.params[1].src, printer::default_param_src(Type::I32));
    assert_eq!(f.locals[0], LocalData { name: "r".into(), elem: Type::I32, count: 1 });
    assert_eq!(
        f.blocks[0].insts[0],
        Inst {
            result: Some(Reg(2)),
            kind: InstKind::Cmp { op: CmpOp::Sgt, ty: Type::I32, a: Operand::Reg(Reg(0)), b: Operand::Reg(Reg(1)) },
            loc: Loc { file: 0, line: 4, col: 9 },
        }
    );
    assert_eq!(
        f.blocks[0].term,
        Terminator::Branch { cond: Operand::Reg(Reg(2)), then_block: Block(1), else_block: Block(2) }
    );
    assert_eq!(f.blocks[2].insts[0].kind, InstKind::Call { func: FuncId(0), args: vec![] });
    assert_eq!(f.blocks[2].term, Terminator::Unreachable);
}

#[test]
fn doc_example_is_printer_output() {
    assert_eq!(parse(MAX_EXAMPLE).to_string(), MAX_EXAMPLE);
}

#[test]
fn defaults_comments_forward_references_and_literals() {
    let text = r#"
; comments run to the end of the line
func @main() -> i64 {      ; num_regs is inferred
bb0:
  %0 = call @later(-1:i8)  ; functions may be used before being defined
  %1 = addr @buf           ; globals too
  %2 = sext i8 %0 to i64
  %3 = add i64 %2, -9223372036854775808:i64
  %4 = xor i64 %3, 18446744073709551615:i64
  ret %4
}
func @later(%0: i8) -> i8 {
  local $0 "x": i8          ; `x 1` is the default count
bb0:
  ret %0
}
global @buf: i8 x 4
"#;
    let p = parse(text);
    assert_eq!(verify(&p), Ok(()));
    let main = &p.funcs[0];
    assert_eq!(main.num_regs, 5);
    assert_eq!(
        main.blocks[0].insts[0].kind,
        InstKind::Call { func: FuncId(1), args: vec![Operand::Const(Type::I8, 0xff)] }
    );
    assert_eq!(main.blocks[0].insts[1].kind, InstKind::AddrGlobal { global: GlobalId(0) });
    assert_eq!(
        main.blocks[0].insts[3].kind,
        InstKind::Bin {
            op: BinOp::Add,
            ty: Type::I64,
            a: Operand::Reg(Reg(2)),
            b: Operand::Const(Type::I64, 1 << 63),
            nsw: false,
        }
    );
    assert_eq!(p.funcs[1].locals[0].count, 1);
    assert_eq!(p.funcs[1].num_regs, 1);
    assert_eq!(p.globals[0].count, 4);
}

#[test]
fn declaration_with_locals_and_unusual_names() {
    let text = r#"func @"odd name"(%3: ptr src("p", "char", i8 signed, pointer)) -> void src("", "", i1 signed, scalar) num_regs 9 {
  local $0 "a\tb\x01": i64 x 3
}
declare @#weird() -> void
"#;
    let err = parse_program(text).unwrap_err();
    // `@#N` refers to an index and cannot name a definition.
    assert_eq!((err.line, err.col), (4, 9), "{err}");
    let p = parse(&text[..text.find("declare").unwrap()]);
    let f = &p.funcs[0];
    assert!(f.is_declaration());
    assert_eq!(f.name, "odd name");
    assert_eq!(f.locals[0].name, "a\tb\u{1}");
    assert_eq!(f.num_regs, 9);
    assert_eq!(f.ret, None);
    assert!(f.ret_src.is_some());
}

/// Parse `text`, expecting an error at `line:col` whose message contains
/// `needle`.
fn expect_error(text: &str, line: u32, col: u32, needle: &str) {
    match parse_program(text) {
        Ok(p) => panic!("expected an error for:\n{text}\ngot:\n{p}"),
        Err(e) => {
            assert_eq!((e.line, e.col), (line, col), "wrong position for `{e}` in:\n{text}");
            assert!(e.message.contains(needle), "`{e}` does not mention `{needle}`");
            assert!(e.to_string().starts_with(&format!("{line}:{col}: ")));
        }
    }
}

#[test]
fn errors_have_positions() {
    expect_error("func @f() -> i32 {\nbb0:\n  ret %0 %1\n}", 3, 10, "block label");
    expect_error("func @f() -> void {\nbb0:\n  call @nope()\n  ret\n}", 3, 8, "unknown function @nope");
    expect_error("func @f() -> void {\nbb0:\n  %0 = addr @nope\n  ret\n}", 3, 13, "unknown global @nope");
    expect_error("func @f() -> void {\nbb1:\n  ret\n}", 2, 1, "bb0");
    expect_error("file 1 \"a.c\"", 1, 6, "file index 0");
    expect_error("file 0 \"a.c", 1, 8, "unterminated string");
    expect_error("file 0 \"a\\q\"", 1, 10, "escape");
    expect_error("file 0 \"a\\x8f\"", 1, 10, "ASCII");
    expect_error("global @g: i32 x 99999999999999999999", 1, 18, "too large");
    expect_error("global @g: i8 x 1 = [-129]", 1, 22, "does not fit");
    expect_error("global @g: ptr x 1 = [-1]", 1, 23, "negative");
    expect_error("global @g: i33 x 1", 1, 12, "type");
    expect_error("func @f() -> void {\nbb0:\n  %1 = frob i32 %0\n  ret\n}", 3, 8, "unknown instruction `frob`");
    expect_error("func @f() -> void {\nbb0:\n  %1 = add i32 %0, %0\n}", 4, 1, "no terminator");
    expect_error("func @f() -> void {\nbb0:\n  %1 = ret\n}", 3, 8, "terminator has no result");
    expect_error("func @f() -> void {\n  local $1 \"x\": i32\nbb0:\n  ret\n}", 2, 3, "local $0");
    expect_error("func @f() -> void {\nbb0:\n  %0 = cmp less i32 1:i32, 2:i32\n  ret\n}", 3, 12, "unknown comparison");
    expect_error("func @f(%0 i32) -> void", 1, 12, "`:`");
    expect_error("func @f() -> void {\nbb0:\n  ret @ 1:2\n}", 4, 1, "`:`");
    expect_error("%99999999999", 1, 1, "too large");
    expect_error("hello", 1, 1, "expected `file`");
    expect_error("func @f() -> void {\nbb0:\n  ret\n", 4, 1, "end of input");
    expect_error("file 0 \"a\" ?", 1, 12, "unexpected character");
    expect_error("func @f() - void", 1, 11, "`->`");
}

/// Every outcome is fine except a panic (which fails the test by itself).
fn parse_no_panic(text: &str) {
    if let Ok(p) = parse_program(text) {
        // Whatever parsed must print and re-parse to the same program.
        assert_eq!(parse_program(&p.to_string()).as_ref(), Ok(&p), "{text}");
    }
}

fn sample_texts() -> Vec<String> {
    let mut texts = vec![MAX_EXAMPLE.to_string()];
    texts.extend((0..25).map(|s| program(s).to_string()));
    texts
}

#[test]
fn truncated_texts_do_not_panic() {
    for text in sample_texts() {
        for (i, _) in text.char_indices() {
            parse_no_panic(&text[..i]);
        }
    }
}

#[test]
fn garbled_texts_do_not_panic() {
    let mut r = Rng::new(7);
    let junk: Vec<char> = "%$@#:,=-()[]{}\"\\;\n 0123456789abxz-é\u{0}\u{85}".chars().collect();
    for text in sample_texts() {
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..200 {
            let mut c = chars.clone();
            for _ in 0..1 + r.below(4) {
                let i = r.below(c.len().max(1) as u64) as usize;
                match r.below(3) {
                    0 if i < c.len() => c[i] = r.pick(&junk),
                    1 if i < c.len() => {
                        c.remove(i);
                    }
                    _ => c.insert(i.min(c.len()), r.pick(&junk)),
                }
            }
            parse_no_panic(&c.into_iter().collect::<String>());
        }
    }
}

#[test]
fn random_token_soup_does_not_panic() {
    let words = [
        "func",
        "declare",
        "global",
        "file",
        "local",
        "bb0",
        "bb1",
        "bb4294967296",
        "%0",
        "%1",
        "$0",
        "@f",
        "@#0",
        "@#9",
        "@",
        "@\"x\"",
        ":",
        ",",
        "=",
        "->",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "i32",
        "ptr",
        "void",
        "ret",
        "br",
        "jmp",
        "call",
        "add",
        "cmp",
        "slt",
        "zext",
        "to",
        "load",
        "store",
        "addr",
        "ptradd",
        "x",
        "1",
        "-1",
        "0",
        "18446744073709551616",
        "\"s\"",
        "src",
        "signed",
        "array",
        "static",
        "num_regs",
        "unreachable",
    ];
    let mut r = Rng::new(99);
    for _ in 0..5000 {
        let n = r.below(40);
        let text: Vec<&str> = (0..n).map(|_| r.pick(&words)).collect();
        parse_no_panic(&text.join(" "));
    }
}

#[test]
fn alloca_parses_prints_and_verifies() {
    let text = "func @vla(%0: i64) -> i32 {\nbb0:\n  %1 = alloca i32, %0                   @ 0:2:7\n  %2 = alloca i8, 16:i64\n  store i32 %1, 7:i32\n  %3 = load i32 %1\n  ret %3\n}\n";
    let p = parse(&format!("file 0 \"v.c\"\n\n{text}"));
    assert_eq!(verify(&p), Ok(()));
    let f = &p.funcs[0];
    assert_eq!(f.blocks[0].insts[0].kind, InstKind::Alloca { elem: Type::I32, count: Operand::Reg(Reg(0)) });
    assert_eq!(f.blocks[0].insts[1].kind, InstKind::Alloca { elem: Type::I8, count: Operand::Const(Type::I64, 16) });
    assert_eq!(print_function(&p, FuncId(0)), text);
    let e = parse_program("func @f() -> void {\nbb0:\n  %0 = alloca i32 4:i64\n  ret\n}\n").unwrap_err();
    assert_eq!(e.to_string(), "3:19: expected `,`, found integer 4");
}
