//! Recursion depth of mutually recursive functions
//! (`tests/c/mutual_recursion.c`): seed 000 (Peña & Sánchez-Hernández,
//! section 4.4) measures a path's depth in a call-graph cycle by the hits of
//! the cycle's entry function minus one, so a call along the cycle is no
//! level of its own; k bounds that depth.

mod common;

use common::*;

fn program() -> pathwise_ir::Program {
    compile(&std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/c/mutual_recursion.c"))
}

fn tests_at(program: &pathwise_ir::Program, function: &str, k: u32) -> pathwise_engine::suite::TestSuite {
    let suite = generate(program, &config(function, None, k));
    check_sound(&suite);
    assert_eq!(returned(&suite), suite.tests.len(), "{function}: {:?}", errors(&suite));
    suite
}

#[test]
fn recursive_descent_nesting_is_the_depth() {
    // A path is a sequence of tests of the character at the cursor. At
    // depth 0 (no '(' allowed): '5' or anything else (not '(' and not
    // '5'): 2 paths. At depth <= 1 add '(' followed by a depth-0 path and
    // the test for ')' (true or false): 2 + 2 * 2 = 6 (k = 1). At depth
    // <= 2, '(' followed by one of the 6 depth-<=1 paths and the test for
    // ')': after an inner path that ends on a failed test for ')' the
    // cursor has not moved, so the outer test can only fail (1 way); after
    // the others it can go either way (2 ways):
    //   inner '5', inner other:            2 + 2
    //   inner '(' '5' then ')' or not:     2 + 1
    //   inner '(' other then ')' or not:   2 + 1
    // so 2 + 10 = 12 (k = 2). Before the fix each of eval_expr,
    // eval_term, eval_factor was a level: parse had 0 tests at k = 1, 2
    // at k = 2 and needed k = 5 for "(5)".
    let p = program();
    assert_eq!(tests_at(&p, "parse", 1).tests.len(), 6);
    let suite = tests_at(&p, "parse", 2);
    assert_eq!(suite.tests.len(), 12);
    let fives = suite.tests.iter().filter(|t| t.ret == Some(5)).count();
    // "5", "(5)" and "((5))".
    assert_eq!(fives, 3);
}

#[test]
fn a_cycle_that_avoids_the_entry_is_bounded_too() {
    // ping(n) calls pong(n - 1); pong(m) returns for m <= 0, calls
    // pong(m - 1) for odd m and ping(m - 1) for even m. Every n > 0 is one
    // path, activating ping and pong alternately: n = 1..5 gives (ping,
    // pong) activations (1,1) (1,2) (2,2) (2,3) (3,3), n = 6 (3,4). The
    // depth is the most activations of any function of the cycle minus
    // one (pong -> pong does not pass the entry ping, yet nests): at k = 2
    // n <= 0 and n = 1..5, 6 tests; at k = 1, n <= 0 and n = 1..3, 4.
    // Counting only the hits of the entry ping would admit n = 6 too (ping
    // has 3 activations) and leave pong's own recursion unbounded in
    // general. (Before the fix every frame of the cycle counted: 3 tests at
    // k = 2, 2 at k = 1.)
    let p = program();
    assert_eq!(tests_at(&p, "ping", 2).tests.len(), 6);
    assert_eq!(tests_at(&p, "ping", 1).tests.len(), 4);
}
