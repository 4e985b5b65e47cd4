//! gcc's integer bit built-ins (`__builtin_clz`, `ctz`, `popcount`,
//! `parity`, `ffs` with their `l`/`ll` forms, `bswap16/32/64`): their
//! values against gcc's in both data models, and their lowering into
//! straight-line code (no branch, hence no decision).

mod common;

use common::interp::Interp;
use common::*;
use pathwise_cfront::{compile_source, DataModel, FrontendOptions};
use pathwise_ir::{InstKind, Program};

/// Each `long long tN(void)` folds a built-in over many values (a
/// polynomial hash, so that every result counts). The values are arrays
/// read at run time, so the lowering is what computes, not the folding of
/// constants; `t9` checks the folding of constants too.
const CASES: &str = r#"
#include <stdint.h>
static const unsigned U[] = { 1, 2, 3, 5, 0x80, 0xff, 0x100, 0x7fffffff, 0x80000000u, 0xffffffffu,
    0x12345678, 0xdeadbeefu, 0x00010000, 0x40000001, 0x0f0f0f0f, 0xf0f0f0f0u };
static const unsigned long long L[] = { 1, 2, 0x80, 0xffffffffull, 0x100000000ull, 0x8000000000000000ull,
    0xffffffffffffffffull, 0x0123456789abcdefull, 0xfedcba9876543210ull, 0x00ff00ff00ff00ffull,
    0x7fffffffffffffffull, 0x0000000100000001ull, 0x5555555555555555ull, 0x4000000000000000ull };
#define NU (sizeof U / sizeof U[0])
#define NL (sizeof L / sizeof L[0])
#define MIX(s, v) ((s) = (s) * 131u + (unsigned long long)(v))
long long t0(void) { unsigned long long s = 0; for (unsigned i = 0; i < NU; i++) MIX(s, __builtin_clz(U[i])); return s; }
long long t1(void) { unsigned long long s = 0; for (unsigned i = 0; i < NL; i++) { unsigned long v = L[i]; if (v) MIX(s, __builtin_clzl(v)); } return s; }
long long t2(void) { unsigned long long s = 0; for (unsigned i = 0; i < NL; i++) MIX(s, __builtin_clzll(L[i])); return s; }
long long t3(void) { unsigned long long s = 0;
    for (unsigned i = 0; i < NU; i++) MIX(s, __builtin_ctz(U[i]));
    for (unsigned i = 0; i < NL; i++) { unsigned long v = L[i] << 3; if (v) MIX(s, __builtin_ctzl(v)); MIX(s, __builtin_ctzll(L[i])); }
    return s; }
long long t4(void) { unsigned long long s = __builtin_popcount(0) + __builtin_popcountll(0);
    for (unsigned i = 0; i < NU; i++) MIX(s, __builtin_popcount(U[i]));
    for (unsigned i = 0; i < NL; i++) { MIX(s, __builtin_popcountl(L[i])); MIX(s, __builtin_popcountll(L[i])); }
    return s; }
long long t5(void) { unsigned long long s = 0; unsigned z = 0;
    MIX(s, __builtin_parity(z)); MIX(s, __builtin_parityll(z));
    for (unsigned i = 0; i < NU; i++) MIX(s, __builtin_parity(U[i]));
    for (unsigned i = 0; i < NL; i++) { MIX(s, __builtin_parityl(L[i])); MIX(s, __builtin_parityll(L[i])); }
    return s; }
long long t6(void) { unsigned long long s = 0; int z = 0; long long zl = 0;
    MIX(s, __builtin_ffs(z)); MIX(s, __builtin_ffsl(z)); MIX(s, __builtin_ffsll(zl));
    for (unsigned i = 0; i < NU; i++) MIX(s, __builtin_ffs((int)U[i]));
    for (unsigned i = 0; i < NL; i++) { MIX(s, __builtin_ffsl((long)L[i])); MIX(s, __builtin_ffsll((long long)(L[i] << 7))); }
    return s; }
long long t7(void) { unsigned long long s = 0;
    for (unsigned i = 0; i < NU; i++) { MIX(s, __builtin_bswap16((uint16_t)U[i])); MIX(s, __builtin_bswap32(U[i])); }
    for (unsigned i = 0; i < NL; i++) MIX(s, __builtin_bswap64(L[i]));
    return s; }
/* Argument conversions and result types. */
long long t8(void) { int m1 = -1; signed char c = -128; long long big = 0x12345; unsigned long long s = 0;
    MIX(s, __builtin_clz(m1)); MIX(s, __builtin_popcount(c)); MIX(s, __builtin_popcountll(m1));
    MIX(s, __builtin_ffs(c)); MIX(s, __builtin_bswap16(big)); MIX(s, __builtin_bswap32(c));
    MIX(s, sizeof(__builtin_bswap16(1)) * 100 + sizeof(__builtin_bswap64(1)) * 10 + sizeof(__builtin_clzll(1)));
    MIX(s, __builtin_bswap16(1) - 0x200 < 0); MIX(s, __builtin_bswap32(1) - 0x2000000 < 0);
    MIX(s, __builtin_clzl(1) + __builtin_ctzl(0x80000000ul) + __builtin_popcountl(-1l));
    return s; }
/* Constant arguments fold. */
long long t9(void) { return __builtin_popcount(0xff) * 1000000 + __builtin_clz(1) * 10000 + __builtin_ctzll(1ull << 40) * 100
    + __builtin_ffs(0) + __builtin_parity(7) + (long long)__builtin_bswap32(0x11223344); }
"#;

const N_CASES: usize = 10;

fn program_in(model: DataModel, src: &str) -> Program {
    let opts = FrontendOptions { data_model: model, ..Default::default() };
    let c = compile_source("test.c", src, &opts).unwrap_or_else(|e| panic!("{e}"));
    verify_program(&c.program);
    assert!(c.unsupported.is_empty(), "{:?}", c.unsupported);
    c.program
}

#[test]
fn bit_builtins_compute_what_gcc_computes_in_both_models() {
    let mut main = String::from("#include <stdio.h>\nint main(void) {\n");
    for i in 0..N_CASES {
        main += &format!("    printf(\"%lld\\n\", t{i}());\n");
    }
    main += "    return 0;\n}\n";
    for (model, flags) in [(DataModel::Lp64, &[][..]), (DataModel::Ilp32, &["-m32"][..])] {
        let expected: Vec<i64> = gcc_run_flags(flags, CASES, &main).lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(expected.len(), N_CASES);
        let p = program_in(model, CASES);
        let mut it = Interp::new(&p);
        for (i, want) in expected.iter().enumerate() {
            let got = it.call_by_name(&format!("t{i}"), &[]).unwrap() as i64;
            assert_eq!(got, *want, "{model:?}: t{i}");
        }
    }
}

#[test]
fn bit_builtins_are_straight_line_code() {
    let src = "int f(unsigned x, unsigned long long y, int z) {\n\
        return __builtin_clz(x) + __builtin_ctzll(y) + __builtin_popcount(x) + __builtin_parityll(y)\n\
          + __builtin_ffs(z) + (int)__builtin_bswap64(y) + __builtin_bswap16(z);\n}\n";
    let p = program_in(DataModel::Lp64, src);
    let f = func(&p, "f");
    assert_eq!(f.blocks.len(), 1, "{}", print(&p, f));
    assert_eq!(branches(f), 0);
    // `clz` and `ctzll` check their argument (0 is undefined); nothing else calls.
    let checks: Vec<&InstKind> = insts(f).map(|i| &i.kind).filter(|k| matches!(k, InstKind::Call { .. })).collect();
    assert_eq!(checks.len(), 2, "{}", print(&p, f));
    assert!(func(&p, "__pathwise_builtin_nonzero").is_declaration());
    // Nothing but shifts, masks, adds, a comparison and casts: no
    // multiplication or division, which the solver handles far worse.
    use pathwise_ir::BinOp::*;
    for i in insts(f) {
        if let InstKind::Bin { op, nsw, .. } = i.kind {
            assert!(matches!(op, Add | Sub | Shl | LShr | And | Or | Xor), "{op:?}");
            assert!(!nsw || op == Add, "only the C additions of the results may overflow");
        }
    }
    // Evaluated by the reference interpreter on a few inputs.
    let mut it = Interp::new(&p);
    let r = it.call_by_name("f", &[0x00f0_0000, 1 << 40, -8i64 as u64]).unwrap() as u32 as i32;
    let want = 8 + 40 + 4 + 1 + 4 + 0x10000 + 0xf8ff;
    assert_eq!(r, want);
}

#[test]
fn declared_misused_or_unknown_builtins() {
    // A program's own declaration wins over the built-in.
    let p = program_in(
        DataModel::Lp64,
        "int __builtin_popcount(unsigned);\nint f(unsigned x) { return __builtin_popcount(x); }\n",
    );
    let f = func(&p, "f");
    let calls: Vec<String> = insts(f)
        .filter_map(|i| match &i.kind {
            InstKind::Call { func, .. } => Some(p.func(*func).name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, vec!["__builtin_popcount"]);
    // Misuses are errors, as for gcc.
    let e = compile_err("struct s { int a; };\nint f(struct s v) { return __builtin_clz(v); }\nint g(void) { return __builtin_ctz(1, 2); }\n");
    assert!(e.contains("test.c:2:42: error: `__builtin_clz` needs an integer argument, not `struct s`"), "{e}");
    assert!(e.contains("test.c:3:22: error: `__builtin_ctz` expects 1 argument, 2 given"), "{e}");
    // A name gcc does not have is still reported as unsupported, located.
    let c = compile("int h(unsigned x) { return __builtin_clrsb(x); }\n");
    assert_eq!(c.unsupported.len(), 1);
    assert_eq!(
        c.unsupported[0].diagnostic.to_string(),
        "test.c:1:28: error: unsupported: the gcc built-in `__builtin_clrsb`"
    );
}
