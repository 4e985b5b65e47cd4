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
    // One directory per call: the tests of this file run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("cfront-m32-{}-{call}", std::process::id()));
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

/// The ABI types the front end knows, as `(C type, probe)` pairs: each
/// probe is an expression gcc and the front end must agree on, `sizeof`
/// times 10 plus whether the type is signed (`(T)-1 < (T)0`), or for
/// pointers only the size. Enumerations follow gcc's rules: `unsigned int`
/// without negative constants, `int` with, `long`/`long long` (or their
/// unsigned forms) when the constants do not fit 32 bits; an enumeration
/// constant is `int` when its value fits.
const ABI_TYPES: &[&str] = &[
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "_Bool",
    "size_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "wchar_t",
    "int8_t",
    "uint16_t",
    "int32_t",
    "uint64_t",
    "float",
    "double",
    "long double",
    "enum e_pos",
    "enum e_neg",
    "enum e_big",
    "enum e_neg_big",
    "enum e_huge",
    "enum e_neg_huge",
    "enum e_edge",
];

const ABI_DECLS: &str = "#include <stddef.h>\n#include <stdint.h>\n\
    enum e_pos { P0, P1 };\n\
    enum e_neg { N0 = -1, N1 };\n\
    enum e_big { B0 = 0x80000000 };\n\
    enum e_neg_big { M0 = -1, M1 = 0x80000000 };\n\
    enum e_huge { H0 = 0x100000000 };\n\
    enum e_neg_huge { G0 = -1, G1 = 0x100000000 };\n\
    enum e_edge { E0 = 2147483646, E1 };\n\
    struct ld_s { char c; long double x; int k; };\n";

/// Expressions about enumeration constants and values (types of
/// constants, comparisons that depend on an enumeration's signedness), and
/// the layout of `long double` (12 bytes aligned to 4 on i386, 16 and 16
/// on x86-64).
const ENUM_PROBES: &[&str] = &[
    "sizeof(P0) * 10 + (P0 - 1 < 0)",
    "sizeof(B0) * 10 + (B0 > 0)",
    "sizeof(M1) * 10 + (M1 > 0)",
    "sizeof(H0) * 10 + (H0 > 0)",
    "sizeof(G1) * 10 + (G0 < 0)",
    "sizeof(E1) * 10 + (E1 > 0)",
    "({ enum e_pos x = P0; x - 1 > 0; })",
    "({ enum e_pos x = (enum e_pos)3000000000u; x > 5; })",
    "({ enum e_neg x = N0; x < 0; })",
    "sizeof(struct ld_s) * 100 + __builtin_offsetof(struct ld_s, k)",
    "sizeof(long double[3]) * 100 + _Alignof(long double)",
];

/// `long long t{i}(void)` for each type's probe, then each enum probe.
fn abi_probes() -> (String, usize) {
    let mut src = String::from(ABI_DECLS);
    let mut n = 0;
    for ty in ABI_TYPES {
        src += &format!("long long t{n}(void) {{ return sizeof({ty}) * 10 + (({ty})-1 < ({ty})0); }}\n");
        n += 1;
    }
    for ty in ["void *", "int *", "char **", "struct s *"] {
        src += &format!("long long t{n}(void) {{ return sizeof({ty}) * 10; }}\n");
        n += 1;
    }
    for e in ENUM_PROBES {
        src += &format!("long long t{n}(void) {{ return {e}; }}\n");
        n += 1;
    }
    (src, n)
}

/// gcc's values of the probes under `model` (`-m32` for ILP32).
fn gcc_probe_values(model: DataModel, src: &str, n: usize) -> Vec<i64> {
    let mut main = String::from("#include <stdio.h>\nint main(void) {\n");
    for i in 0..n {
        main += &format!("    printf(\"%lld\\n\", t{i}());\n");
    }
    main += "    return 0;\n}\n";
    let out = match model {
        DataModel::Ilp32 => gcc_run_m32(src, &main),
        DataModel::Lp64 => gcc_run(src, &main),
    };
    out.lines().map(|l| l.parse().unwrap()).collect()
}

/// sizeof and signedness of every ABI type, in both data models, against
/// gcc (LP64 and `gcc -m32`).
#[test]
fn abi_types_match_gcc_in_both_models() {
    let (src, n) = abi_probes();
    for model in [DataModel::Lp64, DataModel::Ilp32] {
        let expected = gcc_probe_values(model, &src, n);
        assert_eq!(expected.len(), n, "{model:?}");
        let p = program_in(model, &src);
        let mut it = Interp::new(&p);
        let names: Vec<String> = ABI_TYPES
            .iter()
            .map(|t| t.to_string())
            .chain(["void *", "int *", "char **", "struct s *"].map(String::from))
            .chain(ENUM_PROBES.iter().map(|e| e.to_string()))
            .collect();
        for (i, want) in expected.iter().enumerate() {
            let got = it.call_by_name(&format!("t{i}"), &[]).unwrap() as i64;
            assert_eq!(got, *want, "{model:?}: {} (t{i}: sizeof * 10 + signed)", names[i]);
        }
    }
}

/// An enumeration's type is what emitters read values with, as gcc
/// chooses it: an `enum` without negative constants is an `unsigned int`
/// parameter, one that needs 64 bits an `unsigned long` (LP64) or
/// `unsigned long long` (ILP32). Emitters spell it by its name (issue 28:
/// `RED`, not `0U`).
#[test]
fn enum_parameters_have_gccs_types() {
    let src = "enum pos { A, B = 0x80000000 }; enum neg { C = -1 }; enum big { D = 0x100000000 };\n\
               int f(enum pos p, enum neg n, enum big b) { return p > 1 && n < 0 && b > 0; }\n";
    let p = program_in(DataModel::Lp64, src);
    let f = func(&p, "f");
    let spelled: Vec<(&str, Type, bool)> =
        f.params.iter().map(|p| (p.src.c_scalar.as_str(), p.src.scalar.ty, p.src.scalar.signed)).collect();
    assert_eq!(
        spelled,
        vec![("enum pos", Type::I32, false), ("enum neg", Type::I32, true), ("enum big", Type::I64, false)]
    );
    let p = program_in(DataModel::Ilp32, src);
    let big = &func(&p, "f").params[2].src;
    assert_eq!((big.c_scalar.as_str(), big.scalar.ty, big.scalar.signed), ("enum big", Type::I64, false));
}
