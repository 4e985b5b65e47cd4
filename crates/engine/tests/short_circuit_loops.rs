//! Loops whose condition is a chain of `&&`/`||` (`tests/c/short_circuit_loops.c`):
//! every branch of the chain that decides between another iteration and
//! leaving the loop is a loop decision, so at most k iterations run per
//! entry whichever operand chose them, and each iteration counts once.
//!
//! The counts are derived by hand for k = 2 (a path is its sequence of
//! decisions; the input arrays' lengths are free, up to 16 elements, so
//! no read of `s[i]` is an error here: the string contract, under which
//! `blanks_after_first` reading `s[1]` of an empty string is one, is
//! turned off).

mod common;

use common::*;

fn program() -> pathwise_ir::Program {
    compile(&std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/c/short_circuit_loops.c"))
}

/// Tests of `function` at k = 2, all returning normally, the search complete.
fn count(program: &pathwise_ir::Program, function: &str, strict: bool) -> usize {
    let cfg = pathwise_engine::config::Config {
        strict_loop_count: strict,
        infer_contracts: false,
        ..config(function, None, 2)
    };
    let suite = generate(program, &cfg);
    check_sound(&suite);
    assert_eq!(returned(&suite), suite.tests.len(), "{function}: {:?}", errors(&suite));
    suite.tests.len()
}

#[test]
fn conjunction_of_symbolic_operands() {
    // `while (i < n && s[i] == ' ')`: the loop is left at i = 0, 1 or 2,
    // either because i >= n or because s[i] is not a space: 3 * 2 = 6.
    // (Both operands already were loop decisions: unchanged by the fix.)
    let p = program();
    assert_eq!(count(&p, "skip_spaces_n", false), 6);
    assert_eq!(count(&p, "skip_spaces_n", true), 6);
}

#[test]
fn disjunction_bounds_every_iteration() {
    // `while (s[i] == ' ' || s[i] == '\t')`: each iteration is chosen by a
    // space or by a tab; the loop is left at i = 0, 1 or 2 on a character
    // that is neither: 1 + 2 + 4 = 7 paths. Before the fix only the tab
    // (the chain's last branch) was a loop decision, so runs of spaces
    // were free: 696 tests, bounded only by --max-array-len.
    let p = program();
    assert_eq!(count(&p, "skip_blanks", false), 7);
    assert_eq!(count(&p, "skip_blanks", true), 7);
}

#[test]
fn next_word_has_a_product_of_bounded_loops() {
    // The blank-skipping loop: 7 paths (above), ending on a character c0
    // that is neither a space nor a tab. The word loop
    // `while (s[i] != '\0' && s[i] != ' ' && s[i] != '\t')` then leaves
    // at once if c0 == '\0' (its other tests of c0 cannot fail), or after
    // 1 or 2 iterations on '\0', ' ' or '\t': 1 + 3 + 3 = 7 paths.
    // 7 * 7 = 49 (3828 before the fix).
    let p = program();
    assert_eq!(count(&p, "next_word", false), 49);
}

#[test]
fn disjunction_under_a_concrete_conjunct() {
    // `while ((s[i] == ' ' || s[i] == '\t') && i < 8)`: `i < 8` does not
    // depend on the inputs, so only the disjunction's branches choose the
    // iterations; the first one decides alone when s[i] is a space.
    // As for skip_blanks: 7. Before the fix spaces were free up to the
    // cap: sum_{j<8} T(j) + 3 T(8) = 92 + 111 = 203 with T(m) = 1 + m +
    // m(m-1)/2 the words of length m with at most 2 tabs.
    let p = program();
    assert_eq!(count(&p, "skip_blanks_capped", false), 7);
}

#[test]
fn do_while_disjunction() {
    // The first iteration is free (no decision chose it); the condition
    // on s[1], s[2], s[3] then chooses at most 2 more: 1 + 2 + 4 = 7
    // (575 before the fix). Under the strict count the first iteration
    // counts too: left on s[1] or s[2], 1 + 2 = 3.
    let p = program();
    assert_eq!(count(&p, "blanks_after_first", false), 7);
    assert_eq!(count(&p, "blanks_after_first", true), 3);
}

#[test]
fn symbolic_if_in_a_fixed_count_loop_is_no_loop_decision() {
    // Three rounds of `if (a[i] > 0)`: 2^3 = 8 paths; the rounds do not
    // count (both sides of the `if` meet before the loop's condition).
    let p = program();
    assert_eq!(count(&p, "count_positive", false), 8);
}
