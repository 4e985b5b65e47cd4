//! Structural properties of the lowering that the engine relies on:
//! decisions, constant conditions, switch chains, slots, types, locations.

mod common;

use common::*;
use pathwise_ir::{BinOp, CastOp, CmpOp, InstKind, Loc, Operand, Shape, Terminator, Type};

fn cmp_ops(f: &pathwise_ir::FuncData) -> Vec<(CmpOp, Type)> {
    insts(f)
        .filter_map(|i| match &i.kind {
            InstKind::Cmp { op, ty, .. } => Some((*op, *ty)),
            _ => None,
        })
        .collect()
}

fn branch_locs(f: &pathwise_ir::FuncData) -> Vec<(u32, u32)> {
    let mut v: Vec<_> = f
        .blocks
        .iter()
        .filter(|b| matches!(b.term, Terminator::Branch { .. }))
        .map(|b| (b.term_loc.line, b.term_loc.col))
        .collect();
    v.sort();
    v
}

#[test]
fn and_or_conditions_give_one_decision_per_atom() {
    let p = program("int f(int a, int b, int c) {\n  if (a && b || c)\n    return 1;\n  return 0;\n}\n");
    let f = func(&p, "f");
    assert_eq!(branches(f), 3, "{}", print(&p, f));
    assert_eq!(branch_locs(f), vec![(2, 7), (2, 12), (2, 17)]);
}

#[test]
fn negation_and_ternary_conditions_are_decomposed() {
    let p = program("int f(int a, int b, int c) { if (!(a || b)) return 1; if (a ? b : c) return 2; return 0; }");
    assert_eq!(branches(func(&p, "f")), 5);
    // No negation instruction: `!` swaps the targets.
    assert!(cmp_ops(func(&p, "f")).iter().all(|(op, _)| *op == CmpOp::Ne));
}

#[test]
fn logical_operators_in_value_context_branch_through_a_slot() {
    let p = program("int f(int a, int b) { int r = a && b; return r + (a || b); }");
    let f = func(&p, "f");
    assert_eq!(branches(f), 4);
    let temps: Vec<_> = f.locals.iter().filter(|l| l.name.starts_with("tmp.")).collect();
    assert_eq!(temps.len(), 2);
    assert!(temps.iter().all(|l| l.elem == Type::I32 && l.count == 1));
}

#[test]
fn constant_conditions_are_jumps() {
    let p = program(
        "int f(int x) { while (1) { x++; if (x > 10) break; } for (;;) { if (x) return x; } }\n\
         int g(void) { do { } while (0); while (2 > 1 && sizeof(int) == 4) return 1; if (0) return 3; return 2; }\n",
    );
    assert_eq!(branches(func(&p, "f")), 2);
    let g = func(&p, "g");
    assert_eq!(branches(g), 0, "{}", print(&p, g));
    assert_eq!(g.blocks.len(), 1, "dead code and empty jumps are removed:\n{}", print(&p, g));
}

#[test]
fn switch_is_a_chain_of_case_decisions_in_source_order() {
    let src = "int f(int x) {\n  int r = 0;\n  switch (x) {\n  case 1: r = 10;\n  case 7: r += 1; break;\n  default: r = -1;\n  case 3: r = 3;\n  }\n  return r;\n}\n";
    let p = program(src);
    let f = func(&p, "f");
    assert_eq!(branches(f), 3, "{}", print(&p, f));
    // The comparisons are the switch's (line 3), as gcov counts them: a
    // label only compared against is not executed.
    assert_eq!(branch_locs(f), vec![(3, 3), (3, 3), (3, 3)]);
    let consts: Vec<u64> = insts(f)
        .filter_map(|i| match &i.kind {
            InstKind::Cmp { op: CmpOp::Eq, b: Operand::Const(Type::I32, v), .. } => Some(*v),
            _ => None,
        })
        .collect();
    assert_eq!(consts, vec![1, 7, 3]);
    let mut it = interp::Interp::new(&p);
    let r: Vec<i32> = [1, 7, 3, 5].iter().map(|x| it.call_by_name("f", &[*x]).unwrap() as i32).collect();
    assert_eq!(r, vec![11, 1, 3, 3]);
}

#[test]
fn usual_arithmetic_conversions_choose_the_comparison() {
    let p = program(
        "int f(unsigned u, int i) { return u < i; }\n\
         int g(long l, unsigned u) { return l < u; }\n\
         int h(unsigned char a, signed char b) { return a < b; }\n\
         int k(unsigned long a, long b) { return a >= b; }\n",
    );
    assert_eq!(cmp_ops(func(&p, "f")), vec![(CmpOp::Ult, Type::I32)]);
    assert_eq!(cmp_ops(func(&p, "g")), vec![(CmpOp::Slt, Type::I64)]);
    assert_eq!(cmp_ops(func(&p, "h")), vec![(CmpOp::Slt, Type::I32)]);
    assert_eq!(cmp_ops(func(&p, "k")), vec![(CmpOp::Uge, Type::I64)]);
    // The unsigned operand of g is zero-extended.
    assert!(insts(func(&p, "g"))
        .any(|i| matches!(i.kind, InstKind::Cast { op: CastOp::ZExt, from: Type::I32, to: Type::I64, .. })));
}

#[test]
fn integer_constants_take_their_c_types() {
    let p = program(
        "int a(int x) { return x < 0xFFFFFFFF; }\n\
         int b(int x) { return x < 2147483648; }\n\
         int c(int x) { return x < 2147483647; }\n\
         int d(int x) { return x < 4294967295u; }\n\
         int e(int x) { return x < 0x7FFFFFFFFFFFFFFF; }\n\
         int f(int x) { return x < 0xFFFFFFFFFFFFFFFF; }\n",
    );
    assert_eq!(cmp_ops(func(&p, "a")), vec![(CmpOp::Ult, Type::I32)], "0xFFFFFFFF is unsigned int");
    assert_eq!(cmp_ops(func(&p, "b")), vec![(CmpOp::Slt, Type::I64)], "2147483648 is long");
    assert_eq!(cmp_ops(func(&p, "c")), vec![(CmpOp::Slt, Type::I32)], "2147483647 is int");
    assert_eq!(cmp_ops(func(&p, "d")), vec![(CmpOp::Ult, Type::I32)]);
    assert_eq!(cmp_ops(func(&p, "e")), vec![(CmpOp::Slt, Type::I64)], "0x7FFF...F is long");
    assert_eq!(cmp_ops(func(&p, "f")), vec![(CmpOp::Ult, Type::I64)], "0xFFFF...F is unsigned long");
}

#[test]
fn division_and_shift_operations_follow_signedness() {
    let p = program(
        "int a(int x, int y) { return x / y + x % y; }\n\
         unsigned b(unsigned x, int y) { return x / y + x % y; }\n\
         int c(int x, long n) { return x >> n; }\n\
         unsigned d(unsigned x, int n) { return x >> n; }\n\
         long e(long x, char n) { return x << n; }\n",
    );
    let bins = |n: &str| -> Vec<(BinOp, Type)> {
        insts(func(&p, n))
            .filter_map(|i| match &i.kind {
                InstKind::Bin { op, ty, .. } => Some((*op, *ty)),
                _ => None,
            })
            .collect()
    };
    assert_eq!(bins("a"), vec![(BinOp::SDiv, Type::I32), (BinOp::SRem, Type::I32), (BinOp::Add, Type::I32)]);
    assert_eq!(bins("b"), vec![(BinOp::UDiv, Type::I32), (BinOp::URem, Type::I32), (BinOp::Add, Type::I32)]);
    // The shift has the promoted left operand's type; the count is truncated.
    assert_eq!(bins("c"), vec![(BinOp::AShr, Type::I32)]);
    assert!(insts(func(&p, "c"))
        .any(|i| matches!(i.kind, InstKind::Cast { op: CastOp::Trunc, from: Type::I64, to: Type::I32, .. })));
    assert_eq!(bins("d"), vec![(BinOp::LShr, Type::I32)]);
    assert_eq!(bins("e"), vec![(BinOp::Shl, Type::I64)]);
}

#[test]
fn pointer_arithmetic_is_in_bytes() {
    let p = program(
        "int *a(int *p, int i) { return p + i; }\n\
         long b(long *p, long *q) { return q - p; }\n\
         int c(int *p, int *q) { return p < q; }\n\
         int d(int *p) { if (p) return *p; return p == 0; }\n\
         char e(char *s, unsigned i) { return s[i]; }\n",
    );
    let a = func(&p, "a");
    let kinds: Vec<&InstKind> = insts(a).map(|i| &i.kind).collect();
    assert!(kinds.iter().any(|k| matches!(k, InstKind::Cast { op: CastOp::SExt, from: Type::I32, to: Type::I64, .. })));
    assert!(kinds
        .iter()
        .any(|k| matches!(k, InstKind::Bin { op: BinOp::Mul, ty: Type::I64, b: Operand::Const(Type::I64, 4), .. })));
    assert!(kinds.iter().any(|k| matches!(k, InstKind::PtrAdd { .. })));
    let b = func(&p, "b");
    assert!(insts(b).any(|i| matches!(i.kind, InstKind::PtrDiff { .. })));
    assert!(insts(b).any(|i| matches!(
        i.kind,
        InstKind::Bin { op: BinOp::SDiv, ty: Type::I64, b: Operand::Const(Type::I64, 8), .. }
    )));
    assert_eq!(cmp_ops(func(&p, "c")), vec![(CmpOp::Ult, Type::Ptr)]);
    let d = func(&p, "d");
    assert_eq!(cmp_ops(d), vec![(CmpOp::Ne, Type::Ptr), (CmpOp::Eq, Type::Ptr)]);
    assert!(insts(d).any(|i| matches!(i.kind, InstKind::Cmp { b: Operand::Const(Type::Ptr, 0), .. })));
    // Unsigned index: zero-extended, no multiplication for bytes.
    let e = func(&p, "e");
    assert!(insts(e).any(|i| matches!(i.kind, InstKind::Cast { op: CastOp::ZExt, from: Type::I32, to: Type::I64, .. })));
    assert!(!insts(e).any(|i| matches!(i.kind, InstKind::Bin { op: BinOp::Mul, .. })));
}

#[test]
fn parameters_are_registers_stored_into_named_slots() {
    let p = program("int f(int a, long b) { a = a + 1; return a + b; }");
    let f = func(&p, "f");
    assert_eq!(f.params.iter().map(|p| (p.reg.0, p.ty)).collect::<Vec<_>>(), vec![(0, Type::I32), (1, Type::I64)]);
    assert_eq!(f.locals.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), vec!["a", "b"]);
    let entry = &f.blocks[0].insts;
    assert!(matches!(entry[0].kind, InstKind::AddrLocal { .. }));
    assert!(matches!(entry[1].kind, InstKind::Store { ty: Type::I32, value: Operand::Reg(r), .. } if r.0 == 0));
    assert_eq!((entry[1].loc.line, entry[1].loc.col), (1, 11));
}

#[test]
fn parameter_src_vars_describe_c_types() {
    let p = program(
        "void f(unsigned char a, const int *p, int q[], char **argv, _Bool b, long long ll,\n\
                signed char sc, unsigned u, const unsigned short *us, int m[][4], void *v) {}\n\
         unsigned long g(void) { return 0; }\n\
         int *h(void) { return 0; }\n",
    );
    let f = func(&p, "f");
    let d: Vec<(&str, &str, Type, bool, Shape)> = f
        .params
        .iter()
        .map(|p| (p.src.name.as_str(), p.src.c_scalar.as_str(), p.src.scalar.ty, p.src.scalar.signed, p.src.shape))
        .collect();
    assert_eq!(
        d,
        vec![
            ("a", "unsigned char", Type::I8, false, Shape::Scalar),
            ("p", "int", Type::I32, true, Shape::Pointer),
            ("q", "int", Type::I32, true, Shape::Pointer),
            ("argv", "char *", Type::Ptr, false, Shape::Heap),
            ("b", "_Bool", Type::I8, false, Shape::Scalar),
            ("ll", "long long", Type::I64, true, Shape::Scalar),
            ("sc", "signed char", Type::I8, true, Shape::Scalar),
            ("u", "unsigned int", Type::I32, false, Shape::Scalar),
            ("us", "unsigned short", Type::I16, false, Shape::Pointer),
            ("m", "int", Type::I32, true, Shape::Pointer),
            ("v", "unsigned char", Type::I8, false, Shape::Pointer),
        ]
    );
    // A pointer to pointers is an input heap with its full C type.
    let char_t =
        pathwise_ir::CType::Int { c_name: "char".into(), ty: pathwise_ir::IntTy { ty: Type::I8, signed: true } };
    let pp = pathwise_ir::CType::Ptr(Box::new(pathwise_ir::CType::Ptr(Box::new(char_t))));
    assert_eq!(f.params[3].src.cty, Some(pp));
    assert_eq!(f.params[1].src.cty, None);
    assert!(f.ret.is_none() && f.ret_src.is_none());
    let g = func(&p, "g");
    let rs = g.ret_src.as_ref().unwrap();
    assert_eq!(
        (rs.name.as_str(), rs.c_scalar.as_str(), rs.shape, g.ret),
        ("", "unsigned long", Shape::Scalar, Some(Type::I64))
    );
    assert_eq!(func(&p, "h").ret_src.as_ref().unwrap().shape, Shape::Pointer);
}

#[test]
fn globals_get_constant_initializers() {
    let p = program(
        "int g = 3;\nint arr[5] = {1, 2};\nconst int c = -1;\nunsigned char s[] = \"ab\";\n\
         int m[2][3] = {{1}, {4, 5}};\nint flat[2][2] = {1, 2, 3};\nint *ptr = 0;\nenum { A = 2, B };\n\
         long e = B * 2 + sizeof(arr);\nstatic long z;\nint t[4] = {[2] = 7};\n_Bool bo = 9;\nint tent;\nint tent = 8;\n\
         int use(void) { return g + arr[0] + c + s[0] + m[0][0] + flat[0][0] + (ptr != 0) + e + z + t[0] + bo + tent; }\n",
    );
    let g = |n: &str| p.global(p.global_by_name(n).unwrap_or_else(|| panic!("{n}")));
    assert_eq!(g("g").init, vec![3]);
    assert_eq!((g("arr").count, g("arr").init.clone()), (5, vec![1, 2]));
    assert_eq!((g("c").init.clone(), g("c").is_const), (vec![0xFFFF_FFFF], true));
    assert_eq!((g("s").count, g("s").elem, g("s").init.clone()), (3, Type::I8, vec![97, 98]));
    assert_eq!(g("m").init, vec![1, 0, 0, 4, 5]);
    assert_eq!(g("m").src.as_ref().unwrap().shape, Shape::Array(6));
    assert_eq!(g("flat").init, vec![1, 2, 3]);
    assert_eq!((g("ptr").elem, g("ptr").init.clone()), (Type::Ptr, vec![]));
    assert_eq!(g("e").init, vec![3 * 2 + 20]);
    assert_eq!((g("z").elem, g("z").init.clone()), (Type::I64, vec![]));
    assert_eq!(g("t").init, vec![0, 0, 7]);
    assert_eq!(g("bo").init, vec![1]);
    assert_eq!(g("tent").init, vec![8]);
    assert!(!g("g").is_const);
    assert_eq!(p.globals.iter().filter(|x| x.name == "tent").count(), 1);
}

#[test]
fn static_locals_become_globals_and_blocks_get_own_slots() {
    let p = program("int counter(void) { static int n = 5; return n++; }\nint f(int x) { int y = 1; { int y = 2; x += y; } return x + y; }\n");
    let n = p.global(p.global_by_name("counter.n").unwrap());
    assert_eq!((n.init.clone(), n.src.clone()), (vec![5], None));
    let f = func(&p, "f");
    assert_eq!(f.locals.iter().filter(|l| l.name == "y").count(), 2);
    let mut it = interp::Interp::new(&p);
    assert_eq!(it.call_by_name("f", &[0]), Some(3));
    assert_eq!((it.call_by_name("counter", &[]), it.call_by_name("counter", &[])), (Some(5), Some(6)));
}

#[test]
fn arrays_are_flattened_and_zero_filled() {
    let p = program(
        "int f(int i, int j) { int m[3][4] = {{1, 2}, [2] = {9}}; char s[4] = \"ab\"; return m[i][j] + s[3]; }",
    );
    let f = func(&p, "f");
    let m = f.locals.iter().find(|l| l.name == "m").unwrap();
    assert_eq!((m.elem, m.count), (Type::I32, 12));
    let s = f.locals.iter().find(|l| l.name == "s").unwrap();
    assert_eq!((s.elem, s.count), (Type::I8, 4));
    // 12 + 4 element stores plus the two parameters.
    assert_eq!(insts(f).filter(|i| matches!(i.kind, InstKind::Store { .. })).count(), 18);
    let mut it = interp::Interp::new(&p);
    assert_eq!(it.call_by_name("f", &[0, 1]), Some(2));
    assert_eq!(it.call_by_name("f", &[2, 0]), Some(9));
    assert_eq!(it.call_by_name("f", &[1, 3]), Some(0));
}

#[test]
fn loops_are_natural_with_the_documented_headers() {
    // for: continue jumps to the step block, which jumps to the header.
    let p =
        program("int f(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i == 2) continue; s += i; } return s; }");
    let f = func(&p, "f");
    let header = f
        .blocks
        .iter()
        .position(|b| matches!(b.term, Terminator::Branch { .. }) && b.term_loc.col == 43)
        .expect("header with `i < n`");
    let preds: Vec<usize> =
        (0..f.blocks.len()).filter(|&b| f.blocks[b].term.successors().iter().any(|s| s.index() == header)).collect();
    assert_eq!(preds.len(), 2, "entry and the step block:\n{}", print(&p, f));
    let step = preds.iter().copied().find(|&b| b > header).unwrap();
    assert!(
        insts_of(f, step).any(|k| matches!(k, InstKind::Bin { op: BinOp::Add, .. })),
        "the step block increments i"
    );
    assert_eq!(interp::Interp::new(&p).call_by_name("f", &[5]), Some(8));
}

fn insts_of(f: &pathwise_ir::FuncData, b: usize) -> impl Iterator<Item = &InstKind> {
    f.blocks[b].insts.iter().map(|i| &i.kind)
}

#[test]
fn locations_point_at_the_source() {
    let src = "int f(int x)\n{\n    if (x > 1)\n        return 2;\n    return x;\n}\n";
    let p = program(src);
    assert_eq!(p.files[0], "test.c");
    let f = func(&p, "f");
    assert_eq!(f.loc, Loc { file: 0, line: 1, col: 5 });
    let rets: Vec<(u32, u32)> = f
        .blocks
        .iter()
        .filter(|b| matches!(b.term, Terminator::Return(_)))
        .map(|b| (b.term_loc.line, b.term_loc.col))
        .collect();
    assert_eq!(rets, vec![(4, 9), (5, 5)]);
    let load_x = insts(f).find(|i| matches!(i.kind, InstKind::Load { .. })).unwrap();
    assert_eq!((load_x.loc.line, load_x.loc.col), (3, 9));
}

#[test]
fn falling_off_the_end_returns_zero() {
    let p = program("int f(int x) { if (x) return 1; }\nvoid g(int x) { x++; }\nint *h(void) { }\n");
    let rets = |n: &str| -> Vec<Terminator> {
        func(&p, n).blocks.iter().filter(|b| matches!(b.term, Terminator::Return(_))).map(|b| b.term.clone()).collect()
    };
    assert!(rets("f").contains(&Terminator::Return(Some(Operand::Const(Type::I32, 0)))));
    assert_eq!(rets("g"), vec![Terminator::Return(None)]);
    assert_eq!(rets("h"), vec![Terminator::Return(Some(Operand::Const(Type::Ptr, 0)))]);
}

#[test]
fn declared_functions_become_declarations_only_when_called() {
    let p = program(
        "#include <stdlib.h>\n#include <string.h>\nint helper(int);\nint unused(int);\n\
         int f(int x) { if (x < 0) abort(); if (x > 100) exit(3); return helper(x); }\n",
    );
    let names: Vec<&str> = p.funcs.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, vec!["f", "abort", "exit", "helper"]);
    // A call in dead code does not declare its callee.
    let p2 = program("#include <stdlib.h>\nint g(int x) { if (0) abort(); return x; }\n");
    assert_eq!(p2.funcs.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), vec!["g"]);
    let abort = func(&p, "abort");
    assert!(abort.is_declaration() && abort.params.is_empty() && abort.ret.is_none());
    let exit = func(&p, "exit");
    assert_eq!((exit.params.len(), exit.params[0].ty), (1, Type::I32));
    let helper = func(&p, "helper");
    assert_eq!((helper.ret, helper.num_regs), (Some(Type::I32), 1));
    // abort and exit are noreturn: their blocks end in `unreachable`.
    assert_eq!(func(&p, "f").blocks.iter().filter(|b| b.term == Terminator::Unreachable).count(), 2);
}

#[test]
fn assert_and_pathwise_h_work() {
    let p = program(
        "#include <assert.h>\n#include \"pathwise.h\"\n#include <pathwise.h>\n\
         int f(int *a, int n) { pathwise_array_len(a, n); assume(n > 0 && n < 10); assert(a[0] >= 0); return a[n - 1]; }\n",
    );
    for name in ["pathwise_array_len", "pathwise_assume", "__assert_fail"] {
        assert!(func(&p, name).is_declaration(), "{name}");
    }
    let assume = func(&p, "pathwise_assume");
    assert_eq!((assume.params.len(), assume.params[0].ty, assume.ret), (1, Type::I32, None));
    let len = func(&p, "pathwise_array_len");
    assert_eq!(len.params.iter().map(|p| p.ty).collect::<Vec<_>>(), vec![Type::Ptr, Type::I64]);
    // __assert_fail's string arguments are null pointers.
    let call = insts(func(&p, "f"))
        .find_map(|i| match &i.kind {
            InstKind::Call { func: id, args } if p.func(*id).name == "__assert_fail" => Some(args.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(call[0], Operand::Const(Type::Ptr, 0));
    assert_eq!(call[1], Operand::Const(Type::Ptr, 0));
    // The header's temporary directory does not leak into the program.
    let h = &p.files[func(&p, "pathwise_assume").loc.file as usize];
    assert_eq!(h, "pathwise.h");
}

#[test]
fn compilation_is_deterministic() {
    let src = "#include \"pathwise.h\"\n#include <stdlib.h>\nint g[3] = {1};\nint f(int *a, int n) { pathwise_assume(n > 0); if (!a) abort(); return a[n - 1] + g[0]; }\n";
    assert_eq!(program(src), program(src));
}

#[test]
fn every_register_is_defined_before_use() {
    // `compile` runs the verifier (types, dominance, reachability) on every
    // function; this program exercises the constructs that split blocks
    // inside expressions.
    let c = compile(
        "int g(int);\nint arr[4];\n\
         int f(int a, int b, int *p) {\n\
           int r = (a > b ? a++ : b--) + (a && b) * (a || !b) + g(a ? b : 3);\n\
           r += p ? p[a] : 0;\n\
           for (int i = 0; i < a && i < 4; i++) { arr[i] = i ? arr[i - 1] + i : r; if (!p) continue; p[i]++; }\n\
           switch (r & 3) { case 0: r++; case 1: { r *= 2; break; } default: r = a < b ? a : b; }\n\
           do { r -= 3; if (r < -10) goto out; } while (r > 0 || (b && a));\n\
           r = ({ int t = r; t * 2; }) + (a, b);\n\
         out:\n\
           return r ? r : (a ? 1 : (b ? 2 : 3));\n\
         }\n",
    );
    assert!(c.unsupported.is_empty());
    let f = func(&c.program, "f");
    assert!(f.num_regs > 100);
}

#[test]
fn program_file_table_lists_headers_only_when_used() {
    let p = program("#include <stdlib.h>\nint f(void) { return 1; }\n");
    assert_eq!(p.files, vec!["test.c".to_string()]);
    let p = program("#include <stdlib.h>\nint f(void) { abort(); }\n");
    assert_eq!(p.files.len(), 2);
    assert!(p.files[1].ends_with("stdlib.h"));
    assert_eq!(func(&p, "abort").loc.file, 1);
}

#[test]
fn defines_and_include_dirs_are_passed_to_the_preprocessor() {
    let dir = std::env::temp_dir().join(format!("cfront-inc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("my.h"), "#define TWICE(x) ((x) * 2)\nstatic inline int sq(int v) { return v * v; }\n")
        .unwrap();
    let opts = pathwise_cfront::FrontendOptions {
        include_dirs: vec![dir.clone()],
        defines: vec!["N=21".into(), "-DM=1".into()],
        data_model: pathwise_cfront::DataModel::Lp64,
        extra_args: vec![],
    };
    let c = pathwise_cfront::compile_source(
        "t.c",
        "#include <my.h>\nint f(void) { return TWICE(N) + M + sq(3); }\n",
        &opts,
    )
    .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    verify_program(&c.program);
    let mut it = interp::Interp::new(&c.program);
    assert_eq!(it.call_by_name("f", &[]), Some(52));
    // The inline helper from the user header is lowered; it lives in my.h.
    let sq = func(&c.program, "sq");
    assert!(!sq.is_declaration() && sq.is_static);
    assert!(c.program.files[sq.loc.file as usize].ends_with("my.h"));
}

#[test]
fn typedefs_enums_and_qualifiers_resolve() {
    let p = program(
        "typedef const int cint;\ntypedef unsigned char byte;\ntypedef byte row[4];\nenum e { X = 3 };\n\
         cint k = 7;\nrow table[2] = {{1}, {2}};\nconst char *const msgs[1] = {0};\n\
         int f(enum e v, register volatile byte b, const byte *restrict p) { typedef long L; L l = v; return l + b + p[0] + X; }\n",
    );
    let k = p.global(p.global_by_name("k").unwrap());
    assert!(k.is_const);
    let t = p.global(p.global_by_name("table").unwrap());
    assert_eq!((t.elem, t.count, t.init.clone()), (Type::I8, 8, vec![1, 0, 0, 0, 2]));
    assert_eq!(t.src.as_ref().unwrap().c_scalar, "unsigned char");
    assert!(p.global(p.global_by_name("msgs").unwrap()).is_const);
    let f = func(&p, "f");
    let names: Vec<&str> = f.params.iter().map(|p| p.src.c_scalar.as_str()).collect();
    // An enumeration is spelled by its name (issue 28), read as gcc's
    // type for one without negative constants, an `unsigned int`.
    assert_eq!(names, vec!["enum e", "unsigned char", "unsigned char"]);
    assert_eq!((f.params[0].src.scalar.ty, f.params[0].src.scalar.signed), (Type::I32, false));
}

#[test]
fn builtin_expect_is_transparent_in_conditions() {
    let p = program("#define likely(x) __builtin_expect(!!(x), 1)\nint f(int a, int b) { if (likely(a > 0 && b)) return 1; return 0; }\n");
    let f = func(&p, "f");
    assert_eq!(branches(f), 2);
    assert_eq!(cmp_ops(f), vec![(CmpOp::Sgt, Type::I32), (CmpOp::Ne, Type::I32)]);
}

#[test]
fn columns_survive_whitespace_comments_and_macro_arguments() {
    let src = "#include <assert.h>\nint f(int a,   int b) {\n\tif (a  >  0   &&   /* x */ b)\n\t\treturn 1;\n\tassert(a  > 0);\n    return   a   +  b;\n}\n";
    let p = program(src);
    let f = func(&p, "f");
    assert_eq!(branch_locs(f), vec![(3, 6), (3, 29), (5, 9)], "{}", print(&p, f));
    let last = f.blocks.iter().rev().find(|b| matches!(b.term, Terminator::Return(_))).unwrap();
    assert_eq!((last.term_loc.line, last.term_loc.col), (6, 5));
    let load_a = insts(f).find(|i| matches!(i.kind, InstKind::Load { .. }) && i.loc.line == 6).unwrap();
    assert_eq!(load_a.loc.col, 14);
}

#[test]
fn loop_headers_are_the_condition_blocks_or_the_do_body() {
    let src = "int f(int n) {\n  int s = 0, i = 0;\n  while (i < n) { i++; if (i == 3) continue; s++; }\n  \
               for (int j = 0; j < n; j++) { if (j == 2) continue; s += j; }\n  \
               do { s--; if (s == 7) continue; s--; } while (s > 0);\n  \
               while (1) { if (++s > 5) break; }\n  return s;\n}\n";
    let p = program(src);
    let f = func(&p, "f");
    let info = pathwise_ir::LoopInfo::compute(f);
    assert_eq!(info.loops.len(), 4, "{}", print(&p, f));
    // (location of the header's first instruction, of its terminator)
    let header = |l: &pathwise_ir::Loop| {
        let b = f.block(l.header);
        let first = b.insts.first().map(|i| (i.loc.line, i.loc.col)).unwrap_or_default();
        (first, (b.term_loc.line, b.term_loc.col))
    };
    let headers: Vec<_> = info.loops.iter().map(header).collect();
    // while and for: the block of the condition, nothing else; do-while: the
    // body's first statement (`s--`); while (1): the body (`++s`).
    assert_eq!(headers, vec![((3, 10), (3, 10)), ((4, 19), (4, 19)), ((5, 8), (5, 17)), ((6, 21), (6, 19))]);
    // `continue` jumps to the header of a while loop (a second back edge),
    // to the step of a for loop and to the condition of a do-while (which
    // then take the single back edge).
    let latches: Vec<usize> = info.loops.iter().map(|l| l.latches.len()).collect();
    assert_eq!(latches, vec![2, 1, 1, 1], "{}", print(&p, f));
    assert_eq!(interp::Interp::new(&p).call_by_name("f", &[4]), Some(6));
}

/// The `(len, end)` of each `checkindex` of `f`, in order.
fn index_checks(f: &pathwise_ir::FuncData) -> Vec<(u64, bool)> {
    insts(f)
        .filter_map(|i| match i.kind {
            InstKind::CheckIndex { len, end, .. } => Some((len, end)),
            _ => None,
        })
        .collect()
}

#[test]
fn subscripts_of_arrays_inside_objects_are_checked_against_their_length() {
    let p = program(
        "struct r { int buf[8]; unsigned head; };\n\
         struct m { unsigned len; char text[1]; };\n\
         struct t { unsigned head; int ring[8]; };\n\
         union u { int w[2]; char b[8]; };\n\
         int fixed_tail(struct t *t, int i) { return t->ring[i]; }\n\
         int in_union(union u *u, int i) { return u->w[i]; }\n\
         int member(struct r *r, int i) { return r->buf[i]; }\n\
         int *address(struct r *r, int i) { return &r->buf[i]; }\n\
         int constant(struct r *r) { return r->buf[0] + r->buf[7]; }\n\
         int trailing(struct m *m, int i) { return m->text[i]; }\n\
         int whole(int i) { int a[4] = {0}; return a[i]; }\n\
         int rows(int i, int j) { int m[3][4] = {{0}}; return m[i][j]; }\n\
         int *row(int i) { static int m[3][4]; return m[i]; }\n\
         int nested(struct r rs[2], int i, int j) { struct r t[2][2]; (void)rs; t[0][1] = rs[1]; return t[i][j].buf[0]; }\n",
    );
    // A member that others follow: i < 8; its address: i <= 8.
    assert_eq!(index_checks(func(&p, "member")), vec![(8, false)]);
    assert_eq!(index_checks(func(&p, "address")), vec![(8, true)]);
    // Constants within the bound need no check.
    assert_eq!(index_checks(func(&p, "constant")), vec![]);
    // A trailing array may be a flexible array member; a whole object's
    // bounds are checked at the access.
    assert_eq!(index_checks(func(&p, "trailing")), vec![]);
    // A trailing array of 8 is no flexible array member; a union's
    // members are views of the same bytes.
    assert_eq!(index_checks(func(&p, "fixed_tail")), vec![(8, false)]);
    assert_eq!(index_checks(func(&p, "in_union")), vec![]);
    assert_eq!(index_checks(func(&p, "whole")), vec![]);
    // A row is inside the array: its subscript is checked, the row index
    // is the object's; a row that decays may point one past the end.
    assert_eq!(index_checks(func(&p, "rows")), vec![(4, false)]);
    assert_eq!(index_checks(func(&p, "row")), vec![]);
    // t[i] is a row of two structures inside t, accessed through.
    assert_eq!(index_checks(func(&p, "nested")), vec![(2, false)]);
}
