//! The ILP32 data model (`gcc -m32`) next to the default LP64: sizes of
//! `long`, pointers and the standard typedefs, conversions between `long`
//! and `unsigned int`, and the IR types they produce.

mod common;

use common::interp::Interp;
use common::*;
use pathwise_cfront::{compile_source, DataModel, FrontendOptions};
use pathwise_ir::{BinOp, CmpOp, InstKind, Operand, Program, Type};

fn program_in(model: DataModel, src: &str) -> Program {
    let opts = FrontendOptions { data_model: model, ..Default::default() };
    let c = compile_source("test.c", src, &opts).unwrap_or_else(|e| panic!("{e}"));
    verify_program(&c.program);
    assert!(c.unsupported.is_empty(), "{:?}", c.unsupported);
    c.program
}

fn run(p: &Program, name: &str, args: &[u64]) -> u64 {
    Interp::new(p).call_by_name(name, args).unwrap()
}

const SIZES: &str = "#include <stddef.h>\n#include <stdint.h>\n\
    long s_long(void) { return sizeof(long) * 100 + sizeof(unsigned long) * 10 + sizeof(long long); }\n\
    long s_ptr(void) { return sizeof(void *) * 100 + sizeof(int **) * 10 + sizeof(char *[3]); }\n\
    long s_typedefs(void) { return sizeof(size_t) * 100 + sizeof(ptrdiff_t) * 10 + sizeof(intptr_t); }\n\
    long s_expr(void) { long l = 0; int *p = 0; return sizeof(l + 1u) * 10 + sizeof p; }\n\
    long s_align(void) { return _Alignof(long long) * 10 + _Alignof(long); }\n";

#[test]
fn sizes_follow_the_data_model() {
    let p = program_in(DataModel::Ilp32, SIZES);
    assert_eq!(run(&p, "s_long", &[]), 448);
    assert_eq!(run(&p, "s_ptr", &[]), 452);
    assert_eq!(run(&p, "s_typedefs", &[]), 444);
    assert_eq!(run(&p, "s_expr", &[]), 44);
    assert_eq!(run(&p, "s_align", &[]), 44);
    // `long` is an `i32` in the IR, spelt `long` for emitters.
    let f = func(&p, "s_long");
    assert_eq!(f.ret, Some(Type::I32));
    assert_eq!(f.ret_src.as_ref().map(|s| s.c_scalar.as_str()), Some("long"));
    let p = program_in(DataModel::Lp64, SIZES);
    assert_eq!(run(&p, "s_long", &[]), 888);
    assert_eq!(run(&p, "s_ptr", &[]), 888 + 16);
    assert_eq!(run(&p, "s_typedefs", &[]), 888);
    assert_eq!(run(&p, "s_expr", &[]), 88);
    assert_eq!(run(&p, "s_align", &[]), 88);
}

#[test]
fn unsigned_long_wraps_at_2_to_the_32_under_ilp32() {
    let src = "unsigned long inc(unsigned long x) { return x + 1; }\n\
               unsigned long max(void) { unsigned long x = 4294967295UL; return x + 1; }\n\
               long long widen(unsigned long x) { return x + 1LL; }\n";
    let p = program_in(DataModel::Ilp32, src);
    let inc = func(&p, "inc");
    assert_eq!(inc.params[0].ty, Type::I32);
    assert!(
        insts(inc).any(|i| matches!(i.kind, InstKind::Bin { op: BinOp::Add, ty: Type::I32, nsw: false, .. })),
        "{}",
        print(&p, inc)
    );
    assert_eq!(run(&p, "inc", &[0xFFFF_FFFF]), 0);
    assert_eq!(run(&p, "max", &[]), 0);
    assert_eq!(run(&p, "widen", &[0xFFFF_FFFF]), 1 << 32);
    let p = program_in(DataModel::Lp64, src);
    assert_eq!(run(&p, "inc", &[0xFFFF_FFFF]), 1 << 32);
}

#[test]
fn long_and_unsigned_int_convert_to_unsigned_long_under_ilp32() {
    let src = "int lt(long l, unsigned int u) { return l < u; }\n\
               long sum(long l, unsigned int u) { return l + u; }\n";
    let p = program_in(DataModel::Ilp32, src);
    let lt = func(&p, "lt");
    let cmps: Vec<(CmpOp, Type)> = insts(lt)
        .filter_map(|i| match i.kind {
            InstKind::Cmp { op, ty, .. } => Some((op, ty)),
            _ => None,
        })
        .collect();
    assert_eq!(cmps, vec![(CmpOp::Ult, Type::I32)], "{}", print(&p, lt));
    // -1L < 1u: -1 becomes ULONG_MAX (32 bits).
    assert_eq!(run(&p, "lt", &[0xFFFF_FFFF, 1]), 0);
    let sum = func(&p, "sum");
    assert!(insts(sum).all(|i| !matches!(i.kind, InstKind::Cast { .. })), "{}", print(&p, sum));
    assert!(insts(sum).any(|i| matches!(i.kind, InstKind::Bin { op: BinOp::Add, ty: Type::I32, nsw: false, .. })));
    // LP64: `long` holds every `unsigned int`, so the comparison is signed.
    let p = program_in(DataModel::Lp64, src);
    let lt = func(&p, "lt");
    assert!(insts(lt).any(|i| matches!(i.kind, InstKind::Cmp { op: CmpOp::Slt, ty: Type::I64, .. })));
    assert_eq!(run(&p, "lt", &[u64::MAX, 1]), 1);
}

#[test]
fn pointer_arithmetic_uses_the_irs_pointer_cells() {
    // sizeof(int *) is 4, but `int *` elements occupy 8-byte cells of the
    // IR's memory: `p + 2` is 16 bytes on, and differences count elements.
    let src = "int f(void) { int x = 1, y = 2; int *a[3] = {&x, &x, &y}; int **p = a; return **(p + 2) * 10 + (int)(&a[2] - &a[0]); }\n";
    let p = program_in(DataModel::Ilp32, src);
    let f = func(&p, "f");
    let offsets: Vec<u64> = insts(f)
        .filter_map(|i| match i.kind {
            InstKind::PtrAdd { offset: Operand::Const(Type::I64, o), .. } => Some(o),
            _ => None,
        })
        .collect();
    assert!(offsets.contains(&16), "{}", print(&p, f));
    assert_eq!(run(&p, "f", &[]), 22);
}

/// Compiles `src` and `main` with `gcc -m32` and returns the output.
fn gcc_run_m32(src: &str, main: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cfront-m32-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (c, exe) = (dir.join("t.c"), dir.join("t"));
    std::fs::write(&c, format!("{src}\n{main}\n")).unwrap();
    let st = std::process::Command::new("gcc")
        .args(["-m32", "-w", "-O0", "-fwrapv", "-o"])
        .arg(&exe)
        .arg(&c)
        .status()
        .unwrap();
    assert!(st.success(), "gcc -m32 failed (is gcc-multilib installed?)");
    let out = std::process::Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(out.stdout).unwrap()
}

const CASES: &str = r#"
#include <stddef.h>
long long t0(void) { long l = 2147483647L; l++; return l; }
long long t1(void) { unsigned long u = 0; u--; return u; }
long long t2(void) { return 2147483648 > 0 ? sizeof(2147483648) : 0; }
long long t3(void) { return -1L < 1U; }
long long t4(void) { long l = -5; unsigned u = 3; return l * u; }
long long t5(void) { size_t n = 0; n -= 1; return n; }
long long t6(void) { int a[10]; return &a[7] - &a[2] + sizeof(&a[7] - &a[2]) * 100; }
long long t7(void) { unsigned long x = 0x80000000UL; return (x << 1) + (x >> 31); }
long long t8(void) { long long ll = 1LL << 40; long l = (long)ll; return l + sizeof(ll) * 1000; }
long long t9(void) { return 0xFFFFFFFF + 1 + sizeof(0xFFFFFFFFF) * 10; }
long long t10(void) { unsigned long a = 3000000000UL, b = 3000000000UL; return a + b; }
long long t11(void) { return sizeof(void *) + sizeof(long) * 10 + sizeof(size_t) * 100; }
"#;

const N_CASES: usize = 12;

#[test]
fn ilp32_lowering_computes_what_gcc_m32_computes() {
    let mut main = String::from("#include <stdio.h>\nint main(void) {\n");
    for i in 0..N_CASES {
        main += &format!("    printf(\"%lld\\n\", t{i}());\n");
    }
    main += "    return 0;\n}\n";
    let expected: Vec<i64> = gcc_run_m32(CASES, &main).lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(expected.len(), N_CASES);
    let p = program_in(DataModel::Ilp32, CASES);
    let mut it = Interp::new(&p);
    for (i, want) in expected.iter().enumerate() {
        let got = it.call_by_name(&format!("t{i}"), &[]).unwrap() as i64;
        assert_eq!(got, *want, "t{i}");
    }
}

#[test]
fn sv_benchmark_style_program_lowers_under_ilp32() {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/sv_style.c"));
    let opts = FrontendOptions { data_model: DataModel::Ilp32, ..Default::default() };
    let c = pathwise_cfront::compile_file(path, &opts).unwrap_or_else(|e| panic!("{e}"));
    verify_program(&c.program);
    let names: Vec<&str> = c.unsupported.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, vec!["uses_div"]);
    assert!(!func(&c.program, "main").is_declaration());
}
