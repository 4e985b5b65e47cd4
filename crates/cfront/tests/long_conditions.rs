//! Long chains of `&&` and `||` (generated code, large guards): each
//! operand becomes one decision, and lowering stays linear in the chain.

mod common;

use common::*;
use pathwise_ir::Terminator;

fn chain(n: usize, op: &str) -> String {
    let terms: Vec<String> = (0..n).map(|i| format!("x != {i}")).collect();
    format!("int f(int x) {{\n  if ({})\n    return 1;\n  return 0;\n}}\n", terms.join(op))
}

fn branches(p: &pathwise_ir::Program) -> usize {
    func(p, "f").blocks.iter().filter(|b| matches!(b.term, Terminator::Branch { .. })).count()
}

#[test]
fn a_long_and_chain_is_one_decision_per_operand() {
    let n = 10_000;
    let p = program(&chain(n, " && "));
    assert_eq!(branches(&p), n);
    let p = program(&chain(n, " || "));
    assert_eq!(branches(&p), n);
}

#[test]
fn constant_operands_of_a_chain_fold_as_before() {
    // `1 &&` drops out, `0 ||` too; `x && 0` still evaluates x.
    let p = program("int g(void);\nint f(int x) {\n  if (1 && x > 2 && 1) return 1;\n  if (0 || x < 0 || 0) return 2;\n  if (0 && x) return 3;\n  if (x == 5 && 0) return 4;\n  return 0;\n}\n");
    assert_eq!(branches(&p), 3, "{}", print(&p, func(&p, "f")));
    let mut it = common::interp::Interp::new(&p);
    for (x, want) in [(3, 1), (-1, 2), (1, 0), (0, 0), (5, 1)] {
        assert_eq!(it.call_by_name("f", &[x as u64 & 0xffff_ffff]), Some(want));
    }
}
