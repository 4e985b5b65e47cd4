//! `parse_program(&p.to_string()) == p` for hand-built and generated programs.

mod common;

use common::{parse, program};
use pathwise_ir::*;

fn sv(name: &str, c: &str, ty: Type, signed: bool, shape: Shape) -> SrcVar {
    SrcVar { name: name.into(), c_scalar: c.into(), scalar: IntTy { ty, signed }, shape, cty: None }
}

fn at(line: u32, col: u32) -> Loc {
    Loc { file: 0, line, col }
}

fn inst(result: Option<u32>, kind: InstKind, loc: Loc) -> Inst {
    Inst { result: result.map(Reg), kind, loc }
}

fn r(n: u32) -> Operand {
    Operand::Reg(Reg(n))
}

fn c(t: Type, v: u64) -> Operand {
    Operand::Const(t, v)
}

/// `int sum(int *t, int n)`: a loop over an array, every instruction kind.
fn sum_program() -> Program {
    let sum = FuncData {
        name: "sum".into(),
        params: vec![
            Param { reg: Reg(0), ty: Type::Ptr, src: sv("t", "int", Type::I32, true, Shape::Pointer) },
            Param { reg: Reg(1), ty: Type::I32, src: sv("n", "int", Type::I32, true, Shape::Scalar) },
        ],
        ret: Some(Type::I32),
        ret_src: Some(sv("", "int", Type::I32, true, Shape::Scalar)),
        locals: vec![
            LocalData { name: "i".into(), elem: Type::I32, count: 1 },
            LocalData { name: "s".into(), elem: Type::I32, count: 1 },
        ],
        blocks: vec![sum_bb0(), sum_bb1(), sum_bb2(), sum_bb3()],
        iteration_starts: vec![Block(1)],
        switches: vec![vec![Block(1)]],
        num_regs: 18,
        is_static: false,
        cty: None,
        loc: at(1, 5),
    };
    Program { files: vec!["sum.c".into()], globals: vec![], funcs: vec![sum], structs: vec![] }
}

/// `sum`, entry: `i = 0; s = 0;`.
fn sum_bb0() -> BlockData {
    BlockData {
        insts: vec![
            inst(Some(2), InstKind::AddrLocal { local: Local(0) }, at(2, 7)),
            inst(Some(3), InstKind::AddrLocal { local: Local(1) }, at(2, 14)),
            inst(None, InstKind::Store { ty: Type::I32, ptr: r(2), value: c(Type::I32, 0) }, at(3, 9)),
            inst(None, InstKind::Store { ty: Type::I32, ptr: r(3), value: c(Type::I32, 0) }, at(3, 16)),
        ],
        term: Terminator::Jump(Block(1)),
        term_loc: Loc::NONE,
    }
}

/// `sum`, header: `i < n`.
fn sum_bb1() -> BlockData {
    BlockData {
        insts: vec![
            inst(Some(4), InstKind::Load { ty: Type::I32, ptr: r(2) }, at(4, 10)),
            inst(Some(5), InstKind::Cmp { op: CmpOp::Slt, ty: Type::I32, a: r(4), b: r(1) }, at(4, 12)),
        ],
        term: Terminator::Branch { cond: r(5), then_block: Block(2), else_block: Block(3) },
        term_loc: at(4, 12),
    }
}

/// `sum`, body: `s += t[i]; i++` (with -1 and -2 constants).
fn sum_bb2() -> BlockData {
    BlockData {
        insts: vec![
            inst(Some(6), InstKind::Cast { op: CastOp::SExt, from: Type::I32, to: Type::I64, a: r(4) }, at(5, 9)),
            inst(
                Some(7),
                InstKind::Bin { op: BinOp::Mul, ty: Type::I64, a: r(6), b: c(Type::I64, 4), nsw: false },
                at(5, 9),
            ),
            inst(Some(8), InstKind::PtrAdd { base: r(0), offset: r(7) }, at(5, 9)),
            inst(Some(9), InstKind::Load { ty: Type::I32, ptr: r(8) }, at(5, 9)),
            inst(Some(10), InstKind::Load { ty: Type::I32, ptr: r(3) }, at(5, 7)),
            inst(Some(11), InstKind::Bin { op: BinOp::Add, ty: Type::I32, a: r(10), b: r(9), nsw: true }, at(5, 7)),
            inst(None, InstKind::Store { ty: Type::I32, ptr: r(3), value: r(11) }, at(5, 7)),
            inst(
                Some(12),
                InstKind::Bin { op: BinOp::Add, ty: Type::I32, a: r(4), b: c(Type::I32, u32::MAX as u64), nsw: false },
                at(4, 20),
            ),
            inst(
                Some(13),
                InstKind::Bin { op: BinOp::Sub, ty: Type::I32, a: r(12), b: c(Type::I32, 0xffff_fffe), nsw: false },
                at(4, 20),
            ),
            inst(None, InstKind::Store { ty: Type::I32, ptr: r(2), value: r(13) }, at(4, 20)),
        ],
        term: Terminator::Jump(Block(1)),
        term_loc: Loc::NONE,
    }
}

/// `sum`, exit: `return s;` plus pointer/width conversions.
fn sum_bb3() -> BlockData {
    BlockData {
        insts: vec![
            inst(Some(14), InstKind::Load { ty: Type::I32, ptr: r(3) }, at(6, 10)),
            inst(Some(15), InstKind::PtrDiff { a: r(0), b: r(0) }, Loc::NONE),
            inst(None, InstKind::CheckIndex { index: r(15), len: 8, end: false }, at(6, 10)),
            inst(None, InstKind::CheckIndex { index: c(Type::I64, 3), len: 4, end: true }, Loc::NONE),
            inst(Some(16), InstKind::Cast { op: CastOp::Trunc, from: Type::I64, to: Type::I8, a: r(15) }, Loc::NONE),
            inst(Some(17), InstKind::Cast { op: CastOp::ZExt, from: Type::I8, to: Type::I16, a: r(16) }, Loc::NONE),
        ],
        term: Terminator::Return(Some(r(14))),
        term_loc: at(6, 3),
    }
}

/// Globals, declarations, calls (void and non-void), statics, odd names.
fn globals_and_calls() -> Program {
    let abort = FuncData {
        name: "abort".into(),
        params: vec![],
        ret: None,
        ret_src: None,
        locals: vec![],
        blocks: vec![],
        iteration_starts: vec![],
        switches: vec![],
        num_regs: 0,
        is_static: false,
        cty: None,
        loc: Loc::NONE,
    };
    let get = FuncData {
        name: "get value".into(),
        params: vec![Param {
            reg: Reg(0),
            ty: Type::I8,
            src: sv("c", "unsigned char", Type::I8, false, Shape::Scalar),
        }],
        ret: Some(Type::I64),
        ret_src: Some(sv("", "long", Type::I64, true, Shape::Scalar)),
        locals: vec![],
        blocks: vec![],
        iteration_starts: vec![],
        switches: vec![],
        num_regs: 1,
        is_static: true,
        cty: None,
        loc: Loc { file: 1, line: 3, col: 12 },
    };
    let main = FuncData {
        name: "main".into(),
        params: vec![],
        ret: Some(Type::I32),
        ret_src: None,
        locals: vec![LocalData { name: "buf[8]".into(), elem: Type::I8, count: 8 }],
        iteration_starts: vec![],
        switches: vec![],
        blocks: vec![
            BlockData {
                insts: vec![
                    inst(Some(0), InstKind::AddrGlobal { global: GlobalId(0) }, at(9, 3)),
                    inst(Some(1), InstKind::Load { ty: Type::I32, ptr: r(0) }, at(9, 3)),
                    inst(Some(2), InstKind::Call { func: FuncId(1), args: vec![c(Type::I8, 0x80)] }, at(10, 3)),
                    inst(
                        Some(3),
                        InstKind::Cmp { op: CmpOp::Eq, ty: Type::Ptr, a: r(0), b: c(Type::Ptr, 0) },
                        at(11, 3),
                    ),
                    inst(Some(4), InstKind::AddrGlobal { global: GlobalId(1) }, Loc::NONE),
                ],
                term: Terminator::Branch { cond: r(3), then_block: Block(1), else_block: Block(2) },
                term_loc: at(11, 7),
            },
            BlockData {
                insts: vec![inst(None, InstKind::Call { func: FuncId(0), args: vec![] }, at(12, 5))],
                term: Terminator::Unreachable,
                term_loc: Loc::NONE,
            },
            BlockData { insts: vec![], term: Terminator::Return(Some(c(Type::I32, 1u64 << 31))), term_loc: Loc::NONE },
        ],
        num_regs: 40,
        is_static: false,
        cty: None,
        loc: Loc { file: 1, line: 8, col: 5 },
    };
    Program {
        files: vec!["a \"quoted\" dir\\main.c".into(), "lib.h".into()],
        globals: vec![
            GlobalData {
                name: "g".into(),
                elem: Type::I32,
                count: 10,
                init: vec![1, 0xffff_fffe, 3],
                src: Some(sv("g", "int", Type::I32, true, Shape::Array(10))),
                is_const: true,
                relocs: vec![],
            },
            // `int *tmp[2] = { &g[2], 0 }`-like: a pointer into `g` at byte 0.
            GlobalData {
                name: "tmp.1".into(),
                elem: Type::Ptr,
                count: 2,
                init: vec![],
                src: None,
                is_const: false,
                relocs: vec![GlobalReloc { offset: 0, target: RelocTarget::Global(GlobalId(0)), addend: 8 }],
            },
            GlobalData {
                name: "flags".into(),
                elem: Type::I1,
                count: 2,
                init: vec![1, 0],
                src: Some(sv("flags", "_Bool", Type::I1, false, Shape::Array(2))),
                is_const: false,
                relocs: vec![],
            },
        ],
        funcs: vec![abort, get, main],
        structs: vec![],
    }
}

fn check_roundtrip(p: &Program) {
    let text = p.to_string();
    let q = parse(&text);
    assert_eq!(&q, p, "round trip changed the program; text:\n{text}");
    // Printing is a function of the program, so the text is stable too.
    assert_eq!(q.to_string(), text);
}

#[test]
fn empty_program_roundtrips() {
    check_roundtrip(&Program::default());
    assert_eq!(Program::default().to_string(), "");
}

#[test]
fn hand_built_programs_roundtrip() {
    check_roundtrip(&sum_program());
    check_roundtrip(&globals_and_calls());
}

#[test]
fn hand_built_programs_verify() {
    assert_eq!(verify(&sum_program()), Ok(()));
    assert_eq!(verify(&globals_and_calls()), Ok(()));
}

#[test]
fn generated_programs_roundtrip() {
    for seed in 0..3000 {
        let p = program(seed);
        let text = p.to_string();
        let q = match parse_program(&text) {
            Ok(q) => q,
            Err(e) => panic!("seed {seed}: {e}\n{text}"),
        };
        assert_eq!(q, p, "seed {seed}:\n{text}");
    }
}

#[test]
fn print_function_matches_program_text() {
    let p = globals_and_calls();
    let whole = p.to_string();
    for i in 0..p.funcs.len() {
        let f = print_function(&p, FuncId(i as u32));
        assert!(whole.contains(&f), "{f}");
    }
    assert_eq!(print_function(&p, FuncId(0)), "declare @abort() -> void\n");
}

#[test]
fn printed_text_is_readable() {
    let text = globals_and_calls().to_string();
    let expected = r#"file 0 "a \"quoted\" dir\\main.c"
file 1 "lib.h"

global @g: i32 x 10 = [1, -2, 3] const src("g", "int", i32 signed, array 10)
global @tmp.1: ptr x 2 relocs [(0, @g, 8)]
global @flags: i1 x 2 = [1, 0] src("flags", "_Bool", i1 unsigned, array 2)

declare @abort() -> void

declare @"get value"(%0: i8 src("c", "unsigned char", i8 unsigned, scalar)) -> i64 src("", "long", i64 signed, scalar) static @ 1:3:12

func @main() -> i32 num_regs 40 @ 1:8:5 {
  local $0 "buf[8]": i8 x 8
bb0:
  %0 = addr @g                          @ 0:9:3
  %1 = load i32 %0                      @ 0:9:3
  %2 = call @"get value"(-128:i8)       @ 0:10:3
  %3 = cmp eq ptr %0, 0:ptr             @ 0:11:3
  %4 = addr @tmp.1
  br %3, bb1, bb2                       @ 0:11:7
bb1:
  call @abort()                         @ 0:12:5
  unreachable
bb2:
  ret -2147483648:i32
}
"#;
    assert_eq!(text, expected);
}

#[test]
fn duplicate_and_dangling_references_use_indices() {
    let mut p = globals_and_calls();
    // A second `abort`: calls to it must print as `@#3` to stay exact.
    let mut dup = p.funcs[0].clone();
    dup.is_static = true;
    p.funcs.push(dup);
    p.funcs[2].blocks[1].insts[0].kind = InstKind::Call { func: FuncId(3), args: vec![] };
    p.funcs[2].blocks[0].insts[4].kind = InstKind::AddrGlobal { global: GlobalId(77) };
    let text = p.to_string();
    assert!(text.contains("call @#3()"), "{text}");
    assert!(text.contains("addr @#77"), "{text}");
    check_roundtrip(&p);
}

/// Structures, unions and C types of variables print and parse back.
#[test]
fn structs_and_c_types_roundtrip() {
    let text = r#"file 0 "list.c"

struct 0 "struct node" size 16 align 8 { "data": int("int", i32 signed), "next": ptr(struct 0) @ 8 }
"#;
    // A field without its offset is a syntax error.
    assert!(parse_program(text).is_err());
    let text = r#"file 0 "list.c"

struct 0 "struct node" size 16 align 8 { "data": int("int", i32 signed) @ 0, "next": ptr(struct 0) @ 8 }
union 1 "union u" size 8 align 8 { "c": array(int("char", i8 signed), 3) @ 0, "p": ptr(void) @ 0 }
struct 2 "empty_t" size 0 align 1 { }

global @head: ptr x 1 src("head", "unsigned char", i8 unsigned, pointer, type(ptr(struct 0)))

declare @len(%0: ptr src("l", "unsigned char", i8 unsigned, heap, type(ptr(struct 0))), %1: ptr src("u", "", i8 unsigned, heap, type(ptr(ptr(struct 1))))) -> ptr src("", "", i8 unsigned, heap, type(ptr(struct 0)))
"#;
    let p = parse(text);
    assert_eq!(p.to_string(), text);
    assert_eq!(p.structs.len(), 3);
    assert!(p.structs[1].is_union);
    assert_eq!(p.structs[0].fields[1].ty, CType::Ptr(Box::new(CType::Struct(StructId(0)))));
    assert_eq!(p.funcs[0].params[1].src.shape, Shape::Heap);
    assert_eq!(verify(&p), Ok(()));
    assert_eq!(parse(&p.to_string()), p);
}

/// Function pointers: `addrfn`, `callptr` with and without a result, a
/// relocation to a function, and a parameter of shape `function`.
#[test]
fn function_pointers_roundtrip() {
    let text = r#"file 0 "ops.c"

global @ops: ptr x 2 relocs [(0, fn @neg, 0), (8, fn @twice, 0)] const

func @neg(%0: i32 src("x", "int", i32 signed, scalar)) -> i32 {
bb0:
  %1 = sub nsw i32 0:i32, %0
  ret %1
}

func @twice(%0: i32 src("x", "int", i32 signed, scalar)) -> i32 {
bb0:
  %1 = add nsw i32 %0, %0
  ret %1
}

func @apply(%0: ptr src("f", "int (*)(int)", ptr unsigned, function, type(ptr(func("int", "int")))), %1: i32 src("v", "int", i32 signed, scalar)) -> i32 {
bb0:
  %2 = callptr %0(%1) -> i32                @ 0:9:10
  %3 = addrfn @neg
  %4 = callptr %3(%2) -> i32
  callptr %3(%4)
  ret %4
}
"#;
    let p = parse(text);
    assert!(pathwise_ir::verify(&p).is_ok(), "{:?}", pathwise_ir::verify(&p));
    assert_eq!(p.globals[0].relocs[1].target, RelocTarget::Func(FuncId(1)));
    assert_eq!(
        p.funcs[2].params[0].src.cty,
        Some(CType::Ptr(Box::new(CType::Func { ret: "int".into(), params: "int".into() })))
    );
    assert_eq!(
        p.funcs[2].blocks[0].insts[2].kind,
        InstKind::CallPtr { callee: Operand::Reg(Reg(3)), args: vec![Operand::Reg(Reg(2))], ret: Some(Type::I32) }
    );
    check_roundtrip(&p);
}
