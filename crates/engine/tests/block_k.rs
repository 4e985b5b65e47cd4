//! The block-k criterion (seed 003, section 2.1.4) beside k-path: exact path
//! counts on small C programs where the two criteria differ, each justified
//! next to its test. Under block-k every basic block of the function and of
//! its callees is entered at most k times per path (all activations
//! together); a `for`/`while` condition block is entered once per iteration
//! plus once to leave.

mod common;

use common::*;
use pathwise_engine::config::Criterion;
use pathwise_engine::suite::TestSuite;

fn run(src: &str, function: &str, criterion: Criterion, k: u32) -> TestSuite {
    let program = compile_str("blockk.c", src);
    let mut config = config(function, None, k);
    config.criterion = criterion;
    let suite = generate(&program, &config);
    check_sound(&suite);
    assert_eq!(suite.criterion, criterion);
    suite
}

/// Every test returns normally and the number of tests.
fn count(src: &str, function: &str, criterion: Criterion, k: u32) -> usize {
    let suite = run(src, function, criterion, k);
    assert_eq!(returned(&suite), suite.tests.len(), "{:#?}", suite.tests);
    suite.tests.len()
}

const LOOP_BRANCH: &str = "
int lb(int n, int x) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (x == i)
            s = s + 10;
        s++;
    }
    return s;
}";

/// A loop with a branch inside. 2-path: 0 iterations (1 path), 1 iteration
/// (x == 0 or not: 2), 2 iterations (x == 0, x == 1 or neither: 3; both is
/// infeasible) = 6. Block-2: the condition block `i < n` is entered once
/// per iteration and once more to leave, so at most 1 iteration: 1 + 2 = 3.
/// Block-3 allows 2 iterations (the `s = s + 10` block is entered at most
/// once whatever x is): the same 6 as 2-path.
#[test]
fn loop_with_a_branch() {
    assert_eq!(count(LOOP_BRANCH, "lb", Criterion::KPath, 2), 6);
    assert_eq!(count(LOOP_BRANCH, "lb", Criterion::BlockK, 2), 3);
    assert_eq!(count(LOOP_BRANCH, "lb", Criterion::BlockK, 3), 6);
    // Block-1: the condition block cannot be entered a second time, so the
    // only path is n <= 0; a run with n > 0 commits to the excess at the
    // decision, and the search never solves for it.
    let suite = run(LOOP_BRANCH, "lb", Criterion::BlockK, 1);
    assert_eq!(suite.tests.len(), 1);
    assert!(suite.stats.bound_pruned_prefixes >= 1);
}

/// Loop-free code of one activation enters each block once: block-k is plain
/// path coverage for every k >= 1, like k-path (2 x 2 = 4 paths).
#[test]
fn straight_line_code() {
    let src = "
int sl(int a, int b) {
    int r = 0;
    if (a > 0) r += 1;
    if (b > 0) r += 2;
    return r;
}";
    assert_eq!(count(src, "sl", Criterion::KPath, 1), 4);
    assert_eq!(count(src, "sl", Criterion::BlockK, 1), 4);
    assert_eq!(count(src, "sl", Criterion::BlockK, 2), 4);
}

const NESTED: &str = "
int nest(int n, int m) {
    int s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            s++;
    return s;
}";

/// Nested loops. k-path counts iterations per entry: with 2, n <= 0 (1 path)
/// or n in {1, 2} with m in {<= 0, 1, 2} (the inner loop runs the same number
/// of times on each entry): 1 + 2 * 3 = 7. Block-k counts the inner
/// condition block over the whole path: block-2 allows 1 outer iteration and
/// inner condition entries <= 2, so (n <= 0), (n = 1, m <= 0), (n = 1,
/// m = 1) = 3. Block-3: n = 1 with m in {<= 0, 1, 2} (inner condition
/// entered 1, 2, 3 times), and n = 2 only with m <= 0 (2 entries; m = 1
/// would need 4): 1 + 3 + 1 = 5.
#[test]
fn nested_loops() {
    assert_eq!(count(NESTED, "nest", Criterion::KPath, 2), 7);
    assert_eq!(count(NESTED, "nest", Criterion::BlockK, 2), 3);
    assert_eq!(count(NESTED, "nest", Criterion::BlockK, 3), 5);
}

const TWICE: &str = "
static int sgn(int x) {
    if (x > 0) return 1;
    if (x < 0) return -1;
    return 0;
}
int twice(int a, int b) { return sgn(a) + sgn(b); }
int thrice(int a, int b, int c) { return sgn(a) + sgn(b) + sgn(c); }";

/// A callee called from straight-line code: its blocks are blocks of the
/// program, counted over the path. k-path bounds no calls: 3 x 3 = 9 paths.
/// Block-1: the second call enters sgn's first block a second time, so no
/// path is within the bound (every run ends as bound-exceeded). Block-2: 9.
/// Three calls need block-3 (27 paths); block-2 admits none of them.
#[test]
fn callee_called_twice() {
    assert_eq!(count(TWICE, "twice", Criterion::KPath, 1), 9);
    let suite = run(TWICE, "twice", Criterion::BlockK, 1);
    assert_eq!(suite.tests.len(), 0);
    assert!(suite.stats.bound_exceeded_runs > 0);
    assert_eq!(count(TWICE, "twice", Criterion::BlockK, 2), 9);
    assert_eq!(count(TWICE, "thrice", Criterion::BlockK, 2), 0);
    assert_eq!(count(TWICE, "thrice", Criterion::BlockK, 3), 27);
}

/// The extra blocks of `&&` do not change the counts: the loop written with
/// `&&` and with a `break` has the same block-2 paths, (n <= 0), (n > 0,
/// x == 0), (n == 1, x != 0), (n > 1, x == 1): at most one full iteration,
/// and the second condition (or the `if`) is evaluated at most twice.
/// 2-path tells them apart: with `&&` the loop's iterations are its body
/// executions, so a path may leave at either condition after 0, 1 or 2
/// iterations (6 paths); with `break` leaving at `x == i` after the second
/// body entry is the second iteration, and a third is beyond the bound
/// (5 paths: n <= 0; x == 0; n == 1; x == 1; n == 2).
#[test]
fn short_circuit_blocks_do_not_count_apart() {
    let and = "
int f(int n, int x) {
    int i = 0;
    while (i < n && x != i)
        i++;
    return i;
}";
    let brk = "
int f(int n, int x) {
    int i = 0;
    while (i < n) {
        if (x == i)
            break;
        i++;
    }
    return i;
}";
    assert_eq!(count(and, "f", Criterion::BlockK, 2), 4);
    assert_eq!(count(brk, "f", Criterion::BlockK, 2), 4);
    assert_eq!(count(and, "f", Criterion::KPath, 2), 6);
    assert_eq!(count(brk, "f", Criterion::KPath, 2), 5);
}

/// Where a loop tests its condition matters (as in the thesis's bytecode): a
/// `while` condition block is entered iterations + 1 times, a `do`-`while`
/// body and condition once per iteration. Block-2: `while` runs 0 or 1
/// times (2 paths), `do`-`while` 1 or 2 times (2 paths); 2-path: 3 and 3,
/// since a `do`-`while`'s first iteration is no decision's and does not
/// count towards k (under seed 002's strict count: 3 and 2).
#[test]
fn while_and_do_while() {
    let wh = "int w(int n) { int i = 0; while (i < n) i++; return i; }";
    let dw = "int d(int n) { int i = 0; do { i++; } while (i < n); return i; }";
    assert_eq!(count(wh, "w", Criterion::BlockK, 2), 2);
    assert_eq!(count(wh, "w", Criterion::KPath, 2), 3);
    assert_eq!(count(dw, "d", Criterion::BlockK, 2), 2);
    assert_eq!(count(dw, "d", Criterion::KPath, 2), 3);
    let strict = pathwise_engine::config::Config { strict_loop_count: true, ..config("d", None, 2) };
    let suite = generate(&compile_str("blockk.c", dw), &strict);
    check_sound(&suite);
    assert_eq!(suite.tests.len(), 2, "strict count: 1 or 2 iterations");
    let suite = run(dw, "d", Criterion::BlockK, 2);
    let mut rets: Vec<i128> = suite.tests.iter().map(|t| t.ret.expect("returns")).collect();
    rets.sort();
    assert_eq!(rets, [1, 2]);
}
